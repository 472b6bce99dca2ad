//! What every device page shares: back button, header with the device name, type and status (left
//! and right for the horse), the socket notice, live-map subscriptions for the devices the page
//! shows, and the clinical workspace for types with patients.

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BackButton } from '../../components/BackButton';
import { locationLabelKey } from '../../components/DeviceSettingsFields';
import { SocketStatusBanner } from '../../components/SocketStatusBanner';
import { StatusBadge } from '../../components/StatusBadge';
import { oidOf, type UserDevice } from '../../lib/api';
import type { DeviceTypeInfo } from '../../lib/deviceTypes';
import { deviceViewFamily, seedDevice } from '../../lib/devicesStore';
import { useDeviceActions } from '../../lib/deviceActions';
import { useServices } from '../../lib/services';
import { useSessionActions } from '../../lib/sessionActions';
import { useSession } from '../../lib/session';
import { useTopBarHeight } from '../../lib/topBarHeight';
import { BedsidePatientPanel, ClinicalWorkspace } from '../clinical';
import { TurnsPanel } from '../turns';
import type { RendererFactory } from './HeatMap';
import { RepositioningPanel } from './RepositioningPanel';
import { TarePanel } from './TarePanel';
import { useFrameShape } from './useLiveFrame';

export interface DevicePageProps {
  device: UserDevice;
  info: DeviceTypeInfo;
  createRenderer?: RendererFactory;
}

/** Subscribes to the live maps of `ids` while mounted; reports `deviceNotFound` from the hub. */
export function useLiveSubscriptions(ids: string[]): boolean {
  const { socket } = useServices();
  const [notFound, setNotFound] = useState(false);
  const key = ids.join(',');
  useEffect(() => {
    if (!socket) return;
    const list = key ? key.split(',') : [];
    socket.joinCompany();
    for (const id of list) socket.joinUser(id);
    const off = socket.onEvent((env) => {
      const data = env.data as { error?: string } | undefined;
      if (env.event === 'error' && data?.error === 'deviceNotFound') setNotFound(true);
    });
    return () => {
      off();
      for (const id of list) socket.leaveUser(id);
    };
  }, [socket, key]);
  return notFound;
}

export function DevicePageFrame({
  device,
  info,
  live,
  children,
  aside,
}: {
  device: UserDevice;
  info: DeviceTypeInfo;
  /** Ids whose live maps the page shows. */
  live: string[];
  children: ReactNode;
  /** Extra panels beside the main one. */
  aside?: ReactNode;
}) {
  const { t } = useTranslation();
  const store = useStore();
  const id = oidOf(device._id) as string;
  const view = useAtomValue(deviceViewFamily(id));
  const notFound = useLiveSubscriptions(live);
  const deviceActions = useDeviceActions(device);
  const session = useSessionActions();
  const topBar = useTopBarHeight();
  // A recorded turn re-reads the repositioning clock at once.
  const [turns, setTurns] = useState(0);

  useEffect(() => {
    seedDevice(store, device);
  }, [store, device]);

  const name = view.name || device.name;
  const sides = info.pageFamily === 'horse' ? view.sides ?? [] : [];

  return (
    <div className="page device-page" data-page-family={info.pageFamily} data-testid="device-page">
      <header className="device-header" ref={topBar}>
        <BackButton />
        <div className="device-title">
          <h1 data-testid="device-name">{name}</h1>
          <span className="muted">{t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType })}</span>
        </div>
        <span className="status-list" data-testid="header-status">
          {sides.length ? (
            sides.map((s) => <StatusBadge key={s.side} status={s.cardStatus} label={t(`device.side.${s.side}`)} />)
          ) : (
            <StatusBadge status={view.cardStatus} />
          )}
        </span>
        {session}
      </header>
      <main className="content device-layout">
        <SocketStatusBanner />
        {notFound ? (
          <div className="form-error" role="alert">
            {t('deviceNotFound')}
          </div>
        ) : null}
        <div className="device-main">{children}</div>
        <aside className="device-aside">
          <DetailsPanel device={device} info={info} />
          {info.bedsidePatient ? <BedsidePatientPanel device={device} /> : null}
          {info.repositioningClock ? <RepositioningPanel deviceId={id} refreshKey={turns} /> : null}
          {info.repositioningClock ? <TurnsPanel deviceId={id} seated={info.pageFamily === 'seating'} onRecorded={() => setTurns((n) => n + 1)} /> : null}
          {info.frame && !info.readingPresence ? <TarePanel deviceId={id} /> : null}
          {aside}
        </aside>
        {info.hasPatients ? (
          <div className="device-clinical">
            <ClinicalWorkspace device={device} capabilities={{ captures: info.captures, pdfReports: info.pdfReports, analysisFamily: info.analysisFamily }} deviceActions={deviceActions} />
          </div>
        ) : null}
      </main>
    </div>
  );
}

function DetailsPanel({ device, info }: { device: UserDevice; info: DeviceTypeInfo }) {
  const { t } = useTranslation();
  const id = oidOf(device._id) as string;
  const view = useAtomValue(deviceViewFamily(id));
  const shape = useFrameShape(id);
  const company = useSession()?.companyName ?? '';
  return (
    <section className="device-panel card">
      <h2>{t('device.details')}</h2>
      <dl>
        {company ? (
          <>
            <dt>{t('devices.company')}</dt>
            <dd>{company}</dd>
          </>
        ) : null}
        <dt>{t('devices.id')}</dt>
        <dd>{view.name || device.name}</dd>
        <dt data-testid="location-label">{t(locationLabelKey(info.location))}</dt>
        <dd>{view.bed || device.bed || '—'}</dd>
        {device.room ? (
          <>
            <dt>{t('device.room')}</dt>
            <dd>{device.room}</dd>
          </>
        ) : null}
        {info.pageFamily === 'force' && info.frame ? (
          // A force plate's cells are its load channels, not a map.
          <>
            <dt>{t('device.channels')}</dt>
            <dd data-testid="channel-count">{info.frame.rows * info.frame.cols}</dd>
          </>
        ) : shape ? (
          <>
            <dt>{t('device.mapSize')}</dt>
            <dd data-testid="map-size">{shape}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

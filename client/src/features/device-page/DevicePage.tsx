//! The generic live device page used by every mat route (spec §2 "Device page area"): back button,
//! header with the device name, presence panel, live heat map, streaming control and the device's
//! status. Without a device in navigation state it returns to /devices after 100 ms.

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { BackButton } from '../../components/BackButton';
import { SocketStatusBanner } from '../../components/SocketStatusBanner';
import { StatusBadge } from '../../components/StatusBadge';
import { oidOf, type UserDevice } from '../../lib/api';
import { deviceTypeInfo } from '../../lib/deviceTypes';
import { deviceConfFamily, deviceViewFamily, seedDevice } from '../../lib/devicesStore';
import { storedCompany } from '../../lib/session';
import { useServices } from '../../lib/services';
import { AnalysisArea } from '../analysis'; // MERGE: rendered by ClinicalWorkspace
import { HeatMap, type RendererFactory } from './HeatMap';
import { PresencePanel } from './PresencePanel';
import { StreamingControl } from './StreamingControl';
import './device-page.css';

export const NO_DEVICE_REDIRECT_MS = 100;

/** Reads the device from navigation state (an object, or a serialized one). */
export function deviceFromState(state: unknown): UserDevice | null {
  let device: unknown = state && typeof state === 'object' ? (state as { device?: unknown }).device : null;
  if (typeof device === 'string') {
    try {
      device = JSON.parse(device);
    } catch {
      return null;
    }
  }
  if (!device || typeof device !== 'object' || !oidOf((device as UserDevice)._id)) return null;
  return device as UserDevice;
}

export function DevicePage({ deviceType, createRenderer }: { deviceType: string; createRenderer?: RendererFactory }) {
  const location = useLocation();
  const navigate = useNavigate();
  const device = useMemo(() => deviceFromState(location.state), [location.state]);

  useEffect(() => {
    if (device) return;
    const timer = setTimeout(() => navigate('/devices', { replace: true }), NO_DEVICE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [device, navigate]);

  if (!device) return null;
  return <LiveDevice device={device} routeType={deviceType} createRenderer={createRenderer} />;
}

function LiveDevice({
  device,
  routeType,
  createRenderer,
}: {
  device: UserDevice;
  routeType: string;
  createRenderer?: RendererFactory;
}) {
  const { t } = useTranslation();
  const store = useStore();
  const { socket } = useServices();
  const id = oidOf(device._id) as string;
  const view = useAtomValue(deviceViewFamily(id));
  const conf = useAtomValue(deviceConfFamily(id));
  const [notFound, setNotFound] = useState(false);
  const info = deviceTypeInfo(device.deviceType) ?? deviceTypeInfo(routeType);
  const rows = info?.rows || 24;
  const cols = info?.cols || 24;

  useEffect(() => {
    seedDevice(store, device);
  }, [store, device]);

  useEffect(() => {
    if (!socket) return;
    socket.joinCompany();
    socket.joinUser(id);
    const off = socket.onEvent((env) => {
      const data = env.data as { error?: string } | undefined;
      if (env.event === 'error' && data?.error === 'deviceNotFound') setNotFound(true);
    });
    return () => {
      off();
      socket.leaveUser(id);
    };
  }, [socket, id]);

  const name = view.name || device.name;
  const typeLabel = t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType });
  const company = storedCompany();

  return (
    <div className="page device-page">
      <header className="device-header">
        <BackButton />
        <div className="device-title">
          <h1 data-testid="device-name">{name}</h1>
          <span className="muted">{typeLabel}</span>
        </div>
        <StatusBadge status={view.cardStatus} />
      </header>
      <main className="content device-layout">
        <SocketStatusBanner />
        {notFound ? (
          <div className="form-error" role="alert">
            {t('deviceNotFound')}
          </div>
        ) : null}
        <section className="map-panel card">
          <div className="map-toolbar">
            <PresencePanel deviceId={id} />
            <StreamingControl deviceId={id} functional={conf ? Boolean(conf.deviceFunctional) : null} />
          </div>
          <HeatMap deviceId={id} rows={rows} cols={cols} createRenderer={createRenderer} />
          <div className="map-legend" aria-hidden="true">
            <span>{t('device.legendLow')}</span>
            <span className="map-legend-bar" />
            <span>{t('device.legendHigh')}</span>
          </div>
        </section>
        <aside className="device-panel card">
          <h2>{t('device.details')}</h2>
          <dl>
            {company ? (
              <>
                <dt>{t('devices.company')}</dt>
                <dd>{company}</dd>
              </>
            ) : null}
            <dt>{t('devices.id')}</dt>
            <dd>{name}</dd>
            <dt>{t('devices.bed')}</dt>
            <dd>{view.bed || device.bed || '—'}</dd>
            {device.room ? (
              <>
                <dt>{t('device.room')}</dt>
                <dd>{device.room}</dd>
              </>
            ) : null}
            <dt>{t('devices.status')}</dt>
            <dd>
              {device.deviceType === 'Sensing Horse' && view.sides?.length ? (
                <span className="status-list">
                  {view.sides.map((s) => (
                    <StatusBadge key={s.side} status={s.cardStatus} label={t(`device.side.${s.side}`)} />
                  ))}
                </span>
              ) : (
                <StatusBadge status={view.cardStatus} />
              )}
            </dd>
            <dt>{t('device.mapSize')}</dt>
            <dd>
              {rows} × {cols}
            </dd>
          </dl>
        </aside>
        <AnalysisArea device={device} pdfReports={true} /> {/* MERGE: rendered by ClinicalWorkspace */}
      </main>
    </div>
  );
}

//! The devices screen (spec §2): language selector, top bar with the actions the app passes (logout),
//! and the responsive grid of device cards.

import { atom, useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SocketStatusBanner } from '../../components/SocketStatusBanner';
import { TopBar } from '../../components/TopBar';
import { deviceTypesAtom } from '../../lib/deviceTypes';
import { deviceIdsAtom, deviceInfoFamily, devicesLoadedAtom } from '../../lib/devicesStore';
import type { UserDevice } from '../../lib/api';
import { useSession } from '../../lib/session';
import { DeviceCard } from './DeviceCard';
import { GRID_CLASS } from './grid';
import { useDevicesSync } from './useDevicesSync';
import { isVisibleDevice } from './visibility';
import './devices.css';

/** Ids of the devices that get a card: listed by the REST call, not sub-devices. */
export const visibleDeviceIdsAtom = atom((get) => {
  const table = get(deviceTypesAtom);
  return get(deviceIdsAtom).filter((id) => {
    const device = get(deviceInfoFamily(id));
    return device !== null && isVisibleDevice(device, table);
  });
});

/** `leadingCard`: shown before the device cards (the admin-panel card); `cardActions`: added to each card. */
export function DevicesPage({
  headerActions,
  leadingCard,
  cardActions,
}: {
  headerActions?: ReactNode;
  leadingCard?: ReactNode;
  cardActions?: (device: UserDevice) => ReactNode;
}) {
  const { t } = useTranslation();
  useDevicesSync();
  const ids = useAtomValue(visibleDeviceIdsAtom);
  const devicesLoaded = useAtomValue(devicesLoadedAtom);
  const typesLoaded = useAtomValue(deviceTypesAtom) !== null;
  const loaded = devicesLoaded && typesLoaded;
  const company = useSession()?.companyName ?? '';

  return (
    <div className="page">
      <TopBar>{headerActions}</TopBar>
      <main className="content">
        <SocketStatusBanner />
        <div className="page-heading">
          <h1>{t('devices.title')}</h1>
          {company ? <span className="muted">{company}</span> : null}
        </div>
        {!loaded ? (
          <div className="devices-empty">{t('devices.loading')}</div>
        ) : ids.length === 0 ? (
          <>
            {leadingCard}
            <div className="devices-empty">{t('devices.empty')}</div>
          </>
        ) : (
          <div className={GRID_CLASS} data-testid="device-grid">
            {leadingCard}
            {ids.map((id) => (
              <DeviceCard key={id} deviceId={id} company={company} actions={cardActions} />
            ))}
          </div>
        )}
      </main>
    </div>
  );
}

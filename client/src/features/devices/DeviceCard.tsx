//! One device card: company, bed label, ID (device name) and status with its colour (spec §2).

import { useAtomValue, useStore } from 'jotai';
import type { KeyboardEvent, ReactNode } from 'react';
import type { UserDevice } from '../../lib/api';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { StatusBadge } from '../../components/StatusBadge';
import { routeForDeviceType } from '../../lib/deviceTypes';
import { deviceViewFamily } from '../../lib/devicesStore';
import { notify } from '../../lib/notifications';
import { statusColor } from '../../lib/status';

/** `actions`: what the app adds to the card for its device (the edit and info buttons). */
export function DeviceCard({ deviceId, company, actions }: { deviceId: string; company: string; actions?: (device: UserDevice) => ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const store = useStore();
  const view = useAtomValue(deviceViewFamily(deviceId));
  const typeLabel = t(`deviceTypes.${view.deviceType}`, { defaultValue: view.deviceType });
  const showBed = view.deviceType !== 'Shapes';

  const open = () => {
    const route = routeForDeviceType(view.deviceType);
    if (route === undefined) {
      console.error('invalid device type', view.deviceType);
      return;
    }
    // Known type without a page yet (room sets): nothing opens; say so.
    if (route === null) {
      notify(store, { kind: 'info', key: 'devices.noPageYet' }, 2500);
      return;
    }
    navigate(route, { state: { device: view.device ?? { _id: { $oid: view.id }, name: view.name, deviceType: view.deviceType } } });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };

  // A focusable element with role=button rather than <button>, whose content model would not
  // allow the card's block content.
  return (
    <div
      role="button"
      tabIndex={0}
      className="device-card"
      data-testid="device-card"
      data-device-id={view.id}
      data-device-type={view.deviceType}
      data-status={view.cardStatus}
      style={{ ['--status-color' as string]: statusColor(view.cardStatus) }}
      onClick={open}
      onKeyDown={onKeyDown}
    >
      <span className="device-card-type">{typeLabel}</span>
      {showBed ? <div className="device-card-bed">{view.bed || '—'}</div> : null}
      <dl>
        {company ? (
          <>
            <dt>{t('devices.company')}</dt>
            <dd title={company}>{company}</dd>
          </>
        ) : null}
        <dt>{t('devices.id')}</dt>
        <dd title={view.name}>{view.name}</dd>
      </dl>
      <div className="device-card-status">
        <StatusBadge status={view.cardStatus} />
        {view.deviceType === 'Sensing Horse' && view.sides?.length
          ? view.sides.map((s) => <StatusBadge key={s.side} status={s.cardStatus} label={t(`device.side.${s.side}`)} />)
          : null}
      </div>
      {view.device && actions ? actions(view.device) : null}
    </div>
  );
}

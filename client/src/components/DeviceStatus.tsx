//! A device's status badge; a device with sides (the horse saddle) shows its left and right sides,
//! each with its colour.

import { useTranslation } from 'react-i18next';
import type { DeviceView } from '../lib/devicesStore';
import { StatusBadge } from './StatusBadge';

export function DeviceStatus({ view }: { view: DeviceView }) {
  const { t } = useTranslation();
  if (view.sides?.length) {
    return (
      <span className="status-list">
        {view.sides.map((s) => (
          <StatusBadge key={s.side} status={s.cardStatus} label={t(`device.side.${s.side}`)} />
        ))}
      </span>
    );
  }
  return <StatusBadge status={view.cardStatus} />;
}

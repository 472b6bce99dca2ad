//! The seated-position page: the live map and the current position label (Seated while someone
//! sits, from the hub's presence verdict; empty otherwise), with the device log and, as the seat
//! watches a patient (a Missing alarm when they leave), its alarm history.

import { useTranslation } from 'react-i18next';
import { oidOf } from '../../../lib/api';
import { AlarmTable } from '../AlarmTable';
import { DeviceLogTable } from '../DeviceLogTable';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { LiveMapPanel } from '../LiveMapPanel';
import { usePresence } from '../useLiveFrame';

export function SeatedPositionPage({ device, info, createRenderer }: DevicePageProps) {
  const { t } = useTranslation();
  const id = oidOf(device._id) as string;
  const presence = usePresence(id);
  const label = presence === null ? t('device.presence.unknown') : presence === 'PRESENCE' ? t('pages.position.Seated') : t('pages.seatedPosition.empty');
  return (
    <DevicePageFrame device={device} info={info} live={[id]}>
      <LiveMapPanel deviceId={id} createRenderer={createRenderer}>
        <div className="position-label" data-testid="position-label" data-presence={presence ?? ''}>
          <span className="figure-label">{t('pages.seatedPosition.current')}</span>
          <strong>{label}</strong>
        </div>
      </LiveMapPanel>
      <DeviceLogTable deviceId={id} deviceName={device.name} info={info} />
      {info.bedsidePatient ? <AlarmTable deviceId={id} kindLabel={t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType })} /> : null}
    </DevicePageFrame>
  );
}

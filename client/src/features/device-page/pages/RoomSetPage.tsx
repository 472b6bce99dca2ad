//! Room set page (bed, seat, floor): three cards with each sensor's live presence (the hub's rule:
//! latest reading above 200) and reading, the alarm history of the set with its Attend button, and
//! the bed, seat and floor recordings. Members are the set's `system.devices`, in bed, seat, floor
//! order; their readings are pushed as live frames, the tables refresh every 3 s (spec §9).

import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/StatusBadge';
import { attendDevice } from '../../../lib/alarms';
import { oidOf } from '../../../lib/api';
import { deviceViewFamily } from '../../../lib/devicesStore';
import { AlarmTable } from '../AlarmTable';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { formatNumber } from '../../../lib/format';
import { memberStatus, roomMembers, type RoomRole } from '../../../lib/roomSet';
import { forceReading } from '../frameMath';
import { PresenceLogTable } from '../PresenceLogTable';
import { usePresence } from '../useLiveFrame';
import { useLiveSample } from '../useLiveSample';

function MemberCard({ role, id }: { role: RoomRole; id: string }) {
  const { t, i18n } = useTranslation();
  const store = useStore();
  const view = useAtomValue(deviceViewFamily(id));
  const presence = usePresence(id);
  const reading = useLiveSample(id, forceReading, 500);
  const [busy, setBusy] = useState(false);
  const present = presence === 'PRESENCE';
  const attend = async () => {
    setBusy(true);
    await attendDevice(store, id, t(`pages.room.${role}`));
    setBusy(false);
  };
  return (
    <article
      className={`card room-card ${present ? 'room-present' : ''} ${view.unattendedAlarm ? 'room-alarm' : ''}`}
      data-testid={`room-${role}`}
      data-presence={presence ?? ''}
      data-alarm={view.unattendedAlarm}
    >
      <header>
        <h3>{t(`pages.room.${role}`)}</h3>
        <StatusBadge status={memberStatus(view)} />
      </header>
      <p className="muted">{view.name}</p>
      <div className={`room-presence ${present ? 'presence-on' : 'presence-off'}`}>
        {presence === null ? t('device.presence.unknown') : t(`device.presence.${presence}`)}
      </div>
      <p className="room-reading" data-testid="room-reading">
        {t('pages.room.reading')}: <strong>{reading ? formatNumber(reading.total, i18n.resolvedLanguage ?? 'en', 0) : '—'}</strong>{' '}
        <span className="muted">{t('units.readingScale')}</span>
      </p>
      {view.unattendedAlarm ? (
        <button type="button" className="btn btn-attend" onClick={attend} disabled={busy}>
          {t('pages.attend')}
        </button>
      ) : null}
    </article>
  );
}

export function RoomSetPage({ device, info }: DevicePageProps) {
  const { t } = useTranslation();
  const id = oidOf(device._id) as string;
  const members = roomMembers(device.system?.devices);
  const kind = t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType });
  return (
    <DevicePageFrame device={device} info={info} live={members.map((m) => m.id)}>
      <div className="room-cards">
        {members.map((m) => (
          <MemberCard key={m.id} role={m.role} id={m.id} />
        ))}
      </div>
      <AlarmTable deviceId={id} kindLabel={kind} />
      <div className="room-recordings">
        {members.map((m) => (
          <PresenceLogTable key={m.id} deviceId={m.id} title={t(`pages.room.recordings.${m.role}`)} testId={`recordings-${m.role}`} />
        ))}
      </div>
    </DevicePageFrame>
  );
}

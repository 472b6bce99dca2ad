//! PRESENCE / ABSENCE panel, from the `presence` field of the live maps. While the browser's
//! socket is lost (`lib/liveLink`) the last presence is not live: the badge says "not live" and
//! when the last map was seen, until the socket is back.

import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { useLiveLink } from '../../lib/liveLink';
import { useLastFrameAt, usePresence } from './useLiveFrame';

export function PresencePanel({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const presence = usePresence(deviceId);
  const link = useLiveLink();
  const lastSeen = useLastFrameAt(deviceId) ?? link.lostAtMs;
  if (link.stale) {
    return (
      <div className="presence-panel presence-stale" data-testid="presence" data-presence={presence ?? ''} data-stale="true">
        <span className="presence-icon" aria-hidden="true" />
        <span className="presence-label">{t('device.presence.notLive')}</span>
        {lastSeen != null ? (
          <span className="presence-last-seen" data-testid="presence-last-seen">
            {t('device.presence.lastSeen', { time: fmt.time(lastSeen) })}
          </span>
        ) : null}
      </div>
    );
  }
  const cls = presence === 'PRESENCE' ? 'presence-on' : presence === 'ABSENCE' ? 'presence-off' : 'presence-unknown';
  return (
    <div className={`presence-panel ${cls}`} data-testid="presence" data-presence={presence ?? ''}>
      <span className="presence-icon" aria-hidden="true" />
      <span className="presence-label">{presence ? t(`device.presence.${presence}`) : t('device.presence.unknown')}</span>
    </div>
  );
}

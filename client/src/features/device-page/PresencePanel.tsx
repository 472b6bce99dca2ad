//! PRESENCE / ABSENCE panel, from the `presence` field of the live maps.

import { useTranslation } from 'react-i18next';
import { usePresence } from './useLiveFrame';

export function PresencePanel({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const presence = usePresence(deviceId);
  const cls = presence === 'PRESENCE' ? 'presence-on' : presence === 'ABSENCE' ? 'presence-off' : 'presence-unknown';
  return (
    <div className={`presence-panel ${cls}`} data-testid="presence" data-presence={presence ?? ''}>
      <span className="presence-icon" aria-hidden="true" />
      <span className="presence-label">{presence ? t(`device.presence.${presence}`) : t('device.presence.unknown')}</span>
    </div>
  );
}

//! Inline notice while the socket is down (spec §8: 'Something went wrong (Socket disconnected)'),
//! and, while the client reconnects on its own (issue 25: a hub died behind the balancer), that it
//! is reconnecting: the page stays as it is and its live data comes back without a reload.

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { socketStatusAtom } from '../lib/devicesStore';

export function SocketStatusBanner() {
  const { t } = useTranslation();
  const status = useAtomValue(socketStatusAtom);
  if (status !== 'down' && status !== 'reconnecting') return null;
  return (
    <div className="socket-banner" role="status" data-testid="socket-down" data-status={status}>
      {t('socketDisconnected')}
      {status === 'reconnecting' && (
        <span className="socket-banner-reconnecting" data-testid="socket-reconnecting">
          {t('socketReconnecting')}
        </span>
      )}
    </div>
  );
}

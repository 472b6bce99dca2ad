//! Inline notice while the socket is down (spec §8: 'Something went wrong (Socket disconnected)').

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { socketStatusAtom } from '../lib/devicesStore';

export function SocketStatusBanner() {
  const { t } = useTranslation();
  const status = useAtomValue(socketStatusAtom);
  if (status !== 'down') return null;
  return (
    <div className="socket-banner" role="status" data-testid="socket-down">
      {t('socketDisconnected')}
    </div>
  );
}

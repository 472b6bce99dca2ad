//! Recordings of one sensor: its entrances and exits (GET /api/presenceLogs/{id}, refreshed every
//! 3 s), newest first, 10 a page.

import { useTranslation } from 'react-i18next';
import { getPresenceLogs } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { INLINE } from '../../lib/messages';
import { PagedTable } from './PagedTable';
import { usePolling } from './usePolling';

export const PRESENCE_LOG_REFRESH_MS = 3000;

export function PresenceLogTable({ deviceId, title, testId }: { deviceId: string; title: string; testId?: string }) {
  const { t, i18n } = useTranslation();
  const logs = usePolling(() => getPresenceLogs(deviceId), PRESENCE_LOG_REFRESH_MS, `presenceLogs/${deviceId}`);
  const list = logs.data ?? [];
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <section className="card log-panel" data-testid={testId ?? 'presence-log'}>
      <h2>{title}</h2>
      <PagedTable
        polled={logs}
        items={list}
        emptyKey={INLINE.deviceLogEmpty}
        head={
          <>
            <th>{t('pages.log.date')}</th>
            <th>{t('pages.recordings.event')}</th>
          </>
        }
        row={(e, i) => (
          <tr key={`${e.creationDate}-${i}`} data-testid="presence-row">
            <td>{formatDateTime(e.creationDate * 1000, lng)}</td>
            <td>{e.logId === '1' ? t('pages.recordings.entrance') : t('pages.recordings.exit')}</td>
          </tr>
        )}
      />
    </section>
  );
}

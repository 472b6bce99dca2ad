//! Recordings of one sensor: its entrances and exits (GET /api/presenceLogs/{id}, refreshed every
//! 3 s), newest first, 10 a page.

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getPresenceLogs } from '../../lib/api';
import { formatDate } from './format';
import { pageCount, pageOf } from './logTable';
import { Pager } from './Pager';
import { usePolling } from './usePolling';

export const PRESENCE_LOG_REFRESH_MS = 3000;

export function PresenceLogTable({ deviceId, title, testId }: { deviceId: string; title: string; testId?: string }) {
  const { t, i18n } = useTranslation();
  const logs = usePolling(() => getPresenceLogs(deviceId), PRESENCE_LOG_REFRESH_MS, `presenceLogs/${deviceId}`);
  const [page, setPage] = useState(1);
  const list = logs.data ?? [];
  const pages = pageCount(list.length);
  const current = Math.min(page, pages);
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <section className="card log-panel" data-testid={testId ?? 'presence-log'}>
      <h2>{title}</h2>
      {logs.loading && !logs.data ? (
        <p className="muted">{t('pages.loading')}</p>
      ) : list.length === 0 ? (
        <p className="muted">{logs.failed ? t('pages.log.failed') : t('pages.log.empty')}</p>
      ) : (
        <>
          <table className="data-table">
            <thead>
              <tr>
                <th>{t('pages.log.date')}</th>
                <th>{t('pages.recordings.event')}</th>
              </tr>
            </thead>
            <tbody>
              {pageOf(list, current).map((e, i) => (
                <tr key={`${e.creationDate}-${i}`} data-testid="presence-row">
                  <td>{formatDate(e.creationDate, lng)}</td>
                  <td>{e.logId === '1' ? t('pages.recordings.entrance') : t('pages.recordings.exit')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={current} pages={pages} onPage={setPage} />
        </>
      )}
    </section>
  );
}

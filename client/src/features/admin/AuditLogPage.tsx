//! /adminPanel/auditLog (issue 14 §5): the administrative actions about or by the signed-in
//! administrator's company, newest first, a page at a time — time, user, action, entity, change.
//! The hub decides who may read it (403 for staff, shown as the admin panel's refusal).

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormPage } from '../../components/FormPage';
import { ApiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { getAuditLog, type AuditPage } from './adminApi';
import './admin.css';

/** The pages a total makes (at least one, so an empty log reads "page 1 of 1"). */
export const pageCount = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / Math.max(1, perPage)));

export function AuditLogPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [log, setLog] = useState<AuditPage | null>(null);
  const [refusal, setRefusal] = useState<'forbidden' | 'loadFailed' | null>(null);

  useEffect(() => {
    let current = true;
    getAuditLog(page)
      .then((answer) => {
        if (!current) return;
        setLog(answer);
        setRefusal(null);
      })
      .catch((err) => current && setRefusal(err instanceof ApiError && err.status === 403 ? 'forbidden' : 'loadFailed'));
    return () => {
      current = false;
    };
  }, [page]);

  const pages = log ? pageCount(log.total, log.perPage) : 1;
  // The page shown is the one whose rows are listed (the hub's answer), not the one asked for:
  // "Page 2 of 2" never heads page 1's rows while page 2 loads.
  const shown = log?.page ?? page;
  return (
    <FormPage title={t('admin.auditLog')}>
      {refusal ? (
        <div className="form-error" role="alert" data-testid="audit-refusal">
          {t(refusal === 'forbidden' ? 'admin.forbidden' : 'admin.auditLoadFailed')}
        </div>
      ) : !log ? (
        <div className="muted">{t('admin.loading')}</div>
      ) : log.entries.length === 0 ? (
        <p className="muted" data-testid="audit-empty">
          {t('admin.auditEmpty')}
        </p>
      ) : (
        <>
          <table className="audit-table" data-testid="audit-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.auditTime')}</th>
                <th scope="col">{t('admin.auditUser')}</th>
                <th scope="col">{t('admin.auditAction')}</th>
                <th scope="col">{t('admin.auditEntity')}</th>
                <th scope="col">{t('admin.auditChange')}</th>
              </tr>
            </thead>
            <tbody>
              {log.entries.map((entry) => (
                <tr key={entry.id} data-testid="audit-row" data-action={entry.action}>
                  <td>{format.dateTime(entry.at)}</td>
                  <td>{entry.userEmail || entry.userId}</td>
                  <td>{t(`admin.auditActions.${entry.action}`, { defaultValue: entry.action })}</td>
                  <td>
                    {t(`admin.auditEntities.${entry.entityType}`, { defaultValue: entry.entityType })} <code>{entry.entityId}</code>
                  </td>
                  <td>{entry.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="audit-pager">
            <button type="button" className="btn btn-ghost" disabled={shown <= 1} onClick={() => setPage(shown - 1)}>
              {t('admin.auditPrevious')}
            </button>
            <span data-testid="audit-page">{t('admin.auditPage', { page: shown, pages })}</span>
            <button type="button" className="btn btn-ghost" disabled={shown >= pages} onClick={() => setPage(shown + 1)}>
              {t('admin.auditNext')}
            </button>
          </div>
        </>
      )}
    </FormPage>
  );
}

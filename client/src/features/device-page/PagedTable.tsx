//! The body of a device-page table: loading, empty and failed states of a polled list, then the
//! rows 10 a page with previous / next.

import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pageCount, pageOf } from './logTable';
import { Pager } from './Pager';
import type { Polled } from './usePolling';

export function PagedTable<T>({
  polled,
  items,
  emptyKey,
  head,
  row,
}: {
  polled: Polled<unknown>;
  items: T[];
  emptyKey: string;
  head: ReactNode;
  row: (item: T, index: number) => ReactNode;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  if (polled.loading && !polled.data) return <p className="muted">{t('pages.loading')}</p>;
  if (items.length === 0) return <p className="muted">{polled.failed ? t('pages.log.failed') : t(emptyKey)}</p>;
  const pages = pageCount(items.length);
  const current = Math.min(page, pages);
  return (
    <>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>{head}</tr>
          </thead>
          <tbody>{pageOf(items, current).map(row)}</tbody>
        </table>
      </div>
      <Pager page={current} pages={pages} onPage={setPage} />
    </>
  );
}

//! Previous / next with 'page X of Y' for the device page tables.

import { useTranslation } from 'react-i18next';

export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <nav className="pager" aria-label={t('pages.pager.label')}>
      <button type="button" className="btn btn-ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pages.pager.previous')}
      </button>
      <span data-testid="pager-status">{t('pages.pager.status', { page, pages })}</span>
      <button type="button" className="btn btn-ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('pages.pager.next')}
      </button>
    </nav>
  );
}

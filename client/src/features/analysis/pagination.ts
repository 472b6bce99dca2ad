//! History pagination arithmetic (spec §2, §4, §9): pages of 10, 'page X of Y', 'analyses A to B
//! of N', previous disabled on page 1 and next on the last page.

export const HISTORY_PAGE_SIZE = 10;
/** Storage quota shown beside the storage used (spec §9). */
export const STORAGE_QUOTA_MB = 100;

export interface PageSummary {
  page: number;
  totalPages: number;
  /** First analysis on the page, 1-based; 0 when there are none. */
  first: number;
  /** Last analysis on the page. */
  last: number;
  total: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** What the pagination bar shows for `page` of `total` analyses. */
export function pageSummary(page: number, total: number, pageSize = HISTORY_PAGE_SIZE): PageSummary {
  const totalPages = Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page)), totalPages);
  const first = total > 0 ? (current - 1) * pageSize + 1 : 0;
  const last = Math.min(total, current * pageSize);
  return { page: current, totalPages, first, last, total, hasPrevious: current > 1, hasNext: current < totalPages };
}

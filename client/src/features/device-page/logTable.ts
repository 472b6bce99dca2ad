//! Pure rules of the device log table (spec §2 "Device log table"): the position label, sorting by
//! date and paging.

import type { DeviceLogEntry } from '../../lib/api';
import type { DeviceTypeInfo } from '../../lib/deviceTypes';

export const LOG_PAGE_SIZE = 10;

/** The i18n key of an entry's position: the posture the hub read (Supine, Prone, Left Lateral,
 * Right Lateral, Seated; Supine / No Supine on the Sleep Mat), or PRESENCE / MISSING when there is
 * no prediction (or the type reads no posture). */
export function positionKey(entry: DeviceLogEntry, posture: DeviceTypeInfo['posture']): string {
  if (posture && entry.position) return `pages.position.${entry.position}`;
  return entry.maxPressure > 0 ? 'pages.position.PRESENCE' : 'pages.position.MISSING';
}

export const entrySeconds = (e: DeviceLogEntry): number => (Array.isArray(e.creationDate) ? Number(e.creationDate[1]) || 0 : 0);

export function sortByDate(entries: DeviceLogEntry[], direction: 'asc' | 'desc'): DeviceLogEntry[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...entries].sort((a, b) => sign * (entrySeconds(a) - entrySeconds(b)));
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / LOG_PAGE_SIZE));
}

export function pageOf<T>(items: T[], page: number): T[] {
  return items.slice((page - 1) * LOG_PAGE_SIZE, page * LOG_PAGE_SIZE);
}

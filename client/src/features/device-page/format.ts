//! Formatting shared by the device pages: dates of logs and alarms, durations in days, hours,
//! minutes and seconds (spec §9), numbers in the interface language (at most 2 decimals).

import type { TFunction } from 'i18next';
import { splitDuration } from '../../lib/alarms';

export function formatDate(unixSeconds: number, language: string): string {
  return new Date(unixSeconds * 1000).toLocaleString(language, { dateStyle: 'short', timeStyle: 'medium' });
}

export function formatNumber(value: number, language: string, decimals = 2): string {
  return value.toLocaleString(language, { maximumFractionDigits: decimals });
}

/** "1 d 2 h 3 min 4 s": days and hours only when non-zero. */
export function formatDuration(t: TFunction, ms: number): string {
  const { days, hours, minutes, seconds } = splitDuration(ms);
  const parts: string[] = [];
  if (days) parts.push(t('pages.duration.days', { n: days }));
  if (days || hours) parts.push(t('pages.duration.hours', { n: hours }));
  if (days || hours || minutes) parts.push(t('pages.duration.minutes', { n: minutes }));
  parts.push(t('pages.duration.seconds', { n: seconds }));
  return parts.join(' ');
}

//! Dates of analysis records as shown (the interface language) and as used in file names (ISO).

import { formatDateTime } from '../../lib/format';

export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export function displayDateTime(seconds: number, language: string): string {
  return formatDateTime(seconds * 1000, language);
}

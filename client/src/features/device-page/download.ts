//! Saves data as a JSON file named with a prefix and the ISO date (spec §9).

import { saveBlob } from '../../lib/saveFile';

export function downloadJson(prefix: string, data: unknown, today = new Date()): string {
  const safe = prefix.replace(/[^\p{L}\p{N}_-]+/gu, '_');
  const name = `${safe}_${today.toISOString().slice(0, 10)}.json`;
  saveBlob(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), name);
  return name;
}

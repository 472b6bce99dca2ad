//! Saves data as a JSON file named with a prefix and the ISO date (spec §9).

export function downloadJson(prefix: string, data: unknown, today = new Date()): string {
  const safe = prefix.replace(/[^\p{L}\p{N}_-]+/gu, '_');
  const name = `${safe}_${today.toISOString().slice(0, 10)}.json`;
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}

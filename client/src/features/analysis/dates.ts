//! Dates of analysis records as shown (the interface language) and as used in file names (ISO).

export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export function displayDateTime(seconds: number, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000));
}

import { describe, expect, it } from 'vitest';
import { dateFieldOrder, formatDate, formatDateTime, formatTime, monthNames } from './format';

// Issue 22: one way to write a date — the user's language and time zone, everywhere.
const INSTANT = Date.UTC(2026, 10, 26, 15, 27, 4); // 26 Nov 2026 15:27:04 UTC

describe('dates in the user language and time zone', () => {
  it('Spanish: day first, 24-hour clock, in Madrid time', () => {
    expect(formatDateTime(INSTANT, 'es', 'Europe/Madrid')).toBe('26/11/26, 16:27:04');
    expect(formatTime(INSTANT, 'es', 'Europe/Madrid')).toBe('16:27:04');
    expect(formatDate(INSTANT, 'es', 'Europe/Madrid')).toBe('26 nov 2026');
    expect(dateFieldOrder('es')).toEqual(['day', 'month', 'year']);
    expect(monthNames('es')[10]).toBe('noviembre');
  });

  it('Japanese: year first, in Tokyo time (the next day)', () => {
    const late = Date.UTC(2026, 10, 26, 20, 0, 0);
    expect(formatDateTime(late, 'ja', 'Asia/Tokyo')).toBe('2026/11/27 5:00:00');
    expect(formatTime(late, 'ja', 'Asia/Tokyo')).toBe('5:00:00');
    expect(formatDate(late, 'ja', 'Asia/Tokyo')).toBe('2026/11/27');
    expect(dateFieldOrder('ja')).toEqual(['year', 'month', 'day']);
    expect(monthNames('ja')[10]).toBe('11月');
  });

  it('English is day-first (en-GB), never the US month-first order, and the zone moves the clock', () => {
    expect(formatDateTime(INSTANT, 'en', 'America/New_York')).toBe('26/11/2026, 10:27:04');
    expect(formatTime(INSTANT, 'en', 'UTC')).toBe('15:27:04');
    expect(dateFieldOrder('en')).toEqual(['day', 'month', 'year']);
    expect(monthNames('en')).toHaveLength(12);
  });

  it('every other language has its own order and names', () => {
    expect(formatDateTime(INSTANT, 'fr', 'Europe/Paris')).toBe('26/11/2026 16:27:04');
    expect(formatDateTime(INSTANT, 'el', 'Europe/Athens')).toMatch(/^26\/11\/26/);
    expect(formatDateTime(INSTANT, 'ru', 'Europe/Moscow')).toBe('26.11.2026, 18:27:04');
    expect(monthNames('fr')[0]).toBe('janvier');
    expect(formatTime(Number.NaN, 'en')).toBe('—');
  });
});

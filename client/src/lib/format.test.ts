import { describe, expect, it } from 'vitest';
import {
  DAILY_STATIC_ANALYSIS,
  NO_VARIANTS,
  offersDailyStaticAnalysis,
  showsCentreOfPressure,
  showsCompanyOnCards,
  variantsFrom,
} from './companyVariants';
import { formatBirthDate, formatDateTime, formatDuration, formatNumber, formatPercent, localeOf } from './format';
import { LANGUAGES } from './i18n';

describe('numbers, dates and units follow the user’s language', () => {
  it('every interface language has its own locale; unknown ones fall back to English', () => {
    for (const lng of LANGUAGES) expect(localeOf(lng).startsWith(lng)).toBe(true);
    expect(localeOf('es')).toBe('es-ES');
    expect(localeOf('fr-CA')).toBe('fr-FR');
    expect(localeOf('pt-BR')).toBe('en-GB');
    expect(localeOf(undefined)).toBe('en-GB');
  });

  it('numbers have at most 2 decimals with the language’s separators', () => {
    expect(formatNumber(12.3456, 'en')).toBe('12.35');
    expect(formatNumber(12.3456, 'es')).toBe('12,35');
    expect(formatNumber(1234567.891, 'de' as string)).toBe('1,234,567.89');
    expect(formatNumber(1234567.891, 'fr')).toBe('1\u202f234\u202f567,89');
    expect(formatNumber(2, 'ja')).toBe('2');
    expect(formatNumber(Number.NaN, 'en')).toBe('—');
    expect(formatNumber(1.23456, 'en', 3)).toBe('1.235');
  });

  it('percentages have one decimal', () => {
    expect(formatPercent(0.4567, 'en')).toBe('45.7%');
    expect(formatPercent(0.4567, 'es')).toBe('45,7\u00a0%');
  });

  it('date and time use the language’s order', () => {
    const instant = Date.UTC(2026, 10, 23, 14, 5, 9);
    expect(formatDateTime(instant, 'en', 'UTC')).toBe('23/11/2026, 14:05:09');
    expect(formatDateTime(instant, 'es', 'Europe/Madrid')).toBe('23/11/26, 15:05:09');
    expect(formatDateTime(instant, 'ja', 'UTC')).toBe('2026/11/23 14:05:09');
    expect(formatDateTime(Number.NaN, 'en')).toBe('—');
  });

  it('a birth date stays the same calendar day whatever the browser’s zone', () => {
    const birth = Date.UTC(1990, 0, 1) / 1000;
    expect(formatBirthDate(birth, 'en')).toBe('1 Jan 1990');
    expect(formatBirthDate(birth, 'es')).toBe('1 ene 1990');
  });

  it('an attend time is days, hours, minutes and seconds, largest first', () => {
    expect(formatDuration(90_061, 'en')).toBe('1 day 1 hr 1 min 1 sec');
    expect(formatDuration(3_605, 'en')).toBe('1 hr 5 secs');
    expect(formatDuration(0, 'en')).toBe('0 secs');
    expect(formatDuration(125, 'es')).toBe('2 min 5 s');
    expect(formatDuration(7_140, 'en', 'narrow')).toBe('1h 59m');
    expect(formatDuration(-1, 'en')).toBe('—');
  });
});

describe('company variants change what is shown (spec §6, §9)', () => {
  const fitness = { ...NO_VARIANTS, fitness: true };

  it('fitness offers the 24 h static analysis: every hour, 24 times', () => {
    expect(offersDailyStaticAnalysis(fitness)).toBe(true);
    expect(offersDailyStaticAnalysis(NO_VARIANTS)).toBe(false);
    expect(DAILY_STATIC_ANALYSIS).toEqual({ periodMs: 3_600_000, repetitions: 24 });
  });

  it('the centre of pressure is hidden only with that variant; cards lose the company line only with seating labels', () => {
    expect(showsCentreOfPressure(NO_VARIANTS)).toBe(true);
    expect(showsCentreOfPressure({ ...NO_VARIANTS, hideCentreOfPressure: true })).toBe(false);
    expect(showsCompanyOnCards(NO_VARIANTS)).toBe(true);
    expect(showsCompanyOnCards({ ...NO_VARIANTS, seatingLabels: true })).toBe(false);
  });

  it('reads the hub’s object; anything missing or not true is off', () => {
    expect(variantsFrom({ hideCentreOfPressure: true, fitness: 'yes', seatingLabels: 1 })).toEqual({ ...NO_VARIANTS, hideCentreOfPressure: true });
    expect(variantsFrom(null)).toEqual(NO_VARIANTS);
    expect(variantsFrom(undefined)).toEqual(NO_VARIANTS);
  });
});

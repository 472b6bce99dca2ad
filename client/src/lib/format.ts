//! Dates, numbers and units in the user's language (spec §9 "Numbers … at most 2 decimals"): the one
//! place the client turns values into text, through Intl with the i18n language. The spec's
//! Madrid/Chile specifics are what a Spanish user gets (es-ES); every other language gets its own
//! conventions. Instants are shown in the browser's time zone; a birth date is a calendar day and is
//! shown as stored (UTC), so it never moves a day (docs/decisions.md).

import { useTranslation } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from './i18n';

/** The locale each interface language formats with. */
export const LOCALES: Readonly<Record<Language, string>> = {
  es: 'es-ES',
  el: 'el-GR',
  en: 'en-GB',
  fr: 'fr-FR',
  it: 'it-IT',
  nl: 'nl-NL',
  ru: 'ru-RU',
  ja: 'ja-JP',
};

/** The locale for an i18n language such as `es` or `fr-CA` (unknown ones fall back to English). */
export function localeOf(lng: string | undefined): string {
  const base = (lng ?? '').split('-')[0] as Language;
  return LOCALES[(LANGUAGES as readonly string[]).includes(base) ? base : FALLBACK_LANGUAGE];
}

/** Number formatters by locale and options, made once: building an `Intl.NumberFormat` costs far
 * more than formatting with one, and a ward board formats hundreds of durations every second. */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let made = numberFormats.get(key);
  if (!made) {
    made = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, made);
  }
  return made;
}

/** A number with at most `maxDecimals` decimals (spec §9: 2). */
export function formatNumber(value: number, lng: string, maxDecimals = 2): string {
  if (!Number.isFinite(value)) return '—';
  return numberFormat(localeOf(lng), { maximumFractionDigits: maxDecimals }).format(value);
}

/** A pressure with the company's variant applied: "12,3 kPa" for fitness, the device's value otherwise. */

/** A percentage with one decimal (spec §9: shares in percent to 1 decimal); `share` is 0..1. */
export function formatPercent(share: number, lng: string): string {
  if (!Number.isFinite(share)) return '—';
  return numberFormat(localeOf(lng), { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

const toDate = (value: Date | number): Date => (value instanceof Date ? value : new Date(value));

/** An instant (log entries, analyses) as date and time in the browser's time zone. */
export function formatDateTime(value: Date | number, lng: string, timeZone?: string): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(localeOf(lng), { dateStyle: 'short', timeStyle: 'medium', timeZone }).format(date);
}

/** An instant's calendar date in the browser's time zone. */
export function formatDate(value: Date | number, lng: string, timeZone?: string): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(localeOf(lng), { dateStyle: 'medium', timeZone }).format(date);
}

/** A time of day (chart axes, live readings) in the browser's time zone: "14:05:09", "午後…" never. */
export function formatTime(value: Date | number, lng: string, timeZone?: string): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(localeOf(lng), { timeStyle: 'medium', timeZone }).format(date);
}

/** The order a language writes day, month and year in (the date field follows it). */
export function dateFieldOrder(lng: string): Array<'day' | 'month' | 'year'> {
  const parts = new Intl.DateTimeFormat(localeOf(lng), { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).formatToParts(
    Date.UTC(2000, 10, 23),
  );
  return parts.flatMap((p) => (p.type === 'day' || p.type === 'month' || p.type === 'year' ? [p.type] : []));
}

/** The twelve month names of a language, January first. */
export function monthNames(lng: string): string[] {
  const format = new Intl.DateTimeFormat(localeOf(lng), { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, m) => format.format(Date.UTC(2000, m, 1)));
}

/** A birth date (Unix seconds at midnight UTC of that day) as that same day, in any time zone. */
export function formatBirthDate(unixSeconds: number, lng: string): string {
  return formatDate(unixSeconds * 1000, lng, 'UTC');
}

/** A duration (spec §9: attend time as days, hours, minutes, seconds), largest units first;
 * `narrow` units ("1h 5m") where room is short (the ward board's countdown). */
export function formatDuration(totalSeconds: number, lng: string, unitDisplay: 'short' | 'narrow' = 'short'): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) return '—';
  const s = Math.floor(totalSeconds);
  const parts: Array<[number, 'day' | 'hour' | 'minute' | 'second']> = [
    [Math.floor(s / 86_400), 'day'],
    [Math.floor((s % 86_400) / 3_600), 'hour'],
    [Math.floor((s % 3_600) / 60), 'minute'],
    [s % 60, 'second'],
  ];
  const locale = localeOf(lng);
  const shown = parts.filter(([n], i) => n > 0 || (i === parts.length - 1 && s === 0));
  return shown
    .map(([n, unit]) => numberFormat(locale, { style: 'unit', unit, unitDisplay }).format(n))
    .join(' ');
}

/** The formatters bound to the current interface language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language ?? FALLBACK_LANGUAGE;
  return {
    locale: localeOf(lng),
    number: (value: number, maxDecimals?: number) => formatNumber(value, lng, maxDecimals),
    percent: (share: number) => formatPercent(share, lng),
    dateTime: (value: Date | number) => formatDateTime(value, lng),
    time: (value: Date | number) => formatTime(value, lng),
    date: (value: Date | number) => formatDate(value, lng),
    birthDate: (unixSeconds: number) => formatBirthDate(unixSeconds, lng),
    duration: (seconds: number) => formatDuration(seconds, lng),
    narrowDuration: (seconds: number) => formatDuration(seconds, lng, 'narrow'),
  };
}

/** Formats with exactly `decimals` decimals, in the interface language's locale (rocker durations
 * 3; shares and BMI 1; the compliance page's rates 2; pressures in their unit's decimals). */
export function formatFixed(value: number, language: string, decimals: number): string {
  if (!Number.isFinite(value)) return '—';
  return numberFormat(localeOf(language), { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

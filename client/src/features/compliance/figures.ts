//! Pure helpers of the compliance page: clock times of shift starts, the default date range, the
//! rows of one unit, and the CSV a spreadsheet opens (figures as the hub computed them; decimals
//! with a point so every spreadsheet reads them as numbers).

import type { ComplianceRow } from './complianceApi';

/** `07:00` for 420 minutes after midnight. */
export const minutesToClock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** 420 for `07:00`; null for anything that is not a clock time. */
export function clockToMinutes(clock: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(clock.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** `YYYY-MM-DD` of a local date. */
export const isoDay = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The last `days` days up to today, as the page opens. */
export function lastDays(days: number, today: Date = new Date()): { from: string; to: string } {
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: isoDay(from), to: isoDay(today) };
}

/** The rows of `unit`, or every row for `null`. */
export const rowsOf = (rows: ComplianceRow[], unit: string | null): ComplianceRow[] =>
  unit === null ? rows : rows.filter((r) => r.unit === unit);

/** The distinct units of the rows, in their order: the first row of each (its key, building and floor). */
export const unitsOf = (rows: ComplianceRow[]): ComplianceRow[] => rows.filter((r, i) => rows.findIndex((o) => o.unit === r.unit) === i);

/** What a unit is labelled with: the building and floor the hub sends with each row (the PDF
 * labels it with the same words), '' for the unit of devices with neither. */
export type UnitOfRow = Pick<ComplianceRow, 'unit' | 'building' | 'floor'>;

/** Below this longest time to attend (seconds), the chart counts seconds: a 6 s attendance drawn
 * in minutes is a sliver at 0.1 of the axis. */
export const ATTEND_CHART_SECONDS_BELOW = 120;

/** The unit the time-to-attend chart counts in, and what a value in seconds is divided by. */
export function attendChartScale(rows: Pick<ComplianceRow, 'attendMeanSeconds' | 'attendP90Seconds'>[]): { unit: 'seconds' | 'minutes'; divisor: number } {
  const longest = Math.max(0, ...rows.flatMap((r) => [r.attendMeanSeconds ?? 0, r.attendP90Seconds ?? 0]));
  return longest < ATTEND_CHART_SECONDS_BELOW ? { unit: 'seconds', divisor: 1 } : { unit: 'minutes', divisor: 60 };
}

/** A time to attend as the table writes it, and the PDF (the reports crate's `attend_time`): whole
 * seconds under a minute ("6 s"), minutes and their seconds above ("4 min 20 s", "75 min"), in the
 * page's own units, so the PDF in the same language says the same. */
export function attendTime(seconds: number, units: { minutes: string; seconds: string }, number: (n: number) => string): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${number(total)} ${units.seconds}`;
  const rest = total % 60;
  const minutes = `${number(Math.floor(total / 60))} ${units.minutes}`;
  return rest === 0 ? minutes : `${minutes} ${number(rest)} ${units.seconds}`;
}

/** The CSV columns, in order: the translation key of each heading. */
export const CSV_COLUMNS = [
  'compliance.csv.unit',
  'compliance.csv.shift',
  'compliance.csv.beds',
  'compliance.csv.turns',
  'compliance.csv.turnsOnTime',
  'compliance.csv.onTimePercent',
  'compliance.csv.alarms',
  'compliance.csv.alarmsAttended',
  'compliance.csv.attendMeanMinutes',
  'compliance.csv.attendP90Minutes',
  'compliance.csv.bedDays',
  'compliance.csv.alarmsPerBedDay',
  'compliance.csv.patients',
  'compliance.csv.minutesOverPerPatient',
] as const;

const fixed = (value: number | null | undefined, decimals: number): string => (value == null ? '' : value.toFixed(decimals));

/** A CSV field: quoted when it holds a separator, a quote or a line break; a text starting like
 * a formula (`=`, `+`, `-`, `@`) gets a leading apostrophe so a spreadsheet does not run it. */
export function csvField(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The rows as CSV (CRLF line ends, a header row of `headings`); `unitName` labels each row's unit
 * as the page does. */
export function complianceCsv(rows: ComplianceRow[], headings: string[], unitName: (unit: UnitOfRow) => string): string {
  const lines = [headings.map(csvField).join(',')];
  for (const r of rows) {
    lines.push(
      [
        csvField(unitName(r)),
        csvField(r.shiftLabel),
        String(r.beds),
        String(r.turns),
        String(r.turnsOnTime),
        fixed(r.onTimeShare == null ? null : r.onTimeShare * 100, 1),
        String(r.alarms),
        String(r.alarmsAttended),
        fixed(r.attendMeanSeconds == null ? null : r.attendMeanSeconds / 60, 2),
        fixed(r.attendP90Seconds == null ? null : r.attendP90Seconds / 60, 2),
        fixed(r.bedDays, 2),
        fixed(r.alarmsPerBedDay, 3),
        String(r.patients),
        fixed(r.minutesOverPerPatient, 1),
      ].join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

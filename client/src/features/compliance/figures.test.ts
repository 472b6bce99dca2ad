import { describe, expect, it } from 'vitest';
import { ATTEND_CHART_SECONDS_BELOW, attendChartScale, attendTime, clockToMinutes, complianceCsv, csvField, lastDays, minutesToClock } from './figures';

describe('compliance helpers', () => {
  it('writes a time to attend in seconds under a minute, in minutes and seconds above', () => {
    const en = { minutes: 'min', seconds: 's' };
    const n = (v: number) => v.toLocaleString('en');
    expect(attendTime(6.4, en, n)).toBe('6 s');
    expect(attendTime(59.4, en, n)).toBe('59 s');
    expect(attendTime(59.6, en, n)).toBe('1 min');
    expect(attendTime(260, en, n)).toBe('4 min 20 s');
    expect(attendTime(4500, en, n)).toBe('75 min');
    expect(attendTime(260, { minutes: 'мин', seconds: 'с' }, n)).toBe('4 мин 20 с');
  });
  it('reads and writes clock times', () => {
    expect(minutesToClock(420)).toBe('07:00');
    expect(minutesToClock(1439)).toBe('23:59');
    expect(clockToMinutes('07:30')).toBe(450);
    expect(clockToMinutes('24:00')).toBeNull();
    expect(clockToMinutes('7:30')).toBeNull();
  });

  it('opens on the week up to today', () => {
    expect(lastDays(7, new Date(2026, 2, 3))).toEqual({ from: '2026-02-25', to: '2026-03-03' });
  });

  it('quotes CSV fields and defuses formulas', () => {
    expect(csvField('North · 2')).toBe('North · 2');
    expect(csvField('A, B')).toBe('"A, B"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('-2')).toBe("'-2");
  });

  it('names the unit without building and floor', () => {
    const csv = complianceCsv(
      [{ unit: '', building: '', floor: '', shift: 0, shiftLabel: '08:00–08:00', beds: 1, turns: 1, turnsOnTime: 1, onTimeShare: 1, alarms: 0, alarmsAttended: 0, attendMeanSeconds: null, attendP90Seconds: null, bedDays: 1, alarmsPerBedDay: 0, patients: 1, minutesOverPerPatient: 0 }],
      ['Unit'],
      (u) => (u.unit === '' ? 'No unit' : `${u.building} · floor ${u.floor}`),
    );
    expect(csv.split('\r\n')[1]).toBe('No unit,08:00–08:00,1,1,1,100.0,0,0,,,1.00,0.000,1,0.0');
  });

  it('draws times to attend in seconds while every one is under two minutes', () => {
    const times = (mean: number | null, p90: number | null) => ({ attendMeanSeconds: mean, attendP90Seconds: p90 });
    expect(attendChartScale([times(6, 6), times(null, null)])).toEqual({ unit: 'seconds', divisor: 1 });
    expect(attendChartScale([times(60, 119)])).toEqual({ unit: 'seconds', divisor: 1 });
    expect(attendChartScale([times(6, 6), times(60, ATTEND_CHART_SECONDS_BELOW)])).toEqual({ unit: 'minutes', divisor: 60 });
    expect(attendChartScale([])).toEqual({ unit: 'seconds', divisor: 1 });
  });
});

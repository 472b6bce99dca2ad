import { describe, expect, it } from 'vitest';
import { cardStatusFromStateCode, cardStatusOf, stateCodeFromConf, statusColor, STATUS_COLORS } from './status';

const hue = (hex: string) => {
  const r = parseInt(hex.slice(1, 3), 16) / 255;
  const g = parseInt(hex.slice(3, 5), 16) / 255;
  const b = parseInt(hex.slice(5, 7), 16) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  if (d === 0) return { h: 0, s: 0 };
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h = (h * 60 + 360) % 360;
  return { h, s: d / (1 - Math.abs(max + min - 1)) };
};

describe('status colours (spec §2)', () => {
  it('Missing is blue', () => {
    const { h, s } = hue(statusColor('Missing'));
    expect(h).toBeGreaterThanOrEqual(195);
    expect(h).toBeLessThanOrEqual(240);
    expect(s).toBeGreaterThan(0.4);
  });
  it('Alarm is orange', () => {
    const { h, s } = hue(statusColor('Alarm'));
    expect(h).toBeGreaterThanOrEqual(20);
    expect(h).toBeLessThanOrEqual(45);
    expect(s).toBeGreaterThan(0.5);
  });
  it('Correct is green', () => {
    const { h, s } = hue(statusColor('Correct'));
    expect(h).toBeGreaterThanOrEqual(90);
    expect(h).toBeLessThanOrEqual(160);
    expect(s).toBeGreaterThan(0.3);
  });
  it('Offline is grey', () => {
    expect(hue(statusColor('Offline')).s).toBeLessThan(0.2);
  });
  it('unknown statuses are shown as Offline', () => {
    expect(statusColor('Whatever')).toBe(STATUS_COLORS.Offline);
    expect(statusColor(undefined)).toBe(STATUS_COLORS.Offline);
  });
  it('the four colours are distinct', () => {
    expect(new Set(Object.values(STATUS_COLORS)).size).toBe(4);
  });
});

describe('card status (spec §4)', () => {
  it('maps state codes 0/1/2/other', () => {
    expect(cardStatusFromStateCode(0)).toBe('Correct');
    expect(cardStatusFromStateCode(1)).toBe('Missing');
    expect(cardStatusFromStateCode(2)).toBe('Alarm');
    expect(cardStatusFromStateCode(null)).toBe('Offline');
    expect(cardStatusFromStateCode(7)).toBe('Offline');
  });
  it('derives the state code from the configuration', () => {
    expect(stateCodeFromConf({ deviceFunctional: false, patientStatus: 'Correct' })).toBeNull();
    expect(stateCodeFromConf({ deviceFunctional: true, patientStatus: 'Missing' })).toBe(1);
    expect(stateCodeFromConf({ deviceFunctional: true, patientStatus: 'Absent' })).toBe(1);
    expect(stateCodeFromConf({ deviceFunctional: true, patientStatus: 'Ulcer Risk' })).toBe(2);
    expect(stateCodeFromConf({ deviceFunctional: true, patientStatus: 'Correct' })).toBe(0);
  });
  it("prefers the hub's cardStatus, then stateCode, then the configuration", () => {
    expect(cardStatusOf('Mattress Mat IoT', { deviceId: 'a', cardStatus: 'Alarm', stateCode: 0 })).toBe('Alarm');
    expect(cardStatusOf('Mattress Mat IoT', { deviceId: 'a', stateCode: 1 })).toBe('Missing');
    expect(cardStatusOf('Mattress Mat IoT', { deviceId: 'a', deviceFunctional: true, patientStatus: 'Ulcer Risk' })).toBe(
      'Alarm',
    );
    expect(cardStatusOf('Mattress Mat IoT', null)).toBe('Offline');
  });
  it('Seating Mat is always Correct', () => {
    expect(cardStatusOf('Seating Mat', { deviceId: 'a', cardStatus: 'Offline' })).toBe('Correct');
  });
});

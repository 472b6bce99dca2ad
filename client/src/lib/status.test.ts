import { describe, expect, it } from 'vitest';
import { cardStatusOf, statusColor, STATUS_COLORS } from './status';

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

describe('card status comes from the hub', () => {
  it("shows the hub's cardStatus, whatever the type", () => {
    expect(cardStatusOf({ cardStatus: 'Alarm' })).toBe('Alarm');
    expect(cardStatusOf({ cardStatus: 'Offline' })).toBe('Offline');
    expect(cardStatusOf({ cardStatus: 'Correct' })).toBe('Correct');
  });
  it('is Offline before the hub said anything, or for an unknown value', () => {
    expect(cardStatusOf(null)).toBe('Offline');
    expect(cardStatusOf({})).toBe('Offline');
    expect(cardStatusOf({ cardStatus: 'Bogus' as never })).toBe('Offline');
  });
});

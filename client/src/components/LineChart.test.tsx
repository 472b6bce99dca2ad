import { describe, expect, it } from 'vitest';
import { formatTime } from '../lib/format';
import { LANGUAGES } from '../lib/i18n';
import { TIME_TICK_SECONDS } from './LineChart';

describe("a live chart's time axis", () => {
  it('never puts two ticks that read the same time: its spacings are whole seconds and more', () => {
    const start = Date.UTC(2026, 10, 30, 18, 16, 12, 400) / 1000;
    for (const lng of LANGUAGES) {
      for (const step of TIME_TICK_SECONDS) {
        const labels = [0, 1, 2, 3].map((k) => formatTime((start + k * step) * 1000, lng, 'UTC'));
        expect(new Set(labels).size, `${lng}, every ${step} s: ${labels.join(', ')}`).toBe(labels.length);
      }
    }
    expect([...TIME_TICK_SECONDS].sort((a, b) => a - b)).toEqual(TIME_TICK_SECONDS);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alarmPriority, highestPriority, TONE_PATTERNS, ToneScheduler, type TonePattern } from './alarmTone';

describe('alarm tone priorities', () => {
  it('maps Missing to medium and Ulcer Risk to low while due, medium once overdue', () => {
    expect(alarmPriority('Missing', 'ok')).toBe('medium');
    expect(alarmPriority('Ulcer Risk', 'due')).toBe('low');
    expect(alarmPriority('Ulcer Risk', 'dueSoon')).toBe('low');
    expect(alarmPriority('Ulcer Risk', 'overdue')).toBe('medium');
    expect(highestPriority(['low', 'medium', 'low'])).toBe('medium');
    expect(highestPriority(['low'])).toBe('low');
    expect(highestPriority([])).toBeNull();
  });

  it('keeps the patterns inside IEC 60601-1-8 table 3', () => {
    const { medium, low } = TONE_PATTERNS;
    expect(medium.pulses).toBe(3);
    expect([1, 2]).toContain(low.pulses);
    for (const p of [medium, low]) {
      expect(p.pulseMs).toBeGreaterThanOrEqual(125);
      expect(p.pulseMs).toBeLessThanOrEqual(250);
      expect(p.gapMs).toBeGreaterThanOrEqual(125);
      expect(p.gapMs).toBeLessThanOrEqual(250);
      expect(p.frequencyHz).toBeGreaterThanOrEqual(150);
      expect(p.frequencyHz).toBeLessThanOrEqual(1000);
    }
    expect(medium.repeatMs).toBeGreaterThanOrEqual(2_500);
    expect(medium.repeatMs).toBeLessThanOrEqual(30_000);
    expect(low.repeatMs).toBeGreaterThan(15_000);
  });
});

describe('ToneScheduler', () => {
  let played: TonePattern['priority'][];
  let s: ToneScheduler;
  beforeEach(() => {
    vi.useFakeTimers();
    played = [];
    s = new ToneScheduler((p) => played.push(p.priority));
  });
  afterEach(() => {
    s.stop();
    vi.useRealTimers();
  });

  it('stays silent until the first interaction, then sounds at once and repeats per priority', () => {
    s.update('medium', false, false);
    vi.advanceTimersByTime(60_000);
    expect(played).toEqual([]);
    s.update('medium', false, true);
    expect(played).toEqual(['medium']);
    vi.advanceTimersByTime(7_499);
    expect(played).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(played).toHaveLength(2);
    // The same inputs again keep the rhythm (no extra burst on a re-render).
    s.update('medium', false, true);
    expect(played).toHaveLength(2);
  });

  it('repeats a low-priority burst every 20 s and switches to medium at once', () => {
    s.update('low', false, true);
    vi.advanceTimersByTime(40_000);
    expect(played).toEqual(['low', 'low', 'low']);
    s.update('medium', false, true);
    expect(played).toEqual(['low', 'low', 'low', 'medium']);
    vi.advanceTimersByTime(7_500);
    expect(played.at(-1)).toBe('medium');
    expect(played).toHaveLength(5);
  });

  it('is silent while muted and when no alarm waits, and sounds again when unmuted', () => {
    s.update('medium', true, true);
    vi.advanceTimersByTime(30_000);
    expect(played).toEqual([]);
    s.update('medium', false, true);
    expect(played).toEqual(['medium']);
    s.update(null, false, true);
    vi.advanceTimersByTime(30_000);
    expect(played).toEqual(['medium']);
  });
});

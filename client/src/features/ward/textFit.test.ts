import { describe, expect, it } from 'vitest';
import { textEms, twoLineEms } from './textFit';

describe('a bed label fitted to its tile', () => {
  it('estimates a label by its characters, full-width ones wider', () => {
    expect(textEms('107 · A')).toBeCloseTo(7 * 0.72);
    expect(textEms('103 · Wheelchair')).toBeCloseTo(16 * 0.72);
    expect(textEms('病室 3 · 窓側')).toBeCloseTo(4 + 5 * 0.72);
    expect(textEms('')).toBe(1);
  });

  it('a text that may take two lines is as wide as the wider line of its best split', () => {
    expect(twoLineEms('Пациент отсутствует')).toBeCloseTo(textEms('отсутствует'));
    expect(twoLineEms('患者不在')).toBe(4);
    // Three words never take three lines: the widest of the best two-line split, not the longest word.
    expect(twoLineEms('Ο ασθενής λείπει')).toBeCloseTo(textEms('Ο ασθενής'));
    expect(twoLineEms('Ο ασθενής λείπει')).toBeGreaterThan(textEms('ασθενής'));
  });

  it('on the wall (46 px, a 286 px wide head) a long label is set smaller to fit one line, a short one keeps 46 px', () => {
    const size = (label: string) => Math.min(46, 286 / textEms(label));
    expect(size('107 · A')).toBe(46);
    expect(size('103 · Wheelchair')).toBeGreaterThan(24);
    expect(size('103 · Wheelchair') * textEms('103 · Wheelchair')).toBeLessThanOrEqual(286);
  });
});

import { describe, expect, it } from 'vitest';
import { PALETTES } from './palettes';
import {
  DEFAULT_VIEW_OPTIONS,
  heatMapShown,
  nextPalette,
  normaliseManualScale,
  normaliseThreshold,
  paletteIndex,
  sanitiseViewOptions,
  set3d,
  setContours,
  smoothingIndex,
  SMOOTHING_LEVELS,
  viewMode,
} from './viewOptions';

const base = DEFAULT_VIEW_OPTIONS;

describe('palette cycling (13 palettes)', () => {
  it('offers 13 palettes with distinct ids', () => {
    expect(PALETTES).toHaveLength(13);
    expect(new Set(PALETTES.map((p) => p.id)).size).toBe(13);
  });

  it('steps through every palette and wraps after the last', () => {
    let o = base;
    const seen = [o.mapColorIndex];
    for (let i = 0; i < 13; i++) {
      o = nextPalette(o);
      seen.push(o.mapColorIndex);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0]);
    expect(nextPalette({ ...base, mapColorIndex: 12 }).mapColorIndex).toBe(0);
    expect(nextPalette({ ...base, mapColorIndex: 11 }).mapColorIndex).toBe(12);
  });

  it('reads any stored index onto the 13 palettes', () => {
    expect(paletteIndex(13)).toBe(0);
    expect(paletteIndex(32)).toBe(6);
    expect(paletteIndex(-1)).toBe(12);
    expect(paletteIndex(Number.NaN)).toBe(0);
  });
});

describe('smoothing levels', () => {
  it('wraps stored indices onto the offered levels', () => {
    expect(SMOOTHING_LEVELS).toEqual(['off', 'low', 'medium', 'high']);
    expect(smoothingIndex(3)).toBe(3);
    expect(smoothingIndex(4)).toBe(0);
    expect(smoothingIndex(32)).toBe(0);
  });
});

describe('threshold 0–75 in steps of 5', () => {
  it('keeps values at and inside the limits', () => {
    expect(normaliseThreshold(0)).toBe(0);
    expect(normaliseThreshold(5)).toBe(5);
    expect(normaliseThreshold(70)).toBe(70);
    expect(normaliseThreshold(75)).toBe(75);
  });
  it('clamps values across the limits', () => {
    expect(normaliseThreshold(-5)).toBe(0);
    expect(normaliseThreshold(-1)).toBe(0);
    expect(normaliseThreshold(76)).toBe(75);
    expect(normaliseThreshold(80)).toBe(75);
    expect(normaliseThreshold(Number.NaN)).toBe(0);
  });
  it('puts values between steps on the nearest step', () => {
    expect(normaliseThreshold(7)).toBe(5);
    expect(normaliseThreshold(8)).toBe(10);
    expect(normaliseThreshold(73)).toBe(75);
  });
});

describe('manual scale 50–1000 in steps of 50, empty → 200', () => {
  it('resets an empty or unreadable field to 200', () => {
    expect(normaliseManualScale('')).toBe(200);
    expect(normaliseManualScale('   ')).toBe(200);
    expect(normaliseManualScale(null)).toBe(200);
    expect(normaliseManualScale(undefined)).toBe(200);
    expect(normaliseManualScale('abc')).toBe(200);
  });
  it('keeps the limits and clamps across them', () => {
    expect(normaliseManualScale(50)).toBe(50);
    expect(normaliseManualScale(1000)).toBe(1000);
    expect(normaliseManualScale(49)).toBe(50);
    expect(normaliseManualScale('0')).toBe(50);
    expect(normaliseManualScale('-300')).toBe(50);
    expect(normaliseManualScale(1001)).toBe(1000);
    expect(normaliseManualScale('5000')).toBe(1000);
  });
  it('puts values between steps on the nearest step of 50', () => {
    expect(normaliseManualScale('260')).toBe(250);
    expect(normaliseManualScale('275')).toBe(300);
    expect(normaliseManualScale(' 330 ')).toBe(350);
    expect(normaliseManualScale(975)).toBe(1000);
  });
});

describe('contour and 3D are mutually exclusive', () => {
  it('contour on turns 3D off', () => {
    const o = setContours({ ...base, is3Dmode: true }, true);
    expect(o).toMatchObject({ contoursEnabled: true, is3Dmode: false });
    expect(viewMode(o)).toBe('contour');
  });
  it('3D on turns contour off', () => {
    const o = set3d({ ...base, contoursEnabled: true }, true);
    expect(o).toMatchObject({ contoursEnabled: false, is3Dmode: true });
    expect(viewMode(o)).toBe('3d');
  });
  it('turning one off leaves the other as it was', () => {
    expect(setContours({ ...base, is3Dmode: true }, false)).toMatchObject({ contoursEnabled: false, is3Dmode: true });
    expect(set3d({ ...base, contoursEnabled: true }, false)).toMatchObject({ contoursEnabled: true, is3Dmode: false });
    expect(viewMode(set3d(base, false))).toBe('heatmap');
  });
  it('loaded settings never have both on', () => {
    expect(sanitiseViewOptions({ ...base, contoursEnabled: true, is3Dmode: true })).toMatchObject({
      contoursEnabled: true,
      is3Dmode: false,
    });
  });
});

describe('heat map only above 950 px of scroll on non-seating pages', () => {
  it('hides at and below 950 px when asked to', () => {
    expect(heatMapShown(0, true)).toBe(true);
    expect(heatMapShown(949, true)).toBe(true);
    expect(heatMapShown(950, true)).toBe(false);
    expect(heatMapShown(2000, true)).toBe(false);
  });
  it('always shows on pages that do not hide it (seating)', () => {
    expect(heatMapShown(950, false)).toBe(true);
    expect(heatMapShown(5000, false)).toBe(true);
  });
});

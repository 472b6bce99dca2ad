import { describe, expect, it } from 'vitest';
import { lutFor } from './palettes';
import { applyThreshold, blurOnce, blurPasses, colourise, colourScale, interpolates, prepareMap, readCells } from './prepare';
import { DEFAULT_VIEW_OPTIONS } from './viewOptions';

const grid = (rows: number, cols: number, values: number[], bytesPerCell: 1 | 2 = 1) => {
  const cells = new Uint8Array(rows * cols * bytesPerCell);
  values.forEach((v, i) => {
    if (bytesPerCell === 2) {
      cells[i * 2] = v & 0xff;
      cells[i * 2 + 1] = v >> 8;
    } else cells[i] = v;
  });
  return { rows, cols, bytesPerCell, cells };
};

describe('threshold zeroing', () => {
  it('zeroes cells below the threshold and keeps cells at or above it', () => {
    const v = new Float32Array([0, 1, 29, 30, 31, 200]);
    expect(applyThreshold(v, 30)).toBe(2);
    expect([...v]).toEqual([0, 0, 0, 30, 31, 200]);
  });
  it('zeroes nothing at threshold 0', () => {
    const v = new Float32Array([0, 1, 2]);
    expect(applyThreshold(v, 0)).toBe(0);
    expect([...v]).toEqual([0, 1, 2]);
  });
  it('at the top of the slider (75) keeps 75 and zeroes 74', () => {
    const v = new Float32Array([74, 75, 76]);
    applyThreshold(v, 75);
    expect([...v]).toEqual([0, 75, 76]);
  });
  it('prepareMap reports what the threshold left', () => {
    const m = prepareMap(grid(2, 3, [0, 10, 20, 40, 50, 90]), { ...DEFAULT_VIEW_OPTIONS, thresholdValue: 25 });
    expect(m).toMatchObject({ rows: 2, cols: 3, active: 3, zeroed: 2, minActive: 40, max: 90 });
    expect([...m.values]).toEqual([0, 0, 0, 40, 50, 90]);
  });
});

describe('cells at the frame shape', () => {
  it('reads 2-byte little-endian cells row-major at rows × cols', () => {
    expect([...readCells(grid(1, 3, [0x1234, 5, 300], 2))]).toEqual([0x1234, 5, 300]);
    const m = prepareMap(grid(2, 5, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), DEFAULT_VIEW_OPTIONS);
    expect(m.rows).toBe(2);
    expect(m.cols).toBe(5);
    expect(m.values).toHaveLength(10);
  });
});

describe('colour scale', () => {
  it('uses the manual scale when it is on, whatever the frame', () => {
    expect(colourScale(900, 2, { manualScale: true, manualScaleValue: 300 })).toBe(300);
    expect(colourScale(10, 1, { manualScale: true, manualScaleValue: 50 })).toBe(50);
  });
  it('otherwise scales each frame to its maximum, with a floor for noise', () => {
    expect(colourScale(900, 2, { manualScale: false, manualScaleValue: 300 })).toBe(900);
    expect(colourScale(10, 1, { manualScale: false, manualScaleValue: 300 })).toBe(64);
  });
  it('saturates values above a manual scale at the top colour', () => {
    const lut = lutFor(0);
    const out = new Uint8Array(8);
    colourise(new Float32Array([300, 1000]), 300, lut, out);
    expect([...out.slice(0, 4)]).toEqual([...out.slice(4, 8)]);
    expect([...out.slice(0, 3)]).toEqual([...lut.slice(255 * 4, 255 * 4 + 3)]);
  });
  it('steps colours into bands for the contour view', () => {
    const lut = lutFor(0);
    const out = new Uint8Array(8);
    colourise(new Float32Array([0.3, 0.1]), 1, lut, out, 4);
    // 0.3 and 0.1 of the scale fall in the first two bands of four: 0.25 and 0.
    expect([...out.slice(0, 3)]).toEqual([...lut.slice(64 * 4, 64 * 4 + 3)]);
    expect([...out.slice(4, 7)]).toEqual([...lut.slice(0, 3)]);
  });
});

describe('smoothing', () => {
  it('off draws crisp cells; every other level interpolates; medium and high blur', () => {
    expect([interpolates(0), interpolates(1), interpolates(2), interpolates(3)]).toEqual([false, true, true, true]);
    expect([blurPasses(0), blurPasses(1), blurPasses(2), blurPasses(3)]).toEqual([0, 0, 1, 2]);
  });
  it('a blur keeps a flat map flat and spreads a single peak to its neighbours', () => {
    expect([...blurOnce(new Float32Array(9).fill(8), 3, 3)]).toEqual(new Array(9).fill(8));
    const peak = blurOnce(new Float32Array([0, 0, 0, 0, 16, 0, 0, 0, 0]), 3, 3);
    expect(peak[4]).toBe(4);
    expect(peak[1]).toBe(2);
    expect(peak[0]).toBe(1);
  });
  it('medium smoothing changes the values drawn, off does not', () => {
    const g = grid(3, 3, [0, 0, 0, 0, 160, 0, 0, 0, 0]);
    expect(prepareMap(g, { ...DEFAULT_VIEW_OPTIONS, smoothenIndex: 0 }).values[4]).toBe(160);
    expect(prepareMap(g, { ...DEFAULT_VIEW_OPTIONS, smoothenIndex: 2 }).values[4]).toBeLessThan(160);
  });
});

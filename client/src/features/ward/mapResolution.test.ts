import { describe, expect, it } from 'vitest';
import { mapResolution, MIN_RESOLUTION } from './mapResolution';

const map = (width: number, height: number, rows = 48, cols = 48) => ({ width, height, rows, cols });

describe("the board's map canvas resolution", () => {
  it('gives every cell one canvas pixel and no more: 48 cells in 96 px need half the resolution', () => {
    expect(mapResolution([map(96, 96)], 1)).toBe(0.5);
    expect(mapResolution([map(96, 96)], 2)).toBe(0.5);
  });

  it('follows the map that needs the most pixels per CSS pixel, in steps of 1/8 rounded up', () => {
    // 48 / 97 = 0.495 → 0.5; 64 / 100 = 0.64 → 0.75
    expect(mapResolution([map(97, 97), map(100, 100, 64, 64)], 1)).toBe(0.75);
    // a wide slot: the rows decide (48 rows in 40 px)
    expect(mapResolution([map(400, 40)], 2)).toBe(1.25);
  });

  it("is never above the screen's resolution, so small slots draw as they did", () => {
    expect(mapResolution([map(20, 20)], 1)).toBe(1);
    expect(mapResolution([map(20, 20)], 2)).toBe(2);
  });

  it('has a floor, and ignores slots not laid out yet', () => {
    expect(mapResolution([map(2000, 2000, 8, 8)], 1)).toBe(MIN_RESOLUTION);
    expect(mapResolution([map(0, 0)], 1)).toBe(MIN_RESOLUTION);
    expect(mapResolution([], 1)).toBe(MIN_RESOLUTION);
  });
});

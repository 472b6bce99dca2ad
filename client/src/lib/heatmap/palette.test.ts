import { describe, expect, it } from 'vitest';
import { buildLut, cellValue } from './palette';
import { PALETTES } from './palettes';

const rgbAt = (lut: Uint8Array, i: number) => [lut[i * 4], lut[i * 4 + 1], lut[i * 4 + 2]];

describe('heat-map palette', () => {
  it('runs from blue through green and yellow to red', () => {
    const lut = buildLut(PALETTES[0].stops);
    const [r0, g0, b0] = rgbAt(lut, 0);
    expect(b0).toBeGreaterThan(r0);
    expect(b0).toBeGreaterThan(g0);
    const [r5, g5, b5] = rgbAt(lut, 140);
    expect(g5).toBeGreaterThan(r5);
    expect(g5).toBeGreaterThan(b5);
    const [r7, g7, b7] = rgbAt(lut, 191);
    expect(r7).toBeGreaterThan(200);
    expect(g7).toBeGreaterThan(180);
    expect(b7).toBeLessThan(80);
    const [r1, g1, b1] = rgbAt(lut, 255);
    expect(r1).toBeGreaterThan(180);
    expect(g1).toBeLessThan(60);
    expect(b1).toBeLessThan(60);
  });

  it('reads 2-byte cells little-endian', () => {
    const grid = { rows: 1, cols: 2, bytesPerCell: 2 as const, cells: new Uint8Array([0x34, 0x12, 0xff, 0x00]) };
    expect(cellValue(grid, 0)).toBe(0x1234);
    expect(cellValue(grid, 1)).toBe(0xff);
  });
});

describe('the shared palette file (reports/palettes.json, also read by the PDF reports)', () => {
  it('holds ordered stops from 0 to 1 with 0–255 colours for every palette', () => {
    for (const p of PALETTES) {
      expect(p.stops.length, p.id).toBeGreaterThanOrEqual(2);
      expect(p.stops[0][0], p.id).toBe(0);
      expect(p.stops[p.stops.length - 1][0], p.id).toBe(1);
      for (let k = 1; k < p.stops.length; k++) expect(p.stops[k][0], p.id).toBeGreaterThan(p.stops[k - 1][0]);
      for (const [, rgb] of p.stops) {
        expect(rgb, p.id).toHaveLength(3);
        for (const c of rgb) expect(Number.isInteger(c) && c >= 0 && c <= 255, `${p.id} ${c}`).toBe(true);
      }
    }
  });
});

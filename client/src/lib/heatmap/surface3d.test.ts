import { describe, expect, it } from 'vitest';
import { FLOOR, surfaceExtent, surfaceHeight, surfacePositions } from './surface3d';

describe('3-D surface geometry', () => {
  it('keeps the map aspect with the longer side spanning −0.5…0.5', () => {
    expect(surfaceExtent(48, 48)).toEqual({ x: 0.5, y: 0.5 });
    expect(surfaceExtent(24, 48)).toEqual({ x: 0.5, y: 0.25 });
  });
  it('puts no pressure on the floor and the top of the scale at the ceiling, saturating', () => {
    expect(surfaceHeight(0, 200)).toBe(FLOOR);
    expect(surfaceHeight(200, 200)).toBe(-FLOOR);
    expect(surfaceHeight(900, 200)).toBe(-FLOOR);
    expect(surfaceHeight(100, 200)).toBeCloseTo(0);
  });
  it('places one vertex per cell of the frame, row 0 at the far edge', () => {
    const out = new Float32Array(2 * 3 * 3);
    surfacePositions({ rows: 2, cols: 3, values: new Float32Array([0, 0, 0, 0, 0, 100]), scale: 100 }, 2, 3, out);
    expect([out[0], out[1], out[2]].map((v) => Number(v.toFixed(4)))).toEqual([-0.5, 0.3333, FLOOR]);
    expect([out[15], out[16], out[17]].map((v) => Number(v.toFixed(4)))).toEqual([0.5, -0.3333, -FLOOR]);
  });
});

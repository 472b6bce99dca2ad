import { describe, expect, it } from 'vitest';
import type { LiveFrame } from '../../lib/liveMaps';
import { texelValue, TileTexture } from './tileTexture';

const frame = (seq: number, cells: number[], over: Partial<LiveFrame> = {}): LiveFrame => ({
  deviceId: 'd1',
  seq,
  deviceTimeMs: seq,
  hubTimeMs: 1000 + seq,
  rows: 2,
  cols: 2,
  bytesPerCell: 1,
  cells: Uint8Array.from(cells),
  presence: 'PRESENCE',
  blank: false,
  receivedAtMs: 0,
  ...over,
});

describe("a tile's texture", () => {
  it('is uploaded only when the frame is a new one', () => {
    const tex = new TileTexture();
    expect(tex.take(frame(1, [0, 10, 20, 200]))).toBe('reshaped');
    expect(tex.take(frame(1, [0, 10, 20, 200]))).toBe('same');
    expect(tex.uploads).toBe(1);
    expect(tex.take(frame(2, [1, 2, 3, 4]))).toBe('updated');
    expect(tex.uploads).toBe(2);
    expect(tex.take(undefined)).toBe('blank');
    expect(tex.take(frame(3, [], { blank: true }))).toBe('blank');
    // After a blank the same frame is drawn again.
    expect(tex.take(frame(2, [1, 2, 3, 4]))).toBe('updated');
    expect(tex.take(frame(4, [1, 2, 3, 4, 5, 6], { rows: 3 }))).toBe('reshaped');
    expect(tex.texels.length).toBe(3 * 2 * 4);
  });

  it('packs 1- and 2-byte cells so the shader reads their values back, scaled to the frame', () => {
    const tex = new TileTexture();
    tex.take(frame(1, [0, 10, 20, 200]));
    expect([0, 1, 2, 3].map((i) => texelValue(tex.texels, i))).toEqual([0, 10, 20, 200]);
    expect(tex.scale).toBe(200);
    // A nearly empty mat is not stretched to full colour (the live map's floor).
    tex.take(frame(2, [0, 1, 2, 3]));
    expect(tex.scale).toBe(64);
    const wide = new TileTexture();
    // Little-endian 2-byte cells: 300, 1, 0, 1000.
    wide.take(frame(1, [44, 1, 1, 0, 0, 0, 232, 3], { bytesPerCell: 2 }));
    expect([0, 1, 2, 3].map((i) => texelValue(wide.texels, i))).toEqual([300, 1, 0, 1000]);
    expect(wide.scale).toBe(1000);
  });
});

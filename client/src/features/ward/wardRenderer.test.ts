import { describe, expect, it } from 'vitest';
import { placement } from './wardRenderer';

describe("a map's place on the board's canvas", () => {
  // The canvas starts under a phone's 148 px top bar and fills the 390 × 844 window below it.
  const canvas = { left: 0, top: 148, width: 390, height: 696 };

  it('is the slot measured from the canvas, not the window', () => {
    expect(placement({ left: 24, top: 777, width: 96, height: 96 }, canvas)).toEqual({ x: 24, y: 629, width: 96, height: 96 });
  });

  it('keeps a slot partly under the top bar or the bottom edge (its visible part is drawn)', () => {
    expect(placement({ left: 24, top: 100, width: 96, height: 96 }, canvas)).toEqual({ x: 24, y: -48, width: 96, height: 96 });
    expect(placement({ left: 24, top: 800, width: 96, height: 96 }, canvas)).toEqual({ x: 24, y: 652, width: 96, height: 96 });
  });

  it('drops a slot wholly under the top bar, below the window or without size', () => {
    expect(placement({ left: 24, top: 20, width: 96, height: 96 }, canvas)).toBeNull();
    expect(placement({ left: 24, top: 844, width: 96, height: 96 }, canvas)).toBeNull();
    expect(placement({ left: 24, top: 300, width: 0, height: 96 }, canvas)).toBeNull();
  });
});

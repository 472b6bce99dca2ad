import { describe, expect, it } from 'vitest';
import { drawDue, MAX_DRAWS_PER_SECOND } from './drawPacing';

/** Draws made over `seconds` of 60 Hz animation frames, a new map arriving before every frame. */
function drawsOver(seconds: number, layoutMovedAt: (frame: number) => boolean = () => false): number[] {
  const draws: number[] = [];
  let last = -Infinity;
  for (let frame = 0; frame < seconds * 60; frame++) {
    const now = (frame * 1000) / 60;
    if (drawDue(now, last, layoutMovedAt(frame))) {
      draws.push(now);
      last = now;
    }
  }
  return draws;
}

describe("the board's draw pacing", () => {
  it('draws at most 20 times a second on a 60 Hz screen however many maps arrive', () => {
    expect(MAX_DRAWS_PER_SECOND).toBe(20);
    expect(drawsOver(10)).toHaveLength(200);
  });

  it('never leaves a 10 Hz device\'s frame undrawn: draws are at most 50 ms apart', () => {
    const draws = drawsOver(5);
    const gaps = draws.slice(1).map((t, i) => t - draws[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(50 + 1);
  });

  it('draws at once when the layout moved, however recent the last draw', () => {
    expect(drawDue(1000, 990, false)).toBe(false);
    expect(drawDue(1000, 990, true)).toBe(true);
    // a scroll on every frame keeps the maps on their slots at the screen's rate
    expect(drawsOver(1, () => true)).toHaveLength(60);
  });
});

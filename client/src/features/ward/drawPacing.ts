//! When the board's map canvas may be drawn again (pure): at most `MAX_DRAWS_PER_SECOND` times a
//! second — twice the fastest rate a device streams to the board (10 Hz), so no frame of it is
//! skipped, and a third of a 60 Hz screen's frames at most — except that a moved layout (a
//! scroll, a resize, a tile moving) draws at the next animation frame, so maps stay on their slots.

export const MAX_DRAWS_PER_SECOND = 20;

/** Animation-frame times jitter by a millisecond or two: a draw due within this is drawn. */
const JITTER_MS = 2;

/** Whether an animation frame at `nowMs` draws, the last draw having been at `lastDrawMs`. */
export function drawDue(nowMs: number, lastDrawMs: number, layoutMoved: boolean): boolean {
  return layoutMoved || nowMs - lastDrawMs >= 1000 / MAX_DRAWS_PER_SECOND - JITTER_MS;
}

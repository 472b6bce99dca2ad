//! The dynamic video player's frames and timing (spec §4, §9): the captured frames with
//! interpolated frames between them, cells at or below 5 zeroed; one playback frame per 20 ms ×
//! the speed value; the CoP track advances one sample per 3 frames. Pure.
//!
//! Spec §9's "options 1, 5, 10 shown as 1, 2, 3" with "interval 20 ms × speed value": the value
//! is the slowdown (a frame's interval in 20 ms steps), so the choices are listed in increasing
//! order of speed — 10, 5, 1 shown as 1, 2, 3 — and "3" (20 ms a frame) is the fastest
//! (docs/decisions.md "Playback speed").

import type { Grid } from './record';

export const FRAME_INTERVAL_MS = 20;
/** The speed values in the order shown, slowest first: shown as 1, 2, 3. */
export const SPEEDS = [10, 5, 1] as const;
export type Speed = (typeof SPEEDS)[number];
/** Playback frames per captured interval (the captured frame and two interpolated ones). */
export const FRAMES_PER_INTERVAL = 3;
/** Cells at or below this are zeroed in the video. */
export const VIDEO_ZERO_AT_OR_BELOW = 5;
/** Delay of the getOff toast after the map empties while playing. */
export const GET_OFF_TOAST_MS = 1500;

export function intervalMs(speed: Speed): number {
  return FRAME_INTERVAL_MS * speed;
}

/** The speed's label: its position in increasing order of speed, 1-based. */
export function speedLabel(speed: Speed): number {
  return SPEEDS.indexOf(speed) + 1;
}

/** Number of playback frames for `captured` frames. */
export function playbackLength(captured: number): number {
  return captured <= 1 ? captured : (captured - 1) * FRAMES_PER_INTERVAL + 1;
}

/** Playback frame `k`: captured frames interpolated linearly, cells ≤ 5 zeroed. */
export function playbackFrame(frames: Grid[], k: number): Grid | null {
  if (frames.length === 0 || k < 0 || k >= playbackLength(frames.length)) return null;
  const i = Math.floor(k / FRAMES_PER_INTERVAL);
  const frac = (k % FRAMES_PER_INTERVAL) / FRAMES_PER_INTERVAL;
  const a = frames[i];
  const b = frac > 0 ? frames[i + 1] : a;
  const cells = a.cells.map((v, n) => {
    const value = frac > 0 ? v + (b.cells[n] - v) * frac : v;
    return value <= VIDEO_ZERO_AT_OR_BELOW ? 0 : value;
  });
  return { rows: a.rows, cols: a.cols, cells };
}

/** The track sample of playback frame `k` (the tracking index divides by 3). */
export function traceIndex(k: number): number {
  return Math.floor(k / FRAMES_PER_INTERVAL);
}

/**
 * The playback frame the video opens at: its first captured frame with pressure (a walk is kept
 * from the first empty plate, so it starts empty; docs/decisions.md "A walk is kept from the first
 * empty plate"), 0 when every frame is empty.
 */
export function firstContactFrame(frames: Grid[]): number {
  const i = frames.findIndex((frame) => frame.cells.some((v) => v > VIDEO_ZERO_AT_OR_BELOW));
  return i < 0 ? 0 : i * FRAMES_PER_INTERVAL;
}

export function isEmptyMap(grid: Grid | null): boolean {
  return !grid || grid.cells.every((v) => v <= 0);
}

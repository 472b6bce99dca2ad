//! Pure figures read from one live frame: force channels and their sum, the contact surface and
//! the centre of pressure. No I/O; the pages sample them from the live-map store.

import { cellValue } from '../../lib/heatmap/palette';
import type { LiveFrame } from '../../lib/liveMaps';

/** Spec §9: the contact area counts distinct cells with pressure at least 5. */
export const CONTACT_MIN_PRESSURE = 5;

/** Every cell value of a frame (u8 or u16 little-endian). Empty for a blank frame. */
export function frameValues(frame: LiveFrame | undefined): number[] {
  if (!frame || frame.blank) return [];
  const n = frame.rows * frame.cols;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = cellValue(frame, i);
  return out;
}

/** A force reading: the channels of the frame and their sum. */
export interface ForceReading {
  channels: number[];
  total: number;
}

export function forceReading(frame: LiveFrame | undefined): ForceReading | null {
  const channels = frameValues(frame);
  if (channels.length === 0) return null;
  return { channels, total: channels.reduce((a, b) => a + b, 0) };
}

/** Cells with pressure at or above {@link CONTACT_MIN_PRESSURE}. */
export function activeCells(frame: LiveFrame | undefined): number {
  return frameValues(frame).filter((v) => v >= CONTACT_MIN_PRESSURE).length;
}

/** Contact surface in cm²: active cells × (distance between points)². */
export function contactSurfaceCm2(frame: LiveFrame | undefined, cellSizeCm: number): number {
  return activeCells(frame) * cellSizeCm * cellSizeCm;
}

/** Mean pressure over the active cells (0 when none). */
export function meanActivePressure(frame: LiveFrame | undefined): number {
  const active = frameValues(frame).filter((v) => v >= CONTACT_MIN_PRESSURE);
  return active.length ? active.reduce((a, b) => a + b, 0) / active.length : 0;
}

/** Centre of pressure in cells, relative to the centre of the map (x right, y down); null when the
 * map is empty. */
export function centreOfPressure(frame: LiveFrame | undefined): { x: number; y: number } | null {
  if (!frame || frame.blank) return null;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  for (let r = 0; r < frame.rows; r++) {
    for (let c = 0; c < frame.cols; c++) {
      const v = cellValue(frame, r * frame.cols + c);
      if (v < CONTACT_MIN_PRESSURE) continue;
      sum += v;
      sx += v * (c + 0.5);
      sy += v * (r + 0.5);
    }
  }
  if (sum === 0) return null;
  return { x: sx / sum - frame.cols / 2, y: sy / sum - frame.rows / 2 };
}

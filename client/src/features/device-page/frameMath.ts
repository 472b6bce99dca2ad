//! Pure figures read from one live frame: force channels and their sum, the contact surface and
//! the centre of pressure. No I/O; the pages sample them from the live-map store.

import { cellValue } from '../../lib/heatmap/palette';
import type { LiveFrame } from '../../lib/liveMaps';

/** The smallest active cell of a device type, in its steps, as the hub's type table serves it
 * (`activeFloorSteps` of `GET /api/deviceTypes`, owned by `mat_protocol::scale`): the contact
 * area, presence and the analyses count the same cells. `null` when the type's cells are not
 * pressures or the table has not arrived. */
export function activeFloorOf(info: { activeFloorSteps?: number | null } | null | undefined): number | null {
  return info?.activeFloorSteps ?? null;
}

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

/** Cells at or above `activeFloor` steps (the type's, {@link activeFloorOf}); null without it. */
export function activeCells(frame: LiveFrame | undefined, activeFloor: number | null): number | null {
  if (activeFloor === null) return null;
  return frameValues(frame).filter((v) => v >= activeFloor).length;
}

/** Contact surface in cm²: active cells × (distance between points)²; null without the floor. */
export function contactSurfaceCm2(frame: LiveFrame | undefined, cellSizeCm: number, activeFloor: number | null): number | null {
  const active = activeCells(frame, activeFloor);
  return active === null ? null : active * cellSizeCm * cellSizeCm;
}

/** Mean pressure over the active cells, in steps (0 when none, null without the floor). */
export function meanActivePressure(frame: LiveFrame | undefined, activeFloor: number | null): number | null {
  if (activeFloor === null) return null;
  const active = frameValues(frame).filter((v) => v >= activeFloor);
  return active.length ? active.reduce((a, b) => a + b, 0) / active.length : 0;
}

/** Centre of pressure of the active cells in cells, relative to the centre of the map (x right,
 * y down); null when the map is empty or the floor unknown. */
export function centreOfPressure(frame: LiveFrame | undefined, activeFloor: number | null): { x: number; y: number } | null {
  if (!frame || frame.blank || activeFloor === null) return null;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  for (let r = 0; r < frame.rows; r++) {
    for (let c = 0; c < frame.cols; c++) {
      const v = cellValue(frame, r * frame.cols + c);
      if (v < activeFloor) continue;
      sum += v;
      sx += v * (c + 0.5);
      sy += v * (r + 0.5);
    }
  }
  if (sum === 0) return null;
  return { x: sx / sum - frame.cols / 2, y: sy / sum - frame.rows / 2 };
}

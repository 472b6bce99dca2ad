//! A stored map as the heat-map renderer's frame (2 bytes a cell, little-endian), and the small
//! per-map facts the views need. Pure.

import type { LiveFrame } from '../../lib/liveMaps';
import type { Grid } from './record';

export function gridToFrame(grid: Grid, seq = 0): LiveFrame {
  const cells = new Uint8Array(grid.rows * grid.cols * 2);
  grid.cells.forEach((v, i) => {
    const c = Math.max(0, Math.min(65535, Math.round(v)));
    cells[i * 2] = c & 0xff;
    cells[i * 2 + 1] = c >> 8;
  });
  return {
    deviceId: 'analysis',
    seq,
    deviceTimeMs: 0,
    hubTimeMs: 0,
    rows: grid.rows,
    cols: grid.cols,
    bytesPerCell: 2,
    cells,
    presence: 'PRESENCE',
    blank: false,
    receivedAtMs: 0,
  };
}

/** Centre of pressure [x (column), y (row)] of a map in cells, or null for an empty map. */
export function centreOfPressure(grid: Grid): [number, number] | null {
  let sum = 0;
  let sx = 0;
  let sy = 0;
  grid.cells.forEach((v, i) => {
    if (v <= 0) return;
    sum += v;
    sx += v * (i % grid.cols);
    sy += v * Math.floor(i / grid.cols);
  });
  return sum > 0 ? [sx / sum, sy / sum] : null;
}

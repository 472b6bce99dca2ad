//! From a live frame to the values a view draws, as pure functions: read the cells at the frame's
//! own rows × cols, zero the cells under the threshold, smooth, and pick the top of the colour
//! scale (the manual scale, or the frame's maximum). Renderers (2-D, contour, 3-D) share this.

import { cellValue, MIN_SCALE, type CellGrid } from './palette';
import { smoothingIndex, type ViewOptions } from './viewOptions';

/** Reads every cell of the grid as a number (row-major, rows × cols). */
export function readCells(grid: CellGrid): Float32Array {
  const n = grid.rows * grid.cols;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = cellValue(grid, i);
  return out;
}

/** Spec §5: pressure below the threshold is zeroed. Works in place; returns how many non-zero
 * cells it zeroed. A threshold of 0 zeroes nothing. */
export function applyThreshold(values: Float32Array, threshold: number): number {
  if (threshold <= 0) return 0;
  let zeroed = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v > 0 && v < threshold) {
      values[i] = 0;
      zeroed++;
    }
  }
  return zeroed;
}

/** One pass of the separable 3 × 3 binomial kernel (1 2 1) with clamped edges. */
export function blurOnce(values: Float32Array, rows: number, cols: number): Float32Array {
  const tmp = new Float32Array(values.length);
  const out = new Float32Array(values.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const l = values[r * cols + Math.max(0, c - 1)];
      const m = values[r * cols + c];
      const rr = values[r * cols + Math.min(cols - 1, c + 1)];
      tmp[r * cols + c] = (l + 2 * m + rr) / 4;
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const u = tmp[Math.max(0, r - 1) * cols + c];
      const m = tmp[r * cols + c];
      const d = tmp[Math.min(rows - 1, r + 1) * cols + c];
      out[r * cols + c] = (u + 2 * m + d) / 4;
    }
  }
  return out;
}

/** Blur passes of a smoothing level: none for off and low (low only interpolates when drawing). */
export const blurPasses = (smoothenIndex: number): number => Math.max(0, smoothingIndex(smoothenIndex) - 1);

/** Whether a smoothing level interpolates between cells when drawing (every level but off). */
export const interpolates = (smoothenIndex: number): boolean => smoothingIndex(smoothenIndex) > 0;

/** The top of the colour scale: the manual scale when it is on, else the frame's maximum (never
 * under a floor, so that sensor noise on an empty mat is not stretched to full colour). */
export function colourScale(max: number, bytesPerCell: 1 | 2, o: Pick<ViewOptions, 'manualScale' | 'manualScaleValue'>, autoFloor: number = MIN_SCALE[bytesPerCell]): number {
  if (o.manualScale) return o.manualScaleValue;
  return Math.max(max, autoFloor, 1);
}

export interface PreparedMap {
  rows: number;
  cols: number;
  /** rows × cols values after threshold and smoothing. */
  values: Float32Array;
  /** Top of the colour scale. */
  scale: number;
  /** Largest value after the threshold (before smoothing). */
  max: number;
  /** Non-zero cells after the threshold. */
  active: number;
  /** Cells the threshold zeroed. */
  zeroed: number;
  /** Smallest non-zero cell after the threshold (0 when none). */
  minActive: number;
}

/** Everything a view needs from one frame under the current options. `autoFloor` is the least top
 * of the automatic colour scale: a live frame's `MIN_SCALE` by default (noise on an empty mat is
 * not stretched to red); a stored capture's own maximum (`ResultMap`). */
export function prepareMap(grid: CellGrid, o: ViewOptions, autoFloor: number = MIN_SCALE[grid.bytesPerCell]): PreparedMap {
  const { rows, cols } = grid;
  let values = readCells(grid);
  const zeroed = applyThreshold(values, o.thresholdValue);
  let max = 0;
  let active = 0;
  let minActive = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v > 0) {
      active++;
      if (v > max) max = v;
      if (minActive === 0 || v < minActive) minActive = v;
    }
  }
  for (let p = blurPasses(o.smoothenIndex); p > 0; p--) values = blurOnce(values, rows, cols);
  return { rows, cols, values, scale: colourScale(max, grid.bytesPerCell, o, autoFloor), max, active, zeroed, minActive };
}

/** Writes RGBA texels for the values on the palette `lut`, scaled to `scale` (values above
 * saturate). When `bands` > 0 the colours are stepped into that many bands (the contour view). */
export function colourise(values: Float32Array, scale: number, lut: Uint8Array, out: Uint8Array, bands = 0): void {
  const s = scale > 0 ? scale : 1;
  for (let i = 0; i < values.length; i++) {
    let t = Math.min(1, Math.max(0, values[i] / s));
    if (bands > 0) t = t >= 1 ? 1 : Math.floor(t * bands) / bands;
    const idx = Math.round(t * 255) * 4;
    const o = i * 4;
    out[o] = lut[idx];
    out[o + 1] = lut[idx + 1];
    out[o + 2] = lut[idx + 2];
    out[o + 3] = 255;
  }
}

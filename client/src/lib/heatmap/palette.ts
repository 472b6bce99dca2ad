//! Heat-map colouring as a typed-array pass: the 256-entry RGBA
//! look-up table built from stops, and reading a frame's cells. No React, no pixi.

export type Rgb = readonly [number, number, number];

/** Colour stops of a palette, from no pressure (0) to the highest pressure (1). */
export type PaletteStops = ReadonlyArray<readonly [number, Rgb]>;

/** Builds the 256 × RGBA look-up table by linear interpolation between the stops. */
export function buildLut(stops: PaletteStops): Uint8Array {
  const lut = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    let k = 0;
    while (k < stops.length - 2 && t > stops[k + 1][0]) k++;
    const [t0, c0] = stops[k];
    const [t1, c1] = stops[k + 1];
    const f = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
    lut[i * 4] = Math.round(c0[0] + (c1[0] - c0[0]) * f);
    lut[i * 4 + 1] = Math.round(c0[1] + (c1[1] - c0[1]) * f);
    lut[i * 4 + 2] = Math.round(c0[2] + (c1[2] - c0[2]) * f);
    lut[i * 4 + 3] = 255;
  }
  return lut;
}

/** Smallest full-scale value, so that sensor noise on an empty mat is not stretched to red. */
export const MIN_SCALE: Readonly<Record<1 | 2, number>> = { 1: 64, 2: 256 };

export interface CellGrid {
  rows: number;
  cols: number;
  bytesPerCell: 1 | 2;
  cells: Uint8Array;
}

/** Reads cell `i` (1 byte, or 2 bytes little-endian). */
export function cellValue(grid: CellGrid, i: number): number {
  return grid.bytesPerCell === 2 ? grid.cells[i * 2] | (grid.cells[i * 2 + 1] << 8) : grid.cells[i];
}

/** Fills `out` with the palette's zero colour: the blanked map. */
export function fillBlank(out: Uint8Array, lut: Uint8Array): void {
  for (let o = 0; o < out.length; o += 4) {
    out[o] = lut[0];
    out[o + 1] = lut[1];
    out[o + 2] = lut[2];
    out[o + 3] = 255;
  }
}

//! The 13 colour palettes the colour button cycles through (spec §2, `mapColorIndex`). Each is a
//! list of colour stops from no pressure (0) to the top of the scale (1), read from
//! `reports/palettes.json` (shared with the PDF reports); `lutFor` turns one into a 256-entry RGBA
//! look-up table, built once per palette.

import paletteFile from '../../../../reports/palettes.json';
import { buildLut, type PaletteStops, type Rgb } from './palette';

export interface Palette {
  /** Stable id, also the i18n key `view.palette.<id>`. */
  id: string;
  stops: PaletteStops;
}

/** The palettes of `reports/palettes.json`, the one list the heat maps and the PDF reports share. */
export const PALETTES: readonly Palette[] = (paletteFile as unknown as PaletteFile).palettes;

/** The file's shape: each stop is `[position 0–1, [r, g, b] 0–255]` (checked by palettes.test.ts). */
interface PaletteFile {
  palettes: Array<{ id: string; stops: Array<[number, Rgb]> }>;
}

const luts = new Map<number, Uint8Array>();

/** The look-up table of palette `index` (wrapped round the list). */
export function lutFor(index: number): Uint8Array {
  const i = ((Math.trunc(index) % PALETTES.length) + PALETTES.length) % PALETTES.length;
  let lut = luts.get(i);
  if (!lut) {
    lut = buildLut(PALETTES[i].stops);
    luts.set(i, lut);
  }
  return lut;
}

/** A CSS linear-gradient of the palette, for its legend and swatch. */
export function paletteGradient(index: number): string {
  const lut = lutFor(index);
  const parts: string[] = [];
  for (let k = 0; k <= 8; k++) {
    const o = Math.round((k / 8) * 255) * 4;
    parts.push(`rgb(${lut[o]}, ${lut[o + 1]}, ${lut[o + 2]}) ${(k / 8) * 100}%`);
  }
  return `linear-gradient(90deg, ${parts.join(', ')})`;
}

//! The 13 colour palettes the colour button cycles through (spec §2, `mapColorIndex`). Each is a
//! list of colour stops from no pressure (0) to the top of the scale (1); `lutFor` turns one into a
//! 256-entry RGBA look-up table, built once per palette.

import { buildLut, PALETTE_STOPS, type Rgb } from './palette';

export interface Palette {
  /** Stable id, also the i18n key `view.palette.<id>`. */
  id: string;
  stops: ReadonlyArray<readonly [number, Rgb]>;
}

const even = (colours: Rgb[]): Array<readonly [number, Rgb]> =>
  colours.map((c, i) => [i / (colours.length - 1), c] as const);

export const PALETTES: readonly Palette[] = [
  { id: 'pressure', stops: PALETTE_STOPS },
  { id: 'jet', stops: even([[0, 0, 143], [0, 0, 255], [0, 255, 255], [255, 255, 0], [255, 0, 0], [128, 0, 0]]) },
  { id: 'hot', stops: even([[10, 0, 0], [230, 0, 0], [255, 210, 0], [255, 255, 255]]) },
  { id: 'viridis', stops: even([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]]) },
  { id: 'plasma', stops: even([[13, 8, 135], [126, 3, 168], [204, 71, 120], [248, 149, 64], [240, 249, 33]]) },
  { id: 'inferno', stops: even([[0, 0, 4], [87, 16, 110], [188, 55, 84], [249, 142, 9], [252, 255, 164]]) },
  { id: 'magma', stops: even([[0, 0, 4], [81, 18, 124], [183, 55, 121], [252, 137, 97], [252, 253, 191]]) },
  { id: 'cividis', stops: even([[0, 32, 77], [65, 77, 107], [124, 123, 120], [188, 175, 111], [255, 234, 70]]) },
  { id: 'turbo', stops: even([[48, 18, 59], [70, 134, 251], [26, 228, 182], [164, 252, 60], [251, 185, 56], [228, 70, 11], [122, 4, 3]]) },
  { id: 'portland', stops: even([[12, 51, 131], [10, 136, 186], [242, 211, 56], [242, 143, 56], [217, 30, 30]]) },
  { id: 'electric', stops: even([[0, 0, 0], [30, 0, 100], [120, 0, 100], [160, 90, 0], [230, 200, 0], [255, 250, 220]]) },
  { id: 'earth', stops: even([[0, 0, 130], [0, 180, 180], [40, 210, 40], [230, 230, 50], [120, 70, 20], [255, 255, 255]]) },
  { id: 'greys', stops: even([[235, 235, 235], [0, 0, 0]]) },
];

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

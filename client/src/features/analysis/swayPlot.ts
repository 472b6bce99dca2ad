//! The geometry of a sway plot (issue 21): centres of force in cm around their mean, on one
//! square range so both axes have the same scale, and the 95 % ellipse's outline. Pure.

export interface SwayEllipse {
  semiMajorCm: number;
  semiMinorCm: number;
  angleDeg: number;
}

export interface SwayGeometry {
  /** Points in cm relative to their mean: [lateral, front–back]. */
  points: Array<[number, number]>;
  /** Half the side of the square plotted, cm: the same on both axes. */
  halfRangeCm: number;
}

/** Cell-unit points as cm around their mean, and a square half-range (at least `minHalfCm`)
 * that holds every point and the ellipse. */
export function swayGeometry(cells: Array<[number, number]>, cellCm: number, ellipse: SwayEllipse | null, minHalfCm = 1): SwayGeometry {
  const n = cells.length || 1;
  const mean = cells.reduce<[number, number]>((m, p) => [m[0] + p[0] / n, m[1] + p[1] / n], [0, 0]);
  const points = cells.map(([x, y]): [number, number] => [(x - mean[0]) * cellCm, (y - mean[1]) * cellCm]);
  const extent = Math.max(minHalfCm, ellipse?.semiMajorCm ?? 0, ...points.map(([x, y]) => Math.max(Math.abs(x), Math.abs(y))));
  return { points, halfRangeCm: niceCeil(extent * 1.1) };
}

/** The next 1, 2 or 5 × 10ⁿ at or above `v`. */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v - 1e-12) ?? 10) * p;
}

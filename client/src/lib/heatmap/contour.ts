//! Iso-lines of a pressure map by marching squares, as pure functions. Cell (r, c) sits at the
//! centre of its square, (c + 0.5, r + 0.5) in cell units; a segment list is a flat array
//! x1, y1, x2, y2, … in those units, ready to be scaled to the canvas.

/** The levels of the contour view: `count` evenly spaced values strictly between 0 and `scale`. */
export function contourLevels(scale: number, count: number): number[] {
  if (!(scale > 0) || count <= 0) return [];
  return Array.from({ length: count }, (_, k) => (scale * (k + 1)) / (count + 1));
}

/**
 * Segments of the iso-line `level` over a rows × cols grid. A corner is "in" when its value is at
 * or above the level. The saddle cases (5 and 10) are split by the mean of the four corners.
 */
export function isoline(values: ArrayLike<number>, rows: number, cols: number, level: number): number[] {
  const seg: number[] = [];
  const at = (r: number, c: number) => values[r * cols + c];
  // Where the level crosses between two corner values, as a fraction from the first.
  const cross = (a: number, b: number) => (a === b ? 0.5 : (level - a) / (b - a));
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const tl = at(r, c);
      const tr = at(r, c + 1);
      const br = at(r + 1, c + 1);
      const bl = at(r + 1, c);
      const code = (tl >= level ? 8 : 0) | (tr >= level ? 4 : 0) | (br >= level ? 2 : 0) | (bl >= level ? 1 : 0);
      if (code === 0 || code === 15) continue;
      const x = c + 0.5;
      const y = r + 0.5;
      // Edge points: top (tl→tr), right (tr→br), bottom (bl→br), left (tl→bl).
      const top = () => [x + cross(tl, tr), y] as const;
      const right = () => [x + 1, y + cross(tr, br)] as const;
      const bottom = () => [x + cross(bl, br), y + 1] as const;
      const left = () => [x, y + cross(tl, bl)] as const;
      const line = (p: readonly [number, number], q: readonly [number, number]) => seg.push(p[0], p[1], q[0], q[1]);
      switch (code) {
        case 1:
        case 14:
          line(left(), bottom());
          break;
        case 2:
        case 13:
          line(bottom(), right());
          break;
        case 3:
        case 12:
          line(left(), right());
          break;
        case 4:
        case 11:
          line(top(), right());
          break;
        case 6:
        case 9:
          line(top(), bottom());
          break;
        case 7:
        case 8:
          line(left(), top());
          break;
        case 5:
        case 10: {
          // Code 5: tr and bl are in; code 10: tl and br are in. The mean of the corners decides
          // whether the "in" corners join through the centre (then the other two are cut off).
          const centreIn = (tl + tr + br + bl) / 4 >= level;
          const cutTopLeftAndBottomRight = code === 5 ? centreIn : !centreIn;
          if (cutTopLeftAndBottomRight) {
            line(left(), top());
            line(bottom(), right());
          } else {
            line(top(), right());
            line(left(), bottom());
          }
          break;
        }
        default:
          break;
      }
    }
  }
  return seg;
}

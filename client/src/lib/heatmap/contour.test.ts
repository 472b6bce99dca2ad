import { describe, expect, it } from 'vitest';
import { contourLevels, isoline } from './contour';

/** Segments as rounded point pairs, for comparison. */
const pairs = (seg: number[]) => {
  const out: string[] = [];
  for (let i = 0; i < seg.length; i += 4) out.push(seg.slice(i, i + 4).map((v) => v.toFixed(2)).join(','));
  return out;
};

describe('contour levels', () => {
  it('spaces levels evenly strictly inside the scale', () => {
    expect(contourLevels(90, 2)).toEqual([30, 60]);
    expect(contourLevels(0, 3)).toEqual([]);
    expect(contourLevels(100, 0)).toEqual([]);
  });
});

describe('marching squares', () => {
  it('draws nothing when the map is all below or all above the level', () => {
    expect(isoline([0, 0, 0, 0], 2, 2, 5)).toEqual([]);
    expect(isoline([9, 9, 9, 9], 2, 2, 5)).toEqual([]);
  });

  it('closes a diamond round a single peak, crossing each edge half-way', () => {
    const seg = isoline([0, 0, 0, 0, 10, 0, 0, 0, 0], 3, 3, 5);
    expect(seg).toHaveLength(4 * 4);
    // The peak sits at (1.5, 1.5); the line crosses half-way to each neighbour.
    const points = new Set(pairs(seg).flatMap((p) => {
      const [a, b, c, d] = p.split(',');
      return [`${a},${b}`, `${c},${d}`];
    }));
    expect(points).toEqual(new Set(['1.50,1.00', '2.00,1.50', '1.50,2.00', '1.00,1.50']));
  });

  it('interpolates where the level crosses an edge', () => {
    // Left column 0, right column 10: the level 2.5 crosses a quarter of the way across.
    const seg = isoline([0, 10, 0, 10], 2, 2, 2.5);
    expect(pairs(seg)).toEqual(['0.75,0.50,0.75,1.50']);
  });

  it('splits a saddle by the mean of the four corners', () => {
    // tl and br high: code 10. Mean 5 >= 4 joins the high corners through the centre.
    const high = pairs(isoline([10, 0, 0, 10], 2, 2, 4));
    expect(high).toHaveLength(2);
    expect(high).toContain('1.10,0.50,1.50,0.90'); // cuts off tr
    // With level 6 the mean 5 is below: the high corners are cut off instead.
    const low = pairs(isoline([10, 0, 0, 10], 2, 2, 6));
    expect(low).toContain('0.50,0.90,0.90,0.50'); // cuts off tl
  });
});

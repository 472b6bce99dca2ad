import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BalanceView } from './BalanceView';
import type { BalanceResult } from './engineResult';
import { niceCeil, swayGeometry } from './swayPlot';
import { renderAnalysis } from './testing';

describe('sway plot geometry (issue 21)', () => {
  it('centres the points in cm on one square range for both axes', () => {
    // Sway of 0.05 cells sideways and 1.25 cells front–back: one range holds both.
    const g = swayGeometry([[10, 4], [10.1, 6.5], [10, 4], [10.1, 6.5]], 2, null);
    expect(g.points[0][0]).toBeCloseTo(-0.1);
    expect(g.points[1][1]).toBeCloseTo(2.5);
    expect(g.halfRangeCm).toBe(5);
    const withEllipse = swayGeometry([[0, 0], [1, 1]], 2, { semiMajorCm: 7, semiMinorCm: 1, angleDeg: 30 });
    expect(withEllipse.halfRangeCm).toBe(10);
  });
  it('rounds the range up to 1, 2 or 5 × 10ⁿ', () => {
    expect([0.3, 1.1, 2, 4.2, 17].map(niceCeil)).toEqual([0.5, 2, 2, 5, 20]);
  });
});

const result = (durationS: number): BalanceResult => ({
  leftScatter: [[5, 6], [5.1, 6.2], [4.9, 6.1]],
  bodyScatter: [[10, 6], [10.2, 6.4], [9.8, 6.1], [10.1, 5.8]],
  rightScatter: [[15, 6], [15.1, 6.2], [14.9, 6.1]],
  lateral: [{ t: 0, value: 0 }, { t: durationS, value: 0.2 }],
  frontBack: [{ t: 0, value: 0 }, { t: durationS, value: 0.4 }],
  swayPathLengthCm: 3.2,
  meanVelocityCmS: 0.64,
  confidenceEllipseAreaCm2: 2.5,
  durationS,
  confidenceEllipse: { semiMajorCm: 1.2, semiMinorCm: 0.66, angleDeg: 70 },
  cellCm: 2,
});

describe('balance view (issue 21)', () => {
  it('draws the body 95 % ellipse on equal cm axes, the feet without one', async () => {
    await renderAnalysis(<BalanceView result={result(5)} />);
    const ellipse = screen.getByTestId('balance-body-ellipse');
    const half = Number(screen.getByTestId('balance-body').getAttribute('data-half-range-cm'));
    // 220 px for 2 × half cm on both axes: rx = 1.2 cm × 220 / (2 × half).
    expect(Number(ellipse.getAttribute('rx'))).toBeCloseTo((1.2 * 220) / (2 * half));
    expect(Number(ellipse.getAttribute('ry'))).toBeCloseTo((0.66 * 220) / (2 * half));
    expect(ellipse.getAttribute('transform')).toContain('rotate(70');
    expect(screen.queryByTestId('balance-left-ellipse')).toBeNull();
    expect(screen.getByTestId('ellipse-area')).toHaveTextContent('2.5 cm²');
  });
});

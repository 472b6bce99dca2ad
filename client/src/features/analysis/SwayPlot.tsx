//! One centre-of-force scatter of the balance result (issue 21): cm on both axes at the same
//! scale, centred on the mean, with the 95 % confidence ellipse when given.

import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { swayGeometry, type SwayEllipse } from './swayPlot';

const SIZE = 220;
const PAD = 34;

export function SwayPlot({ title, cells, cellCm, ellipse, colour, testId }: { title: string; cells: Array<[number, number]>; cellCm: number; ellipse: SwayEllipse | null; colour: string; testId: string }) {
  const { t, i18n } = useTranslation();
  const { points, halfRangeCm } = swayGeometry(cells, cellCm, ellipse);
  const scale = SIZE / (2 * halfRangeCm);
  const at = (cm: number) => PAD + SIZE / 2 + cm * scale;
  const ticks = [-halfRangeCm, 0, halfRangeCm];
  const label = (v: number) => `${formatNumber(v, i18n.language, 1)}`;
  return (
    <figure className="sway-plot" data-testid={testId} data-half-range-cm={halfRangeCm}>
      <figcaption>{title}</figcaption>
      <svg width={SIZE + 2 * PAD} height={SIZE + 2 * PAD} role="img" aria-label={title}>
        <rect x={PAD} y={PAD} width={SIZE} height={SIZE} fill="none" stroke="#cbd5e1" />
        <line x1={at(0)} y1={PAD} x2={at(0)} y2={PAD + SIZE} stroke="#e2e8f0" />
        <line x1={PAD} y1={at(0)} x2={PAD + SIZE} y2={at(0)} stroke="#e2e8f0" />
        {ticks.map((v) => (
          <g key={v} fontSize="10" fill="#475569">
            <text x={at(v)} y={PAD + SIZE + 14} textAnchor="middle">
              {label(v)}
            </text>
            <text x={PAD - 4} y={at(v) + 3} textAnchor="end">
              {label(v)}
            </text>
          </g>
        ))}
        <text x={PAD + SIZE} y={PAD + SIZE + 28} fontSize="10" textAnchor="end" fill="#475569">
          {t('analysisFamily.balance.lateralCm')}
        </text>
        <text x={8} y={PAD - 10} fontSize="10" fill="#475569">
          {t('analysisFamily.balance.frontBackCm')}
        </text>
        {points.map(([x, y], i) => (
          <circle key={i} cx={at(x)} cy={at(y)} r={2} fill={colour} />
        ))}
        {ellipse ? (
          <ellipse
            data-testid={`${testId}-ellipse`}
            cx={at(0)}
            cy={at(0)}
            rx={ellipse.semiMajorCm * scale}
            ry={ellipse.semiMinorCm * scale}
            transform={`rotate(${ellipse.angleDeg} ${at(0)} ${at(0)})`}
            fill="none"
            stroke="#dc2626"
            strokeWidth={1.5}
          />
        ) : null}
      </svg>
    </figure>
  );
}

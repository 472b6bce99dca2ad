//! The live centre-of-pressure plot of the rehab page: the trail of the last samples and the
//! current point, in map cells from the centre, over rings of radius 11, 18 and 25 (spec §9). The
//! caption states the current point in cm from the mat's centre (the type's cell pitch).

import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';

export const COP_RINGS = [11, 18, 25] as const;
const EXTENT = 28;

export function CopPlot({ trail, cellPitchCm }: { trail: Array<{ x: number; y: number }>; cellPitchCm: number }) {
  const { t, i18n } = useTranslation();
  const cm = (cells: number) => `${formatNumber(cells * cellPitchCm, i18n.resolvedLanguage ?? i18n.language, 1)}\u00a0cm`;
  const current = trail.length ? trail[trail.length - 1] : null;
  const points = trail.map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`).join(' ');
  return (
    <figure className="cop-plot" data-testid="cop-plot" data-points={trail.length}>
      <svg viewBox={`${-EXTENT} ${-EXTENT} ${EXTENT * 2} ${EXTENT * 2}`} role="img" aria-label={t('pages.rehab.copPlot')}>
        <line x1={-EXTENT} y1={0} x2={EXTENT} y2={0} className="cop-axis" />
        <line x1={0} y1={-EXTENT} x2={0} y2={EXTENT} className="cop-axis" />
        {COP_RINGS.map((r) => (
          <circle key={r} cx={0} cy={0} r={r} className={`cop-ring cop-ring-${r}`} data-testid="cop-ring" data-radius={r} />
        ))}
        {trail.length > 1 ? <polyline points={points} className="cop-trail" /> : null}
        {current ? <circle cx={current.x} cy={current.y} r={1.3} className="cop-point" data-testid="cop-point" /> : null}
      </svg>
      <figcaption>
        {current
          ? t('pages.rehab.copValue', { x: cm(current.x), y: cm(-current.y) })
          : t('pages.rehab.noCop')}
      </figcaption>
    </figure>
  );
}

//! The balance result (spec §2): centre-of-force scatter plots of the left foot, the body and the
//! right foot in cm at equal scales with the body's 95 % ellipse drawn, the lateral and front–back
//! series over the capture's real duration (at most the spec's 10 s), the sway path, mean velocity
//! and the ellipse area the hub computed (issue 21).

import { useTranslation } from 'react-i18next';
import { Chart } from './Chart';
import { SwayPlot } from './SwayPlot';
import type { BalanceResult } from './engineResult';
import { formatNumber } from '../../lib/format';

export const BALANCE_SERIES_SECONDS = 10;

export function BalanceView({ result }: { result: BalanceResult }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  // The time plots span the capture (a 5 s balance test is not drawn over 10 s), at most 10 s.
  const plotSeconds = Math.min(BALANCE_SERIES_SECONDS, result.durationS > 0 ? result.durationS : BALANCE_SERIES_SECONDS);
  const series = (name: 'lateral' | 'frontBack') => {
    const points = result[name].filter((p) => p.t <= BALANCE_SERIES_SECONDS);
    return [points.map((p) => p.t), points.map((p) => p.value)];
  };
  return (
    <div className="result-balance" data-testid="result-balance">
      <div className="result-charts">
        {(['left', 'body', 'right'] as const).map((part) => (
          <SwayPlot
            key={part}
            testId={`balance-${part}`}
            title={t(`analysis.balance.${part}`)}
            cells={result[`${part}Scatter`]}
            cellCm={result.cellCm ?? 2}
            ellipse={part === 'body' ? (result.confidenceEllipse ?? null) : null}
            colour={part === 'body' ? '#6d28d9' : '#0f766e'}
          />
        ))}
        <Chart testId="balance-lateral" title={t('analysis.balance.lateral')} xLabel={t('units.seconds')} yLabel="cm" series={[{ label: 'cm', colour: '#2563eb' }]} data={series('lateral')} xRange={[0, plotSeconds]} />
        <Chart testId="balance-frontBack" title={t('analysis.balance.frontBack')} xLabel={t('units.seconds')} yLabel="cm" series={[{ label: 'cm', colour: '#db2777' }]} data={series('frontBack')} xRange={[0, plotSeconds]} />
      </div>
      <div className="result-tiles">
        <div className="result-tile">
          <span>{t('analysis.balance.swayPath')}</span>
          <strong data-testid="sway-path">{n(result.swayPathLengthCm)} cm</strong>
        </div>
        <div className="result-tile">
          <span>{t('analysis.balance.meanVelocity')}</span>
          <strong data-testid="mean-velocity">{n(result.meanVelocityCmS)} cm/s</strong>
        </div>
        <div className="result-tile">
          <span>{t('analysis.balance.ellipse')}</span>
          <strong data-testid="ellipse-area">{n(result.confidenceEllipseAreaCm2)} cm²</strong>
        </div>
      </div>
    </div>
  );
}

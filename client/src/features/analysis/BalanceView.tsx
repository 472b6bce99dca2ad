//! The balance result (spec §2): centre-of-force scatter plots of the left foot, the body and the
//! right foot, the lateral and front–back series over 0–10 s, the sway path, mean velocity and the
//! 95 % confidence-ellipse area the hub computed.

import { useTranslation } from 'react-i18next';
import { Chart, scatterData } from './Chart';
import type { BalanceResult } from './engineResult';
import { formatNumber } from '../../lib/format';

export const BALANCE_SERIES_SECONDS = 10;

export function BalanceView({ result }: { result: BalanceResult }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  const series = (name: 'lateral' | 'frontBack') => {
    const points = result[name].filter((p) => p.t <= BALANCE_SERIES_SECONDS);
    return [points.map((p) => p.t), points.map((p) => p.value)];
  };
  return (
    <div className="result-balance" data-testid="result-balance">
      <div className="result-charts">
        {(['left', 'body', 'right'] as const).map((part) => (
          <Chart
            key={part}
            testId={`balance-${part}`}
            title={t(`analysis.balance.${part}`)}
            xLabel="x"
            yLabel="y"
            series={[{ label: t(`analysis.balance.${part}`), colour: part === 'body' ? '#6d28d9' : '#0f766e', points: true }]}
            data={scatterData(result[`${part}Scatter`])}
          />
        ))}
        <Chart testId="balance-lateral" title={t('analysis.balance.lateral')} xLabel="s" yLabel="cm" series={[{ label: 'cm', colour: '#2563eb' }]} data={series('lateral')} xRange={[0, BALANCE_SERIES_SECONDS]} />
        <Chart testId="balance-frontBack" title={t('analysis.balance.frontBack')} xLabel="s" yLabel="cm" series={[{ label: 'cm', colour: '#db2777' }]} data={series('frontBack')} xRange={[0, BALANCE_SERIES_SECONDS]} />
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

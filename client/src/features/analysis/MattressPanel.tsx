//! Mattress extras of a static result (spec §2): the total-pressure profile along the 48 columns
//! (0–192 cm) and the height, weight, BMI (1 decimal) and contact-area tiles.

import { useTranslation } from 'react-i18next';
import { Chart } from './Chart';
import type { MattressResult } from './engineResult';
import { formatNumber } from '../../lib/format';
import { formatFixed } from './units';

export function MattressPanel({ mattress }: { mattress: MattressResult }) {
  const { t, i18n } = useTranslation();
  const blank = '—';
  return (
    <section className="result-tile-group" data-testid="mattress-panel">
      <Chart
        testId="mattress-profile"
        title={t('analysis.mattress.profile')}
        xLabel="cm"
        series={[{ label: t('analysis.mattress.totalPressure'), colour: '#c2410c' }]}
        data={[mattress.profile.map((p) => p.positionCm), mattress.profile.map((p) => p.totalPressure)]}
        xRange={[0, mattress.profileLengthCm]}
      />
      <div className="result-tiles">
        <div className="result-tile">
          <span>{t('analysis.mattress.height')}</span>
          <strong data-testid="tile-height">{mattress.heightCm != null ? `${formatNumber(mattress.heightCm, i18n.language)} cm` : blank}</strong>
        </div>
        <div className="result-tile">
          <span>{t('analysis.mattress.weight')}</span>
          <strong data-testid="tile-weight">{mattress.weightKg != null ? `${formatNumber(mattress.weightKg, i18n.language)} kg` : blank}</strong>
        </div>
        <div className="result-tile">
          <span>{t('analysis.mattress.bmi')}</span>
          <strong data-testid="tile-bmi">{mattress.bmi != null ? formatFixed(mattress.bmi, i18n.language, 1) : blank}</strong>
        </div>
        <div className="result-tile">
          <span>{t('analysis.mattress.contactArea')}</span>
          <strong data-testid="tile-contact">{formatNumber(mattress.contactAreaCm2, i18n.language)} cm²</strong>
        </div>
      </div>
    </section>
  );
}

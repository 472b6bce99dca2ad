//! Mattress extras of a static result (spec §2): the total-pressure profile along the 48 columns
//! (0–192 cm) and the height, weight, BMI (1 decimal) and contact-area tiles. The profile is
//! plotted as each column's share of the map's total pressure, in %: the result's column sums
//! are in the sensor's own steps, a number no clinician can read, while "8 % of the body's
//! pressure within these 4 cm" reads the same on every mat (docs/decisions.md).

import { useTranslation } from 'react-i18next';
import { Chart } from './Chart';
import type { MattressResult } from './engineResult';
import { formatNumber } from '../../lib/format';
import { formatFixed } from '../../lib/format';

/** Each value's share of their sum, in % (all 0 when the sum is 0). */
export function sharesOfTotal(values: number[]): number[] {
  const total = values.reduce((sum, v) => sum + v, 0);
  return values.map((v) => (total > 0 ? (100 * v) / total : 0));
}

export function MattressPanel({ mattress }: { mattress: MattressResult }) {
  const { t, i18n } = useTranslation();
  const blank = '—';
  // The columns' spacing, from the result (4 cm on every mattress today).
  const columnCm = mattress.profile.length > 0 ? mattress.profileLengthCm / mattress.profile.length : 0;
  const title = t('analysis.mattress.profile', { cm: formatNumber(columnCm, i18n.language) });
  return (
    <section className="result-tile-group" data-testid="mattress-panel">
      <Chart
        testId="mattress-profile"
        title={title}
        xLabel="cm"
        yLabel="%"
        series={[{ label: '%', colour: '#c2410c' }]}
        data={[mattress.profile.map((p) => p.positionCm), sharesOfTotal(mattress.profile.map((p) => p.totalPressure))]}
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
          <strong data-testid="tile-bmi">{mattress.bmi != null ? `${formatFixed(mattress.bmi, i18n.language, 1)} kg/m²` : blank}</strong>
        </div>
        <div className="result-tile">
          <span>{t('analysis.mattress.contactArea')}</span>
          <strong data-testid="tile-contact">{formatNumber(mattress.contactAreaCm2, i18n.language)} cm²</strong>
        </div>
      </div>
    </section>
  );
}

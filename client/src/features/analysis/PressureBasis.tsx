//! What a static result's pressures are read with (spec §9): the weighed patient's calibration
//! ("70 % of 72 kg on the surface") or the sensor's documented scale. A definition-list row.

import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import type { WeightCalibration } from '../../lib/pressureUnits';

export function PressureBasis({ calibration, fitness }: { calibration: WeightCalibration | null | undefined; fitness: boolean }) {
  const { t, i18n } = useTranslation();
  if (fitness) return null;
  return (
    <>
      <dt>{t('analysis.pressureBasis.label')}</dt>
      <dd data-testid="pressure-basis">
        {calibration
          ? t('analysis.pressureBasis.weight', {
              share: formatNumber(calibration.loadShare * 100, i18n.language, 0),
              weight: formatNumber(calibration.weightKg, i18n.language, 1),
            })
          : t('analysis.pressureBasis.sensor')}
      </dd>
    </>
  );
}

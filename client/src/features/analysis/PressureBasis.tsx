//! What a result's pressures are read with (spec §9): the weighed patient's calibration
//! ("70 % of 72 kg on the surface"), the sensor's documented scale, or the fitness variant's
//! kPa. A definition-list row; the sentence is `lib/pressureBasis.ts`'s.

import { useTranslation } from 'react-i18next';
import { pressureBasisText } from '../../lib/pressureBasis';
import type { PressureDisplay, WeightCalibration } from '../../lib/pressureUnits';

export function PressureBasis({ calibration, display }: { calibration: WeightCalibration | null | undefined; display: PressureDisplay | null }) {
  const { t, i18n } = useTranslation();
  const text = pressureBasisText(t, i18n.language, display, calibration);
  if (text == null) return null;
  return (
    <>
      <dt>{t('analysis.pressureBasis.label')}</dt>
      <dd data-testid="pressure-basis">{text}</dd>
    </>
  );
}

//! Which scale a pressure is read in, as a sentence (issue 22 item 1): the fitness variant's kPa
//! (steps × 0.06), a weighed patient's calibration ("70 % of 72 kg on the surface") or the
//! sensor's documented scale (`mat_protocol::scale`). Every view that shows pressures states it
//! beside them: the live map's colour bar, the device log, every result and the PDF (its own
//! catalogue in `reports/src/i18n.rs`).

import type { TFunction } from 'i18next';
import { formatNumber } from './format';
import type { PressureDisplay, WeightCalibration } from './pressureUnits';

/** The sentence naming the scale of `display` (through `calibration` when a result has one); null until the hub's scale is known. */
export function pressureBasisText(t: TFunction, lng: string, display: PressureDisplay | null, calibration?: WeightCalibration | null): string | null {
  if (!display) return null;
  if (display.fitness) return t('units.fitnessScale');
  if (calibration) {
    return t('analysis.pressureBasis.weight', {
      share: formatNumber(calibration.loadShare * 100, lng, 0),
      weight: formatNumber(calibration.weightKg, lng, 1),
    });
  }
  return t('analysis.pressureBasis.sensor');
}

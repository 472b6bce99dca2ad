import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import EN from '../../public/local/en/translation.json';
import JA from '../../public/local/ja/translation.json';
import { pressureBasisText } from './pressureBasis';
import type { PressureDisplay } from './pressureUnits';

const t = await (async () => {
  const i = i18next.createInstance();
  await i.init({ lng: 'en', fallbackLng: 'en', resources: { en: { translation: EN }, ja: { translation: JA } } });
  return i;
})();

const mmhg: PressureDisplay = { unit: 'mmHg', perStep: 1, decimals: 1, fitness: false, fullScaleSteps: null };
const fitness: PressureDisplay = { unit: 'kPa', perStep: 0.06, decimals: 2, fitness: true, fullScaleSteps: null };

describe('which scale a pressure reads (issue 22 item 1)', () => {
  it('names the sensor scale, a weighed patient or the fitness kPa, and nothing before the hub answers', () => {
    expect(pressureBasisText(t.t, 'en', mmhg)).toBe("Sensor's documented scale");
    expect(pressureBasisText(t.t, 'en', mmhg, { weightKg: 64.5, loadShare: 0.7, cellAreaCm2: 4, kpaPerStep: 0.1 })).toBe(
      "Patient's weight: 70 % of 64.5 kg on the surface",
    );
    // The fitness variant's kPa is its own scale, whatever the calibration.
    expect(pressureBasisText(t.t, 'en', fitness, { weightKg: 64.5, loadShare: 0.7, cellAreaCm2: 4, kpaPerStep: 0.1 })).toBe('kPa (fitness scale)');
    expect(pressureBasisText(t.t, 'en', null)).toBeNull();
    expect(pressureBasisText(t.getFixedT('ja'), 'ja', mmhg)).toBe(JA.analysis.pressureBasis.sensor);
  });
});

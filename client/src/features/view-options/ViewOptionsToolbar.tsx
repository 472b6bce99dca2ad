//! The pressure-view options toolbar (spec §2): contour and 3-D (mutually exclusive), the colour
//! button cycling 13 palettes, smoothing, the threshold slider (0–75, step 5) and the manual scale
//! (50–1000, step 50, empty → 200), the pressure unit (mmHg or kPa; the fitness variant's kPa is
//! fixed). Loads the user's settings on open and saves every change. The threshold and the manual
//! scale are in the sensor's steps (spec §5); beside each, what it is in the user's unit on the
//! shown device ("35 (14.0 mmHg)"): a step is 0.4 mmHg on a bed and 1 kPa on a plate.

import { useAtomValue } from 'jotai';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { companyVariantsAtom } from '../../lib/companyVariants';
import { choosableUnits, effectiveUnit, formatPressure, pressureScaleAtom, usePressureDisplay, type PressureDisplay, type PressureUnit } from '../../lib/pressureUnits';
import { PALETTES, paletteGradient } from '../../lib/heatmap/palettes';
import {
  MANUAL_SCALE_MAX,
  MANUAL_SCALE_MIN,
  MANUAL_SCALE_STEP,
  nextPalette,
  normaliseManualScale,
  normaliseThreshold,
  set3d,
  setContours,
  SMOOTHING_LEVELS,
  THRESHOLD_MAX,
  THRESHOLD_MIN,
  THRESHOLD_STEP,
} from '../../lib/heatmap/viewOptions';
import { useLayoutSettings } from './useLayoutSettings';
import './view-options.css';

interface SwitchProps {
  testId: string;
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}

function Switch({ testId, label, checked, disabled, onChange }: SwitchProps) {
  return (
    <label className="view-switch">
      <input type="checkbox" data-testid={testId} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** A value in the sensor's steps, in the user's unit on the shown device: "(14.0 mmHg)". */
function StepsAsPressure({ steps, display, testId }: { steps: number; display: PressureDisplay | null; testId: string }) {
  const { i18n } = useTranslation();
  if (!display) return null;
  return (
    <span className="muted view-steps-as" data-testid={testId}>
      ({formatPressure(steps, display, i18n.resolvedLanguage ?? i18n.language)})
    </span>
  );
}

/** `deviceType`: the type whose maps are shown (a horse's sides' type), whose steps the threshold
 *  and the manual scale are in. */
export function ViewOptionsToolbar({ deviceType }: { deviceType?: string }) {
  const { t } = useTranslation();
  const display = usePressureDisplay(deviceType);
  const { options, setOptions, state } = useLayoutSettings();
  const id = useId();
  const disabled = state === 'loading';
  // What the user is typing in the manual-scale field, until it is committed (blur or Enter).
  const [scaleDraft, setScaleDraft] = useState<string | null>(null);
  const palette = PALETTES[options.mapColorIndex] ?? PALETTES[0];
  const scale = useAtomValue(pressureScaleAtom);
  const { fitness } = useAtomValue(companyVariantsAtom);

  const commitScale = () => {
    if (scaleDraft === null) return;
    const value = normaliseManualScale(scaleDraft);
    setScaleDraft(null);
    if (value !== options.manualScaleValue) setOptions({ ...options, manualScaleValue: value });
  };
  const onScaleKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commitScale();
  };

  return (
    <section className="view-options" data-testid="view-options" data-state={state} aria-label={t('view.title')}>
      <div className="view-options-group" role="group" aria-label={t('view.mode')}>
        <Switch
          testId="contour-toggle"
          label={t('view.contour')}
          checked={options.contoursEnabled}
          disabled={disabled}
          onChange={(on) => setOptions(setContours(options, on))}
        />
        <Switch
          testId="3d-toggle"
          label={t('view.threeD')}
          checked={options.is3Dmode}
          disabled={disabled}
          onChange={(on) => setOptions(set3d(options, on))}
        />
      </div>

      <button
        type="button"
        className="btn btn-ghost view-palette"
        data-testid="palette-button"
        data-palette={options.mapColorIndex}
        disabled={disabled}
        onClick={() => setOptions(nextPalette(options))}
        title={t('view.nextPalette')}
      >
        <span className="view-swatch" style={{ background: paletteGradient(options.mapColorIndex) }} aria-hidden="true" />
        <span>
          {t('view.colour')}: {t(`view.palette.${palette.id}`)}
        </span>
      </button>

      <label className="view-field" htmlFor={`${id}-smooth`}>
        <span>{t('view.smoothing')}</span>
        <select
          id={`${id}-smooth`}
          data-testid="smoothing"
          value={options.smoothenIndex}
          disabled={disabled}
          onChange={(e) => setOptions({ ...options, smoothenIndex: Number(e.target.value) })}
        >
          {SMOOTHING_LEVELS.map((level, i) => (
            <option key={level} value={i}>
              {t(`view.smooth.${level}`)}
            </option>
          ))}
        </select>
      </label>

      <label className="view-field view-threshold" htmlFor={`${id}-threshold`}>
        <span>{t('view.threshold')}</span>
        <input
          id={`${id}-threshold`}
          type="range"
          data-testid="threshold"
          min={THRESHOLD_MIN}
          max={THRESHOLD_MAX}
          step={THRESHOLD_STEP}
          value={options.thresholdValue}
          disabled={disabled}
          onChange={(e) => setOptions({ ...options, thresholdValue: normaliseThreshold(Number(e.target.value)) })}
        />
        <output data-testid="threshold-value">{options.thresholdValue}</output>
        <StepsAsPressure steps={options.thresholdValue} display={display} testId="threshold-pressure" />
      </label>

      <div className="view-field view-scale">
        <Switch
          testId="manual-scale-toggle"
          label={t('view.manualScale')}
          checked={options.manualScale}
          disabled={disabled}
          onChange={(on) => setOptions({ ...options, manualScale: on })}
        />
        <input
          type="number"
          inputMode="numeric"
          aria-label={t('view.manualScaleValue')}
          data-testid="manual-scale-value"
          min={MANUAL_SCALE_MIN}
          max={MANUAL_SCALE_MAX}
          step={MANUAL_SCALE_STEP}
          value={scaleDraft ?? String(options.manualScaleValue)}
          disabled={disabled || !options.manualScale}
          onChange={(e) => setScaleDraft(e.target.value)}
          onBlur={commitScale}
          onKeyDown={onScaleKey}
        />
        <StepsAsPressure steps={options.manualScaleValue} display={display} testId="manual-scale-pressure" />
      </div>
      {scale ? (
        <label className="view-field" htmlFor={`${id}-unit`}>
          <span>{t('units.pressureUnit')}</span>
          {fitness ? (
            // Spec §1, §6: the fitness variant reads kPa on its own scale; there is nothing to choose.
            <output id={`${id}-unit`} data-testid="pressure-unit-fitness" title={t('units.fitnessScaleHelp')}>
              {t('units.fitnessScale')}
            </output>
          ) : (
            <select
              id={`${id}-unit`}
              data-testid="pressure-unit"
              value={effectiveUnit(scale, options.pressureUnit)}
              disabled={disabled}
              onChange={(e) => setOptions({ ...options, pressureUnit: e.target.value as PressureUnit })}
            >
              {choosableUnits(scale).map((unit) => (
                <option key={unit} value={unit}>
                  {unit}
                </option>
              ))}
            </select>
          )}
        </label>
      ) : null}
      <span className="view-save muted" data-testid="view-save" aria-live="polite">
        {state === 'loading' ? t('view.loading') : state === 'saving' || state === 'pending' ? t('view.saving') : state === 'saved' ? t('view.saved') : ''}
      </span>
    </section>
  );
}

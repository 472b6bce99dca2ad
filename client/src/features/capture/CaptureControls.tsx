//! The capture buttons of a device page (spec §2, §4): static, dynamic (15–60 s), balance (with the
//! foot-balance test), fitting (also 120 s), the fitness variant's 24 h static series and remote
//! activation, as the device type offers them. Static, dynamic, fitting and balance show the
//! tutorial first; its close starts the capture 50 ms later.

import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyVariantsAtom } from '../../lib/companyVariants';
import type { AnalysisFamily } from '../../lib/deviceTypes';
import {
  DYNAMIC_SECONDS,
  FITTING_SECONDS,
  TUTORIAL_START_DELAY_MS,
  type CaptureChoice,
  type CaptureKind,
} from './captureRules';
import { CaptureStatus } from './CaptureStatus';
import { TutorialOverlay, type BalanceTest, type TutorialVariant } from './TutorialOverlay';
import { useCapture } from './useCapture';

interface Pending {
  variant: TutorialVariant;
  choice: CaptureChoice;
}

export function CaptureControls({ deviceId, captures, family }: { deviceId: string; captures: readonly CaptureKind[]; family?: AnalysisFamily | null }) {
  const { t } = useTranslation();
  const { fitness } = useAtomValue(companyVariantsAtom);
  const { state, seriesRunning, start, startSeries } = useCapture(deviceId);
  const [dynamicSeconds, setDynamicSeconds] = useState<number>(DYNAMIC_SECONDS[0]);
  const [fittingSeconds, setFittingSeconds] = useState<number>(FITTING_SECONDS[0]);
  const [tutorial, setTutorial] = useState<Pending | null>(null);
  const startTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(startTimer.current), []);

  if (captures.length === 0) return null;
  const offers = (kind: CaptureKind) => captures.includes(kind);

  const closeTutorial = (test: BalanceTest) => {
    if (!tutorial) return;
    const choice: CaptureChoice = tutorial.choice.kind === 'Balance' && test !== 'bipedal' ? { kind: 'FootBalance', position: test } : tutorial.choice;
    setTutorial(null);
    clearTimeout(startTimer.current);
    startTimer.current = setTimeout(() => start(choice), TUTORIAL_START_DELAY_MS);
  };

  const durationSelect = (id: string, value: number, options: readonly number[], onChange: (v: number) => void) => (
    <select id={id} aria-label={t('capture.duration')} value={value} onChange={(e) => onChange(Number(e.target.value))}>
      {options.map((s) => (
        <option key={s} value={s}>
          {t('capture.seconds', { seconds: s })}
        </option>
      ))}
    </select>
  );

  return (
    <section className="capture-panel card" data-testid="capture-panel" aria-label={t('capture.title')}>
      <h2>{t('capture.title')}</h2>
      <div className="capture-buttons">
        {offers('Static') ? (
          <button type="button" className="btn btn-primary" data-testid="capture-static" onClick={() => setTutorial({ variant: 'static', choice: { kind: 'Static' } })}>
            {t('capture.kinds.Static')}
          </button>
        ) : null}
        {offers('Dynamic') ? (
          <span className="capture-timed">
            <button
              type="button"
              className="btn btn-primary"
              data-testid="capture-dynamic"
              onClick={() => setTutorial({ variant: 'dynamic', choice: { kind: 'Dynamic', seconds: dynamicSeconds } })}
            >
              {t('capture.kinds.Dynamic')}
            </button>
            {durationSelect('capture-dynamic-seconds', dynamicSeconds, DYNAMIC_SECONDS, setDynamicSeconds)}
          </span>
        ) : null}
        {offers('Balance') ? (
          <button type="button" className="btn btn-primary" data-testid="capture-balance" onClick={() => setTutorial({ variant: 'balance', choice: { kind: 'Balance' } })}>
            {t('capture.kinds.Balance')}
          </button>
        ) : null}
        {offers('Fitting') ? (
          <span className="capture-timed">
            <button
              type="button"
              className="btn btn-primary"
              data-testid="capture-fitting"
              onClick={() => setTutorial({ variant: 'fitting', choice: { kind: 'Fitting', seconds: fittingSeconds } })}
            >
              {t('capture.kinds.Fitting')}
            </button>
            {durationSelect('capture-fitting-seconds', fittingSeconds, FITTING_SECONDS, setFittingSeconds)}
          </span>
        ) : null}
        {offers('Series24h') && fitness ? (
          <button type="button" className="btn" data-testid="capture-series" disabled={seriesRunning} onClick={startSeries}>
            {seriesRunning ? t('capture.seriesRunning') : t('capture.kinds.Series24h')}
          </button>
        ) : null}
        {offers('Remote') ? (
          <button type="button" className="btn" data-testid="capture-remote" onClick={() => start({ kind: 'Remote' })}>
            {t('capture.kinds.Remote')}
          </button>
        ) : null}
      </div>
      <CaptureStatus state={state} />
      {tutorial ? <TutorialOverlay variant={tutorial.variant} family={family} onStart={closeTutorial} onCancel={() => setTutorial(null)} /> : null}
    </section>
  );
}

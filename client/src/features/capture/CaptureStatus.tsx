//! What the running capture is doing, with the seconds left while it captures. Its `data-phase`
//! (idle, requested, capturing, processing, ready, failed) is what the browser tours watch.

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hubAnalysisType } from './captureRules';
import type { CaptureState } from './useCapture';

export function CaptureStatus({ state }: { state: CaptureState }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const { phase, choice, loadsAt } = state;

  useEffect(() => {
    if (loadsAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    setNow(Date.now());
    return () => clearInterval(timer);
  }, [loadsAt]);

  const kind = choice ? hubAnalysisType(choice) : '';
  const left = loadsAt === null ? 0 : Math.max(0, Math.ceil((loadsAt - now) / 1000));
  const kindLabel = choice ? t(`capture.kinds.${choice.kind}`) : '';
  return (
    <div className={`capture-status capture-${phase}`} data-testid="capture-status" data-phase={phase} data-kind={kind} role="status">
      {phase === 'idle' ? (
        <span className="muted">{t('capture.status.idle')}</span>
      ) : phase === 'capturing' ? (
        <span>{t('capture.status.capturing', { kind: kindLabel, seconds: left })}</span>
      ) : (
        <span>{t(`capture.status.${phase}`, { kind: kindLabel })}</span>
      )}
    </div>
  );
}

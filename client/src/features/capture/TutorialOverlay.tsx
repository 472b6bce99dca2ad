//! The tutorial overlay shown before a capture (spec §4): how to position the patient for a static,
//! dynamic, fitting or balance analysis on this device's family (a seat, a bed, a rehab mat, a
//! saddle or a plate: `tutorialKeys`); the balance tutorial also offers the foot-balance test
//! positions.
//! Its close ("Start capture") hands the chosen test back; the caller starts it 50 ms later.

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import type { AnalysisFamily } from '../../lib/deviceTypes';
import { FOOT_BALANCE_POSITIONS, type FootBalancePosition } from './captureRules';
import { tutorialPrefix, type TutorialVariant } from './tutorialKeys';

export type { TutorialVariant } from './tutorialKeys';
/** The balance tutorial's choice: the bipedal balance test or a foot-balance position. */
export type BalanceTest = 'bipedal' | FootBalancePosition;

const STEPS = ['step1', 'step2', 'step3'] as const;

export function TutorialOverlay({
  variant,
  family,
  onStart,
  onCancel,
}: {
  variant: TutorialVariant;
  /** The device type's analysis family (`GET /api/deviceTypes`). */
  family?: AnalysisFamily | null;
  onStart: (test: BalanceTest) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [test, setTest] = useState<BalanceTest>('bipedal');
  const prefix = tutorialPrefix(family, variant);
  return (
    <Modal
      title={t(`${prefix}.title`)}
      onClose={onCancel}
      testId="capture-tutorial"
      className="tutorial"
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            {t('patients.cancel')}
          </button>
          <button type="button" className="btn btn-primary" data-testid="tutorial-start" onClick={() => onStart(test)}>
            {t('capture.tutorial.start')}
          </button>
        </>
      }
    >
      <ol className="tutorial-steps" data-variant={variant} data-family={family ?? 'podology'}>
        {STEPS.map((step) => (
          <li key={step}>{t(`${prefix}.${step}`)}</li>
        ))}
      </ol>
      {variant === 'balance' ? (
        <fieldset className="tutorial-positions">
          <legend>{t('capture.tutorial.balance.choose')}</legend>
          {(['bipedal', ...FOOT_BALANCE_POSITIONS] as const).map((p) => (
            <label key={p} className={`tutorial-position ${test === p ? 'chosen' : ''}`}>
              <input type="radio" name="balance-test" value={p} checked={test === p} onChange={() => setTest(p)} />
              <span>
                <strong>{t(`capture.positions.${p}.name`)}</strong>
                <span className="muted">{t(`capture.positions.${p}.hint`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <p className="muted tutorial-note">{t('capture.tutorial.note')}</p>
    </Modal>
  );
}

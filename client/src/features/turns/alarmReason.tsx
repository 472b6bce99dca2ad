//! An Ulcer Risk alarm's reason as a nurse reads it (issue 23): which part of the body was loaded
//! how long without the relief the rule asks for, against the interval. One formatter for the
//! banner, the card, the alarm history and the ward board.

import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import type { AlarmReason } from '../../lib/pendingAlarms';
import './turns.css';

/** The reason as one sentence; `duration` formats seconds in the interface language. */
export function alarmReasonText(t: TFunction, duration: (seconds: number) => string, reason: AlarmReason): string {
  return t('turns.reason.text', {
    region: t(`turns.reason.regions.${reason.region}`),
    loaded: duration(reason.loadedSeconds),
    offload: duration(reason.offloadSeconds),
    interval: duration(reason.intervalSeconds),
  });
}

/** The reason of an alarm, or nothing when it has none (Missing, or an alarm from before). */
export function AlarmReasonText({ reason, className }: { reason: AlarmReason | null | undefined; className?: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  if (!reason) return null;
  return (
    <span className={className ?? 'alarm-reason'} data-testid="alarm-reason" data-region={reason.region}>
      {alarmReasonText(t, fmt.duration, reason)}
    </span>
  );
}

//! What the hospital's alarm manager reported of an alarm (IHE PCD-05), as one line: the status,
//! who (the nurse the manager names) and when, in the user's language. The card, the alarm
//! banner and the alarm history show it alike.

import { useTranslation } from 'react-i18next';
import { useFormat } from '../lib/format';

export interface ManagerStatusValue {
  status: string;
  who?: string | null;
  atMs: number;
}

export function ManagerStatusText({ status, testId }: { status: ManagerStatusValue; testId?: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const name = t(`alarmManager.statuses.${status.status}`, { defaultValue: status.status });
  const time = fmt.dateTime(status.atMs);
  return (
    <span className="manager-status" data-testid={testId} data-status={status.status}>
      {status.who ? t('alarmManager.statusBy', { status: name, who: status.who, time }) : t('alarmManager.statusAt', { status: name, time })}
    </span>
  );
}

//! The administrators' calls about the company's alarm manager (docs/interfaces.md). All need
//! role 1; the hub answers 403 `forbidden` otherwise.

import type { AlarmManagerInput, AlarmManagerJson, DeadLetterJson } from '../../api/types';
import { apiFetch } from '../../lib/api';

export type { AlarmManagerInput, AlarmManagerJson, DeadLetterJson };

/** The alarm kinds that can go out, in the hub's spelling (its `mat_api::alarm_manager::ALARM_KINDS`). */
export const ALARM_KINDS = ['Missing', 'Ulcer Risk'] as const;

export const getAlarmManager = () => apiFetch<AlarmManagerJson>('/api/alarmManager');

export const putAlarmManager = (input: AlarmManagerInput) =>
  apiFetch<AlarmManagerJson>('/api/alarmManager', { method: 'PUT', body: JSON.stringify(input) });

export const getDeadLetters = () => apiFetch<DeadLetterJson[]>('/api/alarmManager/deadLetters');

export const resendDeadLetter = (controlId: string) =>
  apiFetch<void>(`/api/alarmManager/deadLetters/${encodeURIComponent(controlId)}/resend`, { method: 'POST' });

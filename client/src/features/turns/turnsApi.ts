//! The turn log over REST: `POST /api/device/{id}/turns` records a turn (when, new position; the
//! signed-in user is who), `GET` lists them newest first.

import { apiFetch } from '../../lib/api';
import type { components } from '../../api/schema';

export type TurnEntry = components['schemas']['TurnJson'];
export type TurnRecorded = components['schemas']['TurnRecordedJson'];
/** The positions a patient is turned to, as the hub names them (`mat_api::turn::TURN_POSITIONS`). */
export const TURN_POSITIONS = ['Supine', 'Left Lateral', 'Right Lateral', 'Prone', 'Seated'] as const;
export type TurnPosition = (typeof TURN_POSITIONS)[number];

const seg = encodeURIComponent;

export const recordTurn = (deviceId: string, position: TurnPosition, atMs: number | null): Promise<TurnRecorded> =>
  apiFetch(`/api/device/${seg(deviceId)}/turns`, { method: 'POST', body: JSON.stringify({ position, atMs }) });

export const getTurns = (deviceId: string): Promise<TurnEntry[]> => apiFetch(`/api/device/${seg(deviceId)}/turns`);

/** How many turns fall within `windowMs` before `now`. */
export function turnsWithin(turns: readonly TurnEntry[], now: number, windowMs: number): number {
  return turns.filter((turn) => turn.atMs <= now && turn.atMs > now - windowMs).length;
}

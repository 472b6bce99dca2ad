//! A room set's members: its `system.devices`, in bed, seat, floor order (the hub's registration
//! creates them so). Read by the room set's page and the ward board.

import { oidOf, type CardStatus } from './api';
import type { DeviceView } from './devicesStore';

export const ROOM_ROLES = ['bed', 'seat', 'floor'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

export function roomMembers(members: Array<string | { $oid: string }> | undefined): Array<{ role: RoomRole; id: string }> {
  const ids = (members ?? []).map((m) => oidOf(m)).filter((m): m is string => m !== null);
  return ROOM_ROLES.flatMap((role, i) => (ids[i] ? [{ role, id: ids[i] }] : []));
}

/** A sensor of the set as its card shows it: offline, an alarm only while one of it waits, else
 * Correct. The spec's Force Mat card rule (Alarm when the first two readings are zero) is for a
 * Force Mat's own card: in a room set it would call an empty bed an alarm while the patient sits
 * in the chair, beside a header saying Correct and an alarm history without alarms (issue 23;
 * docs/decisions.md). Where the patient is, the presence line says. */
export function memberStatus(view: Pick<DeviceView, 'functional' | 'unattendedAlarm' | 'cardStatus'>): CardStatus {
  if (!view.functional || view.cardStatus === 'Offline') return 'Offline';
  return view.unattendedAlarm ? 'Alarm' : 'Correct';
}

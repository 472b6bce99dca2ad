//! A room set's members: its `system.devices`, in bed, seat, floor order (the hub's registration
//! creates them so). Read by the room set's page and the ward board.

import { oidOf } from './api';

export const ROOM_ROLES = ['bed', 'seat', 'floor'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

export function roomMembers(members: Array<string | { $oid: string }> | undefined): Array<{ role: RoomRole; id: string }> {
  const ids = (members ?? []).map((m) => oidOf(m)).filter((m): m is string => m !== null);
  return ROOM_ROLES.flatMap((role, i) => (ids[i] ? [{ role, id: ids[i] }] : []));
}

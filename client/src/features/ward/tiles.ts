//! A ward tile's facts, gathered from the one owner of each: the device record and status
//! (`lib/devicesStore`), the waiting alarms (`lib/pendingAlarms`), the device-type table (what a
//! type shows) and the board's clock readings. Pure.

import type { CardStatus, RepositioningTier, UserDevice } from '../../lib/api';
import type { DeviceTypeTable } from '../../lib/deviceTypes';
import { typeInfo } from '../../lib/deviceTypes';
import type { DeviceView } from '../../lib/devicesStore';
import type { PendingAlarm } from '../../lib/pendingAlarms';
import { memberStatus, roomMembers, type RoomRole } from '../../lib/roomSet';
import type { ClockReading } from './useWardClocks';
import { unitOf } from './unit';
import { patientLabel, type OrderedTile } from './urgency';

export interface WardTileModel extends OrderedTile {
  name: string;
  deviceType: string;
  unit: string;
  patient: string | null;
  /** The device whose live map the tile draws (a bed or seat itself); null for a room set, whose
   * members are listed instead. */
  mapDeviceId: string | null;
  /** A room set's members with their role (bed, seat, floor). */
  members: Array<{ id: string; role: RoomRole | null; cardStatus: CardStatus }>;
  hasClock: boolean;
  readAtMs: number;
  posture: string | null;
  postureConfidence: number | null;
  /** Whether the hub is certain of the posture (its confidence reaches the classifier's threshold);
   * `false` is shown as uncertain. */
  postureCertain: boolean | null;
  /** Seconds the bed or seat had been empty at `readAtMs` while its load episode lives on (the
   * patient is up; the countdown runs on); null otherwise, and for a room set. */
  unloadedForSeconds: number | null;
  /** How long it must stay empty for the episode to end, seconds. */
  offloadSeconds: number;
}

/** Whether a device is on the ward board: a bed, seat or room set (a type with its own bedside
 * patient, the type table's `bedsidePatient`) that is not a member of another device. */
export function onWardBoard(device: Pick<UserDevice, 'deviceType' | 'parent'> | null, table: DeviceTypeTable | null): boolean {
  if (!device) return false;
  const info = typeInfo(table, device.deviceType);
  return Boolean(info?.bedsidePatient && info.card) && !device.parent;
}

/** A tile's big label: room and bed ("101 · A"), as a ward names a bed; the bed, room or device
 * name alone when the others are not set. */
export function tileLabel(room: string, bed: string, name: string): string {
  const parts = [room.trim(), bed.trim()].filter(Boolean);
  return parts.length ? parts.join(' · ') : name;
}

/** The clock reading shown for a tile: its own, or for a room set its members' most pressing. */
function clockFor(view: DeviceView, clocks: ReadonlyMap<string, ClockReading>): ClockReading | null {
  const own = clocks.get(view.id);
  if (own) return own;
  const members = view.device?.system?.devices ?? [];
  let best: ClockReading | null = null;
  for (const m of members) {
    const c = clocks.get(m);
    if (!c) continue;
    if (!best || (c.clock.dueInSeconds ?? Infinity) < (best.clock.dueInSeconds ?? Infinity)) best = c;
  }
  return best;
}

export function tileModel(
  view: DeviceView,
  members: DeviceView[],
  pending: readonly PendingAlarm[],
  clocks: ReadonlyMap<string, ClockReading>,
  table: DeviceTypeTable | null,
  initials: boolean,
): WardTileModel {
  const info = typeInfo(table, view.deviceType);
  const ids = new Set([view.id, ...members.map((m) => m.id)]);
  // The alarm that has waited longest, Missing first.
  const alarm =
    pending
      .filter((a) => ids.has(a.deviceId))
      .sort((a, b) => Number(a.kind !== 'Missing') - Number(b.kind !== 'Missing') || a.raisedAtMs - b.raisedAtMs)[0] ?? null;
  const reading = clockFor(view, clocks);
  const roles = new Map(roomMembers(view.device?.system?.devices).map((m) => [m.id, m.role]));
  const hasClock = Boolean(info?.repositioningClock) || members.some((m) => typeInfo(table, m.deviceType)?.repositioningClock);
  return {
    id: view.id,
    label: tileLabel(view.device?.room ?? '', view.bed, view.name),
    name: view.name,
    deviceType: view.deviceType,
    unit: view.device ? unitOf(view.device) : '',
    patient: patientLabel(view.device?.currentPatientName, initials),
    mapDeviceId: info?.frame ? view.id : null,
    members: members.map((m) => ({ id: m.id, role: roles.get(m.id) ?? null, cardStatus: memberStatus(m) })),
    cardStatus: view.cardStatus,
    tier: hasClock ? (view.repositioning as RepositioningTier) : null,
    alarm: alarm ? { kind: alarm.kind, raisedAtMs: alarm.raisedAtMs } : null,
    hasClock,
    dueInSeconds: reading?.clock.dueInSeconds ?? null,
    readAtMs: reading?.readAtMs ?? 0,
    posture: reading?.clock.posture ?? null,
    postureConfidence: reading?.clock.postureConfidence ?? null,
    postureCertain: reading?.clock.postureCertain ?? null,
    // A room set's reading is one member's: "empty" would not say which, and its members show.
    unloadedForSeconds: info?.frame ? (reading?.clock.unloadedForSeconds ?? null) : null,
    offloadSeconds: reading?.clock.offloadSeconds ?? 0,
  };
}

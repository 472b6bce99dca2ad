//! The company's unattended alarms as the banner lists them (issue 23: an alarm stays on every
//! screen until someone attends it). Filled from the socket (`alarmOn` adds, `alarmAttended` and a
//! `deviceConf` without `unattendedAlarm` remove) and, for a session that joins while an alarm
//! already waits, from the device's alarm log over REST. Also keeps, per device, who attended its
//! latest alarm and when, for the card. Plain functions over the jotai store: no React here.

import { atom } from 'jotai';
import type { AlarmEntry } from './api';
import type { AppStore } from './devicesStore';
import { family } from './family';

export type AlarmKindName = 'Missing' | 'Ulcer Risk';

/** Why an Ulcer Risk alarm was raised (the hub's `AlarmReason`): the part of the body loaded
 * longest, for how long, and the rule's offloading and interval, in seconds. */
export interface AlarmReason {
  region: 'head' | 'shoulders' | 'back' | 'pelvis' | 'thighs' | 'heels';
  loadedSeconds: number;
  offloadSeconds: number;
  intervalSeconds: number;
}

const REGIONS = ['head', 'shoulders', 'back', 'pelvis', 'thighs', 'heels'];

/** A reason as the hub sent it, or null when it is none. */
export function reasonOf(value: unknown): AlarmReason | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  const seconds = [r.loadedSeconds, r.offloadSeconds, r.intervalSeconds];
  if (typeof r.region !== 'string' || !REGIONS.includes(r.region) || !seconds.every((s) => typeof s === 'number' && Number.isFinite(s))) return null;
  return { region: r.region as AlarmReason['region'], loadedSeconds: r.loadedSeconds as number, offloadSeconds: r.offloadSeconds as number, intervalSeconds: r.intervalSeconds as number };
}

export interface PendingAlarm {
  /** `{deviceId}-{alarmNumber}`, the alarm log's id. */
  key: string;
  deviceId: string;
  kind: AlarmKindName;
  raisedAtMs: number;
  /** Why (Ulcer Risk alarms). */
  reason?: AlarmReason | null;
}

export interface Attendance {
  atMs: number;
  /** The e-mail of the account that attended; null until the alarm log has been read. */
  by: string | null;
}

/** What the hospital's alarm manager last reported of a device's latest alarm (IHE PCD-05). */
export interface ManagerStatus {
  /** The alarm's key, `{deviceId}-{alarmNumber}`. */
  alarm: string;
  /** delivered, read, accepted, rejected, escalated, cancelled or undeliverable. */
  status: string;
  who: string | null;
  atMs: number;
}

/** The unattended alarms, in the order they arrived. */
export const pendingAlarmsAtom = atom<PendingAlarm[]>([]);

/** Who attended a device's latest alarm, and when. */
export const attendanceFamily = family((_id: string) => atom<Attendance | null>(null));

/** The manager's latest status of each device's latest alarm. */
export const managerStatusFamily = family((_id: string) => atom<ManagerStatus | null>(null));

export const alarmKey = (deviceId: string, alarmId: number | string): string => `${deviceId}-${String(alarmId)}`;

const isKind = (k: unknown): k is AlarmKindName => k === 'Missing' || k === 'Ulcer Risk';

/** Adds an alarm unless it is listed already; false for an invalid one. */
export function addPendingAlarm(store: AppStore, alarm: PendingAlarm): boolean {
  if (!alarm.deviceId || !isKind(alarm.kind) || !Number.isFinite(alarm.raisedAtMs)) return false;
  const list = store.get(pendingAlarmsAtom);
  if (list.some((a) => a.key === alarm.key)) return false;
  store.set(pendingAlarmsAtom, [...list, alarm]);
  store.set(attendanceFamily(alarm.deviceId), null);
  const status = store.get(managerStatusFamily(alarm.deviceId));
  if (status && status.alarm !== alarm.key) store.set(managerStatusFamily(alarm.deviceId), null);
  return true;
}

/** The `alarmOn` event's data as a pending alarm, or null when it is not one. */
export function pendingFromAlarmOn(data: {
  deviceId?: unknown;
  alarmId?: unknown;
  kind?: unknown;
  raisedAtMs?: unknown;
  reason?: unknown;
}): PendingAlarm | null {
  if (typeof data.deviceId !== 'string' || !isKind(data.kind) || typeof data.raisedAtMs !== 'number') return null;
  if (typeof data.alarmId !== 'number' && typeof data.alarmId !== 'string') return null;
  return {
    key: alarmKey(data.deviceId, data.alarmId),
    deviceId: data.deviceId,
    kind: data.kind,
    raisedAtMs: data.raisedAtMs,
    reason: reasonOf(data.reason),
  };
}

/** The unattended entries of a device's alarm log (`creationDate` in Unix seconds). */
export function pendingFromLog(entries: AlarmEntry[]): PendingAlarm[] {
  return entries
    .filter((e) => !e.hasBeenAttended && isKind(e.kind))
    .map((e) => ({
      key: e._id.$oid,
      deviceId: e.deviceId,
      kind: e.kind as AlarmKindName,
      raisedAtMs: e.creationDate * 1000,
      reason: reasonOf(e.reason),
    }));
}

/** An alarm was attended (`alarmAttended`): off the banner, and the card learns when. */
export function attendPendingAlarm(store: AppStore, deviceId: string, alarmId: number | string, atMs: number): void {
  const key = alarmKey(deviceId, alarmId);
  store.set(pendingAlarmsAtom, (list) => list.filter((a) => a.key !== key));
  store.set(attendanceFamily(deviceId), { atMs, by: null });
}

/** The device has no unattended alarm any more (its status says so): every one of it goes. */
export function clearDeviceAlarms(store: AppStore, deviceId: string): void {
  const list = store.get(pendingAlarmsAtom);
  if (list.some((a) => a.deviceId === deviceId)) store.set(pendingAlarmsAtom, list.filter((a) => a.deviceId !== deviceId));
}

/** The attendance of the device's newest attended alarm in its log, if it is the one we know of. */
export function attendanceFromLog(entries: AlarmEntry[], deviceId: string): Attendance | null {
  const attended = entries
    .filter((e) => e.deviceId === deviceId && e.hasBeenAttended && e.attendedTime != null)
    .sort((a, b) => (b.attendedTime ?? 0) - (a.attendedTime ?? 0))[0];
  return attended ? { atMs: (attended.attendedTime ?? 0) * 1000, by: attended.attendedBy ?? null } : null;
}

/** Banner order: Missing before Ulcer Risk (a patient out of bed may have fallen), then oldest
 * first (longest waiting). */
export function bannerOrder(list: readonly PendingAlarm[]): PendingAlarm[] {
  const rank = (a: PendingAlarm) => (a.kind === 'Missing' ? 0 : 1);
  return [...list].sort((a, b) => rank(a) - rank(b) || a.raisedAtMs - b.raisedAtMs);
}

/** The `alarmStatus` event's data as a status, or null when it is not one. */
export function managerStatusFromEvent(data: { deviceId?: unknown; alarm?: unknown; status?: unknown; who?: unknown; atMs?: unknown }): {
  deviceId: string;
  status: ManagerStatus;
} | null {
  if (typeof data.deviceId !== 'string' || typeof data.alarm !== 'string' || typeof data.status !== 'string' || typeof data.atMs !== 'number') return null;
  return { deviceId: data.deviceId, status: { alarm: data.alarm, status: data.status, who: typeof data.who === 'string' ? data.who : null, atMs: data.atMs } };
}

/** A status reported now: kept unless it is about an older alarm than the one the card shows. */
export function applyManagerStatus(store: AppStore, deviceId: string, status: ManagerStatus): void {
  const known = store.get(managerStatusFamily(deviceId));
  const pending = store.get(pendingAlarmsAtom).filter((a) => a.deviceId === deviceId);
  if (pending.length && !pending.some((a) => a.key === status.alarm)) return;
  if (known && known.alarm === status.alarm && known.atMs > status.atMs) return;
  store.set(managerStatusFamily(deviceId), status);
}

/** The latest status of the device's newest alarm in its log that has one. */
export function managerStatusFromLog(entries: AlarmEntry[], deviceId: string): ManagerStatus | null {
  const newest = entries
    .filter((e) => e.deviceId === deviceId && e.managerStatuses.length > 0)
    .sort((a, b) => b.creationDate - a.creationDate)[0];
  if (!newest) return null;
  const last = [...newest.managerStatuses].sort((a, b) => a.atMs - b.atMs)[newest.managerStatuses.length - 1];
  return { alarm: newest._id.$oid, status: last.status, who: last.who ?? null, atMs: last.atMs };
}

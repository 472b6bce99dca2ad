//! Alarms in the browser (spec §4, §8): each `alarmOn` from the hub raises the error toast once,
//! with the device name in upper case, on every screen. A session that joins later learns of a
//! pending alarm from `deviceConf.unattendedAlarm` (the card), not from a replayed toast.

import { attendAlarms } from './api';
import type { AppStore } from './devicesStore';
import { showToast, TOASTS } from './messages';

/** How long the alarm toast stays (spec §9: toasts last 1500 or 2500 ms). */
export const ALARM_TOAST_MS = TOASTS.alarmOn.durationMs;

export interface AlarmOnData {
  deviceId?: unknown;
  name?: unknown;
  alarmId?: unknown;
  kind?: unknown;
}

const shown = new WeakMap<AppStore, Set<string>>();

/** Shows the `alarmOn` toast for a new alarm; a repeated event for the same alarm shows nothing. */
export function handleAlarmOn(store: AppStore, data: AlarmOnData): boolean {
  if (typeof data.deviceId !== 'string' || typeof data.name !== 'string') {
    console.error('invalid alarmOn', data);
    return false;
  }
  const key = `${data.deviceId}/${String(data.alarmId ?? '')}`;
  let seen = shown.get(store);
  if (!seen) {
    seen = new Set();
    shown.set(store, seen);
  }
  if (seen.has(key)) return false;
  seen.add(key);
  showToast(store, 'alarmOn', { device: data.name.toUpperCase() });
  return true;
}

/** Time to attend (spec §9): days, hours, minutes and seconds, largest unit first. */
export function splitDuration(ms: number): { days: number; hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.floor(ms / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/** Attends every pending alarm of a device (and its sub-devices) through the hub, then shows
 * `attendedSuccesfully` prefixed with the device kind, or `failedToBeAttended`. */
export async function attendDevice(store: AppStore, deviceId: string, kindLabel: string): Promise<boolean> {
  try {
    await attendAlarms(deviceId);
    showToast(store, 'attendedSuccesfully', { kind: kindLabel });
    return true;
  } catch (err) {
    console.error('attending failed', err);
    showToast(store, 'failedToBeAttended');
    return false;
  }
}

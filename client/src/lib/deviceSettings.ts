//! A device's name, room and bed (docs/api.md: PUT /api/device/{id}); spec §5: all three non-empty,
//! else deviceParameters.

import type { DeviceSettingsInput } from '../api/types';
import { apiFetch, type UserDevice } from './api';
import { deviceInfoFamily, type AppStore } from './devicesStore';

/** Name, room and bed, as `PUT /api/device/{id}` takes them. */
export type DeviceSettings = DeviceSettingsInput;

export const settingsOf = (d: Partial<UserDevice>): DeviceSettings => ({ name: d.name ?? '', room: d.room ?? '', bed: d.bed ?? '' });

export function deviceSettingsError(s: DeviceSettings): 'deviceParameters' | null {
  return s.name.trim() === '' || s.room.trim() === '' || s.bed.trim() === '' ? 'deviceParameters' : null;
}

const trimmed = (s: DeviceSettings): DeviceSettings => ({ name: s.name.trim(), room: s.room.trim(), bed: s.bed.trim() });

/** Saves and puts the answer in the device's atom, so its card shows it at once. */
export async function saveDeviceSettings(store: AppStore, deviceId: string, s: DeviceSettings): Promise<UserDevice> {
  const saved = await apiFetch<UserDevice>(`/api/device/${encodeURIComponent(deviceId)}`, { method: 'PUT', body: JSON.stringify(trimmed(s)) });
  const previous = store.get(deviceInfoFamily(deviceId));
  const merged = { ...(previous ?? {}), ...trimmed(s), ...(saved && typeof saved === 'object' ? saved : {}) } as UserDevice;
  store.set(deviceInfoFamily(deviceId), merged);
  return merged;
}

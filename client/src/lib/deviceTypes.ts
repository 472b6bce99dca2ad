//! The device-type table, owned by the hub (`GET /api/deviceTypes`, built from
//! `actors/src/machine/device_type.rs`): routes, page families, frame shapes and capabilities.
//! Fetched once per signed-in session into {@link deviceTypesAtom}; the client keeps no device-type
//! facts of its own (a test checks the source for type names).

import { atom, useAtomValue } from 'jotai';
import { apiFetch } from './api';
import type { AppStore } from './devicesStore';

export type { AnalysisFamily, CaptureOffer, DeviceTypeInfo, PageFamily } from '../api/types';
import type { DeviceTypeInfo } from '../api/types';

export type DeviceTypeTable = Readonly<Record<string, DeviceTypeInfo>>;

/** The table, or null until it has loaded (or after logout). */
export const deviceTypesAtom = atom<DeviceTypeTable | null>(null);
/** Set when loading the table failed, so screens can say so instead of waiting forever. */
export const deviceTypesErrorAtom = atom<boolean>(false);

export function tableFromList(list: DeviceTypeInfo[]): DeviceTypeTable {
  return Object.fromEntries(list.map((t) => [t.name, t]));
}

/** GET /api/deviceTypes into the atom; retried with backoff while it fails. */
export async function loadDeviceTypes(store: AppStore, isCancelled: () => boolean = () => false): Promise<void> {
  for (let attempt = 0; !isCancelled(); attempt++) {
    try {
      const list = await apiFetch<DeviceTypeInfo[]>('/api/deviceTypes');
      if (isCancelled()) return;
      store.set(deviceTypesAtom, tableFromList(list));
      store.set(deviceTypesErrorAtom, false);
      return;
    } catch (err) {
      console.error('deviceTypes failed', err);
      if (isCancelled()) return;
      store.set(deviceTypesErrorAtom, true);
      if ((err as { status?: number }).status === 401) return;
      await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** attempt)));
    }
  }
}

/** Info of a type; `undefined` when the hub does not know it. */
export function typeInfo(table: DeviceTypeTable | null, deviceType: string | undefined): DeviceTypeInfo | undefined {
  if (!table || !deviceType || !Object.prototype.hasOwnProperty.call(table, deviceType)) return undefined;
  return table[deviceType];
}

export function useDeviceType(deviceType: string | undefined): DeviceTypeInfo | undefined {
  return typeInfo(useAtomValue(deviceTypesAtom), deviceType);
}

/** Every page route of the table (device pages and analysis pages), each once. */
export function pageRoutes(table: DeviceTypeTable): string[] {
  const routes = new Set<string>();
  for (const t of Object.values(table)) {
    if (t.route) routes.add(t.route);
  }
  return [...routes];
}

export function analysisRoutes(table: DeviceTypeTable): string[] {
  return [...new Set(Object.values(table).flatMap((t) => (t.analysisRoute ? [t.analysisRoute] : [])))];
}

/** The device-settings routes (spec §2: /deviceSettings, /roomSettings). */
export function settingsRoutes(table: DeviceTypeTable): string[] {
  return [...new Set(Object.values(table).map((info) => info.settingsRoute))];
}

/** Spec §2: the heat map shows only while the page scroll is under 950 px, except on seating pages. */
export function hidesMapBelowScroll(info: DeviceTypeInfo | undefined): boolean {
  return info ? info.pageFamily !== 'seating' && info.pageFamily !== 'seatedPosition' : false;
}

//! A ward unit is derived from the devices' own building and floor (docs/decisions.md, "Ward
//! board"): no field of its own, so the device's settings stay the one owner of where it is. The
//! unit's key is also its URL segment (`/ward/{unit}`) and its label: "building · floor".

import type { UserDevice } from '../../lib/api';

export const UNIT_SEPARATOR = ' · ';

/** The unit a device belongs to; '' when neither its building nor its floor is set. */
export function unitOf(device: Pick<UserDevice, 'building' | 'floor'>): string {
  const building = (device.building ?? '').trim();
  const floor = (device.floor ?? '').trim();
  if (!building && !floor) return '';
  return `${building}${UNIT_SEPARATOR}${floor}`;
}

/** The building and floor of a unit's key (the inverse of {@link unitOf}). */
export function unitFromKey(key: string): { building: string; floor: string } {
  const at = key.indexOf(UNIT_SEPARATOR);
  return at < 0 ? { building: key, floor: '' } : { building: key.slice(0, at), floor: key.slice(at + UNIT_SEPARATOR.length) };
}

export interface UnitSummary {
  key: string;
  building: string;
  floor: string;
  tiles: number;
}

/** The units of these devices, each with its number of tiles, ordered by building then floor
 * (numeric floors in number order); devices with no unit come last under ''. */
export function listUnits(devices: ReadonlyArray<Pick<UserDevice, 'building' | 'floor'>>): UnitSummary[] {
  const byKey = new Map<string, UnitSummary>();
  for (const d of devices) {
    const key = unitOf(d);
    const unit = byKey.get(key) ?? { key, building: (d.building ?? '').trim(), floor: (d.floor ?? '').trim(), tiles: 0 };
    unit.tiles++;
    byKey.set(key, unit);
  }
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [...byKey.values()].sort(
    (a, b) => Number(a.key === '') - Number(b.key === '') || collator.compare(a.building, b.building) || collator.compare(a.floor, b.floor),
  );
}

/** The path of a unit's board. */
export const unitPath = (key: string): string => (key === '' ? '/ward' : `/ward/${encodeURIComponent(key)}`);

//! The user's view options on the hub: `GET` / `PUT /api/LayoutSettings/{userId}` (docs/api.md).
//! GET answers the defaults until the first save; a save creates the record the first time (201)
//! and updates it later (200). The hub forces `is3Dmode` false on every save, so 3-D is never
//! restored on load; it also re-applies the manual-scale rule.

import type { PressureUnit } from '../../api/types';
import { apiFetch } from '../../lib/api';
import { DEFAULT_VIEW_OPTIONS, sanitiseViewOptions, type CameraPosition, type Point3, type ViewOptions } from '../../lib/heatmap/viewOptions';
import { STORAGE } from '../../lib/storageKeys';

/** The layout settings as the hub sends and takes them (spec §3 names): the view options, with
 * an empty manual scale allowed (the hub resets it to 200). */
export type LayoutSettingsDto = Omit<ViewOptions, 'manualScaleValue' | 'pressureUnit'> & {
  manualScaleValue: number | null;
  /** Left out when the user never chose (the hub takes its default; it refuses null). */
  pressureUnit?: PressureUnit | null;
};

const num = (v: unknown, dflt: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);
const point = (v: unknown, dflt: Point3): Point3 => {
  const p = (v ?? {}) as Partial<Point3>;
  return { x: num(p.x, dflt.x), y: num(p.y, dflt.y), z: num(p.z, dflt.z) };
};

/** Reads the hub's answer; missing or malformed fields take their defaults. */
export function fromLayoutDto(dto: Partial<LayoutSettingsDto> | null | undefined): ViewOptions {
  const d = DEFAULT_VIEW_OPTIONS;
  const v = dto ?? {};
  const cam = (v.cameraPosition ?? {}) as Partial<CameraPosition>;
  return sanitiseViewOptions({
    mapColorIndex: num(v.mapColorIndex, d.mapColorIndex),
    smoothenIndex: num(v.smoothenIndex, d.smoothenIndex),
    thresholdValue: num(v.thresholdValue, d.thresholdValue),
    contoursEnabled: v.contoursEnabled === true,
    is3Dmode: v.is3Dmode === true,
    cameraPosition: {
      up: point(cam.up, d.cameraPosition.up),
      center: point(cam.center, d.cameraPosition.center),
      eye: point(cam.eye, d.cameraPosition.eye),
    },
    manualScale: v.manualScale === true,
    manualScaleValue: num(v.manualScaleValue, d.manualScaleValue),
    // The hub checks the unit; the display falls back to the hub's default for one it no longer offers.
    pressureUnit: typeof v.pressureUnit === 'string' ? v.pressureUnit : d.pressureUnit,
  });
}

/** The signed-in user's id (stored at login). */
export const currentUserId = (): string | null => localStorage.getItem(STORAGE.userId);

const path = (userId: string) => `/api/LayoutSettings/${encodeURIComponent(userId)}`;

export async function loadLayoutSettings(userId: string): Promise<ViewOptions> {
  return fromLayoutDto(await apiFetch<Partial<LayoutSettingsDto>>(path(userId)));
}

export async function saveLayoutSettings(userId: string, o: ViewOptions): Promise<void> {
  // keepalive: a save sent as the page unloads (reload, closing the tab) still reaches the hub.
  const dto: LayoutSettingsDto = { ...o, pressureUnit: o.pressureUnit ?? undefined };
  await apiFetch<LayoutSettingsDto>(path(userId), { method: 'PUT', body: JSON.stringify(dto), keepalive: true });
}

//! The pressure-view options (spec §2 "Pressure view options", §5, §9) and their rules, as pure
//! functions: palette cycling, smoothing levels, the threshold slider, contour/3D exclusivity, the
//! manual scale, and when the heat map is shown at all. The options live in one jotai atom that the
//! options toolbar writes and every heat map on the page reads.

import { atom } from 'jotai';
import type { PressureUnit } from '../../api/types';
import { PALETTES } from './palettes';

export type Point3 = { x: number; y: number; z: number };

/** The 3-D camera as the layout settings keep it (Plotly's convention: z up, eye relative to the
 * centre of a scene that spans −1…1). */
export interface CameraPosition {
  up: Point3;
  center: Point3;
  eye: Point3;
}

export interface ViewOptions {
  /** Index into {@link PALETTES}; the colour button cycles it. */
  mapColorIndex: number;
  /** Index into {@link SMOOTHING_LEVELS}. */
  smoothenIndex: number;
  /** Cells below this value are drawn as zero. */
  thresholdValue: number;
  contoursEnabled: boolean;
  is3Dmode: boolean;
  cameraPosition: CameraPosition;
  /** Scale the colours to {@link manualScaleValue} instead of each frame's maximum. */
  manualScale: boolean;
  manualScaleValue: number;
  /** The unit pressures are read in (`lib/pressureUnits`); null until chosen: the hub's default. */
  pressureUnit: PressureUnit | null;
}

export const THRESHOLD_MIN = 0;
export const THRESHOLD_MAX = 75;
export const THRESHOLD_STEP = 5;

export const MANUAL_SCALE_MIN = 50;
export const MANUAL_SCALE_MAX = 1000;
export const MANUAL_SCALE_STEP = 50;
export const MANUAL_SCALE_DEFAULT = 200;

/** Smoothing levels: 0 draws each cell as a crisp square, 1 interpolates between cells, 2 and 3
 * also blur the map with one or two passes of a 3 × 3 binomial kernel. */
export const SMOOTHING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
export type SmoothingLevel = (typeof SMOOTHING_LEVELS)[number];

export const DEFAULT_CAMERA: CameraPosition = {
  up: { x: 0, y: 0, z: 1 },
  center: { x: 0, y: 0, z: 0 },
  eye: { x: 1.25, y: 1.25, z: 1.25 },
};

export const DEFAULT_VIEW_OPTIONS: ViewOptions = {
  mapColorIndex: 0,
  smoothenIndex: 0,
  thresholdValue: 0,
  contoursEnabled: false,
  is3Dmode: false,
  cameraPosition: DEFAULT_CAMERA,
  manualScale: false,
  manualScaleValue: MANUAL_SCALE_DEFAULT,
  pressureUnit: null,
};

/** Scroll position (px) from which the heat map of a non-seating page is no longer drawn. */
export const HEATMAP_SCROLL_LIMIT_PX = 950;

const wrap = (i: number, n: number) => ((Math.trunc(i) % n) + n) % n;

/** The palette a stored index stands for (any integer wraps round the 13 palettes). */
export const paletteIndex = (i: number): number => wrap(Number.isFinite(i) ? i : 0, PALETTES.length);

/** The colour button: the next of the 13 palettes, after the last the first again. */
export const nextPalette = (o: ViewOptions): ViewOptions => ({ ...o, mapColorIndex: paletteIndex(o.mapColorIndex + 1) });

/** The smoothing level a stored index stands for (the hub accepts up to 32; higher ones wrap). */
export const smoothingIndex = (i: number): number => wrap(Number.isFinite(i) ? i : 0, SMOOTHING_LEVELS.length);

/** The threshold slider's value: 0–75 in steps of 5 (nearest step, clamped). */
export function normaliseThreshold(value: number): number {
  if (!Number.isFinite(value)) return THRESHOLD_MIN;
  const stepped = Math.round(value / THRESHOLD_STEP) * THRESHOLD_STEP;
  return Math.min(THRESHOLD_MAX, Math.max(THRESHOLD_MIN, stepped));
}

/** The manual-scale field (spec §5): empty resets to 200; otherwise clamped to 50–1000 and put
 * on the nearest step of 50. Accepts the raw text of the field or a number. */
export function normaliseManualScale(value: string | number | null | undefined): number {
  const text = typeof value === 'number' ? String(value) : (value ?? '').trim();
  if (text === '') return MANUAL_SCALE_DEFAULT;
  const n = Number(text);
  if (!Number.isFinite(n)) return MANUAL_SCALE_DEFAULT;
  const clamped = Math.min(MANUAL_SCALE_MAX, Math.max(MANUAL_SCALE_MIN, n));
  const stepped = Math.round(clamped / MANUAL_SCALE_STEP) * MANUAL_SCALE_STEP;
  return Math.min(MANUAL_SCALE_MAX, Math.max(MANUAL_SCALE_MIN, stepped));
}

/** Contour on turns 3D off (they are mutually exclusive). */
export const setContours = (o: ViewOptions, on: boolean): ViewOptions => ({
  ...o,
  contoursEnabled: on,
  is3Dmode: on ? false : o.is3Dmode,
});

/** 3D on turns contour off (they are mutually exclusive). */
export const set3d = (o: ViewOptions, on: boolean): ViewOptions => ({
  ...o,
  is3Dmode: on,
  contoursEnabled: on ? false : o.contoursEnabled,
});

/** How the map is drawn: a flat heat map, a contour plot, or a 3-D surface. */
export type ViewMode = 'heatmap' | 'contour' | '3d';
export const viewMode = (o: ViewOptions): ViewMode => (o.is3Dmode ? '3d' : o.contoursEnabled ? 'contour' : 'heatmap');

/** Spec §2: non-seating pages draw the heat map only while the page is scrolled less than 950 px. */
export const heatMapShown = (scrollY: number, hideBelowScroll: boolean): boolean =>
  !hideBelowScroll || scrollY < HEATMAP_SCROLL_LIMIT_PX;

/** Options as loaded or saved, made consistent: indices wrapped, limits applied, 3D and contour
 * never both on (contour wins, as the saved settings cannot hold 3D). */
export function sanitiseViewOptions(o: ViewOptions): ViewOptions {
  return {
    ...o,
    mapColorIndex: paletteIndex(o.mapColorIndex),
    smoothenIndex: smoothingIndex(o.smoothenIndex),
    thresholdValue: normaliseThreshold(o.thresholdValue),
    is3Dmode: o.is3Dmode && !o.contoursEnabled,
    manualScaleValue: normaliseManualScale(o.manualScaleValue),
  };
}

/** The current user's options, shared by the toolbar and every heat map of the page. */
export const viewOptionsAtom = atom<ViewOptions>(DEFAULT_VIEW_OPTIONS);

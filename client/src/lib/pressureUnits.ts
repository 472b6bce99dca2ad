//! Pressures as a user reads them (issue 22, spec §1, §6, §9). The hub owns every figure: its
//! pressure unit and the units a user may choose (`GET /api/pressureScale`, from
//! `mat_protocol::scale`) and each device type's hub units per cell step (`pressureUnitsPerCell`
//! in `GET /api/deviceTypes`). This module only multiplies: a cell value in its device's steps →
//! mmHg (the default) or kPa (the user's choice, saved with the view options), or the fitness
//! variant's kPa (steps × the hub's 0.06). Nothing else in the client converts a pressure.

import { atom, useAtomValue } from 'jotai';
import type { PressureScale, PressureUnit } from '../api/types';
import { apiFetch } from './api';
import { companyVariantsAtom } from './companyVariants';
import { typeInfo, deviceTypesAtom } from './deviceTypes';
import type { AppStore } from './devicesStore';
import { formatFixed, formatNumber } from './format';
import { viewOptionsAtom } from './heatmap/viewOptions';

export type { PressureScale, PressureUnit };

/** The hub's scale, or null until it has loaded (or after logout). */
export const pressureScaleAtom = atom<PressureScale | null>(null);

/** GET /api/pressureScale into the atom; retried with backoff while it fails. */
export async function loadPressureScale(store: AppStore, isCancelled: () => boolean = () => false): Promise<void> {
  for (let attempt = 0; !isCancelled(); attempt++) {
    try {
      const scale = await apiFetch<PressureScale>('/api/pressureScale');
      if (isCancelled()) return;
      store.set(pressureScaleAtom, scale);
      return;
    } catch (err) {
      console.error('pressureScale failed', err);
      if (isCancelled() || (err as { status?: number }).status === 401) return;
      await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** attempt)));
    }
  }
}

/** How one device's pressures are shown: the unit, and how many of it one step of its cells is. */
export interface PressureDisplay {
  unit: PressureUnit;
  /** Units shown per step of the device's cells. */
  perStep: number;
  /** Decimals shown (spec §9: at most 2). */
  decimals: number;
  /** The fitness variant's scale (steps × 0.06 kPa) rather than the physical one. */
  fitness: boolean;
  /** The device's full scale in its steps (`fullScaleSteps` of `GET /api/deviceTypes`): a
   * reading there is that pressure or more. Null when the hub has not said. */
  fullScaleSteps: number | null;
}

/** Decimals a value in `unit` is shown with: mmHg to 0.1 (a bed mat's step is 0.4 mmHg), kPa to 0.01. */
export const decimalsOf = (unit: PressureUnit): number => (unit === 'kPa' ? 2 : 1);

/** The units a user may choose, the hub's default first. */
export const choosableUnits = (scale: PressureScale): PressureUnit[] => scale.pascalPer.map((u) => u.unit);

/** The unit a user reads pressures in: their choice if the hub offers it, else the hub's default. */
export function effectiveUnit(scale: PressureScale, chosen: PressureUnit | null | undefined): PressureUnit {
  return chosen && scale.pascalPer.some((u) => u.unit === chosen) ? chosen : scale.defaultUnit;
}

/** Hub pressure units → `unit`. */
export function hubUnitsTo(units: number, unit: PressureUnit, scale: PressureScale): number {
  const pascals = scale.pascalPer.find((u) => u.unit === unit)?.pascals;
  return pascals ? (units * scale.pascalPerUnit) / pascals : Number.NaN;
}

/** `unit` → hub pressure units (the other way round). */
export function unitsFromHub(value: number, unit: PressureUnit, scale: PressureScale): number {
  return value / hubUnitsTo(1, unit, scale);
}

/**
 * How a device whose cell step is `unitsPerCell` hub units shows its pressures; null when the hub
 * has not said (scale not loaded) or the device's cells are not pressures (force channels,
 * room-set sensors). The fitness variant always shows kPa at the spec's 0.06 per step.
 */
export function pressureDisplay(
  scale: PressureScale | null,
  unitsPerCell: number | null | undefined,
  chosen: PressureUnit | null | undefined,
  fitness: boolean,
  fullScaleSteps: number | null = null,
): PressureDisplay | null {
  if (!scale || unitsPerCell == null || !Number.isFinite(unitsPerCell)) return null;
  if (fitness) return { unit: 'kPa', perStep: scale.fitnessKpaPerStep, decimals: decimalsOf('kPa'), fitness: true, fullScaleSteps };
  const unit = effectiveUnit(scale, chosen);
  return { unit, perStep: hubUnitsTo(unitsPerCell, unit, scale), decimals: decimalsOf(unit), fitness: false, fullScaleSteps };
}

/** Pascals in one `unit`, as the hub says (NaN when it does not offer the unit). */
const pascalsOf = (unit: PressureUnit, scale: PressureScale): number => scale.pascalPer.find((u) => u.unit === unit)?.pascals ?? Number.NaN;

/**
 * A capture's weight calibration (spec §9, computed and stored by the hub's analysis engine with
 * the result: `pressureCalibration`): how many kPa one step of that capture's cells is.
 */
export interface WeightCalibration {
  weightKg: number;
  loadShare: number;
  cellAreaCm2: number;
  kpaPerStep: number;
}

/**
 * The display of a capture analysed with a weighed patient's `calibration`: the same unit, one
 * step worth the calibration's kPa. The fitness variant keeps its own scale (spec §1).
 */
export function calibratedDisplay(display: PressureDisplay | null, calibration: WeightCalibration | null | undefined, scale: PressureScale | null): PressureDisplay | null {
  if (!display || !calibration || display.fitness || !scale) return display;
  return { ...display, perStep: (calibration.kpaPerStep * 1000) / pascalsOf(display.unit, scale) };
}

/** A pressure the hub gives in mmHg (seat and bed figures) in the display unit; fitness reads kPa. */
export function mmhgToDisplay(mmhg: number, d: PressureDisplay, scale: PressureScale | null): number {
  const unit = d.fitness ? 'kPa' : d.unit;
  if (!scale || unit === 'mmHg') return mmhg;
  return (mmhg * pascalsOf('mmHg', scale)) / pascalsOf(unit, scale);
}

/** A cell value (the device's steps) in the display unit. */
export const stepsToDisplay = (steps: number, d: PressureDisplay): number => steps * d.perStep;

/** A value in the display unit back to the device's steps. */
export const displayToSteps = (value: number, d: PressureDisplay): number => value / d.perStep;

/** The value alone, in the user's language, to exactly the unit's decimals as the PDF prints it
 * ("12,4", "30,0"): in a column of pressures 30 beside 31.6 must not read as a whole number. */
export function formatPressureValue(steps: number, d: PressureDisplay, lng: string): string {
  return formatFixed(stepsToDisplay(steps, d), lng, d.decimals);
}

/** A colour bar's end with its unit: a scale's mark, not a measured figure, so without trailing
 * zeros ("0 mmHg", "31.2 mmHg"), as the PDF's colour bar marks it. */
export function formatPressureMark(steps: number, d: PressureDisplay, lng: string): string {
  return `${formatNumber(stepsToDisplay(steps, d), lng, d.decimals)}\u00a0${d.unit}`;
}

/** A cell value with its unit, in the user's language: "12,4 mmHg", "0,36 kPa". */
export function formatPressure(steps: number, d: PressureDisplay, lng: string): string {
  const value = formatPressureValue(steps, d, lng);
  return value === '—' ? value : `${value}\u00a0${d.unit}`;
}

/**
 * A pressure the sensor read (a map's highest cell), with its unit; a reading at the device's
 * full scale is "≥ 102 mmHg": the cell saturated, and the pressure there may be higher.
 */
export function formatPressureReading(steps: number, d: PressureDisplay, lng: string): string {
  const text = formatPressure(steps, d, lng);
  return text !== '—' && atFullScale(steps, d) ? `≥\u00a0${text}` : text;
}

/** Whether a cell value is at the device's full scale: the cell saturated. */
export const atFullScale = (steps: number, d: PressureDisplay): boolean => d.fullScaleSteps != null && steps >= d.fullScaleSteps;

/**
 * A seat's or a bed's figure the hub gives in mmHg that reads the map's highest cell (the maximum,
 * or a region's peak equal to it), "≥" when `saturated` (the result's `maxAtFullScale`, set by the
 * engine); the same rule as the PDF's (`reports/src/figures.rs`).
 */
export function formatMmhgReading(mmhg: number, maxMmhg: number, saturated: boolean, d: PressureDisplay | null, scale: PressureScale | null, lng: string): string {
  const text = formatMmhg(mmhg, d, scale, lng);
  return saturated && mmhg === maxMmhg && text !== '—' ? `≥\u00a0${text}` : text;
}

/**
 * The display of a stored result's pressures: its device's, read through the weighed patient's
 * calibration when the result carries one.
 */
export function useResultPressureDisplay(deviceType: string | undefined, calibration: WeightCalibration | null | undefined): PressureDisplay | null {
  return calibratedDisplay(usePressureDisplay(deviceType), calibration, useAtomValue(pressureScaleAtom));
}

/** A value the hub gives in mmHg with the display's unit, in the user's language ("112,6 mmHg", "15,01 kPa"). */
export function formatMmhg(mmhg: number, d: PressureDisplay | null, scale: PressureScale | null, lng: string): string {
  if (!d || !Number.isFinite(mmhg)) return '—';
  const unit = d.fitness ? 'kPa' : d.unit;
  return `${formatFixed(mmhgToDisplay(mmhg, d, scale), lng, decimalsOf(unit))}\u00a0${unit}`;
}

/** The display of `deviceType`'s pressures for the signed-in user; null as for {@link pressureDisplay}. */
export function usePressureDisplay(deviceType: string | undefined): PressureDisplay | null {
  const scale = useAtomValue(pressureScaleAtom);
  const info = typeInfo(useAtomValue(deviceTypesAtom), deviceType);
  const { pressureUnit } = useAtomValue(viewOptionsAtom);
  const { fitness } = useAtomValue(companyVariantsAtom);
  return pressureDisplay(scale, info?.pressureUnitsPerCell, pressureUnit, fitness, info?.fullScaleSteps ?? null);
}

//! The name of a stored analysis's kind, as its device's family reads it. A bed's dynamic capture
//! is stored with spec §3's analysisType `seatingDynamic` (the panels of pressure over time), but
//! it is no seat's analysis: on a bed it is named "Pressure over time" (the PDF's title too,
//! `reports::analysis_report`'s `kind_text`).

import { useAtomValue } from 'jotai';
import type { AnalysisFamily } from '../../api/types';
import { useDeviceType } from '../../lib/deviceTypes';
import { deviceInfoFamily } from '../../lib/devicesStore';
import type { AnalysisRecord } from './record';

/** Whether a device of `family` carries a body lying down (the hub's `seating::lying`, by the
 * analysis family it serves): a bed's dynamic capture is pressure over time, with no ischial figure. */
export const liesDown = (family: AnalysisFamily | null | undefined): boolean => family === 'bed';

/** The translation key naming `analysisType` on a device of `family`. */
export function analysisTypeKey(analysisType: string, family: AnalysisFamily | null | undefined): string {
  return analysisType === 'seatingDynamic' && liesDown(family) ? 'analysis.types.bedDynamic' : `analysis.types.${analysisType}`;
}

/**
 * The device type a record was captured on: its own device's when this browser knows it, else
 * `shownOn` (the page's device).
 */
export function useRecordDeviceType(record: Pick<AnalysisRecord, 'deviceId'>, shownOn: string | undefined): string | undefined {
  const own = useAtomValue(deviceInfoFamily(record.deviceId ?? ''));
  return own?.deviceType ?? shownOn;
}

/** {@link analysisTypeKey} for a record captured on a device of `deviceType` ({@link useRecordDeviceType}). */
export function useAnalysisTypeKey(analysisType: string, deviceType: string | undefined): string {
  return analysisTypeKey(analysisType, useDeviceType(deviceType)?.analysisFamily);
}

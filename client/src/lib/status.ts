//! Card status (spec §4) and its colour (spec §2: Missing blue, Alarm orange, Correct green,
//! Offline grey).

import type { CardStatus, DeviceConfDto, PatientStatus } from './api';

export const CARD_STATUSES: readonly CardStatus[] = ['Missing', 'Alarm', 'Correct', 'Offline'];

export const STATUS_COLORS: Readonly<Record<CardStatus, string>> = {
  Missing: '#1d6fd8',
  Alarm: '#ea7a12',
  Correct: '#1f9d55',
  Offline: '#7b8794',
};

/** Colour for a status; anything unknown is shown as Offline. */
export function statusColor(status: string | null | undefined): string {
  return (status && (STATUS_COLORS as Record<string, string>)[status]) || STATUS_COLORS.Offline;
}

/** Spec §4: not functional → offline (null); Missing or Absent → 1; Ulcer Risk → 2; else 0. */
export function stateCodeFromConf(conf: { deviceFunctional?: boolean; patientStatus?: PatientStatus }): number | null {
  if (!conf.deviceFunctional) return null;
  switch (conf.patientStatus) {
    case 'Offline':
      return null;
    case 'Missing':
    case 'Absent':
      return 1;
    case 'Ulcer Risk':
      return 2;
    default:
      return 0;
  }
}

/** Spec §4: state code 1 Missing, 2 Alarm, 0 Correct, anything else Offline. */
export function cardStatusFromStateCode(code: number | null | undefined): CardStatus {
  switch (code) {
    case 0:
      return 'Correct';
    case 1:
      return 'Missing';
    case 2:
      return 'Alarm';
    default:
      return 'Offline';
  }
}

/** The card status of a device: the hub's `cardStatus` when it sent one, otherwise derived from
 * the state code or the configuration. Seating Mat is always Correct (spec §4). */
export function cardStatusOf(deviceType: string, conf: DeviceConfDto | null | undefined): CardStatus {
  if (deviceType === 'Seating Mat') return 'Correct';
  if (!conf) return 'Offline';
  if (conf.cardStatus && (CARD_STATUSES as readonly string[]).includes(conf.cardStatus)) return conf.cardStatus;
  if (conf.stateCode !== undefined) return cardStatusFromStateCode(conf.stateCode);
  return cardStatusFromStateCode(stateCodeFromConf(conf));
}

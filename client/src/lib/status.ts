//! Card status colours (spec §2: Missing blue, Alarm orange, Correct green, Offline grey). The
//! status itself is the hub's (`cardStatus` of deviceConf, spec §4 rules applied there).

import type { CardStatus, DeviceConfDto } from './api';

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

/** The card status the hub sent; Offline until it has sent one (or for anything unknown). */
export function cardStatusOf(conf: Pick<DeviceConfDto, 'cardStatus'> | null | undefined): CardStatus {
  const s = conf?.cardStatus;
  return s && (CARD_STATUSES as readonly string[]).includes(s) ? s : 'Offline';
}

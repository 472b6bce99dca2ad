//! A bed or seat left empty while its load episode lives on: the patient is up for less than the
//! offload time, and the repositioning clock counts the time off as loaded, so the countdown runs
//! on ("Seat empty for 3 min"; why, in its title). From the hub's `unloadedForSeconds` and
//! `offloadSeconds` (the clock's one owner, `UlcerRiskMachine::unloaded_for`). The ward tile and
//! the device page's clock show it.

import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceTypeInfo } from '../lib/deviceTypes';
import { useFormat } from '../lib/format';

/** Whole seconds the mat has been empty now, from a reading taken at `readAtMs`; null when it is
 * not empty with an episode alive (or the offload time has passed since: the next read says so). */
export function emptyForSeconds(unloadedForSeconds: number | null | undefined, offloadSeconds: number, readAtMs: number, nowMs: number): number | null {
  if (unloadedForSeconds == null) return null;
  const seconds = unloadedForSeconds + Math.max(0, Math.floor((nowMs - readAtMs) / 1000));
  return seconds < offloadSeconds ? seconds : null;
}

export function EmptyMatNote({
  location,
  unloadedForSeconds,
  offloadSeconds,
  readAtMs,
  now,
  testId,
  className = '',
  styleFor,
}: {
  location: DeviceTypeInfo['location'] | undefined;
  unloadedForSeconds: number | null | undefined;
  offloadSeconds: number;
  readAtMs: number;
  now: number;
  testId: string;
  /** Classes beside `empty-mat-note` (the ward tile sets it as its posture line). */
  className?: string;
  /** A style from the shown text (the ward tile fits it to its column on one line). */
  styleFor?: (text: string) => CSSProperties;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const seconds = emptyForSeconds(unloadedForSeconds, offloadSeconds, readAtMs, now);
  if (seconds == null) return null;
  const surface = location === 'bed' || location === 'seat' ? location : 'mat';
  const text = t(`pages.repositioning.empty.${surface}`, { time: fmt.duration(seconds) });
  return (
    <span
      className={`empty-mat-note ${className}`.trim()}
      data-testid={testId}
      style={styleFor?.(text)}
      title={t('pages.repositioning.empty.hint', { offload: fmt.duration(offloadSeconds) })}
    >
      {text}
    </span>
  );
}

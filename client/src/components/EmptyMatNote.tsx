//! A bed or seat left empty while its load episode lives on: the patient is up for less than the
//! offload time, and the repositioning clock counts the time off as loaded, so the countdown runs
//! on ("Seat empty for 3 min"; why, in its title). From the hub's `unloadedForSeconds` and
//! `offloadSeconds` (the clock's one owner, `UlcerRiskMachine::unloaded_for`). The ward tile and
//! the device page's clock show it.

import type { CSSProperties } from 'react';
import type { TFunction } from 'i18next';
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

/** The note's words: "Seat empty for 7 secs", or in the short form "Empty 7s" (every language's
 * short form at its longest, 14m 59s, fits the wall board's narrowest line: ward.test.tsx). */
export function emptyMatText(
  t: TFunction,
  fmt: Pick<ReturnType<typeof useFormat>, 'duration' | 'narrowDuration'>,
  location: DeviceTypeInfo['location'] | undefined,
  seconds: number,
  compact: boolean,
): string {
  if (compact) return t('pages.repositioning.empty.short', { time: fmt.narrowDuration(seconds) });
  const surface = location === 'bed' || location === 'seat' ? location : 'mat';
  return t(`pages.repositioning.empty.${surface}`, { time: fmt.duration(seconds) });
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
  compact = false,
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
  /** The short form for a narrow column ("Empty 12s"): the ward tile, whose name says bed or seat. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const seconds = emptyForSeconds(unloadedForSeconds, offloadSeconds, readAtMs, now);
  if (seconds == null) return null;
  const text = emptyMatText(t, fmt, location, seconds, compact);
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

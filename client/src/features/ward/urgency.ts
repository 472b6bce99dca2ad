//! What needs doing next on a ward (issue 23): each tile's urgency and the board's order. Pure.
//!
//! Missing and overdue first, then due, due soon, fine, offline. An alarm that waits keeps its
//! tile up even if the device has since gone offline (someone must still attend it): a waiting
//! Missing alarm ranks with Missing, a waiting Ulcer Risk alarm at least with "due". A device that
//! is offline otherwise (never connected, or silent) is Offline only: its last tier means nothing.

import type { CardStatus, RepositioningTier } from '../../lib/api';
import type { AlarmKindName } from '../../lib/pendingAlarms';

export type Urgency = 'missing' | 'overdue' | 'due' | 'dueSoon' | 'fine' | 'offline';

/** The board's groups, most urgent first; Missing and overdue share the first place. */
export const URGENCY_ORDER: readonly Urgency[] = ['missing', 'overdue', 'due', 'dueSoon', 'fine', 'offline'];

const RANK: Readonly<Record<Urgency, number>> = { missing: 0, overdue: 0, due: 1, dueSoon: 2, fine: 3, offline: 4 };

export interface UrgencyInput {
  cardStatus: CardStatus;
  /** The tier, for types that run the repositioning clock; null for the others. */
  tier: RepositioningTier | null;
  /** The oldest waiting alarm of the device (or its room set's members), if any. */
  alarm: { kind: AlarmKindName; raisedAtMs: number } | null;
}

export function urgencyOf(t: UrgencyInput): Urgency {
  if (t.alarm?.kind === 'Missing' || t.cardStatus === 'Missing') return 'missing';
  if (t.cardStatus === 'Offline' && !t.alarm) return 'offline';
  if (t.tier === 'overdue') return 'overdue';
  if (t.tier === 'due' || t.alarm?.kind === 'Ulcer Risk') return 'due';
  if (t.tier === 'dueSoon') return 'dueSoon';
  if (t.cardStatus === 'Offline') return 'offline';
  return 'fine';
}

export interface OrderedTile extends UrgencyInput {
  id: string;
  /** The tile's big label (room and bed). */
  label: string;
  /** Seconds to the next turn when last read (null: unknown or nobody on the mat). */
  dueInSeconds: number | null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The board's order: by urgency; within one, Missing before overdue, the longest-waiting alarm
 * first, then the nearest turn, then the label (numbers in number order) and the id. */
export function boardOrder<T extends OrderedTile>(tiles: readonly T[]): T[] {
  const key = (t: T) => {
    const u = urgencyOf(t);
    return { rank: RANK[u], missing: u === 'missing' ? 0 : 1 };
  };
  return [...tiles].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka.rank !== kb.rank) return ka.rank - kb.rank;
    if (ka.missing !== kb.missing) return ka.missing - kb.missing;
    const aa = a.alarm?.raisedAtMs ?? Infinity;
    const ab = b.alarm?.raisedAtMs ?? Infinity;
    if (aa !== ab) return aa - ab;
    const da = a.dueInSeconds ?? Infinity;
    const db = b.dueInSeconds ?? Infinity;
    if (da !== db) return da - db;
    return collator.compare(a.label, b.label) || collator.compare(a.id, b.id);
  });
}

/** Seconds left to the next turn now, from a reading of `dueInSeconds` taken at `readAtMs`. */
export function secondsLeft(dueInSeconds: number | null, readAtMs: number, nowMs: number): number | null {
  if (dueInSeconds == null) return null;
  return Math.max(0, Math.floor(dueInSeconds - Math.max(0, nowMs - readAtMs) / 1000));
}

/** A patient's name as the company shows it on the board: in full, or as initials ("Ana María
 * López" → "A. M. L."). */
export function patientLabel(fullName: string | null | undefined, initials: boolean): string | null {
  const name = (fullName ?? '').trim();
  if (!name) return null;
  if (!initials) return name;
  return name
    .split(/\s+/)
    .map((part) => `${Array.from(part)[0].toLocaleUpperCase()}.`)
    .join(' ');
}

/** The seconds a countdown shows: whole minutes from 10 min up (a wall is read at a glance),
 * seconds in the last ten minutes. */
export function countdownShown(left: number): number {
  return left >= 600 ? Math.floor(left / 60) * 60 : left;
}

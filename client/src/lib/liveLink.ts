//! Whether what the pages show is live: while the browser's socket is lost and reconnecting (or
//! down), the maps, presence and statuses on screen are as of the moment it was lost, and the
//! pages say so (greyed maps, "not live" badges) until it is back. Written by `lib/socket`.

import { useAtomValue } from 'jotai';
import { socketLostAtMsAtom, socketStatusAtom, type SocketStatus } from './devicesStore';

/** The socket's statuses under which nothing on screen is live any more. */
export function isStale(status: SocketStatus): boolean {
  return status === 'reconnecting' || status === 'down';
}

export interface LiveLink {
  /** What is shown is no longer live. */
  stale: boolean;
  /** When the link was lost (browser clock, ms), while stale; null when unknown or live. */
  lostAtMs: number | null;
}

export function useLiveLink(): LiveLink {
  const stale = isStale(useAtomValue(socketStatusAtom));
  const lostAtMs = useAtomValue(socketLostAtMsAtom);
  return { stale, lostAtMs: stale ? lostAtMs : null };
}

//! A paired ward screen renews its board token while it is in use (docs/decisions.md "A board on a
//! wall"): at the hub's `renewAt` (a day after the token was issued), and again a minute later while
//! the hub cannot be reached. Only the token changes (`renewSession`): the board and its socket stay.

import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/api';
import { renewSession, sessionAtom, ROLE_BOARD } from '../../lib/session';
import { renewBoardToken } from './screensApi';

/** Retry after a failed renewal (the hub restarting, the network down). */
export const RENEW_RETRY_MS = 60_000;
/** Longest single wait (browsers cap timers at about 24.8 days). */
const MAX_WAIT_MS = 6 * 3600_000;

/** How long until the next renewal, from now (ms), never negative. */
export const renewDelayMs = (renewAt: number, nowMs: number): number => Math.max(0, Math.min(renewAt * 1000 - nowMs, MAX_WAIT_MS));

export function BoardTokenRenewer() {
  const session = useAtomValue(sessionAtom);
  const [retry, setRetry] = useState(0);
  const renewAt = session?.role === ROLE_BOARD ? (session.renewAt ?? null) : null;
  useEffect(() => {
    if (renewAt === null) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      if (renewAt * 1000 > Date.now()) return setRetry((n) => n + 1);
      renewBoardToken().then(
        (renewed) => {
          if (!cancelled) renewSession({ token: renewed.token, expiresAt: renewed.expiresAt, renewAt: renewed.renewAt });
        },
        (err) => {
          // A 401 already ended the session (unpaired or expired); anything else is tried again.
          if (!cancelled && !(err instanceof ApiError && err.status === 401)) setTimeout(() => !cancelled && setRetry((n) => n + 1), RENEW_RETRY_MS);
        },
      );
    }, renewDelayMs(renewAt, Date.now()));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [renewAt, retry]);
  return null;
}

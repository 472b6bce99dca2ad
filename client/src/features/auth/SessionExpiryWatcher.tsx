//! Ends the session when the hub's token expires (the login's `expiresAt`), so an idle page with
//! no call to be refused still returns to /login with the "session expired" message.

import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { dropToken, expiresAtAtom } from '../../lib/session';

/** setTimeout's longest delay; a later expiry is re-armed when this one fires. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export function SessionExpiryWatcher() {
  const expiresAt = useAtomValue(expiresAtAtom);
  useEffect(() => {
    if (expiresAt === null) return;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      const left = expiresAt * 1000 - Date.now();
      if (left <= 0) {
        dropToken();
        return;
      }
      timer = setTimeout(arm, Math.min(left, MAX_TIMEOUT_MS));
    };
    arm();
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return null;
}

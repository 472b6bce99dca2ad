//! Inactivity logout (spec §4, §9): after 900000 ms with no mouse move, key press, scroll or touch the
//! user, userId and admin-access entries are removed and the user goes to /login; any such activity
//! restarts the timer.

import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { expireForInactivity } from '../../lib/session';

export const INACTIVITY_TIMEOUT_MS = 900_000;
export const ACTIVITY_EVENTS = ['mousemove', 'keydown', 'scroll', 'touchstart'] as const;

export function InactivityWatcher({ timeoutMs = INACTIVITY_TIMEOUT_MS }: { timeoutMs?: number }) {
  const navigate = useNavigate();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const expire = () => {
      expireForInactivity();
      navigate('/login', { replace: true });
    };
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(expire, timeoutMs);
    };
    restart();
    // Capture phase, so scrolls of inner elements (which do not bubble) count too.
    for (const ev of ACTIVITY_EVENTS) window.addEventListener(ev, restart, { capture: true, passive: true });
    return () => {
      clearTimeout(timer);
      for (const ev of ACTIVITY_EVENTS) window.removeEventListener(ev, restart, { capture: true });
    };
  }, [navigate, timeoutMs]);
  return null;
}

//! What every device route (the device page, its settings and the podology analysis page) shares:
//! the device read from navigation state, and the way back to /devices when there is none.

import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { oidOf, type UserDevice } from './api';

export const NO_DEVICE_REDIRECT_MS = 100;

/** Reads the device from navigation state (an object, or a serialized one). */
export function deviceFromState(state: unknown): UserDevice | null {
  let device: unknown = state && typeof state === 'object' ? (state as { device?: unknown }).device : null;
  if (typeof device === 'string') {
    try {
      device = JSON.parse(device);
    } catch {
      return null;
    }
  }
  if (!device || typeof device !== 'object' || !oidOf((device as UserDevice)._id)) return null;
  return device as UserDevice;
}

/** Returns to /devices after 100 ms when `leave` holds. */
export function useLeaveWhen(leave: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!leave) return;
    const timer = setTimeout(() => navigate('/devices', { replace: true }), NO_DEVICE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [leave, navigate]);
}

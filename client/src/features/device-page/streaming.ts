//! Live-streaming timing (spec §4, §9): a stream asks for 180 s, the hub adds 5 s, so the countdown
//! runs 185 s. The end time is kept in local storage so a reload resumes the countdown.

import { STORAGE } from '../../lib/storageKeys';

export const STREAM_SECONDS = 180;
export const STREAM_EXTRA_SECONDS = 5;

interface StoredEnd {
  deviceId: string;
  endsAt: number;
}

export function readStreamEnd(deviceId: string, now: number): number | null {
  const raw = localStorage.getItem(STORAGE.streamingEnd);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as StoredEnd;
    if (v.deviceId !== deviceId) return null;
    if (typeof v.endsAt !== 'number' || v.endsAt <= now) {
      localStorage.removeItem(STORAGE.streamingEnd);
      return null;
    }
    return v.endsAt;
  } catch {
    localStorage.removeItem(STORAGE.streamingEnd);
    return null;
  }
}

export function storeStreamEnd(deviceId: string, endsAt: number): void {
  localStorage.setItem(STORAGE.streamingEnd, JSON.stringify({ deviceId, endsAt } satisfies StoredEnd));
}

export function clearStreamEnd(): void {
  localStorage.removeItem(STORAGE.streamingEnd);
}

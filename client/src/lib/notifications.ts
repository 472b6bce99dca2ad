//! The notification area (spec §2: present on every screen): toasts keyed by i18n keys.

import { atom } from 'jotai';
import type { AppStore } from './devicesStore';

export interface Toast {
  id: number;
  kind: 'error' | 'success' | 'info';
  /** i18n key of the message. */
  key: string;
  params?: Record<string, string | number>;
}

export const toastsAtom = atom<Toast[]>([]);

let nextId = 1;

/** Shows a toast for `durationMs` (spec §9: 1500 or 2500 ms; errors stay a little longer). */
export function notify(store: AppStore, toast: Omit<Toast, 'id'>, durationMs = 2500): number {
  const id = nextId++;
  store.set(toastsAtom, (list) => [...list, { ...toast, id }]);
  setTimeout(() => dismiss(store, id), durationMs);
  return id;
}

export function dismiss(store: AppStore, id: number): void {
  store.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}

//! Runs one admin call: busy flag, the §8 success or failure toast, and the hub's reason (its error
//! key, e.g. duplicateSerial or forbidden) shown inline under the form.

import { useStore } from 'jotai';
import { useState } from 'react';
import { FALLBACK_ERROR_KEY, messageKeyForError, showToast, type ToastKey } from '../../lib/messages';

export function useAdminCall(successKey: ToastKey, failureKey: ToastKey) {
  const store = useStore();
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState<string | null>(null);

  /** Shows a client-side check's toast (spec §8) without calling the hub. */
  const refuse = (key: ToastKey) => {
    setReason(null);
    showToast(store, key);
  };

  async function run<T>(call: () => Promise<T>): Promise<T | null> {
    if (busy) return null;
    setBusy(true);
    setReason(null);
    try {
      const result = await call();
      showToast(store, successKey);
      return result;
    } catch (err) {
      showToast(store, failureKey);
      const key = messageKeyForError(err);
      setReason(key === FALLBACK_ERROR_KEY ? null : key);
      return null;
    } finally {
      setBusy(false);
    }
  }

  return { busy, reason, run, refuse };
}

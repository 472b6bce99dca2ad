//! Runs one admin call: busy flag, the §8 success or failure toast, and the hub's reason (its error
//! key, e.g. duplicateSerial or forbidden) shown inline when it has a translation.

import { useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { notify } from '../../lib/notifications';

export function useAdminCall(successKey: string, failureKey: string) {
  const store = useStore();
  const { i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState<string | null>(null);

  /** Shows a client-side check's toast (spec §8) without calling the hub. */
  const refuse = (key: string) => {
    setReason(null);
    notify(store, { kind: 'error', key }, 2500);
  };

  async function run<T>(call: () => Promise<T>): Promise<T | null> {
    if (busy) return null;
    setBusy(true);
    setReason(null);
    try {
      const result = await call();
      notify(store, { kind: 'success', key: successKey }, 2500);
      return result;
    } catch (err) {
      notify(store, { kind: 'error', key: failureKey }, 2500);
      const code = err instanceof ApiError ? err.code : 'networkError';
      setReason(i18n.exists(code) ? code : i18n.exists(`admin.hub.${code}`) ? `admin.hub.${code}` : null);
      return null;
    } finally {
      setBusy(false);
    }
  }

  return { busy, reason, run, refuse };
}

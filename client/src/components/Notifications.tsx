//! The notification area, top right, present on every screen.

import { useAtomValue, useStore } from 'jotai';
import { useTranslation } from 'react-i18next';
import { dismiss, toastsAtom } from '../lib/notifications';

export function Notifications() {
  const { t } = useTranslation();
  const toasts = useAtomValue(toastsAtom);
  const store = useStore();
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span>{t(toast.key, toast.params)}</span>
          <button type="button" className="toast-close" aria-label={t('notifications.close')} onClick={() => dismiss(store, toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

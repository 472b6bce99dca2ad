//! The hub's reason for a refused admin call, under the form.

import { useTranslation } from 'react-i18next';

export function HubReason({ reason }: { reason: string | null }) {
  const { t } = useTranslation();
  if (!reason) return null;
  return (
    <div className="form-error" role="alert" data-testid="hub-reason">
      {t(reason)}
    </div>
  );
}

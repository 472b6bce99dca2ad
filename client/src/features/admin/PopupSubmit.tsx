//! The foot of an admin popup's form: the hub's reason for the last refusal (when it has one) and the
//! submit button.

import { useTranslation } from 'react-i18next';

export function PopupSubmit({ reason, label, disabled }: { reason: string | null; label: string; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {reason ? (
        <div className="form-error" role="alert" data-testid="hub-reason">
          {t(reason)}
        </div>
      ) : null}
      <div className="modal-actions">
        <button type="submit" className="btn btn-primary" disabled={disabled}>
          {t(label)}
        </button>
      </div>
    </>
  );
}

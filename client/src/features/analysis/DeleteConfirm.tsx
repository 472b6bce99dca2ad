//! Confirmation before deleting an analysis; success shows analysisSuccess (1.5 s).

import { useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError, showToast } from '../../lib/messages';
import { deleteAnalysis } from './api';
import { Modal } from '../../components/Modal';

export function DeleteConfirm({ id, onClose, onDeleted }: { id: string; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const store = useStore();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await deleteAnalysis(id);
      showToast(store, 'analysisSuccess');
      onDeleted();
    } catch (err) {
      showApiError(store, err);
      setBusy(false);
    }
  };
  return (
    <Modal title={t('analysis.delete.title')} onClose={onClose} testId="delete-modal">
      <p>{t('analysis.delete.question')}</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t('analysis.cancel')}
        </button>
        <button type="button" className="btn btn-danger" onClick={confirm} disabled={busy} data-testid="delete-confirm">
          {t('analysis.delete.confirm')}
        </button>
      </div>
    </Modal>
  );
}

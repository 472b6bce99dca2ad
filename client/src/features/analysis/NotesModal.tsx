//! The notes editor of a history card (spec §5): at most 1100 characters in 13 rows; saved with
//! notesUpdated (2.5 s), refused with analysisNotes.

import { useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError, showToast } from '../../lib/messages';
import { saveNotes } from './api';
import { Modal } from '../../components/Modal';
import { NOTES_MAX, NOTES_ROWS, notesLength, notesWithinLimit } from './notes';

export function NotesModal({ id, initial, onClose, onSaved }: { id: string; initial: string; onClose: () => void; onSaved: (notes: string) => void }) {
  const { t } = useTranslation();
  const store = useStore();
  const [notes, setNotes] = useState(initial);
  const [saving, setSaving] = useState(false);
  const within = notesWithinLimit(notes);

  const save = async () => {
    if (!within) {
      showToast(store, 'analysisNotes');
      return;
    }
    setSaving(true);
    try {
      await saveNotes(id, notes);
      showToast(store, 'notesUpdated');
      onSaved(notes);
    } catch (err) {
      showApiError(store, err, 'analysisNotes');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title={t('analysis.notes.title')} onClose={onClose} testId="notes-modal">
      <textarea
        className="notes-editor"
        rows={NOTES_ROWS}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        aria-label={t('analysis.notes.title')}
        aria-invalid={!within}
        data-testid="notes-text"
      />
      <p className={within ? 'muted' : 'form-error'} data-testid="notes-count">
        {t('analysis.notes.count', { count: notesLength(notes), max: NOTES_MAX })}
      </p>
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t('analysis.cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={save} disabled={saving || !within} data-testid="notes-save">
          {t('analysis.notes.save')}
        </button>
      </div>
    </Modal>
  );
}

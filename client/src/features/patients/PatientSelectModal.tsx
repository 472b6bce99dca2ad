//! The searchable patient selection modal (spec §2): the company's patients, filtered as the
//! clinician types; choosing one selects it for the signed-in user on the hub.

import { useStore } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { notify } from '../../lib/notifications';
import { listPatients, patientId, selectPatient, type Patient } from './patientApi';
import { searchPatients } from './patientSearch';

export function PatientSelectModal({
  currentId,
  onClose,
  onSelected,
  onCreate,
  choose = selectPatient,
  title,
  doneKey = 'patients.selectedToast',
}: {
  currentId: string | null;
  /** What choosing does on the hub: select the patient for the user (default), or assign them. */
  choose?: (id: string) => Promise<Patient | null>;
  /** The modal's title, when not the selection's. */
  title?: string;
  /** The success toast's key (its `name` parameter is the patient's). */
  doneKey?: string;
  onClose: () => void;
  onSelected: (patient: Patient) => void;
  onCreate: () => void;
}) {
  const { t } = useTranslation();
  const store = useStore();
  const [patients, setPatients] = useState<Patient[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string | null>(currentId);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    listPatients()
      .then((list) => live && setPatients(list))
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const shown = useMemo(() => searchPatients(patients ?? [], query), [patients, query]);

  const confirm = async () => {
    if (!chosen || saving) return;
    setSaving(true);
    try {
      const selected = (await choose(chosen)) ?? patients?.find((p) => patientId(p) === chosen);
      if (!selected) throw new Error('no patient');
      notify(store, { kind: 'success', key: doneKey, params: { name: selected.name } });
      onSelected(selected);
    } catch {
      notify(store, { kind: 'error', key: 'errorSelectingPatient' });
      setSaving(false);
    }
  };

  return (
    <Modal
      title={title ?? t('patients.selectTitle')}
      onClose={onClose}
      testId="patient-select"
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {t('patients.cancel')}
          </button>
          <button type="button" className="btn btn-primary" disabled={!chosen || saving} onClick={confirm} data-testid="patient-select-confirm">
            {t('patients.selectConfirm')}
          </button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="patient-search">{t('patients.search')}</label>
        <input
          id="patient-search"
          type="search"
          placeholder={t('patients.searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
        />
      </div>
      {loadFailed ? (
        <div className="form-error" role="alert">
          {t('patients.loadFailed')}
        </div>
      ) : patients === null ? (
        <p className="muted">{t('patients.loading')}</p>
      ) : patients.length === 0 ? (
        <div className="patient-empty">
          <p className="muted">{t('createPatient')}</p>
          <button type="button" className="btn btn-primary" onClick={onCreate}>
            {t('patients.new')}
          </button>
        </div>
      ) : shown.length === 0 ? (
        <p className="muted">{t('patients.noMatch')}</p>
      ) : (
        <ul className="patient-options" role="listbox" aria-label={t('patients.selectTitle')} data-testid="patient-options">
          {shown.map((p) => {
            const id = patientId(p);
            return (
              <li
                key={id}
                role="option"
                aria-selected={chosen === id}
                tabIndex={0}
                className={`patient-option ${chosen === id ? 'chosen' : ''}`}
                onClick={() => setChosen(id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    setChosen(id);
                  }
                }}
              >
                <span className="patient-option-name">{p.name}</span>
                <span className="muted">{t('patients.summary', { height: p.height, weight: p.weight })}</span>
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
}

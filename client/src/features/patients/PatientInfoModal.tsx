//! The read-only patient info modal (spec §2): every field of spec §3, unset ones blank; the
//! patient's data as one file, and for administrators their deletion after a confirmation (issue
//! 22: the analyses are erased and the devices released with them, audited by the hub).

import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { apiFetch } from '../../lib/api';
import { analysesVersionAtom } from '../../lib/clinicalContext';
import { notify } from '../../lib/notifications';
import { saveBlob } from '../../lib/saveFile';
import { isAdminAtom } from '../../lib/session';
import { deletePatient, patientDataPath, patientId, type Patient } from './patientApi';
import { formatBirthDate } from '../../lib/format';
import { shownValue } from './patientForm';

const FIELDS = [
  'weight',
  'height',
  'birthDate',
  'gender',
  'email',
  'phone',
  'phone2',
  'size',
  'healthIns',
  'medicalCond',
  'profession',
  'address',
  'postalCode',
  'country',
  'notes',
] as const;

export function PatientInfoModal({ patient, onClose, onDeleted }: { patient: Patient; onClose: () => void; onDeleted?: () => void }) {
  const { t, i18n } = useTranslation();
  const store = useStore();
  const isAdmin = useAtomValue(isAdminAtom);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = patientId(patient);

  const download = async () => {
    try {
      const data = await apiFetch<unknown>(patientDataPath(id));
      const safe = patient.name.replace(/[^A-Za-z0-9-]/g, '_');
      saveBlob(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), `patient_${safe}_${id}.json`);
      notify(store, { kind: 'success', key: 'patientData.downloaded' });
    } catch {
      notify(store, { kind: 'error', key: 'patientData.downloadFailed' });
    }
  };

  const erase = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await deletePatient(id);
      notify(store, { kind: 'success', key: 'patientData.deleted', params: { name: patient.name, count: answer.analyses } });
      store.set(analysesVersionAtom, (v) => v + 1);
      onDeleted?.();
      onClose();
    } catch {
      notify(store, { kind: 'error', key: 'patientData.deleteFailed' });
      setBusy(false);
    }
  };

  if (confirming) {
    return (
      <Modal
        title={t('patientData.confirmTitle', { name: patient.name })}
        onClose={() => setConfirming(false)}
        testId="patient-delete-confirm"
        footer={
          <>
            <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>
              {t('patientData.cancel')}
            </button>
            <button type="button" className="btn btn-danger" disabled={busy} onClick={erase} data-testid="patient-delete-confirm-button">
              {t('patientData.confirm')}
            </button>
          </>
        }
      >
        <p>{t('patientData.confirmText')}</p>
      </Modal>
    );
  }
  const value = (field: (typeof FIELDS)[number]): string => {
    switch (field) {
      case 'birthDate':
        return typeof patient.birthDate === 'number' ? formatBirthDate(patient.birthDate, i18n.resolvedLanguage ?? i18n.language) : '';
      case 'gender':
        return patient.gender === 'Male' || patient.gender === 'Female' ? t(`patients.gender.${patient.gender}`) : '';
      default:
        return shownValue(patient[field]);
    }
  };
  return (
    <Modal
      title={patient.name}
      onClose={onClose}
      testId="patient-info"
      footer={
        <>
          {isAdmin ? (
            <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)} data-testid="patient-delete">
              {t('patientData.delete')}
            </button>
          ) : null}
          <button type="button" className="btn" onClick={download} data-testid="patient-data-download">
            {t('patientData.download')}
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t('patients.close')}
          </button>
        </>
      }
    >
      <dl className="patient-info">
        {FIELDS.map((field) => (
          <div key={field} className="patient-info-row">
            <dt>{t(`patients.fields.${field}`)}</dt>
            <dd data-testid={`patient-info-${field}`}>{value(field)}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}

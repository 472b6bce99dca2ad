//! The read-only patient info modal (spec §2): every field of spec §3, unset ones blank.

import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { formatBirthDate } from '../../lib/format';
import type { Patient } from './patientApi';
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

export function PatientInfoModal({ patient, onClose }: { patient: Patient; onClose: () => void }) {
  const { t, i18n } = useTranslation();
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
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {t('patients.close')}
        </button>
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

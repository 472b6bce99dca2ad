//! The patient form modal (spec §2, §3, §5): registration or edit. Every rule is checked in the
//! browser first; the hub's answer is mapped back the same way. Save creates or updates; close
//! discards what was typed.

import { DateField } from '../../components/DateField';
import { useStore } from 'jotai';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { ApiError } from '../../lib/api';
import { showToast } from '../../lib/messages';
import { notify } from '../../lib/notifications';
import { createPatient, patientId, updatePatient, type Patient } from './patientApi';
import {
  EMPTY_PATIENT_FORM,
  errorFromHub,
  formFromPatient,
  localToday,
  PATIENT_LIMITS,
  patientBody,
  validatePatientForm,
  type PatientField,
  type PatientFormError,
  type PatientFormMode,
  type PatientFormValues,
} from './patientForm';

const TEXT_FIELDS: ReadonlyArray<{ field: PatientField; type?: string; inputMode?: 'decimal' | 'tel' | 'email' }> = [
  { field: 'email', type: 'email', inputMode: 'email' },
  { field: 'phone', type: 'tel', inputMode: 'tel' },
  { field: 'phone2', type: 'tel', inputMode: 'tel' },
  { field: 'size', inputMode: 'decimal' },
  { field: 'healthIns' },
  { field: 'medicalCond' },
  { field: 'profession' },
  { field: 'address' },
  { field: 'postalCode' },
  { field: 'country' },
];

export function PatientFormModal({
  mode,
  patient,
  onClose,
  onSaved,
}: {
  mode: PatientFormMode;
  /** The patient being edited (edit mode). */
  patient?: Patient | null;
  onClose: () => void;
  onSaved: (patient: Patient) => void;
}) {
  const { t } = useTranslation();
  const store = useStore();
  const [values, setValues] = useState<PatientFormValues>(() => (mode === 'edit' && patient ? formFromPatient(patient) : EMPTY_PATIENT_FORM));
  const [errors, setErrors] = useState<PatientFormError[]>([]);
  const [saving, setSaving] = useState(false);
  const today = localToday();

  const set = <K extends PatientField>(field: K, value: PatientFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((list) => list.filter((e) => e.field !== field));
  };

  /** Shows every problem at once, at its field, and each distinct toast once. */
  const show = (list: PatientFormError[]) => {
    setErrors(list);
    for (const toast of new Set(list.map((e) => e.toast))) if (toast) notify(store, { kind: 'error', key: toast });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const problems = validatePatientForm(values, mode, today);
    if (problems.length > 0) return show(problems);
    setSaving(true);
    try {
      const body = patientBody(values, mode);
      const saved = mode === 'create' ? await createPatient(body) : await updatePatient(patient ? patientId(patient) : '', body);
      showToast(store, mode === 'create' ? 'patientCreated' : 'patientUpdated');
      onSaved(saved);
    } catch (err) {
      show([errorFromHub(err instanceof ApiError ? err.code : 'network', mode)]);
      setSaving(false);
    }
  };

  const fieldError = (field: PatientField) => errors.find((e) => e.field === field) ?? null;
  const formError = errors.find((e) => !e.field) ?? null;
  const errorText = (e: PatientFormError) => t(e.message, e.params);

  const field = (name: PatientField, label: ReactNode, input: ReactNode, extraClass = '') => {
    const e = fieldError(name);
    return (
      <div className={`field ${extraClass} ${e ? 'field-invalid' : ''}`} key={name}>
        <label htmlFor={`patient-${name}`}>{label}</label>
        {input}
        {e ? (
          <span className="field-error" role="alert" data-testid={`patient-error-${name}`}>
            {errorText(e)}
          </span>
        ) : null}
      </div>
    );
  };

  const textInput = (name: PatientField, opts: { type?: string; inputMode?: 'decimal' | 'tel' | 'email'; required?: boolean } = {}) => (
    <input
      id={`patient-${name}`}
      name={name}
      type={opts.type ?? 'text'}
      inputMode={opts.inputMode}
      required={opts.required}
      aria-required={opts.required}
      aria-invalid={fieldError(name) ? true : undefined}
      value={values[name] as string}
      onChange={(e) => set(name, e.target.value as never)}
    />
  );

  const required = (label: string) => (
    <>
      {label} <span className="required-mark" aria-hidden="true">*</span>
    </>
  );

  const notesLength = [...values.notes].length;

  return (
    <Modal
      title={mode === 'create' ? t('patients.newTitle') : t('patients.editTitle')}
      onClose={onClose}
      testId="patient-form"
      className="modal-wide"
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {t('patients.cancel')}
          </button>
          <button type="submit" form="patient-form" className="btn btn-primary" disabled={saving} data-testid="patient-save">
            {saving ? t('patients.saving') : t('patients.save')}
          </button>
        </>
      }
    >
      <form id="patient-form" className="patient-form" noValidate onSubmit={submit}>
        {formError ? (
          <div className="form-error" role="alert" data-testid="patient-form-error">
            {errorText(formError)}
          </div>
        ) : null}
        <div className="patient-form-grid">
          {field('name', required(t('patients.fields.name')), textInput('name', { required: true }), 'field-wide')}
          {field('weight', required(t('patients.fields.weight')), textInput('weight', { inputMode: 'decimal', required: true }))}
          {field('height', required(t('patients.fields.height')), textInput('height', { inputMode: 'decimal', required: true }))}
          {field(
            'birthDate',
            t('patients.fields.birthDate'),
            <DateField
              id="patient-birthDate"
              name="birthDate"
              max={today}
              invalid={Boolean(fieldError('birthDate'))}
              value={values.birthDate}
              onChange={(value) => set('birthDate', value)}
            />,
          )}
          {field(
            'gender',
            t('patients.fields.gender'),
            <select id="patient-gender" name="gender" value={values.gender} onChange={(e) => set('gender', e.target.value as PatientFormValues['gender'])}>
              <option value="">{t('patients.gender.unset')}</option>
              <option value="Male">{t('patients.gender.Male')}</option>
              <option value="Female">{t('patients.gender.Female')}</option>
            </select>,
          )}
          {TEXT_FIELDS.map(({ field: name, type, inputMode }) => field(name, t(`patients.fields.${name}`), textInput(name, { type, inputMode })))}
          <div className={`field field-wide ${fieldError('notes') ? 'field-invalid' : ''}`}>
            <label htmlFor="patient-notes">{t('patients.fields.notes')}</label>
            <textarea
              id="patient-notes"
              name="notes"
              rows={3}
              aria-invalid={fieldError('notes') ? true : undefined}
              value={values.notes}
              onChange={(e) => set('notes', e.target.value)}
            />
            <span className={`field-counter ${notesLength > PATIENT_LIMITS.notesMax ? 'over' : ''}`} data-testid="patient-notes-count">
              {notesLength}/{PATIENT_LIMITS.notesMax}
            </span>
            {fieldError('notes') ? (
              <span className="field-error" role="alert" data-testid="patient-error-notes">
                {errorText(fieldError('notes') as PatientFormError)}
              </span>
            ) : null}
          </div>
        </div>
        <p className="muted required-note">
          <span className="required-mark" aria-hidden="true">*</span> {t('patients.requiredNote')}
        </p>
        {mode === 'create' ? (
          <label className={`checkbox ${fieldError('agreeDataTreatment') ? 'field-invalid' : ''}`}>
            <input
              type="checkbox"
              name="agreeDataTreatment"
              data-testid="patient-agree"
              checked={values.agreeDataTreatment}
              onChange={(e) => set('agreeDataTreatment', e.target.checked)}
            />
            <span>{t('patients.agreeLabel')}</span>
          </label>
        ) : null}
        {fieldError('agreeDataTreatment') ? (
          <span className="field-error" role="alert" data-testid="patient-error-agreeDataTreatment">
            {t('agreeDataTreatment')}
          </span>
        ) : null}
      </form>
    </Modal>
  );
}

//! The patient form as plain data (spec §3, §5): the values as typed, the browser's checks (the same
//! rules the hub applies, docs/api.md "Validation keys"), the body sent to the hub and the mapping
//! of the hub's error keys back to what the form shows. No React here.

import type { Patient, PatientBody } from './patientApi';

export type PatientFormMode = 'create' | 'edit';

export interface PatientFormValues {
  name: string;
  weight: string;
  height: string;
  /** `YYYY-MM-DD` or empty. */
  birthDate: string;
  notes: string;
  email: string;
  phone: string;
  phone2: string;
  gender: '' | 'Male' | 'Female';
  size: string;
  healthIns: string;
  medicalCond: string;
  profession: string;
  address: string;
  postalCode: string;
  country: string;
  agreeDataTreatment: boolean;
}

export type PatientField = keyof PatientFormValues;

/** Spec §5 and the hub's bounds (docs/api.md `invalidPatientData`). */
export const PATIENT_LIMITS = {
  requiredMinChars: 2,
  notesMax: 154,
  textMax: 200,
  codeMax: 30,
  weightMaxKg: 700,
  heightMaxCm: 300,
  sizeMax: 100,
} as const;

export const EMPTY_PATIENT_FORM: PatientFormValues = {
  name: '',
  weight: '',
  height: '',
  birthDate: '',
  notes: '',
  email: '',
  phone: '',
  phone2: '',
  gender: '',
  size: '',
  healthIns: '',
  medicalCond: '',
  profession: '',
  address: '',
  postalCode: '',
  country: '',
  agreeDataTreatment: false,
};

/**
 * A problem with the form. `toast` is the spec §8 toast key (invalidPatientData, agreeDataTreatment)
 * or null for the two alerts (e-mail, birth date); `message` is what is shown at the field.
 */
export interface PatientFormError {
  field: PatientField | null;
  toast: string | null;
  message: string;
  params?: Record<string, number>;
}

/** Unset values (-1, '-1', null) are shown blank (spec §3). */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value).trim();
  return text === '-1' ? '' : text;
}

const chars = (s: string): number => [...s].length;

/** Unix seconds ↔ `YYYY-MM-DD`, both at midnight UTC, so a date round-trips in every zone. */
export function dateToSeconds(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / 1000);
}

export function secondsToDate(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '';
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** Today in the browser's zone as `YYYY-MM-DD` (the birth date's maximum). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function formFromPatient(p: Patient): PatientFormValues {
  const gender = p.gender === 'Male' || p.gender === 'Female' ? p.gender : '';
  return {
    name: shownValue(p.name),
    weight: shownValue(p.weight),
    height: shownValue(p.height),
    birthDate: secondsToDate(p.birthDate),
    notes: p.notes ?? '',
    email: shownValue(p.email),
    phone: shownValue(p.phone),
    phone2: shownValue(p.phone2),
    gender,
    size: shownValue(p.size),
    healthIns: shownValue(p.healthIns),
    medicalCond: shownValue(p.medicalCond),
    profession: shownValue(p.profession),
    address: shownValue(p.address),
    postalCode: shownValue(p.postalCode),
    country: shownValue(p.country),
    agreeDataTreatment: true,
  };
}

/** A number as typed, with a decimal comma accepted (Spanish format). */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  return Number(t);
}

/** The e-mail pattern the hub applies: local@domain.tld, no spaces, one @. */
export function isEmail(email: string): boolean {
  if (email.length > 254 || /[\s\p{Cc}]/u.test(email)) return false;
  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@') || at > 64) return false;
  const labels = email.slice(at + 1).split('.');
  return labels.length >= 2 && labels.every((l) => /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u.test(l));
}

const invalid = (field: PatientField, message: string, params?: Record<string, number>): PatientFormError => ({
  field,
  toast: 'invalidPatientData',
  message,
  params,
});

function requiredNumber(field: 'weight' | 'height', text: string, max: number): PatientFormError | null {
  if (chars(text.trim()) < PATIENT_LIMITS.requiredMinChars) {
    return invalid(field, 'patients.errors.required', { min: PATIENT_LIMITS.requiredMinChars });
  }
  const n = parseNumber(text);
  if (n === null || n <= 0 || n > max) return invalid(field, 'patients.errors.range', { max });
  return null;
}

const PHONE = /^[0-9+\-(). ]+$/;
const POSTAL = /^[A-Za-z0-9 -]+$/;

/** The first rule the values break, in the hub's order, or null when they may be saved. */
export function validatePatientForm(v: PatientFormValues, mode: PatientFormMode, today: string): PatientFormError | null {
  if (mode === 'create' && !v.agreeDataTreatment) {
    return { field: 'agreeDataTreatment', toast: 'agreeDataTreatment', message: 'agreeDataTreatment' };
  }
  const name = v.name.trim();
  if (chars(name) < PATIENT_LIMITS.requiredMinChars) return invalid('name', 'patients.errors.required', { min: PATIENT_LIMITS.requiredMinChars });
  if (chars(name) > PATIENT_LIMITS.textMax) return invalid('name', 'patients.errors.tooLong', { max: PATIENT_LIMITS.textMax });
  const weight = requiredNumber('weight', v.weight, PATIENT_LIMITS.weightMaxKg);
  if (weight) return weight;
  const height = requiredNumber('height', v.height, PATIENT_LIMITS.heightMaxCm);
  if (height) return height;
  const email = v.email.trim();
  if (email && !isEmail(email)) return { field: 'email', toast: null, message: 'patients.invalidEmail' };
  if (v.birthDate && (!/^\d{4}-\d{2}-\d{2}$/.test(v.birthDate) || Number.isNaN(dateToSeconds(v.birthDate)) || v.birthDate > today)) {
    return { field: 'birthDate', toast: null, message: 'patients.invalidBirthDate' };
  }
  if (chars(v.notes) > PATIENT_LIMITS.notesMax) return invalid('notes', 'patients.errors.tooLong', { max: PATIENT_LIMITS.notesMax });
  if (v.size.trim()) {
    const size = parseNumber(v.size);
    if (size === null || size <= 0 || size >= PATIENT_LIMITS.sizeMax) return invalid('size', 'patients.errors.range', { max: PATIENT_LIMITS.sizeMax });
  }
  for (const field of ['phone', 'phone2'] as const) {
    const t = v[field].trim();
    if (t && (chars(t) > PATIENT_LIMITS.codeMax || !PHONE.test(t))) return invalid(field, 'patients.errors.phone');
  }
  const postal = v.postalCode.trim();
  if (postal && (chars(postal) > PATIENT_LIMITS.codeMax || !POSTAL.test(postal))) return invalid('postalCode', 'patients.errors.postalCode');
  for (const field of ['healthIns', 'medicalCond', 'profession', 'address', 'country'] as const) {
    if (chars(v[field].trim()) > PATIENT_LIMITS.textMax) return invalid(field, 'patients.errors.tooLong', { max: PATIENT_LIMITS.textMax });
  }
  return null;
}

/** The body of POST (create) or PUT (edit). Unset optional fields are left out (the hub stores -1). */
export function patientBody(v: PatientFormValues, mode: PatientFormMode): PatientBody {
  const body: PatientBody = {
    name: v.name.trim(),
    weight: parseNumber(v.weight) ?? v.weight,
    height: parseNumber(v.height) ?? v.height,
    notes: v.notes,
    email: v.email.trim(),
  };
  if (v.birthDate) body.birthDate = dateToSeconds(v.birthDate);
  if (v.gender) body.gender = v.gender;
  const size = parseNumber(v.size);
  if (size !== null) body.size = size;
  for (const field of ['phone', 'phone2', 'postalCode'] as const) if (v[field].trim()) body[field] = v[field].trim();
  for (const field of ['healthIns', 'medicalCond', 'profession', 'address', 'country'] as const) body[field] = v[field].trim();
  if (mode === 'create') body.agreeDataTreatment = v.agreeDataTreatment;
  return body;
}

/** What the form shows for an error answer of the hub (its `error` key, docs/api.md). */
export function errorFromHub(code: string, mode: PatientFormMode): PatientFormError {
  switch (code) {
    case 'invalidPatientData':
      return { field: null, toast: 'invalidPatientData', message: 'invalidPatientData' };
    case 'agreeDataTreatment':
      return { field: 'agreeDataTreatment', toast: 'agreeDataTreatment', message: 'agreeDataTreatment' };
    case 'incorrectEmail':
      return { field: 'email', toast: null, message: 'patients.invalidEmail' };
    case 'invalidBirthDate':
      return { field: 'birthDate', toast: null, message: 'patients.invalidBirthDate' };
    default: {
      const key = mode === 'create' ? 'errorCreatingPatient' : 'errorUpdatingPatient';
      return { field: null, toast: key, message: key };
    }
  }
}

//! The patient form as plain data (spec §3, §5): the values as typed, the browser's checks (the same
//! rules the hub applies, docs/api.md "Validation keys"), the body sent to the hub and the mapping
//! of the hub's error keys back to what the form shows. No React here.

import openapi from '../../api/openapi.json';
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

/** The hub's patient body as its OpenAPI document describes it: the one owner of every limit is
 * `mat_api::patient` (actors/api/src/patient.rs), which writes them into the document. */
const INPUT = openapi.components.schemas.PatientInput.properties;

/** Spec §5 and the hub's plausible ranges, read from the hub's OpenAPI document (docs/decisions.md
 * "Plausible patient values"). */
export const PATIENT_LIMITS = {
  requiredMinChars: INPUT.name.minLength,
  notesMax: INPUT.notes.maxLength,
  textMax: INPUT.name.maxLength,
  codeMax: 30,
  weightMinKg: INPUT.weight.minimum,
  weightMaxKg: INPUT.weight.maximum,
  heightMinCm: INPUT.height.minimum,
  heightMaxCm: INPUT.height.maximum,
  sizeMin: INPUT.size.minimum,
  sizeMax: INPUT.size.maximum,
  postalCodeMinDigits: INPUT.postalCode.minLength,
  postalCodeMaxDigits: INPUT.postalCode.maxLength,
} as const;

// A phone's schema is text of this pattern, or unset (null, or the old app's -1).
const phonePattern = INPUT.phone.anyOf.find((branch) => branch.pattern !== undefined)?.pattern;
if (phonePattern === undefined) throw new Error('the OpenAPI document gives no phone pattern');
const PHONE = new RegExp(phonePattern);
const POSTAL = new RegExp(INPUT.postalCode.pattern);

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
 * A problem with the form. `key` is the hub's error key for the same refusal (each names its
 * field); `toast` is the spec §8 toast key (invalidPatientData, agreeDataTreatment) or null for the
 * two alerts (e-mail, birth date); `message` is what is shown at the field.
 */
export interface PatientFormError {
  field: PatientField | null;
  key: string;
  toast: string | null;
  message: string;
  params?: Record<string, number>;
}

/** The hub's key for each field's refusal (actors/api/src/patient.rs `PatientField::key`). */
export const PATIENT_FIELD_KEYS: Partial<Record<PatientField, string>> = {
  agreeDataTreatment: 'agreeDataTreatment',
  name: 'patientName',
  weight: 'patientWeight',
  height: 'patientHeight',
  email: 'incorrectEmail',
  birthDate: 'invalidBirthDate',
  notes: 'patientNotes',
  gender: 'patientGender',
  size: 'patientSize',
  phone: 'patientPhone',
  phone2: 'patientPhone2',
  postalCode: 'patientPostalCode',
  healthIns: 'patientHealthIns',
  medicalCond: 'patientMedicalCond',
  profession: 'patientProfession',
  address: 'patientAddress',
  country: 'patientCountry',
};

/** What each key says at its field (i18n keys). */
const MESSAGES: Record<string, string> = {
  patientName: 'patients.errors.name',
  patientWeight: 'patients.errors.weight',
  patientHeight: 'patients.errors.height',
  patientNotes: 'patients.errors.tooLong',
  patientGender: 'patients.errors.gender',
  patientSize: 'patients.errors.size',
  patientPhone: 'patients.errors.phone',
  patientPhone2: 'patients.errors.phone',
  patientPostalCode: 'patients.errors.postalCode',
  patientHealthIns: 'patients.errors.tooLong',
  patientMedicalCond: 'patients.errors.tooLong',
  patientProfession: 'patients.errors.tooLong',
  patientAddress: 'patients.errors.tooLong',
  patientCountry: 'patients.errors.tooLong',
};

/** The parameters each field's message shows (its limits). */
function paramsOf(field: PatientField): Record<string, number> | undefined {
  const L = PATIENT_LIMITS;
  switch (field) {
    case 'name':
      return { min: L.requiredMinChars, max: L.textMax };
    case 'weight':
      return { min: L.weightMinKg, max: L.weightMaxKg };
    case 'height':
      return { min: L.heightMinCm, max: L.heightMaxCm };
    case 'notes':
      return { max: L.notesMax };
    case 'size':
      return { min: L.sizeMin, max: L.sizeMax };
    case 'phone':
    case 'phone2':
      return { max: L.codeMax };
    case 'postalCode':
      return { min: L.postalCodeMinDigits, max: L.postalCodeMaxDigits };
    case 'healthIns':
    case 'medicalCond':
    case 'profession':
    case 'address':
    case 'country':
      return { max: L.textMax };
    default:
      return undefined;
  }
}

/** The problem the hub's key (or the form's own check) names at `field`. */
export function problemAt(field: PatientField): PatientFormError {
  const key = PATIENT_FIELD_KEYS[field] ?? 'invalidPatientData';
  switch (key) {
    case 'agreeDataTreatment':
      return { field, key, toast: 'agreeDataTreatment', message: 'agreeDataTreatment' };
    case 'incorrectEmail':
      return { field, key, toast: null, message: 'patients.invalidEmail' };
    case 'invalidBirthDate':
      return { field, key, toast: null, message: 'patients.invalidBirthDate' };
    default:
      return { field, key, toast: 'invalidPatientData', message: MESSAGES[key] ?? 'invalidPatientData', params: paramsOf(field) };
  }
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

/** A number as typed, with a decimal comma or point (either, in every language: weights and heights
 * have no thousands, so "68,5" and "68.5" are both 68.5). */
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

const inRange = (n: number | null, min: number, max: number): boolean => n !== null && n >= min && n <= max;

/** Every rule the values break, in the form's order (all shown at once), or an empty list when
 * they may be saved. The hub applies the same rules with the same keys. */
export function validatePatientForm(v: PatientFormValues, mode: PatientFormMode, today: string): PatientFormError[] {
  const L = PATIENT_LIMITS;
  const broken: PatientField[] = [];
  const name = chars(v.name.trim());
  if (name < L.requiredMinChars || name > L.textMax) broken.push('name');
  if (!inRange(parseNumber(v.weight), L.weightMinKg, L.weightMaxKg)) broken.push('weight');
  if (!inRange(parseNumber(v.height), L.heightMinCm, L.heightMaxCm)) broken.push('height');
  if (v.birthDate && (!/^\d{4}-\d{2}-\d{2}$/.test(v.birthDate) || Number.isNaN(dateToSeconds(v.birthDate)) || v.birthDate > today)) {
    broken.push('birthDate');
  }
  const email = v.email.trim();
  if (email && !isEmail(email)) broken.push('email');
  for (const field of ['phone', 'phone2'] as const) {
    const t = v[field].trim();
    if (t && (chars(t) > L.codeMax || !PHONE.test(t))) broken.push(field);
  }
  if (v.size.trim() && !inRange(parseNumber(v.size), L.sizeMin, L.sizeMax)) broken.push('size');
  for (const field of ['healthIns', 'medicalCond', 'profession', 'address'] as const) {
    if (chars(v[field].trim()) > L.textMax) broken.push(field);
  }
  const postal = v.postalCode.trim();
  if (postal && postal !== '-1' && !POSTAL.test(postal)) broken.push('postalCode');
  if (chars(v.country.trim()) > L.textMax) broken.push('country');
  if (chars(v.notes) > L.notesMax) broken.push('notes');
  if (mode === 'create' && !v.agreeDataTreatment) broken.push('agreeDataTreatment');
  return broken.map(problemAt);
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

/** What the form shows for an error answer of the hub (its `error` key names the field). */
export function errorFromHub(code: string, mode: PatientFormMode): PatientFormError {
  const field = (Object.keys(PATIENT_FIELD_KEYS) as PatientField[]).find((f) => PATIENT_FIELD_KEYS[f] === code);
  if (field) return problemAt(field);
  if (code === 'invalidPatientData') return { field: null, key: code, toast: code, message: code };
  const key = mode === 'create' ? 'errorCreatingPatient' : 'errorUpdatingPatient';
  return { field: null, key, toast: key, message: key };
}

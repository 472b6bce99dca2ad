import { describe, expect, it } from 'vitest';
import type { Patient } from './patientApi';
import {
  EMPTY_PATIENT_FORM,
  errorFromHub,
  formFromPatient,
  isEmail,
  localToday,
  patientBody,
  shownValue,
  validatePatientForm,
  type PatientFormValues,
} from './patientForm';

const TODAY = '2026-11-23';
const valid: PatientFormValues = { ...EMPTY_PATIENT_FORM, name: 'Ana', weight: '70', height: '172', agreeDataTreatment: true };
const check = (change: Partial<PatientFormValues>, mode: 'create' | 'edit' = 'create') => validatePatientForm({ ...valid, ...change }, mode, TODAY);
const field = (change: Partial<PatientFormValues>, mode: 'create' | 'edit' = 'create') => check(change, mode)?.field ?? 'ok';

describe('patient form rules (spec §5)', () => {
  it('a minimal patient passes', () => {
    expect(check({})).toBeNull();
  });

  it('registration needs the data-treatment agreement (toast agreeDataTreatment); edit does not ask it', () => {
    expect(check({ agreeDataTreatment: false })).toMatchObject({ field: 'agreeDataTreatment', toast: 'agreeDataTreatment' });
    expect(check({ agreeDataTreatment: false }, 'edit')).toBeNull();
  });

  it('name at least 2 characters as typed (trimmed), at most 200', () => {
    expect(check({ name: 'A' })).toMatchObject({ field: 'name', toast: 'invalidPatientData' });
    expect(field({ name: ' A ' })).toBe('name');
    expect(field({ name: 'Al' })).toBe('ok');
    expect(field({ name: 'x'.repeat(200) })).toBe('ok');
    expect(field({ name: 'x'.repeat(201) })).toBe('name');
  });

  it('weight: at least 2 characters, a number above 0 and up to 700 kg; a decimal comma is accepted', () => {
    expect(field({ weight: '' })).toBe('weight');
    expect(field({ weight: '9' })).toBe('weight');
    expect(field({ weight: '10' })).toBe('ok');
    expect(field({ weight: '00' })).toBe('weight');
    expect(field({ weight: 'ab' })).toBe('weight');
    expect(field({ weight: '700' })).toBe('ok');
    expect(field({ weight: '700,1' })).toBe('weight');
    expect(field({ weight: '68,5' })).toBe('ok');
    expect(check({ weight: '9' })?.toast).toBe('invalidPatientData');
  });

  it('height: at least 2 characters, up to 300 cm', () => {
    expect(field({ height: '9' })).toBe('height');
    expect(field({ height: '10' })).toBe('ok');
    expect(field({ height: '300' })).toBe('ok');
    expect(field({ height: '301' })).toBe('height');
  });

  it('a non-empty e-mail must be an address: the alert, no toast', () => {
    expect(field({ email: '' })).toBe('ok');
    expect(field({ email: 'ana@clinic.es' })).toBe('ok');
    expect(check({ email: 'ana@clinic' })).toEqual({ field: 'email', toast: null, message: 'patients.invalidEmail' });
    for (const bad of ['a', 'a@', '@b.co', 'a b@c.co', 'a@@b.co', 'a@b..co']) expect(isEmail(bad), bad).toBe(false);
    expect(isEmail('jose@correo.españa.es')).toBe(true);
  });

  it('birth date at most today: tomorrow gives the alert', () => {
    expect(field({ birthDate: TODAY })).toBe('ok');
    expect(check({ birthDate: '2026-11-24' })).toEqual({ field: 'birthDate', toast: null, message: 'patients.invalidBirthDate' });
    expect(field({ birthDate: '1961-04-12' })).toBe('ok');
  });

  it('notes at most 154 characters (counted as characters, not bytes)', () => {
    expect(field({ notes: 'ñ'.repeat(154) })).toBe('ok');
    expect(field({ notes: 'n'.repeat(155) })).toBe('notes');
    expect(check({ notes: 'n'.repeat(155) })).toMatchObject({ toast: 'invalidPatientData', params: { max: 154 } });
  });

  it('phones: digits, spaces and + - ( ) . up to 30; postal codes letters, digits, space, -', () => {
    expect(field({ phone: '+34 (600) 123-456' })).toBe('ok');
    expect(field({ phone: 'call me' })).toBe('phone');
    expect(field({ phone2: '1'.repeat(31) })).toBe('phone2');
    expect(field({ postalCode: '08001' })).toBe('ok');
    expect(field({ postalCode: 'SW1A 1AA' })).toBe('ok');
    expect(field({ postalCode: '08001!' })).toBe('postalCode');
  });

  it('shoe size: empty, or above 0 and below 100', () => {
    expect(field({ size: '' })).toBe('ok');
    expect(field({ size: '42' })).toBe('ok');
    expect(field({ size: '0' })).toBe('size');
    expect(field({ size: '100' })).toBe('size');
  });

  it('other texts at most 200 characters', () => {
    expect(field({ address: 'x'.repeat(200) })).toBe('ok');
    expect(field({ address: 'x'.repeat(201) })).toBe('address');
  });
});

describe('patient body and display', () => {
  it('sends weight and height as numbers, the birth date as Unix seconds, leaves unset codes out', () => {
    const body = patientBody({ ...valid, weight: '68,5', birthDate: '1961-04-12', gender: 'Female', phone: ' ' }, 'create');
    expect(body).toMatchObject({ name: 'Ana', weight: 68.5, height: 172, birthDate: Date.UTC(1961, 3, 12) / 1000, gender: 'Female', agreeDataTreatment: true });
    expect(body).not.toHaveProperty('phone');
    expect(body).not.toHaveProperty('postalCode');
    expect(body).not.toHaveProperty('size');
    expect(patientBody(valid, 'edit')).not.toHaveProperty('agreeDataTreatment');
    expect(patientBody(valid, 'edit')).not.toHaveProperty('gender');
  });

  it('shows unset phone, phone2, size and postal code (-1 or "-1") blank', () => {
    // An older record: fields missing and phone2 stored as a number.
    const p = { _id: { $oid: 'p1' }, name: 'Ana', weight: 70, height: 172, phone: '-1', phone2: -1, size: -1, postalCode: '-1', birthDate: Date.UTC(1961, 3, 12) / 1000 } as unknown as Patient;
    const form = formFromPatient(p);
    expect([form.phone, form.phone2, form.size, form.postalCode]).toEqual(['', '', '', '']);
    expect(form.birthDate).toBe('1961-04-12');
    expect(form.weight).toBe('70');
    expect(shownValue('08001')).toBe('08001');
  });

  it('maps the hub error keys to the toast or alert the form shows', () => {
    expect(errorFromHub('invalidPatientData', 'create')).toMatchObject({ toast: 'invalidPatientData' });
    expect(errorFromHub('agreeDataTreatment', 'create')).toMatchObject({ toast: 'agreeDataTreatment', field: 'agreeDataTreatment' });
    expect(errorFromHub('incorrectEmail', 'edit')).toMatchObject({ toast: null, field: 'email', message: 'patients.invalidEmail' });
    expect(errorFromHub('invalidBirthDate', 'edit')).toMatchObject({ toast: null, field: 'birthDate', message: 'patients.invalidBirthDate' });
    expect(errorFromHub('http500', 'create').toast).toBe('errorCreatingPatient');
    expect(errorFromHub('notFound', 'edit').toast).toBe('errorUpdatingPatient');
  });

  it('today is the local calendar date', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});

import { describe, expect, it } from 'vitest';
import type { Patient } from './patientApi';
import {
  EMPTY_PATIENT_FORM,
  errorFromHub,
  formFromPatient,
  isEmail,
  localToday,
  PATIENT_LIMITS,
  patientBody,
  shownValue,
  validatePatientForm,
  type PatientFormValues,
} from './patientForm';

const TODAY = '2026-11-23';
const valid: PatientFormValues = { ...EMPTY_PATIENT_FORM, name: 'Ana', weight: '70', height: '172', agreeDataTreatment: true };
const check = (change: Partial<PatientFormValues>, mode: 'create' | 'edit' = 'create') => validatePatientForm({ ...valid, ...change }, mode, TODAY);
/** The fields the values break, or 'ok'. */
const field = (change: Partial<PatientFormValues>, mode: 'create' | 'edit' = 'create') => check(change, mode).map((e) => e.field).join(',') || 'ok';

describe('patient form rules (spec §5, issue 22)', () => {
  it('a minimal patient passes', () => {
    expect(check({})).toEqual([]);
  });

  it('the limits are the hub’s, read from its OpenAPI document', () => {
    expect(PATIENT_LIMITS).toMatchObject({ requiredMinChars: 2, textMax: 200, notesMax: 154, weightMinKg: 2, weightMaxKg: 450, heightMinCm: 45, heightMaxCm: 250 });
    expect([PATIENT_LIMITS.postalCodeMinDigits, PATIENT_LIMITS.postalCodeMaxDigits]).toEqual([3, 10]);
  });

  it('registration needs the data-treatment agreement (toast agreeDataTreatment); edit does not ask it', () => {
    expect(check({ agreeDataTreatment: false })).toEqual([expect.objectContaining({ field: 'agreeDataTreatment', key: 'agreeDataTreatment', toast: 'agreeDataTreatment' })]);
    expect(check({ agreeDataTreatment: false }, 'edit')).toEqual([]);
  });

  it('every field’s problem is reported at once, each with the hub’s key, the agreement too', () => {
    const all = check({ name: 'A', weight: '6000', height: '1,65', postalCode: 'ABC', notes: 'n'.repeat(155), size: '0', agreeDataTreatment: false });
    expect(all.map((e) => e.key)).toEqual(['patientName', 'patientWeight', 'patientHeight', 'patientSize', 'patientPostalCode', 'patientNotes', 'agreeDataTreatment']);
    expect(all.find((e) => e.field === 'height')).toMatchObject({ toast: 'invalidPatientData', message: 'patients.errors.height', params: { min: 45, max: 250 } });
    expect(all.find((e) => e.field === 'notes')).toMatchObject({ message: 'patients.errors.tooLong', params: { max: 154 } });
  });

  it('name: 2 to 200 characters as typed (trimmed)', () => {
    expect(check({ name: 'A' })).toEqual([expect.objectContaining({ field: 'name', key: 'patientName', toast: 'invalidPatientData' })]);
    expect(field({ name: ' A ' })).toBe('name');
    expect(field({ name: 'Al' })).toBe('ok');
    expect(field({ name: 'x'.repeat(200) })).toBe('ok');
    expect(field({ name: 'x'.repeat(201) })).toBe('name');
  });

  it('weight: 2 to 450 kg, a decimal comma or point', () => {
    expect(field({ weight: '' })).toBe('weight');
    expect(field({ weight: '6' })).toBe('ok');
    expect(field({ weight: '1,9' })).toBe('weight');
    expect(field({ weight: 'ab' })).toBe('weight');
    expect(field({ weight: '450' })).toBe('ok');
    expect(field({ weight: '450,1' })).toBe('weight');
    expect(field({ weight: '68,5' })).toBe('ok');
    expect(field({ weight: '68.5' })).toBe('ok');
  });

  it('height: 45 to 250 cm, so a height in metres is refused', () => {
    expect(field({ height: '1,65' })).toBe('height');
    expect(field({ height: '1.65' })).toBe('height');
    expect(field({ height: '45' })).toBe('ok');
    expect(field({ height: '165,5' })).toBe('ok');
    expect(field({ height: '250' })).toBe('ok');
    expect(field({ height: '251' })).toBe('height');
  });

  it('a non-empty e-mail must be an address: the alert, no toast', () => {
    expect(field({ email: '' })).toBe('ok');
    expect(field({ email: 'ana@clinic.es' })).toBe('ok');
    expect(check({ email: 'ana@clinic' })).toEqual([{ field: 'email', key: 'incorrectEmail', toast: null, message: 'patients.invalidEmail' }]);
    for (const bad of ['a', 'a@', '@b.co', 'a b@c.co', 'a@@b.co', 'a@b..co']) expect(isEmail(bad), bad).toBe(false);
    expect(isEmail('jose@correo.españa.es')).toBe(true);
  });

  it('birth date at most today: tomorrow gives the alert', () => {
    expect(field({ birthDate: TODAY })).toBe('ok');
    expect(check({ birthDate: '2026-11-24' })).toEqual([{ field: 'birthDate', key: 'invalidBirthDate', toast: null, message: 'patients.invalidBirthDate' }]);
    expect(field({ birthDate: '1961-04-12' })).toBe('ok');
  });

  it('notes at most 154 characters (counted as characters, not bytes)', () => {
    expect(field({ notes: 'ñ'.repeat(154) })).toBe('ok');
    expect(field({ notes: 'n'.repeat(155) })).toBe('notes');
  });

  it('phones: digits, spaces and + - ( ) . up to 30; postal codes 3 to 10 digits (spec §3: a number)', () => {
    expect(field({ phone: '+34 (600) 123-456' })).toBe('ok');
    expect(field({ phone: 'call me' })).toBe('phone');
    expect(field({ phone2: '1'.repeat(31) })).toBe('phone2');
    expect(field({ postalCode: '08001' })).toBe('ok');
    for (const bad of ['ABC', 'SW1A 1AA', '12', '12345678901']) expect(field({ postalCode: bad }), bad).toBe('postalCode');
  });

  it('shoe size: empty, or 1 to 99', () => {
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

  it('maps the hub error keys to the field, toast or alert the form shows', () => {
    expect(errorFromHub('invalidPatientData', 'create')).toMatchObject({ toast: 'invalidPatientData' });
    expect(errorFromHub('patientHeight', 'create')).toMatchObject({ field: 'height', toast: 'invalidPatientData', message: 'patients.errors.height' });
    expect(errorFromHub('patientPostalCode', 'edit')).toMatchObject({ field: 'postalCode', params: { min: 3, max: 10 } });
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

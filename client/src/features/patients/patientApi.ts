//! The patient calls of docs/api.md: the company's patients, create, edit, and the caller's
//! selected patient. `{userId}` is the signed-in user (local storage `userId`).

import type { BedsidePatient, PatientDeleted, PatientJson, SelectedPatientAnswer } from '../../api/types';
import { apiFetch, oidOf } from '../../lib/api';
import { STORAGE } from '../../lib/storageKeys';

/** A patient as the hub returns it (spec §3). Unset phone, phone2, postalCode are '-1', size -1. */
export type Patient = PatientJson;

/** What POST and PUT take: the fields of spec §3, numbers as numbers, unset ones absent. */
export type PatientBody = Record<string, string | number | boolean>;

const userId = (): string => encodeURIComponent(localStorage.getItem(STORAGE.userId) ?? '');

export const patientId = (p: Patient): string => oidOf(p._id) ?? '';

export const listPatients = (): Promise<Patient[]> => apiFetch<Patient[]>(`/api/podometry/patients/${userId()}`);

export const createPatient = (body: PatientBody): Promise<Patient> =>
  apiFetch<Patient>(`/api/podometry/patients/${userId()}`, { method: 'POST', body: JSON.stringify(body) });

export const updatePatient = (id: string, body: PatientBody): Promise<Patient> =>
  apiFetch<Patient>(`/api/podometry/patient/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(body) });

type SelectionAnswer = SelectedPatientAnswer;

export const fetchSelectedPatient = async (): Promise<Patient | null> =>
  (await apiFetch<SelectionAnswer>(`/api/podometry/patient/select/${userId()}`)).patient;

export const selectPatient = async (id: string): Promise<Patient | null> =>
  (
    await apiFetch<SelectionAnswer>(`/api/podometry/patient/select/${userId()}`, {
      method: 'PUT',
      body: JSON.stringify({ patientId: id }),
    })
  ).patient;

/** Puts a patient at a bed, seat or room set (`null` releases it). */
export const setBedsidePatient = (deviceId: string, id: string | null): Promise<BedsidePatient> =>
  apiFetch<BedsidePatient>(`/api/device/${encodeURIComponent(deviceId)}/patient`, {
    method: 'PUT',
    body: JSON.stringify({ patientId: id }),
  });

/** Deletes a patient with their analyses (administrators). */
export const deletePatient = (id: string): Promise<PatientDeleted> =>
  apiFetch<PatientDeleted>(`/api/podometry/patient/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** The path of a patient's data file. */
export const patientDataPath = (id: string): string => `/api/podometry/patient/${encodeURIComponent(id)}/data`;

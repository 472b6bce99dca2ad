//! The signed-in user's selected patient: the full record here (for edit and info), the summary in
//! the shared `selectedPatientAtom` that captures and history read.

import { atom } from 'jotai';
import { selectedPatientAtom } from '../../lib/clinicalContext';
import type { AppStore } from '../../lib/devicesStore';
import { patientId, type Patient } from './patientApi';

export const selectedPatientRecordAtom = atom<Patient | null>(null);

/** 'loading' until the hub has said which patient is selected; 'failed' if it could not. */
export const selectionLoadAtom = atom<'loading' | 'ready' | 'failed'>('loading');

export function applySelection(store: AppStore, patient: Patient | null): void {
  store.set(selectedPatientRecordAtom, patient);
  store.set(
    selectedPatientAtom,
    patient ? { id: patientId(patient), name: patient.name, height: patient.height, weight: patient.weight } : null,
  );
}

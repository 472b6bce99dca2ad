//! The signed-in user's selected patient: the full record here (for edit and info), the summary in
//! the shared `selectedPatientAtom` that captures and history read.

import { atom } from 'jotai';
import { selectedPatientAtom } from '../../lib/clinicalContext';
import type { AppStore } from '../../lib/devicesStore';
import { STORAGE } from '../../lib/storageKeys';
import { patientId, type Patient } from './patientApi';

export const selectedPatientRecordAtom = atom<Patient | null>(null);

/** 'loading' until the hub has said which patient is selected; 'failed' if it could not. */
export const selectionLoadAtom = atom<'loading' | 'ready' | 'failed'>('loading');

/** The user the selection above belongs to: another user signing in on this browser starts empty. */
const selectionOwnerAtom = atom<string | null>(null);

const currentUser = (): string | null => localStorage.getItem(STORAGE.userId);

/** Forgets a selection made by another user of this browser (before the hub says the current one). */
export function forgetOtherUsersSelection(store: AppStore): void {
  if (store.get(selectionOwnerAtom) !== currentUser()) applySelection(store, null);
}

export function applySelection(store: AppStore, patient: Patient | null): void {
  store.set(selectionOwnerAtom, currentUser());
  store.set(selectedPatientRecordAtom, patient);
  store.set(
    selectedPatientAtom,
    patient ? { id: patientId(patient), name: patient.name, height: patient.height, weight: patient.weight } : null,
  );
}

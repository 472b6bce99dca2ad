//! Shared clinical state, written by one feature and read by others (they do not import each other):
//! - `selectedPatientAtom` — the caller's selected patient; written by the patients feature from
//!   `GET /api/podometry/patient/select/{userId}` and every selection, read by captures and history;
//! - `bedsidePatientsAtom` — the patient at each bed, seat or room set (the device's own, issue 22),
//!   by device id; written by the patients feature's bedside panel, read by captures: a capture on
//!   a device with a patient at its bedside is that patient's, otherwise the user's selection's;
//! - `analysesVersionAtom` — bumped when the stored analyses change (a capture's `resultsDue`, a
//!   deletion), so history views refetch.

import { atom } from 'jotai';

export interface SelectedPatient {
  id: string;
  name: string;
  height?: number;
  weight?: number;
}

export const selectedPatientAtom = atom<SelectedPatient | null>(null);

export const analysesVersionAtom = atom(0);

/** The patient at each bed, seat or room set the browser has shown, by device id (`null`: free). */
export const bedsidePatientsAtom = atom<Record<string, SelectedPatient | null>>({});

type Getter = { get: <V>(a: import('jotai').Atom<V>) => V };

/** Whose capture a capture on `deviceId` is: the patient at its bedside if one is assigned, else the
 * signed-in user's selected patient (spec §7: plates follow each clinician's selection). */
export function capturePatient(store: Getter, deviceId: string): SelectedPatient | null {
  return store.get(bedsidePatientsAtom)[deviceId] ?? store.get(selectedPatientAtom);
}

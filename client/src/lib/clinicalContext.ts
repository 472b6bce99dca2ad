//! Shared clinical state, written by one feature and read by others (they do not import each other):
//! - `selectedPatientAtom` — the caller's selected patient; written by the patients feature from
//!   `GET /api/podometry/patient/select/{userId}` and every selection, read by captures and history;
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

//! Searching patients by what a clinician types: name, e-mail or phone, ignoring case and accents.

import { shownValue } from './patientForm';
import type { Patient } from './patientApi';

const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase();

export function matchesPatient(p: Patient, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold([p.name, shownValue(p.email), shownValue(p.phone), shownValue(p.phone2)].join(' '));
  return words.every((w) => haystack.includes(w));
}

/** Matching patients, by name. */
export function searchPatients(patients: Patient[], query: string): Patient[] {
  return patients.filter((p) => matchesPatient(p, query)).sort((a, b) => a.name.localeCompare(b.name));
}

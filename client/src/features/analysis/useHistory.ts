//! The history's data: one page (the device's analyses, or with the filter all the selected
//! patient's, issue 21), the company's storage used, the patients' names, and whether the selected
//! patient has analyses (the filter checkbox's condition). Refetches when the page, the filter,
//! the patient or `analysesVersionAtom` changes.

import { useEffect, useState } from 'react';
import { fetchDeviceHistoryPage, fetchHistoryCount, fetchHistoryPage, fetchPatientNames, type HistoryPage } from './api';

export interface HistoryState {
  page: HistoryPage | null;
  storageMb: number | null;
  patientHasAnalyses: boolean;
  /** Patient names by id; empty when they could not be read (the cards then show no name). */
  patientNames: Map<string, string>;
  loading: boolean;
  failed: boolean;
}

export function useHistory(page: number, deviceId: string | null, patientId: string | null, filterByPatient: boolean, version: number): HistoryState {
  const [state, setState] = useState<HistoryState>({ page: null, storageMb: null, patientHasAnalyses: false, patientNames: new Map(), loading: true, failed: false });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const filter = filterByPatient && patientId ? patientId : null;
    Promise.all([
      filter || !deviceId ? fetchHistoryPage(page, filter) : fetchDeviceHistoryPage(page, deviceId),
      fetchHistoryCount(null),
      patientId ? fetchHistoryCount(patientId) : Promise.resolve(null),
      fetchPatientNames().catch(() => new Map<string, string>()),
    ])
      .then(([pageData, company, patient, patientNames]) => {
        if (!live) return;
        setState({ page: pageData, storageMb: company.totalSize, patientHasAnalyses: (patient?.totalAnalysis ?? 0) > 0, patientNames, loading: false, failed: false });
      })
      .catch((err) => {
        console.error('analysis history failed', err);
        if (live) setState((s) => ({ ...s, loading: false, failed: true }));
      });
    return () => {
      live = false;
    };
  }, [page, deviceId, patientId, filterByPatient, version]);
  return state;
}

//! The history's data: one page (company or selected patient), the company's storage used, and
//! whether the selected patient has analyses (the filter checkbox's condition). Refetches when the
//! page, the filter, the patient or `analysesVersionAtom` changes.

import { useEffect, useState } from 'react';
import { fetchHistoryCount, fetchHistoryPage, type HistoryPage } from './api';

export interface HistoryState {
  page: HistoryPage | null;
  storageMb: number | null;
  patientHasAnalyses: boolean;
  loading: boolean;
  failed: boolean;
}

export function useHistory(page: number, patientId: string | null, filterByPatient: boolean, version: number): HistoryState {
  const [state, setState] = useState<HistoryState>({ page: null, storageMb: null, patientHasAnalyses: false, loading: true, failed: false });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const filter = filterByPatient && patientId ? patientId : null;
    Promise.all([
      fetchHistoryPage(page, filter),
      fetchHistoryCount(null),
      patientId ? fetchHistoryCount(patientId) : Promise.resolve(null),
    ])
      .then(([pageData, company, patient]) => {
        if (!live) return;
        setState({ page: pageData, storageMb: company.totalSize, patientHasAnalyses: (patient?.totalAnalysis ?? 0) > 0, loading: false, failed: false });
      })
      .catch((err) => {
        console.error('analysis history failed', err);
        if (live) setState((s) => ({ ...s, loading: false, failed: true }));
      });
    return () => {
      live = false;
    };
  }, [page, patientId, filterByPatient, version]);
  return state;
}

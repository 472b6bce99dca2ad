//! The caller's company variants (spec §6), as settings of the company rather than hard-coded names.
//! Written once after login from the hub's company record; read wherever a variant changes what is
//! shown. All off until the hub says otherwise.

import { atom } from 'jotai';

export interface CompanyVariants {
  /** Hide the global centre-of-pressure marker and value. */
  hideCentreOfPressure: boolean;
  /** Fitness units: pressures × 0.06 shown in kPa, and the 24 h static analysis button. */
  fitness: boolean;
  /** 'Sit' instead of bed/device labels, and no company line on cards. */
  seatingLabels: boolean;
}

export const NO_VARIANTS: CompanyVariants = { hideCentreOfPressure: false, fitness: false, seatingLabels: false };

export const companyVariantsAtom = atom<CompanyVariants>(NO_VARIANTS);

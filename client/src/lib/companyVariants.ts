//! The caller's company variants (spec §6), as settings of the company rather than hard-coded names.
//! Written once after login from the hub's company record; read wherever a variant changes what is
//! shown. All off until the hub says otherwise.

import { atom } from 'jotai';

export type { CompanyVariants } from '../api/types';
import type { CompanyVariants } from '../api/types';

/** The variants in the order an administrator sees them; each has `variants.<name>.label` and `.help`. */
export const VARIANT_SWITCHES: ReadonlyArray<keyof CompanyVariants> = ['hideCentreOfPressure', 'fitness', 'seatingLabels'];

export const NO_VARIANTS: CompanyVariants = { hideCentreOfPressure: false, fitness: false, seatingLabels: false };

export const companyVariantsAtom = atom<CompanyVariants>(NO_VARIANTS);

/** Reads the hub's `variants` object (docs/api.md); anything missing or not a boolean is off. */
export function variantsFrom(value: unknown): CompanyVariants {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    hideCentreOfPressure: v.hideCentreOfPressure === true,
    fitness: v.fitness === true,
    seatingLabels: v.seatingLabels === true,
  };
}

/** Spec §4: the fitness variant's 24 h static analysis: one capture an hour, 24 times. */
export const DAILY_STATIC_ANALYSIS = { periodMs: 3_600_000, repetitions: 24 } as const;

/** Whether the global centre-of-pressure marker and value are shown. */
export const showsCentreOfPressure = (variants: CompanyVariants): boolean => !variants.hideCentreOfPressure;

/** Whether the 24 h static analysis button is offered. */
export const offersDailyStaticAnalysis = (variants: CompanyVariants): boolean => variants.fitness;

/** Whether device cards show the company line. */
export const showsCompanyOnCards = (variants: CompanyVariants): boolean => !variants.seatingLabels;

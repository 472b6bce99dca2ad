//! Figures shown with a fixed number of decimals (rocker durations 3; shares and BMI 1), in the
//! locale of the interface language. Other numbers, pressures and dates go through lib/format.ts.

import { localeOf } from '../../lib/format';

/** Formats with exactly `decimals` decimals. */
export function formatFixed(value: number, language: string, decimals: number): string {
  return new Intl.NumberFormat(localeOf(language), { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

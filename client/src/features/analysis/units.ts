//! How pressures and figures are shown: sensor units, or kPa (× 0.06) for the fitness variant
//! (spec §6, §9); numbers with at most 2 decimals in the interface language.

export const FITNESS_KPA_FACTOR = 0.06;

export function displayPressure(raw: number, fitness: boolean): number {
  return fitness ? raw * FITNESS_KPA_FACTOR : raw;
}

/** Formats with at most `decimals` decimals in `language`. */
export function formatNumber(value: number, language: string, decimals = 2): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: decimals }).format(value);
}

/** Formats with exactly `decimals` decimals (rocker durations 3, shares and BMI 1). */
export function formatFixed(value: number, language: string, decimals: number): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

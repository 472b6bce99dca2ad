//! Which tutorial a capture shows (issue 21): the device type's analysis family decides, so a
//! seat is never told to "stand barefoot on the plate". Pure.

import type { AnalysisFamily } from '../../lib/deviceTypes';

export type TutorialVariant = 'static' | 'dynamic' | 'balance' | 'fitting';

/** The families with tutorials of their own, and the variants each has. */
const OWN: Readonly<Partial<Record<AnalysisFamily, readonly TutorialVariant[]>>> = {
  seating: ['static', 'dynamic', 'fitting'],
  bed: ['static', 'dynamic'],
  rehab: ['static', 'dynamic', 'balance'],
  horse: ['static', 'dynamic', 'fitting'],
};

/** The translation key prefix of a tutorial (`title`, `step1`… follow it): the family's own, or
 * the podology plate's (`capture.tutorial.*`) for podology and types without a family. */
export function tutorialPrefix(family: AnalysisFamily | null | undefined, variant: TutorialVariant): string {
  if (family && OWN[family]?.includes(variant)) return `analysisFamily.tutorial.${family}.${variant}`;
  return `capture.tutorial.${variant === 'fitting' ? 'dynamic' : variant}`;
}

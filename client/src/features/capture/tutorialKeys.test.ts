import { describe, expect, it } from 'vitest';
import { tutorialPrefix } from './tutorialKeys';

describe('tutorial per device family (issue 21)', () => {
  it('a seat, a bed, a rehab mat and a saddle have their own; a plate the podology one', () => {
    expect(tutorialPrefix('seating', 'static')).toBe('analysisFamily.tutorial.seating.static');
    expect(tutorialPrefix('seating', 'fitting')).toBe('analysisFamily.tutorial.seating.fitting');
    expect(tutorialPrefix('bed', 'dynamic')).toBe('analysisFamily.tutorial.bed.dynamic');
    expect(tutorialPrefix('rehab', 'balance')).toBe('analysisFamily.tutorial.rehab.balance');
    expect(tutorialPrefix('horse', 'static')).toBe('analysisFamily.tutorial.horse.static');
    expect(tutorialPrefix('podology', 'dynamic')).toBe('capture.tutorial.dynamic');
    expect(tutorialPrefix(null, 'static')).toBe('capture.tutorial.static');
  });
});

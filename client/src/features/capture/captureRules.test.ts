import { describe, expect, it } from 'vitest';
import {
  announcementKey,
  captureDurationMs,
  hubAnalysisType,
  refusalToast,
  runningRefusal,
  toastOffsetMs,
} from './captureRules';

describe('capture timing (spec §4, §9)', () => {
  it('static loads 1 s after the click; timed captures after duration + 0.2 s', () => {
    expect(captureDurationMs({ kind: 'Static' })).toBe(1000);
    expect(captureDurationMs({ kind: 'Dynamic', seconds: 15 })).toBe(15_200);
    expect(captureDurationMs({ kind: 'Dynamic', seconds: 60 })).toBe(60_200);
    expect(captureDurationMs({ kind: 'Fitting', seconds: 120 })).toBe(120_200);
    expect(captureDurationMs({ kind: 'Balance' })).toBe(5_200);
    expect(captureDurationMs({ kind: 'FootBalance', position: 'oneFoot' })).toBe(5_200);
    expect(captureDurationMs({ kind: 'Remote' })).toBe(15_200);
  });

  it('capture toasts at 2 s (static) and 4 s (timed) with the kind’s key', () => {
    expect(toastOffsetMs({ kind: 'Static' })).toBe(2000);
    expect(toastOffsetMs({ kind: 'Dynamic', seconds: 15 })).toBe(4000);
    expect(toastOffsetMs({ kind: 'Balance' })).toBe(4000);
    expect(announcementKey({ kind: 'Static' })).toBe('capturingStatic');
    expect(announcementKey({ kind: 'Dynamic', seconds: 30 })).toBe('capturingDynamic');
    expect(announcementKey({ kind: 'Fitting', seconds: 30 })).toBe('capturingDynamic');
    expect(announcementKey({ kind: 'Balance' })).toBe('capturingEquilibrium');
    expect(announcementKey({ kind: 'FootBalance', position: 'tandemStand' })).toBe('capturingFSBT');
  });

  it('a foot-balance test is a balance capture and remote activation a dynamic one on the hub', () => {
    expect(hubAnalysisType({ kind: 'FootBalance', position: 'insep' })).toBe('Balance');
    expect(hubAnalysisType({ kind: 'Remote' })).toBe('Dynamic');
  });

  it('a second start is refused by the running kind', () => {
    expect(runningRefusal({ kind: 'Dynamic', seconds: 15 })).toBe('dynamicOngoing');
    expect(runningRefusal({ kind: 'Remote' })).toBe('dynamicOngoing');
    expect(runningRefusal({ kind: 'Fitting', seconds: 120 })).toBe('fittingOngoing');
    expect(runningRefusal({ kind: 'Static' })).toBe('onGoing');
    expect(runningRefusal({ kind: 'Balance' })).toBe('onGoing');
  });

  it('maps every hub refusal to its toast and ignores other errors', () => {
    for (const key of ['patientSelected', 'positionPatient', 'connectDevice', 'onGoing', 'dynamicOngoing', 'fittingOngoing']) {
      expect(refusalToast(key)).toBe(key);
    }
    expect(refusalToast('invalidDuration')).toBe('capture.invalidDuration');
    expect(refusalToast('slowConsumer')).toBeNull();
    expect(refusalToast('toString')).toBeNull();
  });
});

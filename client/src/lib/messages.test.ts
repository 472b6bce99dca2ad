import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { HUB_ERROR_KEYS, LONG_TOAST_MS, messageKeyForCode, messageKeyForError, SHORT_TOAST_MS, showApiError, showToast, TOASTS, type ToastKey } from './messages';
import { toastsAtom } from './notifications';

/** Spec §8, as written there: every error and success toast key. */
const SPEC_ERROR_TOASTS = [
  'positionPatient', 'patientSelected', 'onGoing', 'invalidPatientData', 'errorCreatingPatient', 'errorUpdatingPatient',
  'agreeDataTreatment', 'failedUpdateCompanySettings', 'deviceInfoUpdateFail', 'errorSelectingPatient', 'selectPatient',
  'createPatient', 'connectDevice', 'dynamicOngoing', 'fittingOngoing', 'getOff', 'incorrectCredentials', 'emptyEmail',
  'incorrectEmail', 'passwordsUnmatch', 'shortPassword', 'failedAccount', 'companyCreationFailed', 'failedToRegisterDevice',
  'failedToRegister', 'deviceParameters', 'analysisNotes', 'failedToBeAttended', 'alarmOn', 'toastErrorRaw.noAnalysisData',
  'toastErrorRaw.downloadError',
];
const SPEC_SUCCESS_TOASTS = [
  'patientCreated', 'patientUpdated', 'deviceInfoUpdated', 'capturingDynamic', 'capturingStatic', 'capturingEquilibrium',
  'capturingFSBT', 'analysisSuccess', 'notesUpdated', 'accountCreated', 'companyCreated', 'companyUpdated', 'deviceCreated',
  'registrationsSuccess', 'attendedSuccesfully', 'toastSuccessRaw.dataDownloaded',
];

afterEach(() => vi.useRealTimers());

describe('toast catalogue (spec §8, §9)', () => {
  it('has every error toast of §8 as an error and every success toast as a success', () => {
    for (const key of SPEC_ERROR_TOASTS) expect(TOASTS[key as ToastKey]?.kind, key).toBe('error');
    for (const key of SPEC_SUCCESS_TOASTS) expect(TOASTS[key as ToastKey]?.kind, key).toBe('success');
    // The success of selecting a patient has its own key: `patientSelected` is the hub's refusal.
    expect(TOASTS.patientSelectedSuccess.kind).toBe('success');
  });

  it('uses only the two durations of §9, with the ones §9 names', () => {
    for (const [key, spec] of Object.entries(TOASTS)) expect([SHORT_TOAST_MS, LONG_TOAST_MS], key).toContain(spec.durationMs);
    expect([SHORT_TOAST_MS, LONG_TOAST_MS]).toEqual([1500, 2500]);
    expect(TOASTS.analysisSuccess.durationMs).toBe(1500);
    expect(TOASTS.notesUpdated.durationMs).toBe(2500);
    expect(TOASTS['toastErrorRaw.noAnalysisData'].durationMs).toBe(2500);
    expect(TOASTS['toastErrorRaw.downloadError'].durationMs).toBe(2500);
    expect(TOASTS['toastSuccessRaw.dataDownloaded'].durationMs).toBe(2500);
    for (const key of SPEC_ERROR_TOASTS) expect(TOASTS[key as ToastKey].durationMs, key).toBe(2500);
  });

  it.each([
    ['analysisSuccess', 'success', 1500],
    ['notesUpdated', 'success', 2500],
    ['onGoing', 'error', 2500],
  ] as const)('showToast(%s) shows a %s toast for exactly %i ms', (key, kind, ms) => {
    vi.useFakeTimers();
    const store = createStore();
    showToast(store, key);
    expect(store.get(toastsAtom)).toEqual([expect.objectContaining({ key, kind })]);
    vi.advanceTimersByTime(ms - 1);
    expect(store.get(toastsAtom)).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.get(toastsAtom)).toEqual([]);
  });

  it('passes parameters (alarmOn carries the device name)', () => {
    const store = createStore();
    showToast(store, 'alarmOn', { device: 'BED 101-A' });
    expect(store.get(toastsAtom)[0].params).toEqual({ device: 'BED 101-A' });
  });
});

describe('hub errors shown as toasts (one mapping)', () => {
  it("shows the hub's own key when it is a translated rule, duplicate or role", () => {
    for (const code of ['duplicateEmail', 'forbidden', 'logoTooLarge', 'shortPassword', 'connectDevice', 'toastErrorRaw.noAnalysisData']) {
      expect(messageKeyForError(new ApiError(400, code))).toBe(code);
    }
    expect(HUB_ERROR_KEYS).toContain('storageQuotaExceeded');
  });

  it('maps socket refusals the same way', () => {
    for (const code of ['onGoing', 'connectDevice', 'deviceNotFound', 'invalidDuration', 'failedToBeAttended']) expect(messageKeyForCode(code)).toBe(code);
    expect(messageKeyForCode('brandNew')).toBe('networkError');
  });

  it('shows networkError for failures without a known key', () => {
    expect(messageKeyForError(new ApiError(502, 'http502'))).toBe('networkError');
    expect(messageKeyForError(new ApiError(500, 'somethingNew'))).toBe('networkError');
    expect(messageKeyForError(new TypeError('Failed to fetch'))).toBe('networkError');
  });

  it("prefers the action's own toast when the hub only says the call failed", () => {
    const store = createStore();
    showApiError(store, new ApiError(500, 'internalError'), 'failedUpdateCompanySettings');
    showApiError(store, new TypeError('offline'), 'failedUpdateCompanySettings');
    showApiError(store, new ApiError(409, 'duplicateCompany'), 'failedUpdateCompanySettings');
    showApiError(store, new ApiError(500, 'internalError'));
    expect(store.get(toastsAtom).map((t) => [t.kind, t.key])).toEqual([
      ['error', 'failedUpdateCompanySettings'],
      ['error', 'failedUpdateCompanySettings'],
      ['error', 'duplicateCompany'],
      ['error', 'internalError'],
    ]);
  });

  it('keeps an error toast for 2500 ms', () => {
    vi.useFakeTimers();
    const store = createStore();
    showApiError(store, new ApiError(403, 'forbidden'));
    vi.advanceTimersByTime(2499);
    expect(store.get(toastsAtom)).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.get(toastsAtom)).toHaveLength(0);
  });
});

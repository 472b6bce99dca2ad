//! The catalogue of spec §8 messages: every toast key with its kind and duration, the two alerts,
//! the inline messages, and the hub's error codes (docs/api.md: they are i18n keys). Features show
//! toasts through {@link showToast} and hub errors through {@link showApiError}; they never pick a
//! duration themselves. Durations (spec §9: 1500 or 2500 ms) are decided in docs/decisions.md:
//! errors stay 2500 ms; short confirmations 1500 ms; confirmations the user reads or waits on
//! (notes saved, a download, a capture announcement) 2500 ms.

import { ApiError } from './api';
import type { AppStore } from './devicesStore';
import { notify, type Toast } from './notifications';

export const SHORT_TOAST_MS = 1500;
export const LONG_TOAST_MS = 2500;

export interface ToastSpec {
  kind: Toast['kind'];
  durationMs: typeof SHORT_TOAST_MS | typeof LONG_TOAST_MS;
}

const error: ToastSpec = { kind: 'error', durationMs: LONG_TOAST_MS };
const done: ToastSpec = { kind: 'success', durationMs: SHORT_TOAST_MS };
const doneLong: ToastSpec = { kind: 'success', durationMs: LONG_TOAST_MS };
const info: ToastSpec = { kind: 'info', durationMs: LONG_TOAST_MS };

/** Every toast of spec §8 (top-level i18n keys) and the few of ours, with kind and duration. */
export const TOASTS = {
  // Errors (spec §8).
  positionPatient: error,
  patientSelected: error,
  onGoing: error,
  invalidPatientData: error,
  errorCreatingPatient: error,
  errorUpdatingPatient: error,
  agreeDataTreatment: error,
  failedUpdateCompanySettings: error,
  deviceInfoUpdateFail: error,
  errorSelectingPatient: error,
  selectPatient: error,
  createPatient: error,
  connectDevice: error,
  dynamicOngoing: error,
  fittingOngoing: error,
  getOff: error,
  incorrectCredentials: error,
  emptyEmail: error,
  incorrectEmail: error,
  passwordsUnmatch: error,
  shortPassword: error,
  failedAccount: error,
  companyCreationFailed: error,
  failedToRegisterDevice: error,
  failedToRegister: error,
  deviceParameters: error,
  analysisNotes: error,
  failedToBeAttended: error,
  /** Params: `device`, the device's name in upper case. */
  alarmOn: error,
  'toastErrorRaw.noAnalysisData': error,
  'toastErrorRaw.downloadError': error,
  // Successes (spec §8).
  patientCreated: done,
  patientUpdated: done,
  /** The success of selecting a patient; `patientSelected` is the hub's "no patient selected". */
  patientSelectedSuccess: done,
  deviceInfoUpdated: done,
  capturingDynamic: doneLong,
  capturingStatic: doneLong,
  capturingEquilibrium: doneLong,
  capturingFSBT: doneLong,
  analysisSuccess: done,
  notesUpdated: doneLong,
  accountCreated: done,
  companyCreated: done,
  companyUpdated: done,
  deviceCreated: done,
  registrationsSuccess: done,
  /** Params: `kind`, the device kind it is prefixed with. */
  attendedSuccesfully: done,
  'toastSuccessRaw.dataDownloaded': doneLong,
  // Ours.
  'variants.saved': done,
  'variants.saveFailed': error,
  'seatingPlots.maxGraphics': info,
} as const satisfies Record<string, ToastSpec>;

export type ToastKey = keyof typeof TOASTS;

/** The two alerts of spec §8 (blocking messages in the patient form). */
export const ALERTS = {
  invalidEmail: 'alerts.invalidEmail',
  invalidBirthDate: 'alerts.invalidBirthDate',
} as const;

/** The inline messages of spec §8 (shown in place, not as toasts). */
export const INLINE = {
  socketDisconnected: 'socketDisconnected',
  socketEmpty: 'messages.socketEmpty',
  seatingLoading: 'seating.loading',
  dynamicSeatingError: 'dynamic.seatingError',
  seatingPlotsNoData: 'seatingPlots.noDataMessage',
  dynamicError: 'dynamic.error',
  dynamicError2: 'dynamic.error2',
  noAnalysisYet: 'messages.noAnalysisYet',
  noAnalysisYetPatient: 'messages.noAnalysisYetPatient',
  histogramNoData: 'messages.histogramNoData',
  videoNotAvailable: 'messages.videoNotAvailable',
  deviceLogEmpty: 'messages.deviceLogEmpty',
  logNameIncorrect: 'messages.logNameIncorrect',
} as const;

/**
 * Every `error` code the hub answers that is not already a toast key (docs/api.md); each is a
 * top-level i18n key. Anything else the hub might send shows `networkError`.
 */
export const HUB_ERROR_KEYS = [
  'unauthorized',
  'forbidden',
  'notFound',
  'methodNotAllowed',
  'tooManyAttempts',
  'payloadTooLarge',
  'lengthRequired',
  'unsupportedMediaType',
  'missingHeader',
  'badRequest',
  'invalidBody',
  'invalidData',
  'internalError',
  'duplicateSerial',
  'duplicateEmail',
  'invalidPairingCode',
  'tooManyPairingCodes',
  'invalidUnit',
  'screenUnpaired',
  'boardReadOnly',
  'readOnly',
  'duplicateCompany',
  'storageQuotaExceeded',
  'companyRequired',
  'companyNameRequired',
  'companyNameTooLong',
  'addressTooLong',
  'logoNotImage',
  'logoTooLarge',
  'invalidPageColor',
  'invalidLayoutNumber',
  'longPassword',
  'invalidBirthDate',
  'invalidDeviceType',
  'invalidAnalysisType',
  'invalidLayoutSettings',
  'invalidPage',
  'invalidCreationDate',
  'invalidExportKind',
  'invalidRepositioningInterval',
  'notACaptureDevice',
  'notAForceDevice',
  // Socket refusals (docs/browser-protocol.md) beyond the toast keys.
  'deviceNotFound',
  'invalidDuration',
  'invalidMessage',
  'slowConsumer',
] as const;

/** What is shown when a call fails without a hub key (offline, a proxy's HTML error page). */
export const FALLBACK_ERROR_KEY = 'networkError';

const knownErrorKeys: ReadonlySet<string> = new Set<string>([...Object.keys(TOASTS), ...HUB_ERROR_KEYS]);

/** Hub codes that say only that the call failed, not why: the action's own toast says more. */
const GENERIC_ERROR_KEYS: ReadonlySet<string> = new Set([
  FALLBACK_ERROR_KEY,
  'internalError',
  'badRequest',
  'invalidBody',
  'invalidData',
  'methodNotAllowed',
  'lengthRequired',
  'unsupportedMediaType',
  'missingHeader',
]);

/** The i18n key for a hub error code (REST `error` or a socket `error` event's `error`). */
export function messageKeyForCode(code: string): string {
  return knownErrorKeys.has(code) ? code : FALLBACK_ERROR_KEY;
}

/** The i18n key that explains an error: the hub's code when it is one we translate. */
export function messageKeyForError(err: unknown): string {
  return err instanceof ApiError ? messageKeyForCode(err.code) : FALLBACK_ERROR_KEY;
}

/** Shows a catalogue toast with its kind and duration. */
export function showToast(store: AppStore, key: ToastKey, params?: Toast['params']): number {
  const spec: ToastSpec = TOASTS[key];
  return notify(store, { kind: spec.kind, key, params }, spec.durationMs);
}

/**
 * Shows a failed call as an error toast: the hub's own key when it names the problem (a validation
 * rule, a duplicate, a role); for a failure that does not say why, the caller's §8 toast for that
 * action (e.g. `failedUpdateCompanySettings`), else `networkError`.
 */
export function showApiError(store: AppStore, err: unknown, fallback?: ToastKey): number {
  const key = messageKeyForError(err);
  const shown = fallback && GENERIC_ERROR_KEYS.has(key) ? fallback : key;
  return notify(store, { kind: 'error', key: shown }, LONG_TOAST_MS);
}

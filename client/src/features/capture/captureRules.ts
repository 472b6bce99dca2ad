//! What a capture is and when things happen (spec §4, §9), as plain data: the kinds the buttons
//! offer, their durations, the hub's analysis type, the toast that announces each and when, and
//! the i18n key of each refusal the hub sends.

/** The captures a device type offers (its capabilities, from the hub's device-type table). */
export type CaptureKind = 'Static' | 'Dynamic' | 'Balance' | 'Fitting' | 'Series24h' | 'Remote';

/** Dynamic durations (spec §9); fitting also 120 s. */
export const DYNAMIC_SECONDS = [15, 30, 45, 60] as const;
export const FITTING_SECONDS = [15, 30, 45, 60, 120] as const;
/** Balance analysis time (spec §9). */
export const BALANCE_SECONDS = 5;
/** Remote activation: a dynamic capture of the default recognition time. */
export const REMOTE_SECONDS = 15;
/** The static map is taken 1 s after the click; timed captures load after duration + 0.2 s. */
export const STATIC_DELAY_MS = 1000;
export const LOAD_MARGIN_MS = 200;
/** Closing the tutorial starts the capture after 50 ms (spec §4, §9). */
export const TUTORIAL_START_DELAY_MS = 50;
/** The 24 h static series: one capture an hour, 24 times (spec §4). */
export const SERIES_PERIOD_MS = 3_600_000;
export const SERIES_COUNT = 24;
/** The capture toasts' offsets from the click (spec §9): 2 s for a static map, 4 s for timed captures. */
export const STATIC_TOAST_OFFSET_MS = 2000;
export const TIMED_TOAST_OFFSET_MS = 4000;
/** How long to wait for the hub's answer to a request before giving up. */
export const REQUEST_ANSWER_TIMEOUT_MS = 10_000;

/** The foot-balance test positions (spec §4 tutorial variants). */
export const FOOT_BALANCE_POSITIONS = ['sideBySide', 'tandemStand', 'insep', 'oneFoot'] as const;
export type FootBalancePosition = (typeof FOOT_BALANCE_POSITIONS)[number];

export type HubAnalysisType = 'Static' | 'Dynamic' | 'Fitting' | 'Balance';

/** One capture as the user chose it. A foot-balance test is a balance capture in one position. */
export type CaptureChoice =
  | { kind: 'Static' }
  | { kind: 'Dynamic'; seconds: number }
  | { kind: 'Fitting'; seconds: number }
  | { kind: 'Balance' }
  | { kind: 'FootBalance'; position: FootBalancePosition }
  | { kind: 'Remote' };

export function hubAnalysisType(choice: CaptureChoice): HubAnalysisType {
  switch (choice.kind) {
    case 'FootBalance':
      return 'Balance';
    case 'Remote':
      return 'Dynamic';
    default:
      return choice.kind;
  }
}

/** Seconds of a timed capture (0 for static). */
export function captureSeconds(choice: CaptureChoice): number {
  switch (choice.kind) {
    case 'Static':
      return 0;
    case 'Dynamic':
    case 'Fitting':
      return choice.seconds;
    case 'Remote':
      return REMOTE_SECONDS;
    case 'Balance':
    case 'FootBalance':
      return BALANCE_SECONDS;
  }
}

/** From the request to the capture's load: static 1 s, timed kinds duration + 0.2 s. */
export function captureDurationMs(choice: CaptureChoice): number {
  const seconds = captureSeconds(choice);
  return seconds === 0 ? STATIC_DELAY_MS : seconds * 1000 + LOAD_MARGIN_MS;
}

/** The success toast that announces a capture (spec §8). */
export function announcementKey(choice: CaptureChoice): string {
  switch (choice.kind) {
    case 'Static':
      return 'capturingStatic';
    case 'Balance':
      return 'capturingEquilibrium';
    case 'FootBalance':
      return 'capturingFSBT';
    default:
      return 'capturingDynamic';
  }
}

export function toastOffsetMs(choice: CaptureChoice): number {
  return choice.kind === 'Static' ? STATIC_TOAST_OFFSET_MS : TIMED_TOAST_OFFSET_MS;
}

/** The refusal a second start gets while `running` runs (spec §4: one capture at a time). */
export function runningRefusal(running: CaptureChoice): string {
  const type = hubAnalysisType(running);
  return type === 'Dynamic' ? 'dynamicOngoing' : type === 'Fitting' ? 'fittingOngoing' : 'onGoing';
}

/** The hub's refusal codes for captures and the toast each one shows (spec §8). */
const REFUSALS: Readonly<Record<string, string>> = {
  patientSelected: 'patientSelected',
  positionPatient: 'positionPatient',
  connectDevice: 'connectDevice',
  onGoing: 'onGoing',
  dynamicOngoing: 'dynamicOngoing',
  fittingOngoing: 'fittingOngoing',
  invalidDuration: 'capture.invalidDuration',
  invalidAnalysisType: 'capture.invalidDuration',
  deviceUnavailable: 'capture.deviceUnavailable',
  deviceNotFound: 'deviceNotFound',
};

/** The toast key for a socket `error` answering a capture request, or null if it is not one. */
export function refusalToast(code: string): string | null {
  return Object.prototype.hasOwnProperty.call(REFUSALS, code) ? REFUSALS[code] : null;
}

/** The choice a hub-announced capture corresponds to, for captures this page did not request (a remote
 * activation through the REST call, a series repetition, a capture announced before the page opened). */
export function choiceFromHubKind(kind: string | undefined): CaptureChoice {
  switch (kind) {
    case 'Dynamic':
      return { kind: 'Dynamic', seconds: REMOTE_SECONDS };
    case 'Balance':
      return { kind: 'Balance' };
    case 'Fitting':
      return { kind: 'Fitting', seconds: FITTING_SECONDS[0] };
    default:
      return { kind: 'Static' };
  }
}

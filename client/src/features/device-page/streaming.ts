//! Live streaming as the device page sees it (spec §4 "Streaming", §9), as a pure state machine.
//! The hub owns the stream: it checks the device, adds 5 s to the requested 180 s, decides whether
//! an extension restarts the stream (remaining under the requested time + 5 s) and keeps the end
//! time across restarts. The page sends `startStreaming` followed by `streamingRemaining`; the hub
//! answers them in order, so a refusal (`error`) arrives before the remaining seconds, and the
//! countdown starts only from the hub's answer — never before the hub accepted.
//!
//! The end time is also kept in local storage per device, so a reload shows the countdown at once
//! while it asks the hub; a stored future end time the hub no longer knows resumes the stream with
//! the seconds that remain.

import { STORAGE } from '../../lib/storageKeys';

/** The stream length the page asks for. */
export const STREAM_SECONDS = 180;
/** Seconds the hub adds to every request. */
export const STREAM_EXTRA_SECONDS = 5;
/** How long the page waits for the hub to answer a start before giving up. */
export const STREAM_ANSWER_TIMEOUT_MS = 10_000;
/** The hub's refusals of a start, each an i18n key shown as an error toast. */
export const STREAM_REFUSALS = ['connectDevice', 'horseSidesOffline', 'onGoing', 'deviceUnavailable', 'deviceNotFound'] as const;

export const isStreamRefusal = (code: unknown): code is (typeof STREAM_REFUSALS)[number] =>
  typeof code === 'string' && (STREAM_REFUSALS as readonly string[]).includes(code);

export type StreamState =
  /** Asked the hub how much of a stream remains (page load); `endsAt` is a stored end shown meanwhile. */
  | { phase: 'checking'; endsAt: number | null }
  | { phase: 'idle' }
  /** Sent a start; waiting for the hub to accept or refuse. */
  | { phase: 'starting' }
  /** Streaming until `endsAt`; `total` seconds when the hub last set it; `extending` while an
   * extension waits for the hub. */
  | { phase: 'streaming'; endsAt: number; total: number; extending: boolean };

export type StreamEvent =
  | { type: 'start' }
  | { type: 'extend' }
  | { type: 'stop' }
  /** The hub's `streamingRemaining` answer. */
  | { type: 'remaining'; seconds: number; now: number }
  /** The hub refused (an `error` with one of {@link STREAM_REFUSALS}), or did not answer in time. */
  | { type: 'refused' }
  /** The socket came back (its hub died and another answers, issue 25): check with the hub, as on
   * a reload, and resume the stream the page was showing if the hub no longer runs it. */
  | { type: 'reconnected' }
  | { type: 'tick'; now: number };

const streamingFor = (seconds: number, now: number): StreamState =>
  seconds > 0 ? { phase: 'streaming', endsAt: now + seconds * 1000, total: seconds, extending: false } : { phase: 'idle' };

export function streamReducer(state: StreamState, event: StreamEvent): StreamState {
  switch (event.type) {
    case 'start':
      return state.phase === 'idle' || state.phase === 'checking' ? { phase: 'starting' } : state;
    case 'extend':
      return state.phase === 'streaming' ? { ...state, extending: true } : state;
    case 'stop':
      return { phase: 'idle' };
    case 'remaining':
      return streamingFor(event.seconds, event.now);
    case 'refused':
      if (state.phase === 'starting') return { phase: 'idle' };
      if (state.phase === 'streaming') return { ...state, extending: false };
      if (state.phase === 'checking') return state.endsAt ? { phase: 'streaming', endsAt: state.endsAt, total: STREAM_SECONDS + STREAM_EXTRA_SECONDS, extending: false } : { phase: 'idle' };
      return state;
    case 'reconnected':
      return state.phase === 'streaming' ? { phase: 'checking', endsAt: state.endsAt } : state;
    case 'tick':
      return state.phase === 'streaming' && event.now >= state.endsAt ? { phase: 'idle' } : state;
  }
}

/** Whole seconds left on the countdown. */
export const remainingSeconds = (state: StreamState, now: number): number => {
  const endsAt = state.phase === 'streaming' ? state.endsAt : state.phase === 'checking' ? state.endsAt : null;
  return endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
};

/**
 * On load, after the hub answered how much of the device's stream remains: follow the hub when it
 * streams; when it does not but a stored end time is still ahead, ask it to stream again for the
 * seconds that remain (the hub adds its 5 s again, so 5 fewer are asked for); otherwise nothing.
 */
export function resumeRequest(hubSeconds: number, storedEndsAt: number | null, now: number): number {
  if (hubSeconds > 0 || storedEndsAt === null) return 0;
  const left = Math.ceil((storedEndsAt - now) / 1000) - STREAM_EXTRA_SECONDS;
  return left > 0 ? left : 0;
}

type StoredEnds = Record<string, number>;

function readAll(): StoredEnds {
  const raw = localStorage.getItem(STORAGE.streamingEnd);
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter(([, t]) => typeof t === 'number' && Number.isFinite(t)));
  } catch {
    return {};
  }
}

function writeAll(ends: StoredEnds): void {
  if (Object.keys(ends).length === 0) localStorage.removeItem(STORAGE.streamingEnd);
  else localStorage.setItem(STORAGE.streamingEnd, JSON.stringify(ends));
}

/** The stored end time of the device's stream; a past one is cleared. */
export function readStreamEnd(deviceId: string, now: number): number | null {
  const ends = readAll();
  const end = ends[deviceId];
  if (end === undefined) return null;
  if (end <= now) {
    delete ends[deviceId];
    writeAll(ends);
    return null;
  }
  return end;
}

export function storeStreamEnd(deviceId: string, endsAt: number): void {
  writeAll({ ...readAll(), [deviceId]: endsAt });
}

export function clearStreamEnd(deviceId: string): void {
  const ends = readAll();
  if (!(deviceId in ends)) return;
  delete ends[deviceId];
  writeAll(ends);
}

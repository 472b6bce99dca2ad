//! One device's captures as this browser's user sees them (spec §4): a request goes to the hub
//! (`startCapture`, `ActivateRemote`, `startAnalysisTimer`); its refusal comes back as an `error`
//! and is shown as its toast; the hub's `capture` events for this device and user drive the phase:
//! requested → capturing (announced; toast at its offset; the streaming start is hidden) →
//! processing (loaded) → ready (`resultsDue`: the history refetches) or failed.

import { useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { captureRunningFamily } from '../../lib/captureRunning';
import { analysesVersionAtom, capturePatient } from '../../lib/clinicalContext';
import { notify } from '../../lib/notifications';
import { useServices } from '../../lib/services';
import { STORAGE } from '../../lib/storageKeys';
import {
  announcementKey,
  captureDurationMs,
  captureSeconds,
  choiceFromHubKind,
  hubAnalysisType,
  refusalToast,
  REQUEST_ANSWER_TIMEOUT_MS,
  runningRefusal,
  SERIES_COUNT,
  SERIES_PERIOD_MS,
  toastOffsetMs,
  type CaptureChoice,
} from './captureRules';

export type CapturePhase = 'idle' | 'requested' | 'capturing' | 'processing' | 'ready' | 'failed';

export interface CaptureState {
  phase: CapturePhase;
  choice: CaptureChoice | null;
  /** When the capture loads (ms since the epoch), while capturing. */
  loadsAt: number | null;
}

/** The hub's `capture` event (docs/browser-protocol.md). */
interface CaptureEventData {
  deviceId: string;
  userId: string;
  phase: 'announced' | 'failed' | 'resultsDue' | 'seriesRepetitionRefused' | 'seriesFinished';
  kind?: string;
  repetition?: number;
  refusal?: string;
}

const IDLE: CaptureState = { phase: 'idle', choice: null, loadsAt: null };
const isRunning = (phase: CapturePhase) => phase === 'requested' || phase === 'capturing';

type TimerName = 'answer' | 'toast' | 'load';

export function useCapture(deviceId: string) {
  const store = useStore();
  const { socket } = useServices();
  const [state, setState] = useState<CaptureState>(IDLE);
  const [seriesRunning, setSeriesRunning] = useState(false);
  const current = useRef<CaptureState>(IDLE);
  const requestedAt = useRef(0);
  const seriesPending = useRef(false);
  const timers = useRef<Partial<Record<TimerName, ReturnType<typeof setTimeout>>>>({});

  const update = useCallback(
    (next: CaptureState) => {
      current.current = next;
      setState(next);
      store.set(captureRunningFamily(deviceId), isRunning(next.phase));
    },
    [store, deviceId],
  );

  const clear = (...names: TimerName[]) => {
    for (const name of names) {
      clearTimeout(timers.current[name]);
      delete timers.current[name];
    }
  };
  const arm = (name: TimerName, ms: number, fn: () => void) => {
    clear(name);
    timers.current[name] = setTimeout(() => {
      delete timers.current[name];
      fn();
    }, Math.max(0, ms));
  };

  /** Starts one capture for the selected patient, unless the browser already knows it cannot run. */
  const start = (choice: CaptureChoice) => {
    const running = current.current;
    if (isRunning(running.phase) && running.choice) {
      notify(store, { kind: 'error', key: runningRefusal(running.choice) });
      return;
    }
    const patient = capturePatient(store, deviceId);
    if (!patient) {
      notify(store, { kind: 'error', key: 'patientSelected' });
      return;
    }
    requestedAt.current = Date.now();
    update({ phase: 'requested', choice, loadsAt: null });
    arm('answer', REQUEST_ANSWER_TIMEOUT_MS, () => {
      if (current.current.phase !== 'requested') return;
      update(IDLE);
      notify(store, { kind: 'error', key: 'capture.noAnswer' });
    });
    if (choice.kind === 'Remote') {
      socket?.activateRemote(deviceId, patient.id);
    } else {
      const analysisType = hubAnalysisType(choice);
      const timed = analysisType === 'Dynamic' || analysisType === 'Fitting';
      socket?.startCapture({ deviceId, analysisType, seconds: timed ? captureSeconds(choice) : undefined, patientId: patient.id });
    }
  };

  /** The 24 h static series of the fitness variant: one static capture an hour, 24 times. */
  const startSeries = () => {
    const patient = capturePatient(store, deviceId);
    if (!patient) {
      notify(store, { kind: 'error', key: 'patientSelected' });
      return;
    }
    if (seriesRunning) {
      notify(store, { kind: 'error', key: 'onGoing' });
      return;
    }
    seriesPending.current = true;
    setSeriesRunning(true);
    socket?.startAnalysisTimer(deviceId, SERIES_PERIOD_MS, SERIES_COUNT, patient.id);
    notify(store, { kind: 'success', key: 'capture.seriesStarted' });
  };

  useEffect(() => {
    if (!socket) return;
    const me = localStorage.getItem(STORAGE.userId);
    const off = socket.onEvent((env) => {
      if (env.event === 'error') {
        const code = (env.data as { error?: string } | undefined)?.error ?? '';
        const key = refusalToast(code);
        if (!key) return;
        if (current.current.phase === 'requested') {
          clear('answer');
          update(IDLE);
          notify(store, { kind: 'error', key });
        } else if (seriesPending.current) {
          seriesPending.current = false;
          setSeriesRunning(false);
          notify(store, { kind: 'error', key });
        }
        return;
      }
      if (env.event !== 'capture') return;
      const ev = env.data as CaptureEventData | undefined;
      if (!ev || ev.deviceId !== deviceId || (me && ev.userId !== me)) return;
      switch (ev.phase) {
        case 'announced': {
          seriesPending.current = false;
          const requested = current.current.phase === 'requested' && current.current.choice;
          const choice = requested || choiceFromHubKind(ev.kind);
          if (!requested) requestedAt.current = Date.now();
          clear('answer');
          const elapsed = Date.now() - requestedAt.current;
          arm('toast', toastOffsetMs(choice) - elapsed, () => notify(store, { kind: 'success', key: announcementKey(choice) }));
          arm('load', captureDurationMs(choice) - elapsed, () => {
            if (current.current.phase === 'capturing') update({ ...current.current, phase: 'processing', loadsAt: null });
          });
          update({ phase: 'capturing', choice, loadsAt: requestedAt.current + captureDurationMs(choice) });
          break;
        }
        case 'failed':
          clear('toast', 'load', 'answer');
          update({ phase: 'failed', choice: current.current.choice ?? choiceFromHubKind(ev.kind), loadsAt: null });
          notify(store, { kind: 'error', key: 'capture.failed' });
          break;
        case 'resultsDue':
          clear('load', 'answer');
          // The page may have been opened after the capture was announced: the kind comes from the event.
          update({ phase: 'ready', choice: current.current.choice ?? choiceFromHubKind(ev.kind), loadsAt: null });
          store.set(analysesVersionAtom, (v) => v + 1);
          notify(store, { kind: 'success', key: 'capture.resultsReady' });
          break;
        case 'seriesRepetitionRefused':
          seriesPending.current = false;
          notify(store, { kind: 'error', key: refusalToast(ev.refusal ?? '') ?? 'onGoing' });
          break;
        case 'seriesFinished':
          seriesPending.current = false;
          setSeriesRunning(false);
          notify(store, { kind: 'info', key: 'capture.seriesFinished' });
          break;
      }
    });
    return off;
    // `clear` and `arm` only touch refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [socket, deviceId, store, update]);

  // Leaving the page: no timer outlives it and the streaming start is shown again.
  useEffect(
    () => () => {
      clear('answer', 'toast', 'load');
      store.set(captureRunningFamily(deviceId), false);
    },
    [store, deviceId],
  );

  return { state, seriesRunning, start, startSeries };
}

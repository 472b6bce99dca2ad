//! Start / extend / stop live streaming with a circular countdown (spec §2, §4). The hub decides:
//! a start is `startStreaming` + `streamingRemaining`, and the countdown runs only once the hub has
//! answered with the seconds it streams; a refusal (`connectDevice`, `onGoing`, …) is shown as its
//! toast. On load the page asks the hub how much of the device's stream remains and resumes it.

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { captureRunningFamily } from '../../lib/captureRunning';
import { notify } from '../../lib/notifications';
import { useServices } from '../../lib/services';
import {
  clearStreamEnd,
  isStreamRefusal,
  readStreamEnd,
  remainingSeconds,
  resumeRequest,
  storeStreamEnd,
  STREAM_ANSWER_TIMEOUT_MS,
  STREAM_SECONDS,
  streamReducer,
  type StreamState,
} from './streaming';

export interface StreamingControlProps {
  deviceId: string;
  /** The device's functional flag from its configuration (null: not known yet). The hub decides
   * whether a stream may start; a device known to be not connected gets a hint beside the button. */
  functional?: boolean | null;
}

export function StreamingControl({ deviceId, functional = null }: StreamingControlProps) {
  const { t } = useTranslation();
  const store = useStore();
  const { socket } = useServices();
  const [state, dispatch] = useReducer(streamReducer, deviceId, (id): StreamState => ({
    phase: 'checking',
    endsAt: readStreamEnd(id, Date.now()),
  }));
  const [now, setNow] = useState(() => Date.now());
  const capturing = useAtomValue(captureRunningFamily(deviceId));
  const stateRef = useRef(state);
  stateRef.current = state;
  // `streamingRemaining` answers still to come, and how many of them a Stop made stale (the hub
  // answers in order, so those are the next ones).
  const answersDue = useRef(0);
  const staleAnswers = useRef(0);

  // Ask the hub on load (and after every reconnect); follow its answers and refusals.
  useEffect(() => {
    if (!socket) return;
    const off = socket.onEvent((env) => {
      const data = (env.data ?? {}) as { deviceId?: unknown; seconds?: unknown; error?: unknown };
      const current = stateRef.current;
      if (env.event === 'streamingRemaining' && data.deviceId === deviceId && typeof data.seconds === 'number') {
        answersDue.current = Math.max(0, answersDue.current - 1);
        if (staleAnswers.current > 0) {
          staleAnswers.current -= 1;
          return;
        }
        const at = Date.now();
        const resume = current.phase === 'checking' ? resumeRequest(data.seconds, current.endsAt, at) : 0;
        if (resume > 0) {
          socket.startStreaming(deviceId, resume);
          askRemaining();
          dispatch({ type: 'start' });
        } else {
          dispatch({ type: 'remaining', seconds: data.seconds, now: at });
        }
        setNow(at);
      } else if (env.event === 'error' && isStreamRefusal(data.error)) {
        const waiting = current.phase === 'starting' || (current.phase === 'streaming' && current.extending);
        if (!waiting) return;
        notify(store, { kind: 'error', key: data.error });
        dispatch({ type: 'refused' });
      } else if (env.event === 'authenticated') {
        // A new connection: answers to the old one will not come.
        answersDue.current = 0;
        staleAnswers.current = 0;
        if (current.phase === 'streaming') {
          dispatch({ type: 'reconnected' });
          askRemaining();
        }
      }
    });
    const askRemaining = () => {
      answersDue.current += 1;
      socket.requestStreamingRemaining(deviceId);
    };
    askRemaining();
    return off;
  }, [socket, deviceId, store]);

  // The hub did not answer a start or extension in time.
  const waiting = state.phase === 'starting' || state.phase === 'checking' || (state.phase === 'streaming' && state.extending);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      if (stateRef.current.phase !== 'checking') notify(store, { kind: 'error', key: 'deviceUnavailable' });
      dispatch({ type: 'refused' });
    }, STREAM_ANSWER_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [waiting, store]);

  // The stored end time follows the state, per device.
  useEffect(() => {
    if (state.phase === 'streaming') storeStreamEnd(deviceId, state.endsAt);
    else if (state.phase === 'idle') clearStreamEnd(deviceId);
  }, [state, deviceId]);

  // The countdown.
  const endsAt = state.phase === 'streaming' ? state.endsAt : null;
  useEffect(() => {
    if (endsAt === null) return;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      dispatch({ type: 'tick', now: at });
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [endsAt]);

  const ask = (seconds: number) => {
    if (!socket) return;
    socket.startStreaming(deviceId, seconds);
    answersDue.current += 1;
    socket.requestStreamingRemaining(deviceId);
  };
  const start = () => {
    dispatch({ type: 'start' });
    ask(STREAM_SECONDS);
  };
  const extend = () => {
    dispatch({ type: 'extend' });
    ask(STREAM_SECONDS);
  };
  const stop = () => {
    socket?.startStreaming(deviceId, 0);
    staleAnswers.current = answersDue.current;
    dispatch({ type: 'stop' });
  };

  const remaining = remainingSeconds(state, now);
  const showCountdown = state.phase === 'streaming' || (state.phase === 'checking' && state.endsAt !== null);
  const total = state.phase === 'streaming' ? state.total : remaining;
  const r = 22;
  const circumference = 2 * Math.PI * r;
  const fraction = showCountdown && total > 0 ? Math.min(1, remaining / total) : 0;
  const mm = Math.floor(remaining / 60);
  const ss = String(remaining % 60).padStart(2, '0');
  const streaming = state.phase === 'streaming';

  return (
    <div className="streaming" data-testid="streaming" data-streaming={streaming} data-phase={state.phase}>
      {streaming ? (
        <>
          <button type="button" className="btn btn-danger" data-testid="streaming-button" onClick={stop}>
            {t('device.stopStreaming')}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            data-testid="streaming-extend"
            disabled={state.extending}
            onClick={extend}
          >
            {t('view.streaming.extend')}
          </button>
        </>
      ) : capturing ? null : (
        // Spec §4: the start button is hidden while an analysis is being captured.
        <button
          type="button"
          className="btn btn-primary"
          data-testid="streaming-button"
          disabled={state.phase !== 'idle'}
          aria-describedby={functional === false ? `${deviceId}-not-connected` : undefined}
          onClick={start}
        >
          {state.phase === 'starting' ? t('view.streaming.starting') : t('device.startStreaming')}
        </button>
      )}
      {functional === false && !streaming ? (
        <span id={`${deviceId}-not-connected`} className="muted" data-testid="streaming-not-connected">
          {t('view.streaming.notConnected')}
        </span>
      ) : null}
      {showCountdown ? (
        <div className="countdown" data-testid="countdown" data-remaining={remaining} aria-live="off">
          <svg viewBox="0 0 52 52" width="52" height="52" aria-hidden="true">
            <circle cx="26" cy="26" r={r} className="countdown-track" />
            <circle
              cx="26"
              cy="26"
              r={r}
              className="countdown-bar"
              strokeDasharray={circumference}
              strokeDashoffset={circumference * (1 - fraction)}
              transform="rotate(-90 26 26)"
            />
          </svg>
          <span className="countdown-text">
            {mm}:{ss}
          </span>
          <span className="visually-hidden">{t('device.remaining', { seconds: remaining })}</span>
        </div>
      ) : null}
    </div>
  );
}

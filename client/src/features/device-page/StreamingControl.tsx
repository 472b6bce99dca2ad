//! Start/Stop live streaming with a circular countdown of 180 + 5 s (spec §2, §4). Start needs a
//! functional device; stop sends `startStreaming` with 0 seconds.

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { captureRunningFamily } from '../../lib/captureRunning';
import { notify } from '../../lib/notifications';
import { useServices } from '../../lib/services';
import { clearStreamEnd, readStreamEnd, storeStreamEnd, STREAM_EXTRA_SECONDS, STREAM_SECONDS } from './streaming';

const TOTAL = STREAM_SECONDS + STREAM_EXTRA_SECONDS;

export function StreamingControl({ deviceId, functional }: { deviceId: string; functional: boolean | null }) {
  const { t } = useTranslation();
  const store = useStore();
  const { socket } = useServices();
  const [endsAt, setEndsAt] = useState<number | null>(() => readStreamEnd(deviceId, Date.now()));
  const [now, setNow] = useState(() => Date.now());
  const resumed = useRef(false);
  const capturing = useAtomValue(captureRunningFamily(deviceId));

  // A stored future end time resumes the stream with the seconds that remain.
  useEffect(() => {
    if (resumed.current || endsAt === null) return;
    resumed.current = true;
    const remaining = Math.ceil((endsAt - Date.now()) / 1000) - STREAM_EXTRA_SECONDS;
    if (remaining > 0) socket?.startStreaming(deviceId, remaining);
  }, [endsAt, deviceId, socket]);

  useEffect(() => {
    if (endsAt === null) return;
    const tick = () => {
      const t = Date.now();
      setNow(t);
      if (t >= endsAt) {
        setEndsAt(null);
        clearStreamEnd();
      }
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [endsAt]);

  const start = () => {
    if (functional === false) {
      notify(store, { kind: 'error', key: 'connectDevice' });
      return;
    }
    const end = Date.now() + TOTAL * 1000;
    socket?.startStreaming(deviceId, STREAM_SECONDS);
    storeStreamEnd(deviceId, end);
    setNow(Date.now());
    setEndsAt(end);
  };

  const stop = () => {
    socket?.startStreaming(deviceId, 0);
    clearStreamEnd();
    setEndsAt(null);
  };

  const remaining = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  const streaming = endsAt !== null;
  const r = 22;
  const circumference = 2 * Math.PI * r;
  const fraction = streaming ? remaining / TOTAL : 0;
  const mm = Math.floor(remaining / 60);
  const ss = String(remaining % 60).padStart(2, '0');

  return (
    <div className="streaming" data-testid="streaming" data-streaming={streaming}>
      {/* Spec §4: the start button is hidden while an analysis is being captured. */}
      {streaming || !capturing ? (
        <button
          type="button"
          className={`btn ${streaming ? 'btn-danger' : 'btn-primary'}`}
          data-testid="streaming-button"
          onClick={streaming ? stop : start}
        >
          {streaming ? t('device.stopStreaming') : t('device.startStreaming')}
        </button>
      ) : null}
      {streaming ? (
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

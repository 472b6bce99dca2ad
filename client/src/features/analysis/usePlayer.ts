//! The video player's state machine (spec §4): playing or paused; any step, first/last or reset
//! pauses; while playing it advances one frame per 20 ms × speed and stops at the last frame; when
//! the map goes from pressure to empty while playing it stops and, 1.5 s later, shows getOff. It
//! opens at `start` (the first frame with pressure).

import { useEffect, useRef, useState } from 'react';
import { GET_OFF_TOAST_MS, intervalMs, SPEEDS, type Speed } from './playback';

export interface Player {
  index: number;
  playing: boolean;
  speed: Speed;
  play(): void;
  pause(): void;
  step(delta: number): void;
  first(): void;
  last(): void;
  setSpeed(speed: Speed): void;
}

export function usePlayer(length: number, isEmpty: (index: number) => boolean, onGetOff: () => void, start = 0): Player {
  const [index, setIndex] = useState(() => Math.max(0, Math.min(length - 1, start)));
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<Speed>(SPEEDS[0]);
  const indexRef = useRef(index);
  indexRef.current = index;
  const emptyRef = useRef(isEmpty);
  emptyRef.current = isEmpty;
  const getOffRef = useRef(onGetOff);
  getOffRef.current = onGetOff;
  const toastTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const current = indexRef.current;
      const next = current + 1;
      if (next >= length) {
        setPlaying(false);
        return;
      }
      indexRef.current = next;
      setIndex(next);
      if (!emptyRef.current(current) && emptyRef.current(next)) {
        setPlaying(false);
        if (toastTimer.current) clearTimeout(toastTimer.current);
        toastTimer.current = setTimeout(() => getOffRef.current(), GET_OFF_TOAST_MS);
      }
    }, intervalMs(speed));
    return () => clearInterval(timer);
  }, [playing, speed, length]);

  useEffect(
    () => () => {
      if (toastTimer.current) clearTimeout(toastTimer.current);
    },
    [],
  );

  const go = (i: number) => {
    setPlaying(false);
    setIndex(Math.max(0, Math.min(length - 1, i)));
  };
  return {
    index,
    playing,
    speed,
    play: () => {
      if (length < 2) return;
      if (index >= length - 1) setIndex(0);
      setPlaying(true);
    },
    pause: () => setPlaying(false),
    step: (delta) => go(index + delta),
    first: () => go(0),
    last: () => go(length - 1),
    setSpeed,
  };
}

//! A rolling history of one figure per side of a device made of several sensors (the Sensing
//! Horse's left and right saddle sides), sampled on one clock so both sides share the time axis of
//! one chart: every `everyMs`, each side's latest live frame (null for a side without a frame).

import { useEffect, useRef, useState } from 'react';
import type { LiveFrame } from '../../lib/liveMaps';
import { useServices } from '../../lib/services';
import { HISTORY_SAMPLES } from './useLiveSample';

export interface SidesSample {
  t: number;
  /** One value per side, in the order of the ids; null when that side sent nothing. */
  v: Array<number | null>;
}

/** Appends a sample, keeping at most `limit` (pure; tested). */
export function appendSample(history: SidesSample[], sample: SidesSample, limit = HISTORY_SAMPLES): SidesSample[] {
  return [...history.slice(-(limit - 1)), sample];
}

export function useSidesHistory(
  ids: Array<string | null>,
  compute: (frame: LiveFrame) => number | null,
  everyMs = 500,
): SidesSample[] {
  const { liveMaps } = useServices();
  const computeRef = useRef(compute);
  computeRef.current = compute;
  const [history, setHistory] = useState<SidesSample[]>([]);
  const key = ids.join('|');
  useEffect(() => {
    const sides = key.split('|');
    const timer = setInterval(() => {
      const frames = sides.map((id) => (id ? liveMaps.get(id) : undefined));
      if (frames.every((f) => !f || f.blank)) return;
      const v = frames.map((f) => (f && !f.blank ? computeRef.current(f) : null));
      setHistory((h) => appendSample(h, { t: Date.now(), v }));
    }, everyMs);
    return () => clearInterval(timer);
  }, [liveMaps, key, everyMs]);
  return history;
}

//! Samples a figure from a device's live frames for React at a bounded rate: the figure is
//! computed on each frame outside React, and the component re-renders at most every `everyMs`.

import { useEffect, useRef, useState } from 'react';
import type { LiveFrame } from '../../lib/liveMaps';
import { useServices } from '../../lib/services';

export function useLiveSample<T>(deviceId: string | null, compute: (frame: LiveFrame | undefined) => T, everyMs = 250): T {
  const { liveMaps } = useServices();
  const computeRef = useRef(compute);
  computeRef.current = compute;
  const [value, setValue] = useState<T>(() => compute(deviceId ? liveMaps.get(deviceId) : undefined));
  useEffect(() => {
    if (!deviceId) return;
    let latest = computeRef.current(liveMaps.get(deviceId));
    let dirty = true;
    const off = liveMaps.subscribe(deviceId, (frame) => {
      latest = computeRef.current(frame);
      dirty = true;
    });
    const flush = () => {
      if (!dirty) return;
      dirty = false;
      setValue(latest);
    };
    flush();
    const timer = setInterval(flush, everyMs);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [liveMaps, deviceId, everyMs]);
  return value;
}

/** A rolling history of a sampled figure: at most `limit` samples (spec §9: 350). */
export function useLiveHistory<T>(
  deviceId: string | null,
  compute: (frame: LiveFrame) => T | null,
  limit = HISTORY_SAMPLES,
): Array<{ t: number; v: T }> {
  const { liveMaps } = useServices();
  const computeRef = useRef(compute);
  computeRef.current = compute;
  const [history, setHistory] = useState<Array<{ t: number; v: T }>>([]);
  useEffect(() => {
    if (!deviceId) return;
    let buffer: Array<{ t: number; v: T }> = [];
    let lastSeq = -1;
    let dirty = false;
    const off = liveMaps.subscribe(deviceId, (frame) => {
      if (!frame || frame.blank || frame.seq === lastSeq) return;
      lastSeq = frame.seq;
      const v = computeRef.current(frame);
      if (v === null) return;
      buffer = [...buffer.slice(-(limit - 1)), { t: frame.hubTimeMs || Date.now(), v }];
      dirty = true;
    });
    const timer = setInterval(() => {
      if (!dirty) return;
      dirty = false;
      setHistory(buffer);
    }, 250);
    return () => {
      off();
      clearInterval(timer);
      setHistory([]);
    };
  }, [liveMaps, deviceId, limit]);
  return history;
}

/** Spec §9: history buffers hold 350 samples. */
export const HISTORY_SAMPLES = 350;

//! Loads a REST resource and refreshes it every `everyMs` (spec §9 cadences), keeping the last
//! good answer while a refresh fails.

import { useCallback, useEffect, useRef, useState } from 'react';

export interface Polled<T> {
  data: T | null;
  /** The last refresh failed (the previous data, if any, are kept). */
  failed: boolean;
  loading: boolean;
  refresh: () => void;
}

export function usePolling<T>(load: (() => Promise<T>) | null, everyMs: number, key: string): Polled<T> {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const tick = useRef<() => void>(() => {});

  useEffect(() => {
    let cancelled = false;
    let running = false;
    setData(null);
    setLoading(true);
    const run = async () => {
      const fn = loadRef.current;
      if (!fn || running || cancelled) return;
      running = true;
      try {
        const value = await fn();
        if (!cancelled) {
          setData(value);
          setFailed(false);
        }
      } catch (err) {
        console.error('refresh failed', key, err);
        if (!cancelled) setFailed(true);
      } finally {
        running = false;
        if (!cancelled) setLoading(false);
      }
    };
    tick.current = () => void run();
    void run();
    const timer = setInterval(() => void run(), everyMs);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [key, everyMs]);

  const refresh = useCallback(() => tick.current(), []);
  return { data, failed, loading, refresh };
}

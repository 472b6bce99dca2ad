//! The company's repositioning clocks and postures for the board, read every 10 s (the countdowns
//! tick locally in between) and at once when a tier changes; each reading keeps when it was taken.

import { useAtomValue } from 'jotai';
import { atom } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { oidOf } from '../../lib/api';
import { deviceConfFamily, deviceIdsAtom } from '../../lib/devicesStore';
import { getWardClocks, type WardClockJson } from './wardApi';

export const WARD_CLOCK_POLL_MS = 10_000;

export interface ClockReading {
  clock: WardClockJson;
  readAtMs: number;
}

/** A string that changes whenever any device's tier changes (the trigger for an early read). */
const tiersAtom = atom((get) =>
  get(deviceIdsAtom)
    .map((id) => `${id}:${get(deviceConfFamily(id))?.repositioning ?? ''}`)
    .join(','),
);

export function useWardClocks(): { clocks: ReadonlyMap<string, ClockReading>; failed: boolean } {
  const [clocks, setClocks] = useState<ReadonlyMap<string, ClockReading>>(new Map());
  const [failed, setFailed] = useState(false);
  const tiers = useAtomValue(tiersAtom);
  const read = useRef<() => void>(() => {});

  useEffect(() => {
    let cancelled = false;
    let running = false;
    const run = async () => {
      if (running || cancelled) return;
      running = true;
      try {
        // Counted from the request: the countdown may end a round trip early, never late.
        const readAtMs = Date.now();
        const list = await getWardClocks();
        if (cancelled) return;
        const next = new Map<string, ClockReading>();
        for (const clock of list) {
          const id = oidOf(clock.deviceId);
          if (id) next.set(id, { clock, readAtMs });
        }
        setClocks(next);
        setFailed(false);
      } catch (err) {
        console.error('ward clocks failed', err);
        if (!cancelled) setFailed(true);
      } finally {
        running = false;
      }
    };
    read.current = () => void run();
    void run();
    const timer = setInterval(() => void run(), WARD_CLOCK_POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, []);

  useEffect(() => {
    read.current();
  }, [tiers]);

  return useMemo(() => ({ clocks, failed }), [clocks, failed]);
}

/** Seconds since the epoch, ticking once a second: the countdowns' and alarm ages' clock. */
export function useSecondTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

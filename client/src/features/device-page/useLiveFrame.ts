//! Subscriptions to one field of a device's live map that re-render only when that field changes
//! (never per frame).

import { useCallback, useSyncExternalStore } from 'react';
import type { Presence } from '../../lib/liveMaps';
import { useServices } from '../../lib/services';

export function usePresence(deviceId: string): Presence | null {
  const { liveMaps } = useServices();
  const subscribe = useCallback((cb: () => void) => liveMaps.subscribe(deviceId, cb), [liveMaps, deviceId]);
  return useSyncExternalStore(subscribe, () => liveMaps.get(deviceId)?.presence ?? null);
}

/** True while the map shows no data: nothing received yet, or blanked. */
export function useMapBlank(deviceId: string): boolean {
  const { liveMaps } = useServices();
  const subscribe = useCallback((cb: () => void) => liveMaps.subscribe(deviceId, cb), [liveMaps, deviceId]);
  return useSyncExternalStore(subscribe, () => {
    const f = liveMaps.get(deviceId);
    return !f || f.blank;
  });
}

/** The shape of the frames the hub sends, as "rows × cols" (null before the first frame). */
export function useFrameShape(deviceId: string): string | null {
  const { liveMaps } = useServices();
  const subscribe = useCallback((cb: () => void) => liveMaps.subscribe(deviceId, cb), [liveMaps, deviceId]);
  return useSyncExternalStore(subscribe, () => {
    const f = liveMaps.get(deviceId);
    return f && f.rows > 0 && f.cols > 0 ? `${f.rows} × ${f.cols}` : null;
  });
}

/** When the browser received the device's last frame that had a map (null if none yet, or blanked). */
export function useLastFrameAt(deviceId: string): number | null {
  const { liveMaps } = useServices();
  const subscribe = useCallback((cb: () => void) => liveMaps.subscribe(deviceId, cb), [liveMaps, deviceId]);
  return useSyncExternalStore(subscribe, () => {
    const f = liveMaps.get(deviceId);
    return f && !f.blank ? f.receivedAtMs : null;
  });
}

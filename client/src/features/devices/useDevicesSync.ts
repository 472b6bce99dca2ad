//! Keeps the device atoms fresh on the devices screen: GET /api/userDevices once (again when an
//! unknown device shows up), GET /api/deviceConfCompany every 7 s (spec §7, §9), and the socket's
//! `deviceConf` events after `joinCompany`.

import { useStore } from 'jotai';
import { useEffect } from 'react';
import { getDeviceConfCompany, getUserDevices, oidOf } from '../../lib/api';
import { applyDeviceConf, applyUserDevices, deviceInfoFamily } from '../../lib/devicesStore';
import { useServices } from '../../lib/services';

export const CONF_POLL_MS = 7000;

export function useDevicesSync(): void {
  const store = useStore();
  const { socket } = useServices();

  useEffect(() => {
    let cancelled = false;
    let loadingDevices = false;
    // Ids that made us reload the list once already; a device the list never contains must not
    // cause a reload on every poll.
    const reloadedFor = new Set<string>();
    const isNew = (id: string | null): boolean => {
      if (!id || store.get(deviceInfoFamily(id)) || reloadedFor.has(id)) return false;
      reloadedFor.add(id);
      return true;
    };

    const loadDevices = async () => {
      if (cancelled || loadingDevices) return;
      loadingDevices = true;
      try {
        const devices = await getUserDevices();
        if (!cancelled) applyUserDevices(store, devices);
      } catch (err) {
        console.error('userDevices failed', err);
      } finally {
        loadingDevices = false;
      }
    };

    const loadConf = async () => {
      if (cancelled) return;
      try {
        const confs = await getDeviceConfCompany();
        if (cancelled) return;
        let unknown = false;
        for (const c of confs) {
          if (isNew(applyDeviceConf(store, c))) unknown = true;
        }
        if (unknown) void loadDevices();
      } catch (err) {
        console.error('deviceConfCompany failed', err);
      }
    };

    void loadDevices().then(loadConf);
    const timer = setInterval(loadConf, CONF_POLL_MS);
    socket?.joinCompany();
    const off = socket?.onEvent((env) => {
      if (env.event !== 'deviceConf') return;
      const id = oidOf((env.data as { deviceId?: unknown } | undefined)?.deviceId);
      if (isNew(id)) void loadDevices();
    });
    return () => {
      cancelled = true;
      clearInterval(timer);
      off?.();
    };
  }, [store, socket]);
}

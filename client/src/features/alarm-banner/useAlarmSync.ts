//! Keeps the banner's alarms current on every signed-in screen: `alarmOn` adds one,
//! `alarmAttended` removes it (and the card learns who attended from the alarm log), a `deviceConf`
//! without `unattendedAlarm` removes the device's; `alarmStatus` is what the hospital's alarm
//! manager reported of an alarm (accepted by a named nurse…), shown by the card and the banner. A device whose status says an alarm waits that
//! this session never saw raised (it joined later: joining the company replays every status) has
//! its alarm log read once over REST.

import { useStore } from 'jotai';
import { useEffect } from 'react';
import { getAlarms, getUserDevices, oidOf } from '../../lib/api';
import { applyUserDevices, deviceInfoFamily } from '../../lib/devicesStore';
import {
  addPendingAlarm,
  alarmKey,
  applyManagerStatus,
  attendanceFamily,
  attendanceFromLog,
  attendPendingAlarm,
  clearDeviceAlarms,
  managerStatusFromEvent,
  managerStatusFromLog,
  pendingAlarmsAtom,
  pendingFromAlarmOn,
  pendingFromLog,
  type PendingAlarm,
} from '../../lib/pendingAlarms';
import { useServices } from '../../lib/services';

export function useAlarmSync(): void {
  const store = useStore();
  const { socket } = useServices();

  useEffect(() => {
    if (!socket) return;
    let cancelled = false;
    // Devices whose log was read for the alarm they report, until their status clears.
    const fetched = new Set<string>();

    const readLog = async (deviceId: string) => {
      try {
        const log = await getAlarms(deviceId);
        if (cancelled) return;
        for (const alarm of pendingFromLog(log)) add(alarm);
        const status = managerStatusFromLog(log, deviceId);
        if (status) applyManagerStatus(store, deviceId, status);
      } catch (err) {
        console.error('alarm log could not be read', deviceId, err);
        fetched.delete(deviceId);
      }
    };

    const onStatus = (deviceId: string | null, unattended: boolean | undefined) => {
      if (!deviceId) return;
      if (unattended === false) {
        fetched.delete(deviceId);
        clearDeviceAlarms(store, deviceId);
        return;
      }
      if (unattended !== true || fetched.has(deviceId)) return;
      if (store.get(pendingAlarmsAtom).some((a) => a.deviceId === deviceId)) return;
      fetched.add(deviceId);
      void readLog(deviceId);
    };

    // The event can arrive before the alarm log has stored who attended (the hub's writer
    // batches): read it again a few times until that alarm shows as attended.
    const learnWhoAttended = async (deviceId: string, alarmId: number | string) => {
      const key = alarmKey(deviceId, alarmId);
      for (let attempt = 0; attempt < 5 && !cancelled; attempt++) {
        try {
          const log = await getAlarms(deviceId);
          const attendance = attendanceFromLog(log.filter((e) => e._id.$oid === key), deviceId);
          if (attendance) {
            if (!cancelled) store.set(attendanceFamily(deviceId), attendance);
            return;
          }
        } catch (err) {
          console.error('alarm log could not be read', deviceId, err);
        }
        await new Promise((done) => setTimeout(done, 600));
      }
    };

    // The banner names bed and room on any screen: the device list is read once if an alarm's
    // device is not known yet (the devices screen reads it anyway).
    let listing = false;
    const knowDevice = async (deviceId: string) => {
      if (listing || store.get(deviceInfoFamily(deviceId))) return;
      listing = true;
      try {
        const devices = await getUserDevices();
        if (!cancelled) applyUserDevices(store, devices);
      } catch (err) {
        console.error('userDevices failed', err);
      } finally {
        listing = false;
      }
    };
    const add = (alarm: PendingAlarm) => {
      if (addPendingAlarm(store, alarm)) void knowDevice(alarm.deviceId);
    };

    const off = socket.onEvent((env) => {
      const data = (env.data ?? {}) as Record<string, unknown>;
      switch (env.event) {
        case 'alarmOn': {
          const alarm = pendingFromAlarmOn(data);
          if (alarm) add(alarm);
          break;
        }
        case 'alarmAttended': {
          const deviceId = oidOf(data.deviceId);
          if (!deviceId || (typeof data.alarmId !== 'number' && typeof data.alarmId !== 'string')) break;
          attendPendingAlarm(store, deviceId, data.alarmId, typeof data.attendedAtMs === 'number' ? data.attendedAtMs : Date.now());
          void learnWhoAttended(deviceId, data.alarmId);
          break;
        }
        case 'alarmStatus': {
          const reported = managerStatusFromEvent(data);
          if (reported) applyManagerStatus(store, reported.deviceId, reported.status);
          break;
        }
        case 'deviceConf':
          onStatus(oidOf(data.deviceId), data.unattendedAlarm as boolean | undefined);
          break;
        default:
          break;
      }
    });

    return () => {
      cancelled = true;
      off();
      store.set(pendingAlarmsAtom, []);
    };
  }, [store, socket]);
}

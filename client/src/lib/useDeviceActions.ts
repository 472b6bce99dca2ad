//! What a device's card and its ward tile do alike: open the device's page (Enter or Space on the
//! focused card too) and attend its alarms without opening the page.

import { useAtomValue, useStore } from 'jotai';
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { attendDevice } from './alarms';
import { useDeviceType } from './deviceTypes';
import { deviceViewFamily } from './devicesStore';

export function useDeviceActions(deviceId: string, typeLabel: string) {
  const navigate = useNavigate();
  const store = useStore();
  const view = useAtomValue(deviceViewFamily(deviceId));
  const info = useDeviceType(view.deviceType);
  const [attending, setAttending] = useState(false);

  const open = () => {
    if (!info?.route) {
      console.error('invalid device type', view.deviceType);
      return;
    }
    navigate(info.route, { state: { device: view.device ?? { _id: { $oid: deviceId }, name: view.name, deviceType: view.deviceType } } });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };
  const attend = async (e: MouseEvent) => {
    e.stopPropagation();
    setAttending(true);
    await attendDevice(store, deviceId, typeLabel);
    setAttending(false);
  };
  return { open, onKeyDown, attend, attending };
}

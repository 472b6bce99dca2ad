//! Which devices get a card: not the horse sub-devices, not devices that belong to a parent (the
//! sub-devices of a room set or a horse), spec §2.

import { oidOf, type UserDevice } from '../../lib/api';
import { SUBDEVICE_TYPE } from '../../lib/deviceTypes';

export function isVisibleDevice(device: Pick<UserDevice, 'deviceType' | 'parent'>): boolean {
  if (device.deviceType === SUBDEVICE_TYPE) return false;
  if (oidOf(device.parent) !== null) return false;
  return true;
}

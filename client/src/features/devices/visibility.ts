//! Which devices get a card: not the types the hub's table marks card-less (horse sub-devices),
//! not devices that belong to a parent (the sub-devices of a room set or a horse), spec §2.

import { oidOf, type UserDevice } from '../../lib/api';
import { typeInfo, type DeviceTypeTable } from '../../lib/deviceTypes';

export function isVisibleDevice(device: Pick<UserDevice, 'deviceType' | 'parent'>, table: DeviceTypeTable | null): boolean {
  if (typeInfo(table, device.deviceType)?.card === false) return false;
  if (oidOf(device.parent) !== null) return false;
  return true;
}

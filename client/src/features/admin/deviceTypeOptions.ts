//! The device types an administrator may register: every type of the hub's device-type table that
//! has a page of its own (sub-devices such as the horse's sides are created with their parent).

import { useAtomValue } from 'jotai';
import { deviceTypesAtom, useDeviceType, type DeviceTypeTable } from '../../lib/deviceTypes';

export function registrableDeviceTypes(table: DeviceTypeTable | null): string[] {
  return table ? Object.values(table).filter((info) => info.route !== null).map((info) => info.name) : [];
}

export const useRegistrableDeviceTypes = (): string[] => registrableDeviceTypes(useAtomValue(deviceTypesAtom));

/** Spec §5: the number of sub-devices is asked only for the type whose page shows its sides. */
export const useAsksForSubdevices = (deviceType: string): boolean => useDeviceType(deviceType)?.pageFamily === 'horse';

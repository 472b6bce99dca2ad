//! The device types an administrator may register: the client's device-type table (lib/deviceTypes,
//! the types the hub accepts; sub-devices are created with their parent). When the hub serves its
//! type table, read it here instead.

import { DEVICE_TYPES } from '../../lib/deviceTypes';

export const registrableDeviceTypes = (): string[] => Object.keys(DEVICE_TYPES);

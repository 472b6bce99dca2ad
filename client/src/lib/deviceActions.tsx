//! What the app adds to a device wherever a feature shows one (the edit and info buttons of the
//! device-admin feature): provided once at the app layer, so features need not import each other.

import { createContext, useContext, type ReactNode } from 'react';
import type { UserDevice } from './api';

export type DeviceActions = (device: UserDevice) => ReactNode;

export const DeviceActionsContext = createContext<DeviceActions | null>(null);

/** The actions for `device`, or nothing when the app provides none. */
export function useDeviceActions(device: UserDevice): ReactNode {
  const actions = useContext(DeviceActionsContext);
  return actions ? actions(device) : null;
}

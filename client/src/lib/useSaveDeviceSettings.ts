//! Checks and saves a device's settings with the §8 toasts: deviceParameters when a field is empty,
//! deviceInfoUpdated on success, deviceInfoUpdateFail on failure.

import { useStore } from 'jotai';
import { useState } from 'react';
import type { UserDevice } from './api';
import { notify } from './notifications';
import { deviceSettingsError, saveDeviceSettings, type DeviceSettings } from './deviceSettings';

export function useSaveDeviceSettings() {
  const store = useStore();
  const [saving, setSaving] = useState(false);
  const save = async (deviceId: string, settings: DeviceSettings): Promise<UserDevice | null> => {
    const error = deviceSettingsError(settings);
    if (error) {
      notify(store, { kind: 'error', key: error }, 2500);
      return null;
    }
    setSaving(true);
    try {
      const saved = await saveDeviceSettings(store, deviceId, settings);
      notify(store, { kind: 'success', key: 'deviceInfoUpdated' }, 2500);
      return saved;
    } catch {
      notify(store, { kind: 'error', key: 'deviceInfoUpdateFail' }, 2500);
      return null;
    } finally {
      setSaving(false);
    }
  };
  return { saving, save };
}

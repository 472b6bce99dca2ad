//! Checks and saves a device's settings with the §8 toasts: deviceParameters when a field is empty,
//! deviceInfoUpdated on success, deviceInfoUpdateFail on failure.

import { useStore } from 'jotai';
import { useState } from 'react';
import type { UserDevice } from './api';
import { showToast } from './messages';
import { deviceSettingsError, saveDeviceSettings, type DeviceSettings } from './deviceSettings';

export function useSaveDeviceSettings() {
  const store = useStore();
  const [saving, setSaving] = useState(false);
  const save = async (deviceId: string, settings: DeviceSettings): Promise<UserDevice | null> => {
    const error = deviceSettingsError(settings);
    if (error) {
      showToast(store, error);
      return null;
    }
    setSaving(true);
    try {
      const saved = await saveDeviceSettings(store, deviceId, settings);
      showToast(store, 'deviceInfoUpdated');
      return saved;
    } catch {
      showToast(store, 'deviceInfoUpdateFail');
      return null;
    } finally {
      setSaving(false);
    }
  };
  return { saving, save };
}

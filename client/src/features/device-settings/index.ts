//! Public surface of the device-settings feature.
export { DeviceSettingsPage } from './DeviceSettingsPage';
export { DeviceSettingsFields } from './DeviceSettingsFields';
export { deviceSettingsError, settingsOf, type DeviceSettings } from './deviceSettingsApi';
export { useSaveDeviceSettings } from './useSaveDeviceSettings';

//! Public surface of the device-settings feature.
export { DeviceSettingsPage } from './DeviceSettingsPage';

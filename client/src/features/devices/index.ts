//! Public surface of the devices feature.
export { DevicesPage } from './DevicesPage';
export { useDevicesSync } from './useDevicesSync';

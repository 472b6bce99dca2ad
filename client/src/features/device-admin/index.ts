//! Public surface of the device-admin feature: the card's edit and info modals and the buttons that
//! open them (pass `<DeviceAdminActions device={…} />` as `deviceActions` on device pages).
export { DeviceAdminActions } from './DeviceAdminActions';
export { DeviceEditModal } from './DeviceEditModal';
export { DeviceInfoModal } from './DeviceInfoModal';

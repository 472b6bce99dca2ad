//! Public surface of the admin feature.
export { AdminPanelPage } from './AdminPanelPage';
export { AdminPanelCard } from './AdminPanelCard';
export { Modal } from './Modal';
export { ADMIN_ROLE, isAdminRole, useUserRole } from './role';

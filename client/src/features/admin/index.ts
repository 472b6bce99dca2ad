//! Public surface of the admin feature.
export { AdminPanelPage } from './AdminPanelPage';
export { AdminPanelCard } from './AdminPanelCard';
export { AuditLogPage } from './AuditLogPage';

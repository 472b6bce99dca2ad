//! Public surface of the auth feature.
export { LoginPage } from './LoginPage';
export { LogoutButton } from './LogoutButton';
export { InactivityWatcher, INACTIVITY_TIMEOUT_MS } from './InactivityWatcher';
export { RequireAuth } from './RequireAuth';
export { SessionExpiryWatcher } from './SessionExpiryWatcher';

//! The route table (spec §2). /login is outside the guarded group; every other route needs a token
//! and runs the inactivity watcher. Routes are exact and case-sensitive; anything else goes to /.

import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { InactivityWatcher, LoginPage, LogoutButton, RequireAuth } from '../features/auth';
import { DevicePage } from '../features/device-page';
import type { RendererFactory } from '../features/device-page/HeatMap';
import { DevicesPage } from '../features/devices';
import { AdminPanelCard, AdminPanelPage } from '../features/admin';
import { DeviceAdminActions } from '../features/device-admin';
import { BrandingPage } from '../features/branding';
import { DeviceSettingsPage } from '../features/device-settings';
import { LIVE_ROUTES } from '../lib/deviceTypes';

function Guarded() {
  return (
    <RequireAuth>
      <InactivityWatcher />
      <Outlet />
    </RequireAuth>
  );
}

export function AppRoutes({ createRenderer }: { createRenderer?: RendererFactory }) {
  return (
    <Routes>
      <Route path="/login" caseSensitive element={<LoginPage />} />
      <Route element={<Guarded />}>
        <Route
          path="/devices"
          caseSensitive
          element={
            <DevicesPage
              headerActions={<LogoutButton />}
              leadingCard={<AdminPanelCard />}
              cardActions={(device) => <DeviceAdminActions device={device} />}
            />
          }
        />
        <Route path="/adminPanel" caseSensitive element={<AdminPanelPage />} />
        <Route path="/brandingOptions" caseSensitive element={<BrandingPage />} />
        <Route path="/deviceSettings" caseSensitive element={<DeviceSettingsPage />} />
        <Route path="/roomSettings" caseSensitive element={<DeviceSettingsPage room />} />
        {LIVE_ROUTES.map((r) => (
          <Route
            key={r.path}
            path={r.path}
            caseSensitive
            element={<DevicePage key={r.path} deviceType={r.deviceType} createRenderer={createRenderer} />}
          />
        ))}
      </Route>
      {/* The provider's external website is not part of this hub: / opens the device grid. */}
      <Route path="/" element={<Navigate to="/devices" replace />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

//! The route table (spec §2). /login is outside the guarded group; every other route needs a token
//! and runs the inactivity watcher. Device routes come from the hub's device-type table (each type's
//! route, and the analysis routes such as /Podology); the page a route shows is chosen from the
//! device in navigation state by its type's page family. Routes are exact and case-sensitive;
//! anything else goes to / (once the table is known: before, a device route may still be loading).

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { InactivityWatcher, LoginPage, LogoutButton, RequireAuth, SessionExpiryWatcher } from '../features/auth';
import { CompanyVariantsSection, CompanyVariantsSync } from '../features/company-variants';
import { AlarmBanner } from '../features/alarm-banner';
import { DevicePage, PodologyAnalysisPage } from '../features/device-page';
import type { RendererFactory } from '../features/device-page/HeatMap';
import { DevicesPage } from '../features/devices';
import { analysisRoutes, deviceTypesAtom, pageRoutes, settingsRoutes } from '../lib/deviceTypes';
import { DeviceActionsContext, type DeviceActions } from '../lib/deviceActions';
import { SessionActionsContext } from '../lib/sessionActions';
import { boardUnitAtom, tokenAtom } from '../lib/session';
import { AdminPanelCard, AdminPanelPage, AuditLogPage } from '../features/admin';
import { AlarmManagerPage } from '../features/alarm-manager';
import { DeviceAdminActions } from '../features/device-admin';
import { BrandingPage } from '../features/branding';
import { DeviceSettingsPage } from '../features/device-settings';
import { BoardTokenRenewer, PairScreenPage, unitPath, WardBoardLink, WardBoardPage, type WardRendererFactory } from '../features/ward';
import { CompliancePage } from '../features/compliance';

const deviceActions: DeviceActions = (device) => <DeviceAdminActions device={device} />;

/**
 * A paired wall screen (role 3): its unit's board only, read-only — no inactivity logout (nobody
 * signs in on the wall), no Log out, no banner with Attend (the board's tiles show every alarm); its
 * token renews while it runs. Every other path opens its board.
 */
function WallScreenFrame({ unit }: { unit: string }) {
  const { pathname } = useLocation();
  const board = unitPath(unit);
  if (decodeURIComponent(pathname) !== decodeURIComponent(board)) return <Navigate to={board} replace />;
  return (
    <>
      <SessionExpiryWatcher />
      <BoardTokenRenewer />
      <CompanyVariantsSync />
      <Outlet />
    </>
  );
}

function Guarded() {
  const boardUnit = useAtomValue(boardUnitAtom);
  if (boardUnit !== null) {
    return (
      <RequireAuth>
        <WallScreenFrame unit={boardUnit} />
      </RequireAuth>
    );
  }
  return (
    <RequireAuth>
      <InactivityWatcher />
      <SessionExpiryWatcher />
      <CompanyVariantsSync />
      <SessionActionsContext.Provider value={<LogoutButton />}>
        <DeviceActionsContext.Provider value={deviceActions}>
          <div className="app-frame">
            <div className="app-frame-page">
              <Outlet />
            </div>
            <AlarmBanner />
          </div>
        </DeviceActionsContext.Provider>
      </SessionActionsContext.Provider>
    </RequireAuth>
  );
}

/** Unknown paths go to /; while the signed-in session still loads the table, wait for it. */
function Fallback() {
  const { t } = useTranslation();
  const table = useAtomValue(deviceTypesAtom);
  const token = useAtomValue(tokenAtom);
  if (!table && token) {
    return (
      <div className="page-loading" role="status">
        {t('pages.loading')}
      </div>
    );
  }
  return <Navigate to="/" replace />;
}

export function AppRoutes({ createRenderer, createWardRenderer }: { createRenderer?: RendererFactory; createWardRenderer?: WardRendererFactory }) {
  const table = useAtomValue(deviceTypesAtom);
  return (
    <Routes>
      <Route path="/login" caseSensitive element={<LoginPage />} />
      <Route path="/pair" caseSensitive element={<PairScreenPage />} />
      <Route element={<Guarded />}>
        <Route
          path="/devices"
          caseSensitive
          element={
            <DevicesPage
              headerActions={<WardBoardLink />}
              leadingCard={<AdminPanelCard />}
              cardActions={deviceActions}
            />
          }
        />
        <Route path="/ward" caseSensitive element={<WardBoardPage createRenderer={createWardRenderer} />} />
        <Route path="/ward/compliance" caseSensitive element={<CompliancePage />} />
        <Route path="/ward/:unit" caseSensitive element={<WardBoardPage createRenderer={createWardRenderer} />} />
        <Route path="/adminPanel" caseSensitive element={<AdminPanelPage />} />
        <Route path="/adminPanel/auditLog" caseSensitive element={<AuditLogPage />} />
        <Route path="/adminPanel/alarmManager" caseSensitive element={<AlarmManagerPage />} />
        <Route path="/brandingOptions" caseSensitive element={<BrandingPage variantsSection={<CompanyVariantsSection />} />} />
        {table
          ? settingsRoutes(table).map((path) => <Route key={path} path={path} caseSensitive element={<DeviceSettingsPage />} />)
          : null}
        {table
          ? pageRoutes(table).map((path) => (
              <Route key={path} path={path} caseSensitive element={<DevicePage key={path} createRenderer={createRenderer} />} />
            ))
          : null}
        {table
          ? analysisRoutes(table).map((path) => (
              <Route key={path} path={path} caseSensitive element={<PodologyAnalysisPage createRenderer={createRenderer} />} />
            ))
          : null}
      </Route>
      {/* The provider's external website is not part of this hub: / opens the device grid. */}
      <Route path="/" element={<Navigate to="/devices" replace />} />
      <Route path="*" element={<Fallback />} />
    </Routes>
  );
}

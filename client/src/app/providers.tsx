//! App-wide providers: the jotai store, i18next, the socket client (open while signed in) and the
//! live-map store, plus the notification area.

import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import type { i18n as I18n } from 'i18next';
import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Notifications } from '../components/Notifications';
import { deviceTypesAtom, deviceTypesErrorAtom, loadDeviceTypes } from '../lib/deviceTypes';
import { resetDeviceState, type AppStore } from '../lib/devicesStore';
import type { LiveMapStore } from '../lib/liveMaps';
import { loadPressureScale, pressureScaleAtom } from '../lib/pressureUnits';
import { ServicesContext, type Services, type SocketApi } from '../lib/services';
import { dropToken, readToken, tokenAtom } from '../lib/session';
import { SocketClient } from '../lib/socket';

/** A socket the app can open and close; the real one is {@link SocketClient}. */
export type ManagedSocket = SocketApi & { connect(): void; close(): void };
export type SocketFactory = (deps: { store: AppStore; liveMaps: LiveMapStore; token: string }) => ManagedSocket;

export const defaultSocketFactory: SocketFactory = ({ store, liveMaps }) =>
  new SocketClient({
    store,
    liveMaps,
    getToken: readToken,
    onUnauthorized: dropToken,
  });

function ServicesProvider({
  store,
  liveMaps,
  createSocket,
  children,
}: {
  store: AppStore;
  liveMaps: LiveMapStore;
  createSocket: SocketFactory;
  children: ReactNode;
}) {
  const token = useAtomValue(tokenAtom);
  const signedIn = token !== null;
  const [socket, setSocket] = useState<ManagedSocket | null>(null);

  useEffect(() => {
    if (!signedIn || !token) return;
    const s = createSocket({ store, liveMaps, token });
    s.connect();
    // Alarms reach every screen of a signed-in session (spec §2: a notification area everywhere).
    s.joinCompany();
    setSocket(s);
    let cancelled = false;
    void loadDeviceTypes(store, () => cancelled);
    void loadPressureScale(store, () => cancelled);
    return () => {
      cancelled = true;
      store.set(deviceTypesAtom, null);
      store.set(pressureScaleAtom, null);
      store.set(deviceTypesErrorAtom, false);
      s.close();
      setSocket(null);
      liveMaps.clear();
      resetDeviceState(store);
    };
    // The socket lives for the whole signed-in session; a new token means a new session.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn, store, liveMaps, createSocket]);

  const services = useMemo<Services>(() => ({ socket, liveMaps }), [socket, liveMaps]);
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function AppProviders({
  store,
  i18n,
  liveMaps,
  createSocket = defaultSocketFactory,
  children,
}: {
  store: AppStore;
  i18n: I18n;
  liveMaps: LiveMapStore;
  createSocket?: SocketFactory;
  children: ReactNode;
}) {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<div className="boot" />}>
          <ServicesProvider store={store} liveMaps={liveMaps} createSocket={createSocket}>
            {children}
            <Notifications />
          </ServicesProvider>
        </Suspense>
      </I18nextProvider>
    </JotaiProvider>
  );
}

// Renders the whole app (routes, providers) in a memory router with a fake socket and renderer.
import { act, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders, type ManagedSocket, type SocketFactory } from '../app/providers';
import { AppRoutes } from '../app/routes';
import { deviceTypesAtom } from '../lib/deviceTypes';
import { createAppStore } from '../lib/devicesStore';
import type { HeatMapRenderer } from '../lib/heatmap/renderer';
import type { WardRendererFactory } from '../features/ward';
import { initI18nWithResources } from '../lib/i18n';
import { LiveMapStore } from '../lib/liveMaps';
import { bindSessionStore } from '../lib/session';
import { allResources } from './translations';
import DEVICE_TYPE_TABLE from './fixtures/deviceTypes.json';
import PRESSURE_SCALE from './fixtures/pressureScale.json';

export { DEVICE_TYPE_TABLE, PRESSURE_SCALE };

export function fakeSocket(): ManagedSocket & { [k: string]: ReturnType<typeof vi.fn> } {
  return {
    connect: vi.fn(),
    close: vi.fn(),
    joinCompany: vi.fn(),
    joinUser: vi.fn(),
    leaveUser: vi.fn(),
    startStreaming: vi.fn(),
    requestStreamingRemaining: vi.fn(),
    startCapture: vi.fn(),
    activateRemote: vi.fn(),
    startAnalysisTimer: vi.fn(),
    onEvent: vi.fn(() => () => {}),
  };
}

/** The ward board's one map renderer, recording which device's map goes on which slot (jsdom
 * has no WebGL). */
export const fakeWardRenderer: WardRendererFactory = () =>
  Promise.resolve({
    kind: 'none',
    attach: (deviceId: string, slot: HTMLElement) => {
      slot.dataset.attached = deviceId;
      return () => {
        delete slot.dataset.attached;
      };
    },
    relayout: () => {},
    destroy: () => {},
  });

export const fakeRenderer = () =>
  Promise.resolve<HeatMapRenderer>({ kind: 'canvas2d', draw: vi.fn(), destroy: vi.fn() });

/** Shows the current path so tests can assert navigation. */
function LocationProbe() {
  const loc = useLocation();
  return <div data-testid="location">{loc.pathname}</div>;
}

export async function renderApp(
  path: string,
  opts: { state?: unknown; socket?: ManagedSocket; createSocket?: SocketFactory; language?: string } = {},
) {
  const store = createAppStore();
  bindSessionStore(store);
  const i18n = await initI18nWithResources(allResources(), opts.language ?? 'en');
  const liveMaps = new LiveMapStore();
  const socket = opts.socket ?? fakeSocket();
  const utils = render(
    <AppProviders store={store} i18n={i18n} liveMaps={liveMaps} createSocket={opts.createSocket ?? (() => socket)}>
      <MemoryRouter initialEntries={[{ pathname: path, state: opts.state }]}>
        <AppRoutes createRenderer={fakeRenderer} createWardRenderer={fakeWardRenderer} />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  // A signed-in session loads the hub's device-type table first (routes depend on it).
  if (localStorage.getItem('user')) {
    await act(async () => {
      if (store.get(deviceTypesAtom)) return;
      await new Promise<void>((done) => {
        const off = store.sub(deviceTypesAtom, () => {
          off();
          done();
        });
      });
    });
  }
  return { ...utils, store, i18n, liveMaps, socket };
}

/** A fetch stub answering by path. `/api/deviceTypes` answers the hub's table (the fixture a hub
 * test keeps equal to what the hub serves) unless the test gives its own. */
/** A signed-in session on device `deviceId`'s page: an empty device list, no logs or alarms, and
 * `routes` (its repositioning clock, turns…) on top. */
export function signInToDevicePage(deviceId: string, routes: Parameters<typeof stubFetch>[0] = {}) {
  localStorage.setItem('user', 'T0K');
  return stubFetch({
    '/api/userDevices': () => ({ body: [] }),
    '/api/deviceConfCompany': () => ({ body: [] }),
    [`/api/iotLogs/${deviceId}`]: () => ({ body: [] }),
    [`/api/iotAlarms/${deviceId}`]: () => ({ body: [] }),
    ...routes,
  });
}

export function stubFetch(routes: Record<string, (init?: RequestInit) => { status?: number; body: unknown }>) {
  const all: typeof routes = {
    '/api/deviceTypes': () => ({ body: DEVICE_TYPE_TABLE }),
    '/api/pressureScale': () => ({ body: PRESSURE_SCALE }),
    ...routes,
  };
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const handler = all[url];
    if (!handler) return new Response(JSON.stringify({ error: 'notFound' }), { status: 404 });
    const { status = 200, body } = handler(init);
    if (status === 204) return new Response(null, { status });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

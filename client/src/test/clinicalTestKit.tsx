// Test kit for the clinical workspace: the app's providers with a fake socket whose events the test
// emits, a stubbed hub for the patient calls, and the streaming control beside the workspace.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers';
import type { UserDevice } from '../lib/api';
import { createAppStore } from '../lib/devicesStore';
import { initI18nWithResources } from '../lib/i18n';
import { LiveMapStore } from '../lib/liveMaps';
import { bindSessionStore } from '../lib/session';
import { fakeSocket } from './renderApp';
import { allResources } from './translations';
import { StreamingControl } from '../features/device-page/StreamingControl';
import { ClinicalWorkspace, type ClinicalCapabilities } from '../features/clinical/ClinicalWorkspace';

export const DEVICE: UserDevice = { _id: { $oid: 'pod1' }, name: 'Podology plate', deviceType: 'Podology IoT', hardwareSerial: 'P1' };
export const USER_ID = 'u1';
export const ANA = { _id: { $oid: 'p1' }, name: 'Ana García', weight: 68.5, height: 172, phone: '-1', phone2: '-1', size: -1, postalCode: '-1', email: 'ana@clinic.es', notes: '' };
export const ALL_CAPTURES: ClinicalCapabilities = { captures: ['Static', 'Dynamic', 'Balance', 'Fitting', 'Series24h', 'Remote'], pdfReports: true };

export type Listener = (env: { event: string; data?: unknown }) => void;

export function eventSocket() {
  const listeners = new Set<Listener>();
  const socket = fakeSocket();
  socket.onEvent = vi.fn((l: Listener) => {
    listeners.add(l);
    return () => listeners.delete(l);
  });

  const emit = (event: string, data: unknown) => {
    for (const l of [...listeners]) l({ event, data });
  };
  return { socket, emit };
}

interface HubCall {
  method: string;
  path: string;
  body: unknown;
}
type Answer = { status?: number; body: unknown };

/** A hub for the patient calls: `routes` answer `METHOD path`; every call is recorded. */
export function stubHub(routes: Record<string, (body: unknown) => Answer>) {
  const calls: HubCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path, body });
    const handler = routes[`${method} ${path}`];
    const { status = 200, body: answer } = handler ? handler(body) : { status: 404, body: { error: 'notFound' } };
    return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

export const SELECT_PATH = `/api/podometry/patient/select/${USER_ID}`;
export const PATIENTS_PATH = `/api/podometry/patients/${USER_ID}`;

export function signIn() {
  localStorage.setItem('user', 'T0K');
  localStorage.setItem('userId', USER_ID);
  localStorage.setItem('company', 'Demo Clinic');
}

export async function renderWorkspace(
  opts: { capabilities?: ClinicalCapabilities; device?: UserDevice; deviceActions?: ReactNode; beside?: ReactNode; role?: number } = {},
) {
  signIn();
  if (opts.role !== undefined) localStorage.setItem('role', String(opts.role));
  const store = createAppStore();
  bindSessionStore(store);
  const i18n = await initI18nWithResources(allResources(), 'en');
  const { socket, emit } = eventSocket();
  const utils = render(
    <AppProviders store={store} i18n={i18n} liveMaps={new LiveMapStore()} createSocket={() => socket}>
      <MemoryRouter>
        <StreamingControl deviceId="pod1" functional={true} />
        {opts.beside}
        <ClinicalWorkspace device={opts.device ?? DEVICE} capabilities={opts.capabilities ?? ALL_CAPTURES} deviceActions={opts.deviceActions} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...utils, store, socket, emit };
}

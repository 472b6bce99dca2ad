import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyDeviceConf } from '../../lib/devicesStore';
import { addPendingAlarm } from '../../lib/pendingAlarms';
import { ROLE_BOARD, sessionAtom, sessionEndAtom } from '../../lib/session';
import { fakeSocket, renderApp, stubFetch } from '../../test/renderApp';
import { renewDelayMs } from './BoardTokenRenewer';
import { formatCode, pairingLink } from './screensApi';
import { unitFromKey, unitOf } from './unit';

const UNIT = 'North · 2';
const oid = ($oid: string) => ({ $oid });
const device = (id: string, building: string, floor: string) => ({
  _id: oid(id),
  name: `BED-${id}`,
  bed: id,
  room: `R${id}`,
  building,
  floor,
  deviceType: 'Mattress Mat IoT',
  hardwareSerial: `SN-${id}`,
  company: 'c1',
  currentPatient: null,
  currentPatientName: null,
  numberOfSubdevices: 0,
  system: { devices: [] },
});
const conf = (deviceId: string, over: Record<string, unknown> = {}) => ({
  deviceId,
  deviceFunctional: true,
  cardStatus: 'Correct',
  stateCode: 0,
  repositioning: 'ok',
  unattendedAlarm: false,
  ...over,
});
const SCREEN = { id: 's1', unit: UNIT, pairedAt: 1_700_000_000, pairedByEmail: 'admin@clinic.es', lastSeen: 1_700_000_600, expired: false };
const PAIRED = {
  token: 'BOARD-TOKEN',
  screenId: 's1',
  companyId: 'c1',
  companyName: 'Clinic',
  unit: UNIT,
  role: ROLE_BOARD,
  expiresAt: Math.floor(Date.now() / 1000) + 30 * 86400,
  renewAt: Math.floor(Date.now() / 1000) + 86400,
};

function hub(over: Parameters<typeof stubFetch>[0] = {}) {
  const calls: { path: string; method: string; body: unknown; auth: string | null }[] = [];
  const record = (path: string) => (init?: RequestInit) => {
    calls.push({
      path,
      method: init?.method ?? 'GET',
      body: init?.body ? JSON.parse(String(init.body)) : null,
      auth: new Headers(init?.headers).get('Authorization'),
    });
  };
  let screens = [SCREEN];
  const fetch = stubFetch({
    '/api/userDevices': () => ({ body: [device('b1', 'North', '2'), device('b2', 'North', '3')] }),
    '/api/deviceConfCompany': () => ({ body: [conf('b1', { cardStatus: 'Missing', stateCode: 1, unattendedAlarm: true }), conf('b2')] }),
    '/api/wardBoard': () => ({ body: [] }),
    '/api/wardSettings': () => ({ body: { patientInitials: false } }),
    '/api/companyVariants': () => ({ body: { hideCentreOfPressure: false, fitness: false, seatingLabels: false } }),
    '/api/wardScreens': (init) => {
      record('/api/wardScreens')(init);
      if (init?.method === 'POST') return { status: 201, body: { code: 'ABCDEFGH', unit: UNIT, expiresAt: Math.floor(Date.now() / 1000) + 300 } };
      return { body: screens };
    },
    '/api/wardScreen/s1': (init) => {
      record('/api/wardScreen/s1')(init);
      screens = [];
      return { status: 204, body: null };
    },
    '/api/wardScreens/pair': (init) => {
      record('/api/wardScreens/pair')(init);
      const code = JSON.parse(String(init?.body)).code;
      return code.replace(/[^A-Z0-9]/gi, '').toUpperCase() === 'ABCDEFGH' ? { body: PAIRED } : { status: 400, body: { error: 'invalidPairingCode' } };
    },
    '/api/auth/logout': (init) => {
      record('/api/auth/logout')(init);
      return { status: 204, body: null };
    },
    ...over,
  });
  return { fetch, calls };
}

const location = () => screen.getByTestId('location').textContent;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('wall screens', () => {
  it('an administrator pairs a screen for the unit shown, sees the paired screens and unpairs one', async () => {
    localStorage.setItem('user', 'ADMIN-TOKEN');
    localStorage.setItem('role', '1');
    const { calls } = hub();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await renderApp(`/ward/${encodeURIComponent(UNIT)}`);
    const panel = await screen.findByTestId('wall-screens');
    await waitFor(() => expect(within(panel).getAllByTestId('wall-screen')).toHaveLength(1));
    expect(within(panel).getByTestId('wall-screen')).toHaveTextContent('North · floor 2');
    expect(within(panel).getByTestId('wall-screen')).toHaveTextContent('admin@clinic.es');
    fireEvent.click(within(panel).getByTestId('pair-screen-start'));
    await waitFor(() => expect(within(panel).getByTestId('pairing-code-value')).toHaveTextContent('ABCD-EFGH'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ unit: UNIT });
    expect(within(panel).getByTestId('pairing-link')).toHaveAttribute('href', `${window.location.origin}/pair#ABCDEFGH`);
    fireEvent.click(within(panel).getByTestId('unpair-screen'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/wardScreen/s1' && c.method === 'DELETE')).toBe(true));
    await waitFor(() => expect(within(panel).queryAllByTestId('wall-screen')).toHaveLength(0));
    expect(panel).toHaveTextContent('No screen is paired yet.');
  });

  it('staff see no wall screens, and the company-wide board offers no pairing', async () => {
    localStorage.setItem('user', 'STAFF-TOKEN');
    localStorage.setItem('role', '2');
    hub();
    await renderApp('/ward');
    await waitFor(() => expect(screen.getAllByTestId('ward-tile')).toHaveLength(2));
    expect(screen.queryByTestId('wall-screens')).toBeNull();
  });

  it('"Use this browser as the screen" signs the administrator out and opens the board as a screen', async () => {
    localStorage.setItem('user', 'ADMIN-TOKEN');
    localStorage.setItem('role', '1');
    const { calls } = hub();
    const { store } = await renderApp(`/ward/${encodeURIComponent(UNIT)}`);
    fireEvent.click(await screen.findByTestId('pair-screen-start'));
    fireEvent.click(await screen.findByTestId('pair-here'));
    await waitFor(() => expect(store.get(sessionAtom)?.role).toBe(ROLE_BOARD));
    expect(calls.find((c) => c.path === '/api/auth/logout')?.auth).toBe('Bearer ADMIN-TOKEN');
    expect(localStorage.getItem('user')).toBe('BOARD-TOKEN');
    expect(localStorage.getItem('boardUnit')).toBe(UNIT);
    await screen.findByTestId('wall-screen-badge');
  });

  it('a wall screen pairs with a code and shows its unit only, with no Attend, turn, names switch or navigation', async () => {
    const { calls } = hub();
    const { store } = await renderApp('/pair');
    fireEvent.change(screen.getByTestId('pair-code'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByTestId('pair-submit'));
    expect(await screen.findByTestId('pair-error')).toHaveTextContent('This pairing code is unknown, already used or expired.');
    fireEvent.change(screen.getByTestId('pair-code'), { target: { value: 'abcd-efgh' } });
    fireEvent.click(screen.getByTestId('pair-submit'));
    await waitFor(() => expect(location()).toBe(`/ward/${encodeURIComponent(UNIT)}`));
    expect(calls.filter((c) => c.path === '/api/wardScreens/pair').map((c) => c.auth)).toEqual([null, null]);
    expect(store.get(sessionAtom)).toMatchObject({ token: 'BOARD-TOKEN', role: ROLE_BOARD, unit: UNIT });
    await waitFor(() => expect(screen.getAllByTestId('ward-tile')).toHaveLength(1));
    act(() => {
      applyDeviceConf(store, { deviceId: 'b1', deviceFunctional: true, cardStatus: 'Missing', stateCode: 1, repositioning: 'ok', unattendedAlarm: true });
      addPendingAlarm(store, { key: 'b1-1', deviceId: 'b1', kind: 'Missing', raisedAtMs: Date.now() - 60_000 });
    });
    await screen.findByTestId('ward-alarm');
    expect(screen.queryByTestId('ward-attend')).toBeNull();
    expect(screen.queryByTestId('alarm-attend')).toBeNull();
    expect(screen.queryByTestId('ward-unit')).toBeNull();
    expect(screen.queryByTestId('ward-initials')).toBeNull();
    expect(screen.queryByTestId('wall-screens')).toBeNull();
    expect(screen.queryByText('Log out')).toBeNull();
    expect(screen.getByTestId('wall-screen-badge')).toHaveTextContent('Wall screen · view only');
  });

  it('a wall screen stays on its own board whatever path it is sent to', async () => {
    localStorage.setItem('user', 'BOARD-TOKEN');
    localStorage.setItem('role', String(ROLE_BOARD));
    localStorage.setItem('boardUnit', UNIT);
    hub();
    await renderApp('/devices');
    await waitFor(() => expect(location()).toBe(`/ward/${encodeURIComponent(UNIT)}`));
    await renderApp('/ward/North%20%C2%B7%203');
    await waitFor(() => expect(screen.getAllByTestId('location').at(-1)?.textContent).toBe(`/ward/${encodeURIComponent(UNIT)}`));
  });

  it('an unpaired screen goes to its pairing page, which says so', async () => {
    localStorage.setItem('user', 'BOARD-TOKEN');
    localStorage.setItem('role', String(ROLE_BOARD));
    localStorage.setItem('boardUnit', UNIT);
    hub({ '/api/wardBoard': () => ({ status: 401, body: { error: 'screenUnpaired' } }) });
    const { store } = await renderApp(`/ward/${encodeURIComponent(UNIT)}`);
    await waitFor(() => expect(location()).toBe('/pair'));
    expect(store.get(sessionEndAtom)).toBe('unpaired');
    expect(screen.getByTestId('screen-unpaired')).toHaveTextContent('This screen is no longer paired');
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('boardUnit')).toBeNull();
  });

  it('a screen renews its token at renewAt without a new socket or a reload', async () => {
    localStorage.setItem('user', 'BOARD-TOKEN');
    localStorage.setItem('role', String(ROLE_BOARD));
    localStorage.setItem('boardUnit', UNIT);
    localStorage.setItem('renewAt', String(Math.floor(Date.now() / 1000) - 1));
    const { calls } = hub({
      '/api/wardScreens/renew': (init) => {
        calls.push({ path: '/api/wardScreens/renew', method: init?.method ?? 'GET', body: null, auth: new Headers(init?.headers).get('Authorization') });
        return { body: { ...PAIRED, token: 'RENEWED', renewAt: PAIRED.renewAt + 86400 } };
      },
    });
    const createSocket = vi.fn(() => fakeSocket());
    const { store } = await renderApp(`/ward/${encodeURIComponent(UNIT)}`, { createSocket });
    await waitFor(() => expect(store.get(sessionAtom)?.token).toBe('RENEWED'));
    expect(calls.find((c) => c.path === '/api/wardScreens/renew')?.auth).toBe('Bearer BOARD-TOKEN');
    expect(localStorage.getItem('user')).toBe('RENEWED');
    expect(store.get(sessionAtom)).toMatchObject({ role: ROLE_BOARD, unit: UNIT, renewAt: PAIRED.renewAt + 86400 });
    expect(createSocket).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('location')).toHaveTextContent(`/ward/${encodeURIComponent(UNIT)}`);
  });

  it('helpers: the code as read aloud, the link, the renewal delay', () => {
    expect(formatCode('ABCDEFGH')).toBe('ABCD-EFGH');
    expect(pairingLink('https://hub', 'ABCDEFGH')).toBe('https://hub/pair#ABCDEFGH');
    expect(renewDelayMs(100, 50_000)).toBe(50_000);
    expect(renewDelayMs(100, 200_000)).toBe(0);
    expect(renewDelayMs(10 ** 9, 0)).toBe(6 * 3600_000);
    for (const unit of [{ building: 'North', floor: '2' }, { building: 'North', floor: '' }, { building: '', floor: '3' }]) {
      expect(unitFromKey(unitOf(unit))).toEqual(unit);
    }
  });
});


import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { defaultSocketFactory } from '../../app/providers';
import { companyVariantsAtom, NO_VARIANTS } from '../../lib/companyVariants';
import { isAdminAtom, roleAtom, sessionAtom, sessionEndAtom } from '../../lib/session';
import { renderApp, stubFetch } from '../../test/renderApp';

const devicesRoutes = {
  '/api/userDevices': () => ({ body: [{ _id: { $oid: 'd1' }, name: 'Bed 1', bed: 'A', deviceType: 'Mattress Mat IoT' }] }),
  '/api/deviceConfCompany': () => ({ body: [] }),
  '/api/companyVariants': () => ({ body: { hideCentreOfPressure: false, fitness: false, seatingLabels: false } }),
};

/** Every call answers 401, as for an expired token. */
function hubRefusingTheToken() {
  const refused = () => ({ status: 401, body: { error: 'unauthorized' } });
  stubFetch({ '/api/userDevices': refused, '/api/deviceConfCompany': refused, '/api/companyVariants': refused });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  storeSession('2');
}

const storeSession = (role: string) => {
  localStorage.setItem('user', 'T0K');
  localStorage.setItem('userId', 'u1');
  localStorage.setItem('companyId', 'c1');
  localStorage.setItem('company', 'Acme Care');
  localStorage.setItem('role', role);
};

describe('session state: role and company (spec §6)', () => {
  it('keeps the login’s role, company id and name in the session and local storage', async () => {
    stubFetch({
      '/api/auth/login': () => ({
        body: {
          token: 'T0K', userId: 'u1', companyId: 'c9', companyName: 'Fit Co', role: 1, expiresAt: 1,
          variants: { hideCentreOfPressure: false, fitness: true, seatingLabels: false },
        },
      }),
      ...devicesRoutes,
      '/api/companyVariants': () => ({ body: { hideCentreOfPressure: false, fitness: true, seatingLabels: false } }),
    });
    const { store } = await renderApp('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
    // expiresAt 1 (1970) is in the past for this clock: kept as unknown, the hub's 401 decides.
    expect(store.get(sessionAtom)).toEqual({ token: 'T0K', userId: 'u1', companyId: 'c9', companyName: 'Fit Co', role: 1, expiresAt: null });
    expect(store.get(isAdminAtom)).toBe(true);
    expect(store.get(companyVariantsAtom).fitness).toBe(true);
    expect(localStorage.getItem('role')).toBe('1');
    expect(localStorage.getItem('companyId')).toBe('c9');
  });

  it('is restored from local storage once at start-up and not read from it again while rendering', async () => {
    stubFetch(devicesRoutes);
    storeSession('2');
    const { store } = await renderApp('/devices');
    expect(store.get(roleAtom)).toBe(2);
    expect(store.get(isAdminAtom)).toBe(false);
    await screen.findByText('Bed 1');
    expect(screen.getAllByText('Acme Care').length).toBeGreaterThan(0);
    // Someone edits local storage behind the app's back: what is shown does not change.
    localStorage.setItem('company', 'Forged Inc');
    localStorage.setItem('role', '1');
    fireEvent.click(screen.getByText('Bed 1'));
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByText('Bed 1');
    expect(screen.queryByText('Forged Inc')).toBeNull();
    expect(store.get(isAdminAtom)).toBe(false);
  });

  it('offers administrators (role 1) the company-variants section and staff nothing', async () => {
    stubFetch(devicesRoutes);
    storeSession('1');
    await renderApp('/brandingOptions');
    expect(await screen.findByRole('heading', { name: 'Company variants' })).toBeInTheDocument();
  });

  it('staff do not see the company-variants section', async () => {
    stubFetch(devicesRoutes);
    storeSession('2');
    await renderApp('/devices');
    await screen.findByText('Bed 1');
    expect(screen.queryByRole('heading', { name: 'Company variants' })).toBeNull();
  });

  it('a session stored without a role is treated as staff', async () => {
    stubFetch(devicesRoutes);
    storeSession('');
    const { store } = await renderApp('/devices');
    expect(store.get(roleAtom)).toBeNull();
    expect(store.get(isAdminAtom)).toBe(false);
  });
});

describe('company variants load with the session', () => {
  it('loads the variants after a reload and forgets them at logout', async () => {
    stubFetch({ ...devicesRoutes, '/api/companyVariants': () => ({ body: { hideCentreOfPressure: true, fitness: false, seatingLabels: true } }) });
    storeSession('2');
    const { store } = await renderApp('/devices');
    await waitFor(() => expect(store.get(companyVariantsAtom)).toEqual({ hideCentreOfPressure: true, fitness: false, seatingLabels: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(store.get(companyVariantsAtom)).toEqual(NO_VARIANTS);
    expect(localStorage.getItem('role')).toBeNull();
    expect(localStorage.getItem('companyId')).toBeNull();
    // A logout is not an expiry: no message on /login.
    expect(screen.queryByTestId('session-ended')).toBeNull();
  });
});

describe('inactivity and expired sessions (spec §4)', () => {
  it('the 15-minute logout also closes the socket and says why on /login', async () => {
    stubFetch(devicesRoutes);
    storeSession('2');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const { socket, store } = await renderApp('/devices');
    expect(socket.connect).toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(899_999));
    expect(socket.close).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(socket.close).toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(store.get(sessionEndAtom)).toBe('inactivity');
    expect(screen.getByTestId('session-ended')).toHaveTextContent('You were signed out after 15 minutes without activity.');
  });

  it('a 401 from REST returns to /login with the translated unauthorized message', async () => {
    hubRefusingTheToken();
    localStorage.setItem('preferredLanguage', 'fr');
    const { socket } = await renderApp('/devices', { language: 'fr' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(screen.getByTestId('session-ended')).toHaveTextContent('Votre session a expiré');
    expect(socket.close).toHaveBeenCalled();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('the socket refusing the token (close 4401) returns to /login with the message', async () => {
    const sockets: FakeWebSocket[] = [];
    class FakeWebSocket {
      readyState = 0;
      binaryType = 'blob';
      onopen: (() => void) | null = null;
      onmessage: ((ev: { data: unknown }) => void) | null = null;
      onclose: ((ev: { code: number }) => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(public url: string) {
        sockets.push(this);
      }
      send() {}
      close() {
        this.readyState = 3;
      }
    }
    stubFetch(devicesRoutes);
    vi.stubGlobal('WebSocket', FakeWebSocket);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    storeSession('2');
    await renderApp('/devices', { createSocket: defaultSocketFactory });
    await waitFor(() => expect(sockets).toHaveLength(1));
    act(() => {
      sockets[0].readyState = 1;
      sockets[0].onopen?.();
      sockets[0].readyState = 3;
      sockets[0].onclose?.({ code: 4401 });
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(screen.getByTestId('session-ended')).toHaveTextContent('Your session has expired. Please sign in again.');
  });

  it('the token’s expiry time ends the session even when no call is refused', async () => {
    stubFetch(devicesRoutes);
    storeSession('2');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-11-23T08:00:00Z'));
    // Signed in 11 h 50 min ago: the 12-hour token has 10 minutes left; keep the user active.
    localStorage.setItem('expiresAt', String(Date.parse('2026-11-23T08:10:00Z') / 1000));
    const { socket, store } = await renderApp('/devices');
    act(() => vi.advanceTimersByTime(599_000));
    act(() => window.dispatchEvent(new Event('mousemove')));
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(store.get(sessionEndAtom)).toBe('unauthorized');
    expect(socket.close).toHaveBeenCalled();
    expect(screen.getByTestId('session-ended')).toHaveTextContent('Your session has expired. Please sign in again.');
    expect(localStorage.getItem('expiresAt')).toBeNull();
  });

  it('a login keeps the hub’s expiry time', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 12 * 3600;
    stubFetch({
      '/api/auth/login': () => ({ body: { token: 'T', userId: 'u1', companyId: 'c1', companyName: 'Acme Care', role: 2, expiresAt } }),
      ...devicesRoutes,
    });
    const { store } = await renderApp('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'demo@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
    expect(store.get(sessionAtom)?.expiresAt).toBe(expiresAt);
    expect(localStorage.getItem('expiresAt')).toBe(String(expiresAt));
  });

  it('signing in again clears the message', async () => {
    hubRefusingTheToken();
    const { store } = await renderApp('/devices');
    await screen.findByTestId('session-ended');
    stubFetch({
      '/api/auth/login': () => ({ body: { token: 'NEW', userId: 'u1', companyId: 'c1', companyName: 'Acme Care', role: 2, expiresAt: 1 } }),
      ...devicesRoutes,
    });
    await userEvent.type(screen.getByLabelText('Email'), 'demo@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
    expect(store.get(sessionEndAtom)).toBeNull();
  });
});

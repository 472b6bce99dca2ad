import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, stubFetch } from '../../test/renderApp';

const devicesRoutes = {
  '/api/userDevices': () => ({ body: [] }),
  '/api/deviceConfCompany': () => ({ body: [] }),
  '/api/companyVariants': () => ({ body: { hideCentreOfPressure: false, fitness: false, seatingLabels: false } }),
};

describe('login', () => {
  it('shows incorrectCredentials on a 401 and stays on /login', async () => {
    const fetch = stubFetch({
      '/api/auth/login': () => ({ status: 401, body: { error: 'incorrectCredentials', message: 'no' } }),
    });
    await renderApp('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'demo@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Incorrect email or password.');
    expect(fetch).toHaveBeenCalledWith('/api/auth/login', expect.objectContaining({ method: 'POST' }));
    expect(JSON.parse(fetch.mock.calls[0][1]!.body as string)).toEqual({ email: 'demo@example.com', password: 'wrong' });
    expect(localStorage.getItem('user')).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('stores token, userId and company on success and goes to /devices (Enter submits)', async () => {
    stubFetch({
      '/api/auth/login': () => ({
        body: { token: 'T0K', userId: 'u1', companyId: 'c1', companyName: 'Acme Care', role: 2, expiresAt: 1 },
      }),
      ...devicesRoutes,
    });
    await renderApp('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'demo@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'demo1234{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
    expect(localStorage.getItem('user')).toBe('T0K');
    expect(localStorage.getItem('userId')).toBe('u1');
    expect(localStorage.getItem('company')).toBe('Acme Care');
  });

  it('has a privacy notice with a policy link and a sign-in button', async () => {
    await renderApp('/login');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'privacy policy' }));
    expect(screen.getByRole('heading', { name: 'Privacy policy' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('redirects to /devices when already signed in', async () => {
    stubFetch(devicesRoutes);
    localStorage.setItem('user', 'T0K');
    await renderApp('/login');
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
  });
});

describe('route guard', () => {
  it('sends a guarded route to /login without a token', async () => {
    await renderApp('/devices');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('unknown paths end at /login when signed out (via / and /devices)', async () => {
    await renderApp('/nope');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('a 401 from the API clears the token and goes to /login', async () => {
    localStorage.setItem('user', 'EXPIRED');
    localStorage.setItem('userId', 'u1');
    stubFetch({
      '/api/userDevices': () => ({ status: 401, body: { error: 'unauthorized' } }),
      '/api/deviceConfCompany': () => ({ status: 401, body: { error: 'unauthorized' } }),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderApp('/devices');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(localStorage.getItem('user')).toBeNull();
  });
});

describe('logout', () => {
  it('clears user, userId and company and goes to /login', async () => {
    stubFetch(devicesRoutes);
    localStorage.setItem('user', 'T0K');
    localStorage.setItem('userId', 'u1');
    localStorage.setItem('company', 'Acme Care');
    localStorage.setItem('preferredLanguage', 'en');
    const { socket } = await renderApp('/devices');
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(localStorage.getItem('company')).toBeNull();
    expect(localStorage.getItem('preferredLanguage')).toBe('en');
    expect(socket.close).toHaveBeenCalled();
  });

  it("forgets the previous user's devices", async () => {
    stubFetch({
      '/api/userDevices': () => ({ body: [{ _id: { $oid: 'd1' }, name: 'OLD-1', deviceType: 'Mattress Mat IoT' }] }),
      '/api/deviceConfCompany': () => ({ body: [] }),
    });
    localStorage.setItem('user', 'T0K');
    const { store } = await renderApp('/devices');
    await screen.findByText('OLD-1');
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    const { deviceIdsAtom, deviceInfoFamily } = await import('../../lib/devicesStore');
    expect(store.get(deviceIdsAtom)).toEqual([]);
    expect(store.get(deviceInfoFamily('d1'))).toBeNull();
  });
});

describe('inactivity (spec §4: 900000 ms)', () => {
  const signIn = () => {
    localStorage.setItem('user', 'T0K');
    localStorage.setItem('userId', 'u1');
    localStorage.setItem('isAdminAccessGrantedByPwd', 'true');
    localStorage.setItem('company', 'Acme Care');
  };

  it('logs out at 900000 ms without activity, not before', async () => {
    stubFetch(devicesRoutes);
    signIn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    await renderApp('/devices');
    act(() => vi.advanceTimersByTime(899_999));
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
    expect(localStorage.getItem('user')).toBe('T0K');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(localStorage.getItem('isAdminAccessGrantedByPwd')).toBeNull();
  });

  it.each(['mousemove', 'keydown', 'scroll', 'touchstart'])('%s restarts the timer', async (eventName) => {
    stubFetch(devicesRoutes);
    signIn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    await renderApp('/devices');
    act(() => vi.advanceTimersByTime(600_000));
    act(() => {
      (eventName === 'scroll' ? document : window).dispatchEvent(new Event(eventName, { bubbles: eventName !== 'scroll' }));
    });
    act(() => vi.advanceTimersByTime(899_999));
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });
});

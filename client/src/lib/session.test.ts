import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindSessionStore, LOGOUT_PATH, logout, sessionAtom, startSession } from './session';

const SESSION = { token: 'T0K', userId: 'u1', companyId: 'c1', companyName: 'Acme', role: 1, expiresAt: null };

function signedIn() {
  const store = createStore();
  bindSessionStore(store);
  startSession(SESSION);
  return store;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('logout revokes the token at the hub (issue 14 §5)', () => {
  it('posts the token to the logout call and ends the session at once', async () => {
    const store = signedIn();
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const done = logout();
    expect(store.get(sessionAtom)).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    await done;
    expect(fetch).toHaveBeenCalledTimes(1);
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe(LOGOUT_PATH);
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer T0K');
  });

  it('ends the session even when the hub cannot be reached', async () => {
    const store = signedIn();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    await expect(logout()).resolves.toBeUndefined();
    expect(store.get(sessionAtom)).toBeNull();
  });

  it('calls nothing when already signed out', async () => {
    bindSessionStore(createStore());
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await logout();
    expect(fetch).not.toHaveBeenCalled();
  });
});

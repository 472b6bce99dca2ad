//! The signed-in session: token, user, company and role. Kept in local storage (spec §3: `user`,
//! `userId`, the stored company; plus `companyId` and `role`) so a reload stays signed in, and
//! mirrored in jotai state, which is restored from local storage ONCE at start-up
//! ({@link bindSessionStore}) and is what the screens read. The role only decides what is offered;
//! the hub judges every call.

import { atom, useAtomValue, type createStore } from 'jotai';
import { companyVariantsAtom, NO_VARIANTS, type CompanyVariants } from './companyVariants';
import { STORAGE } from './storageKeys';

type Store = ReturnType<typeof createStore>;

/** Roles (docs/decisions.md): 1 administrator of the company, 2 staff, 3 a paired ward screen. */
export const ROLE_ADMIN = 1;
export const ROLE_STAFF = 2;
export const ROLE_BOARD = 3;

export interface Session {
  token: string;
  userId: string;
  companyId: string;
  companyName: string;
  /** The login's role; null for a session stored before roles were kept (treated as staff). */
  role: number | null;
  /** When the hub stops accepting the token (Unix seconds); null when unknown. */
  expiresAt: number | null;
  /** A paired ward screen's unit (role 3): the one board it shows. */
  unit?: string | null;
  /** When a ward screen asks for a new token (Unix seconds). */
  renewAt?: number | null;
}

/** Why the last session ended without a logout, for the message on /login. */
export type SessionEnd = 'unauthorized' | 'inactivity' | 'unpaired';

/** The i18n key of the message /login (or a ward screen's /pair) shows after each kind of end. */
export const SESSION_END_MESSAGE: Readonly<Record<SessionEnd, string>> = {
  unauthorized: 'unauthorized',
  inactivity: 'sessionInactive',
  unpaired: 'wardScreens.unpaired',
};

/** The session, or null when signed out. */
export const sessionAtom = atom<Session | null>(null);
/** The bearer token, or null when signed out. */
export const tokenAtom = atom((get) => get(sessionAtom)?.token ?? null);
/** The login's role, or null when signed out or unknown. */
export const roleAtom = atom((get) => get(sessionAtom)?.role ?? null);
/** True for an administrator (role 1) of the signed-in company. */
export const isAdminAtom = atom((get) => get(roleAtom) === ROLE_ADMIN);
/** Set when the hub refused the token or inactivity ended the session; cleared by a new login. */
export const sessionEndAtom = atom<SessionEnd | null>(null);
/** When the token expires (Unix seconds), or null. */
export const expiresAtAtom = atom((get) => get(sessionAtom)?.expiresAt ?? null);
/** A paired ward screen's unit, or null for a person's session. */
export const boardUnitAtom = atom((get) => {
  const session = get(sessionAtom);
  return session?.role === ROLE_BOARD ? (session.unit ?? '') : null;
});

export const useSession = (): Session | null => useAtomValue(sessionAtom);
export const useRole = (): number | null => useAtomValue(roleAtom);
export const useIsAdmin = (): boolean => useAtomValue(isAdminAtom);

let boundStore: Store | null = null;

/** Connects the session helpers to the app's store and restores the stored session into it. */
export function bindSessionStore(store: Store): void {
  boundStore = store;
  store.set(sessionAtom, restoreSession());
  store.set(sessionEndAtom, null);
  store.set(companyVariantsAtom, NO_VARIANTS);
}

/** The session kept in local storage, or null without a token. */
export function restoreSession(): Session | null {
  const token = localStorage.getItem(STORAGE.token);
  if (!token) return null;
  const role = Number(localStorage.getItem(STORAGE.role));
  const expiresAt = Number(localStorage.getItem(STORAGE.expiresAt));
  return {
    token,
    userId: localStorage.getItem(STORAGE.userId) ?? '',
    companyId: localStorage.getItem(STORAGE.companyId) ?? '',
    companyName: localStorage.getItem(STORAGE.company) ?? '',
    role: Number.isInteger(role) && role > 0 ? role : null,
    expiresAt: Number.isFinite(expiresAt) && expiresAt > 0 ? expiresAt : null,
    ...(role === ROLE_BOARD ? { unit: localStorage.getItem(STORAGE.boardUnit) ?? '', renewAt: Number(localStorage.getItem(STORAGE.renewAt)) || null } : {}),
  };
}

/** The token for a request (outside render): the session's, or the stored one before binding. */
export function readToken(): string | null {
  if (boundStore) return boundStore.get(tokenAtom);
  const token = localStorage.getItem(STORAGE.token);
  return token && token.length > 0 ? token : null;
}

/** Stores what a successful login returned; the variants too, when the hub sent them. */
export function startSession(session: Session, variants?: CompanyVariants): void {
  localStorage.setItem(STORAGE.token, session.token);
  localStorage.setItem(STORAGE.userId, session.userId);
  localStorage.setItem(STORAGE.companyId, session.companyId);
  localStorage.setItem(STORAGE.company, session.companyName);
  if (session.role === null) localStorage.removeItem(STORAGE.role);
  else localStorage.setItem(STORAGE.role, String(session.role));
  if (session.expiresAt === null) localStorage.removeItem(STORAGE.expiresAt);
  else localStorage.setItem(STORAGE.expiresAt, String(session.expiresAt));
  storeBoardFields(session);
  boundStore?.set(sessionEndAtom, null);
  boundStore?.set(companyVariantsAtom, variants ?? NO_VARIANTS);
  boundStore?.set(sessionAtom, session);
}

function storeBoardFields(session: Session): void {
  if (session.unit == null) localStorage.removeItem(STORAGE.boardUnit);
  else localStorage.setItem(STORAGE.boardUnit, session.unit);
  if (session.renewAt == null) localStorage.removeItem(STORAGE.renewAt);
  else localStorage.setItem(STORAGE.renewAt, String(session.renewAt));
}

/**
 * A ward screen's renewed token: the same session with a new token, expiry and renewal time. Only
 * the token changes, so the socket and the board stay as they are (no reload, no new socket: the
 * next reconnect and request read the new token).
 */
export function renewSession(renewed: Pick<Session, 'token' | 'expiresAt' | 'renewAt'>): void {
  const current = boundStore?.get(sessionAtom) ?? restoreSession();
  if (!current) return;
  const session = { ...current, ...renewed };
  localStorage.setItem(STORAGE.token, session.token);
  if (session.expiresAt !== null) localStorage.setItem(STORAGE.expiresAt, String(session.expiresAt));
  storeBoardFields(session);
  boundStore?.set(sessionAtom, session);
}

function endSession(keys: readonly string[], reason: SessionEnd | null): void {
  for (const key of keys) localStorage.removeItem(key);
  boundStore?.set(sessionEndAtom, reason);
  boundStore?.set(companyVariantsAtom, NO_VARIANTS);
  boundStore?.set(sessionAtom, null);
}

const SESSION_KEYS = [STORAGE.token, STORAGE.userId, STORAGE.companyId, STORAGE.role, STORAGE.expiresAt, STORAGE.boardUnit, STORAGE.renewAt] as const;

/** The hub's logout call: it revokes the token it is sent with (docs/api.md). */
export const LOGOUT_PATH = '/api/auth/logout';

/**
 * Logout: removes the token, the user id and the stored company at once, and asks the hub to revoke
 * the token, so a copy of it (another tab, a stolen one) is refused from now on. The local session
 * ends whether or not the hub answers; the returned promise settles when it has (never rejects).
 */
export function logout(): Promise<void> {
  const token = readToken();
  endSession([...SESSION_KEYS, STORAGE.company], null);
  if (!token) return Promise.resolve();
  return fetch(LOGOUT_PATH, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, keepalive: true }).then(
    () => undefined,
    () => undefined,
  );
}

/** Inactivity (spec §4): removes the token, the user id and the admin-access flag. */
export function expireForInactivity(): void {
  endSession([...SESSION_KEYS, STORAGE.adminAccess], 'inactivity');
}

/**
 * A 401 from the API or the socket, or the token's expiry time: /login says the session expired. A
 * ward screen's session ends as `unpaired`: the screen shows its pairing page, which says so.
 */
export function dropToken(): void {
  const wasBoard = (boundStore?.get(sessionAtom) ?? restoreSession())?.role === ROLE_BOARD;
  endSession([...SESSION_KEYS, STORAGE.company], wasBoard ? 'unpaired' : 'unauthorized');
}

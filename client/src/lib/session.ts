//! The signed-in session: the bearer token lives in local storage (key `user`) and is mirrored in a
//! jotai atom so route guards re-render when it disappears (logout, a 401, inactivity).

import { atom, type createStore } from 'jotai';
import { STORAGE } from './storageKeys';

type Store = ReturnType<typeof createStore>;

/** The bearer token, or null when signed out. */
export const tokenAtom = atom<string | null>(null);

export interface SessionInfo {
  token: string;
  userId: string;
  companyName: string;
}

let boundStore: Store | null = null;

/** Connects the session helpers to the app's store and loads the stored token into it. */
export function bindSessionStore(store: Store): void {
  boundStore = store;
  store.set(tokenAtom, readToken());
}

export function readToken(): string | null {
  const token = localStorage.getItem(STORAGE.token);
  return token && token.length > 0 ? token : null;
}

export function storedCompany(): string {
  return localStorage.getItem(STORAGE.company) ?? '';
}

/** Stores what a successful login returned. */
export function startSession(info: SessionInfo): void {
  localStorage.setItem(STORAGE.token, info.token);
  localStorage.setItem(STORAGE.userId, info.userId);
  localStorage.setItem(STORAGE.company, info.companyName);
  boundStore?.set(tokenAtom, info.token);
}

/** Logout: removes the token, the user id and the stored company. */
export function logout(): void {
  localStorage.removeItem(STORAGE.token);
  localStorage.removeItem(STORAGE.userId);
  localStorage.removeItem(STORAGE.company);
  boundStore?.set(tokenAtom, null);
}

/** Inactivity (spec §4): removes the token, the user id and the admin-access flag. */
export function expireForInactivity(): void {
  localStorage.removeItem(STORAGE.token);
  localStorage.removeItem(STORAGE.userId);
  localStorage.removeItem(STORAGE.adminAccess);
  boundStore?.set(tokenAtom, null);
}

/** A 401 from the API or the socket: the token is no longer good, drop it. */
export function dropToken(): void {
  localStorage.removeItem(STORAGE.token);
  boundStore?.set(tokenAtom, null);
}

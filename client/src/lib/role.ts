//! The signed-in user's role (docs/api.md: 1 administrator, 2 staff). The one place the client reads
//! it: today from the bearer token's payload (`v1|user|company|role|expires`, base64url), which the
//! login response's `role` matches. When the session state carries the role, point `roleOfToken`'s
//! caller (`useUserRole`) at it; nothing else reads the role. The hub stays the judge of every call:
//! the role only decides what is offered.

import { useAtomValue } from 'jotai';
import { tokenAtom } from './session';

export const ADMIN_ROLE = 1;
export const STAFF_ROLE = 2;

/** The role carried by a token, or null when it cannot be read. */
export function roleOfToken(token: string | null): number | null {
  if (!token) return null;
  const payload = token.split('.')[0];
  try {
    const text = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const parts = text.split('|');
    if (parts.length !== 5 || parts[0] !== 'v1') return null;
    const role = Number(parts[3]);
    return Number.isInteger(role) ? role : null;
  } catch {
    return null;
  }
}

/** The signed-in user's role (re-renders on login and logout). */
export function useUserRole(): number | null {
  return roleOfToken(useAtomValue(tokenAtom));
}

export const isAdminRole = (role: number | null | undefined): boolean => role === ADMIN_ROLE;

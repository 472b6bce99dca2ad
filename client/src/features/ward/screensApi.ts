//! Ward screens on a wall (docs/decisions.md "A board on a wall"): an administrator's one-time
//! pairing code for a unit, the screen's pairing with it (no token: the code is the proof), the
//! screen's token renewal, and the administrators' list of paired screens with unpairing.

import type { BoardScreenJson, BoardSessionJson, PairingCodeJson } from '../../api/types';
import { ApiError, apiFetch } from '../../lib/api';
import { ROLE_BOARD, type Session } from '../../lib/session';

export type { BoardScreenJson, BoardSessionJson, PairingCodeJson };

export const createPairingCode = (unit: string): Promise<PairingCodeJson> =>
  apiFetch<PairingCodeJson>('/api/wardScreens', { method: 'POST', body: JSON.stringify({ unit }) });

export const listScreens = (): Promise<BoardScreenJson[]> => apiFetch<BoardScreenJson[]>('/api/wardScreens');

export const unpairScreen = (id: string): Promise<void> => apiFetch<void>(`/api/wardScreen/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const renewBoardToken = (): Promise<BoardSessionJson> => apiFetch<BoardSessionJson>('/api/wardScreens/renew', { method: 'POST' });

/** Pairs this browser with a code: the hub answers the screen's board session. */
export async function pairWithCode(code: string): Promise<BoardSessionJson> {
  const res = await fetch('/api/wardScreens/pair', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  if (!res.ok) {
    let error = `http${res.status}`;
    try {
      const body = (await res.json()) as { error?: unknown };
      if (typeof body.error === 'string') error = body.error;
    } catch {
      // Not the hub's JSON (a proxy's page): the status says enough.
    }
    throw new ApiError(res.status, error);
  }
  return (await res.json()) as BoardSessionJson;
}

/** The session a paired screen keeps. */
export function boardSession(paired: BoardSessionJson): Session {
  return {
    token: paired.token,
    userId: paired.screenId,
    companyId: paired.companyId,
    companyName: paired.companyName,
    role: ROLE_BOARD,
    expiresAt: paired.expiresAt,
    unit: paired.unit,
    renewAt: paired.renewAt,
  };
}

/** A code as the administrator reads it aloud or types it: "ABCD-EFGH". */
export const formatCode = (code: string): string => (code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code);

/** The link a wall screen opens to pair (the code in the fragment: never sent to a server log). */
export const pairingLink = (origin: string, code: string): string => `${origin}/pair#${code}`;

//! Route guard: without a token every guarded route goes to /login; a wall screen whose pairing
//! ended goes to /pair, which says so.

import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { sessionEndAtom, tokenAtom } from '../../lib/session';

export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAtomValue(tokenAtom);
  const ended = useAtomValue(sessionEndAtom);
  if (!token) return <Navigate to={ended === 'unpaired' ? '/pair' : '/login'} replace />;
  return <>{children}</>;
}

//! Route guard: without a token every guarded route goes to /login.

import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { tokenAtom } from '../../lib/session';

export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAtomValue(tokenAtom);
  if (!token) return <Navigate to="/login" replace />;
  return <>{children}</>;
}

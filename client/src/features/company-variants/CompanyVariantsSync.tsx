//! Loads the company's variants into `companyVariantsAtom` once per signed-in session (a reload
//! restores the session but not the variants; a login already brought them). Mounted by the
//! guarded routes; a failure keeps what is there (all off at worst) and a 401 ends the session.

import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { ApiError } from '../../lib/api';
import { companyVariantsAtom } from '../../lib/companyVariants';
import { tokenAtom } from '../../lib/session';
import { fetchCompanyVariants } from './api';

export function CompanyVariantsSync() {
  const token = useAtomValue(tokenAtom);
  const setVariants = useSetAtom(companyVariantsAtom);
  useEffect(() => {
    if (!token) return;
    let live = true;
    fetchCompanyVariants()
      .then((variants) => {
        if (live) setVariants(variants);
      })
      .catch((err: unknown) => {
        if (!(err instanceof ApiError && err.status === 401)) console.error('company variants not loaded', err);
      });
    return () => {
      live = false;
    };
  }, [token, setVariants]);
  return null;
}

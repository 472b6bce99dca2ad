//! The caller's company (docs/api.md: GET/PUT /api/companyUser) and the cached copy the top bar and
//! the branding page share.

import { atom, useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import type { CompanyJson } from '../api/types';
import { apiFetch } from './api';
import { tokenAtom } from './session';

export interface CompanyBranding {
  companyName: string;
  /** The hub answers both `address` and `location`; they are the same text. */
  address: string;
  /** A `data:` URL, or empty. */
  logo: string;
}

type CompanyDto = Partial<CompanyJson>;

const fromDto = (c: CompanyDto | undefined): CompanyBranding => ({
  companyName: c?.companyName ?? '',
  address: c?.address ?? c?.location ?? '',
  logo: c?.logo ?? '',
});

/** The branding page uses the first record (spec §7). */
export async function getCompanyBranding(): Promise<CompanyBranding> {
  const list = await apiFetch<CompanyDto[]>('/api/companyUser');
  return fromDto(Array.isArray(list) ? list[0] : undefined);
}

export async function saveCompanyBranding(b: CompanyBranding): Promise<CompanyBranding> {
  const saved = await apiFetch<CompanyDto>('/api/companyUser', {
    method: 'PUT',
    body: JSON.stringify({ companyName: b.companyName, address: b.address, logo: b.logo }),
  });
  return saved && typeof saved === 'object' && 'companyName' in saved ? fromDto(saved) : b;
}

/** The signed-in company's branding, once loaded for the current token (null before). */
export const companyBrandingAtom = atom<{ token: string; branding: CompanyBranding } | null>(null);

/** Loads the caller's branding once per token; later saves replace it through `setCompanyBranding`. */
export function useCompanyBranding(): CompanyBranding | null {
  const store = useStore();
  const token = useAtomValue(tokenAtom);
  const cached = useAtomValue(companyBrandingAtom);
  const current = cached && cached.token === token ? cached.branding : null;
  useEffect(() => {
    if (!token || current) return;
    let live = true;
    getCompanyBranding()
      .then((branding) => {
        if (live && store.get(tokenAtom) === token) store.set(companyBrandingAtom, { token, branding });
      })
      .catch(() => {
        // The top bar then shows no brand; the branding page shows its own error.
      });
    return () => {
      live = false;
    };
  }, [token, current, store]);
  return current;
}

export function setCompanyBranding(store: ReturnType<typeof useStore>, branding: CompanyBranding): void {
  const token = store.get(tokenAtom);
  if (token) store.set(companyBrandingAtom, { token, branding });
}

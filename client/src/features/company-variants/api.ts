//! The company-variants calls (docs/api.md): read by every user, switched by administrators.

import { apiFetch } from '../../lib/api';
import { variantsFrom, type CompanyVariants } from '../../lib/companyVariants';

export const COMPANY_VARIANTS_PATH = '/api/companyVariants';

/** GET /api/companyVariants: the signed-in company's variants. */
export async function fetchCompanyVariants(): Promise<CompanyVariants> {
  return variantsFrom(await apiFetch<unknown>(COMPANY_VARIANTS_PATH));
}

/** PUT /api/companyVariants (administrators): the whole setting; answers what was stored. */
export async function saveCompanyVariants(variants: CompanyVariants): Promise<CompanyVariants> {
  return variantsFrom(await apiFetch<unknown>(COMPANY_VARIANTS_PATH, { method: 'PUT', body: JSON.stringify(variants) }));
}

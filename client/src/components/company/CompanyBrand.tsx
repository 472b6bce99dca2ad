//! The company's logo and name for the top bar (issue 11 item 3).

import { useCompanyBranding } from '../../lib/company';
import { storedCompany } from '../../lib/session';
import './company.css';

export function CompanyBrand() {
  const branding = useCompanyBranding();
  const name = branding?.companyName || storedCompany();
  if (!name && !branding?.logo) return null;
  return (
    <span className="company-brand" data-testid="company-brand">
      {branding?.logo ? <img src={branding.logo} alt="" className="company-brand-logo" data-testid="company-brand-logo" /> : null}
      {name ? <span className="company-brand-name">{name}</span> : null}
    </span>
  );
}

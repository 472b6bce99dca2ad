//! The company's logo and name for the top bar (issue 11 item 3).

import { useCompanyBranding } from '../../lib/company';
import './company.css';

export function CompanyBrand() {
  const branding = useCompanyBranding();
  if (!branding || (!branding.companyName && !branding.logo)) return null;
  return (
    <span className="company-brand" data-testid="company-brand">
      {branding.logo ? <img src={branding.logo} alt="" className="company-brand-logo" data-testid="company-brand-logo" /> : null}
      {branding.companyName ? <span className="company-brand-name">{branding.companyName}</span> : null}
    </span>
  );
}

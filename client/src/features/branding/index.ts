//! Public surface of the branding feature.
export { BrandingPage } from './BrandingPage';
export { CompanyBrand } from './CompanyBrand';
export { CompanyFields, type CompanyText } from './CompanyFields';
export { LogoField } from './LogoField';
export { getCompanyBranding, saveCompanyBranding, setCompanyBranding, useCompanyBranding, type CompanyBranding } from './companyApi';
export { MAX_ADDRESS, MAX_COMPANY_NAME, MAX_LOGO_BYTES } from './limits';

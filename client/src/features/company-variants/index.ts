//! Public surface of the company-variants feature.
export { CompanyVariantsSection } from './CompanyVariantsSection';
export { CompanyVariantsSync } from './CompanyVariantsSync';

//! Public surface of the branding feature.
export { BrandingPage } from './BrandingPage';

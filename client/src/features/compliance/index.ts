//! Public surface of the turn-compliance feature.
export { CompliancePage } from './CompliancePage';

//! Public surface of the device-page feature.
export { DevicePage } from './DevicePage';
export { PodologyAnalysisPage } from './PodologyAnalysisPage';

//! Public surface of the alarm banner feature.
export { AlarmBanner } from './AlarmBanner';

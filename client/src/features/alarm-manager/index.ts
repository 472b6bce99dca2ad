//! Public surface of the alarm-manager feature (IHE PCD-04, docs/interfaces.md).
export { AlarmManagerPage } from './AlarmManagerPage';

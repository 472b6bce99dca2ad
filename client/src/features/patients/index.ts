export { PatientPanel } from './PatientPanel';

export { PatientPanel } from './PatientPanel';
export { BedsidePatientPanel } from './BedsidePatientPanel';

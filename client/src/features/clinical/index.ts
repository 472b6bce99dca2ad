//! The clinical workspace of a device page (issue 9). The props are the contract device pages use.

export type { CaptureKind } from '../capture';
export { ClinicalWorkspace, type ClinicalCapabilities, type ClinicalWorkspaceProps } from './ClinicalWorkspace';
// The patient at a bed, seat or room set: device pages show it beside the live map (issue 22).
export { BedsidePatientPanel } from '../patients';

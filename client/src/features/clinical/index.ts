//! The clinical workspace of a device page (issue 9). The props are the contract device pages use.

export type { CaptureKind } from '../capture';
export { ClinicalWorkspace, type ClinicalCapabilities, type ClinicalWorkspaceProps } from './ClinicalWorkspace';

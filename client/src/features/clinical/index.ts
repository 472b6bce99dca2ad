//! The clinical workspace of a device page (issue 9): patient and device panel, capture buttons,
//! result previews, history and reports. Device pages render it for device types that have patients.
//! INTEGRATION POINT: this file is replaced by the patients/captures work; the props are the contract.

import type { ReactNode } from 'react';
import type { UserDevice } from '../../lib/api';

export type CaptureKind = 'Static' | 'Dynamic' | 'Balance' | 'Fitting' | 'Series24h' | 'Remote';

export interface ClinicalCapabilities {
  /** Captures this device type offers (spec §2, §6). Empty: no capture buttons. */
  captures: CaptureKind[];
  /** The PDF report icon (spec §6: eight device types). */
  pdfReports: boolean;
}

export interface ClinicalWorkspaceProps {
  device: UserDevice;
  capabilities: ClinicalCapabilities;
  /** Extra buttons for the device (edit, info) that the patient and device panel shows. */
  deviceActions?: ReactNode;
}

export function ClinicalWorkspace(_props: ClinicalWorkspaceProps): ReactNode {
  return null;
}

//! The clinical workspace of a device page (issue 9): the patient and device panel, the capture
//! buttons and the analysis area (results, history, reports). Device pages render it for device
//! types that have patients.

import type { ReactNode } from 'react';
import type { UserDevice } from '../../lib/api';
import { oidOf } from '../../lib/api';
import type { AnalysisFamily } from '../../lib/deviceTypes';
import { AnalysisArea } from '../analysis';
import { CaptureControls, type CaptureKind } from '../capture';
import { PatientPanel } from '../patients';
import './clinical.css';

export interface ClinicalCapabilities {
  /** Captures this device type offers (spec §2, §6). Empty: no capture buttons. */
  captures: CaptureKind[];
  /** The PDF report icon (spec §6: eight device types). */
  pdfReports: boolean;
  /** What the type's analyses are about (tutorials, result views): the device-type table's. */
  analysisFamily?: AnalysisFamily | null;
}

export interface ClinicalWorkspaceProps {
  device: UserDevice;
  capabilities: ClinicalCapabilities;
  /** Extra buttons for the device (edit, info) that the patient and device panel shows. */
  deviceActions?: ReactNode;
}

export function ClinicalWorkspace({ device, capabilities, deviceActions }: ClinicalWorkspaceProps) {
  const deviceId = oidOf(device._id) as string;
  return (
    <div className="clinical-workspace" data-testid="clinical-workspace">
      <div className="clinical-top">
        <PatientPanel device={device} deviceActions={deviceActions} />
        <CaptureControls deviceId={deviceId} captures={capabilities.captures} family={capabilities.analysisFamily} />
      </div>
      <AnalysisArea device={device} pdfReports={capabilities.pdfReports} />
    </div>
  );
}

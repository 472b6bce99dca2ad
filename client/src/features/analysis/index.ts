//! Analysis results, history and reports of a device page (issue 9): the stored analyses of the
//! company (or of the selected patient), their result views, notes, deletion, PDF and raw export.
//! INTEGRATION POINT: this file is replaced by the results/history work; the props are the contract.

import type { ReactNode } from 'react';
import type { UserDevice } from '../../lib/api';

export interface AnalysisAreaProps {
  device: UserDevice;
  /** Whether the PDF report icon is offered (spec §6). */
  pdfReports: boolean;
}

export function AnalysisArea(_props: AnalysisAreaProps): ReactNode {
  return null;
}

//! Analysis results, history and reports of a device page (issue 9): the stored analyses of the
//! company (or of the selected patient), their result views, notes, deletion, PDF and raw export.
//! ClinicalWorkspace renders `AnalysisArea({ device, pdfReports })`.

export { AnalysisArea, type AnalysisAreaProps } from './AnalysisArea';

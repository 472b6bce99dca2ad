//! PDF reports of pressure-mat analyses, pure: inputs in, PDF bytes out, no I/O.
//!
//! - [`analysis_pdf`] renders `POST /api/downloadAnalysisPDF/{id}/{x}`: a summary page (the
//!   company's branding, patient, date on the user's clock, device, the kind's key figures with
//!   units, the map over the noise floor with a colour bar, the notes), then further pages only
//!   for what the user's [`LayoutOptions`] ask and the summary cannot hold; eight languages.
//! - [`real_scale_pdf`] renders `POST /api/downloadRealScalePDF/{id}`: the map at real scale
//!   (each cell as large as the device's cell pitch) on A3 or A4, with a 10 cm scale bar.
//! - [`compliance_pdf`] renders `GET /api/compliancePdf/{from}/{to}/{language}`: turn compliance
//!   per unit and shift on landscape A4 with the company's branding (issue 23, item 4).
//! - [`pdf_file_name`] and [`content_disposition`] name the download.
//!
//! Text is set in two vendored, subset fonts (DejaVu Sans; Noto Sans CJK JP) so every language
//! renders on a machine without fonts; see docs/decisions.md and fonts/.

// Tests unwrap their own fixtures; the library code itself never unwraps.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod analysis_report;
pub mod compliance_report;
pub mod document;
pub mod figures;
pub mod file_name;
pub mod font;
pub mod i18n;
pub mod input;
pub mod layout;
pub mod local_time;
pub mod logo;
pub mod map_drawing;
pub mod palette;
pub mod pressure_unit;
pub mod real_scale;
pub mod time_charts;

pub use analysis_report::analysis_pdf;
pub use compliance_report::{ComplianceReportInput, compliance_file_name, compliance_pdf};
pub use file_name::{PdfKind, content_disposition, pdf_file_name};
pub use i18n::Language;
pub use input::{AnalysisReportInput, FramesDrawn, PatientSummary, RealScaleInput, ReportBranding, ReportMap};
pub use layout::{LayoutOptions, PaperSize, Widget};
pub use local_time::{ClockError, ReportClock};
pub use palette::Palette;
pub use pressure_unit::PressureUnit;
pub use real_scale::real_scale_pdf;

/// Why a report could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// The map's cell count does not match its shape.
    #[error("{cells} cells do not fit a {rows}×{cols} map")]
    ShapeMismatch { rows: u16, cols: u16, cells: usize },
    /// The map has no rows or no columns.
    #[error("the map has no cells")]
    EmptyMap,
    /// A vendored font could not be parsed (a build problem, never the user's input).
    #[error("font: {0}")]
    Font(String),
}

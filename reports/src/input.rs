//! What the API hands the reports: the stored analysis record, reduced to what is printed.

use mat_core::analysis::{AnalysisKind, AnalysisResult};
use mat_protocol::device_type::DeviceType;
use serde::{Deserialize, Serialize};

use crate::ReportError;
use crate::i18n::Language;
use crate::local_time::ReportClock;
use crate::palette::Palette;

/// How a report draws a capture of several frames as its one map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FramesDrawn {
    /// Each cell's highest value: a walk, where each foot pressed hardest (the peak-pressure
    /// picture of gait analysis, whose colours reach the maximum pressures the report prints;
    /// a mean would thin every footprint by the frames its foot was in the air). Its page says so.
    Peak,
    /// The frames' mean: a stance, a balance test, a sitting, where the body stays in place.
    Mean,
}

impl FramesDrawn {
    /// How an analysis of `kind` is drawn.
    pub fn of(kind: AnalysisKind) -> FramesDrawn {
        if kind == AnalysisKind::Dynamic { FramesDrawn::Peak } else { FramesDrawn::Mean }
    }
}

/// A pressure map (the record's mapPreview), row-major, row 0 at the top.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportMap {
    pub rows: u16,
    pub cols: u16,
    pub cells: Vec<u16>,
}

impl ReportMap {
    /// Checks that the map has cells, and rows × cols of them.
    pub fn check(&self) -> Result<(), ReportError> {
        if self.rows == 0 || self.cols == 0 {
            return Err(ReportError::EmptyMap);
        }
        if self.cells.len() != self.rows as usize * self.cols as usize {
            return Err(ReportError::ShapeMismatch { rows: self.rows, cols: self.cols, cells: self.cells.len() });
        }
        Ok(())
    }

    /// Value at (`row`, `col`).
    pub fn value(&self, row: usize, col: usize) -> u16 {
        self.cells[row * self.cols as usize + col]
    }

    /// Highest cell.
    pub fn max(&self) -> u16 {
        self.cells.iter().copied().max().unwrap_or(0)
    }
}

/// The company heading the report (spec §5 branding).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportBranding {
    pub company_name: String,
    /// The logo's PNG or JPEG bytes, when the company has one.
    pub logo: Option<Vec<u8>>,
    /// The fitness variant (spec §1): pressures in kPa, sensor units × 0.06.
    pub fitness: bool,
    /// The variant that hides the global centre-of-pressure marker.
    pub hide_centre_of_pressure: bool,
}

/// The selected patient as printed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PatientSummary {
    pub name: String,
    /// Height and weight on the analysis day (stored with the record at capture).
    pub height_cm: Option<f64>,
    pub weight_kg: Option<f64>,
}

/// Everything the analysis report prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisReportInput {
    pub analysis_type: AnalysisKind,
    pub device_type: DeviceType,
    pub device_name: String,
    /// Record creation date, unix seconds.
    pub creation_date_s: i64,
    pub branding: ReportBranding,
    pub patient: Option<PatientSummary>,
    /// The record's notes (up to 1,100 characters); empty when none.
    pub notes: String,
    /// The map to draw: a static map, or the capture's frames drawn as [`FramesDrawn::of`] its
    /// kind says (the hub's `report_map`).
    pub map: ReportMap,
    /// The analysis result, when the record has one.
    pub result: Option<AnalysisResult>,
}

/// Everything the real-scale print needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RealScaleInput {
    pub device_type: DeviceType,
    pub device_name: String,
    /// Record creation date, unix seconds.
    pub creation_date_s: i64,
    pub patient_name: Option<String>,
    pub company_name: String,
    pub map: ReportMap,
    pub language: Language,
    pub palette: Palette,
    /// The user's clock, for the printed date.
    pub clock: ReportClock,
}

//! Analyses of a capture (spec §2, §3, §9), pure: no I/O, no clock, no async. The capture
//! machine and the HTTP API call [`analyse`] with the frames they collected; the raw export is
//! in [`export`].
//!
//! Conventions: maps are row-major, x is the column and y the row, row 0 is the top of the map
//! as drawn (toes on a plate, front edge of a seat, head end of a mattress). Pressures are
//! sensor units unless a field says otherwise; [`units`] converts them. A cell is active at 5 or
//! more. See docs/analysis.md for every definition.

// Tests unwrap their own fixtures; the library code itself never unwraps.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod balance;
pub mod bed_static;
pub mod body_centre;
pub mod dynamic_podology;
pub mod export;
pub mod feet;
pub mod frame;
pub mod histogram;
pub mod mattress;
pub mod parameters;
pub mod playback;
pub mod seating;
pub mod seating_static;
pub mod static_podology;
pub mod units;

use serde::{Deserialize, Serialize};

use crate::machine::capture::CaptureKind;
use mat_protocol::device_type::{AnalysisFamily, DeviceType};

pub use balance::BalanceResult;
pub use bed_static::BedStaticResult;
pub use body_centre::BodyCentreResult;
pub use dynamic_podology::DynamicResult;
pub use frame::{ActivePoint, Capture, PressureFrame, TimedFrame};
pub use parameters::{NamedParameter, ParameterValue};
pub use seating::SeatingResult;
pub use seating_static::SeatingStaticResult;
pub use static_podology::StaticResult;

/// The analysis types of spec §3, spelt as stored in `analysisType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AnalysisKind {
    /// Standing still (podology); on a mattress, a lying patient with the mattress extras.
    Static,
    /// Walking over the plate.
    Dynamic,
    /// Standing still for the balance time.
    Balance,
    /// Sitting over time on a seating mat.
    #[serde(rename = "seatingDynamic")]
    SeatingDynamic,
    /// Keeping the body centre on target.
    Fitting,
    /// Keeping the body centre on target, rehab plate.
    Rehab,
}

impl AnalysisKind {
    /// The spelling of spec §3.
    pub fn name(self) -> &'static str {
        match self {
            AnalysisKind::Static => "Static",
            AnalysisKind::Dynamic => "Dynamic",
            AnalysisKind::Balance => "Balance",
            AnalysisKind::SeatingDynamic => "seatingDynamic",
            AnalysisKind::Fitting => "Fitting",
            AnalysisKind::Rehab => "Rehab",
        }
    }

    /// The analysis a capture of `capture` kind on a device of `device` makes: the device-type
    /// table's analysis family decides (issue 21). A dynamic capture is gait on a podology
    /// plate, the seating panels (`seatingDynamic`) on a seat, a saddle or a bed, the body
    /// centre (`Rehab`) on a rehab mat; a static capture is `Static` everywhere (its figures
    /// follow the family: see [`analyse`]).
    pub fn of_capture(device: DeviceType, capture: CaptureKind) -> AnalysisKind {
        let family = device.analysis_family().unwrap_or(AnalysisFamily::Podology);
        match (capture, family) {
            (CaptureKind::Static, _) => AnalysisKind::Static,
            (CaptureKind::Dynamic, AnalysisFamily::Podology) => AnalysisKind::Dynamic,
            (CaptureKind::Dynamic, AnalysisFamily::Seating | AnalysisFamily::Horse | AnalysisFamily::Bed) => AnalysisKind::SeatingDynamic,
            (CaptureKind::Dynamic, AnalysisFamily::Rehab) => AnalysisKind::Rehab,
            (CaptureKind::Fitting, _) => AnalysisKind::Fitting,
            (CaptureKind::Balance, _) => AnalysisKind::Balance,
        }
    }

    /// Frames an analysis of this kind needs at least.
    pub fn min_frames(self) -> usize {
        match self {
            AnalysisKind::Dynamic | AnalysisKind::Balance => 2,
            _ => 1,
        }
    }
}

/// What an analysis needs besides the frames: the selected patient's body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisParams {
    /// Patient weight, kg (mattress BMI tile; the weight calibration of plates and seats).
    pub weight_kg: Option<f64>,
    /// Patient height, cm (mattress BMI tile).
    pub height_cm: Option<f64>,
}

/// The result of [`analyse`], one variant per kind (Fitting and Rehab share theirs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "analysisType", content = "result")]
pub enum AnalysisResult {
    /// A static capture on feet (podology and rehab plates).
    Static(Box<StaticResult>),
    /// A static capture on a seat or a saddle (its record's `analysisType` is `Static`).
    #[serde(rename = "seatingStatic")]
    SeatingStatic(Box<SeatingStaticResult>),
    /// A static capture on a bed (its record's `analysisType` is `Static`).
    #[serde(rename = "bedStatic")]
    BedStatic(Box<BedStaticResult>),
    Dynamic(DynamicResult),
    Balance(BalanceResult),
    #[serde(rename = "seatingDynamic")]
    SeatingDynamic(SeatingResult),
    Fitting(BodyCentreResult),
    Rehab(BodyCentreResult),
}

impl AnalysisResult {
    /// The kind this result is of.
    pub fn kind(&self) -> AnalysisKind {
        match self {
            AnalysisResult::Static(_) | AnalysisResult::SeatingStatic(_) | AnalysisResult::BedStatic(_) => AnalysisKind::Static,
            AnalysisResult::Dynamic(_) => AnalysisKind::Dynamic,
            AnalysisResult::Balance(_) => AnalysisKind::Balance,
            AnalysisResult::SeatingDynamic(_) => AnalysisKind::SeatingDynamic,
            AnalysisResult::Fitting(_) => AnalysisKind::Fitting,
            AnalysisResult::Rehab(_) => AnalysisKind::Rehab,
        }
    }

    /// The weighed patient's calibration the result's pressures were read with (plates and
    /// seats, spec §9), if any.
    pub fn weight_calibration(&self) -> Option<units::WeightCalibration> {
        match self {
            AnalysisResult::Static(r) => r.pressure_calibration,
            AnalysisResult::SeatingStatic(r) => r.pressure_calibration,
            _ => None,
        }
    }

    /// The ordered additionalParameters to store with the record (spec §3), for the kinds that
    /// have them (dynamic and seating dynamic); empty otherwise.
    pub fn additional_parameters(&self) -> &[NamedParameter] {
        match self {
            AnalysisResult::Dynamic(d) => &d.additional_parameters,
            AnalysisResult::SeatingDynamic(s) => &s.additional_parameters,
            _ => &[],
        }
    }
}

/// Why an analysis could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// A frame's cell count does not match its shape, or a frame of another shape was added.
    #[error("{cells} cells do not fit a {rows}×{cols} capture")]
    ShapeMismatch { rows: u16, cols: u16, cells: usize },
    /// A frame's timestamp is older than the previous one.
    #[error("frame at {next_ms} ms follows one at {previous_ms} ms")]
    TimestampsOutOfOrder { previous_ms: u64, next_ms: u64 },
    /// The kind needs more frames than were captured.
    #[error("{needed} frames needed, {got} captured")]
    TooFewFrames { needed: usize, got: usize },
    /// No cell of the capture is active.
    #[error("no pressure on the map")]
    NoPressure,
}

/// Runs the analysis `kind` on `capture`.
///
/// Static analyses read the capture's mean map (so a single frame works) as the device's
/// analysis family reads it: feet on a plate, a seat on a seat or a saddle, body regions with
/// the mattress extras on a bed; Dynamic, Balance, seatingDynamic, Fitting and Rehab read every
/// frame. Fails when there are too few frames or no active cell at all.
pub fn analyse(kind: AnalysisKind, capture: &Capture, params: &AnalysisParams) -> Result<AnalysisResult, AnalysisError> {
    let got = capture.frames().len();
    if got < kind.min_frames() {
        return Err(AnalysisError::TooFewFrames { needed: kind.min_frames(), got });
    }
    if capture.frames().iter().all(|f| f.frame.cells().iter().all(|&v| !f.frame.is_active(v))) {
        return Err(AnalysisError::NoPressure);
    }
    let device = capture.device_type();
    let pitch = units::cell_pitch_cm(device);
    Ok(match kind {
        AnalysisKind::Static => {
            let map = capture.mean_map();
            match device.analysis_family() {
                // A weighed patient on a seat or a plate rests on it whole for the capture: spec
                // §9's weight calibration states their pressures. A bed (a share of the body on
                // the sensor that varies with posture) and a saddle (rider and saddle on the horse)
                // keep the documented scale.
                Some(AnalysisFamily::Seating) => {
                    let calibration = units::weight_calibration(device, params.weight_kg, map.cells());
                    AnalysisResult::SeatingStatic(Box::new(seating_static::seating_static(&map, device, calibration)))
                }
                Some(AnalysisFamily::Horse) => AnalysisResult::SeatingStatic(Box::new(seating_static::seating_static(&map, device, None))),
                Some(AnalysisFamily::Bed) => {
                    AnalysisResult::BedStatic(Box::new(bed_static::bed_static(&map, device, params.weight_kg, params.height_cm)))
                }
                _ => {
                    let mut result = static_podology::static_podology(&map, units::cell_area_cm2(device));
                    result.pressure_calibration = units::weight_calibration(device, params.weight_kg, map.cells());
                    AnalysisResult::Static(Box::new(result))
                }
            }
        }
        AnalysisKind::Dynamic => AnalysisResult::Dynamic(dynamic_podology::dynamic_podology(capture)?),
        AnalysisKind::Balance => AnalysisResult::Balance(balance::balance(capture, pitch)?),
        AnalysisKind::SeatingDynamic => AnalysisResult::SeatingDynamic(seating::seating(capture)?),
        AnalysisKind::Fitting => AnalysisResult::Fitting(body_centre::body_centre(capture, pitch)?),
        AnalysisKind::Rehab => AnalysisResult::Rehab(body_centre::body_centre(capture, pitch)?),
    })
}

#[cfg(test)]
mod family_tests;

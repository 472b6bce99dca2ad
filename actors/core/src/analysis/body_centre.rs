//! Fitting and rehab (spec §2, §4): how far the body's centre of pressure stayed from the centre
//! of the mat (Good under 2 cm, Bad under 5 cm, otherwise Uncomplete), the centre-of-pressure
//! trace, and the share of it inside the rings of radius 11, 18 and 25.

use serde::{Deserialize, Serialize};

use super::AnalysisError;
use super::frame::Capture;
use super::units::{distance_cm, round_to};

/// Spec §4/§9: a body centre closer than this to the target is Good.
pub const GOOD_BELOW_CM: f64 = 2.0;
/// Spec §4/§9: closer than this (and not Good) is Bad; farther is Uncomplete.
pub const BAD_BELOW_CM: f64 = 5.0;
/// Spec §9: the rehab plot's rings, in cells from the centre of the map.
pub const COP_RING_RADII: [f64; 3] = [11.0, 18.0, 25.0];

/// Spec §4's three outcomes (the spelling `Uncomplete` is the product's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BodyCentreQuality {
    /// Under 2 cm (green).
    Good,
    /// Under 5 cm (orange).
    Bad,
    /// 5 cm or more (red).
    Uncomplete,
}

impl BodyCentreQuality {
    /// The outcome for a distance in cm.
    pub fn from_distance_cm(distance_cm: f64) -> Self {
        if distance_cm < GOOD_BELOW_CM {
            BodyCentreQuality::Good
        } else if distance_cm < BAD_BELOW_CM {
            BodyCentreQuality::Bad
        } else {
            BodyCentreQuality::Uncomplete
        }
    }
}

/// Share of the trace inside one ring.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RingShare {
    /// Radius in cells.
    pub radius: f64,
    /// Trace samples within the radius, %, 1 decimal.
    pub share: f64,
}

/// The fitting/rehab result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BodyCentreResult {
    /// Distance of the mean centre of pressure from the map centre, cm.
    pub distance_cm: f64,
    /// Good / Bad / Uncomplete.
    pub quality: BodyCentreQuality,
    /// Mean centre of pressure, cells.
    pub mean_center_of_pressure: [f64; 2],
    /// The target: the centre of the map, cells.
    pub target: [f64; 2],
    /// Centre of pressure of every loaded frame, cells (sample k goes with playback frames
    /// 3k..3k+2, see `playback::trace_index`).
    pub trace: Vec<[f64; 2]>,
    /// Share of the trace inside the rings of radius 11, 18 and 25.
    pub rings: Vec<RingShare>,
}

/// Analyses a fitting or rehab capture with cells `pitch_cm` apart.
pub fn body_centre(capture: &Capture, pitch_cm: f64) -> Result<BodyCentreResult, AnalysisError> {
    let trace: Vec<[f64; 2]> =
        capture.frames().iter().filter_map(|f| f.frame.region_stats(&f.frame.full_region()).center_of_pressure).collect();
    if trace.is_empty() {
        return Err(AnalysisError::NoPressure);
    }
    let n = trace.len() as f64;
    let mean = trace.iter().fold([0.0, 0.0], |m, p| [m[0] + p[0] / n, m[1] + p[1] / n]);
    let target = [(f64::from(capture.cols()) - 1.0) / 2.0, (f64::from(capture.rows()) - 1.0) / 2.0];
    let distance = distance_cm(mean, target, pitch_cm);
    let rings = COP_RING_RADII
        .iter()
        .map(|&radius| {
            let inside = trace.iter().filter(|p| distance_cm(**p, target, 1.0) <= radius).count();
            RingShare { radius, share: round_to(100.0 * inside as f64 / n, 1) }
        })
        .collect();
    Ok(BodyCentreResult {
        distance_cm: distance,
        quality: BodyCentreQuality::from_distance_cm(distance),
        mean_center_of_pressure: mean,
        target,
        trace,
        rings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::frame::PressureFrame;
    use mat_protocol::device_type::DeviceType;

    #[test]
    fn quality_bounds_are_2_and_5_cm() {
        assert_eq!(BodyCentreQuality::from_distance_cm(0.0), BodyCentreQuality::Good);
        assert_eq!(BodyCentreQuality::from_distance_cm(1.999), BodyCentreQuality::Good);
        assert_eq!(BodyCentreQuality::from_distance_cm(2.0), BodyCentreQuality::Bad);
        assert_eq!(BodyCentreQuality::from_distance_cm(4.999), BodyCentreQuality::Bad);
        assert_eq!(BodyCentreQuality::from_distance_cm(5.0), BodyCentreQuality::Uncomplete);
    }

    fn one_cell(row: usize, col: usize) -> PressureFrame {
        let mut cells = vec![0u16; 48 * 48];
        cells[row * 48 + col] = 100;
        PressureFrame::new(48, 48, cells).unwrap()
    }

    #[test]
    fn distance_and_rings_by_hand() {
        // Map centre (23.5, 23.5). Frames (row 23, col 23) and (row 24, col 24) give CoPs (23, 23)
        // and (24, 24), each √0.5 cells from the centre; their mean is the centre: distance 0, Good.
        let mut c = Capture::new(DeviceType::RehabMat, 48, 48);
        c.push(0, one_cell(23, 23)).unwrap();
        c.push(100, one_cell(24, 24)).unwrap();
        let r = body_centre(&c, 2.0).unwrap();
        assert_eq!(r.distance_cm, 0.0);
        assert_eq!(r.quality, BodyCentreQuality::Good);
        assert_eq!(r.rings.iter().map(|ring| ring.radius).collect::<Vec<_>>(), vec![11.0, 18.0, 25.0]);
        assert!(r.rings.iter().all(|ring| ring.share == 100.0));
    }

    #[test]
    fn rings_count_samples_within_each_radius() {
        // CoPs on row 23.5 is impossible with one cell; use row 23 and column offsets so the
        // distance from (23.5, 23.5) is √(dx² + 0.25): col 34 → √(110.25 + 0.25) = 10.51 (in 11);
        // col 41 → √(306.25 + 0.25) = 17.51 (in 18); col 47 → √(552.25 + 0.25) = 23.51 (in 25);
        // col 0 → 23.51 (in 25). Shares: 11 → 1/4 = 25 %; 18 → 2/4 = 50 %; 25 → 100 %.
        let mut c = Capture::new(DeviceType::RehabMat, 48, 48);
        for (i, col) in [34, 41, 47, 0].into_iter().enumerate() {
            c.push(i as u64 * 100, one_cell(23, col)).unwrap();
        }
        let r = body_centre(&c, 2.0).unwrap();
        assert_eq!(r.rings.iter().map(|ring| ring.share).collect::<Vec<_>>(), vec![25.0, 50.0, 100.0]);
        // Mean x = (34 + 41 + 47 + 0) / 4 = 30.5, y 23 → (7, −0.5) cells from the centre:
        // √49.25 = 7.018 cells = 14.04 cm → Uncomplete.
        assert!((r.distance_cm - 49.25f64.sqrt() * 2.0).abs() < 1e-9);
        assert_eq!(r.quality, BodyCentreQuality::Uncomplete);
        assert_eq!(r.trace.len(), 4);
    }

    #[test]
    fn one_and_a_half_cells_off_at_2_cm_is_bad() {
        // CoP (25, 23.5) via two cells (23, 25) and (24, 25): 1.5 cells right of the centre = 3 cm.
        let mut cells = vec![0u16; 48 * 48];
        cells[23 * 48 + 25] = 50;
        cells[24 * 48 + 25] = 50;
        let mut c = Capture::new(DeviceType::RehabMat, 48, 48);
        c.push(0, PressureFrame::new(48, 48, cells).unwrap()).unwrap();
        let r = body_centre(&c, 2.0).unwrap();
        assert!((r.distance_cm - 3.0).abs() < 1e-12);
        assert_eq!(r.quality, BodyCentreQuality::Bad);
    }
}

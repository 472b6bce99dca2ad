//! Static seating (issue 21, spec §2 seating pages): one sitting map read as a seat, never as
//! feet: the ischial region (the two ischial windows of the dispersion index, with their peaks),
//! the left/right and front/back shares of the load, the peak pressure index, the dispersion
//! index and the contact area. Row 0 is the front edge of the seat (the knees), column 0 the
//! sitter's left. Pressures are in mmHg (the device's own scale), positions in cm from the
//! front-left corner.

use serde::{Deserialize, Serialize};

use mat_protocol::device_type::DeviceType;

use super::frame::{PressureFrame, Region};
use super::histogram::{Histogram, histogram};
use super::seating::{dispersion_index, halves, peak_pressure_index, ppi_window_mean, window_cells};
use super::units::{WeightCalibration, active_floor, at_full_scale, cell_mmhg, cell_pitch_cm, contact_area_cm2, round_to};

/// The peak of one ischial window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IschialPeak {
    /// Position of the peak cell's centre, cm from the front-left corner: [across, along].
    pub position_cm: [f64; 2],
    /// The peak cell, mmHg.
    pub peak_mmhg: f64,
}

/// The static seating result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatingStaticResult {
    /// Left half's share of the load, %, 1 decimal (left + right = 100 on a loaded map).
    pub left_load_percent: f64,
    /// Right half's share of the load, %, 1 decimal.
    pub right_load_percent: f64,
    /// Front half's (knees') share of the load, %, 1 decimal.
    pub front_load_percent: f64,
    /// Back half's (ischial) share of the load, %, 1 decimal.
    pub back_load_percent: f64,
    /// The left ischial window's peak (`None` when the back-left quadrant is empty).
    pub left_ischial: Option<IschialPeak>,
    /// The right ischial window's peak.
    pub right_ischial: Option<IschialPeak>,
    /// Peak pressure index: the highest 10 cm × 10 cm window sum around the peak, as the mean
    /// pressure over that window, mmHg, 1 decimal.
    pub peak_pressure_index_mmhg: f64,
    /// Load in the two ischial windows / total load × 100, 1 decimal.
    pub dispersion_index: f64,
    /// Active cells × cell area, cm².
    pub contact_area_cm2: f64,
    /// Highest cell, mmHg, 1 decimal.
    pub max_pressure_mmhg: f64,
    /// The highest cell is at the sensor's full scale ([`at_full_scale`]): the maximum, and an
    /// ischial peak equal to it, are "≥" that pressure. Absent (false) in results stored before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub max_at_full_scale: bool,
    /// Mean of the active cells, mmHg, 1 decimal.
    pub mean_pressure_mmhg: f64,
    /// Pressure-weighted centre, cm from the front-left corner: [across, along].
    pub center_of_pressure_cm: Option<[f64; 2]>,
    /// 8 bins over the maximum pressure (spec §2: seating pages show it).
    pub histogram: Histogram,
    /// The patient's weight calibration (spec §9) the mmHg figures above were converted with,
    /// when the patient was weighed; otherwise they are in the sensor's documented scale.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pressure_calibration: Option<WeightCalibration>,
}

/// Analyses one sitting map from `device`; its pressures in mmHg through the patient's weight
/// `calibration` when there is one, else through the device's documented scale.
pub fn seating_static(map: &PressureFrame, device: DeviceType, calibration: Option<WeightCalibration>) -> SeatingStaticResult {
    let pitch = cell_pitch_cm(device);
    let mmhg_per_step = calibration.map_or_else(|| cell_mmhg(device, 1), |c| c.mmhg_per_step());
    let mmhg = |v: f64| round_to(mmhg_per_step * v, 1);
    let share = |part: u64, whole: u64| if whole > 0 { round_to(100.0 * part as f64 / whole as f64, 1) } else { 0.0 };
    let full = map.full_region();
    let total = map.region_stats(&full).load;
    let (left, right) = halves(map);
    let rows = map.rows() as usize;
    let front = Region { row_end: rows / 2, ..full };
    let back = Region { row_start: rows.div_ceil(2), ..full };
    let ischial = |half: Region| {
        let quadrant = Region { row_start: rows / 2, ..half };
        map.region_stats(&quadrant).maximum.filter(|p| p.z > 0).map(|p| IschialPeak {
            position_cm: [(f64::from(p.x) + 0.5) * pitch, (f64::from(p.y) + 0.5) * pitch],
            peak_mmhg: mmhg(f64::from(p.z)),
        })
    };
    let floor = active_floor(device);
    let active: Vec<f64> = map.cells().iter().filter(|&&v| v >= floor).map(|&v| f64::from(v)).collect();
    let mean = if active.is_empty() { 0.0 } else { active.iter().sum::<f64>() / active.len() as f64 };
    let window = window_cells(pitch);
    let stats = map.region_stats(&full);
    SeatingStaticResult {
        left_load_percent: share(map.region_stats(&left).load, total),
        right_load_percent: share(map.region_stats(&right).load, total),
        front_load_percent: share(map.region_stats(&front).load, total),
        back_load_percent: share(map.region_stats(&back).load, total),
        left_ischial: ischial(left),
        right_ischial: ischial(right),
        peak_pressure_index_mmhg: mmhg(ppi_window_mean(peak_pressure_index(map, pitch), window * window)),
        dispersion_index: round_to(dispersion_index(map, pitch), 1),
        contact_area_cm2: contact_area_cm2(device, map.cells()),
        max_pressure_mmhg: mmhg(stats.maximum.map_or(0.0, |p| f64::from(p.z))),
        max_at_full_scale: stats.maximum.is_some_and(|p| at_full_scale(device, p.z)),
        mean_pressure_mmhg: mmhg(mean),
        center_of_pressure_cm: stats.center_of_pressure.map(|[x, y]| [round_to((x + 0.5) * pitch, 1), round_to((y + 0.5) * pitch, 1)]),
        histogram: histogram(map.cells(), floor),
        pressure_calibration: calibration,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 16×16 seat: two ischial blobs in the back half, the right one heavier, thighs in front.
    fn seat() -> PressureFrame {
        let mut cells = vec![0u16; 256];
        let mut put = |r: usize, c: usize, v: u16| cells[r * 16 + c] = v;
        for r in 10..13 {
            for c in 3..6 {
                put(r, c, 60);
            }
            for c in 10..13 {
                put(r, c, 90);
            }
        }
        for r in 2..8 {
            put(r, 4, 20);
            put(r, 11, 20);
        }
        PressureFrame::new(16, 16, cells).unwrap()
    }

    #[test]
    fn a_seat_reads_as_a_seat_with_both_ischial_peaks_and_its_shares() {
        let r = seating_static(&seat(), DeviceType::SeatingMatIoT, None);
        // Left: 9 × 60 + 6 × 20 = 660; right: 9 × 90 + 6 × 20 = 930.
        assert_eq!(r.left_load_percent, round_to(100.0 * 660.0 / 1590.0, 1));
        assert_eq!(r.left_load_percent + r.right_load_percent, 100.0);
        // Front (rows 0–7): 12 × 20 = 240.
        assert_eq!(r.front_load_percent, round_to(100.0 * 240.0 / 1590.0, 1));
        let (left, right) = (r.left_ischial.unwrap(), r.right_ischial.unwrap());
        assert!(right.peak_mmhg > left.peak_mmhg);
        // Peaks in the back half: the first loaded row, 10, is 21 cm from the front at 2 cm a cell.
        assert_eq!(left.position_cm, [7.0, 21.0]);
        // 30 active cells × 4 cm².
        assert_eq!(r.contact_area_cm2, 120.0);
        // The ischial windows hold all of the back half's load.
        assert_eq!(r.dispersion_index, r.back_load_percent);
        assert!(r.peak_pressure_index_mmhg > 0.0 && r.peak_pressure_index_mmhg <= r.max_pressure_mmhg);
    }

    #[test]
    fn a_maximum_on_a_saturated_cell_is_flagged_and_the_flag_is_left_out_otherwise() {
        let plain = seating_static(&seat(), DeviceType::SeatingMatIoT, None);
        assert!(!plain.max_at_full_scale);
        // Left out when false: a result stored before the flag reads the same.
        let json = serde_json::to_value(&plain).unwrap();
        assert!(json.get("maxAtFullScale").is_none(), "{json}");
        assert_eq!(serde_json::from_value::<SeatingStaticResult>(json).unwrap(), plain);
        let mut cells = seat().cells().to_vec();
        cells[11 * 16 + 11] = 255;
        let saturated = seating_static(&PressureFrame::new(16, 16, cells.clone()).unwrap(), DeviceType::SeatingMatIoT, None);
        assert!(saturated.max_at_full_scale);
        assert_eq!(serde_json::to_value(&saturated).unwrap()["maxAtFullScale"], true);
        cells[11 * 16 + 11] = 254;
        assert!(!seating_static(&PressureFrame::new(16, 16, cells).unwrap(), DeviceType::SeatingMatIoT, None).max_at_full_scale);
    }

    #[test]
    fn a_seat_result_has_no_feet() {
        let json = serde_json::to_value(seating_static(&seat(), DeviceType::SeatingMatIoT, None)).unwrap();
        let text = json.to_string();
        assert!(!text.contains("Foot") && !text.contains("foot") && !text.contains("Left") && !text.contains("Heel"), "{text}");
    }
}

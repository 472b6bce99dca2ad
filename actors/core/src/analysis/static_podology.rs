//! Static podology (spec §2, §3): both feet's centres of pressure, maxima, forefoot/heel load
//! distribution and surfaces, the global statistics, the edge warning and the histogram.

use serde::{Deserialize, Serialize};

use super::feet::{split_feet, split_forefoot_heel};
use super::frame::{PressureFrame, Region, RegionStats};
use super::histogram::{Histogram, histogram};
use super::mattress::MattressResult;
use super::units::{WeightCalibration, round_to};

/// The static result, with the JSON names of spec §3.
///
/// Coordinates are in cells (x = column, y = row). Distributions are percentages of the load on
/// both feet: the four front/back values add up to 100, and each foot's global value is its
/// front + back. Surfaces are active cells × the device's cell area, in cm².
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StaticResult {
    #[serde(rename = "LeftCenterOfPressure")]
    pub left_center_of_pressure: Option<[f64; 2]>,
    #[serde(rename = "RightCenterOfPressure")]
    pub right_center_of_pressure: Option<[f64; 2]>,
    #[serde(rename = "GlobalCenterOfPressure")]
    pub global_center_of_pressure: Option<[f64; 2]>,
    #[serde(rename = "LeftPressureMaximum")]
    pub left_pressure_maximum: Option<[f64; 3]>,
    #[serde(rename = "RightPressureMaximum")]
    pub right_pressure_maximum: Option<[f64; 3]>,
    #[serde(rename = "GlobalPressureMaximum")]
    pub global_pressure_maximum: Option<[f64; 3]>,
    #[serde(rename = "LeftFrontPressureDistribution")]
    pub left_front_pressure_distribution: f64,
    #[serde(rename = "LeftBackPressureDistribution")]
    pub left_back_pressure_distribution: f64,
    #[serde(rename = "LeftGlobalPressureDistribution")]
    pub left_global_pressure_distribution: f64,
    #[serde(rename = "RightFrontPressureDistribution")]
    pub right_front_pressure_distribution: f64,
    #[serde(rename = "RightBackPressureDistribution")]
    pub right_back_pressure_distribution: f64,
    #[serde(rename = "RightGlobalPressureDistribution")]
    pub right_global_pressure_distribution: f64,
    #[serde(rename = "LeftFrontSurface")]
    pub left_front_surface: f64,
    #[serde(rename = "LeftBackSurface")]
    pub left_back_surface: f64,
    #[serde(rename = "LeftGlobalSurface")]
    pub left_global_surface: f64,
    #[serde(rename = "RightFrontSurface")]
    pub right_front_surface: f64,
    #[serde(rename = "RightBackSurface")]
    pub right_back_surface: f64,
    #[serde(rename = "RightGlobalSurface")]
    pub right_global_surface: f64,
    /// Cells at or above 5.
    #[serde(rename = "activePointsTotal")]
    pub active_points_total: u32,
    /// Mean of the active cells.
    #[serde(rename = "avgPressure")]
    pub avg_pressure: f64,
    /// Highest cell.
    #[serde(rename = "maxPressure")]
    pub max_pressure: u16,
    /// Median of the active cells (mean of the middle two for an even count).
    #[serde(rename = "medianPressure")]
    pub median_pressure: f64,
    /// Left foot's share of the load, %, 1 decimal.
    #[serde(rename = "leftPercentage")]
    pub left_percentage: f64,
    /// Right foot's share of the load, %, 1 decimal.
    #[serde(rename = "rightPercentage")]
    pub right_percentage: f64,
    /// Spec §5: an edge cell is active, so part of the print may be off the plate.
    #[serde(rename = "footprintEdgeWarning")]
    pub footprint_edge_warning: bool,
    /// Whether a gap of more than 5 columns separated the feet (otherwise split at the CoP).
    #[serde(rename = "feetSeparated")]
    pub feet_separated: bool,
    /// 8 bins over the maximum pressure.
    pub histogram: Histogram,
    /// Profile and tiles, on mattress devices only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mattress: Option<MattressResult>,
    /// The patient's weight calibration of the cells (spec §9), when the patient was weighed:
    /// the pressures above are converted with it rather than the sensor's documented scale.
    #[serde(rename = "pressureCalibration", skip_serializing_if = "Option::is_none", default)]
    pub pressure_calibration: Option<WeightCalibration>,
}

/// Analyses one map (a static capture's mean map). `cell_area_cm2` converts active cells to
/// surface.
pub fn static_podology(map: &PressureFrame, cell_area_cm2: f64) -> StaticResult {
    let global = map.region_stats(&map.full_region());
    let split = split_feet(map);
    let foot = |region: Option<Region>| -> FootStats {
        let Some(region) = region else { return FootStats::default() };
        let whole = map.region_stats(&region);
        let (front, back) = match split_forefoot_heel(map, &region) {
            Some(parts) => (map.region_stats(&parts.front), map.region_stats(&parts.back)),
            None => (RegionStats::default(), RegionStats::default()),
        };
        FootStats { whole, front, back }
    };
    let left = foot(split.map(|s| s.left));
    let right = foot(split.map(|s| s.right));
    let feet_load = (left.whole.load + right.whole.load) as f64;
    let share = |load: u64| if feet_load > 0.0 { 100.0 * load as f64 / feet_load } else { 0.0 };
    let surface = |stats: &RegionStats| f64::from(stats.active_cells) * cell_area_cm2;
    let maximum = |stats: &RegionStats| stats.maximum.map(|p| [f64::from(p.x), f64::from(p.y), f64::from(p.z)]);

    let mut active: Vec<u16> = map.cells().iter().copied().filter(|&v| map.is_active(v)).collect();
    active.sort_unstable();
    let avg_pressure = if active.is_empty() { 0.0 } else { active.iter().map(|&v| f64::from(v)).sum::<f64>() / active.len() as f64 };

    StaticResult {
        left_center_of_pressure: left.whole.center_of_pressure,
        right_center_of_pressure: right.whole.center_of_pressure,
        global_center_of_pressure: global.center_of_pressure,
        left_pressure_maximum: maximum(&left.whole),
        right_pressure_maximum: maximum(&right.whole),
        global_pressure_maximum: maximum(&global),
        left_front_pressure_distribution: share(left.front.load),
        left_back_pressure_distribution: share(left.back.load),
        left_global_pressure_distribution: share(left.whole.load),
        right_front_pressure_distribution: share(right.front.load),
        right_back_pressure_distribution: share(right.back.load),
        right_global_pressure_distribution: share(right.whole.load),
        left_front_surface: surface(&left.front),
        left_back_surface: surface(&left.back),
        left_global_surface: surface(&left.whole),
        right_front_surface: surface(&right.front),
        right_back_surface: surface(&right.back),
        right_global_surface: surface(&right.whole),
        active_points_total: global.active_cells,
        avg_pressure,
        max_pressure: global.maximum.map_or(0, |p| p.z),
        median_pressure: median_of_sorted(&active),
        left_percentage: round_to(share(left.whole.load), 1),
        right_percentage: round_to(share(right.whole.load), 1),
        footprint_edge_warning: map.edge_is_active(),
        feet_separated: split.is_some_and(|s| s.separated),
        histogram: histogram(map.cells(), map.active_floor()),
        mattress: None,
        pressure_calibration: None,
    }
}

#[derive(Default)]
struct FootStats {
    whole: RegionStats,
    front: RegionStats,
    back: RegionStats,
}

/// Median of sorted values; the mean of the middle two for an even count; 0 when empty.
pub fn median_of_sorted(sorted: &[u16]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(sorted[n / 2]),
        n => (f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20×20 plate with two rectangular feet, rows 4..=13 (10 rows, length 9):
    /// left foot columns 3..=5 with pressure 20 on rows 4..=10 and 60 on rows 11..=13;
    /// right foot columns 13..=15 with pressure 10 everywhere.
    pub(super) fn two_feet() -> PressureFrame {
        let mut cells = vec![0u16; 400];
        for r in 4..=13 {
            for c in 3..=5 {
                cells[r * 20 + c] = if r <= 10 { 20 } else { 60 };
            }
            for c in 13..=15 {
                cells[r * 20 + c] = 10;
            }
        }
        PressureFrame::new(20, 20, cells).unwrap()
    }

    #[test]
    fn two_rectangular_feet_by_hand() {
        let r = static_podology(&two_feet(), 4.0);
        // Gap columns 6..=12 (7 > 5): separated.
        assert!(r.feet_separated);
        // Left load: 7 rows × 3 × 20 = 420 front-ish rows, 3 rows × 3 × 60 = 540; total 960.
        // Right load: 10 × 3 × 10 = 300. Both feet: 1260.
        // Forefoot/heel: length 13 − 4 = 9, boundary 4 + 6.3 = 10.3 → rows 4..=10 front (the 20s),
        // rows 11..=13 back (the 60s). Left front 420/1260 = 33.33 %, back 540/1260 = 42.86 %.
        assert!((r.left_front_pressure_distribution - 100.0 * 420.0 / 1260.0).abs() < 1e-9);
        assert!((r.left_back_pressure_distribution - 100.0 * 540.0 / 1260.0).abs() < 1e-9);
        assert!((r.left_global_pressure_distribution - 100.0 * 960.0 / 1260.0).abs() < 1e-9);
        // Right: 7 rows × 30 = 210 front, 3 × 30 = 90 back.
        assert!((r.right_front_pressure_distribution - 100.0 * 210.0 / 1260.0).abs() < 1e-9);
        assert!((r.right_back_pressure_distribution - 100.0 * 90.0 / 1260.0).abs() < 1e-9);
        // 960/1260 = 76.19 % → 76.2; 300/1260 = 23.81 % → 23.8.
        assert_eq!((r.left_percentage, r.right_percentage), (76.2, 23.8));
        // Surfaces at 4 cm² per cell: left front 21 cells = 84, back 9 = 36, global 30 = 120.
        assert_eq!((r.left_front_surface, r.left_back_surface, r.left_global_surface), (84.0, 36.0, 120.0));
        assert_eq!(r.right_global_surface, 120.0);
        // Left CoP: x = 4 (symmetric columns); y = (420 · 7 + 540 · 12) / 960 = (2940 + 6480)/960 = 9.8125.
        // (mean row of rows 4..=10 is 7, of rows 11..=13 is 12)
        assert_eq!(r.left_center_of_pressure, Some([4.0, 9.8125]));
        // Right CoP: x 14, y = mean of rows 4..=13 = 8.5.
        assert_eq!(r.right_center_of_pressure, Some([14.0, 8.5]));
        // Maxima: the first 60 in reading order is (x 3, y 11); right's first 10 is (13, 4).
        assert_eq!(r.left_pressure_maximum, Some([3.0, 11.0, 60.0]));
        assert_eq!(r.right_pressure_maximum, Some([13.0, 4.0, 10.0]));
        assert_eq!(r.global_pressure_maximum, Some([3.0, 11.0, 60.0]));
        // Global: 60 active cells; mean 1260/60 = 21; max 60.
        // Sorted values: 30 tens, 21 twenties, 9 sixties → median = mean of 30th and 31st = (10+20)/2 = 15.
        assert_eq!(r.active_points_total, 60);
        assert_eq!(r.avg_pressure, 21.0);
        assert_eq!(r.max_pressure, 60);
        assert_eq!(r.median_pressure, 15.0);
        assert!(!r.footprint_edge_warning);
        assert_eq!(r.histogram.counts.iter().sum::<u32>(), 60);
    }

    #[test]
    fn json_names_follow_spec_section_3() {
        let json = serde_json::to_value(static_podology(&two_feet(), 4.0)).unwrap();
        for key in [
            "LeftCenterOfPressure",
            "RightCenterOfPressure",
            "GlobalCenterOfPressure",
            "LeftPressureMaximum",
            "RightPressureMaximum",
            "GlobalPressureMaximum",
            "LeftFrontPressureDistribution",
            "RightBackSurface",
            "activePointsTotal",
            "avgPressure",
            "maxPressure",
            "medianPressure",
            "leftPercentage",
            "rightPercentage",
        ] {
            assert!(json.get(key).is_some(), "missing {key}");
        }
    }

    #[test]
    fn median_definition() {
        assert_eq!(median_of_sorted(&[]), 0.0);
        assert_eq!(median_of_sorted(&[5, 7, 100]), 7.0);
        assert_eq!(median_of_sorted(&[5, 7, 9, 100]), 8.0);
    }
}

//! Static bed analysis (issue 21, spec §2 mattress extras): one lying map read as a body, never
//! as feet. The body's length is the span of loaded cells along the bed (its columns on a map
//! at least as wide as tall, its rows otherwise; the head at index 0, as the mats and the
//! simulator lay it: docs/decisions.md "Bed body regions"), split at fixed fractions of that
//! span into head, shoulders, back, sacrum, legs and heels; each region's peak and mean pressure
//! (mmHg, the device's scale) and contact area, then the mattress extras (profile along the bed,
//! contact area, height, weight, BMI) and the histogram.

use serde::{Deserialize, Serialize};

use mat_protocol::device_type::DeviceType;

use crate::machine::body_regions::BAND_ENDS;
use crate::machine::posture::lies_along_columns;

use super::frame::PressureFrame;
use super::histogram::{Histogram, histogram};
use super::mattress::{MattressResult, mattress};
use super::units::{active_floor, at_full_scale, cell_area_cm2, cell_mmhg, round_to};

/// The body regions, head first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BodyRegion {
    Head,
    Shoulders,
    Back,
    Sacrum,
    Legs,
    Heels,
}

/// Where each region ends, as a fraction of the body's length from the top of the head: the
/// body's proportions an Ulcer Risk alarm names its parts by ([`BAND_ENDS`]) to the sacrum, then
/// the legs and the heels (the last 8 %).
pub const REGION_ENDS: [(BodyRegion, f64); 6] = [
    (BodyRegion::Head, BAND_ENDS[0].1),
    (BodyRegion::Shoulders, BAND_ENDS[1].1),
    (BodyRegion::Back, BAND_ENDS[2].1),
    (BodyRegion::Sacrum, BAND_ENDS[3].1),
    (BodyRegion::Legs, 0.92),
    (BodyRegion::Heels, 1.0),
];

/// One region's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionFigures {
    pub region: BodyRegion,
    /// Highest cell, mmHg, 1 decimal.
    pub peak_mmhg: f64,
    /// Mean of the region's active cells, mmHg, 1 decimal (0 when none is active).
    pub mean_mmhg: f64,
    /// Active cells × the cell's area (spec §9: 16 cm² on the 48-cell bed mats).
    pub contact_area_cm2: f64,
}

/// The static bed result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BedStaticResult {
    /// Head to heels; empty when no cell is loaded.
    pub regions: Vec<RegionFigures>,
    /// The region holding the highest cell.
    pub peak_region: Option<BodyRegion>,
    /// Highest cell, mmHg, 1 decimal.
    pub max_pressure_mmhg: f64,
    /// The highest cell is at the sensor's full scale ([`at_full_scale`]): the maximum, and a
    /// region's peak equal to it, are "≥" that pressure. Absent (false) in results stored before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub max_at_full_scale: bool,
    /// Mean of the active cells, mmHg, 1 decimal.
    pub mean_pressure_mmhg: f64,
    /// Profile along the bed, contact area, height, weight and BMI.
    pub mattress: MattressResult,
    /// 8 bins over the maximum pressure (spec §2: mattress pages show it).
    pub histogram: Histogram,
}

/// Analyses one lying map from `device` for a patient of `weight_kg` and `height_cm`.
pub fn bed_static(map: &PressureFrame, device: DeviceType, weight_kg: Option<f64>, height_cm: Option<f64>) -> BedStaticResult {
    let (rows, cols) = (map.rows() as usize, map.cols() as usize);
    let along_cols = lies_along_columns(rows, cols);
    let (long, short) = if along_cols { (cols, rows) } else { (rows, cols) };
    let at = |a: usize, s: usize| if along_cols { map.value(s, a) } else { map.value(a, s) };
    let floor = active_floor(device);
    let loaded = |a: usize| (0..short).any(|s| at(a, s) >= floor);
    let mmhg = |v: f64| round_to(cell_mmhg(device, 1) * v, 1);
    let mut regions = Vec::new();
    let mut peak_region = None;
    let mut best = 0u16;
    if let (Some(first), Some(last)) = ((0..long).find(|&a| loaded(a)), (0..long).rev().find(|&a| loaded(a))) {
        let length = (last + 1 - first) as f64;
        let mut start = first;
        for (region, end_fraction) in REGION_ENDS {
            let end = (first + (end_fraction * length).round() as usize).clamp(start, last + 1);
            let cells: Vec<u16> = (start..end).flat_map(|a| (0..short).map(move |s| (a, s))).map(|(a, s)| at(a, s)).collect();
            let peak = cells.iter().copied().max().unwrap_or(0);
            let active: Vec<f64> = cells.iter().filter(|&&v| v >= floor).map(|&v| f64::from(v)).collect();
            let mean = if active.is_empty() { 0.0 } else { active.iter().sum::<f64>() / active.len() as f64 };
            if peak > best {
                best = peak;
                peak_region = Some(region);
            }
            regions.push(RegionFigures {
                region,
                peak_mmhg: mmhg(f64::from(peak)),
                mean_mmhg: mmhg(mean),
                contact_area_cm2: active.len() as f64 * cell_area_cm2(device),
            });
            start = end;
        }
    }
    let active: Vec<f64> = map.cells().iter().filter(|&&v| v >= floor).map(|&v| f64::from(v)).collect();
    let mean = if active.is_empty() { 0.0 } else { active.iter().sum::<f64>() / active.len() as f64 };
    let highest = map.cells().iter().copied().max().unwrap_or(0);
    BedStaticResult {
        regions,
        peak_region,
        max_pressure_mmhg: mmhg(f64::from(highest)),
        max_at_full_scale: at_full_scale(device, highest),
        mean_pressure_mmhg: mmhg(mean),
        mattress: mattress(map, device, weight_kg, height_cm),
        histogram: histogram(map.cells(), floor),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 24×48 bed (Sleep Mat's view): a body from column 2 to column 45, the sacrum heaviest.
    fn lying() -> PressureFrame {
        let mut cells = vec![0u16; 24 * 48];
        for c in 2..46 {
            for r in 10..14 {
                cells[r * 48 + c] = 10;
            }
        }
        // Sacrum: 40–58 % of 44 columns from column 2 → columns 20–27.
        cells[12 * 48 + 23] = 100;
        // Heels: the last columns.
        cells[11 * 48 + 45] = 40;
        PressureFrame::new(24, 48, cells).unwrap()
    }

    #[test]
    fn a_bed_reads_as_body_regions_head_to_heels_with_the_peak_at_the_sacrum() {
        let r = bed_static(&lying(), DeviceType::SleepMat, Some(70.0), Some(175.0));
        let names: Vec<BodyRegion> = r.regions.iter().map(|g| g.region).collect();
        assert_eq!(names, REGION_ENDS.map(|(r, _)| r));
        assert_eq!(r.peak_region, Some(BodyRegion::Sacrum));
        let sacrum = &r.regions[3];
        // A bed mat's step is 0.4 mmHg: 100 steps are 40 mmHg.
        assert_eq!(sacrum.peak_mmhg, 40.0);
        assert_eq!(r.regions[5].peak_mmhg, 16.0);
        // Every loaded cell is in exactly one region: 44 × 4 cells × 16 cm².
        let total: f64 = r.regions.iter().map(|g| g.contact_area_cm2).sum();
        assert_eq!(total, 44.0 * 4.0 * 16.0);
        assert_eq!(total, r.mattress.contact_area_cm2);
        assert_eq!(r.mattress.bmi, Some(22.9));
        assert_eq!(r.max_pressure_mmhg, 40.0);
        assert!(!r.max_at_full_scale);
    }

    #[test]
    fn a_maximum_at_a_bed_mat_s_full_scale_is_flagged() {
        let mut cells = lying().cells().to_vec();
        cells[12 * 48 + 23] = 255;
        let r = bed_static(&PressureFrame::new(24, 48, cells.clone()).unwrap(), DeviceType::SleepMat, None, None);
        assert!(r.max_at_full_scale);
        assert_eq!(r.max_pressure_mmhg, 102.0);
        cells[12 * 48 + 23] = 254;
        assert!(!bed_static(&PressureFrame::new(24, 48, cells).unwrap(), DeviceType::SleepMat, None, None).max_at_full_scale);
    }

    #[test]
    fn a_bed_result_has_no_feet_and_an_empty_bed_no_regions() {
        let text = serde_json::to_string(&bed_static(&lying(), DeviceType::MattressMatIoT, None, None)).unwrap();
        assert!(!text.contains("oot"), "{text}");
        let empty = bed_static(&PressureFrame::new(24, 48, vec![0; 24 * 48]).unwrap(), DeviceType::SleepMat, None, None);
        assert!(empty.regions.is_empty() && empty.peak_region.is_none());
    }
}

//! Mattress extras of spec §2: the total-pressure profile along the columns (4 cm apart, 0 to
//! 192 cm on a 48-column mattress; the legacy 16 × 16 mattress's 12 cm columns span the same bed),
//! contact area at the cell's area per active cell (16 cm² at 4 cm), and the height, weight and
//! BMI tiles.

use serde::{Deserialize, Serialize};

use super::frame::PressureFrame;
use super::units::{bmi, cell_area_cm2, cell_pitch_cm, contact_cells};
use mat_protocol::device_type::DeviceType;

/// One point of the profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfilePoint {
    /// Distance of the column's start from the mattress end, cm (column × the cell pitch).
    pub position_cm: f64,
    /// Sum of the column's cells, sensor units.
    pub total_pressure: u64,
}

/// The mattress tiles and profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MattressResult {
    /// Total pressure per column.
    pub profile: Vec<ProfilePoint>,
    /// Length of the profile axis: columns × the cell pitch (192 cm on every bed mat).
    pub profile_length_cm: f64,
    /// Active cells × the cell's area (16 cm² at 4 cm).
    pub contact_area_cm2: f64,
    /// Patient height, cm.
    pub height_cm: Option<f64>,
    /// Patient weight, kg.
    pub weight_kg: Option<f64>,
    /// weight / height² (m), 1 decimal.
    pub bmi: Option<f64>,
}

/// Profile, contact area and body tiles of a mattress map from `device`.
pub fn mattress(map: &PressureFrame, device: DeviceType, weight_kg: Option<f64>, height_cm: Option<f64>) -> MattressResult {
    let (rows, cols) = (map.rows() as usize, map.cols() as usize);
    let pitch = cell_pitch_cm(device);
    let profile = (0..cols)
        .map(|c| ProfilePoint { position_cm: c as f64 * pitch, total_pressure: (0..rows).map(|r| u64::from(map.value(r, c))).sum() })
        .collect();
    MattressResult {
        profile,
        profile_length_cm: cols as f64 * pitch,
        contact_area_cm2: f64::from(contact_cells(device, map.cells())) * cell_area_cm2(device),
        height_cm,
        weight_kg,
        bmi: weight_kg.zip(height_cm).and_then(|(w, h)| bmi(w, h)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_sums_columns_4_cm_apart_over_192_cm() {
        let mut cells = vec![0u16; 24 * 48];
        cells[0] = 10; // row 0, column 0
        cells[48] = 20; // row 1, column 0
        cells[47] = 7; // row 0, column 47
        cells[48 + 3] = 1; // row 1, column 3: one 0.4 mmHg step, noise: loads the profile, no contact
        let r = mattress(&PressureFrame::new(24, 48, cells).unwrap(), DeviceType::SleepMat, Some(70.0), Some(175.0));
        assert_eq!(r.profile.len(), 48);
        assert_eq!((r.profile[0].position_cm, r.profile[0].total_pressure), (0.0, 30));
        assert_eq!((r.profile[1].position_cm, r.profile[3].total_pressure), (4.0, 1));
        assert_eq!((r.profile[47].position_cm, r.profile[47].total_pressure), (188.0, 7));
        assert_eq!(r.profile_length_cm, 192.0);
        // 3 active cells × 16 cm².
        assert_eq!(r.contact_area_cm2, 48.0);
        assert_eq!(r.bmi, Some(22.9));
        assert_eq!((r.height_cm, r.weight_kg), (Some(175.0), Some(70.0)));
    }

    #[test]
    fn the_legacy_mattress_spans_the_same_bed_in_12_cm_columns() {
        let mut cells = vec![0u16; 16 * 16];
        cells[15] = 50; // row 0, the last column
        cells[16 + 15] = 50; // row 1, the last column
        let r = mattress(&PressureFrame::new(16, 16, cells).unwrap(), DeviceType::MattressMat, None, None);
        assert_eq!((r.profile[15].position_cm, r.profile[15].total_pressure), (180.0, 100));
        assert_eq!(r.profile_length_cm, 192.0);
        // 2 active cells × 144 cm².
        assert_eq!(r.contact_area_cm2, 288.0);
    }
}

//! Mattress extras of spec §2: the total-pressure profile along the columns (4 cm apart, 0 to
//! 192 cm on a 48-column mattress), contact area at 16 cm² per active cell, and the height,
//! weight and BMI tiles.

use serde::{Deserialize, Serialize};

use super::frame::PressureFrame;
use super::units::{MATTRESS_CELL_AREA_CM2, MATTRESS_COLUMN_SPACING_CM, bmi, contact_cells};
use mat_protocol::device_type::DeviceType;

/// One point of the profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfilePoint {
    /// Distance of the column's start from the mattress end, cm (column × 4).
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
    /// Length of the profile axis: columns × 4 cm (192 cm for 48 columns).
    pub profile_length_cm: f64,
    /// Active cells × 16 cm².
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
    let profile = (0..cols)
        .map(|c| ProfilePoint {
            position_cm: c as f64 * MATTRESS_COLUMN_SPACING_CM,
            total_pressure: (0..rows).map(|r| u64::from(map.value(r, c))).sum(),
        })
        .collect();
    MattressResult {
        profile,
        profile_length_cm: cols as f64 * MATTRESS_COLUMN_SPACING_CM,
        contact_area_cm2: f64::from(contact_cells(device, map.cells())) * MATTRESS_CELL_AREA_CM2,
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
}

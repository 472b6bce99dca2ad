//! Units and geometry of spec §9: pressure conversions, the spacing and surface of a cell per
//! device type, contact area, BMI and the rounding rules the results are shown with.

use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{active_floor_steps, active_floor_steps_for, full_scale_steps, units_per_cell, units_to_kpa, units_to_mmhg};
use serde::{Deserialize, Serialize};

/// The smallest active cell of `device`, in its steps: `mat_protocol::scale::active_floor_steps`
/// (its surface's least pressure and two steps: 2 where people lie or sit, 5 on a plate).
/// Contact area, presence and every analysis count the cells at or above it; the client reads
/// the same figure from `GET /api/deviceTypes`. A type whose cells are not pressures reads as
/// hub units.
pub fn active_floor(device: DeviceType) -> u16 {
    active_floor_steps(device).unwrap_or_else(|| active_floor_steps_for(units_per_cell(device)))
}

/// A cell of `device` in kPa (its documented scale; no patient weight needed).
pub fn cell_kpa(device: DeviceType, cell: u16) -> f64 {
    units_to_kpa(f64::from(cell) * units_per_cell(device))
}

/// Whether a cell value of `device` is at the sensor's full scale (`scale::full_scale_steps`):
/// the cell saturated, and the pressure there was that or more. A result's maximum on such a cell
/// is written "≥" by every reader (the screen, the PDF, FHIR's `comparator`).
pub fn at_full_scale(device: DeviceType, cell: u16) -> bool {
    full_scale_steps(device).is_some_and(|top| cell >= top)
}

/// A cell of `device` in mmHg.
pub fn cell_mmhg(device: DeviceType, cell: u16) -> f64 {
    units_to_mmhg(f64::from(cell) * units_per_cell(device))
}

/// Spec §9: "factor 98.0665 per unit" (kg → N × 10, so that a load spread over cm² reads in kPa).
pub const PRESSURE_UNIT_FACTOR: f64 = 98.0665;
/// Spec §9: the share of the patient's weight taken as resting on the mat.
pub const WEIGHT_FACTOR: f64 = 0.7;
/// Spec §9: kPa → mmHg.
pub const MMHG_PER_KPA: f64 = 7.50062;
/// Spec §9: the factor applied after the (floored) mmHg value.
pub const MMHG_SCALE: f64 = 0.3;
/// Spec §1/§9: the fitness group's pressure scale, in kPa per sensor unit (owned by
/// `mat_protocol::scale`, which the client reads it from).
pub const FITNESS_KPA_PER_UNIT: f64 = mat_protocol::scale::FITNESS_KPA_PER_STEP;

/// Calibration from sensor units to pressure (spec §9): the patient's weight × 0.7 × 98.0665,
/// divided by the sum of the sensor values of the map. Multiply a cell by it to get its pressure
/// in kPa as if each cell were 1 cm² and carried 70 % of the weight: when that holds, it equals the
/// documented scale ([`cell_kpa`]; see the test). `None` when the map carries no load (nothing to
/// divide by) or the weight is not positive.
pub fn calibration_factor(weight_kg: f64, sensor_sum: u64) -> Option<f64> {
    if sensor_sum == 0 || weight_kg.is_nan() || weight_kg <= 0.0 {
        return None;
    }
    Some(weight_kg * WEIGHT_FACTOR * PRESSURE_UNIT_FACTOR / sensor_sum as f64)
}

/// The pressure scale of a static capture of a weighed patient on a plate or a seat (spec §9's
/// weight calibration): the patient's weight × 0.7 taken as resting on the surface, spread over
/// the map in proportion to its cells. Spec §9's factor (weight × 0.7 × 98.0665 ÷ the sum of the
/// cells) reads in kPa for cells of 1 cm²; a cell of `cell_area_cm2` carries its share of the load
/// over that area, so one step is the factor ÷ the area (a seat's 2 cm cells: ÷ 4). Stored with
/// the result so that every reader (the browser, the PDF) converts that capture's cells with it
/// and says so (docs/decisions.md, "Pressures of a weighed patient").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WeightCalibration {
    /// The patient's weight at the capture, kg.
    pub weight_kg: f64,
    /// The share of it taken as resting on the surface (spec §9: 0.7).
    pub load_share: f64,
    /// The area of one cell, cm².
    pub cell_area_cm2: f64,
    /// kPa per step of the map's cells.
    pub kpa_per_step: f64,
}

impl WeightCalibration {
    /// mmHg per step of the map's cells.
    pub fn mmhg_per_step(&self) -> f64 {
        self.kpa_per_step * MMHG_PER_KPA
    }
}

/// The weight calibration of a map from `device` (its cells in the device's steps) for a patient
/// of `weight_kg`; `None` without a weight or a load.
pub fn weight_calibration(device: DeviceType, weight_kg: Option<f64>, cells: &[u16]) -> Option<WeightCalibration> {
    let weight_kg = weight_kg?;
    let sum: u64 = cells.iter().map(|&c| u64::from(c)).sum();
    let per_square_cm_cell = calibration_factor(weight_kg, sum)?;
    let cell_area_cm2 = cell_area_cm2(device);
    Some(WeightCalibration { weight_kg, load_share: WEIGHT_FACTOR, cell_area_cm2, kpa_per_step: per_square_cm_cell / cell_area_cm2 })
}

/// The millimetre-of-mercury display of spec §9: × 7.50062, rounded down, × 0.3, rounded.
pub fn to_mmhg(pressure: f64) -> f64 {
    ((pressure * MMHG_PER_KPA).floor() * MMHG_SCALE).round()
}

/// The fitness group's scale (spec §1): sensor units × 0.06, in kPa.
pub fn fitness_kpa(raw: f64) -> f64 {
    raw * FITNESS_KPA_PER_UNIT
}

/// Spec §9 "distance between points": 1 for floor and mattress mats, 2 for seating, 2.5 for the
/// horse. Every other map type plots at 1.
pub fn distance_between_points(device: DeviceType) -> f64 {
    match device {
        DeviceType::SeatingMat | DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => 2.0,
        DeviceType::SensingHorse | DeviceType::SensingHorseSubdevice => 2.5,
        _ => 1.0,
    }
}

/// Spec §9 "surface ratio per point": 1, 4 for seating, 6.25 for the horse (the square of the
/// distance between points).
pub fn surface_ratio(device: DeviceType) -> f64 {
    match device {
        DeviceType::SeatingMat | DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => 4.0,
        DeviceType::SensingHorse | DeviceType::SensingHorseSubdevice => 6.25,
        _ => 1.0,
    }
}

/// Spec §9: a podology cell in dynamic analyses is 2 cm.
pub const PODOLOGY_CELL_CM: f64 = 2.0;

/// Physical distance between two neighbouring cell centres, in cm: what real-scale prints,
/// distances (sway, body centre) and surfaces are computed with. Mattresses 4 cm and podology
/// plates (podology, rehab, pressure mat, floor recognition) 2 cm, as spec §9 states for them;
/// every other type its spec §9 distance between points (floor 1, seating 2, horse 2.5).
/// The table is the device type's (`DeviceType::cell_pitch_cm`, served to the client); types
/// whose cells are not pressures plot at their distance between points.
pub fn cell_pitch_cm(device: DeviceType) -> f64 {
    device.cell_pitch_cm().map_or_else(|| distance_between_points(device), f64::from)
}

/// Area of one cell in cm²: the square of the pitch (mattress 16, seating 4, horse 6.25, floor 1,
/// podology 4).
pub fn cell_area_cm2(device: DeviceType) -> f64 {
    cell_pitch_cm(device) * cell_pitch_cm(device)
}

/// Spec §9: the centre-of-pressure scale of the seating dynamic view: 1 cm per cell for seating,
/// 2 for the horse (and 2 for podology, whose dynamic cell is 2 cm).
pub fn dynamic_cell_cm(device: DeviceType) -> f64 {
    match device {
        DeviceType::SensingHorse | DeviceType::SensingHorseSubdevice => 2.0,
        DeviceType::SeatingMat | DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => 1.0,
        _ => PODOLOGY_CELL_CM,
    }
}

/// Spec §9: contact area counts the distinct cells with a pressure of at least 5 (hub units): the
/// active cells of a map from `device` ([`active_floor`]).
pub fn contact_cells(device: DeviceType, cells: &[u16]) -> u32 {
    let floor = active_floor(device);
    cells.iter().filter(|&&v| v >= floor).count() as u32
}

/// The contact area one active cell of `device` counts for, cm²: the spec's surface ratio, or on
/// a mattress its cell's area (spec §9: 16 cm² on the 48-cell bed mats; 144 cm² on the legacy
/// 16 × 16 mattress, whose cells are 12 cm).
pub fn contact_cell_area_cm2(device: DeviceType) -> f64 {
    if is_mattress(device) { cell_area_cm2(device) } else { surface_ratio(device) }
}

/// Contact area in cm² of a map from `device`: active cells × [`contact_cell_area_cm2`].
pub fn contact_area_cm2(device: DeviceType, cells: &[u16]) -> f64 {
    f64::from(contact_cells(device, cells)) * contact_cell_area_cm2(device)
}

/// Whether a device is one of the mattress family (mattress extras of spec §2).
pub fn is_mattress(device: DeviceType) -> bool {
    matches!(device, DeviceType::MattressMat | DeviceType::MattressMatIoT | DeviceType::SleepMat)
}

/// Body-mass index (kg/m²) to 1 decimal, spec §9. `None` for a non-positive height.
pub fn bmi(weight_kg: f64, height_cm: f64) -> Option<f64> {
    if height_cm.is_nan() || height_cm <= 0.0 || weight_kg.is_nan() {
        return None;
    }
    let metres = height_cm / 100.0;
    Some(round_to(weight_kg / (metres * metres), 1))
}

/// Rounds half away from zero to `decimals` places (rocker durations 3, shares and BMI 1).
pub fn round_to(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// Euclidean distance between two points in cells, converted to cm with `pitch_cm`.
pub fn distance_cm(a: [f64; 2], b: [f64; 2], pitch_cm: f64) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt() * pitch_cm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_is_weight_times_0_7_times_98_0665_over_the_sum() {
        // 70 kg on a map whose cells add up to 4,900: 70 × 0.7 × 98.0665 / 4900 = 0.980665.
        let f = calibration_factor(70.0, 4900).unwrap();
        assert!((f - 0.980665).abs() < 1e-12, "{f}");
        assert_eq!(calibration_factor(70.0, 0), None);
        assert_eq!(calibration_factor(0.0, 10), None);
    }

    #[test]
    fn the_weight_calibration_agrees_with_the_documented_scale() {
        // 100 cells of 1 cm² at 100 units (392 Pa) carry 100 × 392.2 Pa × 1 cm² = 3.922 N = 0.4 kgf.
        // A patient of 0.4 / 0.7 kg (70 % of the weight on the mat): the spec's factor is the unit.
        let load_kgf = 100.0 * 100.0 * mat_protocol::scale::PASCAL_PER_UNIT * 1e-4 / 9.80665;
        let f = calibration_factor(load_kgf / WEIGHT_FACTOR, 100 * 100).unwrap();
        assert!((f - units_to_kpa(1.0)).abs() < 1e-12, "{f}");
        // A seat's documented 1 mmHg step is what the spec's calibration measures for a sitter
        // whose 70 % of the weight matches the map's load: 4,900 steps × 133.3 Pa × 4 cm² =
        // 261.3 N = 26.6 kgf, 70 % of 38.1 kg.
        let seat_kgf = 4900.0 * cell_kpa(DeviceType::SeatingMatIoT, 1) * 1000.0 * 4e-4 / 9.80665;
        let c = weight_calibration(DeviceType::SeatingMatIoT, Some(seat_kgf / WEIGHT_FACTOR), &[4900]).unwrap();
        assert!((c.mmhg_per_step() - cell_mmhg(DeviceType::SeatingMatIoT, 1)).abs() < 1e-4, "{c:?}");
        assert!((cell_mmhg(DeviceType::SeatingMatIoT, 1) - 1.0).abs() < 1e-12);
        // The kPa → mmHg factor is the same physics as the unit's mmHg.
        assert!((MMHG_PER_KPA - 1000.0 / mat_protocol::scale::PASCAL_PER_MMHG).abs() < 1e-5);
    }

    #[test]
    fn a_weighed_patient_calibrates_the_cells_over_their_area() {
        // 70 kg on a seat (2 cm cells, 4 cm²) whose cells add up to 4,900 steps: 70 % of the weight,
        // 480.5 N, over the loaded cells. Σ pressure × area = force: 4,900 × p × 4 cm² = 480.5 N.
        let cells = [4900u16, 0, 0];
        let c = weight_calibration(DeviceType::SeatingMatIoT, Some(70.0), &cells).unwrap();
        assert_eq!(c.cell_area_cm2, 4.0);
        assert_eq!(c.load_share, 0.7);
        let force_n = 4900.0 * c.kpa_per_step * 1000.0 * c.cell_area_cm2 * 1e-4;
        assert!((force_n - 70.0 * 0.7 * 9.80665).abs() < 1e-9, "{force_n}");
        assert!((c.mmhg_per_step() - c.kpa_per_step * 7.50062).abs() < 1e-12);
        // A podology plate's cell is 2 cm too; a floor mat's 1 cm² cell takes the spec's factor as is.
        let floor = weight_calibration(DeviceType::FloorMat, Some(70.0), &cells).unwrap();
        assert!((floor.kpa_per_step - calibration_factor(70.0, 4900).unwrap()).abs() < 1e-12);
        assert_eq!(weight_calibration(DeviceType::SeatingMatIoT, None, &cells), None);
        assert_eq!(weight_calibration(DeviceType::SeatingMatIoT, Some(70.0), &[0, 0]), None);
    }

    #[test]
    fn a_bed_cell_is_0_4_mmhg_a_seat_1_mmhg_a_plate_1_kpa_and_a_count_cell_a_255th_of_a_kilopascal() {
        assert!((cell_mmhg(DeviceType::MattressMatIoT, 250) - 100.0).abs() < 1e-9);
        assert!((cell_mmhg(DeviceType::SeatingMatIoT, 235) - 235.0).abs() < 1e-9);
        assert!((cell_kpa(DeviceType::PodologyIoT, 210) - 210.0).abs() < 1e-9);
        assert!((cell_mmhg(DeviceType::FloorMat, 90) - 90.0).abs() < 1e-9);
        assert_eq!(active_floor(DeviceType::MattressMatIoT), 2);
        assert_eq!(active_floor(DeviceType::SeatingMatIoT), 2);
        assert_eq!(active_floor(DeviceType::PodologyIoT), 5);
        assert_eq!(active_floor(DeviceType::FloorMat), 2);
        for t in DeviceType::ALL.into_iter().filter(|t| t.frame_shape().is_some()) {
            if let Some(served) = t.info().active_floor_steps {
                assert_eq!(active_floor(t), served, "{t:?}");
            }
        }
    }

    #[test]
    fn mmhg_is_floored_then_scaled_by_0_3_then_rounded() {
        // 10 kPa × 7.50062 = 75.0062 → floor 75 → × 0.3 = 22.5 → round 23 (half away from zero).
        assert_eq!(to_mmhg(10.0), 23.0);
        // 1 kPa → 7.50062 → 7 → 2.1 → 2. Without the floor 7.50062 × 0.3 = 2.25 still rounds to 2,
        // so also check 2 kPa: 15.00124 → 15 → 4.5 → 5 (with rounding instead of floor first: 4.50 → 5).
        assert_eq!(to_mmhg(1.0), 2.0);
        assert_eq!(to_mmhg(2.0), 5.0);
        // 0.2666 kPa → 1.9997 → floor 1 → 0.3 → 0; rounding first would give 2 → 0.6 → 1.
        assert_eq!(to_mmhg(0.2666), 0.0);
    }

    #[test]
    fn fitness_scale_is_0_06_kpa_per_unit() {
        assert!((fitness_kpa(100.0) - 6.0).abs() < 1e-12);
    }

    #[test]
    fn distance_between_points_per_type() {
        assert_eq!(distance_between_points(DeviceType::FloorMat), 1.0);
        assert_eq!(distance_between_points(DeviceType::MattressMatIoT), 1.0);
        assert_eq!(distance_between_points(DeviceType::SeatingMatIoT), 2.0);
        assert_eq!(distance_between_points(DeviceType::SensingHorseSubdevice), 2.5);
    }

    #[test]
    fn surface_ratio_per_type() {
        assert_eq!(surface_ratio(DeviceType::FloorMat), 1.0);
        assert_eq!(surface_ratio(DeviceType::MattressMatIoT), 1.0);
        assert_eq!(surface_ratio(DeviceType::SeatingMatIoTXL), 4.0);
        assert_eq!(surface_ratio(DeviceType::SensingHorse), 6.25);
    }

    #[test]
    fn the_served_pitch_is_the_spec_spacing() {
        // Spec §9: a mattress's columns are 4 cm apart.
        assert_eq!(cell_pitch_cm(DeviceType::MattressMatIoT), 4.0);
        assert_eq!(cell_pitch_cm(DeviceType::RehabMat), PODOLOGY_CELL_CM);
        for t in DeviceType::ALL {
            if let Some(pitch) = t.cell_pitch_cm() {
                assert_eq!(cell_pitch_cm(t), f64::from(pitch), "{t:?}");
            }
        }
    }

    #[test]
    fn physical_pitch_and_cell_area() {
        assert_eq!(cell_pitch_cm(DeviceType::MattressMatIoT), 4.0);
        assert_eq!(cell_area_cm2(DeviceType::MattressMatIoT), 16.0);
        assert_eq!(cell_pitch_cm(DeviceType::PodologyIoT), 2.0);
        assert_eq!(cell_pitch_cm(DeviceType::SeatingMatIoT), 2.0);
        assert_eq!(cell_pitch_cm(DeviceType::SensingHorseSubdevice), 2.5);
        assert_eq!(cell_pitch_cm(DeviceType::FloorMat), 1.0);
        assert_eq!(dynamic_cell_cm(DeviceType::SeatingMatIoT), 1.0);
        assert_eq!(dynamic_cell_cm(DeviceType::SensingHorseSubdevice), 2.0);
        assert_eq!(dynamic_cell_cm(DeviceType::PodologyIoT), 2.0);
    }

    #[test]
    fn contact_area_counts_the_active_cells() {
        // A floor mat (1 mmHg steps, 1 cm² cells) is active from 2 steps.
        let cells = [0, 1, 2, 6, 200, 1];
        assert_eq!(contact_cells(DeviceType::FloorMat, &cells), 3);
        assert_eq!(contact_area_cm2(DeviceType::FloorMat, &cells), 3.0);
        // A seat (1 mmHg steps) and a saddle are active from 2 steps.
        let seat = [0, 1, 2, 3, 200, 1];
        assert_eq!(contact_cells(DeviceType::SeatingMatIoT, &seat), 3);
        assert_eq!(contact_area_cm2(DeviceType::SeatingMatIoT, &seat), 12.0);
        assert_eq!(contact_area_cm2(DeviceType::SensingHorseSubdevice, &seat), 18.75);
        // Mattress: 0.4 mmHg steps (13.6 units), active from 2 steps; 16 cm² per active cell.
        let bed = [0, 1, 2, 3, 200, 1];
        assert_eq!(contact_cells(DeviceType::MattressMatIoT, &bed), 3);
        assert_eq!(contact_area_cm2(DeviceType::MattressMatIoT, &bed), 48.0);
    }

    #[test]
    fn bmi_to_one_decimal() {
        // 70 / 1.75² = 22.857… → 22.9
        assert_eq!(bmi(70.0, 175.0), Some(22.9));
        // 80 / 1.8² = 24.691… → 24.7
        assert_eq!(bmi(80.0, 180.0), Some(24.7));
        assert_eq!(bmi(80.0, 0.0), None);
    }

    #[test]
    fn distances_use_the_pitch() {
        assert_eq!(distance_cm([0.0, 0.0], [3.0, 4.0], 2.0), 10.0);
        assert_eq!(round_to(1.23456, 3), 1.235);
    }
}

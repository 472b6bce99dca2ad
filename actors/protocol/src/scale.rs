//! What a cell means: the hub's pressure unit and the documented scale of each device type's
//! cells (`docs/device-protocol.md` §7, reasoning in `docs/decisions.md`, "Units and presence on
//! real maps").
//!
//! The hub's pressure unit is the unit the spec's presence numbers (§5: mean and median ≥ 50,
//! standard deviation ≥ 40) and its contact-area floor (§9: ≥ 5) are written in: the count of the
//! old mats, a byte over 0–1 kPa, so **1 unit = 1000 / 255 Pa ≈ 0.0294 mmHg**. Real in-bed maps
//! fix it: every real occupied frame of the development set meets those numbers for any unit
//! between 0.025 and 0.035 mmHg, and none does at 0.1 mmHg or above.
//!
//! A device's cells are in its own steps; [`units_per_cell`] converts. Bed mats (Mattress Mat IoT,
//! Sleep Mat, legacy Mattress Mat) send 0.4 mmHg per step, so a byte covers 0–102 mmHg, past the
//! 32 mmHg at which capillaries close and up to the 100 mmHg of clinical pressure-mapping
//! sensors. Every other map type sends the old count itself (1 unit per step). Force channels and
//! room-set sensors are not pressure maps: their 0–4095 readings keep their own scale (the
//! room-set presence rule, reading > 200, is written in it).

use crate::device_type::DeviceType;

/// Pascals in one hub pressure unit (the old mats' count: a byte over 0–1 kPa).
pub const PASCAL_PER_UNIT: f64 = 1000.0 / 255.0;
/// Pascals in one millimetre of mercury.
pub const PASCAL_PER_MMHG: f64 = 133.322_387_415;
/// Millimetres of mercury per step of a bed mat's cell.
pub const BED_CELL_MMHG: f64 = 0.4;

/// Hub pressure units in one step of `device`'s cells.
pub fn units_per_cell(device: DeviceType) -> f64 {
    if is_bed_scale(device) { BED_CELL_MMHG * PASCAL_PER_MMHG / PASCAL_PER_UNIT } else { 1.0 }
}

/// Whether `device` sends calibrated 0.4 mmHg steps (the bed mats).
pub fn is_bed_scale(device: DeviceType) -> bool {
    matches!(device, DeviceType::MattressMat | DeviceType::MattressMatIoT | DeviceType::SleepMat)
}

/// Hub units → millimetres of mercury.
pub fn units_to_mmhg(units: f64) -> f64 {
    units * PASCAL_PER_UNIT / PASCAL_PER_MMHG
}

/// Millimetres of mercury → hub units.
pub fn mmhg_to_units(mmhg: f64) -> f64 {
    mmhg * PASCAL_PER_MMHG / PASCAL_PER_UNIT
}

/// Hub units → kilopascals.
pub fn units_to_kpa(units: f64) -> f64 {
    units * PASCAL_PER_UNIT / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_is_a_255th_of_a_kilopascal() {
        assert!((units_to_kpa(255.0) - 1.0).abs() < 1e-12);
        assert!((units_to_mmhg(1.0) - 0.029_414).abs() < 1e-6);
        assert!((mmhg_to_units(units_to_mmhg(123.0)) - 123.0).abs() < 1e-9);
    }

    #[test]
    fn bed_mats_send_0_4_mmhg_steps_and_a_byte_reaches_102_mmhg() {
        for t in [DeviceType::MattressMatIoT, DeviceType::SleepMat, DeviceType::MattressMat] {
            assert!((units_to_mmhg(units_per_cell(t)) - 0.4).abs() < 1e-12, "{t:?}");
            assert!((units_to_mmhg(255.0 * units_per_cell(t)) - 102.0).abs() < 1e-9);
        }
        assert!((units_per_cell(DeviceType::MattressMatIoT) - 13.599).abs() < 1e-3);
    }

    #[test]
    fn other_map_types_send_the_unit_itself() {
        for t in [DeviceType::SeatingMatIoT, DeviceType::PodologyIoT, DeviceType::FloorMat, DeviceType::SeatingMat] {
            assert_eq!(units_per_cell(t), 1.0, "{t:?}");
        }
    }
}

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
//!
//! This module is the one owner of pressure units: the hub serves [`PressureScale`] at
//! `GET /api/pressureScale` and each type's [`pressure_units_per_cell`] in `GET /api/deviceTypes`,
//! and the client converts with those figures (`client/src/lib/pressureUnits.ts`), never its own.
//! Pressures are shown in mmHg by default, in kPa as a user's choice (saved with the view
//! options), and in the fitness variant's kPa (spec §1, §6: sensor steps × 0.06).

use serde::{Deserialize, Serialize};

use crate::device_type::DeviceType;

/// Pascals in one hub pressure unit (the old mats' count: a byte over 0–1 kPa).
pub const PASCAL_PER_UNIT: f64 = 1000.0 / 255.0;
/// Pascals in one millimetre of mercury.
pub const PASCAL_PER_MMHG: f64 = 133.322_387_415;
/// Millimetres of mercury per step of a bed mat's cell.
pub const BED_CELL_MMHG: f64 = 0.4;

/// Spec §1, §6, §9: the fitness group's pressure scale, in kPa per step of a device's cells.
pub const FITNESS_KPA_PER_STEP: f64 = 0.06;

/// A unit a user may choose to read pressures in (spec §9: millimetres of mercury, or kPa).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum PressureUnit {
    /// Millimetres of mercury, the clinical default.
    #[default]
    #[serde(rename = "mmHg")]
    MmHg,
    /// Kilopascals.
    #[serde(rename = "kPa")]
    KPa,
}

impl PressureUnit {
    /// Every unit a user may choose, the default first.
    pub const ALL: [PressureUnit; 2] = [PressureUnit::MmHg, PressureUnit::KPa];

    /// The unit's symbol, as serialised.
    pub fn symbol(self) -> &'static str {
        match self {
            PressureUnit::MmHg => "mmHg",
            PressureUnit::KPa => "kPa",
        }
    }

    /// The unit named by `symbol`, if any.
    pub fn from_symbol(symbol: &str) -> Option<PressureUnit> {
        PressureUnit::ALL.into_iter().find(|u| u.symbol() == symbol)
    }

    /// Pascals in one of this unit.
    pub fn pascals(self) -> f64 {
        match self {
            PressureUnit::MmHg => PASCAL_PER_MMHG,
            PressureUnit::KPa => 1000.0,
        }
    }
}

/// The figures a client converts pressures with, served whole by `GET /api/pressureScale`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PressureScale {
    /// Pascals in one hub pressure unit (1000 / 255).
    pub pascal_per_unit: f64,
    /// Pascals in one unit a user may choose, by symbol.
    pub pascal_per: Vec<UnitPascals>,
    /// The unit shown until a user chooses another.
    pub default_unit: PressureUnit,
    /// The fitness variant's kPa per step of a device's cells (spec §1: 0.06).
    pub fitness_kpa_per_step: f64,
}

/// One unit and the pascals in one of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct UnitPascals {
    pub unit: PressureUnit,
    pub pascals: f64,
}

impl PressureScale {
    /// The hub's scale.
    pub fn hub() -> PressureScale {
        PressureScale {
            pascal_per_unit: PASCAL_PER_UNIT,
            pascal_per: PressureUnit::ALL.into_iter().map(|unit| UnitPascals { unit, pascals: unit.pascals() }).collect(),
            default_unit: PressureUnit::default(),
            fitness_kpa_per_step: FITNESS_KPA_PER_STEP,
        }
    }
}

/// Hub pressure units in one step of `device`'s cells, where its cells are pressures: `None` for
/// the force channels and room-set sensors (readings on their own 0–4095 scale) and for parents
/// that send nothing.
pub fn pressure_units_per_cell(device: DeviceType) -> Option<f64> {
    match device.frame_shape() {
        Some(_) if !device.uses_reading_presence() => Some(units_per_cell(device)),
        _ => None,
    }
}

/// Hub units → `unit`.
pub fn units_to(unit: PressureUnit, units: f64) -> f64 {
    units * PASCAL_PER_UNIT / unit.pascals()
}

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
    fn the_served_scale_converts_as_the_functions_do() {
        let scale = PressureScale::hub();
        assert_eq!(scale.default_unit, PressureUnit::MmHg);
        assert_eq!(scale.fitness_kpa_per_step, 0.06);
        for UnitPascals { unit, pascals } in &scale.pascal_per {
            assert!((scale.pascal_per_unit * 255.0 / pascals - units_to(*unit, 255.0)).abs() < 1e-12);
        }
        assert!((units_to(PressureUnit::MmHg, 34.0) - units_to_mmhg(34.0)).abs() < 1e-12);
        assert!((units_to(PressureUnit::KPa, 34.0) - units_to_kpa(34.0)).abs() < 1e-12);
        assert_eq!(PressureUnit::from_symbol("kPa"), Some(PressureUnit::KPa));
        assert_eq!(PressureUnit::from_symbol("psi"), None);
    }

    #[test]
    fn only_pressure_maps_have_units_per_cell() {
        assert_eq!(pressure_units_per_cell(DeviceType::ForceMat), None);
        assert_eq!(pressure_units_per_cell(DeviceType::NorthSky), None);
        assert_eq!(pressure_units_per_cell(DeviceType::RoomSet), None);
        assert_eq!(pressure_units_per_cell(DeviceType::SensingHorse), None);
        assert_eq!(pressure_units_per_cell(DeviceType::FitnessMat), Some(1.0));
        assert_eq!(pressure_units_per_cell(DeviceType::MattressMatIoT), Some(units_per_cell(DeviceType::MattressMatIoT)));
    }

    #[test]
    fn other_map_types_send_the_unit_itself() {
        for t in [DeviceType::SeatingMatIoT, DeviceType::PodologyIoT, DeviceType::FloorMat, DeviceType::SeatingMat] {
            assert_eq!(units_per_cell(t), 1.0, "{t:?}");
        }
    }
}

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
//! A device's cells are in its own steps ([`cell_step`]); [`units_per_cell`] converts. Bed mats
//! (Mattress Mat IoT, Sleep Mat, legacy Mattress Mat) send 0.4 mmHg per step, so a byte covers
//! 0–102 mmHg, past the 32 mmHg at which capillaries close and up to the 100 mmHg of clinical
//! pressure-mapping sensors. Seats (seating mats, the Health Mat, a saddle's sub-device) send
//! 1 mmHg per step, 0–255 mmHg, the range of clinical seat mapping (sitters' ischial peaks are
//! 60–200 mmHg). Plates people stand and walk on (podology, pressure and rehab platforms) send
//! 1 kPa per step, 0–255 kPa, the range of plantar pressure at a 2 cm cell. The Fitness Mat sends
//! the spec's fitness scale, 0.06 kPa per step. Mats people lie on without a mattress under them
//! (floor mats, the Wellness Mat) send 1 mmHg per step, 0–255 mmHg: a body on a firm surface
//! peaks above a bed mat's 102 mmHg. No type sends the old count itself any more. Why:
//! `docs/decisions.md`, "Plates and seats read their own documented step" and "One active cell,
//! floor and wellness mats in mmHg" (issue 22). Force channels and room-set sensors are not pressure maps:
//! their 0–4095 readings keep their own scale (the room-set presence rule, reading > 200, is
//! written in it).
//!
//! An *active* cell (spec §9's contact area, spec §5's presence, every analysis and the client's
//! live contact surface) reads at least its surface's least pressure ([`ACTIVE_MIN_MMHG`] where
//! people lie or sit, [`PLATE_ACTIVE_MIN_KPA`] on a plate) and at least [`ACTIVE_MIN_STEPS`]
//! steps of its device: [`active_floor_steps`], served per type in `GET /api/deviceTypes`.
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

/// Millimetres of mercury per step of a seat's cell (seating mats, the Health Mat, a saddle).
pub const SEAT_CELL_MMHG: f64 = 1.0;
/// Kilopascals per step of a plate's cell (podology, pressure and rehab platforms).
pub const PLATE_CELL_KPA: f64 = 1.0;

/// Millimetres of mercury per step of a floor mat's or the Wellness Mat's cell (a body lying on
/// a firm surface).
pub const FLOOR_CELL_MMHG: f64 = 1.0;

/// Spec §1, §6, §9: the fitness group's pressure scale, in kPa per step of a device's cells.
pub const FITNESS_KPA_PER_STEP: f64 = 0.06;

/// The least pressure of an active cell of a surface people lie or sit on, mmHg: spec §9's contact
/// floor, "a pressure of at least 5", in the unit it was written in (5 hub units,
/// 5 × 1000/255 Pa ≈ 19.6 Pa ≈ 0.147 mmHg, two grams on a square centimetre: any touch of a body).
pub const ACTIVE_MIN_MMHG: f64 = 5.0 * PASCAL_PER_UNIT / PASCAL_PER_MMHG;
/// The least pressure of an active cell of a plate people stand and walk on, kPa: a foot bears at
/// least this wherever it bears weight (a standing midfoot 15–40 kPa); below it are a sole's
/// edge half over a cell and the spread of a loaded cell into its neighbours, which plantar
/// platforms leave out of the contact (their lowest readings are 5–10 kPa).
pub const PLATE_ACTIVE_MIN_KPA: f64 = 5.0;
/// The fewest steps of its device an active cell reads: one step is the converter's
/// quantisation noise (a cell at rest flickers between 0 and 1), two are a load.
pub const ACTIVE_MIN_STEPS: u16 = 2;

/// The smallest active cell, in steps of `step_pascals` each, for a least pressure of
/// `min_pascals`: at least that pressure and at least [`ACTIVE_MIN_STEPS`] steps.
pub fn active_floor_steps_of(step_pascals: f64, min_pascals: f64) -> u16 {
    // The tolerance keeps an exact multiple (5 units at 1 unit a step) at that many steps.
    (((min_pascals / step_pascals) - 1e-9).ceil().max(0.0) as u16).max(ACTIVE_MIN_STEPS)
}

/// The smallest active cell of a lying or sitting surface whose step is `units_per_cell` hub
/// units: at least [`ACTIVE_MIN_MMHG`] and [`ACTIVE_MIN_STEPS`] steps.
pub fn active_floor_steps_for(units_per_cell: f64) -> u16 {
    active_floor_steps_of(units_per_cell * PASCAL_PER_UNIT, ACTIVE_MIN_MMHG * PASCAL_PER_MMHG)
}

/// The smallest active cell of `device`, in its steps, where its cells are pressures: at least
/// its surface's least pressure ([`CellStep::active_min_pascals`]) and two steps. 2 on every
/// lying or sitting surface (each step is above half of [`ACTIVE_MIN_MMHG`]), 5 on a plate
/// (5 kPa). The one definition of an active cell: presence, contact area, every analysis and the
/// client (served as `activeFloorSteps`) read it.
pub fn active_floor_steps(device: DeviceType) -> Option<u16> {
    pressure_units_per_cell(device)?;
    let step = cell_step(device);
    Some(active_floor_steps_of(step.pascals(), step.active_min_pascals()))
}

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

/// The largest value `device`'s cells can carry, in its steps, where its cells are pressures: a
/// cell at it reads the sensor's full scale, so the pressure there is that much *or more* (a
/// bed mat's byte saturates at 102 mmHg, a seat's at 255 mmHg). For the Sensing Horse, its
/// sub-devices'. Served as `fullScaleSteps`; the client marks such a reading "≥".
pub fn full_scale_steps(device: DeviceType) -> Option<u16> {
    let device = if device == DeviceType::SensingHorse { DeviceType::SensingHorseSubdevice } else { device };
    pressure_units_per_cell(device)?;
    let (_, _, format) = device.frame_shape()?;
    Some(match format {
        crate::CellFormat::U8 => u16::from(u8::MAX),
        crate::CellFormat::U16Le => u16::MAX,
    })
}

/// Hub units → `unit`.
pub fn units_to(unit: PressureUnit, units: f64) -> f64 {
    units * PASCAL_PER_UNIT / unit.pascals()
}

/// Hub pressure units in one step of `device`'s cells.
pub fn units_per_cell(device: DeviceType) -> f64 {
    cell_step(device).pascals() / PASCAL_PER_UNIT
}

/// Whether `device` sends calibrated 0.4 mmHg steps (the bed mats).
pub fn is_bed_scale(device: DeviceType) -> bool {
    cell_step(device) == CellStep::Bed
}

/// What one step of a device type's cells is (`docs/device-protocol.md` §7).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CellStep {
    /// A bed mat: [`BED_CELL_MMHG`] (255 = 102 mmHg).
    Bed,
    /// A seat (seating mats, the Health Mat, a saddle's sub-device): [`SEAT_CELL_MMHG`]
    /// (255 = 255 mmHg).
    Seat,
    /// A plate people stand and walk on (podology, pressure and rehab platforms):
    /// [`PLATE_CELL_KPA`] (255 = 255 kPa).
    Plate,
    /// The Fitness Mat: the spec's fitness scale, [`FITNESS_KPA_PER_STEP`] (spec §1, §6).
    Fitness,
    /// A mat people lie on without a mattress (floor mats, the Wellness Mat):
    /// [`FLOOR_CELL_MMHG`] (255 = 255 mmHg).
    Floor,
    /// Not a pressure (force channels, room-set sensors, parents that send nothing; see
    /// [`pressure_units_per_cell`]): a reading on its own 0–4095 scale, taken as it is (one hub
    /// unit per step).
    Reading,
}

impl CellStep {
    /// Pascals in one step.
    pub fn pascals(self) -> f64 {
        match self {
            CellStep::Bed => BED_CELL_MMHG * PASCAL_PER_MMHG,
            CellStep::Seat => SEAT_CELL_MMHG * PASCAL_PER_MMHG,
            CellStep::Plate => PLATE_CELL_KPA * 1000.0,
            CellStep::Fitness => FITNESS_KPA_PER_STEP * 1000.0,
            CellStep::Floor => FLOOR_CELL_MMHG * PASCAL_PER_MMHG,
            CellStep::Reading => PASCAL_PER_UNIT,
        }
    }

    /// The least pressure of an active cell, Pa: [`PLATE_ACTIVE_MIN_KPA`] on a plate,
    /// [`ACTIVE_MIN_MMHG`] on every surface people lie or sit on.
    pub fn active_min_pascals(self) -> f64 {
        match self {
            CellStep::Plate => PLATE_ACTIVE_MIN_KPA * 1000.0,
            _ => ACTIVE_MIN_MMHG * PASCAL_PER_MMHG,
        }
    }
}

/// The documented step of `device`'s cells (meaningful where its cells are pressures, see
/// [`pressure_units_per_cell`]).
pub fn cell_step(device: DeviceType) -> CellStep {
    match device {
        DeviceType::MattressMat | DeviceType::MattressMatIoT | DeviceType::SleepMat => CellStep::Bed,
        DeviceType::SeatingMat
        | DeviceType::SeatingMatIoT
        | DeviceType::SeatingMatIoTXL
        | DeviceType::HealthMat
        | DeviceType::SensingHorseSubdevice => CellStep::Seat,
        DeviceType::Podology | DeviceType::PodologyIoT | DeviceType::PressureMatIoT | DeviceType::RehabMat => CellStep::Plate,
        DeviceType::FitnessMat => CellStep::Fitness,
        DeviceType::FloorMat | DeviceType::FloorMatRecognition | DeviceType::WellnessMat => CellStep::Floor,
        DeviceType::ForceMat | DeviceType::Shapes | DeviceType::NorthSky | DeviceType::SensingHorse | DeviceType::RoomSet => {
            CellStep::Reading
        }
    }
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
    fn a_pressure_cell_reads_up_to_its_format_s_largest_value_and_force_channels_have_none() {
        assert_eq!(full_scale_steps(DeviceType::MattressMatIoT), Some(255));
        assert_eq!(full_scale_steps(DeviceType::SeatingMatIoT), Some(255));
        assert_eq!(full_scale_steps(DeviceType::SensingHorse), Some(255), "its sub-devices' cells");
        assert_eq!(full_scale_steps(DeviceType::ForceMat), None, "channel counts, not pressures");
        assert_eq!(full_scale_steps(DeviceType::RoomSet), None, "a parent sends nothing");
        for device in DeviceType::ALL {
            let pressures = pressure_units_per_cell(device).is_some() || device == DeviceType::SensingHorse;
            assert_eq!(full_scale_steps(device).is_some(), pressures, "{device:?}");
        }
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
        assert_eq!(pressure_units_per_cell(DeviceType::FitnessMat), Some(units_per_cell(DeviceType::FitnessMat)));
        assert_eq!(pressure_units_per_cell(DeviceType::MattressMatIoT), Some(units_per_cell(DeviceType::MattressMatIoT)));
    }

    #[test]
    fn floor_and_wellness_mats_read_a_lying_body_in_millimetres_of_mercury() {
        for t in [DeviceType::FloorMat, DeviceType::FloorMatRecognition, DeviceType::WellnessMat] {
            assert_eq!(cell_step(t), CellStep::Floor, "{t:?}");
            assert!((units_to_mmhg(units_per_cell(t)) - FLOOR_CELL_MMHG).abs() < 1e-12, "{t:?}");
            // A byte reaches past a lying body's sacral and heel peaks on a firm surface (up to
            // 150 mmHg), where the old count stopped at 7.5 mmHg.
            assert!(units_to_mmhg(255.0 * units_per_cell(t)) >= 150.0, "{t:?}");
            // The capillary-closure pressure (32 mmHg) is many steps, not a fraction of one.
            assert!(32.0 / units_to_mmhg(units_per_cell(t)) >= 30.0, "{t:?}");
        }
    }

    #[test]
    fn every_pressure_map_has_a_documented_physical_step() {
        for t in DeviceType::ALL {
            if pressure_units_per_cell(t).is_some() {
                assert_ne!(cell_step(t), CellStep::Reading, "{t:?} sends pressures in no documented step");
                // Each step is at least a bed mat's 0.4 mmHg: none reads in the old count.
                assert!(units_to_mmhg(units_per_cell(t)) >= BED_CELL_MMHG - 1e-12, "{t:?}");
            } else {
                assert_eq!(cell_step(t), CellStep::Reading, "{t:?}");
            }
        }
    }

    #[test]
    fn an_active_cell_reads_at_least_the_spec_floor_and_two_steps() {
        // The spec's 5 units in mmHg.
        assert!((ACTIVE_MIN_MMHG - 0.147_07).abs() < 1e-5, "{ACTIVE_MIN_MMHG}");
        // A step of one hub unit (the old count) needs 5 steps; a coarser step two.
        assert_eq!(active_floor_steps_for(1.0), 5);
        assert_eq!(active_floor_steps_for(2.0), 3);
        assert_eq!(active_floor_steps_for(13.6), 2);
        for t in DeviceType::ALL {
            let Some(floor) = active_floor_steps(t) else { continue };
            let least = cell_step(t).active_min_pascals();
            let pascals = |steps: u16| f64::from(steps) * units_per_cell(t) * PASCAL_PER_UNIT;
            assert!(pascals(floor) >= least - 1e-9 && floor >= ACTIVE_MIN_STEPS, "{t:?}: {floor} steps");
            // The floor is the least such count of steps.
            assert!(pascals(floor - 1) < least - 1e-9 || floor - 1 < ACTIVE_MIN_STEPS, "{t:?}");
        }
        assert_eq!(active_floor_steps(DeviceType::MattressMatIoT), Some(2));
        assert_eq!(active_floor_steps(DeviceType::SeatingMatIoT), Some(2));
        assert_eq!(active_floor_steps(DeviceType::FitnessMat), Some(2));
        // A plate: 5 kPa, five of its 1 kPa steps.
        assert_eq!(active_floor_steps(DeviceType::PodologyIoT), Some(5));
        assert_eq!(active_floor_steps(DeviceType::RehabMat), Some(5));
        assert_eq!(active_floor_steps(DeviceType::FloorMat), Some(2));
        assert_eq!(active_floor_steps(DeviceType::ForceMat), None);
    }

    /// Newtons one byte-saturated cell of `device` carries (255 steps over its cell).
    fn newtons_per_full_cell(device: DeviceType) -> f64 {
        let pitch_m = f64::from(device.cell_pitch_cm().unwrap()) / 100.0;
        255.0 * units_per_cell(device) * PASCAL_PER_UNIT * pitch_m * pitch_m
    }

    #[test]
    fn a_seat_reads_a_sitters_pressures_in_clinical_millimetres() {
        for t in [
            DeviceType::SeatingMatIoT,
            DeviceType::SeatingMatIoTXL,
            DeviceType::SeatingMat,
            DeviceType::HealthMat,
            DeviceType::SensingHorseSubdevice,
        ] {
            assert_eq!(cell_step(t), CellStep::Seat, "{t:?}");
            assert!((units_to_mmhg(units_per_cell(t)) - 1.0).abs() < 1e-12, "{t:?}");
            // A byte reaches past the 200 mmHg of a sitter's highest ischial peaks…
            assert!(units_to_mmhg(255.0 * units_per_cell(t)) >= 200.0, "{t:?}");
            // …and the seat can carry a heavy sitter: 70 % of 120 kg on half of the seat
            // at its ceiling (the old count carried 10 kg on the whole seat).
            let (rows, cols, _) = t.frame_shape().unwrap();
            let half_seat = f64::from(rows) * f64::from(cols) / 2.0;
            assert!(half_seat * newtons_per_full_cell(t) >= 0.7 * 120.0 * 9.806_65, "{t:?}");
        }
        // The old count was a byte over 0–1 kPa: a seated adult's ischial peak read 7 mmHg.
        assert!(units_to_mmhg(255.0) < 8.0);
    }

    #[test]
    fn a_plate_reads_plantar_pressures_in_kilopascals() {
        for t in [DeviceType::PodologyIoT, DeviceType::Podology, DeviceType::PressureMatIoT, DeviceType::RehabMat] {
            assert_eq!(cell_step(t), CellStep::Plate, "{t:?}");
            assert!((units_to_kpa(units_per_cell(t)) - 1.0).abs() < 1e-12, "{t:?}");
            // Standing peaks at a 2 cm cell (60–200 kPa at the heel) fit in a byte; a step is
            // finer than the 15–40 kPa of a standing midfoot.
            assert!((units_to_kpa(255.0 * units_per_cell(t)) - 255.0).abs() < 1e-9, "{t:?}");
            // A 150 kg person standing on 160 cm² (two small forefeet) stays under the ceiling.
            assert!(40.0 * newtons_per_full_cell(t) >= 150.0 * 9.806_65, "{t:?}");
            // The old count read a standing forefoot at 6 mmHg.
            assert!(units_to_kpa(255.0 * units_per_cell(t)) > 200.0 * units_to_kpa(255.0), "{t:?}");
        }
    }

    #[test]
    fn the_fitness_mat_sends_the_spec_fitness_scale() {
        assert_eq!(cell_step(DeviceType::FitnessMat), CellStep::Fitness);
        assert!((units_to_kpa(units_per_cell(DeviceType::FitnessMat)) - FITNESS_KPA_PER_STEP).abs() < 1e-12);
    }
}

//! The pressure unit a report prints: mmHg (the hub's scale, `mat_protocol::scale`), or kPa for
//! the fitness variant (spec §1: sensor units × 0.06) or when the layout options ask for it.

use mat_core::analysis::units::{WeightCalibration, cell_kpa, cell_mmhg, fitness_kpa};
use mat_protocol::device_type::DeviceType;
use serde::{Deserialize, Serialize};

/// A pressure unit of the printed figures, the map's colour bar and the histogram's bins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum PressureUnit {
    #[serde(rename = "mmHg")]
    MmHg,
    #[serde(rename = "kPa")]
    KPa,
}

/// How a map's cells become pressures: the device's scale in the chosen unit, or the weighed
/// patient's calibration the capture was analysed with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PressureScale {
    pub device: DeviceType,
    pub unit: PressureUnit,
    /// The company's fitness variant: kPa as sensor units × 0.06.
    pub fitness: bool,
    /// The capture's weight calibration (spec §9), read instead of the device's scale.
    pub calibration: Option<WeightCalibration>,
}

impl PressureScale {
    /// The unit asked for, else kPa for the fitness variant and mmHg for everyone else.
    pub fn new(device: DeviceType, asked: Option<PressureUnit>, fitness: bool) -> PressureScale {
        let unit = asked.unwrap_or(if fitness { PressureUnit::KPa } else { PressureUnit::MmHg });
        PressureScale { device, unit, fitness, calibration: None }
    }

    /// The same scale reading a capture's cells through the patient's weight `calibration` (the
    /// fitness variant keeps its own scale: spec §1).
    pub fn calibrated(self, calibration: Option<WeightCalibration>) -> PressureScale {
        PressureScale { calibration: if self.fitness { None } else { calibration }, ..self }
    }

    /// A cell value (sensor units of `device`, fractional for means) as a pressure.
    pub fn pressure(&self, cell: f64) -> f64 {
        if let (Some(c), false) = (self.calibration, self.fitness) {
            return match self.unit {
                PressureUnit::KPa => cell * c.kpa_per_step,
                PressureUnit::MmHg => cell * c.mmhg_per_step(),
            };
        }
        match (self.unit, self.fitness) {
            (PressureUnit::KPa, true) => fitness_kpa(cell),
            (PressureUnit::KPa, false) => cell * cell_kpa(self.device, 1),
            (PressureUnit::MmHg, true) => fitness_kpa(cell) * mat_core::analysis::units::MMHG_PER_KPA,
            (PressureUnit::MmHg, false) => cell * cell_mmhg(self.device, 1),
        }
    }

    /// `mmHg` or `kPa`.
    pub fn symbol(&self) -> &'static str {
        match self.unit {
            PressureUnit::MmHg => "mmHg",
            PressureUnit::KPa => "kPa",
        }
    }

    /// Decimals worth printing: pressures in mmHg to 1 decimal, in kPa to 2.
    pub fn decimals(&self) -> usize {
        match self.unit {
            PressureUnit::MmHg => 1,
            PressureUnit::KPa => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_in_the_devices_scale() {
        // A bed mat's step is 0.4 mmHg, a seat's 1 mmHg, a podology plate's 1 kPa = 7.5 mmHg.
        let bed = PressureScale::new(DeviceType::MattressMatIoT, None, false);
        assert_eq!(bed.symbol(), "mmHg");
        assert!((bed.pressure(100.0) - 40.0).abs() < 1e-9);
        let seat = PressureScale::new(DeviceType::SeatingMatIoT, None, false);
        assert!((seat.pressure(235.0) - 235.0).abs() < 1e-9);
        let plate = PressureScale::new(DeviceType::PodologyIoT, None, false);
        assert!((plate.pressure(100.0) - 750.062).abs() < 1e-3);
        let plate_kpa = PressureScale::new(DeviceType::PodologyIoT, Some(PressureUnit::KPa), false);
        assert!((plate_kpa.pressure(255.0) - 255.0).abs() < 1e-9);
        // The fitness variant: sensor units × 0.06 kPa.
        let fitness = PressureScale::new(DeviceType::FitnessMat, None, true);
        assert_eq!(fitness.symbol(), "kPa");
        assert!((fitness.pressure(100.0) - 6.0).abs() < 1e-9);
    }

    #[test]
    fn a_weighed_capture_reads_through_its_calibration_except_in_the_fitness_scale() {
        let c = WeightCalibration { weight_kg: 70.0, load_share: 0.7, cell_area_cm2: 4.0, kpa_per_step: 0.1 };
        let plate = PressureScale::new(DeviceType::PodologyIoT, None, false).calibrated(Some(c));
        assert!((plate.pressure(150.0) - 15.0 * 7.50062).abs() < 1e-9);
        let plate_kpa = PressureScale::new(DeviceType::PodologyIoT, Some(PressureUnit::KPa), false).calibrated(Some(c));
        assert!((plate_kpa.pressure(150.0) - 15.0).abs() < 1e-9);
        let fitness = PressureScale::new(DeviceType::FitnessMat, None, true).calibrated(Some(c));
        assert_eq!(fitness.calibration, None);
        assert!((fitness.pressure(100.0) - 6.0).abs() < 1e-9);
    }
}

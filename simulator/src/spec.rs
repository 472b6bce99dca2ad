//! What a simulated device is: its identity, map shape, scenario and rate, and the per-type
//! presets for every device type of spec §3.

use std::time::Duration;

use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;

use crate::SimError;
use crate::policy::Rate;
use crate::synth::{BedScript, FeetScript, PresenceScript, SaddleScript, SaddleSide, Scenario, SeatScript};

/// Everything needed to run one simulated device.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceSpec {
    /// Hardware serial, as registered in the hub.
    pub serial: String,
    /// The per-device secret issued at registration.
    pub secret: String,
    /// Device type name as in spec §3.
    pub device_type: String,
    /// Rows of every frame.
    pub rows: u16,
    /// Columns of every frame.
    pub cols: u16,
    /// Cell encoding.
    pub cell_format: CellFormat,
    /// What happens on the mat.
    pub scenario: Scenario,
    /// How fast frames are sent.
    pub rate: Rate,
    /// Seed of the sensor noise and reconnect jitter.
    pub seed: u64,
    /// Where in the scenario cycle the device starts, so a fleet of mats does not move in
    /// lockstep.
    pub time_offset: Duration,
    /// Free-form firmware string sent in the hello.
    pub firmware: String,
    /// Mean idle level added to every cell of its pressure maps, in the device's steps
    /// ([`crate::MapSynth::with_idle_level`]); 0: none, as the development sensor.
    pub idle_level_steps: f32,
}

impl DeviceSpec {
    /// A device of a known type with that type's preset shape, scenario and rate, a noise seed
    /// derived from the serial, and a start point spread over the scenario cycle by the serial.
    pub fn new(serial: impl Into<String>, secret: impl Into<String>, device_type: &str) -> Result<Self, SimError> {
        let preset = preset(device_type).ok_or_else(|| SimError::UnknownDeviceType(device_type.to_owned()))?;
        Ok(Self::from_preset(serial, secret, &preset))
    }

    /// A device built from a preset (possibly adjusted by the caller).
    pub fn from_preset(serial: impl Into<String>, secret: impl Into<String>, preset: &DeviceSpecPreset) -> Self {
        let serial = serial.into();
        let seed = seed_from(&serial);
        let cycle_ms = preset.scenario.cycle().as_millis() as u64;
        let mut scenario = preset.scenario.clone();
        // A horse's two sides share one rider: one timeline (no offset), each its own side.
        let time_offset = if let Scenario::Saddle(script, _) = &preset.scenario {
            scenario = Scenario::Saddle(script.clone(), SaddleSide::of_serial(&serial));
            Duration::ZERO
        } else if cycle_ms == 0 {
            Duration::ZERO
        } else {
            Duration::from_millis(seed % cycle_ms)
        };
        Self {
            serial,
            secret: secret.into(),
            device_type: preset.device_type.to_owned(),
            rows: preset.rows,
            cols: preset.cols,
            cell_format: preset.cell_format,
            scenario,
            rate: preset.rate,
            seed,
            time_offset,
            firmware: format!("simulator/{}", env!("CARGO_PKG_VERSION")),
            idle_level_steps: 0.0,
        }
    }
}

/// A stable 64-bit seed from a serial (FNV-1a), identical across runs and platforms.
pub fn seed_from(serial: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in serial.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The default shape, encoding, scenario and rate of a device type.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceSpecPreset {
    /// The canonical type name of spec §3.
    pub device_type: &'static str,
    /// Rows of a frame.
    pub rows: u16,
    /// Columns of a frame.
    pub cols: u16,
    /// Cell encoding.
    pub cell_format: CellFormat,
    /// Default scenario.
    pub scenario: Scenario,
    /// Default rate: follow mode, monitoring at the spec's polling rate (1 Hz for maps, 2 Hz for
    /// force channels) and streaming at 10 Hz.
    pub rate: Rate,
}

/// Every device type of spec §3, in the spec's order.
pub const DEVICE_TYPES: [&str; 20] = [
    "Mattress Mat",
    "Mattress Mat IoT",
    "Seating Mat",
    "Seating Mat IoT",
    "Seating Mat IoT XL",
    "Pressure Mat IoT",
    "Floor Mat",
    "Floor Mat Recognition",
    "Wellness Mat",
    "Health Mat",
    "Fitness Mat",
    "Force Mat",
    "Sleep Mat",
    "Podology",
    "Podology IoT",
    "Shapes",
    "Sensing Horse",
    "Sensing Horse Subdevice",
    "North Sky",
    "Rehab Mat",
];

/// The preset of a device type (case-insensitive), or `None` for a type spec §3 does not list or
/// one that streams nothing itself (Sensing Horse: its two sub-devices stream).
///
/// Shapes are the hub's own table, `DeviceType::frame_shape` (the hub refuses a hello whose
/// shape differs, with `shape_mismatch`); this function only picks the scenario and rate. Spec §3
/// does not say what Health, Wellness, Shapes and North Sky measure: the first two get a sitter
/// and a lying person, the last two force channels like the Force Mat.
pub fn preset(device_type: &str) -> Option<DeviceSpecPreset> {
    let canonical = DEVICE_TYPES.iter().find(|t| t.eq_ignore_ascii_case(device_type.trim()))?;
    let map = Rate::Follow { monitor_hz: 1.0, live_hz: 10.0 };
    let force = Rate::Follow { monitor_hz: 2.0, live_hz: 10.0 };
    let bed = || Scenario::BedOccupant(BedScript::default());
    let seated = || Scenario::SeatedPerson(SeatScript::default());
    let feet = || Scenario::StandingFeet(FeetScript::default());
    let channels = || Scenario::ForceChannels(PresenceScript::default());
    // The shape is the hub's own table, so a simulated device always fits its registration.
    let (rows, cols, cell_format) = DeviceType::from_name(canonical)?.frame_shape()?;
    let (scenario, rate) = match *canonical {
        "Mattress Mat" | "Mattress Mat IoT" | "Floor Mat" | "Floor Mat Recognition" | "Wellness Mat" | "Sleep Mat" => (bed(), map),
        "Seating Mat" | "Seating Mat IoT" | "Seating Mat IoT XL" | "Health Mat" => (seated(), map),
        "Sensing Horse Subdevice" => (Scenario::Saddle(SaddleScript::default(), SaddleSide::Left), map),
        "Pressure Mat IoT" | "Fitness Mat" | "Podology" | "Podology IoT" | "Rehab Mat" => (feet(), map),
        // "Force Mat", "Shapes", "North Sky": force channels.
        _ => (channels(), force),
    };
    Some(DeviceSpecPreset { device_type: canonical, rows, cols, cell_format, scenario, rate })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_type_has_a_preset_with_a_sane_shape() {
        for name in DEVICE_TYPES.iter().filter(|n| **n != "Sensing Horse") {
            let p = preset(name).expect(name);
            assert_eq!(p.device_type, *name);
            assert!(p.rows >= 1 && p.cols >= 1 && usize::from(p.rows) * usize::from(p.cols) <= 48 * 48);
        }
        assert_eq!(preset("mattress mat iot").map(|p| p.device_type), Some("Mattress Mat IoT"));
        assert!(preset("Toaster").is_none());
        assert!(preset("Sensing Horse").is_none(), "the horse's two sub-devices stream, not the horse");
    }

    #[test]
    fn sizes_follow_the_spec() {
        let shape = |name: &str| preset(name).map(|p| (p.rows, p.cols, p.cell_format));
        assert_eq!(shape("Mattress Mat IoT"), Some((48, 48, CellFormat::U8)));
        assert_eq!(shape("Seating Mat IoT"), Some((16, 16, CellFormat::U8)));
        assert_eq!(shape("Seating Mat IoT XL"), Some((24, 24, CellFormat::U8)));
        assert_eq!(shape("Podology IoT"), Some((48, 48, CellFormat::U8)));
        assert_eq!(shape("Force Mat"), Some((1, 4, CellFormat::U16Le)));
        assert_eq!(shape("Sleep Mat"), Some((24, 48, CellFormat::U8)));
        assert_eq!(shape("Floor Mat"), Some((24, 24, CellFormat::U8)));
        assert_eq!(shape("Mattress Mat"), Some((16, 16, CellFormat::U8)));
        assert_eq!(shape("Shapes"), Some((1, 4, CellFormat::U16Le)));
    }

    #[test]
    fn specs_from_serials_are_deterministic_and_spread() {
        let a = DeviceSpec::new("SN-1", "s", "Mattress Mat IoT").expect("spec");
        let b = DeviceSpec::new("SN-1", "s", "Mattress Mat IoT").expect("spec");
        let c = DeviceSpec::new("SN-2", "s", "Mattress Mat IoT").expect("spec");
        assert_eq!(a, b);
        assert_ne!(a.seed, c.seed);
        assert!(a.time_offset < a.scenario.cycle());
        assert!(matches!(DeviceSpec::new("x", "y", "Toaster"), Err(SimError::UnknownDeviceType(_))));
    }

    #[test]
    fn a_horses_two_sides_share_one_timeline_each_under_its_own_side() {
        let left = DeviceSpec::new("DEMO-HORSE-01-0", "s", "Sensing Horse Subdevice").expect("spec");
        let right = DeviceSpec::new("DEMO-HORSE-01-1", "s", "Sensing Horse Subdevice").expect("spec");
        assert_eq!((left.time_offset, right.time_offset), (Duration::ZERO, Duration::ZERO));
        assert!(matches!(left.scenario, Scenario::Saddle(_, SaddleSide::Left)));
        assert!(matches!(right.scenario, Scenario::Saddle(_, SaddleSide::Right)));
    }
}

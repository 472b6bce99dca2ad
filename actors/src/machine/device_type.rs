//! The device types of spec §3 and what follows from a type: map size, cell format, route.

use serde::{Deserialize, Serialize};

use crate::protocol::CellFormat;

/// Every device type of spec §3, plus `Room Set`, the parent record of a bed + seat + floor set
/// (the spec names room sets but gives their parent no type; see docs/decisions.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeviceType {
    #[serde(rename = "Mattress Mat")]
    MattressMat,
    #[serde(rename = "Mattress Mat IoT")]
    MattressMatIoT,
    #[serde(rename = "Seating Mat")]
    SeatingMat,
    #[serde(rename = "Seating Mat IoT")]
    SeatingMatIoT,
    #[serde(rename = "Seating Mat IoT XL")]
    SeatingMatIoTXL,
    #[serde(rename = "Pressure Mat IoT")]
    PressureMatIoT,
    #[serde(rename = "Floor Mat")]
    FloorMat,
    #[serde(rename = "Floor Mat Recognition")]
    FloorMatRecognition,
    #[serde(rename = "Wellness Mat")]
    WellnessMat,
    #[serde(rename = "Health Mat")]
    HealthMat,
    #[serde(rename = "Fitness Mat")]
    FitnessMat,
    #[serde(rename = "Force Mat")]
    ForceMat,
    #[serde(rename = "Sleep Mat")]
    SleepMat,
    #[serde(rename = "Podology")]
    Podology,
    #[serde(rename = "Podology IoT")]
    PodologyIoT,
    #[serde(rename = "Shapes")]
    Shapes,
    #[serde(rename = "Sensing Horse")]
    SensingHorse,
    #[serde(rename = "Sensing Horse Subdevice")]
    SensingHorseSubdevice,
    #[serde(rename = "North Sky")]
    NorthSky,
    #[serde(rename = "Rehab Mat")]
    RehabMat,
    #[serde(rename = "Room Set")]
    RoomSet,
}

impl DeviceType {
    /// All types, in the order of spec §3 (then `Room Set`).
    pub const ALL: [DeviceType; 21] = [
        DeviceType::MattressMat,
        DeviceType::MattressMatIoT,
        DeviceType::SeatingMat,
        DeviceType::SeatingMatIoT,
        DeviceType::SeatingMatIoTXL,
        DeviceType::PressureMatIoT,
        DeviceType::FloorMat,
        DeviceType::FloorMatRecognition,
        DeviceType::WellnessMat,
        DeviceType::HealthMat,
        DeviceType::FitnessMat,
        DeviceType::ForceMat,
        DeviceType::SleepMat,
        DeviceType::Podology,
        DeviceType::PodologyIoT,
        DeviceType::Shapes,
        DeviceType::SensingHorse,
        DeviceType::SensingHorseSubdevice,
        DeviceType::NorthSky,
        DeviceType::RehabMat,
        DeviceType::RoomSet,
    ];

    /// The name used on the wire and in storage, exactly as spec §3 spells it.
    pub fn name(self) -> &'static str {
        match self {
            DeviceType::MattressMat => "Mattress Mat",
            DeviceType::MattressMatIoT => "Mattress Mat IoT",
            DeviceType::SeatingMat => "Seating Mat",
            DeviceType::SeatingMatIoT => "Seating Mat IoT",
            DeviceType::SeatingMatIoTXL => "Seating Mat IoT XL",
            DeviceType::PressureMatIoT => "Pressure Mat IoT",
            DeviceType::FloorMat => "Floor Mat",
            DeviceType::FloorMatRecognition => "Floor Mat Recognition",
            DeviceType::WellnessMat => "Wellness Mat",
            DeviceType::HealthMat => "Health Mat",
            DeviceType::FitnessMat => "Fitness Mat",
            DeviceType::ForceMat => "Force Mat",
            DeviceType::SleepMat => "Sleep Mat",
            DeviceType::Podology => "Podology",
            DeviceType::PodologyIoT => "Podology IoT",
            DeviceType::Shapes => "Shapes",
            DeviceType::SensingHorse => "Sensing Horse",
            DeviceType::SensingHorseSubdevice => "Sensing Horse Subdevice",
            DeviceType::NorthSky => "North Sky",
            DeviceType::RehabMat => "Rehab Mat",
            DeviceType::RoomSet => "Room Set",
        }
    }

    /// Parses the spec's spelling of a type name.
    pub fn from_name(name: &str) -> Option<DeviceType> {
        DeviceType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Rows, columns and cell format of the frames a device of this type streams (spec §2 map
    /// sizes). `None` for parents that stream nothing themselves (horse, room set).
    pub fn frame_shape(self) -> Option<(u16, u16, CellFormat)> {
        use CellFormat::{U16Le, U8};
        match self {
            DeviceType::MattressMatIoT
            | DeviceType::PodologyIoT
            | DeviceType::Podology
            | DeviceType::RehabMat
            | DeviceType::PressureMatIoT
            | DeviceType::FloorMatRecognition
            | DeviceType::FloorMat => Some((48, 48, U8)),
            DeviceType::SeatingMatIoT | DeviceType::SeatingMat | DeviceType::MattressMat => Some((16, 16, U8)),
            DeviceType::SeatingMatIoTXL | DeviceType::SensingHorseSubdevice => Some((24, 24, U8)),
            DeviceType::WellnessMat
            | DeviceType::HealthMat
            | DeviceType::FitnessMat
            | DeviceType::SleepMat
            | DeviceType::Shapes
            | DeviceType::NorthSky => Some((24, 24, U8)),
            DeviceType::ForceMat => Some((1, 4, U16Le)),
            DeviceType::SensingHorse | DeviceType::RoomSet => None,
        }
    }

    /// Whether presence on this type is the room-set rule (latest reading above 200) rather than
    /// the map check of spec §5.
    pub fn uses_reading_presence(self) -> bool {
        matches!(self, DeviceType::ForceMat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_cover_the_twenty_spec_types() {
        for t in DeviceType::ALL {
            assert_eq!(DeviceType::from_name(t.name()), Some(t));
        }
        assert_eq!(DeviceType::ALL.len(), 20 + 1, "20 types of spec §3 plus Room Set");
        assert_eq!(DeviceType::from_name("Toaster"), None);
    }

    #[test]
    fn map_sizes_follow_spec_section_2() {
        assert_eq!(DeviceType::MattressMatIoT.frame_shape(), Some((48, 48, CellFormat::U8)));
        assert_eq!(DeviceType::PodologyIoT.frame_shape(), Some((48, 48, CellFormat::U8)));
        assert_eq!(DeviceType::SeatingMatIoT.frame_shape(), Some((16, 16, CellFormat::U8)));
        assert_eq!(DeviceType::SeatingMatIoTXL.frame_shape(), Some((24, 24, CellFormat::U8)));
        assert_eq!(DeviceType::SensingHorseSubdevice.frame_shape(), Some((24, 24, CellFormat::U8)));
        assert_eq!(DeviceType::ForceMat.frame_shape(), Some((1, 4, CellFormat::U16Le)));
        assert_eq!(DeviceType::SensingHorse.frame_shape(), None);
    }
}

//! The device types of spec §3 and what follows from a type: map size, cell format, route.

use serde::{Deserialize, Serialize};

use crate::CellFormat;

/// A map at least this long (cm) covers a bed and the body lying on it
/// ([`DeviceType::covers_a_whole_bed`]).
pub const WHOLE_BED_CM: f32 = 150.0;

/// Every device type of spec §3, plus `Room Set`, the parent record of a bed + seat + floor set
/// (the spec names room sets but gives their parent no type; see docs/decisions.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
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

    /// Rows, columns and cell format of the frames a device of this type streams, per spec §2:
    /// Mattress IoT, podology, rehab, pressure and floor-recognition maps 48×48; seating 16×16;
    /// Seating XL and the horse 24×24; the legacy mattress 16×16; the sleep mat the 24×48
    /// mattress view; other maps 24×24. Force Mat is four u16 channels (0–4095); Shapes and North
    /// Sky, whose sensors the spec does not describe, are treated as force channels too (their
    /// card follows an alarm poll, like a presence sensor). `None` for parents that stream
    /// nothing themselves (horse, room set). The simulator's presets read this table.
    pub fn frame_shape(self) -> Option<(u16, u16, CellFormat)> {
        use CellFormat::{U8, U16Le};
        match self {
            DeviceType::MattressMatIoT
            | DeviceType::PodologyIoT
            | DeviceType::Podology
            | DeviceType::RehabMat
            | DeviceType::PressureMatIoT
            | DeviceType::FloorMatRecognition => Some((48, 48, U8)),
            DeviceType::SeatingMatIoT | DeviceType::SeatingMat | DeviceType::MattressMat => Some((16, 16, U8)),
            DeviceType::SleepMat => Some((24, 48, U8)),
            DeviceType::SeatingMatIoTXL
            | DeviceType::SensingHorseSubdevice
            | DeviceType::FloorMat
            | DeviceType::WellnessMat
            | DeviceType::HealthMat
            | DeviceType::FitnessMat => Some((24, 24, U8)),
            DeviceType::ForceMat | DeviceType::Shapes | DeviceType::NorthSky => Some((1, 4, U16Le)),
            DeviceType::SensingHorse | DeviceType::RoomSet => None,
        }
    }

    /// Whether presence on this type is the room-set rule (latest reading above 200) rather than
    /// the map check of spec §5.
    pub fn uses_reading_presence(self) -> bool {
        matches!(self.frame_shape(), Some((_, _, CellFormat::U16Le)))
    }
}

/// The device page a type opens (spec §2): each family is one page layout in the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PageFamily {
    /// A live pressure map with presence, streaming and the device log table.
    Mat,
    /// Seating IoT / XL: live map, contact surface in cm², plot panel.
    Seating,
    /// The seated-position page: the map and the current position label.
    SeatedPosition,
    /// Rehab: the map and a live centre-of-pressure plot.
    Rehab,
    /// Sensing Horse: left and right maps from its two sub-devices.
    Horse,
    /// Force Mat, Shapes, North Sky: four channel tiles, their sum, a line chart and the log.
    Force,
    /// Room set: bed, seat and floor sensors, alarm history and recordings.
    RoomSet,
    /// No page of its own (horse sub-devices are shown on their parent's page).
    None,
}

/// The analysis captures a page offers (spec §2, §6); the capture machine's kinds plus the
/// 24-hour static series and remote activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum CaptureOffer {
    Static,
    Dynamic,
    Balance,
    Fitting,
    Series24h,
    Remote,
}

/// What a device's analyses are about, and so how its captures are computed and shown
/// (issue 21): the table's one answer to "which analysis does a capture on this type make".
/// - `podology`: feet on a plate: static feet, dynamic gait, balance.
/// - `seating`: a seated person: static seating (ischial region, left/right and front/back
///   loads, peak pressure index, dispersion index, contact area); dynamic = `seatingDynamic`;
///   fitting = body centre.
/// - `bed`: a lying person: static body regions (head, shoulders, sacrum, heels…), the profile
///   along the bed, contact area and BMI; dynamic = the pressure-over-time panels
///   (`seatingDynamic`'s series, which say nothing about feet or sitting).
/// - `rehab`: a rehab plate: static feet, dynamic = `Rehab` body centre (Good/Bad/Uncomplete,
///   rings 11/18/25), balance.
/// - `horse`: a saddle's two sides: static as seating (left/right loads, contact surface),
///   dynamic = the plot panels, fitting = body centre.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum AnalysisFamily {
    Podology,
    Seating,
    Bed,
    Rehab,
    Horse,
}

/// Which postures a mat reports (and its log shows): `lying` or `sleepMat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PostureScheme {
    /// Supine, Prone, Left Lateral, Right Lateral, Seated (mattress and floor mats).
    #[default]
    Lying,
    /// Supine or No Supine (Sleep Mat).
    SleepMat,
}

/// What a device's location field (`bed`, spec §3) names, by device family (issue 22): the
/// client labels the field with it on cards, dialogs and settings ("Bed", "Seat", "Floor"…).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum LocationKind {
    Bed,
    Seat,
    Floor,
    Saddle,
    Plate,
    Mat,
    Room,
}

/// What the client needs to know about a device type, served by `GET /api/deviceTypes` so the
/// client keeps no copy of its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeviceTypeInfo {
    /// The name as spec §3 spells it.
    pub name: &'static str,
    /// The route of its page (spec §2); `None` when it has no page (horse sub-devices).
    pub route: Option<&'static str>,
    /// The page layout.
    pub page_family: PageFamily,
    /// The analysis page reached from this type's analysis button (`/Podology` for Podology IoT).
    pub analysis_route: Option<&'static str>,
    /// The settings page of this type (spec §2: `/roomSettings` for room sets).
    pub settings_route: &'static str,
    /// Rows, columns and bytes per cell of the frames it streams; `None` for parents.
    pub frame: Option<FrameShape>,
    /// Whether its page has the patient panel (selection, captures, history).
    pub has_patients: bool,
    /// Whether the device has its own patient at the bedside, assigned and released by staff
    /// (beds, seats, room sets); its captures, alarms and logs are that patient's.
    pub bedside_patient: bool,
    /// What its location field (`bed`) names.
    pub location: LocationKind,
    /// Captures its page offers.
    pub captures: Vec<CaptureOffer>,
    /// The PDF report icon (spec §6: eight types).
    pub pdf_reports: bool,
    /// Whether its PDF dialog offers the real-scale A3/A4 print: the body parts something is made
    /// to the shape of (feet for orthotics and footwear, a seat's cushion, a saddle's pad), never
    /// a bed (a whole body at 1:1 is two dozen A3 pages nothing is made from).
    pub real_scale_print: bool,
    /// Whether a static result shows the 8-bin histogram and its download (spec §2: seating,
    /// horse and mattress devices).
    pub static_histogram: bool,
    /// Postures its log reports, if any.
    pub posture: Option<PostureScheme>,
    /// Whether the repositioning clock runs (tier on the card, interval on the page).
    pub repositioning_clock: bool,
    /// Whether it gets a card (horse sub-devices do not).
    pub card: bool,
    /// Whether the card shows the bed label (hidden for Shapes).
    pub card_shows_bed: bool,
    /// Presence is the room-set rule (latest reading above 200), not the map check.
    pub reading_presence: bool,
    /// Distance between sensor points in cm (spec §9), where the spec gives one: the contact
    /// surface is the active cells times its square.
    pub cell_size_cm: Option<f32>,
    /// What its analyses are about (which result a capture makes, which tutorial and labels
    /// its page shows); `None` for types without captures.
    pub analysis_family: Option<AnalysisFamily>,
    /// Hub pressure units in one step of its cells (`scale`), where its cells are pressures; the
    /// client converts with it and `GET /api/pressureScale`.
    pub pressure_units_per_cell: Option<f64>,
    /// The smallest active cell in steps of its cells (`scale::active_floor_steps`: at least its
    /// surface's least pressure and two steps), where its cells are pressures (for the Sensing
    /// Horse, its sub-devices'): the contact area, presence and every analysis count the cells
    /// at or above it, and so does the client.
    pub active_floor_steps: Option<u16>,
    /// Physical distance between cell centres in cm, where its cells are pressures (centres of
    /// pressure are stated in cm with it).
    pub cell_pitch_cm: Option<f32>,
    /// The largest value its cells can carry, in their steps, where they are pressures
    /// (`scale::full_scale_steps`; for the Sensing Horse, its sub-devices'): a reading there is
    /// the sensor's full scale, that pressure or more.
    pub full_scale_steps: Option<u16>,
}

/// A frame's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FrameShape {
    pub rows: u16,
    pub cols: u16,
    pub bytes_per_cell: u8,
}

impl DeviceType {
    /// The route of this type's page, exactly as spec §2 spells it.
    pub fn route(self) -> Option<&'static str> {
        Some(match self {
            DeviceType::MattressMat => "/mattressMat",
            DeviceType::MattressMatIoT => "/mattressMatIoT",
            DeviceType::SeatingMat => "/seatingMat",
            DeviceType::SeatingMatIoT => "/SeatingMatIoT",
            DeviceType::SeatingMatIoTXL => "/SeatingMatIoTXL",
            DeviceType::PressureMatIoT => "/PressureMatIoT",
            DeviceType::FloorMat => "/floorMat",
            DeviceType::FloorMatRecognition => "/FloorMatRecognition",
            DeviceType::WellnessMat => "/wellnessMat",
            DeviceType::HealthMat => "/healthMat",
            DeviceType::FitnessMat => "/fitnessMat",
            DeviceType::ForceMat => "/ForceMat",
            DeviceType::SleepMat => "/sleepMat",
            DeviceType::Podology => "/Podiatry",
            DeviceType::PodologyIoT => "/PodiatryIoT",
            DeviceType::Shapes => "/shapes",
            DeviceType::SensingHorse => "/SensingHorse",
            DeviceType::NorthSky => "/NorthSky",
            DeviceType::RehabMat => "/RehabMat",
            // A room set's page shows its three Force Mat sensors; the spec gives the parent no
            // route of its own, so it opens the Force Mat route with the set in navigation state.
            DeviceType::RoomSet => "/ForceMat",
            DeviceType::SensingHorseSubdevice => return None,
        })
    }

    /// The page layout of this type.
    pub fn page_family(self) -> PageFamily {
        match self {
            DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => PageFamily::Seating,
            DeviceType::SeatingMat => PageFamily::SeatedPosition,
            DeviceType::RehabMat => PageFamily::Rehab,
            DeviceType::SensingHorse => PageFamily::Horse,
            DeviceType::ForceMat | DeviceType::Shapes | DeviceType::NorthSky => PageFamily::Force,
            DeviceType::RoomSet => PageFamily::RoomSet,
            DeviceType::SensingHorseSubdevice => PageFamily::None,
            _ => PageFamily::Mat,
        }
    }

    /// Captures offered on this type's page (spec §2 pages with capture buttons; spec §6).
    pub fn captures(self) -> Vec<CaptureOffer> {
        use CaptureOffer::*;
        match self {
            DeviceType::MattressMatIoT => vec![Static, Dynamic, Series24h],
            DeviceType::Podology => vec![Static, Dynamic, Balance],
            DeviceType::PodologyIoT => vec![Static, Dynamic, Balance, Remote],
            DeviceType::PressureMatIoT => vec![Static, Dynamic, Balance, Series24h],
            DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => vec![Static, Dynamic, Fitting, Series24h],
            DeviceType::SensingHorse => vec![Static, Dynamic, Fitting],
            DeviceType::RehabMat => vec![Static, Dynamic, Balance],
            // Spec §6: fitness-provider hardware gets the 24 h static analysis button.
            DeviceType::FitnessMat => vec![Static, Series24h],
            _ => Vec::new(),
        }
    }

    /// What this type's analyses are about; `None` for types that offer no capture.
    pub fn analysis_family(self) -> Option<AnalysisFamily> {
        match self {
            // The Fitness Mat (24 × 24 cells at 1 cm) is a standing plate: its static analysis is of feet.
            DeviceType::Podology | DeviceType::PodologyIoT | DeviceType::PressureMatIoT | DeviceType::FitnessMat => {
                Some(AnalysisFamily::Podology)
            }
            DeviceType::SeatingMat | DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => Some(AnalysisFamily::Seating),
            DeviceType::MattressMat | DeviceType::MattressMatIoT | DeviceType::SleepMat => Some(AnalysisFamily::Bed),
            DeviceType::RehabMat => Some(AnalysisFamily::Rehab),
            DeviceType::SensingHorse | DeviceType::SensingHorseSubdevice => Some(AnalysisFamily::Horse),
            _ => None,
        }
    }

    /// The PDF report icon (spec §6).
    pub fn pdf_reports(self) -> bool {
        matches!(
            self,
            DeviceType::SeatingMatIoT
                | DeviceType::PressureMatIoT
                | DeviceType::SeatingMatIoTXL
                | DeviceType::Podology
                | DeviceType::PodologyIoT
                | DeviceType::SensingHorse
                | DeviceType::RehabMat
                | DeviceType::MattressMatIoT
        )
    }

    /// Whether its reports include the real-scale A3/A4 print: types with PDF reports whose
    /// analyses are not of a body lying in bed (docs/decisions.md, issue 21 "Real scale").
    pub fn real_scale_print(self) -> bool {
        self.pdf_reports() && self.analysis_family() != Some(AnalysisFamily::Bed)
    }

    /// Distance between sensor points in cm (spec §9): 1 floor and mattress, 2 seating, 2.5 horse.
    pub fn cell_size_cm(self) -> Option<f32> {
        match self {
            DeviceType::FloorMat
            | DeviceType::FloorMatRecognition
            | DeviceType::MattressMat
            | DeviceType::MattressMatIoT
            | DeviceType::SleepMat => Some(1.0),
            DeviceType::SeatingMat | DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => Some(2.0),
            DeviceType::SensingHorse | DeviceType::SensingHorseSubdevice => Some(2.5),
            _ => None,
        }
    }

    /// Physical distance between neighbouring cell centres in cm, for the types that send pressure
    /// maps: the 48-cell bed mats 4 cm (spec §9: a mattress cell is 16 cm², its 48 columns span
    /// 0–192 cm), the legacy 16 × 16 mattress mat 12 cm (the same 192 cm bed in 16 cells: a
    /// mattress mat that reads lying postures and presence lies under the whole body;
    /// docs/decisions.md, "The legacy mattress mat covers the bed"), podology plates 2 cm (spec
    /// §9), every other map its spec §9 distance between points (floor 1, seating 2, horse 2.5;
    /// 1 where the spec gives none). `mat_core::analysis::units::cell_pitch_cm` is this; the
    /// client states centres of pressure in cm with it.
    pub fn cell_pitch_cm(self) -> Option<f32> {
        match self {
            DeviceType::MattressMatIoT | DeviceType::SleepMat => Some(4.0),
            DeviceType::MattressMat => Some(12.0),
            DeviceType::Podology
            | DeviceType::PodologyIoT
            | DeviceType::RehabMat
            | DeviceType::PressureMatIoT
            | DeviceType::FloorMatRecognition => Some(2.0),
            _ if crate::scale::pressure_units_per_cell(self).is_none() => None,
            other => Some(other.cell_size_cm().unwrap_or(1.0)),
        }
    }

    /// The map's long side in cm (cells × [`Self::cell_pitch_cm`]), for the types that send maps.
    pub fn map_length_cm(self) -> Option<f32> {
        let (rows, cols, _) = self.frame_shape()?;
        Some(f32::from(rows.max(cols)) * self.cell_pitch_cm()?)
    }

    /// Whether the map is as long as a bed and a lying body ([`WHOLE_BED_CM`]): what the load rule
    /// of presence and the body's parts named by an Ulcer Risk alarm need (the 48 × 48 and 24 × 48
    /// bed mats and the legacy 16 × 16 mattress, 192 cm; not a seat, a plate or a floor tile).
    pub fn covers_a_whole_bed(self) -> bool {
        self.map_length_cm().is_some_and(|length| length >= WHOLE_BED_CM)
    }

    /// Spec §2: the static result's histogram (8 bins) and its download, for seating, horse and
    /// mattress devices.
    pub fn static_histogram(self) -> bool {
        matches!(
            self,
            DeviceType::SeatingMat
                | DeviceType::SeatingMatIoT
                | DeviceType::SeatingMatIoTXL
                | DeviceType::SensingHorse
                | DeviceType::MattressMat
                | DeviceType::MattressMatIoT
        )
    }

    /// The postures a mat of this type reads, if it reads any: bed mats.
    pub fn posture_scheme(self) -> Option<PostureScheme> {
        match self {
            DeviceType::MattressMat | DeviceType::MattressMatIoT => Some(PostureScheme::Lying),
            DeviceType::SleepMat => Some(PostureScheme::SleepMat),
            _ => None,
        }
    }

    /// Whether this type runs the repositioning clock: bed mats and IoT seating mats.
    pub fn watches_repositioning(self) -> bool {
        self.posture_scheme().is_some() || matches!(self, DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL)
    }

    /// Whether this type raises Missing alarms: the mats that watch a patient in bed or in a chair.
    /// Force channels, room-set sensors (the set decides presence), horse saddles and analysis
    /// plates do not: an empty floor sensor or an unused podology plate is not a missing patient.
    pub fn raises_missing_alarms(self) -> bool {
        self.watches_repositioning() || matches!(self, DeviceType::SeatingMat)
    }

    /// Whether a device of this type has its own patient at the bedside (issue 22): beds, seats
    /// and room sets, where a patient lies or sits for hours and the device's alarms, logs and
    /// repositioning history are theirs. Staff assign and release them on the device's page.
    /// Analysis plates (podology, rehab, force, horse) are shared by many patients in a day: their
    /// captures follow each clinician's own selection (spec §7).
    pub fn has_bedside_patient(self) -> bool {
        matches!(
            self,
            DeviceType::MattressMat
                | DeviceType::MattressMatIoT
                | DeviceType::SleepMat
                | DeviceType::SeatingMat
                | DeviceType::SeatingMatIoT
                | DeviceType::SeatingMatIoTXL
                | DeviceType::RoomSet
        )
    }

    /// What the location field of a device of this type names.
    pub fn location(self) -> LocationKind {
        match self {
            DeviceType::MattressMat | DeviceType::MattressMatIoT | DeviceType::SleepMat => LocationKind::Bed,
            DeviceType::SeatingMat | DeviceType::SeatingMatIoT | DeviceType::SeatingMatIoTXL => LocationKind::Seat,
            DeviceType::FloorMat | DeviceType::FloorMatRecognition => LocationKind::Floor,
            DeviceType::SensingHorse | DeviceType::SensingHorseSubdevice => LocationKind::Saddle,
            DeviceType::Podology
            | DeviceType::PodologyIoT
            | DeviceType::PressureMatIoT
            | DeviceType::ForceMat
            | DeviceType::Shapes
            | DeviceType::NorthSky => LocationKind::Plate,
            DeviceType::WellnessMat | DeviceType::HealthMat | DeviceType::FitnessMat | DeviceType::RehabMat => LocationKind::Mat,
            DeviceType::RoomSet => LocationKind::Room,
        }
    }

    /// Everything the client reads about this type.
    pub fn info(self) -> DeviceTypeInfo {
        let captures = self.captures();
        let repositioning_clock = self.watches_repositioning();
        DeviceTypeInfo {
            name: self.name(),
            route: self.route(),
            page_family: self.page_family(),
            analysis_route: (self == DeviceType::PodologyIoT).then_some("/Podology"),
            settings_route: if self == DeviceType::RoomSet { "/roomSettings" } else { "/deviceSettings" },
            frame: self.frame_shape().map(|(rows, cols, format)| FrameShape { rows, cols, bytes_per_cell: format.bytes_per_cell() as u8 }),
            has_patients: !captures.is_empty() || repositioning_clock,
            bedside_patient: self.has_bedside_patient(),
            location: self.location(),
            pdf_reports: self.pdf_reports(),
            real_scale_print: self.real_scale_print(),
            static_histogram: self.static_histogram(),
            captures,
            posture: self.posture_scheme(),
            repositioning_clock,
            card: self != DeviceType::SensingHorseSubdevice,
            card_shows_bed: self != DeviceType::Shapes,
            reading_presence: self.uses_reading_presence(),
            cell_size_cm: self.cell_size_cm(),
            analysis_family: self.analysis_family(),
            pressure_units_per_cell: crate::scale::pressure_units_per_cell(self),
            // A horse's page shows its sub-devices' maps: it carries their floor, as it carries
            // their distance between points.
            active_floor_steps: crate::scale::active_floor_steps(if self == DeviceType::SensingHorse {
                DeviceType::SensingHorseSubdevice
            } else {
                self
            }),
            cell_pitch_cm: self.cell_pitch_cm(),
            full_scale_steps: crate::scale::full_scale_steps(self),
        }
    }

    /// The whole table, in the order of [`DeviceType::ALL`].
    pub fn table() -> Vec<DeviceTypeInfo> {
        DeviceType::ALL.into_iter().map(DeviceType::info).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bed_mats_cover_a_192_cm_bed_and_no_other_map_covers_one() {
        // Spec §9: the 48 columns of a mattress span 0–192 cm; the legacy 16 × 16 mattress covers
        // the same bed in 16 cells of 12 cm.
        for bed in [DeviceType::MattressMatIoT, DeviceType::SleepMat, DeviceType::MattressMat] {
            assert_eq!(bed.map_length_cm(), Some(192.0), "{bed:?}");
            assert!(bed.covers_a_whole_bed(), "{bed:?}");
        }
        assert_eq!(DeviceType::MattressMat.cell_pitch_cm(), Some(12.0));
        let beds = DeviceType::ALL.into_iter().filter(|t| t.covers_a_whole_bed()).count();
        assert_eq!(beds, 3, "a seat, a plate, a floor tile or a saddle is shorter than a bed");
        assert_eq!(DeviceType::RoomSet.map_length_cm(), None, "no map");
    }

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
        assert_eq!(DeviceType::FloorMat.frame_shape(), Some((24, 24, CellFormat::U8)));
        assert_eq!(DeviceType::FloorMatRecognition.frame_shape(), Some((48, 48, CellFormat::U8)));
        assert_eq!(DeviceType::MattressMat.frame_shape(), Some((16, 16, CellFormat::U8)));
        assert_eq!(DeviceType::SensingHorse.frame_shape(), None);
        assert_eq!(DeviceType::RoomSet.frame_shape(), None);
        assert!(DeviceType::ForceMat.uses_reading_presence());
        assert!(!DeviceType::MattressMatIoT.uses_reading_presence());
    }
    #[test]
    fn routes_follow_spec_section_2_and_pages_are_unique_per_type() {
        let route = |t: DeviceType| t.route();
        assert_eq!(route(DeviceType::PodologyIoT), Some("/PodiatryIoT"));
        assert_eq!(route(DeviceType::Podology), Some("/Podiatry"));
        assert_eq!(route(DeviceType::SeatingMatIoTXL), Some("/SeatingMatIoTXL"));
        assert_eq!(route(DeviceType::SensingHorseSubdevice), None);
        let own: Vec<_> = DeviceType::ALL.into_iter().filter(|t| *t != DeviceType::RoomSet).filter_map(route).collect();
        let mut unique = own.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(own.len(), 19, "19 device pages of spec §2");
        assert_eq!(unique.len(), own.len(), "no two types share a route");
        assert_eq!(DeviceType::PodologyIoT.info().analysis_route, Some("/Podology"));
        assert_eq!(DeviceType::RoomSet.info().settings_route, "/roomSettings");
    }

    #[test]
    fn beds_seats_and_room_sets_have_a_bedside_patient_and_plates_do_not() {
        let with: Vec<&str> = DeviceType::ALL.into_iter().filter(|t| t.info().bedside_patient).map(DeviceType::name).collect();
        assert_eq!(
            with,
            ["Mattress Mat", "Mattress Mat IoT", "Seating Mat", "Seating Mat IoT", "Seating Mat IoT XL", "Sleep Mat", "Room Set"]
        );
        for plate in [DeviceType::Podology, DeviceType::PodologyIoT, DeviceType::PressureMatIoT, DeviceType::RehabMat, DeviceType::ForceMat]
        {
            assert!(!plate.has_bedside_patient(), "{plate:?} follows the clinician's selection");
        }
    }

    #[test]
    fn the_location_field_is_named_by_the_device_family() {
        assert_eq!(DeviceType::MattressMatIoT.info().location, LocationKind::Bed);
        assert_eq!(DeviceType::SeatingMatIoTXL.info().location, LocationKind::Seat);
        assert_eq!(DeviceType::FloorMat.info().location, LocationKind::Floor);
        assert_eq!(DeviceType::SensingHorse.info().location, LocationKind::Saddle);
        assert_eq!(DeviceType::PodologyIoT.info().location, LocationKind::Plate);
        assert_eq!(DeviceType::RoomSet.info().location, LocationKind::Room);
    }

    #[test]
    fn the_static_histogram_is_for_seating_horse_and_mattress_devices() {
        let with: Vec<&str> = DeviceType::ALL.into_iter().filter(|t| t.static_histogram()).map(DeviceType::name).collect();
        assert_eq!(with, ["Mattress Mat", "Mattress Mat IoT", "Seating Mat", "Seating Mat IoT", "Seating Mat IoT XL", "Sensing Horse"]);
    }

    #[test]
    fn pdf_reports_are_the_eight_types_of_spec_section_6_and_each_has_captures() {
        let pdf: Vec<_> = DeviceType::ALL.into_iter().filter(|t| t.pdf_reports()).collect();
        assert_eq!(pdf.len(), 8);
        for t in DeviceType::ALL.into_iter().filter(|&t| t != DeviceType::FitnessMat) {
            assert_eq!(t.pdf_reports(), !t.captures().is_empty(), "{t:?}: captures exactly where reports are");
        }
        // Spec §6: the fitness hardware gets the 24 h static analysis button (and no PDF).
        assert_eq!(DeviceType::FitnessMat.captures(), [CaptureOffer::Static, CaptureOffer::Series24h]);
        assert!(!DeviceType::FitnessMat.pdf_reports());
        assert!(DeviceType::PodologyIoT.captures().contains(&CaptureOffer::Remote));
        assert!(!DeviceType::ForceMat.info().has_patients);
        assert!(DeviceType::MattressMat.info().has_patients, "a repositioning clock has a patient");
    }

    #[test]
    fn every_type_with_captures_has_an_analysis_family_and_seats_beds_are_not_feet() {
        for t in DeviceType::ALL {
            if !t.captures().is_empty() {
                assert!(t.analysis_family().is_some(), "{t:?} offers captures but no analysis family");
            }
        }
        assert_eq!(DeviceType::SeatingMatIoT.info().analysis_family, Some(AnalysisFamily::Seating));
        assert_eq!(DeviceType::SeatingMatIoTXL.analysis_family(), Some(AnalysisFamily::Seating));
        assert_eq!(DeviceType::MattressMatIoT.analysis_family(), Some(AnalysisFamily::Bed));
        assert_eq!(DeviceType::SleepMat.analysis_family(), Some(AnalysisFamily::Bed));
        assert_eq!(DeviceType::RehabMat.analysis_family(), Some(AnalysisFamily::Rehab));
        assert_eq!(DeviceType::SensingHorse.analysis_family(), Some(AnalysisFamily::Horse));
        assert_eq!(DeviceType::PodologyIoT.analysis_family(), Some(AnalysisFamily::Podology));
        assert_eq!(DeviceType::ForceMat.analysis_family(), None);
    }

    #[test]
    fn families_posture_and_cards() {
        assert_eq!(DeviceType::RoomSet.page_family(), PageFamily::RoomSet);
        assert_eq!(DeviceType::NorthSky.page_family(), PageFamily::Force);
        assert_eq!(DeviceType::SensingHorse.page_family(), PageFamily::Horse);
        assert_eq!(DeviceType::SeatingMatIoT.page_family(), PageFamily::Seating);
        assert_eq!(DeviceType::FloorMat.page_family(), PageFamily::Mat);
        assert_eq!(DeviceType::SleepMat.info().posture, Some(PostureScheme::SleepMat));
        assert_eq!(DeviceType::MattressMatIoT.info().posture, Some(PostureScheme::Lying));
        assert!(!DeviceType::SensingHorseSubdevice.info().card);
        assert!(!DeviceType::Shapes.info().card_shows_bed);
        assert_eq!(DeviceType::ForceMat.info().frame, Some(FrameShape { rows: 1, cols: 4, bytes_per_cell: 2 }));
        assert_eq!(DeviceType::table().len(), DeviceType::ALL.len());
    }

    #[test]
    fn the_real_scale_print_is_offered_for_feet_seats_and_saddles_never_for_a_bed() {
        let real_scale: Vec<_> = DeviceType::ALL.into_iter().filter(|t| t.real_scale_print()).collect();
        assert_eq!(
            real_scale,
            [
                DeviceType::SeatingMatIoT,
                DeviceType::SeatingMatIoTXL,
                DeviceType::PressureMatIoT,
                DeviceType::Podology,
                DeviceType::PodologyIoT,
                DeviceType::SensingHorse,
                DeviceType::RehabMat,
            ]
        );
        for bed in [DeviceType::MattressMat, DeviceType::MattressMatIoT, DeviceType::SleepMat] {
            assert!(!bed.real_scale_print() && !bed.info().real_scale_print, "{bed:?}");
        }
        assert!(DeviceType::PodologyIoT.info().real_scale_print);
    }
}

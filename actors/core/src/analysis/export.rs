//! The raw-data export of spec §3, built from a capture and its stored additionalParameters:
//! the processed export (version 2.0: frames with their points, statistics and centre of
//! pressure, plus each foot's timestamps) and the unprocessed export (version 1.0: one record of
//! dateTime and pressureMatrix per frame). Pure: it returns the file name and the bytes.

use serde::Serialize;

use super::AnalysisKind;
use super::dynamic_podology::DYNAMIC_SERIES_COUNT;
use super::frame::Capture;
use super::parameters::{NamedParameter, ParameterValue};
use super::units::round_to;
use mat_protocol::scale::{FITNESS_KPA_PER_STEP, PressureUnit, pressure_units_per_cell, units_to};

/// Spec §8: the toast key when there is nothing to export.
pub const NO_ANALYSIS_DATA: &str = "toastErrorRaw.noAnalysisData";

/// The two export kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// Frames with their points and statistics; metadata version 2.0.
    Processed,
    /// The maps as captured; metadata version 1.0.
    Unprocessed,
}

impl ExportKind {
    /// `dataType` in the metadata and the `kind` part of the file name.
    pub fn data_type(self) -> &'static str {
        match self {
            ExportKind::Processed => "processed",
            ExportKind::Unprocessed => "unprocessed",
        }
    }

    /// Metadata `version`.
    pub fn version(self) -> &'static str {
        match self {
            ExportKind::Processed => "2.0",
            ExportKind::Unprocessed => "1.0",
        }
    }
}

/// Who and when, for the metadata.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExportMetadata<'a> {
    /// The record's analysis type.
    pub analysis_type: AnalysisKind,
    /// The record's patient id.
    pub patient_id: &'a str,
    /// The record's creation date, unix seconds.
    pub creation_date_s: i64,
    /// Now, unix milliseconds (the caller reads the clock).
    pub export_date_ms: i64,
}

/// A file ready to download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    /// `type_kind_analysis_YYYY-MM-DD.json`.
    pub file_name: String,
    /// UTF-8 JSON.
    pub json: Vec<u8>,
}

/// Why an export was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// No frames, or a dynamic record with fewer than 14 series.
    #[error("no analysis data to export")]
    NoAnalysisData,
    /// The JSON encoder failed.
    #[error("encoding the export failed: {0}")]
    Encoding(String),
}

impl ExportError {
    /// The i18n key the client shows (spec §8).
    pub fn code(&self) -> &'static str {
        match self {
            ExportError::NoAnalysisData => NO_ANALYSIS_DATA,
            ExportError::Encoding(_) => "toastErrorRaw.downloadError",
        }
    }
}

/// Builds the export of `kind` for a record. A dynamic record needs its 14 series (spec §3);
/// every record needs at least one frame.
pub fn export_raw(
    kind: ExportKind,
    metadata: &ExportMetadata<'_>,
    capture: &Capture,
    additional_parameters: &[NamedParameter],
) -> Result<ExportFile, ExportError> {
    let dynamic = metadata.analysis_type == AnalysisKind::Dynamic;
    if capture.frames().is_empty() || (dynamic && additional_parameters.len() < DYNAMIC_SERIES_COUNT) {
        return Err(ExportError::NoAnalysisData);
    }
    let meta = Metadata {
        version: kind.version(),
        export_date: iso_8601_utc(metadata.export_date_ms),
        data_type: kind.data_type(),
        analysis_type: metadata.analysis_type.name(),
        patient_id: metadata.patient_id,
        creation_date: iso_8601_utc(metadata.creation_date_s.saturating_mul(1000)),
        pressure_unit: PressureUnitMetadata::of(capture),
    };
    let json = match kind {
        ExportKind::Processed => serde_json::to_vec(&processed(meta, capture, additional_parameters, dynamic)),
        ExportKind::Unprocessed => serde_json::to_vec(&unprocessed(meta, capture)),
    }
    .map_err(|e| ExportError::Encoding(e.to_string()))?;
    Ok(ExportFile { file_name: export_file_name(metadata.analysis_type, kind, metadata.export_date_ms), json })
}

/// `type_kind_analysis_YYYY-MM-DD.json`, e.g. `dynamic_processed_analysis_2026-11-22.json`
/// (type lower-cased, date in UTC).
pub fn export_file_name(analysis_type: AnalysisKind, kind: ExportKind, export_date_ms: i64) -> String {
    let date = &iso_8601_utc(export_date_ms)[..10];
    format!("{}_{}_analysis_{date}.json", analysis_type.name().to_lowercase(), kind.data_type())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Metadata<'a> {
    version: &'static str,
    export_date: String,
    data_type: &'static str,
    analysis_type: &'static str,
    patient_id: &'a str,
    creation_date: String,
    /// What a pressure in the file means (issue 22: a unit field in the metadata).
    pressure_unit: PressureUnitMetadata,
}

/// The unit of every pressure in the file: the device's cell step, with what one step is worth
/// (`mat_protocol::scale`). Averages are in the same unit; `null` figures when the device's cells
/// are not pressures.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PressureUnitMetadata {
    /// Always `"sensorStep"`: values are the cells as the device sent them.
    unit: &'static str,
    #[serde(rename = "mmHgPerStep")]
    mmhg_per_step: Option<f64>,
    #[serde(rename = "kPaPerStep")]
    kpa_per_step: Option<f64>,
    /// The fitness variant's scale (spec §1: kPa = steps × 0.06).
    #[serde(rename = "fitnessKPaPerStep")]
    fitness_kpa_per_step: f64,
}

impl PressureUnitMetadata {
    fn of(capture: &Capture) -> Self {
        let per_step = pressure_units_per_cell(capture.device_type());
        PressureUnitMetadata {
            unit: "sensorStep",
            mmhg_per_step: per_step.map(|u| units_to(PressureUnit::MmHg, u)),
            kpa_per_step: per_step.map(|u| units_to(PressureUnit::KPa, u)),
            fitness_kpa_per_step: FITNESS_KPA_PER_STEP,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Processed<'a> {
    metadata: Metadata<'a>,
    frames: Vec<ProcessedFrame>,
    #[serde(skip_serializing_if = "Option::is_none")]
    left_foot: Option<FootTimes>,
    #[serde(skip_serializing_if = "Option::is_none")]
    right_foot: Option<FootTimes>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProcessedFrame {
    frame_index: usize,
    /// Seconds from the first frame, 3 decimals.
    timestamp: f64,
    pressure_points: Vec<PressurePoint>,
    average_pressure: f64,
    max_pressure: u16,
    active_sensors: u32,
    center_of_pressure: Option<Point>,
}

#[derive(Serialize)]
struct PressurePoint {
    x: u16,
    y: u16,
    pressure: u16,
}

#[derive(Serialize)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Serialize)]
struct FootTimes {
    /// Seconds from the first frame of the frames in which the foot is down (series 5 or 11).
    timestamps: Vec<f64>,
}

#[derive(Serialize)]
struct Unprocessed<'a> {
    metadata: Metadata<'a>,
    records: Vec<Record>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    date_time: String,
    pressure_matrix: Vec<Vec<u16>>,
}

fn processed<'a>(metadata: Metadata<'a>, capture: &Capture, series: &[NamedParameter], dynamic: bool) -> Processed<'a> {
    let frames = capture
        .frames()
        .iter()
        .enumerate()
        .map(|(frame_index, timed)| {
            let frame = &timed.frame;
            let stats = frame.region_stats(&frame.full_region());
            ProcessedFrame {
                frame_index,
                timestamp: round_to(capture.seconds_since_start(timed), 3),
                pressure_points: frame
                    .active_points(&frame.full_region())
                    .into_iter()
                    .map(|p| PressurePoint { x: p.x, y: p.y, pressure: p.z })
                    .collect(),
                average_pressure: stats.active_mean(),
                max_pressure: stats.maximum.map_or(0, |p| p.z),
                active_sensors: stats.active_cells,
                center_of_pressure: stats.center_of_pressure.map(|[x, y]| Point { x, y }),
            }
        })
        .collect();
    let foot_times = |index: usize| -> Option<FootTimes> {
        match series.get(index).map(|p| &p.value) {
            Some(ParameterValue::Series(times)) if dynamic => Some(FootTimes { timestamps: times.clone() }),
            _ => None,
        }
    };
    Processed { metadata, frames, left_foot: foot_times(5), right_foot: foot_times(11) }
}

fn unprocessed<'a>(metadata: Metadata<'a>, capture: &Capture) -> Unprocessed<'a> {
    let cols = capture.cols().max(1) as usize;
    let records = capture
        .frames()
        .iter()
        .map(|timed| Record {
            date_time: iso_8601_utc(timed.timestamp_ms.min(i64::MAX as u64) as i64),
            pressure_matrix: timed.frame.cells().chunks(cols).map(<[u16]>::to_vec).collect(),
        })
        .collect();
    Unprocessed { metadata, records }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for unix milliseconds (proleptic Gregorian, UTC).
pub fn iso_8601_utc(unix_ms: i64) -> String {
    let days = unix_ms.div_euclid(86_400_000);
    let ms_of_day = unix_ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (h, m, s, ms) = (ms_of_day / 3_600_000, ms_of_day / 60_000 % 60, ms_of_day / 1000 % 60, ms_of_day % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
}

/// Year, month, day of a count of days since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::dynamic_podology::dynamic_podology;
    use crate::analysis::frame::PressureFrame;
    use mat_protocol::device_type::DeviceType;

    /// 2024-02-29T12:34:56.789Z.
    const LEAP_DAY_MS: i64 = 1_709_210_096_789;

    fn meta(kind: AnalysisKind) -> ExportMetadata<'static> {
        ExportMetadata { analysis_type: kind, patient_id: "p1", creation_date_s: 1_700_000_000, export_date_ms: LEAP_DAY_MS }
    }

    /// Two frames of a 2×12 map: a left foot in column 1 and a right foot in column 10.
    fn capture() -> Capture {
        let mut c = Capture::new(DeviceType::PodologyIoT, 2, 12);
        let mut a = vec![0u16; 24];
        a[1] = 40; // (x 1, y 0)
        a[12 + 1] = 60; // (x 1, y 1)
        let mut b = a.clone();
        // The right foot (x 10, y 0 and 1): a foot presses a patch of cells, never one alone (the
        // gait engine reads a lone active cell as a sensor's spike).
        b[10] = 100;
        b[12 + 10] = 100;
        c.push(LEAP_DAY_MS as u64, PressureFrame::new(2, 12, a).unwrap()).unwrap();
        c.push(LEAP_DAY_MS as u64 + 250, PressureFrame::new(2, 12, b).unwrap()).unwrap();
        c
    }

    #[test]
    fn dates_in_utc() {
        assert_eq!(iso_8601_utc(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_8601_utc(LEAP_DAY_MS), "2024-02-29T12:34:56.789Z");
        assert_eq!(iso_8601_utc(1_700_000_000_000), "2023-11-14T22:13:20.000Z");
        assert_eq!(iso_8601_utc(-1), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn file_name_is_type_kind_analysis_date() {
        assert_eq!(
            export_file_name(AnalysisKind::Dynamic, ExportKind::Processed, LEAP_DAY_MS),
            "dynamic_processed_analysis_2024-02-29.json"
        );
        assert_eq!(
            export_file_name(AnalysisKind::SeatingDynamic, ExportKind::Unprocessed, 0),
            "seatingdynamic_unprocessed_analysis_1970-01-01.json"
        );
    }

    #[test]
    fn processed_export_by_hand() {
        let c = capture();
        let series = dynamic_podology(&c).unwrap().additional_parameters;
        let file = export_raw(ExportKind::Processed, &meta(AnalysisKind::Dynamic), &c, &series).unwrap();
        assert_eq!(file.file_name, "dynamic_processed_analysis_2024-02-29.json");
        let json: serde_json::Value = serde_json::from_slice(&file.json).unwrap();
        assert_eq!(
            json["metadata"],
            serde_json::json!({
                "version": "2.0",
                "exportDate": "2024-02-29T12:34:56.789Z",
                "dataType": "processed",
                "analysisType": "Dynamic",
                "patientId": "p1",
                "creationDate": "2023-11-14T22:13:20.000Z",
                "pressureUnit": {
                    "unit": "sensorStep",
                    "mmHgPerStep": 1000.0 / mat_protocol::scale::PASCAL_PER_MMHG,
                    "kPaPerStep": 1.0,
                    "fitnessKPaPerStep": 0.06
                }
            })
        );
        let f1 = &json["frames"][1];
        assert_eq!(f1["frameIndex"], 1);
        assert_eq!(f1["timestamp"], 0.25);
        assert_eq!(
            f1["pressurePoints"],
            serde_json::json!([
                {"x": 1, "y": 0, "pressure": 40},
                {"x": 10, "y": 0, "pressure": 100},
                {"x": 1, "y": 1, "pressure": 60},
                {"x": 10, "y": 1, "pressure": 100}
            ])
        );
        // (40 + 100 + 60 + 100) / 4 = 75; max 100; 4 sensors; CoP x = (40 + 1000 + 60 + 1000)/300 = 7,
        // y = (60 + 100)/300 = 0.533….
        assert!((f1["averagePressure"].as_f64().unwrap() - 75.0).abs() < 1e-9);
        assert_eq!((f1["maxPressure"].as_u64(), f1["activeSensors"].as_u64()), (Some(100), Some(4)));
        assert!((f1["centerOfPressure"]["x"].as_f64().unwrap() - 7.0).abs() < 1e-9);
        assert!((f1["centerOfPressure"]["y"].as_f64().unwrap() - 160.0 / 300.0).abs() < 1e-9);
        // The left foot is down in both frames, the right in the second only.
        assert_eq!(json["leftFoot"]["timestamps"], serde_json::json!([0.0, 0.25]));
        assert_eq!(json["rightFoot"]["timestamps"], serde_json::json!([0.25]));
    }

    #[test]
    fn unprocessed_export_by_hand() {
        let c = capture();
        let file = export_raw(ExportKind::Unprocessed, &meta(AnalysisKind::Static), &c, &[]).unwrap();
        assert_eq!(file.file_name, "static_unprocessed_analysis_2024-02-29.json");
        let json: serde_json::Value = serde_json::from_slice(&file.json).unwrap();
        assert_eq!(json["metadata"]["version"], "1.0");
        assert_eq!(json["metadata"]["dataType"], "unprocessed");
        // Issue 22: the file says what its pressures are: a podology plate's step is 1 kPa.
        let unit = &json["metadata"]["pressureUnit"];
        assert_eq!(unit["unit"], "sensorStep");
        assert!((unit["kPaPerStep"].as_f64().unwrap() - 1.0).abs() < 1e-12);
        assert!((unit["mmHgPerStep"].as_f64().unwrap() - 1000.0 / 133.322_387_415).abs() < 1e-12);
        assert_eq!(unit["fitnessKPaPerStep"], 0.06);
        let records = json["records"].as_array().unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1]["dateTime"], "2024-02-29T12:34:57.039Z");
        assert_eq!(records[1]["pressureMatrix"][0][10], 100);
        assert_eq!(records[1]["pressureMatrix"].as_array().unwrap().len(), 2);
        assert_eq!(records[1]["pressureMatrix"][1].as_array().unwrap().len(), 12);
    }

    #[test]
    fn refused_without_data_or_with_fewer_than_14_series() {
        let c = capture();
        let series = dynamic_podology(&c).unwrap().additional_parameters;
        let err = export_raw(ExportKind::Processed, &meta(AnalysisKind::Dynamic), &c, &series[..13]).unwrap_err();
        assert_eq!(err, ExportError::NoAnalysisData);
        assert_eq!(err.code(), "toastErrorRaw.noAnalysisData");
        assert!(export_raw(ExportKind::Processed, &meta(AnalysisKind::Dynamic), &c, &series[..14]).is_ok());
        let empty = Capture::new(DeviceType::PodologyIoT, 2, 12);
        let err = export_raw(ExportKind::Unprocessed, &meta(AnalysisKind::Static), &empty, &[]).unwrap_err();
        assert_eq!(err.code(), NO_ANALYSIS_DATA);
    }
}

//! The device records the actors hand to the storage writer, and what the store must make of them.
//!
//! Statuses are upserts (the latest wins, see `StatusRecord`); these records are events: each one
//! is written once, in the order the writer received them (an alarm's `AlarmRaised` always comes
//! before its `AlarmAttended`). Times are Unix milliseconds: the actors convert the machines'
//! `Instant`s when they emit a record.
//!
//! For the engineer implementing `StatusStore::save_records` (spec §3 "Logs"):
//! - [`Record::DeviceLog`] → a device log entry: `creationDate` = `at_ms`, `pressureMap` =
//!   `preview` (rows × cols, row-major), `posture` = (`posture_id`, `confidence`), `position` =
//!   `posture_name`; `max_pressure` and `reason` are ours (keep them, the table may grow).
//! - [`Record::PresenceLog`] → a presence log entry: `creationDate`, `logId` '1' when `present`
//!   (entrance), '0' otherwise (exit).
//! - [`Record::AlarmRaised`] → an alarm log entry keyed by (`device_id`, `alarm_id`):
//!   `creationDate`, `hasBeenAttended` false, the kind (`Missing` or `Ulcer Risk`) and an Ulcer
//!   Risk alarm's reason (the region, how long it was loaded, the offload and interval).
//! - [`Record::TurnRecorded`] → a turn log entry: when, position, who, the tier and load before.
//! - [`Record::AlarmAttended`] → update that entry: `hasBeenAttended` true, `attendedTime` =
//!   `attended_at_ms`, who attended (`by`, a user id, when a user did), and the time to attend (ms). `iotCheckAlarms` answers 'True' while an entry
//!   of the device is unattended.
//! - [`Record::StreamingEnd`] → upsert the device's stream end time (`None` clears it).
//! - [`Record::Tare`] → set the device's tare (its configuration's `tare_json`), whole.
//! - [`Record::CaptureStored`] → insert a raw capture (an analysis record for `patient_id`, with
//!   `analysisType` = `kind.name()` and the frames), so nothing is lost before the analysis engine
//!   lands; the analysis result later attaches to it.

use std::sync::Arc;

use mat_core::machine::alarm::{AlarmKind, AlarmReason};
use mat_core::machine::capture::{CaptureKind, CapturedFrame};
use mat_core::machine::device_log::{LogReason, PreviewMap};
use mat_core::machine::posture::Posture;
use mat_core::machine::pressure_ulcer::RepositioningTier;
use mat_core::machine::tare::Tare;

/// One event to persist. The hub's `StatusStore::save_records` maps each variant to a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// A device log entry.
    DeviceLog(Box<DeviceLogRecord>),
    /// A presence log entry: entrance (`present`) or exit.
    PresenceLog { device_id: Arc<str>, at_ms: u64, present: bool },
    /// A new alarm, unattended.
    AlarmRaised { device_id: Arc<str>, alarm_id: u64, kind: AlarmKind, raised_at_ms: u64, reason: Option<AlarmReason> },
    /// A turn a nurse recorded or the clock detected (the turn log): when, to which position, by whom, and where the
    /// repositioning clock stood before it.
    TurnRecorded {
        device_id: Arc<str>,
        at_ms: u64,
        recorded_at_ms: u64,
        position: Option<Posture>,
        by: Option<Arc<str>>,
        tier_before: RepositioningTier,
        loaded_ms: u64,
        interval_ms: u64,
        /// The clock detected the turn (no one recorded it).
        detected: bool,
    },
    /// An alarm was attended.
    AlarmAttended { device_id: Arc<str>, alarm_id: u64, attended_at_ms: u64, time_to_attend_ms: u64, by: Option<Arc<str>> },
    /// The device's live stream now ends at `ends_at_ms` (`None`: no stream; clear the stored end
    /// time). Upsert per device: a restarted actor resumes the stream from the latest value, and
    /// a reconnecting browser reads it to resume its countdown (spec §4 "Streaming").
    StreamingEnd { device_id: Arc<str>, ends_at_ms: Option<u64> },
    /// The mat's tare changed (learnt or zeroed); a restart resumes with the latest.
    Tare { device_id: Arc<str>, tare: Arc<Tare> },
    /// A finished raw capture (shared: a retried write hands it to the analysis again without
    /// copying its frames).
    CaptureStored(Arc<CaptureRecord>),
}

/// A device log entry.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceLogRecord {
    /// The device.
    pub device_id: Arc<str>,
    /// `creationDate`, Unix ms.
    pub at_ms: u64,
    /// Highest cell of the full map.
    pub max_pressure: u16,
    /// `posture.id` (see `Posture::id`), when a posture was read.
    pub posture_id: Option<u8>,
    /// `position`: the posture's name.
    pub posture_name: Option<&'static str>,
    /// `posture.confidence`: the calibrated probability that the posture is right, 0–1.
    pub confidence: Option<f32>,
    /// `pressureMap`, downsampled (at most 16 × 16 by default).
    pub preview: PreviewMap,
    /// Why the entry was written (posture change or interval).
    pub reason: LogReason,
}

/// A raw capture, as the capture machine loaded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureRecord {
    /// Device the frames come from.
    pub device_id: Arc<str>,
    /// Patient selected when the capture was requested (`patientId`).
    pub patient_id: String,
    /// User who asked (`userId`).
    pub user_id: String,
    /// `analysisType`: `Static`, `Dynamic`, `Fitting` or `Balance`.
    pub kind: CaptureKind,
    /// When the capture was requested (`creationDate`), Unix ms.
    pub requested_at_ms: u64,
    /// Seconds asked for (0 for static).
    pub seconds: u32,
    /// The frames, oldest first; `offset_ms` is from the request.
    pub frames: Vec<CapturedFrame>,
    /// Frames the machine did not keep (beyond its limit).
    pub dropped_frames: u32,
}

impl Record {
    /// The device the record belongs to.
    pub fn device_id(&self) -> &Arc<str> {
        match self {
            Record::DeviceLog(entry) => &entry.device_id,
            Record::PresenceLog { device_id, .. }
            | Record::AlarmRaised { device_id, .. }
            | Record::AlarmAttended { device_id, .. }
            | Record::TurnRecorded { device_id, .. }
            | Record::StreamingEnd { device_id, .. }
            | Record::Tare { device_id, .. } => device_id,
            Record::CaptureStored(capture) => &capture.device_id,
        }
    }

    /// When what the record tells happened (Unix ms), for the records that say: how far behind
    /// the writer is.
    pub fn occurred_at_ms(&self) -> Option<u64> {
        match self {
            Record::DeviceLog(entry) => Some(entry.at_ms),
            Record::PresenceLog { at_ms, .. } | Record::TurnRecorded { at_ms, .. } => Some(*at_ms),
            Record::AlarmRaised { raised_at_ms, .. } => Some(*raised_at_ms),
            Record::AlarmAttended { attended_at_ms, .. } => Some(*attended_at_ms),
            Record::StreamingEnd { .. } | Record::Tare { .. } | Record::CaptureStored(_) => None,
        }
    }

    /// Rough memory held by the record, for the writer's pending-bytes bound.
    pub fn approx_bytes(&self) -> usize {
        let base = std::mem::size_of::<Record>();
        match self {
            Record::DeviceLog(entry) => base + std::mem::size_of::<DeviceLogRecord>() + 2 * entry.preview.cells.len(),
            Record::PresenceLog { .. }
            | Record::AlarmRaised { .. }
            | Record::AlarmAttended { .. }
            | Record::TurnRecorded { .. }
            | Record::StreamingEnd { .. } => base,
            Record::Tare { tare, .. } => base + 2 * tare.cells.len(),
            Record::CaptureStored(capture) => {
                base + capture.frames.iter().map(|f| std::mem::size_of::<CapturedFrame>() + 2 * f.cells.len()).sum::<usize>()
            }
        }
    }
}

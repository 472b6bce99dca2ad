//! The device records the actors hand to the storage writer, and what the store must make of them.
//!
//! Statuses are upserts (the latest wins, see `StatusRecord`); these records are events: each one
//! is written once, in the order the writer received them. Times are Unix milliseconds (the
//! actors convert the machines' `Instant`s when they emit a record).

use std::sync::Arc;

use crate::machine::capture::{CaptureKind, CapturedFrame};

/// One event to persist. The hub's `StatusStore::save_records` maps each variant to a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// The device's live stream now ends at `ends_at_ms` (`None`: no stream; clear the stored end
    /// time). Upsert per device: a restarted actor resumes the stream from the latest value, and
    /// a reconnecting browser reads it to resume its countdown (spec §4 "Streaming").
    StreamingEnd { device_id: Arc<str>, ends_at_ms: Option<u64> },
    /// A finished raw capture. Insert it (for example as an analysis record whose `mapPreview`
    /// holds the frames and whose `analysisType` is `kind.name()`), so nothing is lost before
    /// the analysis engine lands; the analysis result later attaches to it.
    CaptureStored(Box<CaptureRecord>),
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
            Record::StreamingEnd { device_id, .. } => device_id,
            Record::CaptureStored(capture) => &capture.device_id,
        }
    }

    /// Rough memory held by the record, for the writer's pending-bytes bound.
    pub fn approx_bytes(&self) -> usize {
        let base = std::mem::size_of::<Record>();
        match self {
            Record::StreamingEnd { .. } => base,
            Record::CaptureStored(capture) => {
                base + capture.frames.iter().map(|f| std::mem::size_of::<CapturedFrame>() + 2 * f.cells.len()).sum::<usize>()
            }
        }
    }
}

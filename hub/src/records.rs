//! Persisting the device records the actors emit (`actors::actor::record::Record`): device and
//! presence logs, alarm episodes, stream end times, and finished captures, which
//! `crate::domain::analyses::record_capture` turns into analysis records of the selected patient
//! (the engine on a blocking thread).
//!
//! A record that can never be written (its device or patient was deleted, a value the schema
//! refuses) is logged and skipped so it cannot block the records behind it; a database failure
//! fails the batch, which the writer retries.

use actors::actor::record::{DeviceLogRecord, Record};
use actors::catalog::Catalog;
use storage::model::{DeviceLog, PresenceLog, TurnLog};
use storage::repo::DeviceRow;
use storage::{CompanyStore, Store, StoreError};

use crate::alarm_manager::AlarmReporter;
use crate::domain::analyses::record_capture;

/// The stored key of a device actor's alarm: `device-number`.
pub fn alarm_key(device_id: &str, alarm_id: u64) -> String {
    format!("{device_id}-{alarm_id}")
}

/// The device actor's number of a stored alarm key, when the key is `device-number`.
pub fn alarm_number(device_id: &str, key: &str) -> Option<u64> {
    key.strip_prefix(device_id)?.strip_prefix('-')?.parse().ok()
}

/// Unix ms as the Unix seconds the tables keep.
fn seconds(ms: u64) -> i64 {
    (ms / 1000) as i64
}

/// A device log record as a row: the preview as a JSON grid, the posture's name as `position`.
pub fn device_log_row(record: &DeviceLogRecord) -> DeviceLog {
    let cols = usize::from(record.preview.cols.max(1));
    let grid: Vec<&[u16]> = record.preview.cells.chunks(cols).collect();
    DeviceLog {
        device_id: record.device_id.to_string(),
        creation_date: seconds(record.at_ms),
        max_pressure: i64::from(record.max_pressure),
        position: record.posture_name.unwrap_or("").to_owned(),
        posture: record.posture_id.map(|id| id.to_string()).unwrap_or_default(),
        confidence: f64::from(record.confidence.unwrap_or(0.0)),
        pressure_map: serde_json::to_string(&grid).unwrap_or_else(|_| "[]".into()),
    }
}

/// The row storage writes for a record; `None` for a finished capture (its analysis is computed
/// and written on its own: `record_capture`).
pub fn device_row(record: &Record) -> Option<DeviceRow> {
    Some(match record {
        Record::DeviceLog(entry) => DeviceRow::Log(device_log_row(entry)),
        Record::PresenceLog { device_id, at_ms, present } => DeviceRow::Presence(PresenceLog {
            device_id: device_id.to_string(),
            creation_date: seconds(*at_ms),
            log_id: if *present { "1" } else { "0" }.into(),
        }),
        Record::AlarmRaised { device_id, alarm_id, kind, raised_at_ms, reason } => DeviceRow::AlarmRaised {
            key: alarm_key(device_id, *alarm_id),
            kind: kind.name().to_owned(),
            at: seconds(*raised_at_ms),
            reason_json: reason.and_then(|r| serde_json::to_string(&r).ok()),
        },
        Record::AlarmAttended { device_id, alarm_id, attended_at_ms, by, .. } => DeviceRow::AlarmAttended {
            key: alarm_key(device_id, *alarm_id),
            at: seconds(*attended_at_ms),
            by: by.as_deref().map(str::to_owned),
        },
        Record::TurnRecorded { device_id, at_ms, recorded_at_ms, position, by, tier_before, loaded_ms, interval_ms, detected } => {
            DeviceRow::Turn(TurnLog {
                device_id: device_id.to_string(),
                at_ms: *at_ms as i64,
                recorded_at_ms: *recorded_at_ms as i64,
                position: position.map(|p| p.name().to_owned()),
                by: by.as_deref().map(str::to_owned),
                tier_before: tier_before.name().to_owned(),
                loaded_ms: i64::try_from(*loaded_ms).unwrap_or(i64::MAX),
                interval_ms: i64::try_from(*interval_ms).unwrap_or(i64::MAX),
                detected: *detected,
            })
        }
        Record::StreamingEnd { ends_at_ms, .. } => DeviceRow::StreamingEnd(ends_at_ms.map(|ms| ms as i64)),
        // A tare is numbers: writing it as JSON does not fail.
        Record::Tare { tare, .. } => DeviceRow::Tare(serde_json::to_string(tare.as_ref()).unwrap_or_default()),
        Record::CaptureStored(_) => return None,
    })
}

/// What follows a stored record: an alarm's raise or attendance is queued for its report
/// (stored first, then reported: a kill in between is replayed at start-up).
pub async fn report_stored(reporter: &AlarmReporter, company_id: &str, record: &Record) -> Result<(), StoreError> {
    match record {
        Record::AlarmRaised { device_id, alarm_id, kind, raised_at_ms, .. } => {
            reporter.raised(company_id, device_id, &alarm_key(device_id, *alarm_id), kind.name(), *raised_at_ms).await
        }
        Record::AlarmAttended { device_id, alarm_id, attended_at_ms, .. } => {
            reporter.attended(company_id, device_id, &alarm_key(device_id, *alarm_id), *attended_at_ms).await
        }
        _ => Ok(()),
    }
}

/// Whether a write's failure means the record can never be written (it is then logged and
/// dropped, so it cannot block the records behind it).
pub fn never_writable(error: &StoreError) -> bool {
    matches!(error, StoreError::NotFound | StoreError::Invalid(_) | StoreError::QuotaExceeded | StoreError::Duplicate(_))
}

/// Writes one record. `Ok(false)` when it can never be written (logged and skipped).
/// `fence` (cluster mode): the lease revision the device's rows are written under; a write whose
/// device's fence has moved on is `Err(StoreError::Fenced)` and wrote nothing (a capture's
/// analysis too: its fence check is in the transaction that creates it).
pub async fn save_record(
    store: &Store,
    catalog: &Catalog,
    reporter: &AlarmReporter,
    record: &Record,
    fence: Option<u64>,
) -> Result<bool, StoreError> {
    let Some(device) = catalog.get(record.device_id()) else {
        tracing::warn!(device = %record.device_id(), "a record of an unknown device was dropped");
        return Ok(false);
    };
    let company_id = device.company_id.to_string();
    let company = match fence {
        Some(fence) => store.company(&company_id).fenced(i64::try_from(fence).unwrap_or(i64::MAX)),
        None => store.company(&company_id),
    };
    let result = match (device_row(record), record) {
        (Some(row), _) => match write_row(company, record.device_id(), row).await {
            Ok(()) => report_stored(reporter, &company_id, record).await,
            Err(error) => Err(error),
        },
        (None, Record::CaptureStored(capture)) => record_capture(company, Some(device.device_type), capture.clone()).await,
        (None, _) => Ok(()),
    };
    match result {
        Ok(()) => Ok(true),
        Err(error) if never_writable(&error) => {
            tracing::warn!(device = %device.serial, device_id = %device.id, %error, "a device record could not be stored and was dropped");
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// Writes one row of a device in a transaction of its own.
async fn write_row(company: CompanyStore<'_>, device_id: &str, row: DeviceRow) -> Result<(), StoreError> {
    match row {
        DeviceRow::Log(entry) => company.logs().add_device_log(&entry).await,
        DeviceRow::Presence(entry) => company.logs().add_presence(&entry).await,
        DeviceRow::Turn(turn) => company.logs().add_turn(&turn).await,
        DeviceRow::AlarmRaised { key, kind, at, reason_json } => {
            company.logs().raise_alarm_with_reason(device_id, &key, &kind, at, reason_json).await.map(|_| ())
        }
        DeviceRow::AlarmAttended { key, at, by } => company.logs().attend_keyed(&key, at, by.as_deref()).await.map(|_| ()),
        DeviceRow::StreamingEnd(end) => company.device_confs().set_streaming_end(device_id, end).await,
        DeviceRow::Tare(json) => company.device_confs().set_tare(device_id, &json).await,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use mat_core::machine::device_log::{LogReason, PreviewMap};

    use super::*;

    #[test]
    fn a_device_log_keeps_its_preview_as_a_grid() {
        let record = DeviceLogRecord {
            device_id: Arc::from("d1"),
            at_ms: 1_700_000_000_999,
            max_pressure: 900,
            posture_id: Some(0),
            posture_name: Some("Supine"),
            confidence: Some(0.75),
            preview: PreviewMap { rows: 2, cols: 3, cells: vec![1, 2, 3, 4, 5, 6] },
            reason: LogReason::Interval,
        };
        let row = device_log_row(&record);
        assert_eq!(row.creation_date, 1_700_000_000);
        assert_eq!(row.pressure_map, "[[1,2,3],[4,5,6]]");
        assert_eq!((row.position.as_str(), row.posture.as_str(), row.confidence), ("Supine", "0", 0.75));
    }

    #[test]
    fn alarm_keys_join_device_and_number() {
        assert_eq!(alarm_key("abc", 42), "abc-42");
        assert_eq!(alarm_number("abc", "abc-42"), Some(42));
        assert_eq!(alarm_number("abc", "xyz-42"), None);
        assert_eq!(alarm_number("abc", "k3j2h4"), None, "alarms raised elsewhere have random keys");
    }
}

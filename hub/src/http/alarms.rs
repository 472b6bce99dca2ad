//! Alarms and logs: `GET /api/iotCheckAlarms/{serial}` ('True' or 'False'),
//! `GET` and `PUT /api/iotAlarms/{id}` (list, attend), `PUT /api/attendAlarm/{serial}` (attend by
//! sub-device serial, empty body), `GET /api/iotLogs/{id}`, `GET /api/presenceLogs/{id}`.
//!
//! A parent (room set, horse) answers for its sub-devices too: its alarms are theirs. The
//! operations are `crate::domain::alarms`'s (attending goes through the device's alarm machine).

use mat_core::analysis::export::iso_8601_utc;
use serde::Serialize;

use super::caller::Caller;
use super::error::ApiError;
use super::json::{Oid, ok};
use crate::domain::alarms;

/// An alarm log entry (spec §3).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmJson {
    #[serde(rename = "_id")]
    pub id: Oid,
    pub device_id: String,
    pub kind: String,
    pub creation_date: i64,
    pub has_been_attended: bool,
    pub attended_time: Option<i64>,
    /// Seconds from the alarm to its attendance.
    pub time_to_attend: Option<i64>,
    /// Who attended it: the account's e-mail (accounts have no other name).
    pub attended_by: Option<String>,
    /// Why an Ulcer Risk alarm was raised: the part of the body loaded longest, how long, and
    /// the rule's offloading and interval (absent for Missing and older alarms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<mat_core::machine::alarm::AlarmReason>,
    /// What the hospital's alarm manager reported of it (IHE PCD-05), oldest first.
    pub manager_statuses: Vec<ManagerStatusJson>,
}

/// One status an alarm manager reported of an alarm it dispatched.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManagerStatusJson {
    /// delivered, read, accepted, rejected, escalated, cancelled or undeliverable.
    pub status: String,
    /// Who, as the manager names them (the nurse who accepted, for example).
    pub who: Option<String>,
    /// When: the manager's time when it gave one, else when the hub received it, Unix ms.
    pub at_ms: i64,
}

/// A device and its sub-devices, as ids, within the caller's company.
/// `GET /api/iotCheckAlarms/{serial}`: the old app's spelling of a boolean.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub enum AlarmCheck {
    True,
    False,
}

/// How many alarms an attend call attended.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Attended {
    pub attended: usize,
}

/// One entry of a device's log.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceLogJson {
    /// ISO 8601 and Unix seconds (the client shows the second).
    pub creation_date: (String, i64),
    /// The map as logged (rows of cells), `null` when unreadable.
    #[schemars(with = "Option<Vec<Vec<f64>>>")]
    pub pressure_map: serde_json::Value,
    pub posture: PostureJson,
    pub position: String,
    pub max_pressure: i64,
}

/// A logged posture and the recogniser's confidence.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PostureJson {
    pub id: String,
    pub confidence: f64,
    /// Whether the confidence reaches the classifier's threshold
    /// (`mat_core::machine::posture::CONFIDENT`); below it the client shows the posture as uncertain.
    pub certain: bool,
}

/// An entrance (`logId` `'1'`) or exit (`'0'`).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresenceJson {
    pub device_id: String,
    pub creation_date: i64,
    pub log_id: String,
}

/// `'True'` while the device (or one of its sub-devices) has an unattended alarm.
pub async fn check(serial: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device_by_serial(&serial)?;
    let pending = alarms::has_pending(call.store(), &call.state.catalog, &device).await?;
    Ok(ok(&if pending { AlarmCheck::True } else { AlarmCheck::False }))
}

/// The alarms of a device and its sub-devices, newest first.
pub async fn list(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    let found = alarms::alarms(call.store(), &call.state.catalog, &device).await?;
    let mut statuses = alarms::manager_statuses(call.store(), &call.state.catalog, &device).await?;
    let body: Vec<AlarmJson> = found
        .into_iter()
        .map(|alarm| AlarmJson {
            manager_statuses: statuses
                .remove(&alarm.id)
                .unwrap_or_default()
                .into_iter()
                .map(|s| ManagerStatusJson { at_ms: s.at_ms.unwrap_or(s.received_ms), status: s.status, who: s.who })
                .collect(),
            id: Oid::new(&alarm.id),
            time_to_attend: alarm.attended_time.map(|t| t - alarm.creation_date),
            device_id: alarm.device_id,
            kind: alarm.kind,
            creation_date: alarm.creation_date,
            has_been_attended: alarm.has_been_attended,
            attended_time: alarm.attended_time,
            attended_by: alarm.attended_by,
            reason: alarm.reason_json.as_deref().and_then(|json| serde_json::from_str(json).ok()),
        })
        .collect();
    Ok(ok(&body))
}

/// Attends every pending alarm of a device (and its sub-devices), through their alarm machines
/// ([`alarms::attend`]).
pub async fn attend(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    let attended = alarms::attend(&call.state, call.store(), call.user_id(), &device).await?;
    Ok(ok(&Attended { attended }))
}

/// Attends every pending alarm of a (sub-)device given by serial; the body is empty.
pub async fn attend_by_serial(serial: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device_by_serial(&serial)?;
    let attended = alarms::attend(&call.state, call.store(), call.user_id(), &device).await?;
    Ok(ok(&Attended { attended }))
}

/// A device's log entries (spec §3): `creationDate` is `[ISO 8601, Unix seconds]`; the client
/// shows the second value.
pub async fn device_logs(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.device(&id)?;
    let logs = call.store().logs().device_logs(&id).await.map_err(ApiError::internal)?;
    let body: Vec<DeviceLogJson> = logs
        .into_iter()
        .map(|log| DeviceLogJson {
            creation_date: (iso_8601_utc(log.creation_date * 1000), log.creation_date),
            pressure_map: serde_json::from_str::<serde_json::Value>(&log.pressure_map).unwrap_or(serde_json::Value::Null),
            posture: PostureJson {
                id: log.posture,
                certain: log.confidence >= f64::from(mat_core::machine::posture::CONFIDENT),
                confidence: log.confidence,
            },
            position: log.position,
            max_pressure: log.max_pressure,
        })
        .collect();
    Ok(ok(&body))
}

/// A device's presence entries: `logId` '1' entrance, '0' exit.
pub async fn presence_logs(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    let entries = alarms::presence(call.store(), &call.state.catalog, &device).await?;
    let body: Vec<PresenceJson> =
        entries.into_iter().map(|e| PresenceJson { device_id: e.device_id, creation_date: e.creation_date, log_id: e.log_id }).collect();
    Ok(ok(&body))
}

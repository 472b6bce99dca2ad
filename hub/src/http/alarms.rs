//! Alarms and logs: `GET /api/iotCheckAlarms/{serial}` ('True' or 'False'),
//! `GET` and `PUT /api/iotAlarms/{id}` (list, attend), `PUT /api/attendAlarm/{serial}` (attend by
//! sub-device serial, empty body), `GET /api/iotLogs/{id}`, `GET /api/presenceLogs/{id}`.
//!
//! A parent (room set, horse) answers for its sub-devices too: its alarms are theirs.

use std::sync::Arc;

use actors::actor::mat::MatMsg;
use actors::actor::storage_writer::WriterMsg;
use ractor::rpc::CallResult;
use mat_core::analysis::export::iso_8601_utc;
use actors::catalog::DeviceInfo;
use serde::Serialize;

use super::caller::Caller;
use super::error::ApiError;
use super::json::{ok, Oid};
use super::state::ACTOR_TIMEOUT;

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
}

/// An entrance (`logId` `'1'`) or exit (`'0'`).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresenceJson {
    pub device_id: String,
    pub creation_date: i64,
    pub log_id: String,
}

fn device_and_members(call: &Caller, device: &DeviceInfo) -> Vec<String> {
    let mut ids = vec![device.id.to_string()];
    ids.extend(device.members.iter().filter(|m| call.owns_device(m)).map(|m| m.to_string()));
    ids
}

/// `'True'` while the device (or one of its sub-devices) has an unattended alarm.
pub async fn check(serial: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device_by_serial(&serial)?;
    let ids = device_and_members(&call, &device);
    let pending = call.store().logs().has_unattended(&ids).await.map_err(ApiError::internal)?;
    Ok(ok(&if pending { AlarmCheck::True } else { AlarmCheck::False }))
}

/// The alarms of a device and its sub-devices, newest first.
pub async fn list(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    let mut alarms = Vec::new();
    for device_id in device_and_members(&call, &device) {
        for alarm in call.store().logs().alarms(&device_id).await.map_err(ApiError::internal)? {
            alarms.push(AlarmJson {
                id: Oid::new(&alarm.id),
                time_to_attend: alarm.attended_time.map(|t| t - alarm.creation_date),
                device_id: alarm.device_id,
                kind: alarm.kind,
                creation_date: alarm.creation_date,
                has_been_attended: alarm.has_been_attended,
                attended_time: alarm.attended_time,
            });
        }
    }
    alarms.sort_by_key(|a| std::cmp::Reverse(a.creation_date));
    Ok(ok(&alarms))
}

/// Attends through each device's alarm machine first: the machine attends what it holds and its
/// `AlarmAttended` records are the journal, written (a writer flush) before this answers. Then the
/// store attends what no machine holds (alarms of devices without an actor, or raised elsewhere).
/// The store was once written first and the actor's answer ignored: an actor that did not answer
/// in time kept an alarm the store called attended, and raised no alarm for the patient's next
/// absence (found by `hub/tests/kill_under_load.rs`, docs/reliability.md §2). A machine that does
/// not answer now fails the call, with nothing attended anywhere.
async fn attend_devices(call: &Caller, device: &DeviceInfo) -> Result<warp::reply::Response, ApiError> {
    let ids = device_and_members(call, device);
    let mut attended = 0;
    // Parents (horse, room set) have no actor of their own: `mat_actor` answers `None`.
    for id in &ids {
        let Some(handle) = call.state.mat_actor(&Arc::from(id.as_str())).await.map_err(ApiError::internal)? else { continue };
        match handle.actor.call(|reply| MatMsg::AttendAlarm { alarm: None, by: Some(Arc::from(call.user_id())), reply }, Some(ACTOR_TIMEOUT)).await {
            Ok(CallResult::Success(result)) => attended += result.unwrap_or(0),
            _ => return Err(ApiError::internal("the device's alarm machine did not answer")),
        }
    }
    match call.state.actors.writer.call(WriterMsg::Flush, Some(ACTOR_TIMEOUT)).await {
        Ok(CallResult::Success(Ok(()))) => {}
        _ => return Err(ApiError::internal("the attended alarms could not be stored")),
    }
    attended += call.store().logs().attend(&ids, call.user_id(), storage::unix_now()).await.map_err(ApiError::internal)?;
    Ok(ok(&Attended { attended }))
}

/// Attends every pending alarm of a device (and its sub-devices).
pub async fn attend(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    attend_devices(&call, &device).await
}

/// Attends every pending alarm of a (sub-)device given by serial; the body is empty.
pub async fn attend_by_serial(serial: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device_by_serial(&serial)?;
    attend_devices(&call, &device).await
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
            posture: PostureJson { id: log.posture, confidence: log.confidence },
            position: log.position,
            max_pressure: log.max_pressure,
        })
        .collect();
    Ok(ok(&body))
}

/// A device's presence entries: `logId` '1' entrance, '0' exit.
pub async fn presence_logs(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    let mut entries = Vec::new();
    for device_id in device_and_members(&call, &device) {
        for entry in call.store().logs().presence(&device_id).await.map_err(ApiError::internal)? {
            entries.push(PresenceJson { device_id: entry.device_id, creation_date: entry.creation_date, log_id: entry.log_id });
        }
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.creation_date));
    Ok(ok(&entries))
}

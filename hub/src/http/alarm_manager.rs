//! The company's alarm manager (IHE PCD-04), for administrators: `GET` and `PUT
//! /api/alarmManager` (settings, the hub-wide default, the link's state and the queue's counts),
//! `GET /api/alarmManager/deadLetters` and `POST /api/alarmManager/deadLetters/{id}/resend`.
//! Every change is audited, in the transaction of the change.

use mat_api::alarm_manager::{AlarmManagerInput, validate_alarm_manager};
use serde::Serialize;
use storage::repo::{AlarmManagerSettings, OutboxEntry};
use warp::Reply;
use warp::http::StatusCode;

use super::audit::Audit;
use super::caller::Admin;
use super::error::ApiError;
use super::json::ok;
use crate::alarm_manager::{Destination, LinkState, unix_ms};

/// The company's alarm manager as administrators see it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmManagerJson {
    /// The company's own manager, if set.
    pub settings: Option<AlarmManagerInput>,
    /// The hub-wide default (`--alarm-manager`, `mllp://` or `mllps://`), used while the company
    /// has no manager of its own.
    pub hub_default: Option<String>,
    /// Where the company's reports go now (`mllp://HOST:PORT`, `mllps://` over TLS), if anywhere.
    pub destination: Option<String>,
    /// The path to that manager.
    pub link: Option<LinkState>,
    /// Reports waiting for their ACK.
    pub pending: u64,
    /// Reports the manager refused (`AR`).
    pub dead_letters: u64,
    /// Where the hub listens for the manager's status reports (PCD-05, `mllp://HOST:PORT`, or
    /// `mllps://` when the listener speaks TLS), if it does.
    pub status_listener: Option<String>,
}

/// A report the manager refused.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeadLetterJson {
    /// The message control id (MSH-10).
    pub control_id: String,
    /// The alarm's id.
    pub alarm: String,
    /// `start`, `continue` or `end`.
    pub phase: String,
    /// When it was queued, Unix ms.
    pub created_ms: i64,
    pub attempts: i64,
    /// The manager's answer.
    pub last_error: Option<String>,
    /// The HL7 message, segments separated by carriage returns.
    pub message: String,
}

impl From<OutboxEntry> for DeadLetterJson {
    fn from(e: OutboxEntry) -> Self {
        DeadLetterJson {
            control_id: e.control_id,
            alarm: e.alarm,
            phase: e.phase,
            created_ms: e.created_ms,
            attempts: e.attempts,
            last_error: e.last_error,
            message: e.message,
        }
    }
}

fn input_of(s: AlarmManagerSettings) -> AlarmManagerInput {
    AlarmManagerInput {
        enabled: s.enabled,
        host: s.host,
        port: u32::try_from(s.port).unwrap_or(0),
        sending_application: s.sending_application,
        sending_facility: s.sending_facility,
        receiving_application: s.receiving_application,
        receiving_facility: s.receiving_facility,
        kinds: s.kinds,
        tls: s.tls,
        ca_pem: s.ca_pem,
    }
}

async fn view(call: &Admin) -> Result<AlarmManagerJson, ApiError> {
    let outbox = call.store().alarm_outbox();
    let store_error = |e| ApiError::store(e, "alarm manager", "duplicate");
    let settings = outbox.settings().await.map_err(store_error)?;
    let counts = outbox.counts().await.map_err(store_error)?;
    let reporter = &call.state.alarm_reporter;
    let route = crate::alarm_manager::destination::route(settings.as_ref(), reporter.hub_default());
    Ok(AlarmManagerJson {
        settings: settings.map(input_of),
        hub_default: reporter.default_destination().map(ToString::to_string),
        destination: route.as_ref().map(|r| r.destination.to_string()),
        link: route.map(|r| reporter.links.get(&r.destination)),
        pending: counts.pending,
        dead_letters: counts.dead,
        status_listener: reporter.status_listener.get().map(Destination::to_string),
    })
}

/// `GET /api/alarmManager`.
pub async fn get(call: Admin) -> Result<warp::reply::Response, ApiError> {
    Ok(ok(&view(&call).await?))
}

/// `PUT /api/alarmManager`: sets the company's manager.
pub async fn put(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let input: AlarmManagerInput = call.json().await?;
    validate_alarm_manager(&input)?;
    if input.tls {
        // The certificates themselves, read as the sender will read them.
        crate::alarm_manager::tls::roots(&input.ca_pem).map_err(|why| mat_api::Invalid::new("invalidAlarmManager", why))?;
    }
    let settings = AlarmManagerSettings {
        enabled: input.enabled,
        host: input.host.clone(),
        port: i64::from(input.port),
        sending_application: input.sending_application.clone(),
        sending_facility: input.sending_facility.clone(),
        receiving_application: input.receiving_application.clone(),
        receiving_facility: input.receiving_facility.clone(),
        kinds: input.kinds.clone(),
        tls: input.tls,
        ca_pem: input.ca_pem.clone(),
    };
    let company_id = call.claims().company_id.clone();
    let summary = format!(
        "alarm manager {}://{}:{} {} ({})",
        if input.tls { "mllps" } else { "mllp" },
        input.host,
        input.port,
        if input.enabled { "enabled" } else { "disabled" },
        if input.kinds.is_empty() { "no alarms".to_owned() } else { input.kinds.join(", ") }
    );
    let audit = Audit { company_id: &company_id, action: "alarmManager.update", entity_type: "company", entity_id: &company_id, summary }
        .entry(&call)
        .await;
    call.store().alarm_outbox().set_settings(&settings, &audit).await.map_err(|e| ApiError::store(e, "alarm manager", "duplicate"))?;
    call.state.alarm_reporter.wake();
    Ok(ok(&view(&call).await?))
}

/// `GET /api/alarmManager/deadLetters`: the reports the manager refused, newest first.
pub async fn dead_letters(call: Admin) -> Result<warp::reply::Response, ApiError> {
    let letters = call.store().alarm_outbox().dead_letters().await.map_err(|e| ApiError::store(e, "dead letter", "duplicate"))?;
    Ok(ok(&letters.into_iter().map(DeadLetterJson::from).collect::<Vec<_>>()))
}

/// `POST /api/alarmManager/deadLetters/{id}/resend`: queues a refused report again.
pub async fn resend(id: String, call: Admin) -> Result<warp::reply::Response, ApiError> {
    let company_id = call.claims().company_id.clone();
    let summary = format!("resent the refused alarm report {id}");
    let audit = Audit { company_id: &company_id, action: "alarmManager.resend", entity_type: "company", entity_id: &company_id, summary }
        .entry(&call)
        .await;
    call.store().alarm_outbox().resend(&id, unix_ms(), &audit).await.map_err(|e| ApiError::store(e, "dead letter", "duplicate"))?;
    call.state.alarm_reporter.wake();
    Ok(warp::reply::with_status(warp::reply(), StatusCode::NO_CONTENT).into_response())
}

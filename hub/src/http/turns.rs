//! Turns a nurse records (issue 23): `POST /api/device/{id}/turns` (when, new position; the
//! signed-in user is who) and `GET /api/device/{id}/turns` (the turn log, newest first). The
//! operations are `crate::domain::turns`'s.

use serde::Serialize;

use super::caller::Caller;
use super::error::ApiError;
use super::json::ok;
use crate::domain::turns;

/// A recorded turn.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TurnJson {
    /// When the patient was turned, Unix ms.
    pub at_ms: i64,
    /// When it was recorded, Unix ms.
    pub recorded_at_ms: i64,
    /// The position the patient was turned to.
    pub position: Option<String>,
    /// Who recorded it: the account's e-mail.
    pub by: Option<String>,
    /// The repositioning tier before the turn: `ok`, `dueSoon`, `due` or `overdue`.
    pub tier_before: String,
    /// How long the longest load had lasted at the turn, seconds.
    pub loaded_seconds: i64,
    /// The repositioning interval then, seconds.
    pub interval_seconds: i64,
    /// The repositioning clock detected the turn (a posture change or load shift held); no one
    /// recorded it.
    pub detected: bool,
}

/// What recording a turn answers.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TurnRecordedJson {
    /// When the patient was turned, Unix ms.
    pub at_ms: u64,
    /// The repositioning tier before the turn.
    pub tier_before: mat_core::machine::pressure_ulcer::RepositioningTier,
    /// How long the longest load had lasted at the turn, seconds.
    pub loaded_seconds: u64,
}

/// Records a turn of the patient on a device of the caller's company, by the caller.
pub async fn record(id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let input: mat_api::turn::TurnInput = call.json().await?;
    let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
    let checked = mat_api::turn::validate_turn(&input, now_ms)?;
    let device = call.device(&id)?;
    // The turn and its audit entry (`device.turn`) are written in one transaction by the storage
    // writer, which `turns::record` flushes before answering.
    let recorded = turns::record(&call.state, &device, call.user_id(), checked).await?;
    Ok(ok(&TurnRecordedJson { at_ms: recorded.at_ms, tier_before: recorded.tier_before, loaded_seconds: recorded.loaded_ms / 1000 }))
}

/// A device's turns, recorded and detected, newest first.
pub async fn list(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    let found = turns::turns(call.store(), &device).await?;
    let body: Vec<TurnJson> = found
        .into_iter()
        .map(|t| TurnJson {
            at_ms: t.at_ms,
            recorded_at_ms: t.recorded_at_ms,
            position: t.position,
            by: t.by,
            tier_before: t.tier_before,
            loaded_seconds: t.loaded_ms / 1000,
            interval_seconds: t.interval_ms / 1000,
            detected: t.detected,
        })
        .collect();
    Ok(ok(&body))
}

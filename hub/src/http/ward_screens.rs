//! Ward screens on a wall (issue 23, role 3; docs/decisions.md "A board on a wall"): an
//! administrator asks for a one-time pairing code for one unit (`POST /api/wardScreens`), the
//! wall screen sends it back (`POST /api/wardScreens/pair`, no token) and receives a board token
//! valid 30 days, which it renews while in use (`POST /api/wardScreens/renew`). Administrators
//! list their company's screens (`GET /api/wardScreens`) and unpair one
//! (`DELETE /api/wardScreen/{id}`): its tokens stop working at once and its open sockets close.
//! Pairing and unpairing are audited in the transaction that stores them.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use storage::CompanyStore;
use storage::model::NewAuditEntry;
use storage::repo::BoardScreen;
use warp::Reply;
use warp::http::StatusCode;

use super::audit::Audit;
use super::call::Call;
use super::caller::{Admin, BoardReader};
use super::error::ApiError;
use super::json::ok;
use super::state::AppState;
use crate::auth::board::{BOARD_RENEW_AFTER_SECS, BOARD_TOKEN_TTL_SECS};
use crate::auth::pairing::{PendingPairing, new_code};
use crate::auth::roles::ROLE_BOARD;
use crate::auth::token::{Claims, TokenSigner, unix_now};
use mat_core::compliance::unit_key;

/// Longest unit key accepted (the stored row asserts the same).
const UNIT_MAX_CHARS: usize = 300;

/// `POST /api/wardScreens` body: the unit the screen will show (its key, "building · floor").
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PairingRequest {
    pub unit: String,
}

/// A one-time pairing code, shown to the administrator and typed on the wall screen.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PairingCodeJson {
    /// 8 characters without look-alikes; any case, dashes and spaces are ignored when typed.
    pub code: String,
    pub unit: String,
    /// Unix seconds; the code is refused afterwards and once used.
    pub expires_at: u64,
}

/// `POST /api/wardScreens/pair` body.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PairRequest {
    pub code: String,
}

/// What a paired screen signs in with: its board token and what it shows.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BoardSessionJson {
    pub token: String,
    /// The screen's id (its tokens' user).
    pub screen_id: String,
    pub company_id: String,
    pub company_name: String,
    /// The unit it shows (its key, "building · floor").
    pub unit: String,
    /// Always 3 (board).
    pub role: i64,
    /// Unix seconds.
    pub expires_at: u64,
    /// Unix seconds: from then on the screen asks for a new token (`POST /api/wardScreens/renew`).
    pub renew_at: u64,
}

/// One paired screen, as administrators list them.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BoardScreenJson {
    pub id: String,
    pub unit: String,
    /// Unix seconds.
    pub paired_at: u64,
    pub paired_by_email: String,
    /// Unix seconds: the screen's last call (to within a few minutes).
    pub last_seen: u64,
    /// Not seen for longer than a board token lives: the screen must be paired again.
    pub expired: bool,
}

/// The devices of a unit (by the devices' building and floor) and their members: what a ward
/// screen may read.
pub async fn unit_devices(store: CompanyStore<'_>, unit: &str) -> Result<HashSet<Arc<str>>, storage::StoreError> {
    Ok(unit_scope(&store.devices().list().await?, unit))
}

/// Of one company's `devices`, those of `unit` and their members.
pub fn unit_scope(devices: &[storage::model::Device], unit: &str) -> HashSet<Arc<str>> {
    let in_unit: Vec<_> = devices.iter().filter(|d| unit_key(&d.building, &d.floor) == unit).collect();
    let mut scope: HashSet<Arc<str>> = in_unit.iter().map(|d| Arc::from(d.id.as_str())).collect();
    scope.extend(in_unit.iter().flat_map(|d| d.member_ids.iter().map(|m| Arc::from(m.as_str()))));
    scope
}

/// Writes a screen's last-seen time in the background (the board's reads do not wait for it).
pub fn store_last_seen(state: Arc<AppState>, company_id: String, screen_id: String, seen: u64) {
    tokio::spawn(async move {
        let seen = i64::try_from(seen).unwrap_or(i64::MAX);
        if let Err(error) = state.store.hub_wide().board_screens().of_company(&company_id).seen(&screen_id, seen).await {
            tracing::warn!(%error, "storing when a ward screen was last seen");
        }
    });
}

/// `POST /api/wardScreens` (administrators): a pairing code for one unit of their company, valid
/// five minutes.
pub async fn create_code(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let request: PairingRequest = call.json().await?;
    let unit = request.unit.trim().to_owned();
    if unit.is_empty() || unit.chars().count() > UNIT_MAX_CHARS {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalidUnit", "name the unit the screen shows (its building · floor)"));
    }
    let email = call.store().users().get(call.user_id()).await.map_err(ApiError::internal)?.map(|u| u.email).unwrap_or_default();
    let code = new_code();
    let pairing = PendingPairing {
        company_id: call.claims().company_id.clone(),
        unit: unit.clone(),
        issued_by: call.user_id().to_owned(),
        issued_by_email: email,
        expires_at: 0,
    };
    let issued = call.state.pairing_codes.lock().unwrap_or_else(|p| p.into_inner()).issue(&code, pairing, unix_now());
    let expires_at = issued.map_err(|_| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "tooManyPairingCodes",
            "too many pairing codes wait to be used; try again in a few minutes",
        )
    })?;
    Ok(warp::reply::with_status(warp::reply::json(&PairingCodeJson { code, unit, expires_at }), StatusCode::CREATED).into_response())
}

/// A board token for a screen, with its expiry and renewal time.
async fn board_session(state: &AppState, screen_id: &str, company_id: &str, unit: &str) -> Result<BoardSessionJson, ApiError> {
    let now = unix_now();
    let claims = Claims {
        token_id: TokenSigner::new_token_id(),
        user_id: screen_id.to_owned(),
        company_id: company_id.to_owned(),
        role: ROLE_BOARD,
        expires_at: now + BOARD_TOKEN_TTL_SECS,
    };
    let company = state.store.hub_wide().companies().get(company_id).await.map_err(ApiError::internal)?;
    Ok(BoardSessionJson {
        token: state.signer.issue(&claims),
        screen_id: screen_id.to_owned(),
        company_id: company_id.to_owned(),
        company_name: company.map(|c| c.company_name).unwrap_or_default(),
        unit: unit.to_owned(),
        role: ROLE_BOARD,
        expires_at: claims.expires_at,
        renew_at: now + BOARD_RENEW_AFTER_SECS,
    })
}

/// `POST /api/wardScreens/pair` (no token): a pairing code, once, for a board token. Wrong codes
/// are throttled per address like sign-ins (429 `tooManyAttempts`).
pub async fn pair(mut call: Call) -> Result<warp::reply::Response, ApiError> {
    let request: PairRequest = call.json().await?;
    let state = call.state.clone();
    let address = call.client_address();
    // The address's own account key: five wrong codes per address, twenty failures of any kind.
    let account = format!("pairing@{address}");
    if let Some(wait) = state.login_limiter.lock().unwrap_or_else(|p| p.into_inner()).check(&account, &address, Instant::now()) {
        let mut error = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "tooManyAttempts", "too many wrong pairing codes; try again later");
        error.retry_after = Some(wait.as_secs().max(1));
        return Err(error);
    }
    let now = unix_now();
    let claimed = state.pairing_codes.lock().unwrap_or_else(|p| p.into_inner()).claim(&request.code, now);
    let Some(pairing) = claimed else {
        tracing::info!(%address, "wrong ward screen pairing code");
        state.login_limiter.lock().unwrap_or_else(|p| p.into_inner()).failed(&account, &address, Instant::now());
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalidPairingCode", "this pairing code is unknown, used or expired"));
    };
    let screen_id = storage::new_id();
    let now_stored = i64::try_from(now).unwrap_or(i64::MAX);
    let screen = BoardScreen {
        id: screen_id.clone(),
        company_id: pairing.company_id.clone(),
        unit: pairing.unit.clone(),
        paired_at: now_stored,
        paired_by_email: pairing.issued_by_email.clone(),
        last_seen: now_stored,
    };
    let audit = NewAuditEntry {
        company_id: pairing.company_id.clone(),
        actor_user_id: pairing.issued_by.clone(),
        actor_email: pairing.issued_by_email.clone(),
        action: "boardScreen.pair".into(),
        entity_type: "boardScreen".into(),
        entity_id: screen_id.clone(),
        summary: format!("paired a ward screen to unit {} (board token, 30 days, renewed while in use)", pairing.unit),
    };
    let screens = state.store.hub_wide().board_screens();
    screens.of_company(&pairing.company_id).pair(&screen, &audit).await.map_err(ApiError::storage)?;
    state.board_screens.lock().unwrap_or_else(|p| p.into_inner()).pair(&screen_id, &pairing.company_id, &pairing.unit, now);
    Ok(ok(&board_session(&state, &screen_id, &pairing.company_id, &pairing.unit).await?))
}

/// `POST /api/wardScreens/renew` (a ward screen's token): a new board token for 30 more days.
/// A person's token is refused (403): people sign in.
pub async fn renew(call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    let Some(unit) = call.unit() else {
        return Err(ApiError::new(StatusCode::FORBIDDEN, "forbidden", "only a paired ward screen renews its board token"));
    };
    let claims = call.claims();
    Ok(ok(&board_session(&call.state, &claims.user_id, &claims.company_id, unit).await?))
}

/// `GET /api/wardScreens` (administrators): their company's paired screens.
pub async fn list(call: Admin) -> Result<warp::reply::Response, ApiError> {
    let screens = call.store().board_screens().list().await.map_err(ApiError::internal)?;
    let now = unix_now();
    let memory = call.state.board_screens.lock().unwrap_or_else(|p| p.into_inner());
    let body: Vec<BoardScreenJson> = screens
        .into_iter()
        .map(|s| {
            let stored = u64::try_from(s.last_seen).unwrap_or(0);
            let last_seen = memory.last_seen(&s.id).unwrap_or(stored).max(stored);
            BoardScreenJson {
                expired: last_seen + BOARD_TOKEN_TTL_SECS <= now,
                id: s.id,
                unit: s.unit,
                paired_at: u64::try_from(s.paired_at).unwrap_or(0),
                paired_by_email: s.paired_by_email,
                last_seen,
            }
        })
        .collect();
    Ok(ok(&body))
}

/// `DELETE /api/wardScreen/{id}` (administrators): unpairs a screen of their company, audited.
/// Its tokens are refused from now on (401 `screenUnpaired`) and its open sockets close.
pub async fn unpair(id: String, call: Admin) -> Result<warp::reply::Response, ApiError> {
    let screens = call.store().board_screens().list().await.map_err(ApiError::internal)?;
    let screen = screens.into_iter().find(|s| s.id == id).ok_or_else(|| ApiError::not_found("ward screen"))?;
    let company_id = call.claims().company_id.clone();
    let summary = format!("unpaired the ward screen of unit {}", screen.unit);
    let entry = Audit { company_id: &company_id, action: "boardScreen.unpair", entity_type: "boardScreen", entity_id: &id, summary }
        .entry(&call)
        .await;
    call.store().board_screens().unpair(&id, &entry).await.map_err(|e| ApiError::store(e, "ward screen", "duplicate"))?;
    call.state.board_screens.lock().unwrap_or_else(|p| p.into_inner()).unpair(&id);
    let sockets = call.state.board_sockets.lock().unwrap_or_else(|p| p.into_inner()).remove(&id).unwrap_or_default();
    for outbox in sockets {
        outbox.close(actors::fanout::CloseReason::Closed);
    }
    Ok(warp::reply::with_status(warp::reply(), StatusCode::NO_CONTENT).into_response())
}

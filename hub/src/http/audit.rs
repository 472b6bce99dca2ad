//! The audit log of administrative actions: what each handler records ([`Audit`]) and
//! `GET /api/auditLog/{page}` (administrators, their company's entries).
//!
//! Entries are written by the handler right after its change commits, except where the change
//! and its entry share one storage transaction (secret rotation; patient create, edit and delete;
//! analysis delete and notes edits: the handler builds the entry with [`Audit::entry`] and the
//! repository writes both or neither). A failure to write an entry after the fact is logged as an
//! error; the call still succeeds, as its change was made.
//! A turn a nurse records is audited by the storage writer in the turn's own transaction
//! (`storage::repo::logs::Logs::add_turn`).

use serde::Serialize;
use storage::model::{AuditEntry, NewAuditEntry};
use warp::http::StatusCode;

use super::caller::{Admin, Caller};
use super::error::ApiError;
use super::json::ok;

/// Entries per page of `GET /api/auditLog/{page}`.
pub const AUDIT_PAGE_SIZE: usize = 20;

/// What a handler did, to be recorded.
pub struct Audit<'a> {
    /// The company whose data changed.
    pub company_id: &'a str,
    /// `entity.verb`, for example `device.create`.
    pub action: &'static str,
    /// `company`, `user`, `device`, `patient` or `analysis`.
    pub entity_type: &'static str,
    pub entity_id: &'a str,
    /// A short description of the change; never a secret or a password.
    pub summary: String,
}

impl Audit<'_> {
    /// The entry, with the caller's id and e-mail (the acting company is the caller's, that of
    /// the store handle that records it).
    pub async fn entry(&self, caller: &Caller) -> NewAuditEntry {
        let email = match caller.store().users().get(caller.user_id()).await {
            Ok(Some(user)) => user.email,
            Ok(None) => String::new(),
            Err(error) => {
                tracing::warn!(%error, "reading the acting user's e-mail for the audit log");
                String::new()
            }
        };
        NewAuditEntry {
            company_id: self.company_id.to_owned(),
            actor_user_id: caller.user_id().to_owned(),
            actor_email: email,
            action: self.action.to_owned(),
            entity_type: self.entity_type.to_owned(),
            entity_id: self.entity_id.to_owned(),
            summary: self.summary.clone(),
        }
    }

    /// Records the entry after the change it describes.
    pub async fn record(self, caller: &Caller) {
        let entry = self.entry(caller).await;
        if let Err(error) = caller.store().audit().record(&entry).await {
            tracing::error!(%error, action = entry.action, entity = %entry.entity_id, "an administrative action could not be written to the audit log");
        }
    }
}

/// One entry as the admin page reads it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntryJson {
    pub id: String,
    /// Unix milliseconds.
    pub at: i64,
    pub user_id: String,
    pub user_email: String,
    pub action: String,
    pub entity_type: String,
    pub entity_id: String,
    pub company_id: String,
    pub summary: String,
}

impl From<AuditEntry> for AuditEntryJson {
    fn from(e: AuditEntry) -> Self {
        AuditEntryJson {
            id: e.id,
            at: e.created_at_ms,
            user_id: e.actor_user_id,
            user_email: e.actor_email,
            action: e.action,
            entity_type: e.entity_type,
            entity_id: e.entity_id,
            company_id: e.company_id,
            summary: e.summary,
        }
    }
}

/// A page of the audit log.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPageJson {
    pub entries: Vec<AuditEntryJson>,
    pub page: usize,
    pub per_page: usize,
    pub total: u64,
}

/// The last page accepted: beyond it the offset would not fit storage's integer.
pub const MAX_AUDIT_PAGE: u64 = i64::MAX as u64 / AUDIT_PAGE_SIZE as u64;

/// `{page}` of the audit log: from 1.
pub fn page_number_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "integer", "minimum": 1, "maximum": MAX_AUDIT_PAGE })
}

/// `GET /api/auditLog/{page}`: page (from 1) of the entries about or by the caller's company.
pub async fn list(page: String, call: Admin) -> Result<warp::reply::Response, ApiError> {
    let page: usize = page
        .parse()
        .ok()
        .filter(|p| *p >= 1 && *p as u64 <= MAX_AUDIT_PAGE)
        .ok_or_else(|| ApiError::new(StatusCode::BAD_REQUEST, "invalidPage", "{page} is a page number from 1"))?;
    let found = call.store().audit().page(page - 1, AUDIT_PAGE_SIZE).await.map_err(ApiError::internal)?;
    Ok(ok(&AuditPageJson {
        entries: found.entries.into_iter().map(AuditEntryJson::from).collect(),
        page,
        per_page: AUDIT_PAGE_SIZE,
        total: found.total,
    }))
}

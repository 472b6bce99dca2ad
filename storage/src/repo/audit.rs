//! The `audit_log` table: administrative actions, who did them and when. Entries are only ever
//! added; a company's administrators read those about their company and those their company's
//! users made elsewhere.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::error::checked;
use crate::model::{AuditEntry, AuditPage, NewAuditEntry};
use crate::retry::retrying;

/// Longest summary kept, in characters; longer ones are cut (the schema asserts 300).
pub const AUDIT_SUMMARY_MAX: usize = 300;
/// Most entries one page returns.
pub const AUDIT_PAGE_MAX: usize = 100;

/// The statement that appends the entry bound as `$audit` (with `$audit_at`, Unix ms, and
/// `$actor_company`, the company of the handle that records it): repositories
/// put it inside the transaction of the change it records, so both are written or neither.
pub(crate) const CREATE_AUDIT: &str = "CREATE audit_log SET company = type::record('company', $audit.company_id), \
    actor_company = type::record('company', $actor_company), actor_user_id = $audit.actor_user_id, \
    actor_email = $audit.actor_email, action = $audit.action, entity_type = $audit.entity_type, \
    entity_id = $audit.entity_id, summary = $audit.summary, created_at_ms = $audit_at;";

const FIELDS: &str = "record::id(id) AS id, record::id(company) AS company_id, actor_user_id, actor_email, action, \
    entity_type, entity_id, summary, created_at_ms";

/// The entry with its summary cut to [`AUDIT_SUMMARY_MAX`] characters.
pub(crate) fn bounded(entry: &NewAuditEntry) -> NewAuditEntry {
    NewAuditEntry { summary: entry.summary.chars().take(AUDIT_SUMMARY_MAX).collect(), ..entry.clone() }
}

/// Binds what [`CREATE_AUDIT`] reads to `query`: the entry (its summary bounded), the company of
/// the handle that records it, and now. One binder for every transaction that audits its change.
pub(crate) trait BindAudit {
    fn bind_audit(self, actor_company: &str, entry: &NewAuditEntry) -> Self;
}

impl<C: surrealdb::Connection> BindAudit for surrealdb::method::Query<'_, C> {
    fn bind_audit(self, actor_company: &str, entry: &NewAuditEntry) -> Self {
        self.bind(("actor_company", actor_company.to_owned())).bind(("audit", bounded(entry))).bind(("audit_at", now_ms()))
    }
}

/// Unix milliseconds now.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

#[derive(SurrealValue)]
struct Count {
    count: i64,
}

/// The audit log as one company's administrators write and read it.
pub struct AuditLog<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl AuditLog<'_> {
    /// Appends an entry on its own (for actions whose change is written elsewhere first), acted
    /// by a user of this handle's company; `entry.company_id` is the company whose data changed.
    pub async fn record(&self, entry: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self.db.query(CREATE_AUDIT).bind_audit(self.company, entry).await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Page `page` (0-based, `per_page` entries, at most [`AUDIT_PAGE_MAX`]) of the entries the
    /// company's administrators may read, newest first.
    pub async fn page(&self, page: usize, per_page: usize) -> Result<AuditPage, StoreError> {
        let per_page = per_page.clamp(1, AUDIT_PAGE_MAX);
        let mut response = self
            .db
            .query(format!(
                "LET $c = type::record('company', $company);
                 SELECT {FIELDS} FROM audit_log WHERE company = $c OR actor_company = $c
                    ORDER BY created_at_ms DESC, id DESC LIMIT $limit START $start;
                 SELECT count() AS count FROM audit_log WHERE company = $c OR actor_company = $c GROUP ALL;"
            ))
            .bind(("company", self.company.to_owned()))
            .bind(("limit", per_page as i64))
            .bind(("start", (page * per_page) as i64))
            .await?;
        let entries: Vec<AuditEntry> = response.take(1)?;
        let total = response.take::<Vec<Count>>(2)?.into_iter().next().map(|c| c.count.max(0) as u64).unwrap_or(0);
        Ok(AuditPage { entries, total })
    }
}

//! The `board_screen` table: ward screens paired to one unit of a company (issue 23, role 3).
//! Pairing and unpairing write the row and their audit entry in one transaction; the hub holds
//! the same rows in memory (`hub::auth::board`) and reloads them at start-up.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use super::audit::{BindAudit, CREATE_AUDIT};
use crate::StoreError;
use crate::error::checked;
use crate::model::NewAuditEntry;
use crate::retry::retrying;

/// One paired screen.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct BoardScreen {
    pub id: String,
    pub company_id: String,
    /// The unit's key (building · floor) the screen shows.
    pub unit: String,
    /// Unix seconds.
    pub paired_at: i64,
    /// The administrator who asked for the pairing code.
    pub paired_by_email: String,
    /// Unix seconds; written at most every few minutes.
    pub last_seen: i64,
}

const FIELDS: &str = "record::id(id) AS id, record::id(company) AS company_id, unit, paired_at, paired_by_email, last_seen";

/// One company's paired screens.
pub struct BoardScreens<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl BoardScreens<'_> {
    /// Stores a newly paired screen and its audit entry in one transaction.
    pub async fn pair(&self, screen: &BoardScreen, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     CREATE type::record('board_screen', $s.id) SET company = type::record('company', $company), unit = $s.unit,
                        paired_at = $s.paired_at, paired_by_email = $s.paired_by_email, last_seen = $s.last_seen;
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("s", screen.clone()))
                .bind(("company", self.company.to_owned()))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// The company's paired screens, the most recently paired first.
    pub async fn list(&self) -> Result<Vec<BoardScreen>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM board_screen WHERE company = type::record('company', $company) ORDER BY paired_at DESC, id"
            ))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }

    /// Unpairs a screen and records `audit` in one transaction; `NotFound` for an unknown screen
    /// or another company's.
    pub async fn unpair(&self, id: &str, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $deleted = (DELETE type::record('board_screen', $id) WHERE company = type::record('company', $company) RETURN BEFORE);
                     IF array::len($deleted) = 0 {{ THROW 'notFound' }};
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Records when a screen was last seen (Unix seconds).
    pub async fn seen(&self, id: &str, last_seen: i64) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(
                    "UPDATE type::record('board_screen', $id) SET last_seen = $last_seen WHERE company = type::record('company', $company)",
                )
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("last_seen", last_seen))
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }
}

/// Every company's paired screens, read once at start-up.
pub struct HubBoardScreens<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl<'a> HubBoardScreens<'a> {
    /// The screens of the company that a one-time pairing code or a verified board token names:
    /// the pairing route has no caller yet, and a screen's last-seen writes run after its request.
    pub fn of_company(&self, company_id: &'a str) -> BoardScreens<'a> {
        BoardScreens { db: self.db, company: company_id }
    }

    /// All paired screens.
    pub async fn all(&self) -> Result<Vec<BoardScreen>, StoreError> {
        let mut response = self.db.query(format!("SELECT {FIELDS} FROM board_screen")).await?;
        Ok(response.take(0)?)
    }
}

//! The schema, applied once per version, safely when several hubs start together on one server.
//!
//! `schema.surql` is idempotent (`DEFINE … IF NOT EXISTS`), but run statement by statement, two
//! hubs starting at the same moment against an empty SurrealDB server can each define part of it
//! and the second can fail on a transaction conflict. So it runs as **one transaction** that also
//! records the schema's fingerprint (`schema_version:current`):
//! - whichever hub commits first applies the whole schema; a hub whose transaction conflicts
//!   wrote nothing, and is run again ([`crate::retry::retrying`]) — by then the fingerprint is
//!   there and it applies nothing;
//! - a hub that finds the fingerprint of its own schema skips it (a restart, the second hub);
//! - a hub with a newer schema (an upgrade) applies it, the new statements only taking effect.

use sha2::{Digest, Sha256};
use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use crate::StoreError;
use crate::error::checked;
use crate::retry::retrying;

/// The hub's schema.
pub const SCHEMA: &str = include_str!("schema.surql");

/// The fingerprint recorded with a schema: SHA-256 of its text, in hex.
pub fn fingerprint(schema: &str) -> String {
    Sha256::digest(schema.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// `schema` with its fingerprint, as one transaction.
fn transaction(schema: &str) -> String {
    format!(
        "BEGIN TRANSACTION;\n{schema}\nDEFINE TABLE IF NOT EXISTS schema_version SCHEMALESS;\n\
         UPSERT schema_version:current SET fingerprint = $fingerprint, applied_at = time::now();\nCOMMIT TRANSACTION;"
    )
}

/// The fingerprint of the schema the database holds; `None` before any was applied (the table
/// does not exist yet, which some engines answer with an error).
pub(crate) async fn applied(db: &Surreal<Any>) -> Option<String> {
    let mut response = db.query("SELECT VALUE fingerprint FROM schema_version:current").await.ok()?;
    response.take::<Vec<String>>(0).ok()?.into_iter().next()
}

/// Applies `schema` unless the database already holds it; true when this call applied it.
pub(crate) async fn apply(db: &Surreal<Any>, schema: &str) -> Result<bool, StoreError> {
    let wanted = fingerprint(schema);
    retrying(|| {
        let wanted = wanted.clone();
        async move {
            if applied(db).await.as_deref() == Some(wanted.as_str()) {
                return Ok(false);
            }
            checked(db.query(transaction(schema)).bind(("fingerprint", wanted)).await?)?;
            Ok(true)
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_follows_the_text() {
        assert_eq!(fingerprint(SCHEMA), fingerprint(SCHEMA));
        assert_ne!(fingerprint(SCHEMA), fingerprint(&format!("{SCHEMA}\n-- one more line")));
        assert_eq!(fingerprint("").len(), 64);
    }

    #[tokio::test]
    async fn applied_once_then_skipped_and_a_new_version_is_applied() {
        let db = surrealdb::engine::any::connect("mem://").await.unwrap();
        db.use_ns("t").use_db("t").await.unwrap();
        assert!(apply(&db, SCHEMA).await.unwrap(), "a fresh database gets the schema");
        assert!(!apply(&db, SCHEMA).await.unwrap(), "the same schema is not applied twice");
        let newer = format!("{SCHEMA}\nDEFINE TABLE IF NOT EXISTS newer_table SCHEMAFULL;");
        assert!(apply(&db, &newer).await.unwrap(), "a changed schema is applied");
        let mut tables = db.query("INFO FOR DB").await.unwrap();
        let info: Option<serde_json::Value> = tables.take(0).unwrap();
        let text = info.map(|i| i.to_string()).unwrap_or_default();
        assert!(text.contains("newer_table") && text.contains("company"), "{text}");
    }

    #[tokio::test]
    async fn a_failing_schema_applies_nothing() {
        let db = surrealdb::engine::any::connect("mem://").await.unwrap();
        db.use_ns("t").use_db("t").await.unwrap();
        let broken = "DEFINE TABLE IF NOT EXISTS half_table SCHEMAFULL;\nTHROW 'broken';";
        assert!(apply(&db, broken).await.is_err());
        assert_eq!(applied(&db).await, None, "no fingerprint without the schema");
        let mut tables = db.query("INFO FOR DB").await.unwrap();
        let info: Option<serde_json::Value> = tables.take(0).unwrap();
        assert!(!info.map(|i| i.to_string()).unwrap_or_default().contains("half_table"), "the transaction was rolled back whole");
    }
}

//! The `revoked_token` table: ids of bearer tokens revoked at logout, each kept until the token
//! would have expired anyway.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::error::checked;
use crate::retry::retrying;

/// A revoked token id and when the token expires (Unix seconds).
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct RevokedToken {
    pub id: String,
    pub expires_at: i64,
}

/// Revoked-token queries.
pub struct RevokedTokens<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl RevokedTokens<'_> {
    /// Records a revoked token id (revoking twice is harmless).
    pub async fn revoke(&self, token_id: &str, expires_at: i64) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query("UPSERT type::record('revoked_token', $id) SET expires_at = $expires_at")
                .bind(("id", token_id.to_owned()))
                .bind(("expires_at", expires_at))
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Forgets the tokens expired at `now` (Unix seconds) and returns the others.
    pub async fn unexpired(&self, now: i64) -> Result<Vec<RevokedToken>, StoreError> {
        // Hubs starting together on one server delete the same expired tokens: retried, and
        // checked (an error of the DELETE is not lost behind the SELECT's answer).
        retrying(|| async move {
            let mut response = checked(
                self.db
                    .query(
                        "DELETE revoked_token WHERE expires_at <= $now;
                         SELECT record::id(id) AS id, expires_at FROM revoked_token WHERE expires_at > $now;",
                    )
                    .bind(("now", now))
                    .await?,
            )?;
            Ok(response.take(1)?)
        })
        .await
    }
}

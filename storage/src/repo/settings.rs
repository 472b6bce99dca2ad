//! The `hub_setting` table: small hub-wide values by key.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;

#[derive(SurrealValue)]
struct Row {
    content: String,
}

/// Setting queries.
pub struct Settings<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl Settings<'_> {
    /// The value of `key`.
    pub async fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        let mut response = self.db.query("SELECT content FROM type::record('hub_setting', $key)").bind(("key", key.to_owned())).await?;
        Ok(response.take::<Vec<Row>>(0)?.into_iter().next().map(|r| r.content))
    }

    /// The value of `key`, set to `make()` first if it has none. Concurrent first calls agree on
    /// one value: the create fails for the loser, who then reads the winner's.
    pub async fn get_or_init(&self, key: &str, make: impl FnOnce() -> String) -> Result<String, StoreError> {
        if let Some(value) = self.get(key).await? {
            return Ok(value);
        }
        let created = self
            .db
            .query("CREATE type::record('hub_setting', $key) SET content = $value")
            .bind(("key", key.to_owned()))
            .bind(("value", make()))
            .await?
            .check();
        if let Err(error) = created {
            tracing::debug!(%error, key, "setting created concurrently");
        }
        self.get(key).await?.ok_or(StoreError::NotFound)
    }
}

//! The hub's storage: SurrealDB schema, typed repositories, and the one [`Store`] handle.
//!
//! A store is opened from a URL: `surrealkv://DIR` (embedded, the default), `mem://` (tests).
//! Its queries are reached through two handles: [`Store::company`] (a [`CompanyStore`]: company
//! data, every query filtered on that company in SurrealQL, so isolation between companies does
//! not depend on the HTTP layer) and [`Store::hub_wide`] (a [`HubWide`]: what is not one
//! company's data or spans them all). This crate knows nothing about actors or HTTP.

pub mod device_secret;
mod error;
mod ids;
pub mod model;
pub mod password;
pub mod repo;
pub mod retry;
mod scope;

pub use error::StoreError;
pub use ids::new_id;
pub use scope::{CompanyStore, HubWide};

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

const SCHEMA: &str = include_str!("schema.surql");
const NAMESPACE: &str = "pressure";
const DATABASE: &str = "hub";

/// A handle on the database; cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    db: Surreal<Any>,
}

impl Store {
    /// Opens (creating if needed) the database at `url` and applies the schema.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let db = surrealdb::engine::any::connect(url).await.map_err(|e| StoreError::Open(url.to_owned(), e.to_string()))?;
        db.use_ns(NAMESPACE).use_db(DATABASE).await.map_err(StoreError::from)?;
        db.query(SCHEMA).await.map_err(StoreError::from)?.check().map_err(StoreError::from)?;
        Ok(Store { db })
    }

    /// An embedded store in `dir` (SurrealKV files).
    pub async fn open_dir(dir: &std::path::Path) -> Result<Store, StoreError> {
        Store::open(&format!("surrealkv://{}", dir.display())).await
    }

    /// A fresh in-memory store, for tests.
    pub async fn memory() -> Result<Store, StoreError> {
        Store::open("mem://").await
    }

    /// The data of one company: every repository of this handle filters on `company_id` in
    /// SurrealQL, so a foreign id is `NotFound` or an empty list, never another company's row.
    /// The hub's HTTP handlers get it only from the verified caller (`Caller::store`).
    pub fn company<'a>(&'a self, company_id: &'a str) -> CompanyStore<'a> {
        CompanyStore { db: &self.db, company: company_id }
    }

    /// The queries that are not about one company's data, or that span every company: sign-in
    /// by e-mail, device lookup by serial, start-up loads, provisioning, hub settings and
    /// revoked tokens. Kept apart so each use is visible (the hub's HTTP handlers may use it
    /// only where `hub/tests/isolation.rs` allows).
    pub fn hub_wide(&self) -> HubWide<'_> {
        HubWide { db: &self.db }
    }
}

/// Unix seconds now.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod isolation_tests;

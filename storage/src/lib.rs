//! The hub's storage: SurrealDB schema, typed repositories, and the one [`Store`] handle.
//!
//! A store is opened from a URL: `surrealkv://DIR` (embedded, the default), `mem://` (tests).
//! Every query that reads or changes company data takes the caller's company id and filters on
//! it in SurrealQL, so isolation between companies does not depend on the HTTP layer. This
//! crate knows nothing about actors or HTTP.

pub mod device_secret;
mod error;
mod ids;
pub mod model;
pub mod password;
pub mod repo;

pub use error::StoreError;
pub use ids::new_id;

use surrealdb::engine::any::Any;
use surrealdb::Surreal;

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

    /// Companies.
    pub fn companies(&self) -> repo::Companies<'_> {
        repo::Companies { db: &self.db }
    }

    /// Users.
    pub fn users(&self) -> repo::Users<'_> {
        repo::Users { db: &self.db }
    }

    /// Devices.
    pub fn devices(&self) -> repo::Devices<'_> {
        repo::Devices { db: &self.db }
    }

    /// Device configurations.
    pub fn device_confs(&self) -> repo::DeviceConfs<'_> {
        repo::DeviceConfs { db: &self.db }
    }

    /// Patients and each user's selected patient.
    pub fn patients(&self) -> repo::Patients<'_> {
        repo::Patients { db: &self.db }
    }

    /// Analysis records.
    pub fn analyses(&self) -> repo::Analyses<'_> {
        repo::Analyses { db: &self.db }
    }

    /// Per-user layout settings.
    pub fn layouts(&self) -> repo::Layouts<'_> {
        repo::Layouts { db: &self.db }
    }

    /// Device, presence and alarm logs.
    pub fn logs(&self) -> repo::Logs<'_> {
        repo::Logs { db: &self.db }
    }

    /// The audit log of administrative actions.
    pub fn audit(&self) -> repo::AuditLog<'_> {
        repo::AuditLog { db: &self.db }
    }

    /// Bearer tokens revoked at logout.
    pub fn revoked_tokens(&self) -> repo::RevokedTokens<'_> {
        repo::RevokedTokens { db: &self.db }
    }

    /// Hub-wide settings (the token signing key, …).
    pub fn settings(&self) -> repo::Settings<'_> {
        repo::Settings { db: &self.db }
    }
}

/// Unix seconds now.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests;

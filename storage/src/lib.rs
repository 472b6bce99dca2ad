//! The hub's storage: SurrealDB schema, typed repositories, and the one [`Store`] handle.
//!
//! A store is opened from a URL: `surrealkv://DIR` (embedded, the default), `mem://` (tests), or
//! `ws://HOST:PORT` / `wss://HOST:PORT`, a SurrealDB server several hubs share (signed in as its
//! root user, [`Credentials`]; docs/scale-out.md). One code path for all of them: the `any`
//! engine picks the engine from the URL's scheme.
//! Its queries are reached through two handles: [`Store::company`] (a [`CompanyStore`]: company
//! data, every query filtered on that company in SurrealQL, so isolation between companies does
//! not depend on the HTTP layer) and [`Store::hub_wide`] (a [`HubWide`]: what is not one
//! company's data or spans them all). This crate knows nothing about actors or HTTP.

pub mod backup;
mod credentials;
pub mod device_secret;
mod error;
mod ids;
pub mod model;
pub mod password;
pub mod repo;
pub mod retry;
pub mod schema;
mod scope;
pub mod server_tls;

pub use credentials::{Credentials, HalfCredentials};
pub use error::StoreError;
pub use ids::new_id;
pub use scope::{CompanyStore, HubWide};

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

const NAMESPACE: &str = "pressure";
const DATABASE: &str = "hub";

/// A handle on the database; cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    db: Surreal<Any>,
}

impl Store {
    /// Opens (creating if needed) the embedded database at `url` and applies the schema.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::connect(url, None).await
    }

    /// Opens the database at `url`, signed in as `credentials` on a server (`ws://`, `wss://`),
    /// and applies the schema unless it is there already ([`schema`]: once, in one transaction,
    /// by whichever hub comes first).
    pub async fn connect(url: &str, credentials: Option<&Credentials>) -> Result<Store, StoreError> {
        Store::connect_trusting(url, credentials, None).await
    }

    /// [`Self::connect`], a `wss://` server's certificate checked against the private
    /// certificate authority in the PEM file `ca` (`HUB_DATABASE_CA`) instead of the public web
    /// roots ([`server_tls`]: every `wss://` connection gets its configuration there; a `ca`
    /// with a URL that is not `wss://` is refused).
    pub async fn connect_trusting(url: &str, credentials: Option<&Credentials>, ca: Option<&std::path::Path>) -> Result<Store, StoreError> {
        let opened = |e: surrealdb::Error| StoreError::Open(url.to_owned(), e.to_string());
        let db = match server_tls::config_for(url, ca)? {
            Some(tls) => surrealdb::engine::any::connect((url, surrealdb::opt::Config::new().rustls(tls))).await.map_err(opened)?,
            None => surrealdb::engine::any::connect(url).await.map_err(opened)?,
        };
        if let Some(login) = credentials.filter(|_| is_server(url)) {
            db.signin(surrealdb::opt::auth::Root { username: login.user.clone(), password: login.pass.clone() }).await.map_err(opened)?;
        }
        // On a server, the first use defines the namespace and the database: hubs starting
        // together can conflict there too.
        retry::retrying(|| async { Ok(db.use_ns(NAMESPACE).use_db(DATABASE).await?) }).await?;
        schema::apply(&db, schema::SCHEMA).await?;
        Ok(Store { db })
    }

    /// Asks the database a trivial question (`RETURN true`): whether it answers now (the hub's
    /// health probe, `hub::health`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.db.query("RETURN true").await?.check()?;
        Ok(())
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
        CompanyStore { db: &self.db, company: company_id, fence: None }
    }

    /// The queries that are not about one company's data, or that span every company: sign-in
    /// by e-mail, device lookup by serial, start-up loads, provisioning, hub settings and
    /// revoked tokens. Kept apart so each use is visible (the hub's HTTP handlers may use it
    /// only where `hub/tests/isolation.rs` allows).
    pub fn hub_wide(&self) -> HubWide<'_> {
        HubWide { db: &self.db }
    }
}

/// Whether `url` names a SurrealDB server rather than an embedded store.
pub fn is_server(url: &str) -> bool {
    ["ws://", "wss://", "http://", "https://"].iter().any(|scheme| url.starts_with(scheme))
}

/// Unix seconds now.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod isolation_tests;

#[cfg(test)]
mod fence_tests;

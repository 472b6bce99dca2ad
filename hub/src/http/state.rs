//! What every HTTP handler can reach.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use actors::actor::hub::HubRefs;
use actors::catalog::Catalog;
use actors::fanout::Bus;
use actors::metrics::HubMetrics;
use storage::Store;

use crate::auth::rate_limit::LoginLimiter;
use crate::auth::token::TokenSigner;
use crate::ingest::IngestContext;

/// Shared state of the HTTP server.
pub struct AppState {
    pub store: Store,
    pub signer: TokenSigner,
    pub token_ttl_secs: u64,
    pub catalog: Arc<Catalog>,
    pub bus: Arc<Bus>,
    pub metrics: Arc<HubMetrics>,
    pub actors: HubRefs,
    pub ingest: Arc<IngestContext>,
    pub client_dir: PathBuf,
    /// Failed sign-ins per account and address.
    pub login_limiter: Mutex<LoginLimiter>,
}

//! What every HTTP handler can reach.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use actors::actor::hub::HubRefs;
use actors::catalog::Catalog;
use actors::fanout::Bus;
use actors::live_board::LiveBoard;
use actors::metrics::HubMetrics;
use storage::Store;

use crate::auth::board::BoardScreens;
use crate::auth::pairing::PairingCodes;
use crate::auth::rate_limit::LoginLimiter;
use crate::auth::revocation::RevokedTokens;
use crate::auth::token::TokenSigner;
use crate::ingest::IngestContext;

/// Shared state of the HTTP server.
pub struct AppState {
    pub store: Store,
    pub signer: TokenSigner,
    pub token_ttl_secs: u64,
    pub catalog: Arc<Catalog>,
    /// Browser sessions' channels (the socket joins them).
    pub bus: Arc<Bus>,
    /// The devices' live state: statuses and latest maps, typed.
    pub board: Arc<LiveBoard>,
    pub metrics: Arc<HubMetrics>,
    pub actors: HubRefs,
    pub ingest: Arc<IngestContext>,
    pub client_dir: PathBuf,
    /// Failed sign-ins per account and address.
    pub login_limiter: Mutex<LoginLimiter>,
    /// Token ids revoked at logout (also in storage).
    pub revoked_tokens: Mutex<RevokedTokens>,
    /// Paired ward screens (also in storage): a board token is valid while its screen is here.
    pub board_screens: Mutex<BoardScreens>,
    /// One-time pairing codes waiting for their screen (memory only, minutes long).
    pub pairing_codes: Mutex<PairingCodes>,
    /// The open sockets of each paired screen, closed when it is unpaired.
    pub board_sockets: Mutex<std::collections::HashMap<String, Vec<Arc<actors::fanout::Outbox>>>>,
    /// IHE PCD-04: the alarm reports' queue, the hub-wide default manager and the links' state.
    pub alarm_reporter: Arc<crate::alarm_manager::AlarmReporter>,
    /// How the HTTP listener serves (the FHIR interface's absolute URLs name it).
    pub http_scheme: crate::config::HttpScheme,
    /// The cluster this hub joined (`--nats`), or none for a hub on its own.
    pub cluster: Option<crate::cluster::Cluster>,
}

/// How long a handler waits for the registry or a device actor.
pub const ACTOR_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

//! Starting and stopping the hub: storage, actors, QUIC and HTTP listeners, demo simulators.
//!
//! [`start`] binds everything (port 0 works, for tests) and returns a [`RunningHub`] with the
//! real addresses; [`RunningHub::shutdown`] stops it in order and flushes pending writes.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use actors::actor::hub::{self, HubArgs, HubRefs};
use actors::actor::registry::RegistryMsg;
use actors::actor::storage_writer::WriterMsg;
use actors::catalog::Catalog;
use actors::fanout::Bus;
use actors::live_board::LiveBoard;
use actors::metrics::HubMetrics;
use anyhow::Context;
use storage::Store;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::alarm_manager::AlarmReporter;
use crate::auth::board::BoardScreens;
use crate::auth::revocation::RevokedTokens;
use crate::auth::token::TokenSigner;
use crate::catalog_load::{ClusterWriting, StoreStatuses, load_catalog};
use crate::cluster::Cluster;
use crate::cluster::fence::Fencing;
use crate::cluster::fenced_records::row_batches;
use crate::cluster::lease_keeper::LeaseKeeper;
use crate::config::{HttpScheme, ServeConfig};
use crate::http::state::AppState;
use crate::ingest::IngestContext;
use crate::{alarm_manager, cluster, demo, http, ingest, tls};

/// A started hub.
pub struct RunningHub {
    /// The bound HTTP address.
    pub http_addr: SocketAddr,
    /// Whether it serves HTTPS or plain HTTP.
    pub http_scheme: HttpScheme,
    /// The bound QUIC address.
    pub quic_addr: SocketAddr,
    /// The QUIC certificate (PEM) devices should trust.
    pub cert_path: PathBuf,
    /// The store, for tests and maintenance.
    pub store: Store,
    /// The device catalogue.
    pub catalog: Arc<Catalog>,
    /// Counters.
    pub metrics: Arc<HubMetrics>,
    /// The actor tree.
    pub actors: HubRefs,
    /// The devices' live state (what REST answers with), for tests.
    pub board: Arc<LiveBoard>,
    /// The sessions' bus (what the browsers hear), for tests.
    pub bus: Arc<actors::fanout::Bus>,
    /// The cluster this hub joined (`--nats`), or none for a hub on its own.
    pub cluster: Option<Cluster>,
    /// Cluster mode: this hub's device leases.
    pub leases: Option<Arc<LeaseKeeper>>,
    stop: watch::Sender<bool>,
    failed: watch::Receiver<Option<String>>,
    endpoint: quinn::Endpoint,
    tasks: Vec<JoinHandle<()>>,
}

/// Opens storage, seeds demo data if asked, starts the actors and binds the listeners.
pub async fn start(config: ServeConfig) -> anyhow::Result<RunningHub> {
    config.check_backup()?;
    let store = open_store(&config).await?;
    start_with_store(config, store).await
}

/// Opens the configured database: the embedded store in the data directory (created if needed),
/// or `--database`'s URL, signed in with the configured credentials on a server.
pub async fn open_store(config: &ServeConfig) -> anyhow::Result<Store> {
    let url = config.database_url();
    if config.database.is_none() {
        std::fs::create_dir_all(&config.data).with_context(|| format!("creating the data directory {}", config.data.display()))?;
    }
    if config.database_is_server() && config.database_credentials.is_none() {
        anyhow::bail!("--database {url} is a server: set HUB_DATABASE_USER and HUB_DATABASE_PASS");
    }
    Store::connect_trusting(&url, config.database_credentials.as_ref(), config.database_ca.as_deref())
        .await
        .with_context(|| format!("opening the database {url}"))
}

/// The storage writer's own connection to a database server, so that its transactions and the
/// rest of the hub's queries run side by side there: a SurrealDB server runs the requests of one
/// connection in one task, so on a shared connection a history page waited behind the writer's
/// transactions after a hub's death (docs/scale-out.md). The embedded store is shared as it is.
async fn writer_connection(config: &ServeConfig, store: &Store) -> anyhow::Result<Store> {
    if config.database_is_server() { open_store(config).await.context("the storage writer's connection") } else { Ok(store.clone()) }
}

/// [`start`] on an already opened store (tests seed an in-memory store first).
pub async fn start_with_store(config: ServeConfig, store: Store) -> anyhow::Result<RunningHub> {
    let http_scheme = config.http_scheme()?;
    config.check_backup()?;
    std::fs::create_dir_all(&config.data).with_context(|| format!("creating the data directory {}", config.data.display()))?;
    let key = store.hub_wide().settings().get_or_init("token_key", TokenSigner::generate_key).await.context("reading the token key")?;
    let signer = TokenSigner::from_stored(&key).map_err(|e| anyhow::anyhow!("the stored token key is unusable: {e}"))?;
    let revoked =
        store.hub_wide().revoked_tokens().unexpired(crate::auth::token::unix_now() as i64).await.context("reading revoked tokens")?;
    let revoked_tokens = RevokedTokens::from_stored(revoked.into_iter().map(|t| (t.id, u64::try_from(t.expires_at).unwrap_or(0))));
    let screens = store.hub_wide().board_screens().all().await.context("reading paired ward screens")?;
    let board_screens =
        BoardScreens::from_stored(screens.into_iter().map(|s| (s.id, s.company_id, s.unit, u64::try_from(s.last_seen).unwrap_or(0))));
    let demo_devices = if config.demo { Some(demo::seed(&store).await.context("seeding demo data")?) } else { None };
    // Records are written before statuses: bring statuses a kill left behind up to them first.
    crate::status_recovery::recover(&store).await?;
    let catalog = load_catalog(&store).await.context("loading devices")?;
    let hub_default = alarm_manager::destination::hub_default(config.alarm_manager.clone(), config.alarm_manager_ca.as_deref())
        .map_err(|why| anyhow::anyhow!("the default alarm manager: {why}"))?;
    let status_tls = match (&config.alarm_status_tls_cert, &config.alarm_status_tls_key) {
        (Some(cert), Some(key)) => {
            let files = alarm_manager::tls::ListenerTls::read(cert, key, config.alarm_status_client_ca.as_deref())
                .map_err(|why| anyhow::anyhow!("the alarm status listener's TLS: {why}"))?;
            let server =
                alarm_manager::tls::listener_config(&files).map_err(|why| anyhow::anyhow!("the alarm status listener's TLS: {why}"))?;
            Some(tokio_rustls::TlsAcceptor::from(server))
        }
        _ => None,
    };
    let alarm_reporter = AlarmReporter::new(store.clone(), hub_default);
    alarm_reporter.replay_unattended(&catalog).await.context("queuing the reports of unattended alarms")?;
    let cluster = match (&config.nats, &config.node) {
        (Some(url), Some(node)) => Some(Cluster::connect(url, node.clone()).await?),
        _ => None,
    };
    let writer_store = writer_connection(&config, &store).await?;
    // Cluster mode: the storage writer writes each device's rows under its lease's fence.
    let fencing = cluster.as_ref().map(|_| Fencing::new());
    let metrics = Arc::new(HubMetrics::default());
    let bus = Bus::new();
    let board = LiveBoard::new();
    let (failed_tx, failed) = watch::channel(None);
    let actors = hub::start(HubArgs {
        catalog: catalog.clone(),
        bus: bus.clone(),
        board: board.clone(),
        store: Arc::new(StoreStatuses {
            store: writer_store.clone(),
            catalog: catalog.clone(),
            alarm_reporter: alarm_reporter.clone(),
            cluster: fencing.clone().map(|fencing| ClusterWriting { fencing, row_batches: row_batches(writer_store.clone()) }),
        }),
        metrics: metrics.clone(),
        absence_delay: config.absence_delay(),
        repositioning_time_scale: config.demo_repositioning_time_scale,
        failed: failed_tx,
    })
    .await
    .map_err(|e| anyhow::anyhow!("starting the actors: {e}"))?;
    resume_mats(&store, &catalog, &actors).await?;
    let leases = cluster.as_ref().map(|cluster| LeaseKeeper::new(cluster, store.clone(), actors.registry.clone(), metrics.clone()));
    metrics.cluster.on.store(cluster.is_some(), std::sync::atomic::Ordering::Relaxed);
    if let (Some(fencing), Some(leases)) = (&fencing, &leases) {
        fencing.attach(leases.clone());
    }
    let ingest = IngestContext::in_cluster(catalog.clone(), actors.registry.clone(), metrics.clone(), leases.clone());

    let identity = tls::load_or_create(&config.data, config.tls_cert.as_deref(), config.tls_key.as_deref())?;
    let reset_key = ingest::reset_key::load_or_create(&config.data)?;
    let endpoint = ingest::quic::bind(config.quic, &identity, &reset_key)?;
    let https = match http_scheme {
        HttpScheme::Https => Some(http::server::tls_config(&identity)?),
        HttpScheme::Http => None,
    };
    let quic_addr = endpoint.local_addr().context("reading the QUIC address")?;
    ingest.hubs.replace(config.peers.hub_addresses(quic_addr));
    let listener = tokio::net::TcpListener::bind(config.http).await.with_context(|| format!("binding HTTP on {}", config.http))?;
    let http_addr = listener.local_addr().context("reading the HTTP address")?;
    let status_listener = match config.alarm_status_listen {
        Some(addr) => {
            let bound =
                tokio::net::TcpListener::bind(addr).await.with_context(|| format!("binding the alarm status listener on {addr}"))?;
            let bound_at = bound.local_addr().context("reading the alarm status address")?;
            let shown = alarm_manager::Destination { host: bound_at.ip().to_string(), port: bound_at.port(), tls: status_tls.is_some() };
            let _ = alarm_reporter.status_listener.set(shown);
            Some(bound)
        }
        None => None,
    };

    let (stop, stopped) = watch::channel(false);
    // Cross-hub events and commands start before devices can connect (the QUIC endpoint is
    // bound but not served yet): every status of this hub's devices is relayed.
    let mut tasks = Vec::new();
    if let Some(cluster) = &cluster {
        let parts = cluster::events::EventParts {
            bus: bus.clone(),
            board: board.clone(),
            catalog: catalog.clone(),
            registry: actors.registry.clone(),
            writer: actors.writer.clone(),
            leases: leases.clone(),
            stopped: stopped.clone(),
        };
        let (_, cluster_tasks) = cluster::events::start(cluster, parts).await.context("starting cluster events")?;
        tasks.extend(cluster_tasks);
    }
    let state = Arc::new(AppState {
        store: store.clone(),
        signer,
        token_ttl_secs: config.token_hours * 3600,
        catalog: catalog.clone(),
        bus: bus.clone(),
        board: board.clone(),
        metrics: metrics.clone(),
        actors: actors.clone(),
        ingest: ingest.clone(),
        client_dir: config.client_dir.clone(),
        login_limiter: Default::default(),
        revoked_tokens: std::sync::Mutex::new(revoked_tokens),
        board_screens: std::sync::Mutex::new(board_screens),
        pairing_codes: Default::default(),
        board_sockets: Default::default(),
        alarm_reporter: alarm_reporter.clone(),
        http_scheme,
        cluster: cluster.clone(),
    });
    let status_context = Arc::new(alarm_manager::status_listener::StatusContext {
        store: store.clone(),
        reporter: alarm_reporter.clone(),
        bus: state.bus.clone(),
    });
    tasks.push(tokio::spawn(http::server::serve(listener, http::routes(state), https, stopped.clone())));
    tasks.push(tokio::spawn(ingest::quic::serve(endpoint.clone(), ingest)));
    if let Some(leases) = &leases {
        tasks.push(tokio::spawn(leases.clone().renew(stopped.clone())));
        tasks.push(tokio::spawn(leases.clone().watch(stopped.clone())));
    }
    tasks.push(tokio::spawn(alarm_manager::sender::run(store.clone(), alarm_reporter.clone(), metrics.clone(), stopped.clone())));
    let continue_interval = Duration::from_secs(config.alarm_continue_secs);
    tasks.push(tokio::spawn(alarm_manager::continuation::run(
        store.clone(),
        alarm_reporter.clone(),
        catalog.clone(),
        board.clone(),
        continue_interval,
        stopped.clone(),
    )));
    if let Some(listener) = status_listener {
        tasks.push(tokio::spawn(alarm_manager::status_listener::run(listener, status_tls, status_context, stopped.clone())));
    }
    tasks.push(tokio::spawn(crate::backup::run(store.clone(), config.backup.clone(), metrics.clone(), stopped.clone())));
    tasks.push(tokio::spawn(crate::health::run(store.clone(), cluster.clone(), metrics.clone(), stopped.clone())));
    if let Some(devices) = demo_devices.filter(|_| !config.no_simulators) {
        tasks.extend(demo::start_simulators(
            devices,
            quic_addr,
            &identity.cert_path,
            config.demo_bed_leaves_after_secs.map(std::time::Duration::from_secs),
            stopped.clone(),
        )?);
    }

    let mut out = std::io::stdout().lock();
    let scheme = http_scheme.as_str();
    let status = alarm_reporter.status_listener.get().map(|a| format!(" alarm-status={a}")).unwrap_or_default();
    let node = cluster.as_ref().map(|c| format!(" node={}", c.node)).unwrap_or_default();
    writeln!(out, "listening http={scheme}://{http_addr} quic={quic_addr} cert={}{status}{node}", identity.cert_path.display())?;
    if config.demo {
        writeln!(out, "demo: open {scheme}://{http_addr}/ and sign in as {} / {}", demo::DEMO_EMAIL, demo::DEMO_PASSWORD)?;
        for company in demo::VARIANT_COMPANIES {
            writeln!(out, "demo: company variant {}: {} / {}", company.name, company.email, demo::VARIANT_PASSWORD)?;
        }
    }
    out.flush()?;
    drop(out);
    Ok(RunningHub {
        http_addr,
        http_scheme,
        quic_addr,
        cert_path: identity.cert_path,
        store,
        catalog,
        metrics,
        actors,
        board,
        bus,
        cluster,
        leases,
        stop,
        failed,
        endpoint,
        tasks,
    })
}

/// Hands the registry each mat's snapshot built from storage (`snapshots::load`: stream ends,
/// unattended alarms, repositioning intervals) before devices can connect, so each device's
/// actor resumes from it.
async fn resume_mats(store: &Store, catalog: &Catalog, actors: &HubRefs) -> anyhow::Result<()> {
    let snapshots = crate::snapshots::load(store, catalog).await?;
    actors
        .registry
        .call(|reply| RegistryMsg::Resume { snapshots, reply }, Some(Duration::from_secs(10)))
        .await
        .map_err(|e| anyhow::anyhow!("the registry did not take the stored state: {e}"))?;
    Ok(())
}

impl RunningHub {
    /// Runs until Ctrl-C, SIGTERM or a failure of the actor tree, then shuts down.
    pub async fn wait_for_shutdown_signal(mut self) -> anyhow::Result<()> {
        let failure = tokio::select! {
            _ = shutdown_signal() => None,
            failed = self.failed.wait_for(|f| f.is_some()) => failed.ok().and_then(|f| f.clone()),
        };
        self.shutdown().await;
        match failure {
            Some(why) => anyhow::bail!("the hub stopped because {why}"),
            None => Ok(()),
        }
    }

    /// Stops listeners and simulators, flushes pending status writes and stops the actors.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        self.endpoint.close(0u32.into(), b"hub shutting down");
        let flushed = self.actors.writer.call(WriterMsg::Flush, Some(Duration::from_secs(5))).await;
        if !matches!(flushed, Ok(ractor::rpc::CallResult::Success(Ok(())))) {
            tracing::warn!("pending statuses could not be flushed at shutdown");
        }
        self.actors.supervisor.stop(Some("shutdown".into()));
        for task in self.tasks {
            let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
        }
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(signal) => signal,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

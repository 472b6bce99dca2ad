//! Cluster mode (issue 25, docs/scale-out.md): this hub's membership of a fleet of hubs that
//! share a SurrealDB server and talk over NATS. Without `--nats` the hub runs alone and none of
//! this is started.
//!
//! `node_name`: the validated name a hub has in the cluster; this file: the NATS connection
//! every cluster part (device leases, cross-hub events and commands) uses.
//!
//! Events and commands (docs/scale-out.md "Events and commands"): `events` (the relay of this
//! hub's devices' facts, and `start`), `events_wire` (subjects and messages), `live_watch` (which
//! devices another hub watches, pure), `mirror` (the other hubs' facts on this hub), `commands`
//! (request/reply to a device's owner), `commands_wire` (its messages), `commands_route` (what a
//! delivery means, pure), `resync` (after a NATS outage, the sync of a join again).
//!
//! One owner per device: `lease` (the pure rules of device leases, simulated clock),
//! `lease_keeper` (the leases in NATS's `device_owners` bucket: acquire on connect, one renewal
//! task, a watch for takeovers, a lost lease stops the device's actor), `fence` (the storage
//! writer's batches written under each device's lease revision, kept while a lease is pending,
//! dropped and counted otherwise), `snapshot_store` (mat snapshots in shared storage, the
//! snapshot a takeover resumes from), `set_leases` (a room set's or horse's lease: the one hub
//! that writes its status rows), `lease_sightings` (which other hubs' devices lost their owner,
//! pure) and `dead_owners` (those devices shown disconnected on this hub).

pub mod commands;
pub mod commands_route;
pub mod commands_wire;
pub mod dead_owners;
pub mod events;
pub mod events_wire;
pub mod fence;
pub mod fenced_records;
pub mod lease;
pub mod lease_keeper;
pub mod lease_sightings;
pub mod live_watch;
pub mod mirror;
mod node_name;
pub mod resync;
pub mod set_leases;
pub mod snapshot_store;
pub mod takeover_batch;

use std::time::Duration;

use anyhow::Context;
pub use node_name::NodeName;

/// How long a hub waits for the NATS server at start before starting anyway: its own devices'
/// alarms never wait for NATS (the client keeps reconnecting in the background).
pub const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// This hub's NATS connection and its name in the cluster.
#[derive(Clone)]
pub struct Cluster {
    /// Reconnections to NATS after a loss and messages dropped (`resync`): the mirror resyncs
    /// after each.
    pub link: std::sync::Arc<resync::LinkEvents>,
    /// This hub's name.
    pub node: NodeName,
    /// The NATS connection (reconnects by itself; cheap to clone).
    pub client: async_nats::Client,
    /// JetStream on that connection (key-value buckets).
    pub jetstream: async_nats::jetstream::Context,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster").field("node", &self.node).finish_non_exhaustive()
    }
}

impl Cluster {
    /// Connects to the NATS server at `url` as hub `node`. The connection is retried in the
    /// background for ever; the first attempt is awaited up to [`CONNECT_WAIT`], and a server
    /// still away after it does not stop the hub from starting.
    pub async fn connect(url: &str, node: NodeName) -> anyhow::Result<Cluster> {
        let link = std::sync::Arc::new(resync::LinkEvents::default());
        let events = link.clone();
        let options = async_nats::ConnectOptions::new()
            .name(format!("pressure-mat-hub {node}"))
            .retry_on_initial_connect()
            .max_reconnects(None)
            .event_callback(move |event| {
                let events = events.clone();
                async move {
                    match &event {
                        async_nats::Event::Connected => tracing::info!("connected to NATS"),
                        async_nats::Event::Disconnected => tracing::warn!("disconnected from NATS; reconnecting"),
                        // One per message: the mirror logs the resync they call for.
                        async_nats::Event::SlowConsumer(_) => {}
                        other => tracing::debug!("NATS: {other}"),
                    }
                    if let Some(link) = resync::Link::of(&event) {
                        events.on(link);
                    }
                }
            });
        let client = options.connect(url).await.with_context(|| format!("connecting to NATS at {url}"))?;
        let deadline = tokio::time::Instant::now() + CONNECT_WAIT;
        while client.connection_state() != async_nats::connection::State::Connected && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if client.connection_state() != async_nats::connection::State::Connected {
            tracing::warn!("NATS at {url} is not answering yet; starting and reconnecting in the background");
        }
        let jetstream = async_nats::jetstream::new(client.clone());
        Ok(Cluster { link, node, client, jetstream })
    }
}

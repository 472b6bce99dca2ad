//! This hub's side of cross-hub events (issue 25, docs/scale-out.md "Events and commands"): the
//! [`NatsRelay`] the bus calls with the facts of the devices this hub owns, and the task that
//! publishes them on NATS. [`start`] wires the relay, the mirror of the other hubs' facts
//! (`mirror.rs`) and the owner's command service (`commands.rs`) into a hub.
//!
//! The relay never waits: the actors call it from their steps, so it encodes the message once
//! and queues it (bounded; a full queue drops and counts, it never slows a device down). A
//! device's live maps are encoded only while a watch from another hub is fresh (`live_watch`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use actors::actor::registry::RegistryMsg;
use actors::actor::storage_writer::WriterMsg;
use actors::browser::DeviceConfEvent;
use actors::catalog::Catalog;
use actors::fanout::{Bus, LivePicture, Relay};
use actors::live_board::LiveBoard;
use bytes::Bytes;
use ractor::ActorRef;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::Cluster;
use super::commands::{NatsCommandRoute, Ownership, serve_owned_devices};
use super::dead_owners::{DeadOwnerParts, show_ownerless_devices};
use super::events_wire::{
    EventMessage, LiveMessage, MemberMessage, StatusMessage, WatchMessage, WirePicture, alarm_status_subject, encode, events_subject,
    live_subject, member_subject, status_subject, watch_subject,
};
use super::live_watch::Watches;
use super::mirror::{MirrorParts, mirror_other_hubs};
use super::set_leases::SetParts;
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::presence::Presence;

/// How many messages may wait for the NATS connection before new ones are dropped (a NATS
/// server away for a while: the hub's own alarms go on; the other hubs catch up with the next
/// status).
pub const QUEUE: usize = 16_384;

/// What the relay did, for tests and the bench.
#[derive(Debug, Default)]
pub struct RelayCounters {
    pub statuses: AtomicU64,
    pub events: AtomicU64,
    pub maps: AtomicU64,
    pub watches_sent: AtomicU64,
    pub members: AtomicU64,
    pub alarm_statuses: AtomicU64,
    pub dropped: AtomicU64,
}

/// The bus's relay in a cluster.
pub struct NatsRelay {
    node: String,
    outgoing: mpsc::Sender<(String, Bytes)>,
    ownership: mpsc::UnboundedSender<Ownership>,
    watches: RwLock<Watches>,
    /// The last word of each owned set member, said again when a hub joins (`Mirror::sync`).
    members: Mutex<HashMap<Arc<str>, MemberMessage>>,
    pub counters: RelayCounters,
}

impl NatsRelay {
    fn queue(&self, subject: String, payload: Bytes, counter: &AtomicU64) {
        match self.outgoing.try_send((subject, payload)) {
            Ok(()) => counter.fetch_add(1, Ordering::Relaxed),
            Err(_) => self.counters.dropped.fetch_add(1, Ordering::Relaxed),
        };
    }

    /// Another hub watches one of this hub's devices (heard now).
    pub fn watch_heard(&self, device_id: &str) {
        self.watches.write().unwrap_or_else(|p| p.into_inner()).renew(device_id, Instant::now());
    }

    /// Forgets expired watches.
    pub fn prune_watches(&self) {
        self.watches.write().unwrap_or_else(|p| p.into_inner()).prune(Instant::now());
    }

    /// Says that this hub's sessions watch a device another hub owns.
    pub fn send_watch(&self, device_id: &str) {
        let message = WatchMessage { origin: self.node.clone(), device_id: device_id.to_owned() };
        self.queue(watch_subject(device_id), encode(&message), &self.counters.watches_sent);
    }

    /// This hub's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Says again the last word of each set member this hub still owns (a hub joined).
    pub fn resend_members(&self, owns: impl Fn(&str) -> bool) {
        let members: Vec<MemberMessage> =
            self.members.lock().unwrap_or_else(|p| p.into_inner()).values().filter(|m| owns(&m.device_id)).cloned().collect();
        for message in members {
            self.queue(member_subject(&message.company_id), encode(&message), &self.counters.members);
        }
    }
}

impl Relay for NatsRelay {
    fn claimed(&self, _company_id: &str, device_id: &str) {
        let _ = self.ownership.send(Ownership::Claimed(Arc::from(device_id)));
    }

    fn released(&self, _company_id: &str, device_id: &str) {
        self.members.lock().unwrap_or_else(|p| p.into_inner()).remove(device_id);
        let _ = self.ownership.send(Ownership::Released(Arc::from(device_id)));
    }

    fn status(&self, company_id: &str, status: &DeviceConfEvent) {
        let message = StatusMessage { origin: self.node.clone(), company_id: company_id.to_owned(), status: status.clone() };
        self.queue(status_subject(company_id), encode(&message), &self.counters.statuses);
    }

    fn event(&self, company_id: &str, device_id: &str, browser_message: &Bytes) {
        let message = EventMessage {
            origin: self.node.clone(),
            company_id: company_id.to_owned(),
            device_id: device_id.to_owned(),
            browser_message: browser_message.to_vec(),
        };
        self.queue(events_subject(company_id), encode(&message), &self.counters.events);
    }

    fn map(&self, company_id: &str, device_id: &str, picture: &LivePicture) {
        if !self.watches.read().unwrap_or_else(|p| p.into_inner()).is_watched(device_id, Instant::now()) {
            return;
        }
        let message = LiveMessage {
            origin: self.node.clone(),
            company_id: company_id.to_owned(),
            device_id: device_id.to_owned(),
            picture: WirePicture::of(picture),
        };
        self.queue(live_subject(device_id), encode(&message), &self.counters.maps);
    }

    fn watching(&self, _company_id: &str, device_id: &str) {
        self.send_watch(device_id);
    }

    fn received(&self, company_id: &str, device_id: &str, browser_message: &Bytes) {
        let message = EventMessage {
            origin: self.node.clone(),
            company_id: company_id.to_owned(),
            device_id: device_id.to_owned(),
            browser_message: browser_message.to_vec(),
        };
        self.queue(alarm_status_subject(company_id), encode(&message), &self.counters.alarm_statuses);
    }

    fn member(&self, company_id: &str, device_id: &str, status: DeviceStatus, presence: Presence) {
        let message = MemberMessage {
            origin: self.node.clone(),
            company_id: company_id.to_owned(),
            device_id: device_id.to_owned(),
            status,
            presence,
        };
        let payload = encode(&message);
        self.members.lock().unwrap_or_else(|p| p.into_inner()).insert(Arc::from(device_id), message);
        self.queue(member_subject(company_id), payload, &self.counters.members);
    }
}

/// What [`start`] plugs the cluster into.
pub struct EventParts {
    pub bus: Arc<Bus>,
    pub board: Arc<LiveBoard>,
    pub catalog: Arc<Catalog>,
    pub registry: ActorRef<RegistryMsg>,
    pub writer: ActorRef<WriterMsg>,
    /// This hub's device leases: commands ask whether this hub may act as a device's owner,
    /// and a dead hub's devices are shown disconnected (`dead_owners`).
    pub leases: Option<Arc<super::lease_keeper::LeaseKeeper>>,
    pub stopped: watch::Receiver<bool>,
}

/// Installs the relay and the command route on the bus and starts the publisher, the mirror and
/// the owner's command service. Called before devices can connect.
pub async fn start(cluster: &Cluster, parts: EventParts) -> anyhow::Result<(Arc<NatsRelay>, Vec<JoinHandle<()>>)> {
    let (outgoing, queued) = mpsc::channel(QUEUE);
    let (ownership, ownership_changes) = mpsc::unbounded_channel();
    let relay = Arc::new(NatsRelay {
        node: cluster.node.to_string(),
        outgoing,
        ownership,
        watches: RwLock::new(Watches::default()),
        members: Mutex::new(HashMap::new()),
        counters: RelayCounters::default(),
    });
    let route = Arc::new(NatsCommandRoute {
        client: cluster.client.clone(),
        node: cluster.node.to_string(),
        leases: parts.leases.clone(),
        bucket: Default::default(),
    });
    // The mirror subscribes before the relay is installed: nothing another hub says from now on
    // is missed.
    let mirror = mirror_other_hubs(
        cluster,
        relay.clone(),
        MirrorParts {
            bus: parts.bus.clone(),
            board: parts.board.clone(),
            catalog: parts.catalog.clone(),
            registry: parts.registry.clone(),
        },
        parts.stopped.clone(),
    )
    .await?;
    parts.bus.seam().install(relay.clone(), route);
    let publisher = tokio::spawn(publish_queued(cluster.client.clone(), queued, parts.stopped.clone()));
    let mut tasks = vec![publisher, mirror];
    if let Some(leases) = &parts.leases {
        leases.attach_sets(SetParts { catalog: parts.catalog.clone(), registry: parts.registry.clone(), writer: parts.writer.clone() });
        let dead = DeadOwnerParts {
            bus: parts.bus.clone(),
            board: parts.board.clone(),
            catalog: parts.catalog.clone(),
            registry: parts.registry.clone(),
            client: cluster.client.clone(),
        };
        tasks.push(tokio::spawn(show_ownerless_devices(leases.clone(), dead, parts.stopped.clone())));
    }
    tasks.push(tokio::spawn(serve_owned_devices(
        cluster.clone(),
        parts.registry,
        parts.writer,
        parts.leases,
        ownership_changes,
        parts.stopped,
    )));
    Ok((relay, tasks))
}

/// Publishes what the relay queued, in order.
async fn publish_queued(client: async_nats::Client, mut queued: mpsc::Receiver<(String, Bytes)>, mut stopped: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            next = queued.recv() => {
                let Some((subject, payload)) = next else { return };
                if let Err(error) = client.publish(subject, payload).await {
                    tracing::warn!(%error, "a cluster event could not be published");
                }
            }
            _ = stopped.changed() => return,
        }
    }
}

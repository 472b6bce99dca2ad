//! The other hubs' facts on this hub (issue 25): their devices' statuses and one-off events, and
//! the live maps of the devices this hub's sessions watch, land on this hub's board and bus as
//! its own devices' do, marked as mirrors: written through `publish::mirror_*` and the channels'
//! `*_mirrored` methods, which never relay again; never stored (the owner stores its own).
//!
//! A message is dropped when this hub sent it (it hears its own publications on the
//! wildcards), when it names a device this hub owns (the owner's fact is its own, here), or a
//! device not in its company. The same task renews this hub's watches every `live_watch::RENEW`,
//! and answers a joining hub's sync (`events_wire::SYNC`) with its own devices' statuses, so a hub
//! started after a device connected elsewhere does not show it offline until its next change;
//! back on NATS after a loss, or after its client dropped messages it did not read in time, it
//! asks and announces again (`super::resync`).
//!
//! What a set's member owned elsewhere tells its set goes to this hub's set actor (through the
//! registry), so a room set or horse split across hubs has one status on every hub; the
//! alarm managers' PCD-05 statuses (`alarmStatus`) go to the company's browsers here.

use std::sync::Arc;

use actors::actor::publish::{mirror_picture, mirror_status};
use actors::actor::registry::RegistryMsg;
use actors::catalog::Catalog;
use actors::fanout::Bus;
use actors::live_board::LiveBoard;
use bytes::Bytes;
use futures_util::StreamExt;
use ractor::ActorRef;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::Cluster;
use super::events::NatsRelay;
use super::events_wire::{
    ALL_ALARM_STATUSES, ALL_EVENTS, ALL_LIVE, ALL_MEMBERS, ALL_STATUSES, ALL_WATCHES, EventMessage, LiveMessage, MemberMessage, SYNC,
    StatusMessage, SyncMessage, WatchMessage, decode, encode,
};
use super::live_watch::RENEW;

/// Where the other hubs' facts land on this hub.
pub struct MirrorParts {
    pub bus: Arc<Bus>,
    pub board: Arc<LiveBoard>,
    pub catalog: Arc<Catalog>,
    /// Hands the members' words to this hub's set actors.
    pub registry: ActorRef<RegistryMsg>,
}

/// Subscribes to the other hubs' facts and starts the task that mirrors them.
pub async fn mirror_other_hubs(
    cluster: &Cluster,
    relay: Arc<NatsRelay>,
    parts: MirrorParts,
    mut stopped: watch::Receiver<bool>,
) -> anyhow::Result<JoinHandle<()>> {
    let client = &cluster.client;
    let mut statuses = client.subscribe(ALL_STATUSES).await?;
    let mut events = client.subscribe(ALL_EVENTS).await?;
    let mut live = client.subscribe(ALL_LIVE).await?;
    let mut watches = client.subscribe(ALL_WATCHES).await?;
    let mut members = client.subscribe(ALL_MEMBERS).await?;
    let mut alarm_statuses = client.subscribe(ALL_ALARM_STATUSES).await?;
    let mut syncs = client.subscribe(SYNC).await?;
    // Subscribed first, then asked: every status the others publish in answer is heard.
    client.publish(SYNC, encode(&SyncMessage { origin: relay.node().to_owned() })).await?;
    let MirrorParts { bus, board, catalog, registry } = parts;
    let mirror = Mirror { relay, bus, board, catalog, registry };
    let link = cluster.link.clone();
    let mut reconnected = link.reconnections();
    let client = client.clone();
    Ok(tokio::spawn(async move {
        let mut renew = tokio::time::interval(RENEW);
        loop {
            tokio::select! {
                Ok(()) = reconnected.changed() => mirror.resync(&client).await,
                Some(message) = statuses.next() => mirror.status(&message.payload),
                Some(message) = events.next() => mirror.event(&message.payload),
                Some(message) = live.next() => mirror.live(&message.payload),
                Some(message) = watches.next() => mirror.watch(&message.payload),
                Some(message) = members.next() => mirror.member(&message.payload),
                Some(message) = alarm_statuses.next() => mirror.alarm_status(&message.payload),
                Some(message) = syncs.next() => mirror.sync(&message.payload),
                _ = renew.tick() => {
                    if link.take_dropped() {
                        tracing::warn!(
                            dropped_so_far = link.dropped(),
                            "NATS dropped messages this hub did not read in time: asking the other hubs for their devices' statuses again"
                        );
                        mirror.resync(&client).await;
                    } else {
                        mirror.renew_watches();
                    }
                }
                _ = stopped.changed() => return,
            }
        }
    }))
}

struct Mirror {
    relay: Arc<NatsRelay>,
    bus: Arc<Bus>,
    board: Arc<LiveBoard>,
    catalog: Arc<Catalog>,
    registry: ActorRef<RegistryMsg>,
}

impl Mirror {
    /// The device's id as the catalogue holds it, when the message is another hub's fact about
    /// a device of that company which this hub does not own.
    fn foreign(&self, origin: &str, company_id: &str, device_id: &str) -> Option<Arc<str>> {
        if origin == self.relay.node() {
            return None;
        }
        let device = self.catalog.get_in_company(device_id, company_id)?;
        (!self.bus.seam().owns(&device.id)).then(|| device.id.clone())
    }

    fn status(&self, payload: &[u8]) {
        let Some(message) = decode::<StatusMessage>(payload) else { return };
        let Some(device_id) = self.foreign(&message.origin, &message.company_id, &message.status.device_id) else { return };
        let live = self.board.device(&message.company_id, &device_id);
        mirror_status(&live, &self.bus.company(&message.company_id), &device_id, message.status);
        // An idle actor of it here (spawned for a command while it was connected nowhere) would
        // show it offline over its owner's status after its silence: it stops.
        let _ = self.registry.cast(RegistryMsg::OwnedElsewhere { device_id });
    }

    fn event(&self, payload: &[u8]) {
        let Some(message) = decode::<EventMessage>(payload) else { return };
        let Some(device_id) = self.foreign(&message.origin, &message.company_id, &message.device_id) else { return };
        self.bus.company(&message.company_id).broadcast_mirrored(&device_id, Bytes::from(message.browser_message));
    }

    fn live(&self, payload: &[u8]) {
        let Some(message) = decode::<LiveMessage>(payload) else { return };
        let Some(device_id) = self.foreign(&message.origin, &message.company_id, &message.device_id) else { return };
        let Some(picture) = message.picture.into_picture() else { return };
        let live = self.board.device(&message.company_id, &device_id);
        mirror_picture(&live, &self.bus.device(&device_id, &message.company_id), picture);
    }

    /// A set's member owned elsewhere told its set where it stands: this hub's set hears it.
    fn member(&self, payload: &[u8]) {
        let Some(message) = decode::<MemberMessage>(payload) else { return };
        let Some(device_id) = self.foreign(&message.origin, &message.company_id, &message.device_id) else { return };
        let _ = self.registry.cast(RegistryMsg::MemberElsewhere { device_id, status: message.status, presence: message.presence });
    }

    /// An alarm manager's status (PCD-05) received on another hub: to this hub's browsers of the
    /// company (the receiving hub stored it).
    fn alarm_status(&self, payload: &[u8]) {
        let Some(message) = decode::<EventMessage>(payload) else { return };
        if message.origin == self.relay.node() || self.catalog.get_in_company(&message.device_id, &message.company_id).is_none() {
            return;
        }
        let device_id: Arc<str> = Arc::from(message.device_id.as_str());
        self.bus.company(&message.company_id).broadcast_mirrored(&device_id, Bytes::from(message.browser_message));
    }

    fn watch(&self, payload: &[u8]) {
        let Some(message) = decode::<WatchMessage>(payload) else { return };
        if message.origin != self.relay.node() && self.bus.seam().owns(&message.device_id) {
            self.relay.watch_heard(&message.device_id);
        }
    }

    /// Another hub joined: the statuses of this hub's own devices, published again.
    fn sync(&self, payload: &[u8]) {
        let Some(message) = decode::<SyncMessage>(payload) else { return };
        if message.origin == self.relay.node() {
            return;
        }
        self.announce_own();
    }

    /// Back on NATS after a loss, or after this hub's client dropped messages (`super::resync`):
    /// ask as on joining, announce this hub's own devices (the others may have missed what
    /// changed meanwhile) and renew the watches.
    async fn resync(&self, client: &async_nats::Client) {
        if let Err(error) = client.publish(SYNC, encode(&SyncMessage { origin: self.relay.node().to_owned() })).await {
            tracing::warn!(%error, "the resync request could not be published");
        }
        self.announce_own();
        self.renew_watches();
    }

    /// The statuses of this hub's own devices, published again.
    fn announce_own(&self) {
        for device in self.catalog.all() {
            if self.bus.seam().owns(&device.id)
                && let Some(status) = self.board.status(&device.company_id, &device.id)
            {
                actors::fanout::Relay::status(&*self.relay, &device.company_id, &status);
            }
        }
        self.relay.resend_members(|device_id| self.bus.seam().owns(device_id));
    }

    fn renew_watches(&self) {
        for (_, device_id) in self.bus.watched_elsewhere() {
            self.relay.send_watch(&device_id);
        }
        self.relay.prune_watches();
    }
}

//! The seam where a cluster of hubs plugs into the bus (issue 25, docs/scale-out.md "Events and
//! commands"): which devices this hub owns, and where their facts go besides this hub's sessions.
//!
//! A hub on its own has no relay and owns every device it talks to: nothing here costs more than
//! one `OnceLock` read. In a cluster the hub's `cluster::events` installs a [`Relay`] that sends
//! the facts of the devices **this hub owns** to the other hubs; the facts other hubs send land
//! through the channels' `*_mirrored` methods, which never call the relay (no echo).

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock, RwLock};

use bytes::Bytes;

use super::bus::LivePicture;
use crate::actor::session_commands::{CommandOutcome, DeviceCommand};
use crate::browser::DeviceConfEvent;
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::presence::Presence;

/// Where the facts of this hub's own devices go besides its sessions. Every method is called
/// from an actor and must not wait: an implementation queues.
pub trait Relay: Send + Sync {
    /// A device's actor on this hub took its connection: this hub owns it now.
    fn claimed(&self, company_id: &str, device_id: &str);
    /// This hub no longer holds the device's connection.
    fn released(&self, company_id: &str, device_id: &str);
    /// A new status of an owned device.
    fn status(&self, company_id: &str, status: &DeviceConfEvent);
    /// A one-off event (alarm raised or attended, capture) of an owned device, encoded for the
    /// browsers as it is.
    fn event(&self, company_id: &str, device_id: &str, message: &Bytes);
    /// A new live picture of an owned device; the relay sends it only while another hub watches.
    fn map(&self, company_id: &str, device_id: &str, picture: &LivePicture);
    /// A session on this hub began watching the live map of a device this hub does not own.
    fn watching(&self, company_id: &str, device_id: &str);
    /// What an owned member of a set (a room set's sub-device, a horse's side) tells its set's
    /// actor: the other hubs' set actors hear it too, so a set split across hubs has the same
    /// status on each (docs/scale-out.md "Room sets and Sensing Horses").
    fn member(&self, company_id: &str, device_id: &str, status: DeviceStatus, presence: Presence);
    /// A one-off event about a device that this hub received for the company rather than from
    /// the device's actor (an alarm manager's status, PCD-05, `alarmStatus`), encoded for the
    /// browsers: every other hub's browsers get it, whichever hub owns the device.
    fn received(&self, company_id: &str, device_id: &str, message: &Bytes);
}

/// How a command reaches a device this hub does not own.
pub trait CommandRoute: Send + Sync {
    /// Sends `command` to the owner of `device_id`.
    fn send(&self, device_id: &str, command: DeviceCommand) -> Pin<Box<dyn Future<Output = RouteOutcome> + Send>>;

    /// Whether this hub, whose actor holds the device's connection, may act as its owner now:
    /// in a cluster, only while its lease is known valid (issue 25: a hub woken from a pause
    /// longer than its lease may have lost the device). `false` sends the command by the route.
    fn may_act_as_owner(&self, _device_id: &str) -> bool {
        true
    }
}

/// What became of a command sent to another hub.
#[derive(Debug, Clone, PartialEq)]
pub enum RouteOutcome {
    /// The owner ran it and answered.
    Answered(CommandOutcome),
    /// No hub owns the device (nobody listens on its command subject): it is connected nowhere,
    /// and this hub runs the command itself, which refuses it as a single hub does.
    NoOwner,
}

/// Ownership and the cluster's hooks, shared by the bus and all its channels.
#[derive(Default)]
pub struct ClusterSeam {
    relay: OnceLock<Arc<dyn Relay>>,
    route: OnceLock<Arc<dyn CommandRoute>>,
    owned: RwLock<HashSet<Arc<str>>>,
}

impl std::fmt::Debug for ClusterSeam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterSeam").field("clustered", &self.relay.get().is_some()).finish_non_exhaustive()
    }
}

impl ClusterSeam {
    /// Installs the cluster's relay and command route (once, at start).
    pub fn install(&self, relay: Arc<dyn Relay>, route: Arc<dyn CommandRoute>) {
        let _ = self.relay.set(relay);
        let _ = self.route.set(route);
    }

    /// The owner test: whether this hub owns the device. A hub on its own owns every device; in a
    /// cluster, the hub whose actor holds the device's connection does (issue 25's leases replace
    /// this test here and nowhere else).
    pub fn owns(&self, device_id: &str) -> bool {
        self.relay.get().is_none() || read(&self.owned).contains(device_id)
    }

    /// The relay, when this hub owns the device and is in a cluster.
    pub fn relay_for_owned(&self, device_id: &str) -> Option<&Arc<dyn Relay>> {
        let relay = self.relay.get()?;
        read(&self.owned).contains(device_id).then_some(relay)
    }

    /// The relay, in a cluster.
    pub fn relay(&self) -> Option<&Arc<dyn Relay>> {
        self.relay.get()
    }

    /// Where commands to a device this hub does not own go; `None` when it owns it (or runs alone).
    /// Owning it here means holding its connection **and**, in a cluster, the route saying this
    /// hub may act as its owner now (its lease is known valid).
    pub fn route_for(&self, device_id: &str) -> Option<Arc<dyn CommandRoute>> {
        let route = self.route.get()?;
        if self.owns(device_id) && route.may_act_as_owner(device_id) { None } else { Some(route.clone()) }
    }

    /// The device's actor holds its connection here (said after every step of the actor: a read
    /// lock when nothing changed, nothing at all for a hub on its own). `true` when this call
    /// made this hub the device's owner (in a cluster).
    pub fn claim(&self, company_id: &str, device_id: &Arc<str>) -> bool {
        let Some(relay) = self.relay.get() else { return false };
        if read(&self.owned).contains(device_id) {
            return false;
        }
        let claimed = write(&self.owned).insert(device_id.clone());
        if claimed {
            relay.claimed(company_id, device_id);
        }
        claimed
    }

    /// The device's actor does not hold its connection here (said after every step of an actor
    /// without one).
    pub fn release(&self, company_id: &str, device_id: &str) {
        let Some(relay) = self.relay.get() else { return };
        if !read(&self.owned).contains(device_id) {
            return;
        }
        if write(&self.owned).remove(device_id) {
            relay.released(company_id, device_id);
        }
    }

    /// The devices this hub owns now.
    pub fn owned(&self) -> Vec<Arc<str>> {
        read(&self.owned).iter().cloned().collect()
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fanout::Bus;
    use crate::fanout::test_relay::{NoRoute, Recorder};
    use crate::live_board::LiveMap;

    /// A route whose hub's leases may all have expired.
    struct LeaseInDoubt;

    impl CommandRoute for LeaseInDoubt {
        fn send(&self, _: &str, _: DeviceCommand) -> Pin<Box<dyn Future<Output = RouteOutcome> + Send>> {
            Box::pin(async { RouteOutcome::NoOwner })
        }
        fn may_act_as_owner(&self, _: &str) -> bool {
            false
        }
    }

    #[test]
    fn a_device_held_here_whose_lease_may_have_expired_is_commanded_through_the_route() {
        let bus = Bus::new();
        bus.seam().install(Arc::new(Recorder::default()), Arc::new(LeaseInDoubt));
        bus.seam().claim("c", &Arc::from("mine"));
        assert!(bus.seam().owns("mine"), "it still holds the connection");
        assert!(bus.seam().route_for("mine").is_some(), "but does not act as its owner");
    }

    fn picture() -> LivePicture {
        LivePicture::Map(Arc::new(LiveMap::new(1, 1, mat_protocol::CellFormat::U8, vec![1]).unwrap()))
    }

    #[test]
    fn a_hub_alone_owns_everything_and_relays_nothing() {
        let bus = Bus::new();
        assert!(bus.seam().owns("d"));
        assert!(bus.seam().route_for("d").is_none());
        assert!(!bus.seam().claim("c", &Arc::from("d")), "no claim without a cluster");
        assert!(bus.seam().owned().is_empty(), "no ownership table without a cluster");
    }

    #[test]
    fn only_owned_devices_facts_are_relayed_and_mirrors_never_are() {
        let bus = Bus::new();
        let recorder = Arc::new(Recorder::default());
        bus.seam().install(recorder.clone(), Arc::new(NoRoute));
        let (mine, theirs): (Arc<str>, Arc<str>) = ("mine".into(), "theirs".into());
        assert!(bus.seam().claim("c", &mine), "the first claim makes this hub the owner");
        assert!(!bus.seam().claim("c", &mine), "the second changes nothing");
        assert!(bus.seam().owns("mine") && !bus.seam().owns("theirs"));
        assert!(bus.seam().route_for("theirs").is_some() && bus.seam().route_for("mine").is_none());

        let company = bus.company("c");
        company.broadcast("mine", Bytes::from_static(b"alarmOn"));
        company.broadcast("theirs", Bytes::from_static(b"alarmOn"));
        company.broadcast_mirrored("mine", Bytes::from_static(b"alarmOn"));
        bus.device("mine", "c").publish(picture());
        bus.device("theirs", "c").publish(picture());
        bus.device("theirs", "c").publish_mirrored(picture());
        let viewer = crate::fanout::Viewer::new(1, crate::fanout::Outbox::new(Arc::new(crate::metrics::HubMetrics::default())));
        bus.device("mine", "c").join(viewer.clone());
        bus.device("theirs", "c").join(viewer);
        assert_eq!(bus.watched_elsewhere(), vec![(Arc::from("c"), theirs.clone())]);
        bus.seam().release("c", &mine);
        bus.seam().release("c", &mine);
        assert!(!bus.seam().owns("mine"));
        assert_eq!(
            recorder.lines(),
            ["claimed mine", "event mine", "map mine", "watching theirs", "released mine"],
            "claims and releases once each, the owned device's facts only, no mirror relayed"
        );
    }
}

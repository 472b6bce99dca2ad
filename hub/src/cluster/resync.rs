//! Resynchronisation after a NATS outage (issue 25): a hub asks the others for their devices'
//! statuses (`events_wire::SYNC`) when it joins; this file makes it do the same, and announce
//! its own devices' statuses, each time its NATS connection comes back after a loss.
//!
//! Why: NATS subjects keep nothing. While the server is away (or this hub is cut from it) every
//! hub goes on running its own devices and raising their alarms locally, but the statuses it
//! publishes meanwhile are either lost or flushed from its client's buffer the moment *it*
//! reconnects — before the other hubs have resubscribed, when they come back later. Without a
//! resync a device whose status changed during the outage shows its old status on the other hubs
//! until its next change (docs/scale-out.md, "NATS away").
//!
//! [`LinkWatch`] is the pure rule (which connection events call for a resync), [`Reconnections`]
//! carries it from the NATS client's event callback to the mirror's task, which asks and
//! announces (`mirror::mirror_other_hubs`).

use std::sync::Mutex;

use tokio::sync::watch;

/// What the NATS client reports about its connection, as far as a resync is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// Connected (first connection, or a reconnection).
    Connected,
    /// The connection was lost; the client is reconnecting.
    Disconnected,
}

/// Follows the connection's events and says when a resync is due.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LinkWatch {
    /// Connected once already (the joining sync was or will be sent on that connection).
    joined: bool,
    /// Lost since the last connection.
    lost: bool,
}

impl LinkWatch {
    /// Takes one event; `true` when it is a reconnection after a loss, the moment to resync. The
    /// first connection is not one: joining sends its own sync (`mirror_other_hubs`). Repeated
    /// `Disconnected` events (each failed attempt) count once; a `Connected` without a loss before
    /// it (a duplicate) asks nothing.
    pub fn on(&mut self, link: Link) -> bool {
        match link {
            Link::Disconnected => {
                self.lost = self.joined;
                false
            }
            Link::Connected => {
                let resync = self.joined && self.lost;
                self.joined = true;
                self.lost = false;
                resync
            }
        }
    }
}

/// The count of reconnections after a loss, set from the NATS client's event callback and
/// watched by the mirror's task.
#[derive(Debug)]
pub struct Reconnections {
    link: Mutex<LinkWatch>,
    count: watch::Sender<u64>,
}

impl Default for Reconnections {
    fn default() -> Self {
        Reconnections { link: Mutex::new(LinkWatch::default()), count: watch::channel(0).0 }
    }
}

impl Reconnections {
    /// Called with every connection event of the hub's NATS client.
    pub fn on(&self, link: Link) {
        let resync = self.link.lock().unwrap_or_else(|p| p.into_inner()).on(link);
        if resync {
            tracing::info!("back on NATS: asking the other hubs for their devices' statuses and announcing ours");
            self.count.send_modify(|n| *n += 1);
        }
    }

    /// A receiver that changes at each reconnection after a loss.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.count.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: &[Link]) -> Vec<bool> {
        let mut watch = LinkWatch::default();
        events.iter().map(|e| watch.on(*e)).collect()
    }

    #[test]
    fn the_first_connection_is_a_join_not_a_resync() {
        assert_eq!(run(&[Link::Connected]), [false]);
        // NATS away at start: attempts fail, then the first connection is still the join.
        assert_eq!(run(&[Link::Disconnected, Link::Disconnected, Link::Connected]), [false, false, false]);
    }

    #[test]
    fn every_reconnection_after_a_loss_resyncs_once() {
        use Link::{Connected as C, Disconnected as D};
        assert_eq!(run(&[C, D, C]), [false, false, true]);
        assert_eq!(run(&[C, D, D, D, C]), [false, false, false, false, true], "failed attempts count once");
        assert_eq!(run(&[C, D, C, D, C]), [false, false, true, false, true], "each outage");
        assert_eq!(run(&[C, C, D, C, C]), [false, false, false, true, false], "a duplicate connected event asks nothing");
    }

    #[tokio::test]
    async fn a_resync_wakes_the_receiver() {
        let reconnections = Reconnections::default();
        let mut changes = reconnections.subscribe();
        reconnections.on(Link::Connected);
        assert!(!changes.has_changed().unwrap(), "joining is not a resync");
        reconnections.on(Link::Disconnected);
        reconnections.on(Link::Connected);
        assert!(changes.has_changed().unwrap());
        assert_eq!(*changes.borrow_and_update(), 1);
    }
}

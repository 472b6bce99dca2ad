//! Resynchronisation after NATS lost messages for this hub (issue 25): a hub asks the others for
//! their devices' statuses (`events_wire::SYNC`) when it joins; this file makes it do the same,
//! and announce its own devices' statuses, each time its NATS connection comes back after a
//! loss, and each time its client dropped messages the hub did not read in time.
//!
//! Why: NATS subjects keep nothing. While the server is away (or this hub is cut from it) every
//! hub goes on running its own devices and raising their alarms locally, but the statuses it
//! publishes meanwhile are either lost or flushed from its client's buffer the moment *it*
//! reconnects — before the other hubs have resubscribed, when they come back later. Without a
//! resync a device whose status changed during the outage shows its old status on the other hubs
//! until its next change (docs/scale-out.md, "NATS away").
//!
//! On a live connection a message is lost in one way: the hub's client holds at most 65,536
//! messages a subscription that the hub has not read, and drops the next ones (a *slow
//! consumer*; a hub starved of its CPU, or a flood of the others' statuses). A dropped status or
//! member message would leave a device's status, or a set's, behind on this hub until its next
//! change; so drops are counted, and the mirror resyncs at its next watch renewal
//! (`live_watch::RENEW`, 2 s) — once however many were dropped, and not again within
//! [`DROPPED_RESYNC_GAP`]: a hub that drops is overloaded, and every resync makes every other
//! hub announce all its devices to it. (A server that finds *it* cannot deliver to the hub
//! closes the connection: a reconnection, above.)
//!
//! [`LinkWatch`] is the pure rule (which connection events call for a resync), [`LinkEvents`]
//! carries it from the NATS client's event callback to the mirror's task, which asks and
//! announces (`mirror::mirror_other_hubs`).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::watch;

/// The least time between two resyncs for dropped messages: a view may stay behind that long,
/// and an overloaded hub is not sent every hub's statuses more often.
pub const DROPPED_RESYNC_GAP: Duration = Duration::from_secs(10);

/// What the NATS client reports about its connection, as far as a resync is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// Connected (first connection, or a reconnection).
    Connected,
    /// The connection was lost; the client is reconnecting.
    Disconnected,
    /// The client dropped a message for a subscription the hub had not read in time.
    MessageDropped,
}

impl Link {
    /// The client's event as far as a resync is concerned; `None` for the others (draining,
    /// lame duck, errors, which come with one of these or with none).
    pub fn of(event: &async_nats::Event) -> Option<Link> {
        match event {
            async_nats::Event::Connected => Some(Link::Connected),
            async_nats::Event::Disconnected => Some(Link::Disconnected),
            async_nats::Event::SlowConsumer(_) => Some(Link::MessageDropped),
            _ => None,
        }
    }
}

/// Follows the connection's events and says when a resync is due.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LinkWatch {
    /// When messages were last resynced for drops.
    last_drop_resync: Option<Instant>,
    /// Connected once already (the joining sync was or will be sent on that connection).
    joined: bool,
    /// Lost since the last connection.
    lost: bool,
    /// Messages dropped since the last resync.
    dropped: bool,
}

impl LinkWatch {
    /// Takes one event; `true` when it is a reconnection after a loss, the moment to resync. The
    /// first connection is not one: joining sends its own sync (`mirror_other_hubs`). Repeated
    /// `Disconnected` events (each failed attempt) count once; a `Connected` without a loss before
    /// it (a duplicate) asks nothing. A dropped message asks nothing at once: see
    /// [`LinkWatch::take_dropped`].
    pub fn on(&mut self, link: Link) -> bool {
        match link {
            Link::Disconnected => {
                self.lost = self.joined;
                false
            }
            Link::Connected => {
                let joining = !self.joined;
                let resync = self.joined && self.lost;
                self.joined = true;
                self.lost = false;
                // The resync of a reconnection, or the join's sync, covers what was dropped.
                self.dropped &= !(resync || joining);
                resync
            }
            Link::MessageDropped => {
                self.dropped = true;
                false
            }
        }
    }

    /// `true` once after messages were dropped on a connection that is up (asked at each watch
    /// renewal, `now`), and not within [`DROPPED_RESYNC_GAP`] of the last such resync: the
    /// moment to resync. While the connection is away the drops wait; the reconnection's own
    /// resync then covers them.
    pub fn take_dropped(&mut self, now: Instant) -> bool {
        let rested = self.last_drop_resync.is_none_or(|last| now.saturating_duration_since(last) >= DROPPED_RESYNC_GAP);
        let due = self.dropped && self.joined && !self.lost && rested;
        if due {
            self.dropped = false;
            self.last_drop_resync = Some(now);
        }
        due
    }
}

/// The resyncs due, set from the NATS client's event callback and watched by the mirror's task,
/// and the counts the hub's `/metrics` shows.
#[derive(Debug)]
pub struct LinkEvents {
    link: Mutex<LinkWatch>,
    /// Reconnections after a loss; the mirror resyncs at each change.
    reconnections: watch::Sender<u64>,
    /// Messages the client dropped (one event each, as far as the client's event queue held them).
    dropped: std::sync::atomic::AtomicU64,
}

impl Default for LinkEvents {
    fn default() -> Self {
        LinkEvents { link: Mutex::new(LinkWatch::default()), reconnections: watch::channel(0).0, dropped: Default::default() }
    }
}

impl LinkEvents {
    /// Called with every connection event of the hub's NATS client.
    pub fn on(&self, link: Link) {
        let resync = self.lock().on(link);
        if resync {
            tracing::info!("back on NATS: asking the other hubs for their devices' statuses and announcing ours");
            self.reconnections.send_modify(|n| *n += 1);
        }
        if link == Link::MessageDropped {
            self.dropped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// `true` once after messages were dropped (see [`LinkWatch::take_dropped`]).
    pub fn take_dropped(&self) -> bool {
        self.lock().take_dropped(Instant::now())
    }

    /// A receiver that changes at each reconnection after a loss.
    pub fn reconnections(&self) -> watch::Receiver<u64> {
        self.reconnections.subscribe()
    }

    /// The messages dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LinkWatch> {
        self.link.lock().unwrap_or_else(|p| p.into_inner())
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

    #[test]
    fn dropped_messages_resync_once_at_the_next_renewal_and_not_again_within_the_gap() {
        use Link::{Connected as C, Disconnected as D, MessageDropped as M};
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut watch = LinkWatch::default();
        watch.on(C);
        assert!(!watch.take_dropped(at(0)), "nothing dropped");
        assert!(!watch.on(M) && !watch.on(M), "a drop asks nothing at once");
        assert!(watch.take_dropped(at(2)), "dropped messages call for a resync");
        assert!(!watch.take_dropped(at(4)), "once, however many were dropped");
        watch.on(M);
        assert!(!watch.take_dropped(at(10)), "dropped again within the gap: it waits");
        assert!(!watch.take_dropped(at(11)));
        assert!(watch.take_dropped(at(12)), "and resyncs once the gap is over");
        watch.on(M);
        watch.on(C);
        assert!(watch.take_dropped(at(22)), "a duplicate connected event, no sync sent: the drops still call for one");
        // Dropped, then the connection lost: the drops wait for the reconnection, whose resync covers them.
        watch.on(M);
        watch.on(D);
        assert!(!watch.take_dropped(at(40)), "no resync while away");
        assert!(watch.on(C), "the reconnection resyncs");
        assert!(!watch.take_dropped(at(42)), "and covers the drops");
        // Before the join: the joining sync covers them.
        let mut joining = LinkWatch::default();
        joining.on(M);
        assert!(!joining.take_dropped(at(0)), "not joined yet");
        assert!(!joining.on(C));
        assert!(!joining.take_dropped(at(2)), "the join's sync covers them");
    }

    #[test]
    fn the_clients_events_as_links() {
        assert_eq!(Link::of(&async_nats::Event::Connected), Some(Link::Connected));
        assert_eq!(Link::of(&async_nats::Event::Disconnected), Some(Link::Disconnected));
        assert_eq!(Link::of(&async_nats::Event::SlowConsumer(7)), Some(Link::MessageDropped));
        assert_eq!(Link::of(&async_nats::Event::LameDuckMode), None);
        assert_eq!(Link::of(&async_nats::Event::Draining), None);
    }

    #[tokio::test]
    async fn a_resync_wakes_the_receiver() {
        let events = LinkEvents::default();
        let mut changes = events.reconnections();
        events.on(Link::Connected);
        assert!(!changes.has_changed().unwrap(), "joining is not a resync");
        events.on(Link::Disconnected);
        events.on(Link::Connected);
        assert!(changes.has_changed().unwrap());
        assert_eq!(*changes.borrow_and_update(), 1);
        events.on(Link::MessageDropped);
        events.on(Link::MessageDropped);
        assert!(!changes.has_changed().unwrap(), "a drop is not a reconnection");
        assert_eq!(events.dropped(), 2);
        assert!(events.take_dropped() && !events.take_dropped());
    }
}

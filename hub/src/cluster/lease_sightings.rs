//! Which other hubs' devices lost their owner, pure (issue 25, docs/scale-out.md "A dead hub's
//! devices"): every hub sees every write of the lease bucket (`LeaseKeeper::watch`), so it knows
//! when each device's lease was last written — renewed every `RENEW_EVERY` by its owner, or
//! taken by a new owner. A device whose lease nobody wrote for a whole [`LEASE_TTL`] (plus
//! [`SIGHTING_GRACE`] for the watch's delivery) has no owner any more: the key expired in the
//! bucket, its hub is dead or cut off, and the device has not connected elsewhere. The mirror then
//! shows it as a device that stopped sending is shown (`dead_owners`).
//!
//! A normal failover does not flap: the new owner's takeover is a write of the key, seen at once.
//!
//! This hub judges only what it could have seen: while its own watch is down (NATS away) nothing
//! expires, and after a gap in its own ticks (this hub was paused) it watches a whole lease time
//! again before it judges. Times are monotonic ms.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use super::lease::LEASE_TTL;

/// How late a lease's write may reach this hub's watch.
pub const SIGHTING_GRACE: Duration = Duration::from_secs(1);
/// A gap between two ticks longer than this means this hub was not running (paused): what it
/// did not see meanwhile says nothing about the other hubs.
pub const TICK_GAP: Duration = Duration::from_secs(2);

/// The lease writes this hub has seen.
#[derive(Debug, Default)]
pub struct Sightings {
    /// Each key's last write seen, monotonic ms.
    last_seen: HashMap<Arc<str>, u64>,
    /// Since when the watch has been running without a gap (`None`: it is down).
    watching_since: Option<u64>,
    /// The last tick, to notice a pause of this hub.
    last_tick: Option<u64>,
    /// The devices declared ownerless, until their lease is written again.
    ownerless: HashSet<Arc<str>>,
}

impl Sightings {
    /// An empty record; nothing is judged until [`Self::watching`].
    pub fn new() -> Sightings {
        Sightings::default()
    }

    /// The watch runs (again) from `now_ms`; a watch already running keeps its start.
    pub fn watching(&mut self, now_ms: u64) {
        self.watching_since.get_or_insert(now_ms);
    }

    /// The watch broke or NATS is away: nothing is judged until it runs again.
    pub fn not_watching(&mut self) {
        self.watching_since = None;
    }

    /// The lease of `key` was written (renewed or taken) at `now_ms`. `true` when the device had
    /// been declared ownerless: its owner is back (or a new one took it), and the statuses it
    /// sent meanwhile were not heard — ask for them again.
    pub fn seen(&mut self, key: &str, now_ms: u64) -> bool {
        match self.last_seen.get_mut(key) {
            Some(at) => *at = now_ms,
            None => {
                self.last_seen.insert(Arc::from(key), now_ms);
            }
        }
        self.ownerless.remove(key)
    }

    /// This hub's tick at `now_ms`: after a gap longer than [`TICK_GAP`] (this hub was paused)
    /// the watch counts as started now.
    pub fn tick(&mut self, now_ms: u64) {
        if let Some(last) = self.last_tick
            && now_ms.saturating_sub(last) > TICK_GAP.as_millis() as u64
            && self.watching_since.is_some()
        {
            self.watching_since = Some(now_ms);
        }
        self.last_tick = Some(now_ms);
    }

    /// Whether the device's lease has gone unwritten for a lease time and the grace while this
    /// hub watched, without marking it ([`Sightings::ownerless`] marks it): the cheap first test
    /// of every device, before its board status is read.
    pub fn lease_expired(&self, device: &str, now_ms: u64) -> bool {
        let Some(since) = self.watching_since else { return false };
        let last = self.last_seen.get(device).copied().unwrap_or(0).max(since);
        now_ms >= last.saturating_add((LEASE_TTL + SIGHTING_GRACE).as_millis() as u64)
    }

    /// Whether `device`'s lease went unwritten for a lease time at `now_ms`, as far as this hub
    /// can tell; a device found so is declared ownerless (once: see [`Self::seen`]).
    pub fn ownerless(&mut self, device: &Arc<str>, now_ms: u64) -> bool {
        let expired = self.lease_expired(device, now_ms);
        if expired {
            self.ownerless.insert(device.clone());
        }
        expired
    }

    /// Whether `key` was written within `span` before `now_ms` (by any hub, this one included).
    pub fn written_within(&self, key: &str, now_ms: u64, span: Duration) -> bool {
        self.last_seen.get(key).is_some_and(|&at| now_ms < at.saturating_add(span.as_millis() as u64))
    }

    /// Whether `device` was declared ownerless and not written since.
    pub fn is_ownerless(&self, device: &str) -> bool {
        self.ownerless.contains(device)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: u64 = 1_000;
    const LIMIT: u64 = (LEASE_TTL.as_millis() + SIGHTING_GRACE.as_millis()) as u64;

    fn dev() -> Arc<str> {
        Arc::from("dev1")
    }

    /// Ticks every 500 ms from `from` to `to`, asking about `dev1`; the first tick it is ownerless.
    fn first_ownerless(sightings: &mut Sightings, from: u64, to: u64, renewals: &[u64]) -> Option<u64> {
        let mut now = from;
        while now <= to {
            for at in renewals.iter().filter(|&&at| at > now.saturating_sub(500) && at <= now) {
                sightings.seen("dev1", *at);
            }
            sightings.tick(now);
            if sightings.ownerless(&dev(), now) {
                return Some(now);
            }
            now += 500;
        }
        None
    }

    #[test]
    fn a_lease_renewed_every_two_seconds_never_expires() {
        let mut sightings = Sightings::new();
        sightings.watching(0);
        let renewals: Vec<u64> = (0..30).map(|i| i * 2 * SECOND).collect();
        assert_eq!(first_ownerless(&mut sightings, 0, 58 * SECOND, &renewals), None);
    }

    #[test]
    fn a_lease_nobody_writes_for_a_lease_time_is_ownerless_once() {
        let mut sightings = Sightings::new();
        sightings.watching(0);
        // Renewed until 10 s, then its hub died.
        let renewals: Vec<u64> = (0..=5).map(|i| i * 2 * SECOND).collect();
        let at = first_ownerless(&mut sightings, 0, 60 * SECOND, &renewals).unwrap();
        assert_eq!(at, 10 * SECOND + LIMIT, "a lease time and the grace after the last renewal");
        assert!(sightings.is_ownerless("dev1"));
        // Its owner came back (or another hub took it): not ownerless, and the caller asks again.
        assert!(sightings.seen("dev1", 30 * SECOND));
        assert!(!sightings.is_ownerless("dev1"));
        assert!(!sightings.seen("dev1", 32 * SECOND), "asked once");
    }

    #[test]
    fn an_expired_lease_is_found_without_declaring_the_device_ownerless() {
        let mut sightings = Sightings::new();
        sightings.watching(0);
        sightings.seen("dev1", 0);
        assert!(!sightings.lease_expired("dev1", LIMIT - 1));
        assert!(sightings.lease_expired("dev1", LIMIT));
        assert!(!sightings.is_ownerless("dev1"), "only `ownerless` declares it");
        assert!(sightings.ownerless(&dev(), LIMIT));
        assert!(sightings.is_ownerless("dev1"));
        sightings.not_watching();
        assert!(!sightings.lease_expired("dev1", 10 * LIMIT), "nothing expires while this hub does not watch");
    }

    #[test]
    fn a_failover_within_the_lease_time_does_not_flap() {
        let mut sightings = Sightings::new();
        sightings.watching(0);
        // Renewed by hub A until 10 s; A dies; the device reconnects to B, which takes the key at 14 s.
        let mut renewals: Vec<u64> = (0..=5).map(|i| i * 2 * SECOND).collect();
        renewals.extend((0..20).map(|i| 14 * SECOND + i * 2 * SECOND));
        assert_eq!(first_ownerless(&mut sightings, 0, 50 * SECOND, &renewals), None);
    }

    #[test]
    fn nothing_expires_while_this_hub_does_not_watch() {
        let mut sightings = Sightings::new();
        assert!(!sightings.ownerless(&dev(), 100 * SECOND), "never watched");
        sightings.watching(0);
        sightings.seen("dev1", 0);
        sightings.not_watching();
        assert!(!sightings.ownerless(&dev(), 30 * SECOND), "NATS away: the renewals could not be seen");
        // Back: a device never seen since counts from the watch's restart.
        sightings.watching(40 * SECOND);
        assert!(!sightings.ownerless(&dev(), 40 * SECOND + LIMIT - 1));
        assert!(sightings.ownerless(&dev(), 40 * SECOND + LIMIT));
    }

    #[test]
    fn a_device_never_seen_counts_from_the_start_of_the_watch() {
        let mut sightings = Sightings::new();
        sightings.watching(5 * SECOND);
        assert!(!sightings.ownerless(&dev(), 5 * SECOND + LIMIT - 1));
        assert!(sightings.ownerless(&dev(), 5 * SECOND + LIMIT));
    }

    #[test]
    fn after_a_pause_of_this_hub_it_watches_a_whole_lease_time_before_judging() {
        let mut sightings = Sightings::new();
        sightings.watching(0);
        sightings.seen("dev1", 0);
        sightings.tick(500);
        // This hub is paused from 0.5 s to 20 s: it saw no renewal, but others did happen.
        sightings.tick(20 * SECOND);
        assert!(!sightings.ownerless(&dev(), 20 * SECOND), "what a paused hub did not see says nothing");
        sightings.seen("dev1", 21 * SECOND);
        assert!(!sightings.ownerless(&dev(), 21 * SECOND + LIMIT - 1));
    }
}

//! The lease rules against a simulated bucket (revisions that only grow, keys that expire after
//! [`LEASE_TTL`] without a write) and a simulated clock: two hubs, `a` and `b`.

use std::collections::HashMap;

use super::*;

/// A key-value bucket as NATS keeps one: one revision sequence, `max_age` expiry.
#[derive(Default)]
struct SimBucket {
    last_revision: u64,
    keys: HashMap<String, (u64, LeaseValue, u64)>,
}

impl SimBucket {
    fn observe(&self, key: &str, now_ms: u64) -> Observed {
        match self.keys.get(key) {
            Some((revision, value, written)) if now_ms < written + LEASE_TTL.as_millis() as u64 => {
                Observed::Held { revision: *revision, value: value.clone() }
            }
            _ => Observed::Absent,
        }
    }

    /// Writes `value` if the key is as `write` expects; the new revision, or `None` if refused.
    fn write(&mut self, key: &str, write: AcquireWrite, value: &LeaseValue, now_ms: u64) -> Option<u64> {
        let current = self.observe(key, now_ms);
        let accepted = match (write, &current) {
            (AcquireWrite::Create, Observed::Absent) => true,
            (AcquireWrite::Update { revision }, Observed::Held { revision: held, .. }) => revision == *held,
            _ => false,
        };
        if !accepted {
            return None;
        }
        self.last_revision += 1;
        self.keys.insert(key.to_owned(), (self.last_revision, value.clone(), now_ms));
        Some(self.last_revision)
    }

    /// What a hub's connection does on connect: read, write, record.
    fn acquire(&mut self, book: &mut LeaseBook, device: &Arc<str>, now_ms: u64) -> Acquired {
        let previous = self.observe(device, now_ms);
        let value = book.value(now_ms);
        let revision = self.write(device, acquire_write(&previous), &value, now_ms).expect("nobody wrote in between");
        book.acquired(device, value, revision, &previous, now_ms)
    }

    /// What the renewal task does at `now_ms`; the devices it found lost.
    fn renew(&mut self, book: &mut LeaseBook, now_ms: u64) -> Vec<Arc<str>> {
        let mut lost = Vec::new();
        for (device, value, revision) in book.due_renewals(now_ms) {
            match self.write(&device, AcquireWrite::Update { revision }, &value, now_ms) {
                Some(new) => book.renewed(&device, revision, new, now_ms),
                None => {
                    let observed = self.observe(&device, now_ms);
                    match book.renew_refused(&device, &observed, now_ms) {
                        RenewRefused::Lost => lost.push(device),
                        RenewRefused::Recreate => {
                            self.acquire(book, &device, now_ms);
                        }
                        RenewRefused::Adopt { .. } => {}
                    }
                }
            }
        }
        lost
    }
}

fn device() -> Arc<str> {
    Arc::from("dev1")
}

const SECOND: u64 = 1_000;

#[test]
fn a_lease_value_reads_back_and_nothing_else_does() {
    let value = LeaseValue { node: "hub-a".into(), connection_ms: 1_700_000_000_123 };
    assert_eq!(value.encode(), "hub-a@1700000000123");
    assert_eq!(LeaseValue::decode(value.encode().as_bytes()), Some(value));
    assert_eq!(LeaseValue::decode(b"hub-a"), None);
    assert_eq!(LeaseValue::decode(b"hub-a@soon"), None);
}

#[test]
fn an_absent_lease_is_created_and_its_revision_is_the_fence() {
    let mut bucket = SimBucket { last_revision: 40, ..SimBucket::default() };
    let mut a = LeaseBook::new("a");
    let acquired = bucket.acquire(&mut a, &device(), 0);
    assert_eq!(acquired, Acquired { fence: 41, raise_fence: true, resume_from_store: true });
    assert_eq!(a.write_permission("dev1"), WritePermission::Write { fence: 41 });
    assert_eq!(a.write_permission("other"), WritePermission::Drop, "a device this hub does not own is not written");
}

#[test]
fn a_held_lease_is_renewed_on_time_by_compare_and_set_and_keeps_its_fence() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    bucket.acquire(&mut a, &device(), 0);
    assert!(a.due_renewals(RENEW_EVERY.as_millis() as u64 - 1).is_empty(), "not before it is due");
    let mut now = 0;
    for _ in 0..10 {
        now += RENEW_EVERY.as_millis() as u64;
        assert!(bucket.renew(&mut a, now).is_empty());
    }
    assert_eq!(bucket.observe("dev1", now + LEASE_TTL.as_millis() as u64 - 1), Observed::Held { revision: 11, value: a.value(0) });
    assert_eq!(a.state("dev1"), Some(LeaseState::Held { fence: 1, revision: 11 }), "renewals move the revision, not the fence");
    assert_eq!(a.unconfirmed(now + LEASE_TTL.as_millis() as u64 - 1), 0);
}

#[test]
fn the_newest_connection_takes_the_lease_and_the_old_owner_finds_it_lost() {
    let mut bucket = SimBucket::default();
    let (mut a, mut b) = (LeaseBook::new("a"), LeaseBook::new("b"));
    let first = bucket.acquire(&mut a, &device(), 0);
    let second = bucket.acquire(&mut b, &device(), SECOND);
    assert!(second.fence > first.fence, "the new owner's fence is higher");
    assert_eq!(second, Acquired { fence: 2, raise_fence: true, resume_from_store: true }, "the new owner resumes from storage");
    let lost = bucket.renew(&mut a, 2 * SECOND);
    assert_eq!(lost, vec![device()], "a's renewal is refused: b holds it");
    assert_eq!(a.write_permission("dev1"), WritePermission::Drop);
    assert!(bucket.renew(&mut b, 3 * SECOND).is_empty());
    assert_eq!(b.write_permission("dev1"), WritePermission::Write { fence: 2 });
}

#[test]
fn the_watch_reports_a_takeover_but_not_the_hubs_own_writes_or_an_expiry() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    bucket.acquire(&mut a, &device(), 0);
    assert!(!a.watched("dev1", 1, Some(&a.value(0))), "its own write");
    assert!(!a.watched("dev1", 5, Some(&LeaseValue { node: "a".into(), connection_ms: 9 })), "its own newer connection");
    assert!(!a.watched("dev1", 6, None), "a deletion or expiry is renewed, not lost");
    assert!(!a.watched("dev1", 1, Some(&LeaseValue { node: "b".into(), connection_ms: 0 })), "an older write of b");
    assert!(a.watched("dev1", 7, Some(&LeaseValue { node: "b".into(), connection_ms: 0 })), "b took it");
    assert_eq!(a.state("dev1"), None);
    assert!(!a.watched("dev1", 8, Some(&LeaseValue { node: "b".into(), connection_ms: 0 })), "lost once");
}

#[test]
fn a_paused_hub_whose_lease_expired_and_was_taken_loses_it() {
    let mut bucket = SimBucket::default();
    let (mut a, mut b) = (LeaseBook::new("a"), LeaseBook::new("b"));
    bucket.acquire(&mut a, &device(), 0);
    // a is paused: no renewal; the key expires; the device reconnects to b.
    let expired_at = LEASE_TTL.as_millis() as u64;
    assert_eq!(bucket.observe("dev1", expired_at), Observed::Absent);
    let taken = bucket.acquire(&mut b, &device(), expired_at);
    assert_eq!(taken, Acquired { fence: 2, raise_fence: true, resume_from_store: true });
    assert_eq!(a.unconfirmed(expired_at + SECOND), 1, "a has not confirmed its lease for a whole TTL");
    assert_eq!(bucket.renew(&mut a, expired_at + SECOND), vec![device()], "a wakes up: lost");
}

#[test]
fn a_lease_that_expired_while_nobody_took_it_is_recreated_under_a_new_fence() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    bucket.acquire(&mut a, &device(), 0);
    // NATS was away for longer than the TTL; the devices kept running here.
    let back = 3 * LEASE_TTL.as_millis() as u64;
    assert!(bucket.renew(&mut a, back).is_empty(), "not lost: nobody took it");
    assert_eq!(
        a.state("dev1"),
        Some(LeaseState::Held { fence: 2, revision: 2 }),
        "created again: a new fence (raised in storage), the running actor kept"
    );
    assert_eq!(bucket.observe("dev1", back), Observed::Held { revision: 2, value: a.value(back) });
}

#[test]
fn a_newer_connection_to_the_same_hub_keeps_the_fence_and_the_running_actor() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    bucket.acquire(&mut a, &device(), 0);
    let again = bucket.acquire(&mut a, &device(), SECOND);
    assert_eq!(again, Acquired { fence: 1, raise_fence: false, resume_from_store: false });
    assert_eq!(a.state("dev1"), Some(LeaseState::Held { fence: 1, revision: 2 }));
}

#[test]
fn a_device_that_connected_while_nats_was_away_waits_to_write_until_its_lease_is_acquired() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    a.pending(&device(), a.value(0));
    assert_eq!(a.write_permission("dev1"), WritePermission::Wait);
    assert!(a.due_renewals(10 * SECOND).is_empty(), "nothing to renew yet");
    let pending = a.pending_acquisitions();
    assert_eq!(pending.len(), 1);
    let acquired = bucket.acquire(&mut a, &device(), 10 * SECOND);
    assert_eq!(acquired, Acquired { fence: 1, raise_fence: true, resume_from_store: false }, "it has run here all along");
    assert_eq!(a.write_permission("dev1"), WritePermission::Write { fence: 1 });
    assert!(a.pending_acquisitions().is_empty());
}

#[test]
fn a_refused_renewal_that_finds_the_hubs_own_value_carries_on_from_it() {
    let mut a = LeaseBook::new("a");
    a.acquired(&device(), a.value(0), 3, &Observed::Absent, 0);
    let observed = Observed::Held { revision: 9, value: LeaseValue { node: "a".into(), connection_ms: 0 } };
    assert_eq!(a.renew_refused("dev1", &observed, SECOND), RenewRefused::Adopt { revision: 9 });
    assert_eq!(a.state("dev1"), Some(LeaseState::Held { fence: 3, revision: 9 }));
    a.renewed("dev1", 4, 10, SECOND);
    assert_eq!(a.state("dev1"), Some(LeaseState::Held { fence: 3, revision: 9 }), "an answer to an older write changes nothing");
}

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

    /// What a hub's connection does on connect: read, write, record, and (storage answering at
    /// once) raise a new fence.
    fn acquire(&mut self, book: &mut LeaseBook, device: &Arc<str>, now_ms: u64) -> Acquired {
        let acquired = self.acquire_unraised(book, device, now_ms);
        if acquired.raise_fence {
            book.fence_raised(device, acquired.fence);
        }
        acquired
    }

    /// [`Self::acquire`] before storage answered the fence raise.
    fn acquire_unraised(&mut self, book: &mut LeaseBook, device: &Arc<str>, now_ms: u64) -> Acquired {
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

/// Issue 25: a hub woken from a pause (SIGSTOP) longer than its lease still holds it in its book
/// until the renewal task's next answer; commands must not treat it as the owner meanwhile.
#[test]
fn a_hub_woken_from_a_pause_does_not_act_as_owner_until_the_bucket_confirms_its_lease() {
    let mut bucket = SimBucket::default();
    let (mut a, mut b) = (LeaseBook::new("a"), LeaseBook::new("b"));
    bucket.acquire(&mut a, &device(), 0);
    assert!(a.may_act_as_owner("dev1", 0));
    assert!(bucket.renew(&mut a, 2 * SECOND).is_empty());
    let valid_for = (LEASE_TTL - OWNER_MARGIN).as_millis() as u64;
    // Paused from 2.5 s: no renewal is sent. Owner up to the last confirmation's send + TTL − margin.
    assert!(a.may_act_as_owner("dev1", 2 * SECOND + valid_for - 1));
    assert!(!a.may_act_as_owner("dev1", 2 * SECOND + valid_for), "the lease may have expired: not the owner");
    // Meanwhile the key expired (8 s) and the device reconnected to b.
    bucket.acquire(&mut b, &device(), 9 * SECOND);
    // a wakes at 12 s: its book still holds the lease, but it is not the owner.
    assert_eq!(a.write_permission("dev1"), WritePermission::Write { fence: 1 }, "the book alone would still say owner");
    assert!(!a.may_act_as_owner("dev1", 12 * SECOND));
    assert_eq!(bucket.renew(&mut a, 12 * SECOND), vec![device()], "its renewal finds the lease lost");
    assert!(!a.may_act_as_owner("dev1", 12 * SECOND));
    assert!(b.may_act_as_owner("dev1", 12 * SECOND));
}

#[test]
fn a_paused_hub_whose_lease_nobody_took_is_the_owner_again_once_it_is_recreated() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    bucket.acquire(&mut a, &device(), 0);
    // Paused from 0.5 s to 20 s; nobody took the device.
    assert!(!a.may_act_as_owner("dev1", 20 * SECOND));
    assert!(bucket.renew(&mut a, 20 * SECOND).is_empty(), "expired and recreated, not lost");
    assert!(a.may_act_as_owner("dev1", 20 * SECOND));
    // The confirmation is dated when its write was sent: a renewal answered late does not extend it.
    a.acquired(&device(), a.value(0), 7, &Observed::Absent, 30 * SECOND);
    assert!(!a.may_act_as_owner("dev1", 30 * SECOND + (LEASE_TTL - OWNER_MARGIN).as_millis() as u64));
}

#[test]
fn a_pending_or_unknown_lease_does_not_make_the_hub_the_owner() {
    let mut a = LeaseBook::new("a");
    a.pending(&device(), a.value(0));
    assert!(!a.may_act_as_owner("dev1", 0), "never confirmed");
    assert!(!a.may_act_as_owner("other", 0));
}

#[test]
fn commands_run_here_only_on_a_confirmed_lease_or_while_nats_is_out_of_reach() {
    assert!(acts_as_owner(true, true));
    assert!(!acts_as_owner(false, true), "NATS answers: route it, the owner (maybe this hub once renewed) answers");
    assert!(acts_as_owner(true, false));
    assert!(acts_as_owner(false, false), "nobody can be asked: act here, the fence guards the rows");
}

#[test]
fn a_set_lease_is_wanted_by_a_hub_owning_a_member_and_never_taken_over() {
    assert_eq!(set_lease_step(false, true, false), SetLeaseStep::Create);
    assert_eq!(set_lease_step(false, true, true), SetLeaseStep::Nothing, "another hub renews it: wait for its expiry");
    assert_eq!(set_lease_step(false, false, false), SetLeaseStep::Nothing, "no member here: not this hub's to write");
    assert_eq!(set_lease_step(true, true, false), SetLeaseStep::Nothing, "held and wanted: the renewal keeps it");
    assert_eq!(set_lease_step(true, false, false), SetLeaseStep::LetGo);
}

/// Two hubs own a member each: one creates the set's lease, the other's create is refused; the
/// holder dies; once the key expired the other creates it under a higher fence.
#[test]
fn a_set_lease_has_one_holder_and_moves_when_the_holder_dies() {
    let mut bucket = SimBucket::default();
    let (mut a, mut b) = (LeaseBook::new("a"), LeaseBook::new("b"));
    let set: Arc<str> = Arc::from("horse");
    let first = bucket.write("horse", AcquireWrite::Create, &a.value(0), 0).unwrap();
    a.acquired_set(&set, a.value(0), first, 0);
    assert_eq!(a.write_permission("horse"), WritePermission::Wait, "its fence is not raised yet");
    a.fence_raised("horse", first);
    assert_eq!(bucket.write("horse", AcquireWrite::Create, &b.value(0), 0), None, "b's create meets a's key");
    assert_eq!(a.write_permission("horse"), WritePermission::Write { fence: first });
    assert_eq!(b.write_permission("horse"), WritePermission::Drop, "b writes none of the set's rows");
    assert!(bucket.renew(&mut a, 2 * SECOND).is_empty());
    // a dies after its renewal at 2 s; the key expires at 8 s.
    assert_eq!(bucket.write("horse", AcquireWrite::Create, &b.value(0), 7 * SECOND), None);
    let second = bucket.write("horse", AcquireWrite::Create, &b.value(0), 8 * SECOND).unwrap();
    b.acquired_set(&set, b.value(0), second, 8 * SECOND);
    b.fence_raised("horse", second);
    assert!(second > first);
    assert_eq!(b.write_permission("horse"), WritePermission::Write { fence: second });
}

/// Issue 25, the NATS outage at 150 mats: a hub cut off from NATS longer than [`LEASE_TTL`]
/// keeps its device (its rows written under its fence meanwhile); when NATS is back its renewal
/// finds the key expired and creates it again under a new fence, which storage holds only once
/// the hub raised it. Written under the new fence before that, the device's rows were refused
/// by storage and dropped as another owner's — an alarm raised then was never stored.
#[test]
fn a_lease_created_again_after_a_nats_outage_writes_under_its_new_fence_only_once_storage_holds_it() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    bucket.acquire(&mut a, &device(), 0);
    assert_eq!(a.write_permission("dev1"), WritePermission::Write { fence: 1 });
    // NATS away from 1 s to 16 s: no renewal is confirmed; the rows go on under fence 1.
    assert_eq!(a.unconfirmed(8 * SECOND), 1);
    assert_eq!(a.write_permission("dev1"), WritePermission::Write { fence: 1 }, "cut off, the hub keeps writing its device's rows");
    // Back: the renewal is refused (the key expired) and the lease is created again.
    let (device_id, value, revision) = a.due_renewals(16 * SECOND).pop().expect("due");
    assert_eq!(bucket.write(&device_id, AcquireWrite::Update { revision }, &value, 16 * SECOND), None);
    assert_eq!(a.renew_refused("dev1", &bucket.observe("dev1", 16 * SECOND), 16 * SECOND), RenewRefused::Recreate);
    let again = bucket.acquire_unraised(&mut a, &device(), 16 * SECOND);
    assert_eq!(again, Acquired { fence: 2, raise_fence: true, resume_from_store: false });
    assert_eq!(a.write_permission("dev1"), WritePermission::Wait, "storage still holds fence 1: the rows wait");
    a.fence_raised("dev1", 1);
    assert_eq!(a.write_permission("dev1"), WritePermission::Wait, "an older fence's answer changes nothing");
    a.fence_raised("dev1", 2);
    assert_eq!(a.write_permission("dev1"), WritePermission::Write { fence: 2 });
}

#[test]
fn a_newer_connection_to_the_same_hub_keeps_its_fence_still_being_raised() {
    let mut bucket = SimBucket::default();
    let mut a = LeaseBook::new("a");
    bucket.acquire_unraised(&mut a, &device(), 0);
    bucket.acquire_unraised(&mut a, &device(), SECOND);
    assert_eq!(a.write_permission("dev1"), WritePermission::Wait, "the first connection's raise has not answered");
    a.fence_raised("dev1", 1);
    assert_eq!(a.write_permission("dev1"), WritePermission::Write { fence: 1 });
}

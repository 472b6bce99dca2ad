//! Device leases, pure (issue 25, docs/scale-out.md "Ownership and fencing"): what a hub does
//! when it acquires, renews, loses or cannot confirm the lease of a device it serves. No NATS and
//! no clock here: `lease_keeper` does the I/O and passes the time (Unix ms) in, so every rule is
//! tested with a simulated clock.
//!
//! A lease is one key of the NATS key-value bucket `device_owners` (key: the device's id; value:
//! [`LeaseValue`], the owning hub and when its connection began). The bucket's `max_age` is
//! [`LEASE_TTL`]: a key nobody renews disappears, which is how a dead hub's leases end. Each write
//! gets the bucket's next revision (they only grow). A hub acquires a lease by creating the key
//! (absent) or updating it on the revision it read (present: the newest connection wins), renews
//! it every [`RENEW_EVERY`] by updating it on its last revision, and has lost it when an update
//! is refused because another hub wrote the key.
//!
//! The revision of the write that acquired the lease is the **fence** the owner writes the
//! device's rows under (`storage`'s `device_fence`); renewals do not change it.
//!
//! The book's times (`now_ms` of every method but [`LeaseBook::value`]) are on a **monotonic**
//! clock (milliseconds since the keeper started), and a confirmation is dated when its write was
//! *sent*: the bucket dated it later, so the key lives at least until that time plus
//! [`LEASE_TTL`]. [`LeaseBook::may_act_as_owner`] is what commands ask: a hub woken from a pause
//! longer than the lease does not act as the device's owner before the bucket confirms it again.
//!
//! A room set or Sensing Horse holds a lease in the same bucket (key: the set's id), so that one
//! hub writes its status rows: [`set_lease_step`] says when a hub takes or lets go of it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The bucket's `max_age`: a lease not renewed for this long is gone.
pub const LEASE_TTL: Duration = Duration::from_secs(6);
/// How often a held lease is renewed: three renewals fit in one [`LEASE_TTL`].
pub const RENEW_EVERY: Duration = Duration::from_secs(2);
/// How much of a lease's life a hub does not count on when it asks whether it still owns the
/// device: room for the NATS server's clock running faster than this hub's and for a command
/// that is answered just after the check.
pub const OWNER_MARGIN: Duration = Duration::from_secs(1);

/// A lease's value: which hub holds the device and since when its connection runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseValue {
    /// The owning hub's node name.
    pub node: String,
    /// When the owning connection began, Unix ms.
    pub connection_ms: u64,
}

impl LeaseValue {
    /// `node@connection_ms`, as stored in the bucket (node names have no `@`).
    pub fn encode(&self) -> String {
        format!("{}@{}", self.node, self.connection_ms)
    }

    /// The value read back; `None` for anything else.
    pub fn decode(bytes: &[u8]) -> Option<LeaseValue> {
        let text = std::str::from_utf8(bytes).ok()?;
        let (node, ms) = text.rsplit_once('@')?;
        Some(LeaseValue { node: node.to_owned(), connection_ms: ms.parse().ok()? })
    }
}

/// What the bucket holds for a device's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observed {
    /// No lease (never taken, expired, or deleted).
    Absent,
    /// A lease at this revision.
    Held { revision: u64, value: LeaseValue },
}

/// The write that acquires a lease, given what the bucket holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcquireWrite {
    /// Create the key (fails if someone created it meanwhile: read again).
    Create,
    /// Update it on the revision read (fails if someone wrote it meanwhile: read again).
    Update { revision: u64 },
}

/// Create when absent, otherwise take it over on the revision read: the newest connection wins.
pub fn acquire_write(observed: &Observed) -> AcquireWrite {
    match observed {
        Observed::Absent => AcquireWrite::Create,
        Observed::Held { revision, .. } => AcquireWrite::Update { revision: *revision },
    }
}

/// What the hub does after an acquisition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acquired {
    /// The revision the device's rows are written under.
    pub fence: u64,
    /// Raise the device's fence in storage to `fence` before the actor runs (a new fence).
    pub raise_fence: bool,
    /// Resume the device's actor from the snapshot in shared storage (another hub, or nobody
    /// known to this hub, ran it last).
    pub resume_from_store: bool,
}

/// Whether a lease is confirmed in the bucket or still to be acquired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseState {
    /// Acquired: `fence` is the acquisition's revision, `revision` the latest write.
    Held { fence: u64, revision: u64 },
    /// The device connected while NATS was away: it runs here, its lease is acquired as soon as
    /// NATS answers, and its writes wait until then.
    Pending,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Lease {
    value: LeaseValue,
    state: LeaseState,
    /// When the write the bucket last confirmed (acquisition or renewal) was sent, monotonic ms.
    confirmed_ms: u64,
    /// Whether storage holds `fence` as the device's fence ([`LeaseBook::fence_raised`]): until
    /// then the device's rows wait, since a row written under a fence storage does not hold yet
    /// is refused — and dropped as if another hub owned the device.
    fence_raised: bool,
}

impl Lease {
    fn state_fence(&self) -> Option<u64> {
        match self.state {
            LeaseState::Held { fence, .. } => Some(fence),
            LeaseState::Pending => None,
        }
    }
}

/// What becomes of a renewal the bucket refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenewRefused {
    /// Another hub holds it now: stop the device's actor and close its connection.
    Lost,
    /// It expired and nobody took it (NATS was away, or this hub was paused): create it again,
    /// under a new fence.
    Recreate,
    /// The bucket holds this hub's own value at another revision (an earlier write's answer was
    /// lost): carry on from it.
    Adopt { revision: u64 },
}

/// What a storage write of a device's rows may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritePermission {
    /// Write, fenced by this revision.
    Write { fence: u64 },
    /// Keep it: the lease is still to be acquired.
    Wait,
    /// Drop it (and count it): this hub does not own the device.
    Drop,
}

/// The leases one hub holds or is acquiring.
#[derive(Debug)]
pub struct LeaseBook {
    node: String,
    leases: HashMap<Arc<str>, Lease>,
}

impl LeaseBook {
    /// An empty book of hub `node`.
    pub fn new(node: &str) -> LeaseBook {
        LeaseBook { node: node.to_owned(), leases: HashMap::new() }
    }

    /// This hub's value for a connection that began at `now_ms`.
    pub fn value(&self, now_ms: u64) -> LeaseValue {
        LeaseValue { node: self.node.clone(), connection_ms: now_ms }
    }

    /// The bucket accepted this hub's write of `value` at `revision`, over `previous` (what it
    /// held before the write); `now_ms` is when the write was sent (monotonic). A lease this hub already held under its own value keeps its fence
    /// (a newer connection of the device to the same hub); anything else is a new fence, and the
    /// actor resumes from shared storage unless this hub is known to have run it last. A new
    /// fence is written under only once storage holds it ([`Self::fence_raised`]): meanwhile the
    /// device's rows wait (a lease that expired while NATS was away and is created again keeps
    /// its device running here, and its rows must not be refused under a fence not yet raised).
    pub fn acquired(&mut self, device: &Arc<str>, value: LeaseValue, revision: u64, previous: &Observed, now_ms: u64) -> Acquired {
        let (held_fence, was_raised) = match self.leases.get(device) {
            Some(Lease { state: LeaseState::Held { fence, .. }, fence_raised, .. }) => (Some(*fence), *fence_raised),
            _ => (None, false),
        };
        let ours_before = match previous {
            Observed::Held { value, .. } => value.node == self.node,
            Observed::Absent => false,
        };
        let acquired = match (held_fence, ours_before, previous) {
            // Still this hub's: same fence.
            (Some(fence), true, _) => Acquired { fence, raise_fence: false, resume_from_store: false },
            // It expired while this hub ran the device: a new fence, the running state is newest.
            (Some(_), false, Observed::Absent) => Acquired { fence: revision, raise_fence: true, resume_from_store: false },
            // Pending while NATS was away: the device has run here since it connected.
            (None, _, Observed::Absent) if self.is_pending(device) => {
                Acquired { fence: revision, raise_fence: true, resume_from_store: false }
            }
            // Another hub had it, or this hub had forgotten it: a new fence, resume from storage.
            _ => Acquired { fence: revision, raise_fence: true, resume_from_store: true },
        };
        // The same fence as before keeps its standing (it may still be being raised).
        let fence_raised = if acquired.raise_fence { false } else { held_fence != Some(acquired.fence) || was_raised };
        let state = LeaseState::Held { fence: acquired.fence, revision };
        self.leases.insert(device.clone(), Lease { value, state, confirmed_ms: now_ms, fence_raised });
        acquired
    }

    /// Storage holds `fence` as `device`'s fence now (this hub raised it): its rows are written
    /// under it from now on. A fence the book no longer holds (the lease was lost or acquired
    /// again meanwhile) changes nothing.
    pub fn fence_raised(&mut self, device: &str, fence: u64) {
        if let Some(lease) = self.leases.get_mut(device)
            && lease.state_fence() == Some(fence)
        {
            lease.fence_raised = true;
        }
    }

    /// The device connected but NATS did not answer: it runs here and its lease is acquired later.
    pub fn pending(&mut self, device: &Arc<str>, value: LeaseValue) {
        if !self.leases.contains_key(device) {
            self.leases.insert(device.clone(), Lease { value, state: LeaseState::Pending, confirmed_ms: 0, fence_raised: false });
        }
    }

    fn is_pending(&self, device: &str) -> bool {
        self.leases.get(device).is_some_and(|l| l.state == LeaseState::Pending)
    }

    /// The leases to acquire (pending) with the value to write.
    pub fn pending_acquisitions(&self) -> Vec<(Arc<str>, LeaseValue)> {
        self.leases.iter().filter(|(_, l)| l.state == LeaseState::Pending).map(|(d, l)| (d.clone(), l.value.clone())).collect()
    }

    /// The held leases whose renewal is due at `now_ms`: device, value, revision to update on.
    pub fn due_renewals(&self, now_ms: u64) -> Vec<(Arc<str>, LeaseValue, u64)> {
        let every = RENEW_EVERY.as_millis() as u64;
        self.leases
            .iter()
            .filter_map(|(device, lease)| match lease.state {
                LeaseState::Held { revision, .. } if now_ms >= lease.confirmed_ms.saturating_add(every) => {
                    Some((device.clone(), lease.value.clone(), revision))
                }
                _ => None,
            })
            .collect()
    }

    /// A renewal written on `sent` was accepted at `revision`; `now_ms` is when it was sent.
    pub fn renewed(&mut self, device: &str, sent: u64, revision: u64, now_ms: u64) {
        if let Some(lease) = self.leases.get_mut(device)
            && let LeaseState::Held { fence, revision: current } = lease.state
            && current == sent
        {
            lease.state = LeaseState::Held { fence, revision };
            lease.confirmed_ms = now_ms;
        }
    }

    /// A renewal was refused (the key's revision was not ours); `observed` is what the bucket
    /// holds now. A lost lease leaves the book.
    pub fn renew_refused(&mut self, device: &str, observed: &Observed, now_ms: u64) -> RenewRefused {
        let outcome = match observed {
            Observed::Absent => RenewRefused::Recreate,
            Observed::Held { revision, value } if value.node == self.node => RenewRefused::Adopt { revision: *revision },
            Observed::Held { .. } => RenewRefused::Lost,
        };
        match &outcome {
            RenewRefused::Lost => {
                self.leases.remove(device);
            }
            RenewRefused::Adopt { revision } => {
                if let Some(lease) = self.leases.get_mut(device)
                    && let LeaseState::Held { fence, .. } = lease.state
                {
                    lease.state = LeaseState::Held { fence, revision: *revision };
                    lease.confirmed_ms = now_ms;
                    if let Observed::Held { value, .. } = observed {
                        lease.value = value.clone();
                    }
                }
            }
            RenewRefused::Recreate => {}
        }
        outcome
    }

    /// The bucket's watch saw `device`'s key written at `revision` with `value`. `true` when the
    /// lease is lost (another hub wrote it after this hub's last write); it leaves the book. A
    /// deletion or an expiry is not a loss: the next renewal recreates the key.
    pub fn watched(&mut self, device: &str, revision: u64, value: Option<&LeaseValue>) -> bool {
        let Some(lease) = self.leases.get(device) else { return false };
        let LeaseState::Held { revision: ours, .. } = lease.state else { return false };
        let lost = value.is_some_and(|v| v.node != self.node) && revision > ours;
        if lost {
            self.leases.remove(device);
        }
        lost
    }

    /// The leases the bucket has not confirmed for a whole [`LEASE_TTL`] at `now_ms` (NATS away):
    /// the devices keep running here, their writes stay fenced by their last fence, and another
    /// hub can take them only through NATS (which raises the fence first).
    pub fn unconfirmed(&self, now_ms: u64) -> usize {
        let ttl = LEASE_TTL.as_millis() as u64;
        self.leases.values().filter(|l| matches!(l.state, LeaseState::Held { .. }) && now_ms >= l.confirmed_ms.saturating_add(ttl)).count()
    }

    /// Forgets a lease (its actor stopped for another reason, or the lease was lost elsewhere).
    pub fn forget(&mut self, device: &str) {
        self.leases.remove(device);
    }

    /// What a storage write of `device`'s rows may do: write under the lease's fence once
    /// storage holds it; wait while the lease is pending or its fence is being raised; drop
    /// when this hub does not hold the lease.
    pub fn write_permission(&self, device: &str) -> WritePermission {
        match self.leases.get(device) {
            Some(Lease { state: LeaseState::Held { fence, .. }, fence_raised: true, .. }) => WritePermission::Write { fence: *fence },
            Some(_) => WritePermission::Wait,
            None => WritePermission::Drop,
        }
    }

    /// Whether this hub may act as the device's owner at `now_ms` (monotonic): its lease is held
    /// and the bucket confirmed it recently enough that it cannot have expired — a write sent at
    /// `confirmed_ms` keeps the key at least until `confirmed_ms + LEASE_TTL`, less
    /// [`OWNER_MARGIN`]. A hub woken from a pause (or cut off from NATS) longer than that does
    /// not know whether another hub took the device meanwhile; a pending lease was never
    /// confirmed. Either waits for the renewal task's next answer.
    pub fn may_act_as_owner(&self, device: &str, now_ms: u64) -> bool {
        let valid_for = LEASE_TTL.saturating_sub(OWNER_MARGIN).as_millis() as u64;
        self.leases
            .get(device)
            .is_some_and(|l| matches!(l.state, LeaseState::Held { .. }) && now_ms < l.confirmed_ms.saturating_add(valid_for))
    }

    /// A room set's lease was created by this hub at `revision` (a write sent at `now_ms`): its
    /// status rows are written under that fence once it is raised ([`Self::fence_raised`]).
    /// Sets never take a lease over (see [`set_lease_step`]), so every acquisition is a new fence.
    pub fn acquired_set(&mut self, set: &Arc<str>, value: LeaseValue, revision: u64, now_ms: u64) {
        let state = LeaseState::Held { fence: revision, revision };
        self.leases.insert(set.clone(), Lease { value, state, confirmed_ms: now_ms, fence_raised: false });
    }

    /// The state of a device's lease here.
    pub fn state(&self, device: &str) -> Option<LeaseState> {
        self.leases.get(device).map(|l| l.state)
    }

    /// How many leases the book holds or waits for.
    pub fn len(&self) -> usize {
        self.leases.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.leases.is_empty()
    }
}

/// What a hub does about a room set's (or Sensing Horse's) lease on one renewal tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetLeaseStep {
    /// Try to create the key (only if absent: a set's lease is never taken over).
    Create,
    /// Stop renewing it and forget it: it expires within [`LEASE_TTL`] and a hub that owns a
    /// member takes it then.
    LetGo,
    /// Nothing to do (held and wanted: the renewal keeps it; or not wanted, or held elsewhere).
    Nothing,
}

/// The rule of a set's lease: a hub wants it while it owns one of the set's members (its own
/// set actor hears that member first-hand); it creates the key when it wants it, does not hold
/// it, and no other hub has been seen renewing it within a lease time (`held_elsewhere`); it
/// lets it go when it owns no member any more. Creation only ever succeeds on an absent key, so
/// two hubs that want it at once end with one holder; the one whose create fails sees the
/// other's renewals and waits. A holder that dies stops renewing: the key expires and another
/// hub that owns a member creates it.
pub fn set_lease_step(held_here: bool, owns_a_member: bool, held_elsewhere: bool) -> SetLeaseStep {
    match (held_here, owns_a_member) {
        (false, true) if !held_elsewhere => SetLeaseStep::Create,
        (true, false) => SetLeaseStep::LetGo,
        _ => SetLeaseStep::Nothing,
    }
}

/// Whether a command to a device whose actor holds its connection here runs here (`true`) or is
/// routed to the owner over NATS (`false`, where this hub's own command service answers only
/// once its lease is confirmed again, and stays silent if it was lost). A lease that may have
/// expired does not make this hub the owner; but while this hub cannot reach NATS at all no hub
/// can be asked (and none can take the device through this hub's NATS): it acts on the device it
/// holds, as a hub does during a NATS outage, and the fence in storage still refuses its rows if
/// another hub took the device meanwhile.
pub fn acts_as_owner(lease_valid: bool, nats_reachable: bool) -> bool {
    lease_valid || !nats_reachable
}

#[cfg(test)]
mod tests;

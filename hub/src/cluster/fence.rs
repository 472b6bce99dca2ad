//! What the storage writer's batches become in cluster mode (issue 25): each device's rows are
//! written under its lease's fence, kept while its lease is pending, dropped (and counted) when
//! this hub does not own it. [`partition`] is the pure rule; [`Fencing`] holds the waiting rows
//! and reaches the hub's [`LeaseKeeper`] once it runs.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use actors::actor::record::Record;
use actors::actor::storage_writer::StatusRecord;

use super::lease::WritePermission;
use super::lease_keeper::LeaseKeeper;

/// Records that may wait for their devices' leases (NATS away when they connected); the oldest
/// are dropped and counted beyond it.
pub const MAX_WAITING_RECORDS: usize = 100_000;

/// A batch split by what each item's device may do.
#[derive(Debug, PartialEq)]
pub struct Partition<T> {
    /// To write, with the fence to write under, in the batch's order.
    pub write: Vec<(T, u64)>,
    /// To keep until the lease is acquired, in order.
    pub wait: Vec<T>,
    /// Dropped: this hub does not own their devices.
    pub dropped: usize,
}

/// Splits `items` by their devices' [`WritePermission`], keeping the order within each part.
pub fn partition<T>(
    items: impl IntoIterator<Item = T>,
    device: impl Fn(&T) -> &str,
    permission: impl Fn(&str) -> WritePermission,
) -> Partition<T> {
    let mut out = Partition { write: Vec::new(), wait: Vec::new(), dropped: 0 };
    for item in items {
        match permission(device(&item)) {
            WritePermission::Write { fence } => out.write.push((item, fence)),
            WritePermission::Wait => out.wait.push(item),
            WritePermission::Drop => out.dropped += 1,
        }
    }
    out
}

/// What becomes of a row storage refused because the device's fence no longer stood at the
/// revision it was written under (`used`), given what the device's rows may do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFenced {
    /// This hub raised a newer fence of its own since (its lease was created again after a NATS
    /// outage): write the row again under it. Storage still refuses it if yet another owner
    /// raised the fence meanwhile.
    Retry { fence: u64 },
    /// This hub is raising a newer fence of its own: keep the row until it stands.
    Wait,
    /// Another hub owns the device: drop it (and count it).
    Drop,
}

/// The rule of a refused row ([`AfterFenced`]): only a fence of this hub's own newer than the
/// one refused gives the row another try; the same fence refused means another hub raised it.
pub fn after_fenced(used: u64, now: WritePermission) -> AfterFenced {
    match now {
        WritePermission::Write { fence } if fence > used => AfterFenced::Retry { fence },
        WritePermission::Wait => AfterFenced::Wait,
        WritePermission::Write { .. } | WritePermission::Drop => AfterFenced::Drop,
    }
}

#[derive(Default)]
struct Waiting {
    records: VecDeque<Record>,
    statuses: BTreeMap<Arc<str>, StatusRecord>,
}

/// The storage writer's view of this hub's leases.
#[derive(Default)]
pub struct Fencing {
    keeper: OnceLock<Arc<LeaseKeeper>>,
    waiting: Mutex<Waiting>,
    /// The devices whose rows were last told to wait or were dropped, and when that was logged.
    refused: Mutex<std::collections::HashMap<String, (WritePermission, std::time::Instant)>>,
}

/// How often the same device's held or dropped rows are logged again.
const REFUSAL_LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(10);
/// Devices remembered for [`REFUSAL_LOG_EVERY`] before the older entries are pruned (a hub that
/// saw a whole fleet move away once does not keep every device's entry).
const REFUSALS_KEPT: usize = 1024;

impl Fencing {
    /// Fencing whose leases come later ([`Self::attach`]): until then every write waits.
    pub fn new() -> Arc<Fencing> {
        Arc::new(Fencing::default())
    }

    /// The hub's lease keeper, once it runs.
    pub fn attach(&self, keeper: Arc<LeaseKeeper>) {
        let _ = self.keeper.set(keeper);
    }

    /// What a write of `device`'s rows may do.
    pub fn permission(&self, device: &str) -> WritePermission {
        let permission = self.keeper.get().map_or(WritePermission::Wait, |k| k.write_permission(device));
        if !matches!(permission, WritePermission::Write { .. }) {
            self.log_refusal(device, permission);
        }
        permission
    }

    /// Names a device whose rows wait or are dropped, once per kind and [`REFUSAL_LOG_EVERY`].
    fn log_refusal(&self, device: &str, permission: WritePermission) {
        let now = std::time::Instant::now();
        let mut refused = self.refused.lock().unwrap_or_else(|p| p.into_inner());
        let fresh = refused.get(device).is_none_or(|(last, at)| *last != permission || now >= *at + REFUSAL_LOG_EVERY);
        if fresh {
            if refused.len() >= REFUSALS_KEPT {
                // Only a line logged within the last period can hold the next back.
                refused.retain(|_, (_, at)| now < *at + REFUSAL_LOG_EVERY);
            }
            refused.insert(device.to_owned(), (permission, now));
            let state = self.keeper.get().map(|k| k.lease_state(device));
            tracing::warn!(%device, ?permission, ?state, "the device's rows are not written now");
        }
    }

    /// Counts dropped writes.
    pub fn count_fenced(&self, writes: usize) {
        if let Some(keeper) = self.keeper.get() {
            keeper.count_fenced(writes);
        }
    }

    fn waiting(&self) -> MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether records or statuses wait for their leases.
    pub fn has_waiting(&self) -> bool {
        let waiting = self.waiting();
        !waiting.records.is_empty() || !waiting.statuses.is_empty()
    }

    /// How many records wait (for their leases, or given back by a failed write).
    pub fn waiting_records(&self) -> usize {
        self.waiting().records.len()
    }

    /// The records waiting for their leases, taken out (put back what is not written with
    /// [`Self::wait_records_first`]).
    pub fn take_waiting_records(&self) -> Vec<Record> {
        self.waiting().records.drain(..).collect()
    }

    /// Puts records back at the front of the waiting queue (they are older than those in it).
    pub fn wait_records_first(&self, records: Vec<Record>) {
        let mut waiting = self.waiting();
        for record in records.into_iter().rev() {
            waiting.records.push_front(record);
        }
        self.bound(&mut waiting);
    }

    /// Keeps records until their leases are acquired.
    pub fn wait_records(&self, records: Vec<Record>) {
        let mut waiting = self.waiting();
        waiting.records.extend(records);
        self.bound(&mut waiting);
    }

    fn bound(&self, waiting: &mut Waiting) {
        let excess = waiting.records.len().saturating_sub(MAX_WAITING_RECORDS);
        if excess > 0 {
            waiting.records.drain(..excess);
            tracing::warn!(dropped = excess, "records waiting for their leases dropped (oldest first)");
        }
    }

    /// The statuses waiting for their leases, taken out.
    pub fn take_waiting_statuses(&self) -> BTreeMap<Arc<str>, StatusRecord> {
        std::mem::take(&mut self.waiting().statuses)
    }

    /// Keeps statuses until their leases are acquired; a newer one of a device replaces it.
    pub fn wait_statuses(&self, statuses: impl IntoIterator<Item = StatusRecord>) {
        let mut waiting = self.waiting();
        for status in statuses {
            waiting.statuses.insert(status.device_id.clone(), status);
        }
    }

    /// Puts statuses back unless a newer one of the same device waits already.
    pub fn wait_statuses_if_absent(&self, statuses: impl IntoIterator<Item = StatusRecord>) {
        let mut waiting = self.waiting();
        for status in statuses {
            waiting.statuses.entry(status.device_id.clone()).or_insert(status);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_splits_by_lease_and_keeps_its_order() {
        let items = vec![("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)];
        let permission = |device: &str| match device {
            "a" => WritePermission::Write { fence: 7 },
            "b" => WritePermission::Wait,
            _ => WritePermission::Drop,
        };
        let split = partition(items, |item: &(&str, i32)| item.0, permission);
        assert_eq!(split.write, vec![(("a", 1), 7), (("a", 3), 7)]);
        assert_eq!(split.wait, vec![("b", 2), ("b", 5)]);
        assert_eq!(split.dropped, 1);
    }

    #[test]
    fn a_refused_row_is_written_again_only_under_a_newer_fence_of_this_hub() {
        assert_eq!(after_fenced(3, WritePermission::Write { fence: 5 }), AfterFenced::Retry { fence: 5 }, "this hub's lease created again");
        assert_eq!(after_fenced(3, WritePermission::Wait), AfterFenced::Wait, "its new fence is being raised");
        assert_eq!(after_fenced(3, WritePermission::Write { fence: 3 }), AfterFenced::Drop, "a stale hub: another raised the fence");
        assert_eq!(after_fenced(3, WritePermission::Drop), AfterFenced::Drop, "the lease is lost");
    }

    #[test]
    fn until_the_leases_run_every_write_waits() {
        let fencing = Fencing::new();
        assert_eq!(fencing.permission("a"), WritePermission::Wait);
    }

    #[test]
    fn waiting_records_keep_their_order_and_a_bound() {
        let fencing = Fencing::new();
        let end = |device: &str, ms: u64| Record::StreamingEnd { device_id: device.into(), ends_at_ms: Some(ms) };
        fencing.wait_records(vec![end("a", 2), end("a", 3)]);
        fencing.wait_records_first(vec![end("a", 1)]);
        assert_eq!(fencing.take_waiting_records(), vec![end("a", 1), end("a", 2), end("a", 3)]);
        fencing.wait_records((0..MAX_WAITING_RECORDS as u64 + 2).map(|ms| end("a", ms)).collect());
        let kept = fencing.take_waiting_records();
        assert_eq!((kept.len(), kept.first()), (MAX_WAITING_RECORDS, Some(&end("a", 2))), "the oldest went");
    }
}

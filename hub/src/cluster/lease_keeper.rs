//! Device leases on NATS (issue 25): the I/O around the pure [`LeaseBook`]. The bucket
//! `device_owners` (JetStream key-value, `max_age` = [`LEASE_TTL`]), one acquisition per device
//! connection ([`LeaseKeeper::acquire`], before the device's actor runs), one task that renews
//! every held lease and acquires the pending ones ([`LeaseKeeper::renew`]), one that watches the
//! bucket for takeovers ([`LeaseKeeper::watch`]); a lost lease stops the device's actor here
//! (`RegistryMsg::Release`). A new fence is raised in storage (`device_fence`) before the actor
//! runs, and a device taken over from another hub resumes from its snapshot in shared storage
//! (`snapshot_store`).
//!
//! The keeper also keeps the other halves of issue 25's ownership: its watch records every
//! lease write of the cluster (`lease_sightings`, read by `dead_owners`), its renewal task tends
//! the leases of room sets and Sensing Horses (`set_leases`), and [`LeaseKeeper::may_act_as_owner`]
//! tells commands whether this hub's lease is known valid (`lease::may_act_as_owner`, monotonic).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use actors::actor::registry::RegistryMsg;
use actors::metrics::HubMetrics;
use async_nats::jetstream::kv;
use futures_util::StreamExt;
use ractor::ActorRef;
use storage::Store;
use tokio::sync::watch;

use super::lease::{
    AcquireWrite, Acquired, LEASE_TTL, LeaseBook, LeaseValue, Observed, RenewRefused, WritePermission, acquire_write, acts_as_owner,
};
use super::lease_sightings::Sightings;
use super::set_leases::SetParts;
use super::takeover_batch::TakeoverBatches;
use super::{Cluster, snapshot_store};

/// The key-value bucket of device leases.
pub const BUCKET: &str = "device_owners";
/// How long one NATS operation may take before the hub treats NATS as away.
pub const NATS_WAIT: Duration = Duration::from_secs(2);
/// How often the renewal task looks for due renewals and pending acquisitions.
pub(super) const RENEW_TICK: Duration = Duration::from_millis(500);
/// Renewals in flight at once.
const RENEW_CONCURRENCY: usize = 64;
/// Reads and writes of one acquisition before it gives up (others kept writing the key).
const ACQUIRE_ATTEMPTS: usize = 8;

/// The outcome of a device connection's acquisition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acquisition {
    /// This hub owns the device: attach its connection.
    Owned,
    /// NATS did not answer: the device runs here, its writes wait, the lease follows when NATS
    /// answers.
    Pending,
    /// A newer owner raised the device's fence meanwhile, or the fence could not be raised: the
    /// connection is refused (the device connects again).
    Refused(String),
}

/// This hub's device leases.
pub struct LeaseKeeper {
    pub(super) node: String,
    client: async_nats::Client,
    jetstream: async_nats::jetstream::Context,
    pub(super) store: Store,
    registry: ActorRef<RegistryMsg>,
    book: Mutex<LeaseBook>,
    bucket: tokio::sync::Mutex<Option<kv::Store>>,
    /// The start of the book's monotonic clock.
    epoch: std::time::Instant,
    /// Every lease write of the cluster this hub's watch saw.
    sightings: Mutex<Sightings>,
    /// What tending the sets' leases needs (`set_leases`), once the hub's parts run.
    pub(super) sets: std::sync::OnceLock<SetParts>,
    /// The hub's metrics: the writes dropped by the fence and the leases lost are counted there
    /// (`HubMetrics::cluster`, on `/metrics`).
    pub metrics: Arc<HubMetrics>,
    /// A device declared ownerless has an owner again (`dead_owners` resyncs).
    pub(super) revived: std::sync::atomic::AtomicBool,
    /// Whether the watch of the bucket runs (what `lease_sightings` may judge from).
    pub(super) watch_running: std::sync::atomic::AtomicBool,
    /// Takeovers on their way to storage, written together when they arrive together.
    takeovers: Arc<TakeoverBatches>,
    /// Counts the book's edits ([`BookEdit`]): what [`LeaseKeeper::await_owner`] waits on.
    book_edits: watch::Sender<u64>,
}

/// The book, read.
pub(super) struct BookRead<'a>(MutexGuard<'a, LeaseBook>);

impl std::ops::Deref for BookRead<'_> {
    type Target = LeaseBook;
    fn deref(&self) -> &LeaseBook {
        &self.0
    }
}

/// The book, edited: once done (dropped), whoever waits on the book's edits looks again.
pub(super) struct BookEdit<'a> {
    book: MutexGuard<'a, LeaseBook>,
    edits: &'a watch::Sender<u64>,
}

impl std::ops::Deref for BookEdit<'_> {
    type Target = LeaseBook;
    fn deref(&self) -> &LeaseBook {
        &self.book
    }
}

impl std::ops::DerefMut for BookEdit<'_> {
    fn deref_mut(&mut self) -> &mut LeaseBook {
        &mut self.book
    }
}

impl Drop for BookEdit<'_> {
    fn drop(&mut self) {
        self.edits.send_modify(|count| *count = count.wrapping_add(1));
    }
}

/// Waits until `check` answers (`Some(true)`: done, `Some(false)`: given up), looking again at
/// each of the book's `edits`, until `deadline` (then `false`).
async fn await_book(mut edits: watch::Receiver<u64>, deadline: tokio::time::Instant, check: impl Fn() -> Option<bool>) -> bool {
    loop {
        // Marked seen before the look: an edit after it wakes the wait below.
        edits.borrow_and_update();
        if let Some(answer) = check() {
            return answer;
        }
        match tokio::time::timeout_at(deadline, edits.changed()).await {
            Ok(Ok(())) => {}
            // The keeper is gone, or the time ran out.
            Ok(Err(_)) | Err(_) => return false,
        }
    }
}

impl LeaseKeeper {
    /// The keeper of `cluster`'s hub; nothing runs until [`Self::renew`] and [`Self::watch`].
    pub fn new(cluster: &Cluster, store: Store, registry: ActorRef<RegistryMsg>, metrics: Arc<HubMetrics>) -> Arc<LeaseKeeper> {
        Arc::new(LeaseKeeper {
            node: cluster.node.to_string(),
            client: cluster.client.clone(),
            jetstream: cluster.jetstream.clone(),
            takeovers: TakeoverBatches::new(store.clone(), cluster.node.to_string()),
            store,
            registry,
            book: Mutex::new(LeaseBook::new(cluster.node.as_str())),
            bucket: tokio::sync::Mutex::new(None),
            epoch: std::time::Instant::now(),
            sightings: Mutex::new(Sightings::new()),
            sets: std::sync::OnceLock::new(),
            metrics,
            revived: std::sync::atomic::AtomicBool::new(false),
            watch_running: std::sync::atomic::AtomicBool::new(false),
            book_edits: watch::Sender::new(0),
        })
    }

    /// The book, to read.
    pub(super) fn book(&self) -> BookRead<'_> {
        BookRead(self.book.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// The book, to edit: waits on it ([`Self::await_owner`]) look again once the edit is done.
    pub(super) fn book_mut(&self) -> BookEdit<'_> {
        BookEdit { book: self.book.lock().unwrap_or_else(|p| p.into_inner()), edits: &self.book_edits }
    }

    pub(super) fn sightings(&self) -> MutexGuard<'_, Sightings> {
        self.sightings.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Now on the book's monotonic clock, ms (a pause of the process counts: it is
    /// `CLOCK_MONOTONIC`).
    pub(super) fn mono_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Whether NATS answers this hub now.
    pub(super) fn nats_reachable(&self) -> bool {
        self.client.connection_state() == async_nats::connection::State::Connected
    }

    /// Whether a command to `device`, whose actor holds its connection here, runs here: the
    /// lease is known valid, or NATS is out of reach (`lease::acts_as_owner`). Otherwise it goes
    /// to the owner over NATS, which is this hub again once its lease is confirmed.
    pub fn may_act_as_owner(&self, device: &str) -> bool {
        acts_as_owner(self.book().may_act_as_owner(device, self.mono_ms()), self.nats_reachable())
    }

    /// Waits up to `limit` for this hub's lease of `device` to be known valid: `true` once it is,
    /// `false` when the lease left the book (lost) or the time ran out. The command service asks
    /// it before it answers another hub (or this one) for the device. It looks again at each edit
    /// of the book (a renewal's answer, a loss), not on a timer: a lease only becomes valid by one.
    pub async fn await_owner(&self, device: &str, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        await_book(self.book_edits.subscribe(), deadline, || {
            let book = self.book();
            if book.may_act_as_owner(device, self.mono_ms()) {
                Some(true)
            } else if book.state(device).is_none() {
                Some(false)
            } else {
                None
            }
        })
        .await
    }

    /// What a storage write of `device`'s rows may do.
    pub fn write_permission(&self, device: &str) -> WritePermission {
        self.book().write_permission(device)
    }

    /// The state of `device`'s lease here, for tests and diagnostics.
    pub fn lease_state(&self, device: &str) -> Option<super::lease::LeaseState> {
        self.book().state(device)
    }

    /// Counts writes dropped because this hub does not own their device.
    pub fn count_fenced(&self, writes: usize) {
        if writes > 0 {
            self.metrics.cluster.fenced_writes.fetch_add(writes as u64, Ordering::Relaxed);
            tracing::warn!(writes, "writes of devices another hub owns now were dropped (fenced)");
        }
    }

    /// The bucket, created on first use (NATS may have been away at start).
    async fn bucket(&self) -> Result<kv::Store, String> {
        let mut cached = self.bucket.lock().await;
        if let Some(bucket) = cached.as_ref() {
            return Ok(bucket.clone());
        }
        let bucket =
            tokio::time::timeout(NATS_WAIT, open_bucket(&self.jetstream)).await.map_err(|_| "NATS did not answer".to_owned())??;
        *cached = Some(bucket.clone());
        Ok(bucket)
    }

    /// Acquires `device`'s lease for a connection that begins now, raises its fence and, if it
    /// was taken from another hub, hands its actor the snapshot in shared storage. Called before
    /// the connection is attached to the device's actor.
    pub async fn acquire(&self, device: &Arc<str>) -> Acquisition {
        let value = self.book().value(unix_ms());
        let sent = self.mono_ms();
        let written = match self.bucket().await {
            Ok(bucket) => tokio::time::timeout(NATS_WAIT, write_lease(&bucket, device, &value)).await.unwrap_or(Err("timed out".into())),
            Err(error) => Err(error),
        };
        match written {
            Ok((revision, previous)) => {
                let kv_ms = self.mono_ms() - sent;
                let acquired = self.book_mut().acquired(device, value, revision, &previous, sent);
                let settled = self.settle(device, acquired).await;
                let took_ms = self.mono_ms() - sent;
                if took_ms >= 1_000 {
                    tracing::warn!(%device, took_ms, kv_ms, ?acquired, "lease acquisition slow");
                }
                settled
            }
            Err(error) => {
                tracing::warn!(%device, %error, "NATS did not answer: the device runs here, its lease follows");
                self.book_mut().pending(device, value);
                Acquisition::Pending
            }
        }
    }

    /// After the bucket accepted a lease: the fence first, then (a takeover) the stored snapshot.
    async fn settle(&self, device: &Arc<str>, acquired: Acquired) -> Acquisition {
        let began = self.mono_ms();
        let mut steps = [0; 2];
        let settled = self.settle_timed(device, acquired, &mut steps, began).await;
        let took_ms = self.mono_ms() - began;
        if took_ms >= 1_000 {
            tracing::warn!(%device, took_ms, ?steps, "lease settlement slow (fence raise with the snapshot read, registry, ms)");
        }
        settled
    }

    async fn settle_timed(&self, device: &Arc<str>, acquired: Acquired, steps: &mut [u64; 2], began: u64) -> Acquisition {
        let fence = i64::try_from(acquired.fence).unwrap_or(i64::MAX);
        let refused = |why: String| {
            self.book_mut().forget(device);
            Acquisition::Refused(why)
        };
        // A takeover raises the fence and reads what the device resumes from in one round trip;
        // a new fence of a device that runs here already (pending, expired) is only raised.
        let snapshot = if acquired.resume_from_store {
            match snapshot_store::raise_and_load(&self.takeovers, device, fence).await {
                Ok(Some(snapshot)) => Some(snapshot.map(Box::new)),
                Ok(None) => return refused("a newer owner raised the device's fence".into()),
                Err(error) => return refused(format!("the device's fence could not be raised: {error}")),
            }
        } else {
            if acquired.raise_fence {
                match self.store.hub_wide().device_fences().raise(device, fence, &self.node).await {
                    Ok(true) => {}
                    Ok(false) => return refused("a newer owner raised the device's fence".into()),
                    Err(error) => return refused(format!("the device's fence could not be raised: {error}")),
                }
            }
            None
        };
        if acquired.raise_fence {
            self.book_mut().fence_raised(device, acquired.fence);
        }
        steps[0] = self.mono_ms() - began;
        if let Some(snapshot) = snapshot {
            let device_id = device.clone();
            let taken = self.registry.call(|reply| RegistryMsg::TakeOver { device_id, snapshot, reply }, Some(NATS_WAIT * 5)).await;
            steps[1] = self.mono_ms() - began - steps[0];
            if !matches!(taken, Ok(ractor::rpc::CallResult::Success(()))) {
                return Acquisition::Refused("the registry did not take the device over".into());
            }
        }
        Acquisition::Owned
    }

    /// Another hub owns `device` now: its actor here stops and its connection closes.
    fn lost(&self, device: &Arc<str>) {
        if self.is_set(device) {
            // A set's lease holds no actor here: another hub writes its rows now.
            self.book_mut().forget(device);
            return;
        }
        HubMetrics::inc(&self.metrics.cluster.leases_lost);
        tracing::warn!(%device, "another hub took the device's lease; stopping its actor here");
        let _ = self.registry.cast(RegistryMsg::Release { device_id: device.clone() });
    }

    /// Renews every held lease when due and acquires the pending ones, until `stopped`: the one
    /// timer of all leases. NATS away: nothing changes here (the devices run on, their writes stay
    /// fenced by their fence); a renewal refused because the key expired creates it again under
    /// a new fence; one refused because another hub wrote it is a lost lease.
    pub async fn renew(self: Arc<Self>, mut stopped: watch::Receiver<bool>) {
        let mut tick = tokio::time::interval(RENEW_TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut warned_unconfirmed = 0;
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stopped.changed() => return,
            }
            let Ok(bucket) = self.bucket().await else { continue };
            let (due, pending) = {
                let book = self.book();
                (book.due_renewals(self.mono_ms()), book.pending_acquisitions())
            };
            futures_util::stream::iter(due)
                .for_each_concurrent(RENEW_CONCURRENCY, |(device, value, revision)| {
                    let bucket = bucket.clone();
                    let keeper = self.clone();
                    async move { keeper.renew_one(&bucket, &device, &value, revision).await }
                })
                .await;
            for (device, value) in pending {
                let sent = self.mono_ms();
                if let Ok(Ok((revision, previous))) = tokio::time::timeout(NATS_WAIT, write_lease(&bucket, &device, &value)).await {
                    let acquired = self.book_mut().acquired(&device, value, revision, &previous, sent);
                    if let Acquisition::Refused(why) = self.settle(&device, acquired).await {
                        tracing::warn!(%device, %why, "a pending lease could not be settled");
                        self.lost(&device);
                    }
                }
            }
            self.tend_sets(&bucket).await;
            let unconfirmed = self.book().unconfirmed(self.mono_ms());
            if unconfirmed != warned_unconfirmed {
                warned_unconfirmed = unconfirmed;
                if unconfirmed > 0 {
                    tracing::warn!(unconfirmed, "leases not confirmed by NATS for a whole lease time; their devices run on here");
                }
            }
        }
    }

    async fn renew_one(&self, bucket: &kv::Store, device: &Arc<str>, value: &LeaseValue, revision: u64) {
        // A confirmation is dated when its write was sent: the bucket dated it later.
        let sent = self.mono_ms();
        match tokio::time::timeout(NATS_WAIT, bucket.update(device.as_ref(), value.encode().into(), revision)).await {
            Ok(Ok(renewed)) => self.book_mut().renewed(device, revision, renewed, sent),
            Ok(Err(error)) if error.kind() == kv::UpdateErrorKind::WrongLastRevision => {
                let Ok(Ok(observed)) = tokio::time::timeout(NATS_WAIT, observe(bucket, device)).await else { return };
                let outcome = self.book_mut().renew_refused(device, &observed, sent);
                match outcome {
                    RenewRefused::Lost => self.lost(device),
                    // A set's expired lease is not taken again over another hub's: it is
                    // created again by `tend_sets` if nobody else did.
                    RenewRefused::Recreate if self.is_set(device) => self.book_mut().forget(device),
                    RenewRefused::Recreate => {
                        let sent = self.mono_ms();
                        if let Ok(Ok((revision, previous))) = tokio::time::timeout(NATS_WAIT, write_lease(bucket, device, value)).await {
                            let acquired = self.book_mut().acquired(device, value.clone(), revision, &previous, sent);
                            if let Acquisition::Refused(why) = self.settle(device, acquired).await {
                                tracing::warn!(%device, %why, "an expired lease could not be taken again");
                                self.book_mut().forget(device);
                                self.lost(device);
                            }
                        }
                    }
                    RenewRefused::Adopt { .. } => {}
                }
            }
            // NATS away or slow: the lease stays as it is; the device runs on.
            _ => {}
        }
    }

    /// Watches the bucket for other hubs' writes of the leases this hub holds (the newest
    /// connection took the device), until `stopped`. Reconnects by itself.
    pub async fn watch(self: Arc<Self>, mut stopped: watch::Receiver<bool>) {
        loop {
            if *stopped.borrow() {
                return;
            }
            let watch = match self.bucket().await {
                Ok(bucket) => tokio::time::timeout(NATS_WAIT, bucket.watch_all()).await.ok().and_then(Result::ok),
                Err(_) => None,
            };
            let Some(mut watch) = watch else {
                self.watch_running.store(false, Ordering::Relaxed);
                self.sightings().not_watching();
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => continue,
                    _ = stopped.changed() => return,
                }
            };
            self.watch_running.store(true, Ordering::Relaxed);
            self.sightings().watching(self.mono_ms());
            loop {
                let entry = tokio::select! {
                    entry = watch.next() => entry,
                    _ = stopped.changed() => return,
                };
                let Some(Ok(entry)) = entry else { break };
                let value = match entry.operation {
                    kv::Operation::Put => LeaseValue::decode(&entry.value),
                    kv::Operation::Delete | kv::Operation::Purge => None,
                };
                if value.is_some() && self.sightings().seen(&entry.key, self.mono_ms()) {
                    // A device shown ownerless has an owner again: its statuses meanwhile
                    // were not heard here (`dead_owners` asks for them).
                    self.revived.store(true, Ordering::Relaxed);
                }
                if self.book_mut().watched(&entry.key, entry.revision, value.as_ref()) {
                    self.lost(&Arc::from(entry.key.as_str()));
                }
            }
            self.watch_running.store(false, Ordering::Relaxed);
            self.sightings().not_watching();
        }
    }
}

/// Creates the bucket if it does not exist yet and opens it. The stream is created as the
/// key-value convention has it (`KV_device_owners` on `$KV.device_owners.>`, one message per key,
/// roll-ups, direct gets, `max_age` = [`LEASE_TTL`]) rather than through `create_key_value`,
/// which reads the account's information first and cannot parse Debian's nats-server 2.9's
/// (it lacks `reserved_memory`). Creating a stream that exists with the same configuration is a
/// no-op; another configuration is left as it is.
pub async fn open_bucket(jetstream: &async_nats::jetstream::Context) -> Result<kv::Store, String> {
    use async_nats::jetstream::stream;
    let config = stream::Config {
        name: format!("KV_{BUCKET}"),
        subjects: vec![format!("$KV.{BUCKET}.>")],
        max_messages_per_subject: 1,
        max_age: LEASE_TTL,
        allow_rollup: true,
        deny_delete: true,
        allow_direct: true,
        discard: stream::DiscardPolicy::New,
        num_replicas: 1,
        ..Default::default()
    };
    if let Err(error) = jetstream.create_stream(config).await {
        tracing::debug!(%error, "the lease bucket's stream was not created (it may exist)");
    }
    jetstream.get_key_value(BUCKET).await.map_err(|e| e.to_string())
}

/// What the bucket holds for `device`.
pub(super) async fn observe(bucket: &kv::Store, device: &str) -> Result<Observed, String> {
    let entry = bucket.entry(device).await.map_err(|e| e.to_string())?;
    Ok(match entry {
        Some(entry) if entry.operation == kv::Operation::Put => match LeaseValue::decode(&entry.value) {
            Some(value) => Observed::Held { revision: entry.revision, value },
            None => Observed::Held { revision: entry.revision, value: LeaseValue { node: String::new(), connection_ms: 0 } },
        },
        _ => Observed::Absent,
    })
}

/// Reads the key and writes `value` over what it read (create if absent, update on its
/// revision), again while other hubs write in between. The revision written and what it replaced.
async fn write_lease(bucket: &kv::Store, device: &str, value: &LeaseValue) -> Result<(u64, Observed), String> {
    for _ in 0..ACQUIRE_ATTEMPTS {
        let previous = observe(bucket, device).await?;
        let written = match acquire_write(&previous) {
            AcquireWrite::Create => bucket
                .create(device, value.encode().into())
                .await
                .map_err(|e| (e.kind() == kv::CreateErrorKind::AlreadyExists, e.to_string())),
            AcquireWrite::Update { revision } => bucket
                .update(device, value.encode().into(), revision)
                .await
                .map_err(|e| (e.kind() == kv::UpdateErrorKind::WrongLastRevision, e.to_string())),
        };
        match written {
            Ok(revision) => return Ok((revision, previous)),
            Err((true, _)) => continue,
            Err((false, error)) => return Err(error),
        }
    }
    Err("the lease kept changing under this hub's writes".into())
}

/// Now, Unix ms.
pub(super) fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU8, AtomicU32};

    use super::*;

    /// The answer of a check reading `state` (0 waiting, 1 done, 2 given up), counting its looks.
    fn check<'a>(state: &'a AtomicU8, looks: &'a AtomicU32) -> impl Fn() -> Option<bool> + 'a {
        move || {
            looks.fetch_add(1, Ordering::SeqCst);
            match state.load(Ordering::SeqCst) {
                0 => None,
                answer => Some(answer == 1),
            }
        }
    }

    #[tokio::test]
    async fn a_wait_on_the_book_looks_again_at_each_edit_and_only_then() {
        let edits = watch::Sender::new(0u64);
        let state = Arc::new(AtomicU8::new(0));
        let looks = AtomicU32::new(0);
        let far = tokio::time::Instant::now() + Duration::from_secs(30);
        let editor = {
            let (edits, state) = (edits.clone(), state.clone());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                // An edit that does not settle it, then one that does.
                edits.send_modify(|n| *n += 1);
                tokio::time::sleep(Duration::from_millis(50)).await;
                state.store(1, Ordering::SeqCst);
                edits.send_modify(|n| *n += 1);
            })
        };
        let started = std::time::Instant::now();
        assert!(await_book(edits.subscribe(), far, check(&state, &looks)).await);
        assert!(started.elapsed() < Duration::from_secs(10), "answered at the edit, not at the deadline");
        editor.await.expect("editor");
        // One look at the start, one per edit: no polling in between.
        assert_eq!(looks.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_wait_on_the_book_gives_up_when_told_at_its_deadline_or_without_a_keeper() {
        let edits = watch::Sender::new(0u64);
        let looks = AtomicU32::new(0);
        let given_up = AtomicU8::new(2);
        let far = tokio::time::Instant::now() + Duration::from_secs(30);
        assert!(!await_book(edits.subscribe(), far, check(&given_up, &looks)).await);
        let waiting = AtomicU8::new(0);
        let soon = tokio::time::Instant::now() + Duration::from_millis(100);
        assert!(!await_book(edits.subscribe(), soon, check(&waiting, &looks)).await);
        assert_eq!(looks.load(Ordering::SeqCst), 2, "one look each");
        let receiver = edits.subscribe();
        drop(edits);
        assert!(!await_book(receiver, far, check(&waiting, &looks)).await, "no keeper left to edit the book");
    }
}

//! `StorageWriter`: batches status changes and device records off the frame path and hands them
//! to the store.
//!
//! Mat actors cast `Save` (a status: the latest per device wins) or `Record` (a log entry, an
//! alarm event, a streaming end time, a raw capture: every one is kept, in order) and move on.
//! The writer flushes every [`FLUSH_INTERVAL`] (or at once on `Flush`), and retries a failed
//! batch with backoff. Pending records are bounded by [`MAX_PENDING_RECORD_BYTES`]: beyond it the
//! oldest are dropped and counted, so a store that is down cannot exhaust memory. What waits,
//! since when, what failed and what was dropped is kept in the hub's metrics
//! ([`crate::metrics::StorageGauges`]: `/metrics` and `GET /health`).
//! The store is behind [`StatusStore`] so this crate does not depend on the database.

use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use mat_core::machine::mat::MatSnapshot;
use mat_core::machine::status::PatientStatus;

use crate::metrics::{HubMetrics, unix_now_ms};

pub use super::record::Record;

/// How long status changes gather before they are written together.
pub const FLUSH_INTERVAL: Duration = Duration::from_millis(200);
/// Longest wait before retrying a failed write.
pub const MAX_RETRY_DELAY: Duration = Duration::from_secs(10);
/// Bytes of records (approximately) that may wait for the store; older ones are dropped beyond.
pub const MAX_PENDING_RECORD_BYTES: usize = 64 * 1024 * 1024;

/// One device's status to persist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusRecord {
    pub device_id: Arc<str>,
    pub functional: bool,
    pub patient_status: PatientStatus,
}

/// A mat machine's snapshot for shared storage (cluster mode): the latest per device is kept.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceSnapshot {
    pub device_id: Arc<str>,
    /// When it was taken, Unix ms.
    pub taken_at_ms: u64,
    pub snapshot: Arc<MatSnapshot>,
}

/// The future a store returns.
pub type StoreFuture<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;

/// Where statuses go. Implemented by the hub on top of the `storage` crate.
pub trait StatusStore: Send + Sync + 'static {
    /// Writes a batch of statuses in one transaction.
    fn save_statuses(&self, batch: Vec<StatusRecord>) -> StoreFuture<'_>;

    /// Writes a batch of device records, in the order given (an alarm's `AlarmRaised` always
    /// precedes its `AlarmAttended`). See [`Record`] for what each variant must become.
    fn save_records(&self, batch: Vec<Record>) -> StoreFuture<'_>;

    /// Whether the store holds rows of its own that wait to be written (cluster mode: rows of a
    /// device whose lease was pending): the writer then calls it on every flush, even with
    /// nothing new.
    fn has_waiting_rows(&self) -> bool {
        false
    }

    /// How many records the store itself keeps unwritten (cluster mode: records waiting for
    /// their devices' leases, or given back by a failed write), for the metrics.
    fn waiting_records(&self) -> usize {
        0
    }

    /// Whether the store keeps every record of a batch it was given, written or not (cluster
    /// mode: it writes devices' records concurrently, keeps the unwritten ones and writes them
    /// first on the next flush): the writer then lets go of a batch even when the store reports
    /// a failure, which still reaches a `Flush` caller and still backs the writer off. Otherwise
    /// a failed batch stays with the writer and is given again whole.
    fn keeps_unwritten_records(&self) -> bool {
        false
    }

    /// Whether this store keeps the mat machines' snapshots (cluster mode: the device's next
    /// owner resumes from them). A hub on its own does not: its actors send none.
    fn keeps_snapshots(&self) -> bool {
        false
    }

    /// Writes a batch of snapshots (the latest of each device), after the records and statuses
    /// they were taken with.
    fn save_snapshots(&self, _batch: Vec<DeviceSnapshot>) -> StoreFuture<'_> {
        Box::pin(async { Ok(()) })
    }
}

/// Messages of the writer.
pub enum WriterMsg {
    /// Persist this status (the latest per device wins within a batch).
    Save(StatusRecord),
    /// Persist this record (every record is kept, in order).
    Record(Record),
    /// Persist this snapshot (cluster mode; the latest per device wins within a batch).
    Snapshot(DeviceSnapshot),
    /// Timer: write what is pending.
    FlushDue,
    /// Write what is pending now and reply when done (shutdown, tests).
    Flush(RpcReplyPort<Result<(), String>>),
}

/// The writer's state.
pub struct WriterState {
    store: Arc<dyn StatusStore>,
    pending: BTreeMap<Arc<str>, StatusRecord>,
    snapshots: BTreeMap<Arc<str>, DeviceSnapshot>,
    records: VecDeque<Record>,
    record_bytes: usize,
    dropped_records: u64,
    metrics: Arc<HubMetrics>,
    /// When the oldest record not yet known written was queued, Unix ms (it may wait in the
    /// store, cluster mode, after the writer let go of it).
    unwritten_since_ms: Option<u64>,
    /// Records the store kept unwritten at the last flush ([`StatusStore::waiting_records`]).
    store_waiting: usize,
    flush_armed: bool,
    retry_delay: Duration,
    /// When the oldest record not yet stored was queued.
    oldest_record_at: Option<std::time::Instant>,
    /// When a slow flush was last logged.
    slow_logged_at: Option<std::time::Instant>,
}

/// A flush slower than this, a record queued longer than this when its flush began, or an event
/// older than 15 times this in the flush (records are dated when what they tell happened: 5–7 s
/// back in a writer that keeps up at 100 mats) is logged, at most once per 10 times this.
pub const SLOW_FLUSH: Duration = Duration::from_secs(1);

/// The writer actor.
pub struct StorageWriter;

impl Actor for StorageWriter {
    type Msg = WriterMsg;
    type State = WriterState;
    /// The store, and the hub's metrics (the writer keeps [`HubMetrics::storage`]).
    type Arguments = (Arc<dyn StatusStore>, Arc<HubMetrics>);

    async fn pre_start(
        &self,
        _myself: ActorRef<WriterMsg>,
        (store, metrics): (Arc<dyn StatusStore>, Arc<HubMetrics>),
    ) -> Result<WriterState, ActorProcessingErr> {
        Ok(WriterState {
            store,
            pending: BTreeMap::new(),
            snapshots: BTreeMap::new(),
            records: VecDeque::new(),
            record_bytes: 0,
            dropped_records: 0,
            metrics,
            unwritten_since_ms: None,
            store_waiting: 0,
            flush_armed: false,
            retry_delay: FLUSH_INTERVAL,
            oldest_record_at: None,
            slow_logged_at: None,
        })
    }

    async fn handle(&self, myself: ActorRef<WriterMsg>, message: WriterMsg, state: &mut WriterState) -> Result<(), ActorProcessingErr> {
        match message {
            WriterMsg::Save(record) => {
                state.pending.insert(record.device_id.clone(), record);
                state.arm(&myself);
            }
            WriterMsg::Record(record) => {
                state.push_record(record);
                state.arm(&myself);
            }
            WriterMsg::Snapshot(snapshot) => {
                state.snapshots.insert(snapshot.device_id.clone(), snapshot);
                state.arm(&myself);
            }
            WriterMsg::FlushDue => {
                state.flush_armed = false;
                if state.flush().await.is_err() {
                    state.flush_armed = true;
                    state.retry_delay = (state.retry_delay * 2).min(MAX_RETRY_DELAY);
                    myself.send_after(state.retry_delay, || WriterMsg::FlushDue);
                }
            }
            WriterMsg::Flush(reply) => {
                let _ = reply.send(state.flush().await);
            }
        }
        Ok(())
    }
}

impl WriterState {
    fn arm(&mut self, myself: &ActorRef<WriterMsg>) {
        if !self.flush_armed {
            self.flush_armed = true;
            myself.send_after(FLUSH_INTERVAL, || WriterMsg::FlushDue);
        }
    }

    fn push_record(&mut self, record: Record) {
        self.record_bytes += record.approx_bytes();
        self.records.push_back(record);
        self.oldest_record_at.get_or_insert_with(std::time::Instant::now);
        self.unwritten_since_ms.get_or_insert_with(unix_now_ms);
        while self.record_bytes > MAX_PENDING_RECORD_BYTES && self.records.len() > 1 {
            if let Some(old) = self.records.pop_front() {
                self.record_bytes = self.record_bytes.saturating_sub(old.approx_bytes());
                self.dropped_records += 1;
                HubMetrics::inc(&self.metrics.storage.records_dropped);
                tracing::warn!(dropped = self.dropped_records, "the store is behind; oldest pending record dropped");
            }
        }
        self.publish();
    }

    /// Writes what waits, and since when, into the metrics. Once nothing waits (here or in the
    /// store) the oldest record's time is forgotten.
    fn publish(&mut self) {
        let pending = self.records.len() + self.store_waiting;
        if pending == 0 {
            self.unwritten_since_ms = None;
        }
        let gauges = &self.metrics.storage;
        gauges.pending_records.store(pending as u64, std::sync::atomic::Ordering::Relaxed);
        gauges.oldest_pending_unix_ms.store(self.unwritten_since_ms.unwrap_or(0), std::sync::atomic::Ordering::Relaxed);
    }

    /// Records first, then statuses, and statuses only once every record before them is
    /// written: a status must never reach the store before the records emitted with it (the mat
    /// actor casts a step's records before its status). A hub killed between the two writes then
    /// restarts with the alarm pending and the status not yet changed, which the machines handle
    /// (the alarm is not raised twice); the other order restarted with the patient Missing and no
    /// alarm, and the restored machine, seeing the condition already on, raised none until the
    /// patient came back and left again (found by `hub/tests/kill_under_load.rs`: first statuses
    /// written before records in a batch, then statuses written while the records' batch failed
    /// and waited for its retry).
    ///
    /// Snapshots (cluster mode) come last, for the same reason: a snapshot in shared storage is
    /// never newer than the records and statuses written before it, so the hub that takes the
    /// device over never resumes with an alarm pending whose row was not written.
    async fn flush(&mut self) -> Result<(), String> {
        let began = std::time::Instant::now();
        let waited = self.oldest_record_at.map(|at| began.duration_since(at));
        let counts = (self.records.len(), self.pending.len(), self.snapshots.len());
        let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let oldest_event_ms = self.records.iter().filter_map(Record::occurred_at_ms).min().map_or(0, |at| now_ms.saturating_sub(at));
        let records = self.flush_records().await;
        let records_took = began.elapsed();
        let result = match records {
            Ok(()) => match self.flush_statuses().await {
                Ok(()) => self.flush_snapshots().await,
                Err(error) => Err(error),
            },
            Err(error) => Err(error),
        };
        if result.is_err() {
            HubMetrics::inc(&self.metrics.storage.writes_failed);
        }
        self.store_waiting = self.store.waiting_records();
        self.publish();
        let took = began.elapsed();
        if (took >= SLOW_FLUSH || waited.is_some_and(|w| w >= SLOW_FLUSH) || oldest_event_ms >= 15 * SLOW_FLUSH.as_millis() as u64)
            && self.slow_logged_at.is_none_or(|at| began >= at + 10 * SLOW_FLUSH)
        {
            self.slow_logged_at = Some(began);
            tracing::warn!(
                took_ms = took.as_millis() as u64,
                records_ms = records_took.as_millis() as u64,
                records = counts.0,
                statuses = counts.1,
                snapshots = counts.2,
                oldest_record_waited_ms = waited.map_or(0, |w| w.as_millis() as u64),
                oldest_event_ms,
                ok = result.is_ok(),
                "storage writer flush slow"
            );
        }
        result
    }

    async fn flush_snapshots(&mut self) -> Result<(), String> {
        if self.snapshots.is_empty() {
            return Ok(());
        }
        let batch: Vec<DeviceSnapshot> = self.snapshots.values().cloned().collect();
        match self.store.save_snapshots(batch).await {
            Ok(()) => {
                self.snapshots.clear();
                self.retry_delay = FLUSH_INTERVAL;
                Ok(())
            }
            Err(error) => {
                tracing::warn!(%error, pending = self.snapshots.len(), "snapshot batch not written; will retry");
                Err(error)
            }
        }
    }

    async fn flush_statuses(&mut self) -> Result<(), String> {
        if self.pending.is_empty() && !self.store.has_waiting_rows() {
            return Ok(());
        }
        let batch: Vec<StatusRecord> = self.pending.values().cloned().collect();
        match self.store.save_statuses(batch).await {
            Ok(()) => {
                self.pending.clear();
                self.retry_delay = FLUSH_INTERVAL;
                Ok(())
            }
            Err(error) => {
                tracing::warn!(%error, pending = self.pending.len(), "status batch not written; will retry");
                Err(error)
            }
        }
    }

    async fn flush_records(&mut self) -> Result<(), String> {
        if self.records.is_empty() && !self.store.has_waiting_rows() {
            return Ok(());
        }
        let batch: Vec<Record> = self.records.iter().cloned().collect();
        let result = self.store.save_records(batch).await;
        if result.is_err() && self.store.keeps_unwritten_records() {
            self.records.clear();
            self.record_bytes = 0;
            self.oldest_record_at = None;
        }
        match result {
            Ok(()) => {
                self.records.clear();
                self.record_bytes = 0;
                self.oldest_record_at = None;
                self.retry_delay = FLUSH_INTERVAL;
                Ok(())
            }
            Err(error) => {
                tracing::warn!(%error, pending = self.records.len(), "record batch not written; will retry");
                Err(error)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A store that refuses the first `failures` record batches, then keeps what it is given.
    struct FlakyStore {
        failures: Mutex<u32>,
        statuses: Mutex<Vec<StatusRecord>>,
        records: Mutex<Vec<Record>>,
    }

    impl StatusStore for FlakyStore {
        fn save_statuses(&self, batch: Vec<StatusRecord>) -> StoreFuture<'_> {
            self.statuses.lock().unwrap_or_else(|p| p.into_inner()).extend(batch);
            Box::pin(async { Ok(()) })
        }

        fn save_records(&self, batch: Vec<Record>) -> StoreFuture<'_> {
            let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
            if *failures > 0 {
                *failures -= 1;
                return Box::pin(async { Err("database unavailable".to_owned()) });
            }
            self.records.lock().unwrap_or_else(|p| p.into_inner()).extend(batch);
            Box::pin(async { Ok(()) })
        }
    }

    fn stream_end(device: &str, ends_at_ms: Option<u64>) -> Record {
        Record::StreamingEnd { device_id: device.into(), ends_at_ms }
    }

    async fn flush(writer: &ActorRef<WriterMsg>) -> Result<(), String> {
        match writer.call(WriterMsg::Flush, None).await {
            Ok(ractor::rpc::CallResult::Success(result)) => result,
            _ => Err("writer did not answer".to_owned()),
        }
    }

    #[tokio::test]
    async fn records_are_kept_in_order_until_the_store_takes_them() {
        let store = Arc::new(FlakyStore { failures: Mutex::new(1), statuses: Mutex::default(), records: Mutex::default() });
        let (writer, _) = Actor::spawn(None, StorageWriter, (store.clone() as Arc<dyn StatusStore>, Arc::default())).await.expect("writer");
        let sent = vec![stream_end("a", Some(1)), stream_end("b", Some(2)), stream_end("a", None)];
        for record in sent.clone() {
            writer.cast(WriterMsg::Record(record)).expect("cast");
        }
        writer
            .cast(WriterMsg::Save(StatusRecord { device_id: "a".into(), functional: true, patient_status: PatientStatus::Correct }))
            .expect("cast");
        assert_eq!(flush(&writer).await, Err("database unavailable".to_owned()));
        assert!(store.statuses.lock().unwrap_or_else(|p| p.into_inner()).is_empty(), "statuses wait for the records before them");
        assert_eq!(flush(&writer).await, Ok(()));
        assert_eq!(store.statuses.lock().unwrap_or_else(|p| p.into_inner()).len(), 1, "then the status is written");
        assert_eq!(*store.records.lock().unwrap_or_else(|p| p.into_inner()), sent, "every record, once, in order");
        assert_eq!(flush(&writer).await, Ok(()));
        assert_eq!(store.records.lock().unwrap_or_else(|p| p.into_inner()).len(), 3);
    }

    fn storage_gauges(metrics: &HubMetrics) -> (u64, u64, u64, u64) {
        let g = &metrics.storage;
        let load = |a: &std::sync::atomic::AtomicU64| a.load(std::sync::atomic::Ordering::Relaxed);
        (load(&g.pending_records), load(&g.oldest_pending_unix_ms), load(&g.writes_failed), load(&g.records_dropped))
    }

    #[tokio::test]
    async fn what_waits_since_when_and_every_failure_are_in_the_metrics() {
        let store = Arc::new(FlakyStore { failures: Mutex::new(2), statuses: Mutex::default(), records: Mutex::default() });
        let metrics = Arc::new(HubMetrics::default());
        let (writer, _) =
            Actor::spawn(None, StorageWriter, (store.clone() as Arc<dyn StatusStore>, metrics.clone())).await.expect("writer");
        let before = unix_now_ms();
        writer.cast(WriterMsg::Record(stream_end("a", Some(1)))).expect("cast");
        writer.cast(WriterMsg::Record(stream_end("b", Some(2)))).expect("cast");
        assert!(flush(&writer).await.is_err());
        let (pending, since, failed, dropped) = storage_gauges(&metrics);
        assert_eq!((pending, failed, dropped), (2, 1, 0));
        assert!((before..=unix_now_ms()).contains(&since), "queued at {since}, between {before} and now");
        writer.cast(WriterMsg::Record(stream_end("c", None))).expect("cast");
        assert!(flush(&writer).await.is_err());
        assert_eq!(storage_gauges(&metrics), (3, since, 2, 0), "a later record does not make the wait younger");
        assert_eq!(flush(&writer).await, Ok(()));
        assert_eq!(storage_gauges(&metrics), (0, 0, 2, 0), "written: nothing waits, and nothing was lost");
    }

    #[tokio::test]
    async fn a_record_dropped_past_the_bound_is_counted_as_lost() {
        let store = Arc::new(FlakyStore { failures: Mutex::new(0), statuses: Mutex::default(), records: Mutex::default() });
        let metrics = Arc::new(HubMetrics::default());
        let (writer, _) =
            Actor::spawn(None, StorageWriter, (store.clone() as Arc<dyn StatusStore>, metrics.clone())).await.expect("writer");
        // One tare shared by three records, each counted at its full size: three are more than
        // the bound, two are not.
        let cells = MAX_PENDING_RECORD_BYTES / 2 / 5 * 2;
        let tare = Arc::new(mat_core::machine::tare::Tare {
            rows: 1,
            cols: 0,
            cells: vec![0; cells],
            source: mat_core::machine::tare::TareSource::Zeroed,
            set_at_ms: 0,
        });
        for _ in 0..3 {
            writer.cast(WriterMsg::Record(Record::Tare { device_id: "a".into(), tare: tare.clone() })).expect("cast");
        }
        assert_eq!(flush(&writer).await, Ok(()));
        let (pending, _, failed, dropped) = storage_gauges(&metrics);
        assert_eq!((pending, failed, dropped), (0, 0, 1));
        assert_eq!(store.records.lock().unwrap_or_else(|p| p.into_inner()).len(), 2, "the two newest were written");
    }

    /// A store that notes which batches it was given, in order.
    struct OrderStore(Mutex<Vec<&'static str>>);

    impl StatusStore for OrderStore {
        fn save_statuses(&self, _batch: Vec<StatusRecord>) -> StoreFuture<'_> {
            self.0.lock().unwrap_or_else(|p| p.into_inner()).push("statuses");
            Box::pin(async { Ok(()) })
        }

        fn save_records(&self, _batch: Vec<Record>) -> StoreFuture<'_> {
            self.0.lock().unwrap_or_else(|p| p.into_inner()).push("records");
            Box::pin(async { Ok(()) })
        }
    }

    /// A store that keeps snapshots and notes the order of its batches.
    struct SnapshotStore(Mutex<Vec<String>>);

    impl StatusStore for SnapshotStore {
        fn save_statuses(&self, _batch: Vec<StatusRecord>) -> StoreFuture<'_> {
            self.0.lock().unwrap_or_else(|p| p.into_inner()).push("statuses".into());
            Box::pin(async { Ok(()) })
        }

        fn save_records(&self, _batch: Vec<Record>) -> StoreFuture<'_> {
            self.0.lock().unwrap_or_else(|p| p.into_inner()).push("records".into());
            Box::pin(async { Ok(()) })
        }

        fn keeps_snapshots(&self) -> bool {
            true
        }

        fn save_snapshots(&self, batch: Vec<DeviceSnapshot>) -> StoreFuture<'_> {
            let taken: Vec<String> = batch.iter().map(|s| format!("{}@{}", s.device_id, s.taken_at_ms)).collect();
            self.0.lock().unwrap_or_else(|p| p.into_inner()).push(format!("snapshots {}", taken.join(",")));
            Box::pin(async { Ok(()) })
        }
    }

    #[tokio::test]
    async fn snapshots_go_last_and_only_the_latest_of_each_device() {
        let store = Arc::new(SnapshotStore(Mutex::default()));
        let (writer, _) = Actor::spawn(None, StorageWriter, (store.clone() as Arc<dyn StatusStore>, Arc::default())).await.expect("writer");
        let snapshot = |device: &str, at: u64| {
            let status = mat_core::machine::mat::DeviceStatus::offline(
                mat_protocol::device_type::DeviceType::MattressMatIoT,
                PatientStatus::Correct,
            );
            let stored = mat_core::machine::mat::StoredMatState::default();
            let machine = MatSnapshot::from_stored(mat_protocol::device_type::DeviceType::MattressMatIoT, PatientStatus::Correct, stored);
            assert_eq!(machine.status, status);
            WriterMsg::Snapshot(DeviceSnapshot { device_id: device.into(), taken_at_ms: at, snapshot: Arc::new(machine) })
        };
        writer.cast(snapshot("a", 1)).expect("cast");
        writer.cast(snapshot("a", 2)).expect("cast");
        writer.cast(snapshot("b", 3)).expect("cast");
        writer.cast(WriterMsg::Record(stream_end("a", None))).expect("cast");
        writer
            .cast(WriterMsg::Save(StatusRecord { device_id: "a".into(), functional: true, patient_status: PatientStatus::Missing }))
            .expect("cast");
        assert_eq!(flush(&writer).await, Ok(()));
        assert_eq!(*store.0.lock().unwrap_or_else(|p| p.into_inner()), ["records", "statuses", "snapshots a@2,b@3"]);
    }

    #[tokio::test]
    async fn an_alarm_reaches_the_store_before_the_missing_status_it_was_raised_with() {
        let store = Arc::new(OrderStore(Mutex::default()));
        let (writer, _) = Actor::spawn(None, StorageWriter, (store.clone() as Arc<dyn StatusStore>, Arc::default())).await.expect("writer");
        writer
            .cast(WriterMsg::Save(StatusRecord { device_id: "a".into(), functional: true, patient_status: PatientStatus::Missing }))
            .expect("cast");
        let raised = Record::AlarmRaised {
            device_id: "a".into(),
            alarm_id: 1,
            kind: mat_core::machine::alarm::AlarmKind::Missing,
            raised_at_ms: 1,
            reason: None,
        };
        writer.cast(WriterMsg::Record(raised)).expect("cast");
        assert_eq!(flush(&writer).await, Ok(()));
        assert_eq!(*store.0.lock().unwrap_or_else(|p| p.into_inner()), ["records", "statuses"]);
    }

    /// A store that keeps what it is given and fails its first write (cluster mode's kind).
    struct KeepingStore {
        given: Mutex<Vec<Vec<Record>>>,
    }

    impl StatusStore for KeepingStore {
        fn save_statuses(&self, _batch: Vec<StatusRecord>) -> StoreFuture<'_> {
            Box::pin(async { Ok(()) })
        }

        fn save_records(&self, batch: Vec<Record>) -> StoreFuture<'_> {
            let mut given = self.given.lock().unwrap_or_else(|p| p.into_inner());
            given.push(batch);
            let first = given.len() == 1;
            Box::pin(async move { if first { Err("database unavailable".to_owned()) } else { Ok(()) } })
        }

        fn keeps_unwritten_records(&self) -> bool {
            true
        }
    }

    #[tokio::test]
    async fn a_store_that_keeps_unwritten_records_is_not_given_them_twice() {
        let store = Arc::new(KeepingStore { given: Mutex::default() });
        let (writer, _) = Actor::spawn(None, StorageWriter, (store.clone() as Arc<dyn StatusStore>, Arc::default())).await.expect("writer");
        writer.cast(WriterMsg::Record(stream_end("a", Some(1)))).expect("cast");
        assert_eq!(flush(&writer).await, Err("database unavailable".to_owned()), "the failure still reaches the caller");
        writer.cast(WriterMsg::Record(stream_end("a", Some(2)))).expect("cast");
        assert_eq!(flush(&writer).await, Ok(()));
        let given = store.given.lock().unwrap_or_else(|p| p.into_inner()).clone();
        assert_eq!(given, vec![vec![stream_end("a", Some(1))], vec![stream_end("a", Some(2))]], "the store kept the first itself");
    }
}

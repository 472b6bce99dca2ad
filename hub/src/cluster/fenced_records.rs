//! The storage writer's device records in cluster mode (issue 25): each written under its
//! device's fence, many devices' in one transaction.
//!
//! One fenced transaction per record put a hub's writer 52–106 s behind after a hub's death at
//! 1,000 mats: the database server commits about a thousand transactions a second on two cores,
//! however small (docs/reliability.md). Now each device's records go in runs ("segments") of
//! rows, and the segments of the devices written at once share a transaction
//! (`crate::group_commit`, storage's `device_rows`). The rules are those of one record at a time:
//! - a device's records are written in their order;
//! - a finished capture goes alone (its analysis is computed first, `crate::records::save_record`);
//! - an alarm's record ends its segment, and its report (IHE PCD-04) is queued once the row is
//!   stored; a report that fails keeps that record, whose row is written again idempotently,
//!   and never the rows before it;
//! - a segment storage refuses under an old fence is written again under this hub's newer fence,
//!   kept while that fence is being raised, and otherwise dropped and counted
//!   (`fence::after_fenced`);
//! - a segment whose transaction fails (a value the schema refuses) is written again one record
//!   at a time, which drops only the refused record; a database that is away keeps the records.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use actors::actor::record::Record;
use actors::catalog::Catalog;
use futures_util::StreamExt;
use storage::repo::{DeviceRows, RowsWritten};
use storage::{Store, StoreError};

use super::fence::{AfterFenced, Fencing, after_fenced};
use super::lease::WritePermission;
use crate::alarm_manager::AlarmReporter;
use crate::group_commit::GroupCommit;
use crate::records::{device_row, report_stored, save_record};

/// How many devices' records the writer writes at once: each waits for a place in a shared
/// transaction, so this is what one flush can put in the transactions in flight.
pub const DEVICES_WRITTEN_AT_ONCE: usize = ROW_FLIGHTS * DEVICES_PER_TRANSACTION;
/// Transactions of records in flight at once.
pub const ROW_FLIGHTS: usize = 2;
/// Devices in one transaction, at most.
pub const DEVICES_PER_TRANSACTION: usize = 64;
/// Records of one device in one transaction, at most.
pub const RECORDS_PER_SEGMENT: usize = 32;

/// The shared transactions of devices' rows.
pub type RowBatches = GroupCommit<DeviceRows, RowsWritten>;

/// The queue of this hub's device rows and the transactions that write them.
pub fn row_batches(store: Store) -> Arc<RowBatches> {
    GroupCommit::new(
        ROW_FLIGHTS,
        DEVICES_PER_TRANSACTION,
        Box::new(move |devices: Vec<DeviceRows>| {
            let store = store.clone();
            Box::pin(async move {
                let began = std::time::Instant::now();
                let written = store.hub_wide().device_rows().write_fenced(&devices).await;
                let took_ms = began.elapsed().as_millis();
                if took_ms >= 1_000 {
                    let rows: usize = devices.iter().map(|d| d.rows.len()).sum();
                    tracing::warn!(devices = devices.len(), rows, took_ms, "record transaction slow");
                }
                written.map_err(|error| error.to_string())
            })
        }),
    )
}

/// What may be written of a device's rows, and the count of those dropped: this hub's leases
/// ([`Fencing`]).
pub trait RowGate: Sync {
    fn permission(&self, device: &str) -> WritePermission;
    fn count_fenced(&self, writes: usize);
}

impl RowGate for Fencing {
    fn permission(&self, device: &str) -> WritePermission {
        Fencing::permission(self, device)
    }

    fn count_fenced(&self, writes: usize) {
        Fencing::count_fenced(self, writes)
    }
}

/// What the writer needs to write records under fences.
pub struct FencedRecords<'a> {
    pub store: &'a Store,
    pub catalog: &'a Catalog,
    pub reporter: &'a AlarmReporter,
    pub fencing: &'a dyn RowGate,
    pub batches: &'a Arc<RowBatches>,
    /// Where a slow write spent its time.
    timings: Timings,
}

/// Where a write's time went, summed over its devices (they run concurrently): logged when the
/// write is slow, to tell a busy database from a slow step of the writer's own.
#[derive(Default)]
struct Timings {
    segments: AtomicU64,
    /// Waiting for a shared transaction's answer (the queue and the transaction).
    shared_ms: AtomicU64,
    reports: AtomicU64,
    /// Queuing alarms' reports (their reads and writes).
    report_ms: AtomicU64,
    alone: AtomicU64,
    /// Records in transactions of their own (captures, and after a failed shared transaction).
    alone_ms: AtomicU64,
}

impl Timings {
    fn add(count: &AtomicU64, total_ms: &AtomicU64, since: Instant) {
        count.fetch_add(1, Ordering::Relaxed);
        total_ms.fetch_add(since.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

/// A write that took this long logs where its time went.
pub const SLOW_WRITE: Duration = Duration::from_secs(1);

/// What [`FencedRecords::write`] did.
pub struct FencedWrites {
    /// The first database failure.
    pub result: Result<(), String>,
    /// Records to keep (database away, or a device's new fence not yet raised), each device's
    /// in order.
    pub kept: Vec<Record>,
}

/// A device's records that stop being written: these are kept, and why.
struct Stopped {
    kept: Vec<Record>,
    result: Result<(), String>,
}

impl<'a> FencedRecords<'a> {
    pub fn new(
        store: &'a Store,
        catalog: &'a Catalog,
        reporter: &'a AlarmReporter,
        fencing: &'a dyn RowGate,
        batches: &'a Arc<RowBatches>,
    ) -> FencedRecords<'a> {
        FencedRecords { store, catalog, reporter, fencing, batches, timings: Timings::default() }
    }

    /// Writes records under their fences: each device's in their order, up to
    /// [`DEVICES_WRITTEN_AT_ONCE`] devices at a time. Returns the first database failure and the
    /// records to keep, in order.
    pub async fn write(&self, records: Vec<(Record, u64)>) -> FencedWrites {
        let (began, count, transactions) = (Instant::now(), records.len(), self.batches.transactions());
        let outcomes: Vec<Option<Stopped>> = futures_util::stream::iter(by_device(records))
            .map(|group| self.write_device(group))
            .buffer_unordered(DEVICES_WRITTEN_AT_ONCE)
            .collect()
            .await;
        let mut written = FencedWrites { result: Ok(()), kept: Vec::new() };
        for stopped in outcomes.into_iter().flatten() {
            written.kept.extend(stopped.kept);
            if written.result.is_ok() {
                written.result = stopped.result;
            }
        }
        if began.elapsed() >= SLOW_WRITE {
            let t = &self.timings;
            let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
            tracing::warn!(
                records = count,
                took_ms = began.elapsed().as_millis() as u64,
                transactions = self.batches.transactions() - transactions,
                segments = get(&t.segments),
                shared_ms = get(&t.shared_ms),
                reports = get(&t.reports),
                report_ms = get(&t.report_ms),
                alone = get(&t.alone),
                alone_ms = get(&t.alone_ms),
                "fenced records slow (times summed over the devices written at once)"
            );
        }
        written
    }

    /// One device's records in order; `Some` with the records kept when it stopped before the
    /// last.
    async fn write_device(&self, records: Vec<(Record, u64)>) -> Option<Stopped> {
        let mut queue: VecDeque<(Record, u64)> = records.into();
        while let Some(segment) = next_segment(&mut queue) {
            let outcome = if matches!(segment[0].0, Record::CaptureStored(_)) {
                self.write_one_by_one(segment).await
            } else {
                self.write_segment(segment).await
            };
            if let Err(mut kept) = outcome {
                kept.kept.extend(queue.into_iter().map(|(record, _)| record));
                return Some(kept);
            }
        }
        None
    }

    /// A segment in a shared transaction; `Err` with the segment's records kept.
    async fn write_segment(&self, segment: Vec<(Record, u64)>) -> Result<(), Stopped> {
        let device_id = segment[0].0.device_id().clone();
        let Some(device) = self.catalog.get(&device_id) else {
            tracing::warn!(device = %device_id, records = segment.len(), "records of an unknown device were dropped");
            return Ok(());
        };
        let company_id = device.company_id.to_string();
        let rows: Vec<_> = segment.iter().filter_map(|(record, _)| device_row(record)).collect();
        let mut fence = segment[0].1;
        loop {
            let request = DeviceRows {
                company_id: company_id.clone(),
                device_id: device_id.to_string(),
                fence: i64::try_from(fence).unwrap_or(i64::MAX),
                rows: rows.clone(),
            };
            let asked = Instant::now();
            let answer = self.batches.submit(request).await;
            Timings::add(&self.timings.segments, &self.timings.shared_ms, asked);
            match answer {
                Ok(RowsWritten::Written { clashes }) => {
                    for clash in clashes {
                        tracing::error!(alarm = %clash.key, stored_at = clash.stored_at, at = clash.at, "an alarm key was used twice; the newer alarm is not stored");
                    }
                    return self.report(&company_id, segment).await;
                }
                Ok(RowsWritten::NotFound) => {
                    tracing::warn!(device = %device.serial, device_id = %device.id, records = segment.len(), "records of a device no longer its company's were dropped");
                    return Ok(());
                }
                Ok(RowsWritten::Fenced) => match after_fenced(fence, self.fencing.permission(&device_id)) {
                    // Fences only grow: this loop ends.
                    AfterFenced::Retry { fence: newer } => fence = newer,
                    AfterFenced::Wait => return Err(Stopped { kept: records_of(segment), result: Ok(()) }),
                    AfterFenced::Drop => {
                        tracing::warn!(device = %device_id, fence, records = segment.len(), "records storage's fence refused were dropped");
                        self.fencing.count_fenced(segment.len());
                        return Ok(());
                    }
                },
                Err(error) if StoreError::text_is_unavailable(&error) => {
                    return Err(Stopped { kept: records_of(segment), result: Err(error) });
                }
                // A value the schema refuses, or a conflict that outlasted its retries: one by
                // one, so that only a record that can never be written is dropped.
                Err(error) => {
                    tracing::warn!(device = %device_id, %error, records = segment.len(), "a shared record transaction failed; writing the device's records one by one");
                    let segment = segment.into_iter().map(|(record, _)| (record, fence)).collect();
                    return self.write_one_by_one(segment).await;
                }
            }
        }
    }

    /// Queues the reports of a stored segment's alarm (its last record, if any); `Err` keeps
    /// that record (its row is written again idempotently) when a report could not be queued.
    async fn report(&self, company_id: &str, segment: Vec<(Record, u64)>) -> Result<(), Stopped> {
        let Some((last, _)) = segment.into_iter().last() else { return Ok(()) };
        // `report_stored` ignores the other records too; returning here keeps them out of the
        // report timings.
        if !reported(&last) {
            return Ok(());
        }
        let began = Instant::now();
        let queued = report_stored(self.reporter, company_id, &last).await;
        Timings::add(&self.timings.reports, &self.timings.report_ms, began);
        match queued {
            Ok(()) => Ok(()),
            Err(error) => Err(Stopped { kept: vec![last], result: Err(error.to_string()) }),
        }
    }

    /// Records in transactions of their own, in order.
    async fn write_one_by_one(&self, records: Vec<(Record, u64)>) -> Result<(), Stopped> {
        let mut records = records.into_iter();
        while let Some((record, fence)) = records.next() {
            let mut fence = fence;
            loop {
                let began = Instant::now();
                let saved = save_record(self.store, self.catalog, self.reporter, &record, Some(fence)).await;
                Timings::add(&self.timings.alone, &self.timings.alone_ms, began);
                match saved {
                    Ok(_) => break,
                    Err(StoreError::Fenced) => match after_fenced(fence, self.fencing.permission(record.device_id())) {
                        AfterFenced::Retry { fence: newer } => fence = newer,
                        AfterFenced::Wait => {
                            return Err(Stopped { kept: std::iter::once(record).chain(records.map(|(r, _)| r)).collect(), result: Ok(()) });
                        }
                        AfterFenced::Drop => {
                            tracing::warn!(device = %record.device_id(), fence, "a record storage's fence refused was dropped");
                            self.fencing.count_fenced(1);
                            break;
                        }
                    },
                    Err(error) => {
                        let kept = std::iter::once(record).chain(records.map(|(r, _)| r)).collect();
                        return Err(Stopped { kept, result: Err(error.to_string()) });
                    }
                }
            }
        }
        Ok(())
    }
}

fn records_of(segment: Vec<(Record, u64)>) -> Vec<Record> {
    segment.into_iter().map(|(record, _)| record).collect()
}

/// Whether a stored record's report must be queued before the records after it are written.
fn reported(record: &Record) -> bool {
    matches!(record, Record::AlarmRaised { .. } | Record::AlarmAttended { .. })
}

/// The next run of a device's records to write together: a finished capture alone; otherwise
/// up to [`RECORDS_PER_SEGMENT`] records under the same fence, ending at the first alarm record
/// (or before a capture).
fn next_segment(queue: &mut VecDeque<(Record, u64)>) -> Option<Vec<(Record, u64)>> {
    let (first, fence) = queue.pop_front()?;
    let mut segment = vec![(first, fence)];
    if matches!(segment[0].0, Record::CaptureStored(_)) || reported(&segment[0].0) {
        return Some(segment);
    }
    while segment.len() < RECORDS_PER_SEGMENT {
        match queue.front() {
            Some((record, next_fence)) if *next_fence == fence && !matches!(record, Record::CaptureStored(_)) => {
                let ends = reported(record);
                segment.extend(queue.pop_front());
                if ends {
                    break;
                }
            }
            _ => break,
        }
    }
    Some(segment)
}

/// Records grouped by device, each group in the order given, the groups in the order of their
/// devices' first records.
fn by_device<T>(records: Vec<(Record, T)>) -> Vec<Vec<(Record, T)>> {
    let mut groups: Vec<Vec<(Record, T)>> = Vec::new();
    let mut index: HashMap<Arc<str>, usize> = HashMap::new();
    for item in records {
        let device = item.0.device_id().clone();
        match index.get(&device) {
            Some(&k) => groups[k].push(item),
            None => {
                index.insert(device, groups.len());
                groups.push(vec![item]);
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use mat_core::machine::alarm::AlarmKind;
    use storage::model::NewDevice;

    use super::*;
    use crate::catalog_load::load_catalog;

    /// Leases as a test sets them: a device absent is another hub's.
    #[derive(Default)]
    struct Leases {
        fences: Mutex<HashMap<String, WritePermission>>,
        fenced: Mutex<usize>,
    }

    impl RowGate for Leases {
        fn permission(&self, device: &str) -> WritePermission {
            self.fences.lock().unwrap().get(device).copied().unwrap_or(WritePermission::Drop)
        }

        fn count_fenced(&self, writes: usize) {
            *self.fenced.lock().unwrap() += writes;
        }
    }

    fn presence(device: &str, at_ms: u64) -> Record {
        Record::PresenceLog { device_id: device.into(), at_ms, present: at_ms.is_multiple_of(2) }
    }

    fn raised(device: &str, alarm_id: u64, at_ms: u64) -> Record {
        Record::AlarmRaised { device_id: device.into(), alarm_id, kind: AlarmKind::Missing, raised_at_ms: at_ms, reason: None }
    }

    fn attended(device: &str, alarm_id: u64, at_ms: u64) -> Record {
        Record::AlarmAttended { device_id: device.into(), alarm_id, attended_at_ms: at_ms, time_to_attend_ms: 0, by: None }
    }

    /// Forty mats' records, written as a flush writes them: all stored in their order, in far
    /// fewer transactions than records; the rows of a mat whose fence this hub renewed are
    /// written under the new fence, a mat another hub took over loses its rows (counted), and a
    /// mat whose new fence is still being raised keeps them.
    #[tokio::test]
    async fn a_flush_writes_every_devices_records_in_shared_transactions_under_their_fences() {
        let store = Store::memory().await.unwrap();
        let company = store.hub_wide().companies().create("Demo Clinic", "1 Main St").await.unwrap();
        let mut devices = Vec::new();
        for number in 0..40 {
            let device = NewDevice {
                name: format!("Bed {number}"),
                device_type: "Mattress Mat IoT".into(),
                hardware_serial: format!("MAT-W{number}"),
                company_id: company.clone(),
                secret_hash: storage::device_secret::hash("s"),
                ..NewDevice::default()
            };
            devices.push(store.hub_wide().devices().create(&device).await.unwrap());
        }
        let catalog = load_catalog(&store).await.unwrap();
        let reporter = AlarmReporter::new(store.clone(), None);
        let batches = row_batches(store.clone());
        let leases = Leases::default();
        for device in &devices {
            assert!(store.hub_wide().device_fences().raise(device, 5, "a").await.unwrap());
            leases.fences.lock().unwrap().insert(device.clone(), WritePermission::Write { fence: 5 });
        }
        let (renewed, taken, waiting) = (&devices[0], &devices[1], &devices[2]);
        // This hub renewed its lease of one mat (fence 9); another hub took one; one waits for
        // this hub's new fence.
        assert!(store.hub_wide().device_fences().raise(renewed, 9, "a").await.unwrap());
        leases.fences.lock().unwrap().insert(renewed.clone(), WritePermission::Write { fence: 9 });
        assert!(store.hub_wide().device_fences().raise(taken, 9, "b").await.unwrap());
        leases.fences.lock().unwrap().remove(taken);
        assert!(store.hub_wide().device_fences().raise(waiting, 9, "a").await.unwrap());
        leases.fences.lock().unwrap().insert(waiting.clone(), WritePermission::Wait);
        let mut records = Vec::new();
        for round in 0..3u64 {
            for device in &devices {
                records.push((presence(device, 1_000 * round), 5));
            }
        }
        for device in &devices {
            records.push((raised(device, 1, 10_000), 5));
            records.push((presence(device, 11_000), 5));
            records.push((attended(device, 1, 12_000), 5));
        }
        let writer = FencedRecords::new(&store, &catalog, &reporter, &leases, &batches);
        let written = writer.write(records).await;
        assert!(written.result.is_ok());
        let kept: Vec<&str> = written.kept.iter().map(|r| r.device_id().as_ref()).collect();
        assert_eq!(kept, vec![waiting.as_str(); 6], "the waiting mat's six records are kept, in order");
        assert!(matches!(written.kept[3], Record::AlarmRaised { .. }));
        assert_eq!(*leases.fenced.lock().unwrap(), 6, "the taken mat's six records are dropped and counted");
        let logs = store.company(&company).logs();
        for device in devices.iter().filter(|d| *d != taken && *d != waiting) {
            assert_eq!(logs.presence(device).await.unwrap().len(), 4, "{device}");
            let alarms = logs.alarms(device).await.unwrap();
            assert_eq!(alarms.len(), 1, "{device}");
            assert!(alarms[0].has_been_attended, "{device}: attended after it was raised");
        }
        for device in [taken, waiting] {
            assert!(logs.presence(device).await.unwrap().is_empty());
            assert!(logs.alarms(device).await.unwrap().is_empty());
        }
        let transactions = batches.transactions();
        assert!(transactions <= 20, "{transactions} transactions for 240 records");
        assert!(batches.is_idle());
    }

    fn end(device: &str, ms: u64) -> Record {
        Record::StreamingEnd { device_id: device.into(), ends_at_ms: Some(ms) }
    }

    fn ends(records: &[(Record, u64)]) -> Vec<u64> {
        records.iter().map(|(r, _)| if let Record::StreamingEnd { ends_at_ms, .. } = r { ends_at_ms.unwrap_or(0) } else { 0 }).collect()
    }

    #[test]
    fn records_are_grouped_by_device_each_in_its_order() {
        let records = vec![(end("a", 1), 1), (end("b", 2), 2), (end("a", 3), 1), (end("c", 4), 3), (end("b", 5), 2)];
        let groups = by_device(records);
        let ends: Vec<Vec<u64>> = groups.iter().map(|g| ends(g)).collect();
        assert_eq!(ends, vec![vec![1, 3], vec![2, 5], vec![4]]);
    }

    /// Segments: bounded, one fence each, ending at an alarm's record.
    #[test]
    fn a_segment_ends_at_its_bound_a_new_fence_and_an_alarm() {
        let raised = Record::AlarmRaised {
            device_id: "a".into(),
            alarm_id: 1,
            kind: mat_core::machine::alarm::AlarmKind::Missing,
            raised_at_ms: 5,
            reason: None,
        };
        let mut queue: VecDeque<(Record, u64)> = VecDeque::new();
        for ms in 0..(RECORDS_PER_SEGMENT as u64 + 2) {
            queue.push_back((end("a", ms), 1));
        }
        queue.push_back((end("a", 100), 2));
        queue.push_back((raised, 2));
        queue.push_back((end("a", 101), 2));
        let first = next_segment(&mut queue).unwrap();
        assert_eq!(first.len(), RECORDS_PER_SEGMENT);
        assert_eq!(ends(&next_segment(&mut queue).unwrap()), vec![32, 33], "the rest under fence 1");
        let with_alarm = next_segment(&mut queue).unwrap();
        assert_eq!(with_alarm.len(), 2, "the alarm ends its segment");
        assert!(matches!(with_alarm[1].0, Record::AlarmRaised { .. }));
        assert_eq!(ends(&next_segment(&mut queue).unwrap()), vec![101]);
        assert!(next_segment(&mut queue).is_none());
    }
}

//! Bridges storage and the actors: builds the device catalogue from stored rows, and lets the
//! storage writer persist statuses through the `storage` crate.

use std::collections::HashMap;
use std::sync::Arc;

use actors::actor::record::Record;
use actors::actor::storage_writer::{DeviceSnapshot, StatusRecord, StatusStore, StoreFuture};
use actors::catalog::{Catalog, DeviceInfo};
use mat_core::machine::status::PatientStatus;
use mat_protocol::device_type::DeviceType;
use storage::Store;
use storage::model::StatusUpdate;

use futures_util::StreamExt;

use crate::cluster::fence::{AfterFenced, Fencing, after_fenced, partition};

/// Loads every device and its configuration into a catalogue. Rows with a device type the hub
/// does not know are skipped with a warning rather than stopping the hub.
pub async fn load_catalog(store: &Store) -> Result<Arc<Catalog>, storage::StoreError> {
    let devices = store.hub_wide().devices().list_all().await?;
    let confs: HashMap<String, storage::model::DeviceConf> =
        store.hub_wide().device_confs().list_all().await?.into_iter().map(|c| (c.device_id.clone(), c)).collect();
    let mut infos = Vec::with_capacity(devices.len());
    for device in devices {
        let Some(device_type) = DeviceType::from_name(&device.device_type) else {
            tracing::warn!(serial = %device.hardware_serial, device_type = %device.device_type, "invalid device type; device skipped");
            continue;
        };
        let conf = confs.get(&device.id);
        infos.push(DeviceInfo {
            id: Arc::from(device.id.as_str()),
            serial: device.hardware_serial,
            company_id: Arc::from(device.company_id.as_str()),
            device_type,
            name: device.name,
            parent: device.parent_id.map(|p| (Arc::from(p.as_str()), device.member_index.unwrap_or(0).max(0) as usize)),
            members: device.member_ids.iter().map(|m| Arc::from(m.as_str())).collect(),
            secret_hash: device.secret_hash,
            functional: conf.is_some_and(|c| c.device_functional),
            patient_status: conf.and_then(|c| PatientStatus::from_name(&c.patient_status)).unwrap_or(PatientStatus::Correct),
        });
    }
    Ok(Catalog::new(infos))
}

/// The storage writer's store: device configurations and device records in SurrealDB.
pub struct StoreStatuses {
    pub store: Store,
    /// Which company each device belongs to.
    pub catalog: Arc<Catalog>,
    /// Queues the alarm reports of stored alarms (IHE PCD-04).
    pub alarm_reporter: Arc<crate::alarm_manager::AlarmReporter>,
    /// Cluster mode (`--nats`): every device's rows are written under its lease's fence, and the
    /// mats' snapshots are kept in shared storage. `None`: a hub on its own, written as before.
    pub fencing: Option<Arc<Fencing>>,
}

impl StatusStore for StoreStatuses {
    fn save_statuses(&self, batch: Vec<StatusRecord>) -> StoreFuture<'_> {
        Box::pin(async move {
            match &self.fencing {
                None => self.store.hub_wide().device_confs().save_statuses(&updates(batch)).await.map_err(|e| e.to_string()),
                Some(fencing) => self.save_statuses_fenced(fencing, batch).await,
            }
        })
    }

    fn save_records(&self, batch: Vec<Record>) -> StoreFuture<'_> {
        Box::pin(async move {
            let Some(fencing) = &self.fencing else {
                for record in &batch {
                    crate::records::save_record(&self.store, &self.catalog, &self.alarm_reporter, record, None)
                        .await
                        .map_err(|e| e.to_string())?;
                }
                return Ok(());
            };
            // The store keeps what it does not write (`keeps_unwritten_records`): the batch joins
            // the records that wait, behind them (they are older).
            fencing.wait_records(batch);
            let queue = fencing.take_waiting_records();
            let split = partition(queue, |r| r.device_id().as_ref(), |d| fencing.permission(d));
            fencing.count_fenced(split.dropped);
            let written = self.write_fenced(fencing, split.write).await;
            fencing.wait_records_first(written.kept.into_iter().chain(split.wait).collect());
            written.result
        })
    }

    fn keeps_unwritten_records(&self) -> bool {
        self.fencing.is_some()
    }

    fn keeps_snapshots(&self) -> bool {
        self.fencing.is_some()
    }

    fn has_waiting_rows(&self) -> bool {
        self.fencing.as_ref().is_some_and(|f| f.has_waiting())
    }

    fn save_snapshots(&self, batch: Vec<DeviceSnapshot>) -> StoreFuture<'_> {
        Box::pin(async move {
            let Some(fencing) = &self.fencing else { return Ok(()) };
            // A snapshot whose lease is pending is not kept: the next comes within a second.
            let split = partition(batch, |s| s.device_id.as_ref(), |d| fencing.permission(d));
            let fences: HashMap<Arc<str>, u64> = split.write.iter().map(|(s, fence)| (s.device_id.clone(), *fence)).collect();
            let stale = crate::cluster::snapshot_store::save(&self.store, split.write).await.map_err(|e| e.to_string())?;
            // A snapshot refused under a fence this hub has since renewed is not counted: the
            // next one comes within a second.
            let lost =
                stale.iter().filter(|d| after_fenced(fences.get(*d).copied().unwrap_or(0), fencing.permission(d)) == AfterFenced::Drop);
            fencing.count_fenced(split.dropped + lost.count());
            Ok(())
        })
    }
}

impl StoreStatuses {
    /// Writes records under their fences: each device's in their order, up to
    /// [`DEVICES_WRITTEN_AT_ONCE`] devices at a time (one transaction per record: a debug hub
    /// writing them one after another fell minutes behind at 100 mats, docs/reliability.md).
    /// Returns the first database failure and the records to keep, in order: from a device's
    /// first record storage could not take (database away) or that waits for its device's new
    /// fence to stand. A record storage refused is written again under this hub's newer fence
    /// of the device, kept while that fence is being raised, and otherwise dropped and counted
    /// (`fence::after_fenced`).
    async fn write_fenced(&self, fencing: &Fencing, records: Vec<(Record, u64)>) -> FencedWrites {
        let groups = by_device(records);
        let outcomes: Vec<(Vec<Record>, Result<(), String>)> = futures_util::stream::iter(groups)
            .map(|group| self.write_device_records(fencing, group))
            .buffer_unordered(DEVICES_WRITTEN_AT_ONCE)
            .collect()
            .await;
        let mut written = FencedWrites { result: Ok(()), kept: Vec::new() };
        for (kept, result) in outcomes {
            written.kept.extend(kept);
            if written.result.is_ok() {
                written.result = result;
            }
        }
        written
    }

    /// One device's records in order: the records kept (from the first not written) and the
    /// database failure, if any.
    async fn write_device_records(&self, fencing: &Fencing, records: Vec<(Record, u64)>) -> (Vec<Record>, Result<(), String>) {
        let mut records = records.into_iter();
        while let Some((record, fence)) = records.next() {
            let mut fence = fence;
            loop {
                // Every record, a capture's analysis included, is fenced in its own transaction.
                match crate::records::save_record(&self.store, &self.catalog, &self.alarm_reporter, &record, Some(fence)).await {
                    Ok(_) => break,
                    Err(storage::StoreError::Fenced) => match after_fenced(fence, fencing.permission(record.device_id())) {
                        // Fences only grow: this loop ends.
                        AfterFenced::Retry { fence: newer } => fence = newer,
                        AfterFenced::Wait => return (std::iter::once(record).chain(records.map(|(r, _)| r)).collect(), Ok(())),
                        AfterFenced::Drop => {
                            tracing::warn!(device = %record.device_id(), fence, "a record storage's fence refused was dropped");
                            fencing.count_fenced(1);
                            break;
                        }
                    },
                    Err(error) => return (std::iter::once(record).chain(records.map(|(r, _)| r)).collect(), Err(error.to_string())),
                }
            }
        }
        (Vec::new(), Ok(()))
    }

    async fn save_statuses_fenced(&self, fencing: &Fencing, batch: Vec<StatusRecord>) -> Result<(), String> {
        let waiting = fencing.take_waiting_statuses();
        let mut merged = waiting.clone();
        for status in batch {
            merged.insert(status.device_id.clone(), status);
        }
        let split = partition(merged.into_values(), |s| s.device_id.as_ref(), |d| fencing.permission(d));
        fencing.count_fenced(split.dropped);
        let fenced: Vec<(StatusUpdate, i64)> =
            split.write.iter().map(|(s, fence)| (update(s.clone()), i64::try_from(*fence).unwrap_or(i64::MAX))).collect();
        match self.store.hub_wide().device_confs().save_statuses_fenced(&fenced).await {
            Ok(stale) => {
                fencing.wait_statuses(split.wait);
                // A status refused under a fence this hub has since renewed is written on the
                // next flush; the others are dropped.
                let mut again = Vec::new();
                for (status, fence) in split.write {
                    if stale.iter().any(|d| d.as_str() == status.device_id.as_ref()) {
                        match after_fenced(fence, fencing.permission(&status.device_id)) {
                            AfterFenced::Drop => fencing.count_fenced(1),
                            AfterFenced::Retry { .. } | AfterFenced::Wait => again.push(status),
                        }
                    }
                }
                fencing.wait_statuses_if_absent(again);
                Ok(())
            }
            Err(error) => {
                // The writer retries its batch; the statuses that waited before wait again.
                fencing.wait_statuses_if_absent(waiting.into_values());
                Err(error.to_string())
            }
        }
    }
}

/// How many devices' records the storage writer writes at once in cluster mode.
pub const DEVICES_WRITTEN_AT_ONCE: usize = 8;

/// What [`StoreStatuses::write_fenced`] did.
struct FencedWrites {
    /// The first database failure.
    result: Result<(), String>,
    /// Records to keep (database away, or a device's new fence not yet raised), each device's
    /// in order.
    kept: Vec<Record>,
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

fn update(r: StatusRecord) -> StatusUpdate {
    StatusUpdate { device_id: r.device_id.to_string(), device_functional: r.functional, patient_status: r.patient_status.name().to_owned() }
}

fn updates(batch: Vec<StatusRecord>) -> Vec<StatusUpdate> {
    batch.into_iter().map(update).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_grouped_by_device_each_in_its_order() {
        let end = |device: &str, ms: u64| Record::StreamingEnd { device_id: device.into(), ends_at_ms: Some(ms) };
        let records = vec![(end("a", 1), 1), (end("b", 2), 2), (end("a", 3), 1), (end("c", 4), 3), (end("b", 5), 2)];
        let groups = by_device(records);
        let ends: Vec<Vec<Option<u64>>> = groups
            .iter()
            .map(|g| g.iter().map(|(r, _)| if let Record::StreamingEnd { ends_at_ms, .. } = r { *ends_at_ms } else { None }).collect())
            .collect();
        assert_eq!(ends, vec![vec![Some(1), Some(3)], vec![Some(2), Some(5)], vec![Some(4)]]);
    }
}

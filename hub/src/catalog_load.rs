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

use crate::cluster::fence::{AfterFenced, Fencing, after_fenced, partition};
use crate::cluster::fenced_records::{FencedRecords, RowBatches};

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
    pub cluster: Option<ClusterWriting>,
}

/// What a hub in a cluster writes with: the leases' fences, and the shared transactions its
/// devices' records are written in.
pub struct ClusterWriting {
    pub fencing: Arc<Fencing>,
    pub row_batches: Arc<RowBatches>,
}

impl StatusStore for StoreStatuses {
    fn save_statuses(&self, batch: Vec<StatusRecord>) -> StoreFuture<'_> {
        Box::pin(async move {
            match self.fencing() {
                None => self.store.hub_wide().device_confs().save_statuses(&updates(batch)).await.map_err(|e| e.to_string()),
                Some(fencing) => self.save_statuses_fenced(fencing, batch).await,
            }
        })
    }

    fn save_records(&self, batch: Vec<Record>) -> StoreFuture<'_> {
        Box::pin(async move {
            let Some(ClusterWriting { fencing, row_batches }) = &self.cluster else {
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
            let writer = FencedRecords::new(&self.store, &self.catalog, &self.alarm_reporter, fencing.as_ref(), row_batches);
            let written = writer.write(split.write).await;
            fencing.wait_records_first(written.kept.into_iter().chain(split.wait).collect());
            written.result
        })
    }

    fn keeps_unwritten_records(&self) -> bool {
        self.cluster.is_some()
    }

    fn keeps_snapshots(&self) -> bool {
        self.cluster.is_some()
    }

    fn has_waiting_rows(&self) -> bool {
        self.fencing().is_some_and(|f| f.has_waiting())
    }

    fn waiting_records(&self) -> usize {
        self.fencing().map_or(0, Fencing::waiting_records)
    }

    fn save_snapshots(&self, batch: Vec<DeviceSnapshot>) -> StoreFuture<'_> {
        Box::pin(async move {
            let Some(fencing) = self.fencing() else { return Ok(()) };
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
    fn fencing(&self) -> Option<&Fencing> {
        self.cluster.as_ref().map(|c| c.fencing.as_ref())
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

fn update(r: StatusRecord) -> StatusUpdate {
    StatusUpdate { device_id: r.device_id.to_string(), device_functional: r.functional, patient_status: r.patient_status.name().to_owned() }
}

fn updates(batch: Vec<StatusRecord>) -> Vec<StatusUpdate> {
    batch.into_iter().map(update).collect()
}

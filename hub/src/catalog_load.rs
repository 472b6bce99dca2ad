//! Bridges storage and the actors: builds the device catalogue from stored rows, and lets the
//! storage writer persist statuses through the `storage` crate.

use std::collections::HashMap;
use std::sync::Arc;

use actors::actor::record::Record;
use actors::actor::storage_writer::{StatusRecord, StatusStore, StoreFuture};
use actors::catalog::{Catalog, DeviceInfo};
use mat_core::machine::status::PatientStatus;
use mat_protocol::device_type::DeviceType;
use storage::Store;
use storage::model::StatusUpdate;

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
}

impl StatusStore for StoreStatuses {
    fn save_statuses(&self, batch: Vec<StatusRecord>) -> StoreFuture<'_> {
        Box::pin(async move {
            let updates: Vec<StatusUpdate> = batch
                .into_iter()
                .map(|r| StatusUpdate {
                    device_id: r.device_id.to_string(),
                    device_functional: r.functional,
                    patient_status: r.patient_status.name().to_owned(),
                })
                .collect();
            self.store.hub_wide().device_confs().save_statuses(&updates).await.map_err(|e| e.to_string())
        })
    }

    fn save_records(&self, batch: Vec<Record>) -> StoreFuture<'_> {
        Box::pin(async move {
            for record in &batch {
                crate::records::save_record(&self.store, &self.catalog, &self.alarm_reporter, record).await.map_err(|e| e.to_string())?;
            }
            Ok(())
        })
    }
}

//! What a FHIR request reads: one company's records through its `CompanyStore` (never another
//! company's), and its devices' live state from the board. The I/O half of the interface.

use std::collections::HashMap;

use actors::live_board::LiveBoard;
use mat_protocol::device_type::DeviceType;
use storage::{CompanyStore, StoreError};

use super::resources::{DeviceView, Records};
use super::search::ResourceType;

/// The records a request about `resource_type` needs, of the store's company.
pub async fn load(store: CompanyStore<'_>, board: &LiveBoard, resource_type: ResourceType) -> Result<Records, StoreError> {
    let mut records = Records::default();
    match resource_type {
        ResourceType::Patient => records.patients = store.patients().list().await?,
        ResourceType::Device | ResourceType::DeviceMetric => records.devices = devices(store, board).await?,
        ResourceType::Observation => {
            records.devices = devices(store, board).await?;
            records.rows = store.clinical_records().all().await?;
        }
        ResourceType::Communication => records.rows = store.clinical_records().all().await?,
    }
    Ok(records)
}

/// The company's devices with their live (else stored) functional state and whether a tare is set.
async fn devices(store: CompanyStore<'_>, board: &LiveBoard) -> Result<Vec<DeviceView>, StoreError> {
    let confs: HashMap<String, _> = store.device_confs().list().await?.into_iter().map(|c| (c.device_id.clone(), c)).collect();
    let company = store.company_id();
    Ok(store
        .devices()
        .list()
        .await?
        .into_iter()
        .map(|device| {
            let conf = confs.get(&device.id);
            let functional = board
                .status(company, &device.id)
                .map(|s| s.device_functional)
                .or_else(|| conf.map(|c| c.device_functional))
                .unwrap_or(false);
            let tared = conf.is_some_and(|c| c.tare_json.is_some());
            DeviceView { device_type: DeviceType::from_name(&device.device_type), functional, tared, device }
        })
        .collect())
}

//! What the hub knows about each registered device: identity, company, family and secret hash.
//!
//! Loaded from storage at start-up by the hub and shared read-only with ingest and sessions, so
//! authenticating a device or checking a viewer's company never messages an actor.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use crate::browser::DeviceIdentity;
use mat_core::machine::status::PatientStatus;
use mat_protocol::device_type::DeviceType;

/// One registered device.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceInfo {
    /// Storage id (the key part of `device:⟨id⟩`).
    pub id: Arc<str>,
    /// Hardware serial.
    pub serial: String,
    /// Owning company's id.
    pub company_id: Arc<str>,
    /// Type of spec §3.
    pub device_type: DeviceType,
    /// Display name.
    pub name: String,
    /// Parent device (room set or horse) and this device's index among its members.
    pub parent: Option<(Arc<str>, usize)>,
    /// Sub-devices, in order (horse: even left, odd right; room set: bed, seat, floor).
    pub members: Vec<Arc<str>>,
    /// Hash of the device secret, checked by ingest; empty for devices that never connect.
    pub secret_hash: String,
    /// Stored `deviceFunctional`.
    pub functional: bool,
    /// Stored `patientStatus`.
    pub patient_status: PatientStatus,
}

impl DeviceInfo {
    /// The identity fields of `deviceConf`.
    pub fn identity(&self) -> DeviceIdentity {
        DeviceIdentity {
            device_id: self.id.to_string(),
            hardware_serial: self.serial.clone(),
            device_type: self.device_type,
            name: self.name.clone(),
        }
    }
}

/// Every registered device, by id and by serial.
#[derive(Debug, Default)]
pub struct Catalog {
    by_id: RwLock<HashMap<Arc<str>, Arc<DeviceInfo>>>,
    by_serial: RwLock<HashMap<String, Arc<str>>>,
}

impl Catalog {
    /// A catalogue of these devices.
    pub fn new(devices: impl IntoIterator<Item = DeviceInfo>) -> Arc<Self> {
        let catalog = Catalog::default();
        for device in devices {
            catalog.upsert(device);
        }
        Arc::new(catalog)
    }

    /// Adds or replaces a device.
    pub fn upsert(&self, device: DeviceInfo) {
        let device = Arc::new(device);
        self.by_serial.write().unwrap_or_else(|p| p.into_inner()).insert(device.serial.clone(), device.id.clone());
        self.by_id.write().unwrap_or_else(|p| p.into_inner()).insert(device.id.clone(), device);
    }

    /// The device with this id.
    pub fn get(&self, id: &str) -> Option<Arc<DeviceInfo>> {
        self.by_id.read().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
    }

    /// The device with this id if it belongs to `company_id`; other companies' devices do not
    /// exist for the caller.
    pub fn get_in_company(&self, id: &str, company_id: &str) -> Option<Arc<DeviceInfo>> {
        self.get(id).filter(|d| &*d.company_id == company_id)
    }

    /// The device with this serial.
    pub fn by_serial(&self, serial: &str) -> Option<Arc<DeviceInfo>> {
        let id = self.by_serial.read().unwrap_or_else(|p| p.into_inner()).get(serial).cloned()?;
        self.get(&id)
    }

    /// The device with this serial if it belongs to `company_id`.
    pub fn by_serial_in_company(&self, serial: &str, company_id: &str) -> Option<Arc<DeviceInfo>> {
        self.by_serial(serial).filter(|d| &*d.company_id == company_id)
    }

    /// Every device.
    pub fn all(&self) -> Vec<Arc<DeviceInfo>> {
        let mut all: Vec<_> = self.by_id.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        all
    }
}

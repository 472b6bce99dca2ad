//! The live state of every device, typed: its current status (what the device cards show) and
//! its latest pressure map. The board owns these facts while the hub runs.
//!
//! The device's actors write it (a mat actor per frame and per status change, a room-set actor
//! per status change, the registry when a device is shown offline), always before the same fact
//! goes out encoded to the browser sessions through the [`Bus`](crate::fanout::Bus); REST reads it.
//! Encoded bytes exist only on the way to the sessions: nothing decodes them back.
//!
//! Every read names the caller's company, and a device is only found in its own company's part of
//! the board, as storage queries filter on the company.
//!
//! Writers hold their device's [`DeviceLive`] (one per device, created on first use and kept for
//! the hub's lifetime, so a restarted actor writes where its predecessor did); a frame costs one
//! uncontended lock on that device's own entry and no lookup.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use mat_core::machine::presence::Presence;
use mat_core::machine::pressure_map::{PressureMap, ShapeMismatch};
use mat_protocol::CellFormat;

use crate::browser::DeviceConfEvent;

/// The latest pressure map of a device, as the device sent it and the hub read it.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveMap {
    /// The frame's sequence number.
    pub seq: u64,
    /// The device's time of the frame, Unix ms.
    pub device_time_ms: u64,
    /// When the hub handled the frame, Unix ms.
    pub hub_time_ms: u64,
    /// What the presence check found on it.
    pub presence: Presence,
    rows: u16,
    cols: u16,
    format: CellFormat,
    cells: Vec<u8>,
}

impl LiveMap {
    /// A map of `rows` × `cols` cells in `format` (row-major, as the frame carried them; the
    /// vector is kept, not copied), with its times and presence still to fill. Refused when the
    /// byte count does not match the shape.
    pub fn new(rows: u16, cols: u16, format: CellFormat, cells: Vec<u8>) -> Result<Self, ShapeMismatch> {
        PressureMap::new(rows, cols, format, &cells)?;
        Ok(LiveMap { seq: 0, device_time_ms: 0, hub_time_ms: 0, presence: Presence::Absent, rows, cols, format, cells })
    }

    /// Rows.
    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// How each cell is encoded.
    pub fn format(&self) -> CellFormat {
        self.format
    }

    /// The cells' bytes as the device sent them.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The map as the pure core reads it (the cells' encoding is its to know).
    pub fn pressure_map(&self) -> PressureMap<'_> {
        PressureMap::new(self.rows, self.cols, self.format, &self.cells).expect("the shape was checked by LiveMap::new")
    }

    /// Every cell's value, row-major (0–255 for one-byte cells, 0–4095 for force channels).
    pub fn values(&self) -> Vec<u16> {
        self.pressure_map().values().collect()
    }
}

/// One device's live state. Its actors hold it and write it; the board keeps it.
#[derive(Debug, Default)]
pub struct DeviceLive {
    status: RwLock<Option<DeviceConfEvent>>,
    map: RwLock<Option<Arc<LiveMap>>>,
}

impl DeviceLive {
    /// Replaces the device's status.
    pub fn set_status(&self, status: DeviceConfEvent) {
        *write(&self.status) = Some(status);
    }

    /// The device's current status (`None` before anything was said about it).
    pub fn status(&self) -> Option<DeviceConfEvent> {
        read(&self.status).clone()
    }

    /// Replaces the latest map. The previous one is freed here, or by the last reader holding it.
    pub fn set_map(&self, map: Arc<LiveMap>) {
        let previous = write(&self.map).replace(map);
        drop(previous);
    }

    /// Forgets the latest map: the live map was blanked, there is nothing to show.
    pub fn clear_map(&self) {
        let previous = write(&self.map).take();
        drop(previous);
    }

    /// The latest map (`None` before the first frame and after a blank).
    pub fn latest_map(&self) -> Option<Arc<LiveMap>> {
        read(&self.map).clone()
    }
}

/// The devices of one company.
#[derive(Debug, Default)]
struct CompanyLive {
    devices: RwLock<BTreeMap<Arc<str>, Arc<DeviceLive>>>,
}

/// The live state of every device, by company.
#[derive(Debug, Default)]
pub struct LiveBoard {
    companies: RwLock<HashMap<Arc<str>, Arc<CompanyLive>>>,
}

impl LiveBoard {
    /// An empty board.
    pub fn new() -> Arc<Self> {
        Arc::new(LiveBoard::default())
    }

    /// The entry a device's writers hold, created on first use.
    pub fn device(&self, company_id: &str, device_id: &str) -> Arc<DeviceLive> {
        let company = self.company_or_new(company_id);
        if let Some(device) = read(&company.devices).get(device_id) {
            return device.clone();
        }
        write(&company.devices).entry(Arc::from(device_id)).or_default().clone()
    }

    /// The current status of every device of the company that has one, in device id order.
    pub fn statuses(&self, company_id: &str) -> Vec<DeviceConfEvent> {
        let Some(company) = self.company(company_id) else { return Vec::new() };
        let devices: Vec<Arc<DeviceLive>> = read(&company.devices).values().cloned().collect();
        devices.iter().filter_map(|device| device.status()).collect()
    }

    /// The current status of one of the company's devices.
    pub fn status(&self, company_id: &str, device_id: &str) -> Option<DeviceConfEvent> {
        self.existing(company_id, device_id)?.status()
    }

    /// The latest map of one of the company's devices.
    pub fn latest_map(&self, company_id: &str, device_id: &str) -> Option<Arc<LiveMap>> {
        self.existing(company_id, device_id)?.latest_map()
    }

    fn company(&self, company_id: &str) -> Option<Arc<CompanyLive>> {
        read(&self.companies).get(company_id).cloned()
    }

    fn company_or_new(&self, company_id: &str) -> Arc<CompanyLive> {
        if let Some(company) = self.company(company_id) {
            return company;
        }
        write(&self.companies).entry(Arc::from(company_id)).or_default().clone()
    }

    fn existing(&self, company_id: &str, device_id: &str) -> Option<Arc<DeviceLive>> {
        read(&self.company(company_id)?.devices).get(device_id).cloned()
    }
}

// Every critical section here is a single replace, insert or clone, so a poisoned lock still
// holds consistent data; recovering keeps one panicking thread from taking the hub down.
fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests;

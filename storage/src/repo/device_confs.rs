//! The `device_conf` table: [`HubDeviceConfs`] loads every company's at start-up and writes the
//! storage writer's status batches; [`DeviceConfs`] is one company's.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::error::checked;
use crate::model::{DeviceConf, StatusUpdate};
use crate::repo::device_fences::fenced_write;
use crate::retry::retrying;

/// Sets when the device `$device` of the company `$company`'s live stream ends (`$e`, Unix ms, or
/// NONE).
pub(crate) const STREAMING_END_UPDATE: &str = "UPDATE device_conf SET streaming_end_ms = $e WHERE device = type::record('device', $device) AND company = type::record('company', $company);";
/// Sets the tare (`$e`, JSON) of the device `$device` of the company `$company`.
pub(crate) const TARE_UPDATE: &str =
    "UPDATE device_conf SET tare_json = $e WHERE device = type::record('device', $device) AND company = type::record('company', $company);";

pub(crate) const FIELDS: &str = "record::id(device) AS device_id, record::id(company) AS company_id, device_functional, patient_status, image_saved, streaming_end_ms, repositioning_minutes, tare_json";

/// Device configuration queries across the hub.
pub struct HubDeviceConfs<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

/// One company's device configurations.
pub struct DeviceConfs<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
    /// Cluster mode: the writer's lease revision, checked against the device's fence in the
    /// writes of the storage writer (`CompanyStore::fenced`); `None` on a hub on its own.
    pub(crate) fence: Option<i64>,
}

#[derive(SurrealValue)]
struct StatusRow {
    device: String,
    functional: bool,
    status: String,
}

#[derive(SurrealValue)]
struct FencedStatusRow {
    device: String,
    functional: bool,
    status: String,
    fence: i64,
}

impl HubDeviceConfs<'_> {
    /// Every configuration (the hub's start-up state).
    pub async fn list_all(&self) -> Result<Vec<DeviceConf>, StoreError> {
        let mut response = self.db.query(format!("SELECT {FIELDS} FROM device_conf")).await?;
        Ok(response.take(0)?)
    }

    /// One device's configuration, if it has one (a cluster hub taking the device over reads
    /// what its rows say, `hub::snapshots::stored_state_of`).
    pub async fn of_device(&self, device_id: &str) -> Result<Option<DeviceConf>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM device_conf WHERE device = type::record('device', $device)"))
            .bind(("device", device_id.to_owned()))
            .await?;
        let rows: Vec<DeviceConf> = response.take(0)?;
        Ok(rows.into_iter().next())
    }

    /// Writes a batch of status changes in one transaction.
    pub async fn save_statuses(&self, batch: &[StatusUpdate]) -> Result<(), StoreError> {
        retrying(|| async move {
            let rows: Vec<StatusRow> = batch
                .iter()
                .map(|u| StatusRow { device: u.device_id.clone(), functional: u.device_functional, status: u.patient_status.clone() })
                .collect();
            self.db
                .query(
                    "BEGIN TRANSACTION;
                     FOR $row IN $rows {
                         UPDATE device_conf SET device_functional = $row.functional, patient_status = $row.status
                            WHERE device = type::record('device', $row.device);
                     };
                     COMMIT TRANSACTION;",
                )
                .bind(("rows", rows))
                .await?
                .check()?;
            Ok(())
        })
        .await
    }
}

impl HubDeviceConfs<'_> {
    /// Cluster mode's [`Self::save_statuses`]: each status with its writer's lease revision,
    /// written in one transaction only where the device's fence still holds that revision.
    /// Returns the devices whose status was fenced (not written).
    pub async fn save_statuses_fenced(&self, batch: &[(StatusUpdate, i64)]) -> Result<Vec<String>, StoreError> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        retrying(|| async move {
            let rows: Vec<FencedStatusRow> = batch
                .iter()
                .map(|(u, fence)| FencedStatusRow {
                    device: u.device_id.clone(),
                    functional: u.device_functional,
                    status: u.patient_status.clone(),
                    fence: *fence,
                })
                .collect();
            let response = self
                .db
                .query(
                    "BEGIN TRANSACTION;
                     LET $stale = (SELECT VALUE device FROM $rows WHERE type::record('device_fence', device).revision != fence);
                     FOR $row IN $rows {
                         IF $row.device NOT IN $stale {
                             UPDATE type::record('device_fence', $row.device) SET writes += 1;
                             UPDATE device_conf SET device_functional = $row.functional, patient_status = $row.status
                                WHERE device = type::record('device', $row.device);
                         };
                     };
                     RETURN $stale;
                     COMMIT TRANSACTION;",
                )
                .bind(("rows", rows))
                .await?;
            let mut response = checked(response)?;
            // Results: BEGIN, LET, FOR, RETURN, COMMIT.
            let stale: Vec<String> = response.take(3)?;
            Ok(stale)
        })
        .await
    }
}

impl DeviceConfs<'_> {
    /// The configurations of the company's devices.
    pub async fn list(&self) -> Result<Vec<DeviceConf>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM device_conf WHERE company = type::record('company', $company)"))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }

    /// Sets (or clears) when a device of the company's live stream ends, Unix ms ([`STREAMING_END_UPDATE`]).
    pub async fn set_streaming_end(&self, device_id: &str, ends_at_ms: Option<i64>) -> Result<(), StoreError> {
        retrying(|| async move {
            self.db
                .query(fenced_write(self.fence, STREAMING_END_UPDATE))
                .bind(("device", device_id.to_owned()))
                .bind(("fence_device", device_id.to_owned()))
                .bind(("fence", self.fence))
                .bind(("company", self.company.to_owned()))
                .bind(("e", ends_at_ms))
                .await?
                .check()?;
            Ok(())
        })
        .await
    }

    /// Sets a company device's tare (JSON of `mat_core::machine::tare::Tare`).
    pub async fn set_tare(&self, device_id: &str, tare_json: &str) -> Result<(), StoreError> {
        retrying(|| async move {
            self.db
                .query(fenced_write(self.fence, TARE_UPDATE))
                .bind(("device", device_id.to_owned()))
                .bind(("fence_device", device_id.to_owned()))
                .bind(("fence", self.fence))
                .bind(("company", self.company.to_owned()))
                .bind(("e", tare_json.to_owned()))
                .await?
                .check()?;
            Ok(())
        })
        .await
    }

    /// When a device of the company's live stream ends, Unix ms, if it streams.
    pub async fn streaming_end(&self, device_id: &str) -> Result<Option<i64>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT VALUE streaming_end_ms FROM device_conf WHERE device = type::record('device', $device) \
                 AND company = type::record('company', $company) AND streaming_end_ms != NONE",
            )
            .bind(("device", device_id.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        let ends: Vec<i64> = response.take(0)?;
        Ok(ends.into_iter().next())
    }

    /// Sets (or clears, back to the default) a company device's repositioning interval.
    pub async fn set_repositioning_minutes(&self, device_id: &str, minutes: Option<i64>) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPDATE device_conf SET repositioning_minutes = $minutes WHERE device = type::record('device', $device)
                        AND company = type::record('company', $company) RETURN VALUE record::id(device)",
                )
                .bind(("device", device_id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("minutes", minutes))
                .await?;
            let updated: Vec<String> = response.take(0)?;
            if updated.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }
}

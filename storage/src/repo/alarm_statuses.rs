//! The `alarm_status` table (IHE PCD-05, `hub::alarm_manager::status_listener`): what a company's
//! alarm manager reported of its alarms (delivered, read, accepted by a named nurse, escalated…),
//! one row per status report. A report is keyed by its alarm and its control id, so the same
//! report sent again (the manager's retry) is stored once. Writes go through `crate::retry`.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::error::checked;
use crate::retry::retrying;

/// One status report of an alarm, as stored and read back.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct AlarmStatus {
    /// The alarm's key (`device-number`).
    pub alarm: String,
    /// The alarm's device.
    pub device: String,
    /// delivered, read, accepted, rejected, escalated, cancelled or undeliverable.
    pub status: String,
    /// Who, as the manager names them (OBX-16).
    pub who: Option<String>,
    /// When, by the manager's clock (OBX-14), Unix ms.
    pub at_ms: Option<i64>,
    /// When the hub received it, Unix ms.
    pub received_ms: i64,
    /// The report's MSH-10.
    pub control_id: String,
}

/// How many statuses a device's list returns at most, newest first.
pub const ALARM_STATUS_LIMIT: i64 = 500;

/// One company's alarm statuses.
pub struct AlarmStatuses<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl AlarmStatuses<'_> {
    /// Stores a status report; `false` when this report (alarm and control id) was stored already.
    /// Through [`retrying`] like every repository write; a concurrent store of the same report (a
    /// manager that resends before its first ACK arrives) loses the create and reads it back.
    pub async fn add(&self, status: &AlarmStatus) -> Result<bool, StoreError> {
        let key = format!("{}|{}", status.alarm, status.control_id);
        let key = &key;
        retrying(|| async move {
            if self.exists(key).await? {
                return Ok(false);
            }
            let created = self
                .db
                .query(
                    "CREATE type::record('alarm_status', $key) SET company = type::record('company', $company), alarm = $s.alarm,
                        device = $s.device, status = $s.status, who = $s.who, at_ms = $s.at_ms, received_ms = $s.received_ms,
                        control_id = $s.control_id",
                )
                .bind(("key", key.clone()))
                .bind(("company", self.company.to_owned()))
                .bind(("s", status.clone()))
                .await
                .map_err(StoreError::from)
                .and_then(checked);
            match created {
                Ok(_) => Ok(true),
                Err(StoreError::Conflict(detail)) => Err(StoreError::Conflict(detail)),
                Err(_) if self.exists(key).await? => Ok(false),
                Err(error) => Err(error),
            }
        })
        .await
    }

    async fn exists(&self, key: &str) -> Result<bool, StoreError> {
        let mut response = self.db.query("SELECT VALUE id FROM type::record('alarm_status', $key)").bind(("key", key.to_owned())).await?;
        let found: Vec<surrealdb::types::RecordId> = response.take(0)?;
        Ok(!found.is_empty())
    }

    /// The statuses of these devices' alarms, oldest first (the newest [`ALARM_STATUS_LIMIT`]).
    pub async fn of_devices(&self, devices: &[String]) -> Result<Vec<AlarmStatus>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT * FROM (SELECT alarm, device, status, who, at_ms, received_ms, control_id FROM alarm_status
                    WHERE company = type::record('company', $company) AND device IN $devices
                    ORDER BY received_ms DESC LIMIT $limit) ORDER BY received_ms",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("devices", devices.to_vec()))
            .bind(("limit", ALARM_STATUS_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }
}

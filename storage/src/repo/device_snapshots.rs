//! The `device_snapshot` table (cluster mode, issue 25): each device's latest machine snapshot as
//! JSON, written by its owner's storage writer under the device's fence, read by the hub that
//! takes the device over.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::error::checked;
use crate::retry::retrying;

/// The device snapshots of every device.
pub struct HubDeviceSnapshots<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

/// One snapshot to write.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct SnapshotWrite {
    /// The device's id.
    pub device: String,
    /// `MatSnapshot` as JSON.
    pub json: String,
    /// When it was taken, Unix ms.
    pub saved_at_ms: i64,
    /// The writer's lease revision (the device's fence).
    pub fence: i64,
}

/// A stored snapshot.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct StoredSnapshot {
    /// `MatSnapshot` as JSON.
    pub snapshot_json: String,
    /// When it was taken, Unix ms.
    pub saved_at_ms: i64,
    /// The lease revision of the owner that wrote it.
    pub revision: i64,
}

impl HubDeviceSnapshots<'_> {
    /// Writes a batch of snapshots in one transaction, each only if its device's fence is still
    /// its writer's revision. Returns the devices whose snapshot was fenced (not written).
    pub async fn save(&self, batch: &[SnapshotWrite]) -> Result<Vec<String>, StoreError> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        retrying(|| async move {
            let response = self
                .db
                .query(
                    "BEGIN TRANSACTION;
                     LET $stale = (SELECT VALUE device FROM $rows WHERE type::record('device_fence', device).revision != fence);
                     FOR $row IN $rows {
                         IF $row.device NOT IN $stale {
                             UPDATE type::record('device_fence', $row.device) SET writes += 1;
                             UPSERT type::record('device_snapshot', $row.device) SET snapshot_json = $row.json,
                                 saved_at_ms = $row.saved_at_ms, revision = $row.fence;
                         };
                     };
                     RETURN $stale;
                     COMMIT TRANSACTION;",
                )
                .bind(("rows", batch.to_vec()))
                .await?;
            let mut response = checked(response)?;
            // Results: BEGIN, LET, FOR, RETURN, COMMIT.
            let stale: Vec<String> = response.take(3)?;
            Ok(stale)
        })
        .await
    }

    /// The device's stored snapshot, if one was ever written.
    pub async fn load(&self, device_id: &str) -> Result<Option<StoredSnapshot>, StoreError> {
        let mut response = self
            .db
            .query("SELECT snapshot_json, saved_at_ms, revision FROM type::record('device_snapshot', $device)")
            .bind(("device", device_id.to_owned()))
            .await?;
        let stored: Vec<StoredSnapshot> = response.take(0)?;
        Ok(stored.into_iter().next())
    }
}

//! A takeover in storage (cluster mode, issue 25): the new owner raises the device's fence to its
//! lease's revision and reads what the device resumes from — its stored snapshot, its
//! configuration row and its unattended alarms — in **one round trip**, one transaction, the
//! reads after the raise. The same as `HubDeviceFences::raise` followed by the three reads
//! (`HubDeviceSnapshots::load`, `HubDeviceConfs::of_device`, `HubLogs::unattended_of`), which cost
//! four round trips on a database server shared by every hub: with 50 takeovers at once on a
//! debug server the raise took 260 ms and the reads 800 ms (docs/reliability.md). Read after the
//! raise in the same transaction, nothing the old owner writes can come between them: a row it
//! wrote before is read, one after is refused by the fence.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use super::device_confs::FIELDS;
use super::device_snapshots::StoredSnapshot;
use super::logs::ALARM_FIELDS;
use crate::StoreError;
use crate::error::checked;
use crate::model::{AlarmLog, DeviceConf};
use crate::retry::retrying;

/// What a takeover found.
#[derive(Debug, Clone, PartialEq)]
pub struct Takeover {
    /// The fence now stands at the lease's revision (`false`: a newer owner raised it higher;
    /// the reads are then not the new owner's to use).
    pub raised: bool,
    pub snapshot: Option<StoredSnapshot>,
    pub conf: Option<DeviceConf>,
    /// The device's unattended alarms, oldest first.
    pub unattended: Vec<AlarmLog>,
}

/// Takeovers of every device.
pub struct HubDeviceTakeovers<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl HubDeviceTakeovers<'_> {
    /// Raises `device_id`'s fence to `revision` (a new lease of `node`, never lowering it) and
    /// reads what the device resumes from, in one transaction.
    pub async fn raise_and_read(&self, device_id: &str, revision: i64, node: &str) -> Result<Takeover, StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     UPSERT type::record('device_fence', $device) SET
                        node = IF revision = NONE OR revision < $revision THEN $node ELSE node END,
                        revision = IF revision = NONE OR revision < $revision THEN $revision ELSE revision END
                        RETURN VALUE revision;
                     SELECT snapshot_json, saved_at_ms, revision FROM type::record('device_snapshot', $device);
                     SELECT {FIELDS} FROM device_conf WHERE device = type::record('device', $device);
                     SELECT {ALARM_FIELDS} FROM alarm_log WHERE has_been_attended = false AND device = type::record('device', $device)
                        ORDER BY creation_date;
                     COMMIT TRANSACTION;"
                ))
                .bind(("device", device_id.to_owned()))
                .bind(("revision", revision))
                .bind(("node", node.to_owned()))
                .await?;
            let mut response = checked(response)?;
            // Results: BEGIN, UPSERT, the three reads, COMMIT.
            let fence: Vec<i64> = response.take(1)?;
            let snapshots: Vec<StoredSnapshot> = response.take(2)?;
            let confs: Vec<DeviceConf> = response.take(3)?;
            let unattended: Vec<AlarmLog> = response.take(4)?;
            Ok(Takeover {
                raised: fence.first() == Some(&revision),
                snapshot: snapshots.into_iter().next(),
                conf: confs.into_iter().next(),
                unattended,
            })
        })
        .await
    }
}

//! Takeovers in storage (cluster mode, issue 25): the new owner raises each device's fence to its
//! lease's revision and reads what the device resumes from — its stored snapshot, its
//! configuration row and its unattended alarms — in **one round trip**, one transaction, each
//! device's reads after its raise. The same as `HubDeviceFences::raise` followed by the three reads
//! (`HubDeviceSnapshots::load`, `HubDeviceConfs::of_device`, `HubLogs::unattended_of`), which cost
//! four round trips on a database server shared by every hub: with 50 takeovers at once on a
//! debug server the raise took 260 ms and the reads 800 ms (docs/reliability.md). Read after the
//! raise in the same transaction, nothing the old owner writes can come between them: a row it
//! wrote before is read, one after is refused by the fence.
//!
//! Several devices taken over at the same moment (a hub died and hundreds of mats reconnect
//! here) go in one transaction ([`HubDeviceTakeovers::raise_and_read_many`]): one commit for all
//! of them instead of one each, which is what a shared server spends its time on.

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

/// One device to take over: its id and the revision of this hub's new lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeoverRequest {
    pub device_id: String,
    pub revision: i64,
}

/// The statements of one device's takeover in a batch (the raise, then the three reads).
const STATEMENTS_PER_DEVICE: usize = 4;

/// Takeovers of every device.
pub struct HubDeviceTakeovers<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl HubDeviceTakeovers<'_> {
    /// Raises `device_id`'s fence to `revision` (a new lease of `node`, never lowering it) and
    /// reads what the device resumes from, in one transaction.
    pub async fn raise_and_read(&self, device_id: &str, revision: i64, node: &str) -> Result<Takeover, StoreError> {
        let request = TakeoverRequest { device_id: device_id.to_owned(), revision };
        let mut taken = self.raise_and_read_many(std::slice::from_ref(&request), node).await?;
        Ok(taken.remove(0))
    }

    /// [`Self::raise_and_read`] for several devices in one transaction: one [`Takeover`] per
    /// request, in the requests' order. The transaction commits or fails whole.
    pub async fn raise_and_read_many(&self, requests: &[TakeoverRequest], node: &str) -> Result<Vec<Takeover>, StoreError> {
        if requests.is_empty() {
            return Ok(Vec::new());
        }
        let query = batch_query(requests.len());
        retrying(|| {
            let query = query.clone();
            async move {
                let mut pending = self.db.query(query).bind(("node", node.to_owned()));
                for (index, request) in requests.iter().enumerate() {
                    pending = pending
                        .bind((format!("device{index}"), request.device_id.clone()))
                        .bind((format!("revision{index}"), request.revision));
                }
                let mut response = checked(pending.await?)?;
                let mut taken = Vec::with_capacity(requests.len());
                for (index, request) in requests.iter().enumerate() {
                    // Results: BEGIN, then each device's raise and three reads, then COMMIT.
                    let first = 1 + index * STATEMENTS_PER_DEVICE;
                    let fence: Vec<i64> = response.take(first)?;
                    let snapshots: Vec<StoredSnapshot> = response.take(first + 1)?;
                    let confs: Vec<DeviceConf> = response.take(first + 2)?;
                    let unattended: Vec<AlarmLog> = response.take(first + 3)?;
                    taken.push(Takeover {
                        raised: fence.first() == Some(&request.revision),
                        snapshot: snapshots.into_iter().next(),
                        conf: confs.into_iter().next(),
                        unattended,
                    });
                }
                Ok(taken)
            }
        })
        .await
    }
}

/// The transaction of `devices` takeovers; device `i`'s id and revision are bound as `$device{i}`
/// and `$revision{i}`, the hub's node as `$node`.
fn batch_query(devices: usize) -> String {
    let mut query = String::from("BEGIN TRANSACTION;\n");
    for i in 0..devices {
        query.push_str(&format!(
            "UPSERT type::record('device_fence', $device{i}) SET
                node = IF revision = NONE OR revision < $revision{i} THEN $node ELSE node END,
                revision = IF revision = NONE OR revision < $revision{i} THEN $revision{i} ELSE revision END
                RETURN VALUE revision;
             SELECT snapshot_json, saved_at_ms, revision FROM type::record('device_snapshot', $device{i});
             SELECT {FIELDS} FROM device_conf WHERE device = type::record('device', $device{i});
             SELECT {ALARM_FIELDS} FROM alarm_log WHERE has_been_attended = false AND device = type::record('device', $device{i})
                ORDER BY creation_date;\n"
        ));
    }
    query.push_str("COMMIT TRANSACTION;");
    query
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each device's four statements in order, between one BEGIN and one COMMIT: the result
    /// indices `raise_and_read_many` takes depend on it.
    #[test]
    fn a_batch_holds_four_statements_per_device_between_begin_and_commit() {
        let devices = 12;
        let query = batch_query(devices);
        let statements: Vec<&str> = query.split(';').map(str::trim).filter(|s| !s.is_empty()).collect();
        assert_eq!(statements.len(), 2 + STATEMENTS_PER_DEVICE * devices);
        assert_eq!(statements[0], "BEGIN TRANSACTION");
        assert_eq!(statements[statements.len() - 1], "COMMIT TRANSACTION");
        for i in 0..devices {
            let own = &statements[1 + i * STATEMENTS_PER_DEVICE..1 + (i + 1) * STATEMENTS_PER_DEVICE];
            assert!(own[0].starts_with(&format!("UPSERT type::record('device_fence', $device{i})")), "{}", own[0]);
            assert!(own[0].contains(&format!("$revision{i} THEN $revision{i}")));
            assert!(own[1].ends_with(&format!("FROM type::record('device_snapshot', $device{i})")), "{}", own[1]);
            assert!(own[2].ends_with(&format!("device = type::record('device', $device{i})")), "{}", own[2]);
            assert!(own[3].starts_with(&format!("SELECT {ALARM_FIELDS} FROM alarm_log")), "{}", own[3]);
            assert!(own[3].contains(&format!("device = type::record('device', $device{i})\n")), "{}", own[3]);
        }
    }
}

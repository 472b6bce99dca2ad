//! Mat snapshots in shared storage (cluster mode, issue 25): the storage writer's snapshot
//! batches as `device_snapshot` rows (fenced like the device's other rows), and the snapshot a
//! hub that takes a device over resumes its actor from.
//!
//! A takeover raises the device's fence and reads its snapshot and rows in one transaction
//! ([`raise_and_load`]), shared with the takeovers that arrive beside it (`takeover_batch`).
//!
//! The stored snapshot *replaces* what `crate::snapshots` rebuilds from the device's rows at a
//! hub's start (stream end, unattended alarms, interval, tare): it is the whole machine (the
//! repositioning clock's load episodes, the absence being timed, a running capture), taken at
//! most `SNAPSHOT_INTERVAL` before the device moved and never newer than the rows written before
//! it (the writer writes records, then statuses, then snapshots). A device without one (it never
//! ran in cluster mode) keeps the start-up snapshot. See docs/decisions.md.

use std::sync::Arc;

use actors::actor::storage_writer::DeviceSnapshot;
use mat_core::machine::mat::{MatSnapshot, StoredMatState};
use storage::Store;
use storage::repo::{SnapshotWrite, StoredSnapshot};

use super::takeover_batch::TakeoverBatches;

/// A takeover in storage: the device's fence raised to `fence` (for this hub) and, in the same
/// transaction after it (`storage`'s `device_takeovers`, shared with the takeovers queued beside
/// it: `takeover_batch`), the snapshot the device resumes from. `Ok(None)`: a newer owner stands
/// higher, the takeover is refused.
pub async fn raise_and_load(takeovers: &Arc<TakeoverBatches>, device: &str, fence: i64) -> Result<Option<Option<MatSnapshot>>, String> {
    let takeover = takeovers.take_over(device, fence).await?;
    if !takeover.raised {
        return Ok(None);
    }
    let rows = crate::snapshots::stored_state_from(device, takeover.conf, &takeover.unattended);
    Ok(Some(resumed_from(device, takeover.snapshot.as_ref(), rows)))
}

/// The device's stored snapshot, if one was written and reads back, made true to the device's
/// rows (`MatSnapshot::reconciled_with_rows`: the interval, the unattended alarms, the stream end
/// and the tare the rows hold may be newer than the snapshot). A row that does not read back (an
/// older format) is logged and ignored: the device resumes from its rows at the registry (what a
/// hub restart does).
fn resumed_from(device: &str, stored: Option<&StoredSnapshot>, rows: StoredMatState) -> Option<MatSnapshot> {
    match serde_json::from_str::<MatSnapshot>(&stored?.snapshot_json) {
        Ok(snapshot) => Some(snapshot.reconciled_with_rows(rows)),
        Err(error) => {
            tracing::warn!(%device, %error, "the device's stored snapshot does not read back; it resumes from its rows");
            None
        }
    }
}

/// Writes snapshots, each under its fence; the devices whose snapshot was fenced.
pub async fn save(store: &Store, batch: Vec<(DeviceSnapshot, u64)>) -> Result<Vec<Arc<str>>, storage::StoreError> {
    let writes: Vec<SnapshotWrite> = batch
        .iter()
        .filter_map(|(shared, fence)| {
            let json = serde_json::to_string(shared.snapshot.as_ref()).ok()?;
            Some(SnapshotWrite {
                device: shared.device_id.to_string(),
                json,
                saved_at_ms: i64::try_from(shared.taken_at_ms).unwrap_or(i64::MAX),
                fence: i64::try_from(*fence).unwrap_or(i64::MAX),
            })
        })
        .collect();
    let stale = store.hub_wide().device_snapshots().save(&writes).await?;
    Ok(stale.into_iter().map(Arc::from).collect())
}

//! The `device_fence` table (cluster mode, issue 25): the lease revision each device's current
//! owner writes under. [`HubDeviceFences::raise`] is what a hub that takes a device's lease does
//! before the device's actor starts; [`fence_check`] is the statement every fenced write of a
//! device's rows runs inside its own transaction (docs/scale-out.md, "Ownership and fencing").

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::retry::retrying;

/// The fence check of one device's write, for a transaction that binds `$fence_device` (the
/// device's id) and `$fence` (the writer's lease revision): it touches the fence row only if it
/// still holds the writer's revision and throws `fencedByNewerOwner` otherwise (`StoreError::Fenced`). The
/// touch is a write, so a write racing a new owner's [`HubDeviceFences::raise`] conflicts with
/// it, is retried and then finds the new revision.
pub(crate) const FENCE_CHECK: &str = "IF (UPDATE type::record('device_fence', $fence_device) SET writes += 1 \
     WHERE revision = $fence RETURN VALUE id) = [] { THROW 'fencedByNewerOwner' };";

/// [`FENCE_CHECK`] when the write is fenced, nothing otherwise (a hub without a cluster).
pub(crate) fn fence_check(fence: Option<i64>) -> &'static str {
    if fence.is_some() { FENCE_CHECK } else { "" }
}

/// `statement` alone on a hub on its own; in cluster mode, in a transaction after [`FENCE_CHECK`].
pub(crate) fn fenced_write(fence: Option<i64>, statement: &str) -> String {
    match fence {
        Some(_) => format!("BEGIN TRANSACTION; {FENCE_CHECK} {statement} COMMIT TRANSACTION;"),
        None => statement.to_owned(),
    }
}

/// The fences of every device.
pub struct HubDeviceFences<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl HubDeviceFences<'_> {
    /// Raises the device's fence to `revision` (a new lease of `node`), never lowering it.
    /// `Ok(true)` when the fence is now `revision`; `Ok(false)` when it already stood higher (a
    /// newer owner raised it: this hub's lease is stale).
    pub async fn raise(&self, device_id: &str, revision: i64, node: &str) -> Result<bool, StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPSERT type::record('device_fence', $device) SET
                        node = IF revision = NONE OR revision < $revision THEN $node ELSE node END,
                        revision = IF revision = NONE OR revision < $revision THEN $revision ELSE revision END
                     RETURN VALUE revision",
                )
                .bind(("device", device_id.to_owned()))
                .bind(("revision", revision))
                .bind(("node", node.to_owned()))
                .await?;
            let stored: Vec<i64> = response.take(0)?;
            Ok(stored.first() == Some(&revision))
        })
        .await
    }

    /// The device's fence, if a cluster ever owned it.
    pub async fn revision(&self, device_id: &str) -> Result<Option<i64>, StoreError> {
        let mut response = self
            .db
            .query("SELECT VALUE revision FROM type::record('device_fence', $device)")
            .bind(("device", device_id.to_owned()))
            .await?;
        let stored: Vec<i64> = response.take(0)?;
        Ok(stored.first().copied())
    }

    /// The device's fence, the node that raised it, and how many fenced writes ran under it or
    /// an earlier one (diagnostics and tests: one write per stored change).
    pub async fn holder(&self, device_id: &str) -> Result<Option<(i64, String, i64)>, StoreError> {
        #[derive(SurrealValue)]
        struct Row {
            revision: i64,
            node: String,
            writes: i64,
        }
        let mut response = self
            .db
            .query("SELECT revision, node, writes FROM type::record('device_fence', $device)")
            .bind(("device", device_id.to_owned()))
            .await?;
        let stored: Vec<Row> = response.take(0)?;
        Ok(stored.into_iter().next().map(|row| (row.revision, row.node, row.writes)))
    }
}

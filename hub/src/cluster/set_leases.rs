//! The leases of room sets and Sensing Horses (issue 25, docs/scale-out.md "Room sets and
//! Sensing Horses"): every hub runs every set's actor and computes the same status from the
//! members' words, but one hub writes the set's status rows — the holder of the set's lease, a
//! key of the same `device_owners` bucket (key: the set's id), fenced by its revision in
//! `device_fence` like a device's. The rule is `lease::set_lease_step`: a hub that owns one of
//! the set's members creates the key when nobody holds it (create only: never a takeover), the
//! renewal task renews it with the devices' leases, and a hub that owns no member any more lets
//! it expire. A holder that dies stops renewing; within a lease time another hub that owns a
//! member creates it, raises the fence and has the set's actor store its current status if the
//! stored one differs (a change that happened while nobody held it is not lost, and none is
//! written twice). The actor saves it, not this module: a status read here could be older than
//! one the actor hands the writer meanwhile, and would overwrite it in the writer's queue.

use std::sync::Arc;

use actors::actor::registry::RegistryMsg;
use actors::actor::room_set::RoomSetMsg;
use actors::actor::storage_writer::WriterMsg;
use actors::catalog::{Catalog, DeviceInfo};
use async_nats::jetstream::kv;
use mat_core::machine::status::PatientStatus;
use ractor::ActorRef;
use ractor::rpc::CallResult;
use storage::Store;

use super::lease::{LEASE_TTL, LeaseState, SetLeaseStep, set_lease_step};
use super::lease_keeper::{LeaseKeeper, NATS_WAIT, unix_ms};

/// How long storing a new holder's set status waits for the writer's flush.
const FLUSH_WAIT: std::time::Duration = std::time::Duration::from_secs(35);
/// How long it waits for the registry to name the set's actor.
const RESOLVE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// What tending the sets' leases needs from the hub.
pub struct SetParts {
    /// Which devices are sets, and their members.
    pub catalog: Arc<Catalog>,
    /// Names the sets' actors, which store their current statuses when this hub takes a set's
    /// lease.
    pub registry: ActorRef<RegistryMsg>,
    /// Flushed first, so the stored status compared is the latest (the set's writes are fenced
    /// by its lease).
    pub writer: ActorRef<WriterMsg>,
}

impl LeaseKeeper {
    /// The hub's parts the sets' leases need; until then this hub holds no set's lease.
    pub fn attach_sets(&self, parts: SetParts) {
        let _ = self.sets.set(parts);
    }

    /// Whether `id` is a room set or Sensing Horse.
    pub(super) fn is_set(&self, id: &str) -> bool {
        self.sets.get().and_then(|parts| parts.catalog.get(id)).is_some_and(|device| !device.members.is_empty())
    }

    /// One renewal tick's work on the sets: create the leases this hub should hold, let go of
    /// those it should not (renewing is the devices' renewal's).
    pub(super) async fn tend_sets(&self, bucket: &kv::Store) {
        let Some(parts) = self.sets.get() else { return };
        for set in parts.catalog.all() {
            if set.members.is_empty() {
                continue;
            }
            let (held_here, owns_a_member) = {
                let book = self.book();
                let held = |id: &str| matches!(book.state(id), Some(LeaseState::Held { .. }));
                (held(&set.id), set.members.iter().any(|member| held(member)))
            };
            let held_elsewhere = !held_here && self.sightings().written_within(&set.id, self.mono_ms(), LEASE_TTL);
            match set_lease_step(held_here, owns_a_member, held_elsewhere) {
                SetLeaseStep::Create => self.create_set_lease(bucket, parts, &set).await,
                SetLeaseStep::LetGo => self.book_mut().forget(&set.id),
                SetLeaseStep::Nothing => {}
            }
        }
    }

    async fn create_set_lease(&self, bucket: &kv::Store, parts: &SetParts, set: &Arc<DeviceInfo>) {
        let value = self.book().value(unix_ms());
        let sent = self.mono_ms();
        match tokio::time::timeout(NATS_WAIT, bucket.create(set.id.as_ref(), value.encode().into())).await {
            Ok(Ok(revision)) => {
                self.book_mut().acquired_set(&set.id, value, revision, sent);
                let fence = i64::try_from(revision).unwrap_or(i64::MAX);
                match self.store.hub_wide().device_fences().raise(&set.id, fence, &self.node).await {
                    // Off the renewal task: a flush may wait for a slow database.
                    Ok(true) => {
                        self.book_mut().fence_raised(&set.id, revision);
                        tokio::spawn(store_current_status(self.store.clone(), parts.registry.clone(), parts.writer.clone(), set.clone()));
                    }
                    Ok(false) => self.book_mut().forget(&set.id),
                    Err(error) => {
                        tracing::warn!(set = %set.id, %error, "the set's fence could not be raised; its lease is let go");
                        self.book_mut().forget(&set.id);
                    }
                }
            }
            // Another hub holds it: its renewals will be seen; try again once they stop.
            Ok(Err(error)) if error.kind() == kv::CreateErrorKind::AlreadyExists => {
                self.sightings().seen(&set.id, sent);
            }
            _ => {}
        }
    }
}

/// The set's status, stored by its actor unless the stored one says the same. The writer is
/// flushed first, so a change the set actor handed it just before the lease was taken is in the
/// store before the comparison (and is not written a second time).
async fn store_current_status(store: Store, registry: ActorRef<RegistryMsg>, writer: ActorRef<WriterMsg>, set: Arc<DeviceInfo>) {
    let _ = writer.call(WriterMsg::Flush, Some(FLUSH_WAIT)).await;
    // A row not read is treated as differing: the status is written (once more at worst).
    let stored = match store.hub_wide().device_confs().of_device(&set.id).await {
        Ok(Some(row)) => PatientStatus::from_name(&row.patient_status).map(|patient| (row.device_functional, patient)),
        _ => None,
    };
    let resolved = registry.call(|reply| RegistryMsg::ResolveSet { device_id: set.id.clone(), reply }, Some(RESOLVE_WAIT)).await;
    match resolved {
        Ok(CallResult::Success(Ok(actor))) => {
            let _ = actor.cast(RoomSetMsg::SaveUnlessStored { stored });
        }
        _ => tracing::warn!(set = %set.id, "the set's actor did not answer; its status is stored at its next change"),
    }
}

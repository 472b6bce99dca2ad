//! `DeviceRegistry`: owns one `MatActor` per device (spawned when the device connects or when
//! something needs it) and one `RoomSetActor` per parent device, and holds their restart policy.
//!
//! A failed child is restarted from the same arguments, its machine's last snapshot and its live
//! connection, at most three times in ten seconds; after that the registry gives up on that
//! device: it marks it offline and drops its connection, so the device reconnects later to a
//! fresh actor instead of crash-looping inside the hub.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use ractor::{Actor, ActorCell, ActorId, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};

use super::link::DeviceLink;
use super::mat::{MatActor, MatArgs, MatMsg, SnapshotSlot};
use super::publish::{publish_status, seed_status};
use super::room_set::{RoomSetActor, RoomSetArgs, RoomSetMsg};
use super::storage_writer::WriterMsg;
use crate::browser::DeviceConfEvent;
use crate::catalog::{Catalog, DeviceInfo};
use crate::fanout::Bus;
use crate::live_board::LiveBoard;
use crate::metrics::HubMetrics;
use mat_core::machine::mat::{BehaviourConfig, DeviceStatus, MatSnapshot};
use mat_core::machine::presence::Presence;
use mat_core::machine::restart_budget::RestartBudget;
use mat_protocol::{ErrorCode, HubMessage, ProtocolErrorMessage};

/// How ingest reaches a device's actor.
#[derive(Clone)]
pub struct MatHandle {
    pub actor: ActorRef<MatMsg>,
    /// Frames cast and not yet handled; ingest drops frames beyond `MAX_INFLIGHT_FRAMES`.
    pub inflight: Arc<AtomicUsize>,
}

/// Why the registry could not hand out an actor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("no such device")]
    UnknownDevice,
    #[error("device {0} is a parent of sub-devices and streams nothing itself")]
    NotAStreamingDevice(String),
    #[error("the device's actor could not be started: {0}")]
    SpawnFailed(String),
}

/// Messages of the registry.
pub enum RegistryMsg {
    /// A device authenticated on a new connection.
    Connect { device_id: Arc<str>, link: DeviceLink, reply: RpcReplyPort<Result<MatHandle, RegistryError>> },
    /// A device connection closed.
    Disconnect { device_id: Arc<str>, connection_id: u64 },
    /// The device's actor, spawned if needed.
    Resolve { device_id: Arc<str>, reply: RpcReplyPort<Result<MatHandle, RegistryError>> },
    /// What was running when the hub stopped, read back from storage at start-up before devices
    /// can connect: one snapshot per device with something stored (a future stream end, which
    /// each device's actor resumes with the time left, spec §4; unattended alarms, still pending,
    /// attendable and not raised again; a repositioning interval). Replies when done.
    Resume { snapshots: Vec<(Arc<str>, MatSnapshot)>, reply: RpcReplyPort<()> },
    /// The set actor of a parent device (room set, Sensing Horse), spawned if needed.
    ResolveSet { device_id: Arc<str>, reply: RpcReplyPort<Result<ActorRef<RoomSetMsg>, RegistryError>> },
    /// A device was registered while the hub runs (already in the catalogue): its card appears
    /// offline at once, and a parent's set actor starts. Replies when done.
    Registered { device_id: Arc<str>, reply: RpcReplyPort<()> },
    /// Cluster mode: this hub took the device's lease from another hub (or from nobody it knew)
    /// and is about to attach its connection. A running actor of the device here is stale and
    /// stops; the device's next actor resumes from `snapshot` (read from shared storage), when
    /// there is one. Replies when done.
    TakeOver { device_id: Arc<str>, snapshot: Option<Box<MatSnapshot>>, reply: RpcReplyPort<()> },
    /// Cluster mode: what a member of a set (room set, horse) that another hub owns told its set
    /// there, heard through the mirror: this hub's set actor of its parent (spawned if needed)
    /// hears it as it hears its own members.
    MemberElsewhere { device_id: Arc<str>, status: DeviceStatus, presence: Presence },
    /// Cluster mode: another hub owns the device now. Its actor stops, its connection is told so
    /// and closed, and its snapshot is forgotten (a later takeover resumes from shared storage).
    Release { device_id: Arc<str> },
    /// Cluster mode: another hub told this one where the device stands (its owner's status,
    /// heard through the mirror). An actor of the device here without a connection (spawned for
    /// a command while the device was connected nowhere) stops: it would otherwise show the
    /// device offline here after its silence, over the owner's mirrored status. An actor holding
    /// a connection is left alone (the leases settle who owns it).
    OwnedElsewhere { device_id: Arc<str> },
}

/// Everything the registry needs.
#[derive(Clone)]
pub struct RegistryArgs {
    pub catalog: Arc<Catalog>,
    pub bus: Arc<Bus>,
    /// The devices' live state, which REST reads.
    pub board: Arc<LiveBoard>,
    pub writer: Option<ActorRef<WriterMsg>>,
    pub metrics: Arc<HubMetrics>,
    pub absence_delay: Duration,
    /// Demo/test only: how many times faster the repositioning clock runs (1: real time).
    pub repositioning_time_scale: u32,
    /// Cluster mode: mat actors send their snapshots to the storage writer, for shared storage.
    pub share_snapshots: bool,
}

struct MatSlot {
    handle: MatHandle,
    args: MatArgs,
    budget: RestartBudget,
}

struct SetSlot {
    actor: ActorRef<RoomSetMsg>,
    args: RoomSetArgs,
    budget: RestartBudget,
}

/// The registry's state.
pub struct RegistryState {
    args: RegistryArgs,
    mats: HashMap<Arc<str>, MatSlot>,
    sets: HashMap<Arc<str>, SetSlot>,
    by_actor: HashMap<ActorId, Arc<str>>,
    /// Each device's latest snapshot, kept across its actors' restarts.
    snapshots: HashMap<Arc<str>, SnapshotSlot>,
}

/// The registry actor.
pub struct DeviceRegistry;

impl Actor for DeviceRegistry {
    type Msg = RegistryMsg;
    type State = RegistryState;
    type Arguments = RegistryArgs;

    async fn pre_start(&self, myself: ActorRef<RegistryMsg>, args: RegistryArgs) -> Result<RegistryState, ActorProcessingErr> {
        let mut state =
            RegistryState { args, mats: HashMap::new(), sets: HashMap::new(), by_actor: HashMap::new(), snapshots: HashMap::new() };
        // Every device starts offline until it connects; cards show that at once.
        for device in state.args.catalog.all() {
            state.seed_offline(&device);
        }
        for device in state.args.catalog.all() {
            if !device.members.is_empty() {
                state.spawn_set(&myself, device).await?;
            }
        }
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<RegistryMsg>,
        message: RegistryMsg,
        state: &mut RegistryState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            RegistryMsg::Connect { device_id, link, reply } => {
                let result = match state.mats.get_mut(&device_id) {
                    Some(slot) => {
                        slot.args.link = Some(link.clone());
                        let _ = slot.handle.actor.cast(MatMsg::Attach(link));
                        Ok(slot.handle.clone())
                    }
                    None => state.spawn_mat(&myself, &device_id, Some(link)).await,
                };
                let _ = reply.send(result);
            }
            RegistryMsg::Disconnect { device_id, connection_id } => {
                if let Some(slot) = state.mats.get_mut(&device_id) {
                    if slot.args.link.as_ref().is_some_and(|l| l.connection_id == connection_id) {
                        slot.args.link = None;
                    }
                    let _ = slot.handle.actor.cast(MatMsg::Detach { connection_id });
                }
            }
            RegistryMsg::Resolve { device_id, reply } => {
                let result = match state.mats.get(&device_id) {
                    Some(slot) => Ok(slot.handle.clone()),
                    None => state.spawn_mat(&myself, &device_id, None).await,
                };
                let _ = reply.send(result);
            }
            RegistryMsg::Resume { snapshots, reply } => {
                for (device_id, snapshot) in snapshots {
                    state.snapshots.entry(device_id).or_default().save(snapshot);
                }
                let _ = reply.send(());
            }
            RegistryMsg::ResolveSet { device_id, reply } => {
                if !state.sets.contains_key(&device_id)
                    && let Some(device) = state.args.catalog.get(&device_id)
                    && !device.members.is_empty()
                {
                    state.spawn_set(&myself, device).await?;
                }
                let result = match state.sets.get(&device_id) {
                    Some(slot) => Ok(slot.actor.clone()),
                    None => Err(RegistryError::UnknownDevice),
                };
                let _ = reply.send(result);
            }
            RegistryMsg::MemberElsewhere { device_id, status, presence } => {
                let Some((parent, index)) = state.args.catalog.get(&device_id).and_then(|member| member.parent.clone()) else {
                    return Ok(());
                };
                if !state.sets.contains_key(&parent)
                    && let Some(device) = state.args.catalog.get(&parent)
                    && !device.members.is_empty()
                {
                    state.spawn_set(&myself, device).await?;
                }
                if let Some(slot) = state.sets.get(&parent) {
                    let _ = slot.actor.cast(RoomSetMsg::Member { index, status, presence });
                }
            }
            RegistryMsg::TakeOver { device_id, snapshot, reply } => {
                state.stop_mat(&device_id, "its lease was taken over");
                match snapshot {
                    Some(snapshot) => {
                        // The board shows what the device was where it ran (the registry seeded it
                        // offline here): the resumed actor publishes only what differs from it.
                        if let Some(info) = state.args.catalog.get(&device_id) {
                            let event = DeviceConfEvent::new(&info.identity(), &snapshot.status, Vec::new());
                            let live = state.args.board.device(&info.company_id, &device_id);
                            publish_status(&live, &state.args.bus.company(&info.company_id), &device_id, event);
                        }
                        state.snapshots.entry(device_id).or_default().save(*snapshot);
                    }
                    None => {
                        state.snapshots.entry(device_id).or_default();
                    }
                }
                let _ = reply.send(());
            }
            RegistryMsg::OwnedElsewhere { device_id } => {
                if state.mats.get(&device_id).is_some_and(|slot| slot.args.link.is_none()) {
                    state.stop_mat(&device_id, "another hub owns the device; this idle actor is not needed");
                }
            }
            RegistryMsg::Release { device_id } => {
                if let Some(link) = state.stop_mat(&device_id, "another hub owns the device now") {
                    link.send(HubMessage::Error(ProtocolErrorMessage {
                        code: ErrorCode::Replaced,
                        message: "a newer connection of this device took over on another hub".into(),
                        fatal: true,
                    }));
                }
                state.snapshots.remove(&device_id);
            }
            RegistryMsg::Registered { device_id, reply } => {
                if let Some(device) = state.args.catalog.get(&device_id) {
                    state.seed_offline(&device);
                    if !device.members.is_empty() && !state.sets.contains_key(&device_id) {
                        state.spawn_set(&myself, device).await?;
                    }
                }
                let _ = reply.send(());
            }
        }
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<RegistryMsg>,
        event: SupervisionEvent,
        state: &mut RegistryState,
    ) -> Result<(), ActorProcessingErr> {
        let (cell, failure) = match event {
            SupervisionEvent::ActorFailed(cell, error) => (cell, Some(error.to_string())),
            SupervisionEvent::ActorTerminated(cell, _, reason) => (cell, reason),
            _ => return Ok(()),
        };
        state.handle_child_exit(&myself, cell, failure).await
    }
}

impl RegistryState {
    /// Shows a device offline (on the board, and to the sessions joining later) until its actor
    /// says otherwise.
    fn seed_offline(&self, device: &DeviceInfo) {
        let event = DeviceConfEvent::new(&device.identity(), &offline_status(device), Vec::new());
        seed_status(&self.args.board.device(&device.company_id, &device.id), &self.args.bus.company(&device.company_id), &device.id, event);
    }

    /// Stops the device's actor, if it runs, as a normal exit (no restart); returns its link.
    fn stop_mat(&mut self, device_id: &Arc<str>, why: &str) -> Option<DeviceLink> {
        let slot = self.mats.remove(device_id)?;
        self.by_actor.remove(&slot.handle.actor.get_id());
        tracing::info!(device = %slot.args.info.serial, why, "mat actor stopped");
        slot.handle.actor.stop(Some(why.to_owned()));
        slot.args.link
    }

    async fn spawn_mat(
        &mut self,
        myself: &ActorRef<RegistryMsg>,
        device_id: &Arc<str>,
        link: Option<DeviceLink>,
    ) -> Result<MatHandle, RegistryError> {
        let info = self.args.catalog.get(device_id).ok_or(RegistryError::UnknownDevice)?;
        if info.device_type.frame_shape().is_none() {
            return Err(RegistryError::NotAStreamingDevice(info.serial.clone()));
        }
        let parent = info.parent.as_ref().and_then(|(parent, _)| self.sets.get(parent)).map(|s| s.actor.clone());
        let args = MatArgs {
            info: info.clone(),
            link,
            bus: self.args.bus.clone(),
            board: self.args.board.clone(),
            writer: self.args.writer.clone(),
            parent,
            metrics: self.args.metrics.clone(),
            absence_delay: self.args.absence_delay,
            inflight: Arc::new(AtomicUsize::new(0)),
            snapshot: self.snapshots.entry(device_id.clone()).or_default().clone(),
            share_snapshots: self.args.share_snapshots,
            behaviour: BehaviourConfig {
                first_alarm_id: first_alarm_id(),
                repositioning_time_scale: self.args.repositioning_time_scale,
                ..BehaviourConfig::default()
            },
        };
        let (actor, _) = Actor::spawn_linked(None, MatActor, args.clone(), myself.get_cell())
            .await
            .map_err(|e| RegistryError::SpawnFailed(e.to_string()))?;
        let handle = MatHandle { actor: actor.clone(), inflight: args.inflight.clone() };
        self.by_actor.insert(actor.get_id(), device_id.clone());
        self.mats.insert(device_id.clone(), MatSlot { handle: handle.clone(), args, budget: RestartBudget::default() });
        Ok(handle)
    }

    async fn spawn_set(&mut self, myself: &ActorRef<RegistryMsg>, info: Arc<DeviceInfo>) -> Result<(), ActorProcessingErr> {
        let args = RoomSetArgs {
            info: info.clone(),
            bus: self.args.bus.clone(),
            board: self.args.board.clone(),
            writer: self.args.writer.clone(),
            absence_delay: self.args.absence_delay,
        };
        let (actor, _) = Actor::spawn_linked(None, RoomSetActor, args.clone(), myself.get_cell()).await?;
        self.by_actor.insert(actor.get_id(), info.id.clone());
        let budget = self.sets.remove(&info.id).map(|s| s.budget).unwrap_or_default();
        self.sets.insert(info.id.clone(), SetSlot { actor, args, budget });
        Ok(())
    }

    async fn handle_child_exit(
        &mut self,
        myself: &ActorRef<RegistryMsg>,
        cell: ActorCell,
        failure: Option<String>,
    ) -> Result<(), ActorProcessingErr> {
        let Some(device_id) = self.by_actor.remove(&cell.get_id()) else { return Ok(()) };
        let now = Instant::now();
        if let Some(mut slot) = self.mats.remove(&device_id) {
            let serial = slot.args.info.serial.clone();
            if failure.is_none() {
                return Ok(());
            }
            tracing::error!(device = %serial, reason = ?failure, "mat actor failed");
            if slot.budget.try_restart(now) {
                HubMetrics::inc(&self.args.metrics.actor_restarts);
                slot.args.inflight = Arc::new(AtomicUsize::new(0));
                match Actor::spawn_linked(None, MatActor, slot.args.clone(), myself.get_cell()).await {
                    Ok((actor, _)) => {
                        slot.handle = MatHandle { actor: actor.clone(), inflight: slot.args.inflight.clone() };
                        self.by_actor.insert(actor.get_id(), device_id.clone());
                        self.mats.insert(device_id, slot);
                        tracing::info!(device = %serial, "mat actor restarted");
                    }
                    Err(error) => tracing::error!(device = %serial, %error, "mat actor could not be restarted"),
                }
            } else {
                // Give up: publish offline and drop the link, which closes the connection.
                tracing::error!(device = %serial, "mat actor failed too often; dropping its connection");
                let status = offline_status(&slot.args.info);
                slot.args.snapshot.update(|snapshot| snapshot.status = status);
                let info = &slot.args.info;
                let event = DeviceConfEvent::new(&info.identity(), &status, Vec::new());
                publish_status(
                    &self.args.board.device(&info.company_id, &device_id),
                    &self.args.bus.company(&info.company_id),
                    &device_id,
                    event,
                );
            }
            return Ok(());
        }
        if let Some(mut slot) = self.sets.remove(&device_id)
            && failure.is_some()
            && slot.budget.try_restart(now)
        {
            HubMetrics::inc(&self.args.metrics.actor_restarts);
            let info = slot.args.info.clone();
            let budget = std::mem::take(&mut slot.budget);
            self.sets.insert(device_id.clone(), SetSlot { budget, ..slot });
            self.spawn_set(myself, info).await?;
            // Members now report to the new parent: their kept arguments (for their own restarts)
            // and their running actors, which also tell it their current status at once.
            let parent = self.sets.get(&device_id).map(|s| s.actor.clone());
            for member in self.mats.values_mut().filter(|m| m.args.info.parent.as_ref().is_some_and(|(p, _)| *p == device_id)) {
                member.args.parent = parent.clone();
                if let Some(parent) = &parent {
                    let _ = member.handle.actor.cast(MatMsg::SetParent(parent.clone()));
                }
            }
        }
        Ok(())
    }
}

/// The first alarm number of a device's first actor in this hub process: the wall clock in ms, so
/// numbers keep growing across hub restarts without reading storage (a device would have to raise
/// more than one alarm per millisecond of downtime to collide). Restarted actors continue from
/// their snapshot.
fn first_alarm_id() -> u64 {
    super::unix_ms()
}

/// The status of a device that is not connected.
pub fn offline_status(device: &DeviceInfo) -> DeviceStatus {
    DeviceStatus::offline(device.device_type, device.patient_status)
}

#[cfg(test)]
mod tests;

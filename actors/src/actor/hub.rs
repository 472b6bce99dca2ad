//! `HubSupervisor`: the root of the actor tree. It starts the storage writer, the device
//! registry and the session supervisor as linked children.
//!
//! These three hold the hub together; if one of them fails the supervisor escalates by stopping
//! the tree and reporting why, so the process exits non-zero and its service manager restarts
//! it with state rebuilt from storage. (Mat, room-set and session actors are restarted by their
//! own supervisors below; see `registry`.)

use std::sync::Arc;
use std::time::Duration;

use ractor::{Actor, ActorProcessingErr, ActorRef, SupervisionEvent};
use tokio::sync::watch;

use super::registry::{DeviceRegistry, RegistryArgs, RegistryMsg};
use super::session::SessionSupervisor;
use super::storage_writer::{StatusStore, StorageWriter, WriterMsg};
use crate::catalog::Catalog;
use crate::fanout::Bus;
use crate::live_board::LiveBoard;
use crate::metrics::HubMetrics;

/// What the hub's actor tree needs.
pub struct HubArgs {
    pub catalog: Arc<Catalog>,
    pub bus: Arc<Bus>,
    /// The devices' live state, which REST reads.
    pub board: Arc<LiveBoard>,
    pub store: Arc<dyn StatusStore>,
    pub metrics: Arc<HubMetrics>,
    pub absence_delay: Duration,
    /// Demo/test only: how many times faster the repositioning clock runs (1: real time).
    pub repositioning_time_scale: u32,
    /// Set to an explanation when the tree fails and the hub must stop.
    pub failed: watch::Sender<Option<String>>,
}

/// References to the running tree.
#[derive(Clone)]
pub struct HubRefs {
    pub supervisor: ActorRef<()>,
    pub registry: ActorRef<RegistryMsg>,
    pub sessions: ActorRef<()>,
    pub writer: ActorRef<WriterMsg>,
}

/// The root supervisor.
pub struct HubSupervisor;

/// State of the root: where to report a failure.
pub struct HubState {
    failed: watch::Sender<Option<String>>,
}

impl Actor for HubSupervisor {
    type Msg = ();
    type State = HubState;
    type Arguments = HubArgs;

    async fn pre_start(&self, _myself: ActorRef<()>, args: HubArgs) -> Result<HubState, ActorProcessingErr> {
        Ok(HubState { failed: args.failed })
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<()>,
        event: SupervisionEvent,
        state: &mut HubState,
    ) -> Result<(), ActorProcessingErr> {
        let why = match event {
            SupervisionEvent::ActorFailed(cell, error) => format!("{:?} failed: {error}", cell.get_id()),
            SupervisionEvent::ActorTerminated(cell, _, reason) => format!("{:?} stopped: {reason:?}", cell.get_id()),
            _ => return Ok(()),
        };
        tracing::error!(%why, "a core actor of the hub ended; stopping the hub");
        let _ = state.failed.send(Some(why));
        myself.stop(Some("core actor ended".into()));
        Ok(())
    }
}

/// Starts the whole tree and returns its references.
pub async fn start(args: HubArgs) -> Result<HubRefs, ActorProcessingErr> {
    let (catalog, bus, board, store, metrics, delay) =
        (args.catalog.clone(), args.bus.clone(), args.board.clone(), args.store.clone(), args.metrics.clone(), args.absence_delay);
    let time_scale = args.repositioning_time_scale;
    let share_snapshots = store.keeps_snapshots();
    let (supervisor, _) = Actor::spawn(None, HubSupervisor, args).await?;
    let cell = supervisor.get_cell();
    let (writer, _) = Actor::spawn_linked(None, StorageWriter, (store, metrics.clone()), cell.clone()).await?;
    let registry_args = RegistryArgs {
        catalog,
        bus,
        board,
        writer: Some(writer.clone()),
        metrics,
        absence_delay: delay,
        repositioning_time_scale: time_scale,
        share_snapshots,
    };
    let (registry, _) = Actor::spawn_linked(None, DeviceRegistry, registry_args, cell.clone()).await?;
    let (sessions, _) = Actor::spawn_linked(None, SessionSupervisor, (), cell).await?;
    Ok(HubRefs { supervisor, registry, sessions, writer })
}

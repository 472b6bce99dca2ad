//! `RoomSetActor`: the parent of a set of sub-devices — a room set (bed, seat, floor) or a
//! Sensing Horse (left, right). Its members' mat actors report status and presence changes; it
//! drives a [`DeviceSet`] machine and publishes the parent's own status (on the [`LiveBoard`],
//! then to the company's sessions).

use std::sync::Arc;
use std::time::Duration;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use super::TimerSlot;
use super::publish::publish_status;
use super::storage_writer::{StatusRecord, WriterMsg};
use crate::browser::{DeviceConfEvent, SideStatus};
use crate::catalog::DeviceInfo;
use crate::fanout::{Bus, CompanyChannel};
use crate::live_board::{DeviceLive, LiveBoard};
use mat_core::machine::device_set::{DeviceSet, SetKind};
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::presence::Presence;
use mat_core::machine::status::PatientStatus;
use mat_protocol::device_type::DeviceType;

/// Messages of the set actor.
#[derive(Debug)]
pub enum RoomSetMsg {
    /// Member `index` has a new status or presence.
    Member { index: usize, status: DeviceStatus, presence: Presence },
    /// A machine deadline may be due.
    Tick,
    /// Whether a live stream may start on the set (the horse: both sides functional).
    CanStream(RpcReplyPort<bool>),
    /// Cluster mode: this hub took the set's lease, and the set's row says `stored`
    /// (`deviceFunctional`, `patientStatus`; `None`: unknown). The actor saves its status unless
    /// the row says the same: a status the hub read elsewhere could be older than one this actor
    /// has just handed the writer, and would overwrite it there (`hub::cluster::set_leases`).
    SaveUnlessStored { stored: Option<(bool, PatientStatus)> },
}

/// What a set actor starts from.
#[derive(Clone)]
pub struct RoomSetArgs {
    pub info: Arc<DeviceInfo>,
    pub bus: Arc<Bus>,
    /// Where the set's status is kept for REST.
    pub board: Arc<LiveBoard>,
    pub writer: Option<ActorRef<WriterMsg>>,
    pub absence_delay: Duration,
}

/// The actor's state.
pub struct RoomSetState {
    args: RoomSetArgs,
    machine: DeviceSet,
    company: Arc<CompanyChannel>,
    live: Arc<DeviceLive>,
    timer: TimerSlot,
}

/// The set actor.
pub struct RoomSetActor;

impl Actor for RoomSetActor {
    type Msg = RoomSetMsg;
    type State = RoomSetState;
    type Arguments = RoomSetArgs;

    async fn pre_start(&self, _myself: ActorRef<RoomSetMsg>, args: RoomSetArgs) -> Result<RoomSetState, ActorProcessingErr> {
        let kind = if args.info.device_type == DeviceType::SensingHorse { SetKind::Horse } else { SetKind::Room };
        let machine = DeviceSet::new(kind, args.info.members.len(), args.absence_delay);
        let company = args.bus.company(&args.info.company_id);
        let live = args.board.device(&args.info.company_id, &args.info.id);
        let state = RoomSetState { machine, company, live, args, timer: TimerSlot::default() };
        state.publish(state.machine.status());
        Ok(state)
    }

    async fn handle(&self, myself: ActorRef<RoomSetMsg>, message: RoomSetMsg, state: &mut RoomSetState) -> Result<(), ActorProcessingErr> {
        let now = super::machine_now();
        match message {
            RoomSetMsg::Member { index, status, presence } => state.machine.handle_member(now, index, status, presence),
            RoomSetMsg::Tick => {
                state.timer.fired();
                state.machine.handle_timeout(now);
            }
            RoomSetMsg::CanStream(reply) => {
                let _ = reply.send(state.machine.can_stream());
                return Ok(());
            }
            RoomSetMsg::SaveUnlessStored { stored } => {
                let status = state.machine.status();
                if stored != Some((status.functional, status.patient_status)) {
                    state.save(status);
                }
                return Ok(());
            }
        }
        while let Some(status) = state.machine.poll_output() {
            state.publish(status);
            state.save(status);
        }
        if let Some(delay) = state.machine.poll_timeout().and_then(|deadline| state.timer.arm(deadline, now)) {
            myself.send_after(delay, || RoomSetMsg::Tick);
        }
        Ok(())
    }
}

impl RoomSetState {
    fn save(&self, status: DeviceStatus) {
        if let Some(writer) = &self.args.writer {
            let _ = writer.cast(WriterMsg::Save(StatusRecord {
                device_id: self.args.info.id.clone(),
                functional: status.functional,
                patient_status: status.patient_status,
            }));
        }
    }

    fn publish(&self, status: DeviceStatus) {
        let sides = if self.args.info.device_type == DeviceType::SensingHorse {
            self.machine
                .member_codes()
                .into_iter()
                .enumerate()
                .map(|(i, code)| SideStatus::new(if i % 2 == 0 { "left" } else { "right" }, code))
                .collect()
        } else {
            Vec::new()
        };
        let event = DeviceConfEvent::new(&self.args.info.identity(), &status, sides);
        publish_status(&self.live, &self.company, &self.args.info.id, event);
    }
}

#[cfg(test)]
mod tests;

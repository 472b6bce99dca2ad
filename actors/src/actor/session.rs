//! `SessionActor`: one per authenticated browser WebSocket. It turns the browser's events into
//! subscriptions and device requests; everything it sends goes through the session's outbox,
//! which the socket's writer task drains.

use std::sync::Arc;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};

use super::registry::RegistryMsg;
use super::room_set::RoomSetMsg;
pub use super::session_commands::CALL_TIMEOUT;
use super::session_commands::{CommandOutcome, DeviceCommand, INVALID_ANALYSIS_TYPE, answered, run_on_owner};
use crate::browser::{ClientEvent, StreamingRemainingEvent, encode_event, error_event, events};
use crate::catalog::Catalog;
use crate::fanout::{Bus, CloseReason, DeviceScope, Outbox, SessionId, Viewer};
use mat_core::machine::capture::CaptureKind;
use mat_core::machine::streaming::StreamRefusal;
use mat_protocol::device_type::DeviceType;

/// Messages of a session.
pub enum SessionMsg {
    /// An event from the browser; the reply says it has been handled (back-pressure for the
    /// socket reader).
    Client(ClientEvent, RpcReplyPort<()>),
}

/// Who the session belongs to and what it talks to.
#[derive(Clone)]
pub struct SessionArgs {
    pub id: SessionId,
    pub user_id: String,
    pub company_id: String,
    pub outbox: Arc<Outbox>,
    pub bus: Arc<Bus>,
    pub catalog: Arc<Catalog>,
    pub registry: ActorRef<RegistryMsg>,
    /// A paired ward screen's session (role 3): only these devices' statuses, events and maps,
    /// and nothing that acts (every request but joining and leaving is refused, `readOnly`).
    /// `None` for a person's session: every device of the company.
    pub board_scope: Option<DeviceScope>,
}

/// The session actor.
pub struct SessionActor;

impl Actor for SessionActor {
    type Msg = SessionMsg;
    type State = SessionArgs;
    type Arguments = SessionArgs;

    async fn pre_start(&self, _myself: ActorRef<SessionMsg>, args: SessionArgs) -> Result<SessionArgs, ActorProcessingErr> {
        Ok(args)
    }

    async fn post_stop(&self, _myself: ActorRef<SessionMsg>, state: &mut SessionArgs) -> Result<(), ActorProcessingErr> {
        state.bus.leave_all(state.id);
        state.outbox.close(CloseReason::Closed);
        Ok(())
    }

    async fn handle(&self, _myself: ActorRef<SessionMsg>, message: SessionMsg, state: &mut SessionArgs) -> Result<(), ActorProcessingErr> {
        let SessionMsg::Client(event, reply) = message;
        state.handle_event(event).await;
        let _ = reply.send(());
        Ok(())
    }
}

impl SessionArgs {
    fn viewer(&self) -> Viewer {
        Viewer { session: self.id, outbox: self.outbox.clone(), scope: self.board_scope.clone() }
    }

    /// A device of the session's company that the session may follow.
    fn followable(&self, device_id: &str) -> Option<Arc<crate::catalog::DeviceInfo>> {
        let device = self.catalog.get_in_company(device_id, &self.company_id)?;
        self.board_scope.as_ref().is_none_or(|scope| scope.contains(&device.id)).then_some(device)
    }

    fn send_error(&self, error: &str, message: &str) {
        self.outbox.push_control(error_event(error, message));
    }

    async fn handle_event(&mut self, event: ClientEvent) {
        match event {
            ClientEvent::Authenticate { .. } => self.send_error("alreadyAuthenticated", "this socket is already authenticated"),
            ClientEvent::JoinCompany {} => self.bus.company(&self.company_id).join(self.viewer()),
            ClientEvent::JoinUser { device_id } => match self.followable(&device_id) {
                Some(device) => self.bus.device(&device.id, &device.company_id).join(self.viewer()),
                None => self.send_error("deviceNotFound", "no such device in your company"),
            },
            ClientEvent::LeaveUser { device_id } => {
                if let Some(device) = self.catalog.get_in_company(&device_id, &self.company_id) {
                    self.bus.device(&device.id, &device.company_id).leave(self.id);
                }
            }
            _ if self.board_scope.is_some() => self.send_error("readOnly", "a ward screen only shows its board"),
            ClientEvent::StartStreaming { device_id, seconds } => {
                let Some(device) = self.catalog.get_in_company(&device_id, &self.company_id) else {
                    return self.send_error("deviceNotFound", "no such device in your company");
                };
                if device.members.is_empty() {
                    let outcome = self.run(&device.id, DeviceCommand::StartStreaming { seconds }).await;
                    return self.report(outcome);
                }
                let every_member = device.device_type == DeviceType::SensingHorse;
                match self.start_set_streaming(&device.id, &device.members, every_member, seconds).await {
                    Ok(()) => {}
                    Err(StreamFailure::Refused(StreamRefusal::NotFunctional)) => {
                        self.send_error(SETS_SENSORS_OFFLINE, "every sensor the set streams from must be connected")
                    }
                    Err(StreamFailure::Refused(refusal)) => self.send_error(refusal.code(), &refusal.to_string()),
                    Err(StreamFailure::Outcome(outcome)) => self.report(outcome),
                    Err(StreamFailure::Unavailable(reason)) => self.send_error("deviceUnavailable", &reason),
                }
            }
            ClientEvent::StreamingRemaining { device_id } => {
                let Some(device) = self.catalog.get_in_company(&device_id, &self.company_id) else {
                    return self.send_error("deviceNotFound", "no such device in your company");
                };
                let remaining = if device.members.is_empty() {
                    self.remaining(&device.id).await
                } else {
                    self.set_streaming_remaining(&device.members).await
                };
                if let Some(seconds) = remaining {
                    self.outbox.push_control(encode_event(events::STREAMING_REMAINING, StreamingRemainingEvent { device_id, seconds }));
                }
            }
            ClientEvent::StartCapture { device_id, analysis_type, seconds, patient_id } => {
                if CaptureKind::from_name(&analysis_type).is_none() {
                    return self.send_error(INVALID_ANALYSIS_TYPE, "analysisType must be Static, Dynamic, Fitting or Balance");
                }
                let user_id = self.user_id.clone();
                self.command(&device_id, DeviceCommand::StartCapture { analysis_type, seconds, patient_id, user_id }).await;
            }
            ClientEvent::ActivateRemote { device_id, action, patient_id } => {
                if action != "startDynamicCapture" {
                    return self.send_error("unknownAction", "the only remote action is startDynamicCapture");
                }
                let user_id = self.user_id.clone();
                self.command(&device_id, DeviceCommand::ActivateRemote { patient_id, user_id }).await;
            }
            ClientEvent::StartAnalysisTimer { device_id, period, count, patient_id } => {
                let user_id = self.user_id.clone();
                self.command(&device_id, DeviceCommand::StartSeries { period_ms: period, count, patient_id, user_id }).await;
            }
            ClientEvent::AttendAlarm { device_id, alarm_id } => {
                let by = Some(self.user_id.clone());
                self.command(&device_id, DeviceCommand::AttendAlarm { alarm: alarm_id, by }).await;
            }
        }
    }

    /// Runs a command on a device of the session's company and tells the browser of a refusal.
    async fn command(&self, device_id: &str, command: DeviceCommand) {
        let Some(device) = self.catalog.get_in_company(device_id, &self.company_id) else {
            return self.send_error("deviceNotFound", "no such device in your company");
        };
        let outcome = self.run(&device.id, command).await;
        self.report(outcome);
    }

    /// Runs a command where the device is owned: on this hub's actor, or on the owner's by the
    /// cluster's route (issue 25); a device connected nowhere is this hub's to refuse.
    async fn run(&self, device_id: &Arc<str>, command: DeviceCommand) -> CommandOutcome {
        run_on_owner(self.bus.seam(), &self.registry, device_id, command).await
    }

    /// Tells the browser of a refused or unanswered command.
    fn report(&self, outcome: CommandOutcome) {
        if let Some((code, message)) = outcome.refusal() {
            self.send_error(code, &message);
        }
    }

    /// Whole seconds left of a device's live stream, or `None` (with an error sent) when it did
    /// not answer.
    async fn remaining(&self, device_id: &Arc<str>) -> Option<u32> {
        match self.run(device_id, DeviceCommand::StreamingRemaining).await {
            CommandOutcome::Remaining(seconds) => Some(seconds),
            other => {
                self.report(other);
                None
            }
        }
    }

    async fn start_streaming(&self, device_id: Arc<str>, seconds: u32) -> Result<(), StreamFailure> {
        match self.run(&device_id, DeviceCommand::StartStreaming { seconds }).await {
            CommandOutcome::Done => Ok(()),
            CommandOutcome::StreamRefused(StreamRefusal::NotFunctional) => Err(StreamFailure::Refused(StreamRefusal::NotFunctional)),
            outcome => Err(StreamFailure::Outcome(outcome)),
        }
    }
}

/// The refusal of a live stream on a set (the Sensing Horse) whose sensors are not all connected
/// (spec §4: the horse streams only with both sides functional).
pub const SETS_SENSORS_OFFLINE: &str = "horseSidesOffline";

impl SessionArgs {
    /// A live stream on a parent device is a stream on each of its members, started only when the
    /// set may stream (`DeviceSet::can_stream`: both horse sides functional; a room set any
    /// member). On a horse (`every_member`) a side that still refuses (it went offline meanwhile)
    /// stops the sides already started; a room set streams the members that are connected.
    async fn start_set_streaming(
        &self,
        parent: &Arc<str>,
        members: &[Arc<str>],
        every_member: bool,
        seconds: u32,
    ) -> Result<(), StreamFailure> {
        if seconds > 0 {
            let device_id = parent.clone();
            let set = self.registry.call(|reply| RegistryMsg::ResolveSet { device_id, reply }, Some(CALL_TIMEOUT)).await;
            let set = answered(set)?.map_err(|e| StreamFailure::Unavailable(e.to_string()))?;
            if !answered(set.call(RoomSetMsg::CanStream, Some(CALL_TIMEOUT)).await)? {
                return Err(StreamFailure::Refused(StreamRefusal::NotFunctional));
            }
        }
        for (i, member) in members.iter().enumerate() {
            match self.start_streaming(member.clone(), seconds).await {
                Ok(()) => {}
                Err(StreamFailure::Refused(StreamRefusal::NotFunctional)) if !every_member => {}
                Err(failure) => {
                    for started in &members[..i] {
                        let _ = self.start_streaming(started.clone(), 0).await;
                    }
                    return Err(failure);
                }
            }
        }
        Ok(())
    }

    /// Whole seconds left of a set's stream: the shortest of its members' (they stream together).
    async fn set_streaming_remaining(&self, members: &[Arc<str>]) -> Option<u32> {
        let mut shortest: Option<u32> = None;
        for member in members {
            let seconds = self.remaining(member).await?;
            shortest = Some(shortest.map_or(seconds, |s| s.min(seconds)));
        }
        shortest
    }
}

enum StreamFailure {
    /// The set may not stream (a horse side is not connected).
    Refused(StreamRefusal),
    /// A member's command was refused or not answered.
    Outcome(CommandOutcome),
    /// The set's actor did not answer.
    Unavailable(String),
}

impl From<String> for StreamFailure {
    fn from(reason: String) -> Self {
        StreamFailure::Unavailable(reason)
    }
}

/// `SessionSupervisor`: parent of every session. A failed session is not restarted (the browser
/// reconnects); its outbox is closed so its socket ends.
pub struct SessionSupervisor;

impl Actor for SessionSupervisor {
    type Msg = ();
    type State = ();
    type Arguments = ();

    async fn pre_start(&self, _myself: ActorRef<()>, _args: ()) -> Result<(), ActorProcessingErr> {
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        _myself: ActorRef<()>,
        event: SupervisionEvent,
        _state: &mut (),
    ) -> Result<(), ActorProcessingErr> {
        if let SupervisionEvent::ActorFailed(cell, error) = event {
            tracing::warn!(session = ?cell.get_id(), %error, "browser session failed; its socket will close");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;

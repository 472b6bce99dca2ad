//! `SessionActor`: one per authenticated browser WebSocket. It turns the browser's events into
//! subscriptions and device requests; everything it sends goes through the session's outbox,
//! which the socket's writer task drains.

use std::sync::Arc;
use std::time::Duration;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};

use super::mat::MatMsg;
use super::registry::{MatHandle, RegistryMsg};
use super::room_set::RoomSetMsg;
use crate::browser::{ClientEvent, StreamingRemainingEvent, encode_event, error_event, events};
use crate::catalog::Catalog;
use crate::fanout::{Bus, CloseReason, DeviceScope, Outbox, SessionId, Viewer};
use mat_core::machine::alarm::AlarmId;
use mat_core::machine::capture::{CaptureKind, CaptureOrigin, CaptureRequest};
use mat_core::machine::streaming::StreamRefusal;
use mat_protocol::device_type::DeviceType;

/// How long a session waits for the registry or a device actor.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(2);

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
                let started = if device.members.is_empty() {
                    self.start_streaming(device.id.clone(), seconds).await
                } else {
                    let every_member = device.device_type == DeviceType::SensingHorse;
                    self.start_set_streaming(&device.id, &device.members, every_member, seconds).await
                };
                match started {
                    Ok(()) => {}
                    Err(StreamFailure::Refused(StreamRefusal::NotFunctional)) if !device.members.is_empty() => {
                        self.send_error(SETS_SENSORS_OFFLINE, "every sensor the set streams from must be connected")
                    }
                    Err(StreamFailure::Refused(StreamRefusal::NotFunctional)) => {
                        self.send_error("connectDevice", "the device is not connected")
                    }
                    Err(StreamFailure::Refused(refusal)) => self.send_error(refusal.code(), &refusal.to_string()),
                    Err(StreamFailure::Unavailable(reason)) => self.send_error("deviceUnavailable", &reason),
                }
            }
            ClientEvent::StreamingRemaining { device_id } => {
                let members = self.catalog.get_in_company(&device_id, &self.company_id).map(|d| d.members.clone()).unwrap_or_default();
                let remaining = if members.is_empty() {
                    let Some(handle) = self.device_actor(&device_id).await else { return };
                    self.call(&handle, MatMsg::StreamingRemaining).await
                } else {
                    self.set_streaming_remaining(&members).await
                };
                if let Some(seconds) = remaining {
                    self.outbox.push_control(encode_event(events::STREAMING_REMAINING, StreamingRemainingEvent { device_id, seconds }));
                }
            }
            ClientEvent::StartCapture { device_id, analysis_type, seconds, patient_id } => {
                let Some(kind) = CaptureKind::from_name(&analysis_type) else {
                    return self.send_error("invalidAnalysisType", "analysisType must be Static, Dynamic, Fitting or Balance");
                };
                let Some(handle) = self.device_actor(&device_id).await else { return };
                let _ = handle.actor.cast(MatMsg::SelectPatient(patient_id));
                let request = CaptureRequest { kind, seconds, origin: CaptureOrigin::User(self.user_id.clone()) };
                if let Some(Err(refusal)) = self.call(&handle, |reply| MatMsg::RequestCapture { request, reply }).await {
                    self.send_error(refusal.code(), &refusal.to_string());
                }
            }
            ClientEvent::ActivateRemote { device_id, action, patient_id } => {
                if action != "startDynamicCapture" {
                    return self.send_error("unknownAction", "the only remote action is startDynamicCapture");
                }
                let Some(handle) = self.device_actor(&device_id).await else { return };
                let _ = handle.actor.cast(MatMsg::SelectPatient(patient_id));
                let user_id = self.user_id.clone();
                if let Some(Err(refusal)) = self.call(&handle, |reply| MatMsg::RemoteActivation { user_id, reply }).await {
                    self.send_error(refusal.code(), &refusal.to_string());
                }
            }
            ClientEvent::StartAnalysisTimer { device_id, period, count, patient_id } => {
                let Some(handle) = self.device_actor(&device_id).await else { return };
                let _ = handle.actor.cast(MatMsg::SelectPatient(patient_id));
                let (user_id, period) = (self.user_id.clone(), Duration::from_millis(period));
                let started = self.call(&handle, |reply| MatMsg::StartSeries { user_id, period, repetitions: count, reply }).await;
                if let Some(Err(refusal)) = started {
                    self.send_error(refusal.code(), &refusal.to_string());
                }
            }
            ClientEvent::AttendAlarm { device_id, alarm_id } => {
                let Some(handle) = self.device_actor(&device_id).await else { return };
                let alarm = alarm_id.map(AlarmId);
                if let Some(Err(_)) =
                    self.call(&handle, |reply| MatMsg::AttendAlarm { alarm, by: Some(Arc::from(self.user_id.as_str())), reply }).await
                {
                    self.send_error("failedToBeAttended", "no unattended alarm with this number");
                }
            }
        }
    }

    /// The actor of a device of the session's company, or an error sent to the browser.
    async fn device_actor(&self, device_id: &str) -> Option<MatHandle> {
        let Some(device) = self.catalog.get_in_company(device_id, &self.company_id) else {
            self.send_error("deviceNotFound", "no such device in your company");
            return None;
        };
        let device_id = device.id.clone();
        let resolved = self.registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(CALL_TIMEOUT)).await;
        match answered(resolved) {
            Ok(Ok(handle)) => Some(handle),
            Ok(Err(error)) => {
                self.send_error("deviceUnavailable", &error.to_string());
                None
            }
            Err(StreamFailure::Unavailable(reason)) => {
                self.send_error("deviceUnavailable", &reason);
                None
            }
            // `answered` only reports unavailability.
            Err(StreamFailure::Refused(_)) => None,
        }
    }

    /// Asks a device's actor; `None` (with an error sent to the browser) when it did not answer.
    async fn call<T: Send + 'static>(&self, handle: &MatHandle, build: impl FnOnce(RpcReplyPort<T>) -> MatMsg + Send) -> Option<T> {
        match answered(handle.actor.call(build, Some(CALL_TIMEOUT)).await) {
            Ok(value) => Some(value),
            Err(StreamFailure::Unavailable(reason)) => {
                self.send_error("deviceUnavailable", &reason);
                None
            }
            Err(StreamFailure::Refused(_)) => None,
        }
    }

    async fn start_streaming(&self, device_id: Arc<str>, seconds: u32) -> Result<(), StreamFailure> {
        let resolved = self.registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(CALL_TIMEOUT)).await;
        let handle = answered(resolved)?.map_err(|e| StreamFailure::Unavailable(e.to_string()))?;
        let started = handle.actor.call(|reply| MatMsg::StartStreaming { seconds, reply }, Some(CALL_TIMEOUT)).await;
        answered(started)?.map_err(StreamFailure::Refused)
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
            let handle = self.device_actor(member).await?;
            let seconds = self.call(&handle, MatMsg::StreamingRemaining).await?;
            shortest = Some(shortest.map_or(seconds, |s| s.min(seconds)));
        }
        shortest
    }
}

enum StreamFailure {
    Refused(StreamRefusal),
    Unavailable(String),
}

/// The value of an RPC that was answered in time, or why it was not.
fn answered<T, M>(result: Result<ractor::rpc::CallResult<T>, ractor::MessagingErr<M>>) -> Result<T, StreamFailure> {
    match result {
        Ok(ractor::rpc::CallResult::Success(value)) => Ok(value),
        Ok(ractor::rpc::CallResult::Timeout) => Err(StreamFailure::Unavailable("the device did not answer in time".into())),
        Ok(ractor::rpc::CallResult::SenderError) | Err(_) => Err(StreamFailure::Unavailable("the device's actor is not running".into())),
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

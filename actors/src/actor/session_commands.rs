//! What a browser session (or a REST handler) asks a device's actor, as plain data: the same
//! request runs on the hub that owns the device, whichever hub the browser is on (issue 25,
//! docs/scale-out.md "Commands to the owner"). [`run_on_owner`] is the one path every session
//! and REST handler takes to a device's actor — commands and readings (the repositioning clock,
//! the posture, the tare) alike; [`execute`] runs one on this hub's actor and answers the outcome
//! with the refusal codes the browser has always received; the cluster sends the same values over
//! NATS (`hub/src/cluster/commands_wire.rs` encodes them).

use std::sync::Arc;
use std::time::Duration;

use ractor::{ActorRef, RpcReplyPort};
use serde::{Deserialize, Serialize};

use super::mat::{MatMsg, TurnRecorded};
use super::registry::{MatHandle, RegistryError, RegistryMsg};
use crate::fanout::{ClusterSeam, RouteOutcome};
use mat_core::machine::alarm::AlarmId;
use mat_core::machine::capture::{CaptureKind, CaptureOrigin, CaptureRefusal, CaptureRequest};
use mat_core::machine::mat::{RepositioningView, TurnRefusal};
use mat_core::machine::posture::{Posture, PostureReading};
use mat_core::machine::streaming::StreamRefusal;
use mat_core::machine::tare::{Tare, TareRefusal};

/// How long a command waits for the registry or a device actor.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// A request to one device's actor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DeviceCommand {
    /// Start (or, with 0, stop) the live stream for `seconds`.
    StartStreaming { seconds: u32 },
    /// Whole seconds left of the live stream.
    StreamingRemaining,
    /// A capture of `analysis_type` (`Static`, `Dynamic`, `Fitting`, `Balance`) by a user.
    StartCapture { analysis_type: String, seconds: u32, patient_id: Option<String>, user_id: String },
    /// Remote activation (`startDynamicCapture`) by a user.
    ActivateRemote { patient_id: Option<String>, user_id: String },
    /// A static series every `period_ms`, `count` times.
    StartSeries { period_ms: u64, count: u32, patient_id: Option<String>, user_id: String },
    /// Attend one alarm, or every pending one (`None`), by a user.
    AttendAlarm { alarm: Option<u64>, by: Option<String> },
    /// A nurse recorded a turn done at `at_ms` (Unix ms) to `position`.
    RecordTurn { at_ms: u64, position: Option<Posture>, by: String },
    /// Read the repositioning clock and the latest posture (the device page, the ward board).
    ReadClock,
    /// The patient's repositioning interval changed (already stored): the clock takes it at once.
    SetRepositioningInterval { minutes: u64 },
    /// Read the mat's tare.
    ReadTare,
    /// An administrator's "zero the empty mat".
    ZeroTare,
}

impl DeviceCommand {
    /// Whether the command's records must be stored before it is answered (the caller reads
    /// them back next: an attendance, a turn).
    pub fn writes_records(&self) -> bool {
        matches!(self, DeviceCommand::AttendAlarm { .. } | DeviceCommand::RecordTurn { .. })
    }
}

/// What became of a command: its answer, or its refusal with the code (i18n key) the browser and
/// REST have always given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CommandOutcome {
    /// Done.
    Done,
    /// Seconds left of the live stream.
    Remaining(u32),
    /// How many alarms were attended.
    Attended(usize),
    /// The turn was recorded.
    TurnRecorded(TurnRecorded),
    /// The device has no repositioning clock.
    TurnRefused(TurnRefusal),
    /// The live stream was refused.
    StreamRefused(StreamRefusal),
    /// The capture (or series, or remote activation) was refused.
    CaptureRefused(CaptureRefusal),
    /// No unattended alarm with this number.
    NotAttended,
    /// Not a capture kind.
    InvalidAnalysisType,
    /// The repositioning clock (`None` on a device without one) and the latest posture.
    Clock(ClockReading),
    /// The mat's tare (`None` while none is set).
    Tare(Option<Tare>),
    /// The mat was zeroed: its new tare.
    TareZeroed(Tare),
    /// Zeroing the mat was refused (someone lies on it, no empty frame yet).
    TareRefused(TareRefusal),
    /// The device has no actor by design (a parent of sub-devices) or is not in the catalogue.
    NoDeviceActor,
    /// The device's actor (or its hub) did not answer (`deviceUnavailable`, 503 over REST).
    Unavailable { reason: String },
}

/// A device's repositioning clock and latest posture, as they cross hubs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClockReading {
    /// `None` on a device without the clock.
    pub clock: Option<RepositioningView>,
    /// `None` while nobody is present.
    pub posture: Option<PostureSeen>,
}

/// A [`PostureReading`] on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PostureSeen {
    pub posture: Posture,
    pub confidence: f32,
}

impl From<PostureReading> for PostureSeen {
    fn from(reading: PostureReading) -> Self {
        PostureSeen { posture: reading.posture, confidence: reading.confidence }
    }
}

impl From<PostureSeen> for PostureReading {
    fn from(seen: PostureSeen) -> Self {
        PostureReading { posture: seen.posture, confidence: seen.confidence }
    }
}

/// The browser's code for an attendance that found no such pending alarm.
pub const FAILED_TO_BE_ATTENDED: &str = "failedToBeAttended";
/// The browser's code for an unknown capture kind.
pub const INVALID_ANALYSIS_TYPE: &str = "invalidAnalysisType";
/// The code of a turn on a device without a repositioning clock.
pub const NO_REPOSITIONING_CLOCK: &str = "noRepositioningClock";
/// The browser's code for a device (or hub) that did not answer.
pub const DEVICE_UNAVAILABLE: &str = "deviceUnavailable";

impl CommandOutcome {
    fn unavailable(reason: impl ToString) -> Self {
        CommandOutcome::Unavailable { reason: reason.to_string() }
    }

    /// The refusal's code (i18n key) and message, `None` when the command was carried out.
    pub fn refusal(&self) -> Option<(&'static str, String)> {
        match self {
            CommandOutcome::Done
            | CommandOutcome::Remaining(_)
            | CommandOutcome::Attended(_)
            | CommandOutcome::TurnRecorded(_)
            | CommandOutcome::Clock(_)
            | CommandOutcome::Tare(_)
            | CommandOutcome::TareZeroed(_) => None,
            CommandOutcome::TareRefused(refusal) => Some((refusal.key(), refusal.to_string())),
            CommandOutcome::NoDeviceActor => Some((DEVICE_UNAVAILABLE, "the device streams nothing itself".into())),
            CommandOutcome::TurnRefused(refusal) => Some((NO_REPOSITIONING_CLOCK, refusal.to_string())),
            // A single device's stream refused for want of a connection (a set's says more).
            CommandOutcome::StreamRefused(StreamRefusal::NotFunctional) => {
                Some((StreamRefusal::NotFunctional.code(), "the device is not connected".into()))
            }
            CommandOutcome::StreamRefused(refusal) => Some((refusal.code(), refusal.to_string())),
            CommandOutcome::CaptureRefused(refusal) => Some((refusal.code(), refusal.to_string())),
            CommandOutcome::NotAttended => Some((FAILED_TO_BE_ATTENDED, "no unattended alarm with this number".into())),
            CommandOutcome::InvalidAnalysisType => {
                Some((INVALID_ANALYSIS_TYPE, "analysisType must be Static, Dynamic, Fitting or Balance".into()))
            }
            CommandOutcome::Unavailable { reason } => Some((DEVICE_UNAVAILABLE, reason.clone())),
        }
    }
}

/// Runs a command where the device is owned: on this hub's actor when this hub owns it (or runs
/// alone), else on the owner's by the cluster's route; a device connected nowhere (nobody
/// answers for it) is this hub's to answer, as a single hub does. The one path from a browser
/// session or a REST handler to a device's actor.
pub async fn run_on_owner(
    seam: &ClusterSeam,
    registry: &ActorRef<RegistryMsg>,
    device_id: &Arc<str>,
    command: DeviceCommand,
) -> CommandOutcome {
    if let Some(route) = seam.route_for(device_id) {
        match route.send(device_id, command.clone()).await {
            RouteOutcome::Answered(outcome) => return outcome,
            RouteOutcome::NoOwner => {}
        }
    }
    execute(registry, device_id.clone(), command).await
}

/// Runs a command on this hub's actor of the device (spawned by the registry if needed).
pub async fn execute(registry: &ActorRef<RegistryMsg>, device_id: Arc<str>, command: DeviceCommand) -> CommandOutcome {
    let resolved = registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(CALL_TIMEOUT)).await;
    let handle = match answered(resolved) {
        Ok(Ok(handle)) => handle,
        Ok(Err(RegistryError::NotAStreamingDevice(_) | RegistryError::UnknownDevice)) => return CommandOutcome::NoDeviceActor,
        Ok(Err(error)) => return CommandOutcome::unavailable(error),
        Err(reason) => return CommandOutcome::unavailable(reason),
    };
    match command {
        DeviceCommand::StartStreaming { seconds } => match call(&handle, |reply| MatMsg::StartStreaming { seconds, reply }).await {
            Ok(Ok(())) => CommandOutcome::Done,
            Ok(Err(refusal)) => CommandOutcome::StreamRefused(refusal),
            Err(reason) => CommandOutcome::unavailable(reason),
        },
        DeviceCommand::StreamingRemaining => match call(&handle, MatMsg::StreamingRemaining).await {
            Ok(seconds) => CommandOutcome::Remaining(seconds),
            Err(reason) => CommandOutcome::unavailable(reason),
        },
        DeviceCommand::StartCapture { analysis_type, seconds, patient_id, user_id } => {
            let Some(kind) = CaptureKind::from_name(&analysis_type) else {
                return CommandOutcome::InvalidAnalysisType;
            };
            let _ = handle.actor.cast(MatMsg::SelectPatient(patient_id));
            let request = CaptureRequest { kind, seconds, origin: CaptureOrigin::User(user_id) };
            capture_outcome(call(&handle, |reply| MatMsg::RequestCapture { request, reply }).await)
        }
        DeviceCommand::ActivateRemote { patient_id, user_id } => {
            let _ = handle.actor.cast(MatMsg::SelectPatient(patient_id));
            capture_outcome(call(&handle, |reply| MatMsg::RemoteActivation { user_id, reply }).await)
        }
        DeviceCommand::StartSeries { period_ms, count, patient_id, user_id } => {
            let _ = handle.actor.cast(MatMsg::SelectPatient(patient_id));
            let period = Duration::from_millis(period_ms);
            capture_outcome(call(&handle, |reply| MatMsg::StartSeries { user_id, period, repetitions: count, reply }).await)
        }
        DeviceCommand::AttendAlarm { alarm, by } => {
            let (alarm, by) = (alarm.map(AlarmId), by.map(Arc::<str>::from));
            match call(&handle, |reply| MatMsg::AttendAlarm { alarm, by, reply }).await {
                Ok(Ok(count)) => CommandOutcome::Attended(count),
                Ok(Err(_)) => CommandOutcome::NotAttended,
                Err(reason) => CommandOutcome::unavailable(reason),
            }
        }
        DeviceCommand::RecordTurn { at_ms, position, by } => {
            let by = Arc::<str>::from(by);
            match call(&handle, |reply| MatMsg::RecordTurn { at_ms, position, by, reply }).await {
                Ok(Ok(recorded)) => CommandOutcome::TurnRecorded(recorded),
                Ok(Err(refusal)) => CommandOutcome::TurnRefused(refusal),
                Err(reason) => CommandOutcome::unavailable(reason),
            }
        }
        DeviceCommand::ReadClock => {
            let clock = match call(&handle, MatMsg::GetRepositioning).await {
                Ok(clock) => clock,
                Err(reason) => return CommandOutcome::unavailable(reason),
            };
            match call(&handle, MatMsg::GetPosture).await {
                Ok(posture) => CommandOutcome::Clock(ClockReading { clock, posture: posture.map(PostureSeen::from) }),
                Err(reason) => CommandOutcome::unavailable(reason),
            }
        }
        DeviceCommand::SetRepositioningInterval { minutes } => {
            match handle.actor.cast(MatMsg::SetRepositioningInterval(Duration::from_secs(minutes * 60))) {
                Ok(()) => CommandOutcome::Done,
                Err(_) => CommandOutcome::unavailable("the device's actor is not running"),
            }
        }
        DeviceCommand::ReadTare => match call(&handle, MatMsg::GetTare).await {
            Ok(tare) => CommandOutcome::Tare(tare),
            Err(reason) => CommandOutcome::unavailable(reason),
        },
        DeviceCommand::ZeroTare => match call(&handle, MatMsg::ZeroTare).await {
            Ok(Ok(tare)) => CommandOutcome::TareZeroed(tare),
            Ok(Err(refusal)) => CommandOutcome::TareRefused(refusal),
            Err(reason) => CommandOutcome::unavailable(reason),
        },
    }
}

fn capture_outcome(result: Result<Result<(), CaptureRefusal>, String>) -> CommandOutcome {
    match result {
        Ok(Ok(())) => CommandOutcome::Done,
        Ok(Err(refusal)) => CommandOutcome::CaptureRefused(refusal),
        Err(reason) => CommandOutcome::unavailable(reason),
    }
}

async fn call<T: Send + 'static>(handle: &MatHandle, build: impl FnOnce(RpcReplyPort<T>) -> MatMsg + Send) -> Result<T, String> {
    answered(handle.actor.call(build, Some(CALL_TIMEOUT)).await)
}

/// The value of an RPC that was answered in time, or why it was not.
pub(crate) fn answered<T, M>(result: Result<ractor::rpc::CallResult<T>, ractor::MessagingErr<M>>) -> Result<T, String> {
    match result {
        Ok(ractor::rpc::CallResult::Success(value)) => Ok(value),
        Ok(ractor::rpc::CallResult::Timeout) => Err("the device did not answer in time".into()),
        Ok(ractor::rpc::CallResult::SenderError) | Err(_) => Err("the device's actor is not running".into()),
    }
}

//! The browser protocol (docs/browser-protocol.md): MessagePack `{event, data}` messages on `/ws`.

use serde::{Deserialize, Serialize};

use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::presence::Presence;
use mat_core::machine::pressure_ulcer::RepositioningTier;
use mat_core::machine::status::{CardStatus, PatientStatus, StateCode, card_from_code};
use mat_protocol::device_type::DeviceType;

use crate::live_board::LiveMap;

/// An outgoing message: `{ event, data }`.
#[derive(Debug, Serialize)]
pub struct Outgoing<'a, T: Serialize> {
    /// Event name of spec §7.
    pub event: &'a str,
    /// Payload.
    pub data: T,
}

/// Encodes an outgoing event as a named MessagePack map.
pub fn encode_event<T: Serialize>(event: &str, data: T) -> bytes::Bytes {
    encode_event_sized(event, data, 0)
}

/// [`encode_event`] of a message of about `size_hint` bytes (a live map: its cells and a few
/// hundred bytes of names and figures), written without growing its buffer.
pub fn encode_event_sized<T: Serialize>(event: &str, data: T, size_hint: usize) -> bytes::Bytes {
    bytes::Bytes::from(mat_protocol::encode_with_capacity(&Outgoing { event, data }, size_hint))
}

/// The `deviceConf` event.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceConfEvent {
    pub device_id: String,
    pub hardware_serial: String,
    pub device_type: DeviceType,
    pub name: String,
    pub device_functional: bool,
    pub patient_status: PatientStatus,
    pub state_code: StateCode,
    pub card_status: CardStatus,
    /// Escalation tier of the repositioning clock: `ok`, `dueSoon`, `due`, `overdue`.
    #[serde(default = "tier_ok")]
    pub repositioning: RepositioningTier,
    /// An alarm waits to be attended: the card shows its Attend button.
    #[serde(default)]
    pub unattended_alarm: bool,
    /// Sensing Horse only: the status of each side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SideStatus>,
}

fn tier_ok() -> RepositioningTier {
    RepositioningTier::Ok
}

/// One side of a Sensing Horse.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SideStatus {
    /// `left` or `right`.
    pub side: String,
    pub state_code: StateCode,
    pub card_status: CardStatus,
}

impl SideStatus {
    /// The side's entry from its state code.
    pub fn new(side: &str, state_code: StateCode) -> Self {
        SideStatus { side: side.to_owned(), state_code, card_status: card_from_code(state_code) }
    }
}

/// Identity fields of a device that every `deviceConf` carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceIdentity {
    pub device_id: String,
    pub hardware_serial: String,
    pub device_type: DeviceType,
    pub name: String,
}

impl DeviceConfEvent {
    /// The event for a device's status.
    pub fn new(identity: &DeviceIdentity, status: &DeviceStatus, sides: Vec<SideStatus>) -> Self {
        DeviceConfEvent {
            device_id: identity.device_id.clone(),
            hardware_serial: identity.hardware_serial.clone(),
            device_type: identity.device_type,
            name: identity.name.clone(),
            device_functional: status.functional,
            patient_status: status.patient_status,
            state_code: status.state_code,
            card_status: status.card,
            repositioning: status.repositioning,
            unattended_alarm: status.unattended_alarm,
            sides,
        }
    }
}

/// The `pressureMap_SAToFront` event.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PressureMapEvent<'a> {
    pub device_id: &'a str,
    pub seq: u64,
    pub device_time_ms: u64,
    pub hub_time_ms: u64,
    pub rows: u16,
    pub cols: u16,
    pub bytes_per_cell: u8,
    #[serde(with = "serde_bytes", borrow)]
    pub cells: &'a [u8],
    pub presence: Presence,
    pub blank: bool,
}

impl<'a> PressureMapEvent<'a> {
    /// The event of a device's live map.
    pub fn of(device_id: &'a str, map: &'a LiveMap) -> Self {
        PressureMapEvent {
            device_id,
            seq: map.seq,
            device_time_ms: map.device_time_ms,
            hub_time_ms: map.hub_time_ms,
            rows: map.rows(),
            cols: map.cols(),
            bytes_per_cell: map.format().bytes_per_cell() as u8,
            cells: map.cells(),
            presence: map.presence,
            blank: false,
        }
    }

    /// The event that clears a device's live map on every viewer.
    pub fn blank(device_id: &'a str, hub_time_ms: u64) -> Self {
        PressureMapEvent {
            device_id,
            seq: 0,
            device_time_ms: 0,
            hub_time_ms,
            rows: 0,
            cols: 0,
            bytes_per_cell: 1,
            cells: &[],
            presence: Presence::Absent,
            blank: true,
        }
    }
}

/// The `alarmOn` event: a new unattended alarm, sent once to every session of the company (the
/// client shows the `alarmOn` toast with the device name in upper case).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AlarmOnEvent {
    pub device_id: String,
    pub name: String,
    pub alarm_id: u64,
    /// `Missing` or `Ulcer Risk`.
    pub kind: String,
    pub raised_at_ms: u64,
    /// Why an Ulcer Risk alarm was raised (absent for Missing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<mat_core::machine::alarm::AlarmReason>,
}

/// The `alarmAttended` event: an alarm was attended; cards drop their Attend button.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AlarmAttendedEvent {
    pub device_id: String,
    pub alarm_id: u64,
    pub attended_at_ms: u64,
    pub time_to_attend_ms: u64,
}

/// The `alarmStatus` event: a hospital alarm manager reported what became of an alarm it
/// dispatched (IHE PCD-05: delivered, read, accepted by a named nurse, escalated…); cards and the
/// banner show the latest. Sent once to every session of the company, not replayed (the alarm
/// log lists the statuses: `GET /api/iotAlarms/{id}`, `managerStatuses`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AlarmStatusEvent {
    pub device_id: String,
    /// The alarm's key, `{deviceId}-{alarmNumber}` (the alarm log's id).
    pub alarm: String,
    /// delivered, read, accepted, rejected, escalated, cancelled or undeliverable.
    pub status: String,
    /// Who, as the manager names them.
    pub who: Option<String>,
    /// When (the manager's time when it gave one, else when the hub received it), Unix ms.
    pub at_ms: i64,
}

/// The `capture` event: what happened to a capture, for the user who asked (`userId`; the client
/// ignores other users' events). `phase` is `announced` (show `toast`), `failed`, `resultsDue`,
/// `seriesRepetitionRefused` (with `refusal`, the i18n key) or `seriesFinished`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CaptureEvent {
    pub device_id: String,
    pub user_id: String,
    pub phase: String,
    /// `Static`, `Dynamic`, `Fitting`, `Balance` (absent for series events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The toast key for `announced` (`capturingStatic`, `capturingDynamic`, `capturingEquilibrium`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toast: Option<String>,
    /// Series repetition (1-based), for series captures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetition: Option<u32>,
    /// Why a series repetition was refused (an i18n key of spec §8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
}

/// Event names.
pub mod events {
    pub const DEVICE_CONF: &str = "deviceConf";
    pub const ALARM_ON: &str = "alarmOn";
    pub const ALARM_ATTENDED: &str = "alarmAttended";
    pub const ALARM_STATUS: &str = "alarmStatus";
    pub const CAPTURE: &str = "capture";
    pub const STREAMING_REMAINING: &str = "streamingRemaining";
    pub const PRESSURE_MAP: &str = "pressureMap_SAToFront";
    pub const ERROR: &str = "error";
    pub const AUTHENTICATED: &str = "authenticated";
}

/// A message from the browser.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "event", content = "data")]
pub enum ClientEvent {
    #[serde(rename = "authenticate")]
    Authenticate { token: String },
    #[serde(rename = "joinCompany")]
    JoinCompany {},
    #[serde(rename = "joinUser", rename_all = "camelCase")]
    JoinUser { device_id: String },
    #[serde(rename = "leaveUser", rename_all = "camelCase")]
    LeaveUser { device_id: String },
    #[serde(rename = "startStreaming", rename_all = "camelCase")]
    StartStreaming { device_id: String, seconds: u32 },
    /// Seconds left of the device's live stream (answered with `streamingRemaining`), so a
    /// reconnecting browser resumes its countdown.
    #[serde(rename = "streamingRemaining", rename_all = "camelCase")]
    StreamingRemaining { device_id: String },
    /// Start a capture for the patient the user selected (`None`: none selected).
    #[serde(rename = "startCapture", rename_all = "camelCase")]
    StartCapture {
        device_id: String,
        /// `Static`, `Dynamic`, `Fitting` or `Balance`.
        analysis_type: String,
        #[serde(default)]
        seconds: u32,
        #[serde(default)]
        patient_id: Option<String>,
    },
    /// Remote activation; `action` is `startDynamicCapture`.
    #[serde(rename = "ActivateRemote", rename_all = "camelCase")]
    ActivateRemote {
        device_id: String,
        action: String,
        #[serde(default)]
        patient_id: Option<String>,
    },
    /// The 24 h static series (`period` ms, `count` repetitions; 3,600,000 × 24 from the client).
    #[serde(rename = "startAnalysisTimer", rename_all = "camelCase")]
    StartAnalysisTimer {
        device_id: String,
        period: u64,
        count: u32,
        #[serde(default)]
        patient_id: Option<String>,
    },
    /// Attend one alarm of a device, or all of them when `alarmId` is absent.
    #[serde(rename = "attendAlarm", rename_all = "camelCase")]
    AttendAlarm {
        device_id: String,
        #[serde(default)]
        alarm_id: Option<u64>,
    },
}

/// The `streamingRemaining` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StreamingRemainingEvent {
    pub device_id: String,
    pub seconds: u32,
}

/// The `error` event.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ErrorEvent {
    pub error: String,
    pub message: String,
}

/// Encodes an `error` event.
pub fn error_event(error: &str, message: &str) -> bytes::Bytes {
    encode_event(events::ERROR, ErrorEvent { error: error.to_owned(), message: message.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Raw<'a, T> {
        event: &'a str,
        data: T,
    }

    #[test]
    fn client_events_decode_from_named_maps() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Join {
            device_id: &'static str,
        }
        let bytes = mat_protocol::encode(&Raw { event: "joinUser", data: Join { device_id: "d1" } });
        let event: ClientEvent = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(event, ClientEvent::JoinUser { device_id: "d1".into() });
        let bytes = mat_protocol::encode(&Raw { event: "joinCompany", data: std::collections::BTreeMap::<String, u8>::new() });
        assert_eq!(rmp_serde::from_slice::<ClientEvent>(&bytes).unwrap(), ClientEvent::JoinCompany {});
    }

    #[test]
    fn capture_and_alarm_requests_decode_with_optional_fields() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Capture {
            device_id: &'static str,
            analysis_type: &'static str,
            seconds: u32,
        }
        let bytes =
            mat_protocol::encode(&Raw { event: "startCapture", data: Capture { device_id: "d1", analysis_type: "Dynamic", seconds: 30 } });
        assert_eq!(
            rmp_serde::from_slice::<ClientEvent>(&bytes).unwrap(),
            ClientEvent::StartCapture { device_id: "d1".into(), analysis_type: "Dynamic".into(), seconds: 30, patient_id: None }
        );
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Attend {
            device_id: &'static str,
            alarm_id: u64,
        }
        let bytes = mat_protocol::encode(&Raw { event: "attendAlarm", data: Attend { device_id: "d1", alarm_id: 7 } });
        assert_eq!(
            rmp_serde::from_slice::<ClientEvent>(&bytes).unwrap(),
            ClientEvent::AttendAlarm { device_id: "d1".into(), alarm_id: Some(7) }
        );
    }

    #[test]
    fn status_events_use_spec_spellings() {
        let identity = DeviceIdentity {
            device_id: "d".into(),
            hardware_serial: "S".into(),
            device_type: DeviceType::MattressMatIoT,
            name: "Bed 1".into(),
        };
        let status = DeviceStatus {
            repositioning: RepositioningTier::Overdue,
            unattended_alarm: true,
            ..DeviceStatus::new(true, PatientStatus::UlcerRisk, Some(2), CardStatus::Alarm)
        };
        let json = serde_json_like(&DeviceConfEvent::new(&identity, &status, vec![]));
        assert!(json.contains("Ulcer Risk") && json.contains("Mattress Mat IoT") && json.contains("cardStatus"));
        assert!(json.contains("repositioning") && json.contains("overdue") && json.contains("unattendedAlarm"));
    }

    fn serde_json_like<T: Serialize>(value: &T) -> String {
        let bytes = mat_protocol::encode(value);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

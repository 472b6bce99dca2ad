//! The subjects and messages of cross-hub events (issue 25, docs/scale-out.md "Events and
//! commands"), with their MessagePack encoding: everything a hub says about its own devices to
//! the other hubs, and nothing else. Pure.
//!
//! | subject | message | sent by |
//! |---|---|---|
//! | `pmat.company.<company>.status` | [`StatusMessage`] | the owner, at every status change |
//! | `pmat.company.<company>.events` | [`EventMessage`] | the owner: alarm raised / attended, capture |
//! | `pmat.device.<device>.live` | [`LiveMessage`] | the owner, per frame, only while watched |
//! | `pmat.device.<device>.watch` | [`WatchMessage`] | a hub whose sessions watch it, renewed |
//! | `pmat.company.<company>.member` | [`MemberMessage`] | the owner of a set's member, as it tells its set |
//! | `pmat.company.<company>.alarmStatus` | [`EventMessage`] | the hub whose alarm manager sent a PCD-05 status |
//!
//! Every message names the hub it comes from: a hub drops its own (it hears its publications on
//! the wildcard subscriptions), so nothing is mirrored twice and nothing goes round.

use std::sync::Arc;

use actors::browser::DeviceConfEvent;
use actors::fanout::LivePicture;
use actors::live_board::LiveMap;
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::presence::Presence;
use mat_protocol::CellFormat;
use serde::{Deserialize, Serialize};

/// Every hub's subscription to the statuses of all companies.
pub const ALL_STATUSES: &str = "pmat.company.*.status";
/// Every hub's subscription to the events of all companies.
pub const ALL_EVENTS: &str = "pmat.company.*.events";
/// Every hub's subscription to the live maps of the devices watched somewhere.
pub const ALL_LIVE: &str = "pmat.device.*.live";
/// Every hub's subscription to the watches (an owner keeps those of its devices).
pub const ALL_WATCHES: &str = "pmat.device.*.watch";
/// Every hub's subscription to what sets' members tell their sets.
pub const ALL_MEMBERS: &str = "pmat.company.*.member";
/// Every hub's subscription to the alarm managers' statuses (PCD-05) of all companies.
pub const ALL_ALARM_STATUSES: &str = "pmat.company.*.alarmStatus";
/// A hub that joins asks the others for their devices' statuses here: until then it knows
/// only what changes after it started.
pub const SYNC: &str = "pmat.sync";

/// The subject of a company's statuses.
pub fn status_subject(company_id: &str) -> String {
    format!("pmat.company.{}.status", token(company_id))
}

/// The subject of a company's one-off events.
pub fn events_subject(company_id: &str) -> String {
    format!("pmat.company.{}.events", token(company_id))
}

/// The subject of what a company's sets' members tell their sets.
pub fn member_subject(company_id: &str) -> String {
    format!("pmat.company.{}.member", token(company_id))
}

/// The subject of a company's alarm-manager statuses (`alarmStatus`, PCD-05).
pub fn alarm_status_subject(company_id: &str) -> String {
    format!("pmat.company.{}.alarmStatus", token(company_id))
}

/// The subject of a device's live maps.
pub fn live_subject(device_id: &str) -> String {
    format!("pmat.device.{}.live", token(device_id))
}

/// The subject of the watches of a device's live map.
pub fn watch_subject(device_id: &str) -> String {
    format!("pmat.device.{}.watch", token(device_id))
}

/// An id as one subject token: record ids are letters, digits, `-` and `_`; anything else (a
/// `.`, a space, a wildcard) becomes `_`, so an odd id can never widen or split a subject. The
/// message carries the id itself, which is what the receiver reads.
pub fn token(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// A device's new status, from the hub that owns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatusMessage {
    pub origin: String,
    pub company_id: String,
    pub status: DeviceConfEvent,
}

/// A device's one-off event, encoded for the browsers as the owner's sessions received it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventMessage {
    pub origin: String,
    pub company_id: String,
    pub device_id: String,
    #[serde(with = "serde_bytes")]
    pub browser_message: Vec<u8>,
}

/// What an owned member of a set (room set, horse) tells its set: its status and its presence
/// (the set times a room's absence itself, so it needs the presence, not only the status).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberMessage {
    pub origin: String,
    pub company_id: String,
    pub device_id: String,
    pub status: DeviceStatus,
    pub presence: Presence,
}

/// A device's new live picture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveMessage {
    pub origin: String,
    pub company_id: String,
    pub device_id: String,
    pub picture: WirePicture,
}

/// A live picture on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WirePicture {
    Map {
        seq: u64,
        device_time_ms: u64,
        hub_time_ms: u64,
        presence: Presence,
        rows: u16,
        cols: u16,
        format: CellFormat,
        #[serde(with = "serde_bytes")]
        cells: Vec<u8>,
    },
    Blank {
        hub_time_ms: u64,
    },
}

impl WirePicture {
    /// The picture as it travels (one copy of the cells: the owner's map stays the board's).
    pub fn of(picture: &LivePicture) -> Self {
        match picture {
            LivePicture::Map(map) => WirePicture::Map {
                seq: map.seq,
                device_time_ms: map.device_time_ms,
                hub_time_ms: map.hub_time_ms,
                presence: map.presence,
                rows: map.rows(),
                cols: map.cols(),
                format: map.format(),
                cells: map.cells().to_vec(),
            },
            LivePicture::Blank { hub_time_ms } => WirePicture::Blank { hub_time_ms: *hub_time_ms },
        }
    }

    /// The picture as the receiving hub's board and viewers hold it; `None` when the cells do
    /// not fit the shape.
    pub fn into_picture(self) -> Option<LivePicture> {
        match self {
            WirePicture::Map { seq, device_time_ms, hub_time_ms, presence, rows, cols, format, cells } => {
                let mut map = LiveMap::new(rows, cols, format, cells).ok()?;
                map.seq = seq;
                map.device_time_ms = device_time_ms;
                map.hub_time_ms = hub_time_ms;
                map.presence = presence;
                Some(LivePicture::Map(Arc::new(map)))
            }
            WirePicture::Blank { hub_time_ms } => Some(LivePicture::Blank { hub_time_ms }),
        }
    }
}

/// A hub's sessions watch a device's live map (renewed while they do).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WatchMessage {
    pub origin: String,
    pub device_id: String,
}

/// A hub joined the cluster (or came back to NATS): every other hub publishes the status of each
/// device it owns again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SyncMessage {
    pub origin: String,
}

/// MessagePack with field names (the hubs of a cluster may run different builds during an
/// upgrade; named fields let one add a field with a default).
pub fn encode<T: Serialize>(message: &T) -> bytes::Bytes {
    bytes::Bytes::from(rmp_serde::to_vec_named(message).expect("cluster messages always encode"))
}

/// The message, or `None` for bytes that are not one (counted and dropped by the caller).
pub fn decode<T: for<'de> Deserialize<'de>>(payload: &[u8]) -> Option<T> {
    rmp_serde::from_slice(payload).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_never_widen_a_subject() {
        assert_eq!(status_subject("c1"), "pmat.company.c1.status");
        assert_eq!(live_subject("a.b*>c d"), "pmat.device.a_b__c_d.live");
        assert_eq!(watch_subject("dev-1_x"), "pmat.device.dev-1_x.watch");
        assert_eq!(member_subject("c.1"), "pmat.company.c_1.member");
        assert_eq!(alarm_status_subject("c>"), "pmat.company.c_.alarmStatus");
    }

    #[test]
    fn a_members_word_crosses_whole() {
        let status = DeviceStatus::offline(
            mat_protocol::device_type::DeviceType::SensingHorseSubdevice,
            mat_core::machine::status::PatientStatus::Correct,
        );
        let message =
            MemberMessage { origin: "a".into(), company_id: "c".into(), device_id: "d".into(), status, presence: Presence::Present };
        assert_eq!(decode::<MemberMessage>(&encode(&message)), Some(message));
    }

    #[test]
    fn a_map_crosses_whole_and_a_bad_shape_is_dropped() {
        let mut map = LiveMap::new(2, 2, CellFormat::U8, vec![1, 2, 3, 4]).unwrap();
        map.seq = 9;
        map.hub_time_ms = 77;
        map.presence = Presence::Present;
        let picture = LivePicture::Map(Arc::new(map));
        let message = LiveMessage { origin: "a".into(), company_id: "c".into(), device_id: "d".into(), picture: WirePicture::of(&picture) };
        let back: LiveMessage = decode(&encode(&message)).unwrap();
        assert_eq!(back, message);
        assert_eq!(back.picture.into_picture(), Some(picture));
        let bad = WirePicture::Map {
            seq: 1,
            device_time_ms: 0,
            hub_time_ms: 0,
            presence: Presence::Absent,
            rows: 2,
            cols: 2,
            format: CellFormat::U8,
            cells: vec![1],
        };
        assert_eq!(bad.into_picture(), None);
        assert_eq!(decode::<LiveMessage>(b"not msgpack"), None);
    }
}

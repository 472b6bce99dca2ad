//! Cluster mode (issue 25): the rows of many devices, each under its own fence, in one
//! transaction. A hub's storage writer wrote one fenced transaction per record; a database
//! server on two cores commits about a thousand such transactions a second whatever their size
//! (docs/reliability.md), so after a hub's death the survivors' writers fell minutes behind.
//! [`HubDeviceRows::write_fenced`] writes every device's rows of a flush in one commit: a device
//! whose fence has moved on, or that is no longer its company's, is skipped and said so, and the
//! others are written. The statements are those of the one-row writes (`logs`, `device_confs`),
//! run with the row bound as `$e`, in one query text whatever the batch.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use super::device_confs::{STREAMING_END_UPDATE, TARE_UPDATE};
use super::logs::{
    ALARM_ATTEND_UPDATE, ALARM_CREATE, AttendRow, DEVICE_LOG_CREATE, NewAlarm, NewTurn, PRESENCE_CREATE, TURN_AUDIT, TURN_UPSERT, audited,
};
use crate::StoreError;
use crate::error::checked;
use crate::model::{DeviceLog, PresenceLog, TurnLog};
use crate::retry::retrying;

/// One row a device's machine produced.
#[derive(Debug, Clone, PartialEq)]
pub enum DeviceRow {
    Log(DeviceLog),
    Presence(PresenceLog),
    Turn(TurnLog),
    /// An alarm episode opened: written once per key (a retried batch never doubles it).
    AlarmRaised {
        key: String,
        kind: String,
        at: i64,
        reason_json: Option<String>,
    },
    /// An alarm episode attended at `at` (Unix seconds), by a user id when a user did.
    AlarmAttended {
        key: String,
        at: i64,
        by: Option<String>,
    },
    /// When the device's live stream ends, Unix ms (`None`: it does not).
    StreamingEnd(Option<i64>),
    /// The device's tare, JSON.
    Tare(String),
}

/// A device's rows in their order, with its company and the writer's fence of it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceRows {
    pub company_id: String,
    pub device_id: String,
    /// The writer's lease revision of the device.
    pub fence: i64,
    pub rows: Vec<DeviceRow>,
}

/// What became of one device's rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowsWritten {
    /// All written. `clashes`: raised alarms whose key was stored before with another creation
    /// date (another alarm under the same key, which this write did not store).
    Written { clashes: Vec<AlarmClash> },
    /// The device's fence is no longer the writer's: nothing written.
    Fenced,
    /// The device is not (or no longer) its company's: nothing written.
    NotFound,
}

/// A raised alarm whose key held another alarm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlarmClash {
    pub key: String,
    /// The creation date of the alarm stored under the key.
    pub stored_at: i64,
    /// The creation date of the alarm that was not stored.
    pub at: i64,
}

/// What the transaction found before writing.
#[derive(Debug, SurrealValue)]
struct Found {
    /// Devices whose fence is not the writer's.
    stale: Vec<String>,
    /// Devices that are not their given company's.
    foreign: Vec<String>,
    /// The raised alarms' keys stored before, with their creation dates.
    priors: Vec<Prior>,
}

#[derive(Debug, SurrealValue)]
struct Prior {
    key: String,
    creation_date: i64,
}

/// A device's rows as the transaction reads them (`$groups`).
#[derive(Debug, Clone, SurrealValue)]
struct Group {
    device: String,
    company: String,
    fence: i64,
    rows: Vec<TaggedRow>,
}

/// One row as the transaction reads it: `kind` says which field holds it.
#[derive(Debug, Clone, Default, SurrealValue)]
struct TaggedRow {
    kind: String,
    log: Option<DeviceLog>,
    presence: Option<PresenceLog>,
    turn: Option<NewTurn>,
    /// Whether the turn is audited (`logs::audited`).
    audit: bool,
    alarm: Option<NewAlarm>,
    attend: Option<AttendRow>,
    end: Option<i64>,
    tare: Option<String>,
}

impl TaggedRow {
    fn of(row: &DeviceRow) -> TaggedRow {
        match row {
            DeviceRow::Log(entry) => TaggedRow { kind: "log".into(), log: Some(entry.clone()), ..TaggedRow::default() },
            DeviceRow::Presence(entry) => TaggedRow { kind: "presence".into(), presence: Some(entry.clone()), ..TaggedRow::default() },
            DeviceRow::Turn(turn) => {
                TaggedRow { kind: "turn".into(), turn: Some(NewTurn::of(turn)), audit: audited(turn), ..TaggedRow::default() }
            }
            DeviceRow::AlarmRaised { key, kind, at, reason_json } => TaggedRow {
                kind: "raise".into(),
                alarm: Some(NewAlarm { id: key.clone(), kind: kind.clone(), at: *at, reason_json: reason_json.clone() }),
                ..TaggedRow::default()
            },
            DeviceRow::AlarmAttended { key, at, by } => TaggedRow {
                kind: "attend".into(),
                attend: Some(AttendRow { key: key.clone(), at: *at, by: by.clone() }),
                ..TaggedRow::default()
            },
            DeviceRow::StreamingEnd(end) => TaggedRow { kind: "end".into(), end: *end, ..TaggedRow::default() },
            DeviceRow::Tare(json) => TaggedRow { kind: "tare".into(), tare: Some(json.clone()), ..TaggedRow::default() },
        }
    }
}

/// The rows of every device.
pub struct HubDeviceRows<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl HubDeviceRows<'_> {
    /// Writes each device's rows in their order under its fence, all in one transaction: one
    /// [`RowsWritten`] per device, in the order given. A database failure (a value the schema
    /// refuses included) fails the whole transaction and writes nothing. A device appears once.
    pub async fn write_fenced(&self, devices: &[DeviceRows]) -> Result<Vec<RowsWritten>, StoreError> {
        if devices.is_empty() {
            return Ok(Vec::new());
        }
        let groups: Vec<Group> = devices
            .iter()
            .map(|d| Group {
                device: d.device_id.clone(),
                company: d.company_id.clone(),
                fence: d.fence,
                rows: d.rows.iter().map(TaggedRow::of).collect(),
            })
            .collect();
        let raised: Vec<String> = devices
            .iter()
            .flat_map(|d| &d.rows)
            .filter_map(|row| match row {
                DeviceRow::AlarmRaised { key, .. } => Some(key.clone()),
                _ => None,
            })
            .collect();
        let (groups, raised) = (&groups, &raised);
        let query = &*BATCH_QUERY;
        let found = retrying(|| async move {
            let response = self.db.query(query.as_str()).bind(("groups", groups.clone())).bind(("raised", raised.clone())).await?;
            let mut response = checked(response)?;
            // Results: BEGIN, LET, FOR, RETURN, COMMIT.
            let found: Option<Found> = response.take(3)?;
            found.ok_or_else(|| StoreError::Database("the batch returned nothing".into()))
        })
        .await?;
        Ok(devices.iter().map(|device| written(device, &found)).collect())
    }
}

/// A device's outcome.
fn written(device: &DeviceRows, found: &Found) -> RowsWritten {
    if found.stale.contains(&device.device_id) {
        return RowsWritten::Fenced;
    }
    if found.foreign.contains(&device.device_id) {
        return RowsWritten::NotFound;
    }
    let clashes = device
        .rows
        .iter()
        .filter_map(|row| match row {
            DeviceRow::AlarmRaised { key, at, .. } => {
                let prior = found.priors.iter().find(|p| &p.key == key)?;
                (prior.creation_date != *at).then(|| AlarmClash { key: key.clone(), stored_at: prior.creation_date, at: *at })
            }
            _ => None,
        })
        .collect();
    RowsWritten::Written { clashes }
}

/// The transaction: `$groups` ([`Group`]s) and `$raised` (the raised alarms' keys). It reads
/// which devices are stale or foreign and which alarm keys are taken, writes the other devices'
/// rows with the statements of the one-row writes (run with `$device`, `$company`,
/// `$company_ref`, `$device_ref`, `$patient`, and the row as `$e`), and returns what it read.
/// One text whatever the batch: the server parses it once per transaction, and a text with
/// statements per row cost more than twice the time (docs/reliability.md).
static BATCH_QUERY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "BEGIN TRANSACTION;
         LET $found = {{
             stale: (SELECT VALUE device FROM $groups WHERE type::record('device_fence', device).revision != fence),
             foreign: (SELECT VALUE device FROM $groups WHERE type::record('device', device).company != type::record('company', company)),
             priors: (SELECT record::id(id) AS key, creation_date FROM $raised.map(|$k| type::record('alarm_log', $k)))
         }};
         FOR $g IN $groups {{
             IF $g.device NOT IN $found.stale AND $g.device NOT IN $found.foreign {{
                 // The fence is touched (a write) so that a new owner's raise racing this
                 // transaction conflicts with it.
                 UPDATE type::record('device_fence', $g.device) SET writes += 1;
                 LET $device = $g.device;
                 LET $company = $g.company;
                 LET $company_ref = type::record('company', $company);
                 LET $device_ref = type::record('device', $device);
                 LET $patient = $device_ref.current_patient ?? (IF $device_ref.parent THEN $device_ref.parent.current_patient ELSE NONE END);
                 FOR $r IN $g.rows {{
                     IF $r.kind = 'log' {{ LET $e = $r.log; {DEVICE_LOG_CREATE} }}
                     ELSE IF $r.kind = 'presence' {{ LET $e = $r.presence; {PRESENCE_CREATE} }}
                     ELSE IF $r.kind = 'turn' {{ LET $e = $r.turn; {TURN_UPSERT} IF $r.audit {{ {TURN_AUDIT} }}; }}
                     ELSE IF $r.kind = 'raise' {{
                         LET $e = $r.alarm;
                         IF (SELECT VALUE id FROM type::record('alarm_log', $e.id)) = [] {{ {ALARM_CREATE} }};
                     }}
                     ELSE IF $r.kind = 'attend' {{ LET $e = $r.attend; {ALARM_ATTEND_UPDATE}; }}
                     ELSE IF $r.kind = 'end' {{ LET $e = $r.end; {STREAMING_END_UPDATE} }}
                     ELSE IF $r.kind = 'tare' {{ LET $e = $r.tare; {TARE_UPDATE} }};
                 }};
             }};
         }};
         RETURN $found;
         COMMIT TRANSACTION;"
    )
});

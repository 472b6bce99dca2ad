//! Cluster mode (issue 25): the rows of many devices, each under its own fence, in one
//! transaction. A hub's storage writer wrote one fenced transaction per record; a database
//! server on two cores commits about a thousand such transactions a second whatever their size
//! (docs/reliability.md), so after a hub's death the survivors' writers fell minutes behind.
//! [`HubDeviceRows::write_fenced`] writes every device's rows of a flush in one commit: a device
//! whose fence has moved on, or that is no longer its company's, is skipped and said so, and the
//! others are written. The statements are those of the one-row writes (`logs`, `device_confs`),
//! run with the row bound as `$e`.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use super::device_confs::{STREAMING_END_UPDATE, TARE_UPDATE};
use super::logs::{ALARM_ATTEND_UPDATE, ALARM_CREATE, AttendRow, DEVICE_LOG_CREATE, NewAlarm, NewTurn, PRESENCE_CREATE, turn_statements};
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

/// A device's outcome as the transaction returns it.
#[derive(Debug, SurrealValue)]
struct Outcome {
    outcome: String,
    /// The stored creation date of each raised alarm's key before the write, in row order.
    priors: Vec<Option<i64>>,
}

/// The rows of every device.
pub struct HubDeviceRows<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl HubDeviceRows<'_> {
    /// Writes each device's rows in their order under its fence, all in one transaction: one
    /// [`RowsWritten`] per device, in the order given. A database failure (a value the schema
    /// refuses included) fails the whole transaction and writes nothing.
    pub async fn write_fenced(&self, devices: &[DeviceRows]) -> Result<Vec<RowsWritten>, StoreError> {
        if devices.is_empty() {
            return Ok(Vec::new());
        }
        let query = batch_query(devices);
        let query = &query;
        retrying(|| async move {
            let mut pending = self.db.query(query.as_str());
            for (i, device) in devices.iter().enumerate() {
                pending = pending
                    .bind((format!("device{i}"), device.device_id.clone()))
                    .bind((format!("company{i}"), device.company_id.clone()))
                    .bind((format!("fence{i}"), device.fence));
                for (j, row) in device.rows.iter().enumerate() {
                    let name = format!("row{i}_{j}");
                    pending = match row {
                        DeviceRow::Log(entry) => pending.bind((name, entry.clone())),
                        DeviceRow::Presence(entry) => pending.bind((name, entry.clone())),
                        DeviceRow::Turn(turn) => pending.bind((name, NewTurn::of(turn))),
                        DeviceRow::AlarmRaised { key, kind, at, reason_json } => pending
                            .bind((name, NewAlarm { id: key.clone(), kind: kind.clone(), at: *at, reason_json: reason_json.clone() })),
                        DeviceRow::AlarmAttended { key, at, by } => {
                            pending.bind((name, AttendRow { key: key.clone(), at: *at, by: by.clone() }))
                        }
                        DeviceRow::StreamingEnd(end) => pending.bind((name, *end)),
                        DeviceRow::Tare(json) => pending.bind((name, json.clone())),
                    };
                }
            }
            let mut response = checked(pending.await?)?;
            // The outcomes are the RETURN just before COMMIT.
            let last = response.num_statements().saturating_sub(2);
            let outcomes: Vec<Outcome> = response.take(last)?;
            if outcomes.len() != devices.len() {
                return Err(StoreError::Database(format!("{} outcomes for {} devices", outcomes.len(), devices.len())));
            }
            Ok(devices.iter().zip(outcomes).map(|(device, outcome)| written(device, outcome)).collect())
        })
        .await
    }
}

/// A device's [`Outcome`] as a [`RowsWritten`].
fn written(device: &DeviceRows, outcome: Outcome) -> RowsWritten {
    match outcome.outcome.as_str() {
        "fenced" => RowsWritten::Fenced,
        "notFound" => RowsWritten::NotFound,
        _ => {
            let raised = device.rows.iter().filter_map(|row| match row {
                DeviceRow::AlarmRaised { key, at, .. } => Some((key, *at)),
                _ => None,
            });
            let clashes = raised
                .zip(outcome.priors)
                .filter_map(|((key, at), prior)| match prior {
                    Some(stored_at) if stored_at != at => Some(AlarmClash { key: key.clone(), stored_at, at }),
                    _ => None,
                })
                .collect();
            RowsWritten::Written { clashes }
        }
    }
}

/// The transaction of `devices`: device `i`'s id, company and fence are bound as `$device{i}`,
/// `$company{i}` and `$fence{i}`, its row `j` as `$row{i}_{j}`. Each device's statements run with
/// the variables the one-row writes use (`$device`, `$company`, `$company_ref`, `$device_ref`,
/// `$patient`, and the row as `$e`). The last statement before COMMIT returns each device's
/// outcome.
fn batch_query(devices: &[DeviceRows]) -> String {
    let mut query = String::from("BEGIN TRANSACTION;\n");
    let mut outcomes = Vec::with_capacity(devices.len());
    for (i, device) in devices.iter().enumerate() {
        // The fence is touched (a write) so that a new owner's raise racing this transaction
        // conflicts with it; the rows are written only under the writer's fence.
        query.push_str(&format!(
            "LET $device = $device{i};
             LET $company = $company{i};
             LET $company_ref = type::record('company', $company);
             LET $fresh{i} = (UPDATE type::record('device_fence', $device) SET writes += 1 WHERE revision = $fence{i} RETURN VALUE id) != [];
             LET $device_ref = IF $fresh{i} THEN (SELECT VALUE id FROM type::record('device', $device) WHERE company = $company_ref)[0] ELSE NONE END;
             LET $found{i} = $device_ref != NONE;
             LET $patient = $device_ref.current_patient ?? (IF $device_ref.parent THEN $device_ref.parent.current_patient ELSE NONE END);\n"
        ));
        let mut priors = Vec::new();
        for (j, row) in device.rows.iter().enumerate() {
            query.push_str(&format!("LET $e = $row{i}_{j};\n"));
            let statement = match row {
                DeviceRow::Log(_) => DEVICE_LOG_CREATE.to_owned(),
                DeviceRow::Presence(_) => PRESENCE_CREATE.to_owned(),
                DeviceRow::Turn(turn) => turn_statements(turn),
                DeviceRow::AlarmRaised { .. } => {
                    let prior = format!("$prior{i}_{j}");
                    query.push_str(&format!(
                        "LET {prior} = (SELECT VALUE creation_date FROM type::record('alarm_log', $e.id) WHERE company = $company_ref)[0];\n"
                    ));
                    priors.push(prior.clone());
                    format!("IF {prior} = NONE {{ {ALARM_CREATE} }};")
                }
                DeviceRow::AlarmAttended { .. } => format!("{ALARM_ATTEND_UPDATE};"),
                DeviceRow::StreamingEnd(_) => STREAMING_END_UPDATE.to_owned(),
                DeviceRow::Tare(_) => TARE_UPDATE.to_owned(),
            };
            query.push_str(&format!("IF $found{i} {{ {statement} }};\n"));
        }
        outcomes.push(format!(
            "{{ outcome: IF !$fresh{i} THEN 'fenced' ELSE IF !$found{i} THEN 'notFound' ELSE 'written' END, priors: [{}] }}",
            priors.join(", ")
        ));
    }
    query.push_str(&format!("RETURN [{}];\nCOMMIT TRANSACTION;", outcomes.join(", ")));
    query
}

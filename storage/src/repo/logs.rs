//! Device, presence and alarm logs (spec §3): [`Logs`] is one company's (what its devices wrote,
//! scoped to the device's company); [`HubLogs`] reads every company's unattended alarms at
//! start-up.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::error::checked;
use crate::model::{AlarmLog, DeviceLog, PresenceLog, TurnLog};
use crate::repo::device_fences::{fence_check, fenced_write};
use crate::retry::retrying;
use crate::{StoreError, new_id};

/// How many log rows a list returns at most, newest first (the client's history buffers keep
/// 350 samples).
pub const LOG_LIST_LIMIT: i64 = 350;

pub(crate) const ALARM_FIELDS: &str = "record::id(id) AS id, record::id(device) AS device_id, kind, creation_date, has_been_attended, attended_time, attended_by.email AS attended_by, reason_json";

/// An alarm row to create, bound as `$e` of [`ALARM_CREATE`].
#[derive(Debug, SurrealValue, Clone)]
pub(crate) struct NewAlarm {
    pub(crate) id: String,
    pub(crate) kind: String,
    pub(crate) at: i64,
    pub(crate) reason_json: Option<String>,
}

/// An attendance, bound as `$e` of [`ALARM_ATTEND_UPDATE`].
#[derive(Debug, SurrealValue, Clone)]
pub(crate) struct AttendRow {
    pub(crate) key: String,
    pub(crate) at: i64,
    pub(crate) by: Option<String>,
}

/// A turn row to write, bound as `$e` of [`turn_statements`].
#[derive(Debug, SurrealValue, Clone)]
pub(crate) struct NewTurn {
    id: String,
    turn: TurnLog,
}

impl NewTurn {
    /// The turn keyed by device and recording time: written once however often a batch is
    /// retried.
    pub(crate) fn of(turn: &TurnLog) -> NewTurn {
        NewTurn { id: format!("{}-{}", turn.device_id, turn.recorded_at_ms), turn: turn.clone() }
    }
}

// The statements of a device's rows. Each runs where `$device` and `$company` are the device and
// company ids, `$device_ref` and `$company_ref` their records, `$patient` the patient at the
// bedside, and `$e` the row (`create_for_device`, and `device_rows` for batches).

/// Appends a device log entry (`$e`: [`DeviceLog`]).
pub(crate) const DEVICE_LOG_CREATE: &str = "CREATE device_log SET device = $device_ref, company = $company_ref,
    creation_date = $e.creation_date, max_pressure = $e.max_pressure, position = $e.position, posture = $e.posture,
    confidence = $e.confidence, pressure_map = $e.pressure_map, patient = $patient;";

/// Appends a presence log entry (`$e`: [`PresenceLog`]).
pub(crate) const PRESENCE_CREATE: &str = "CREATE presence_log SET device = $device_ref, company = $company_ref,
    creation_date = $e.creation_date, log_id = $e.log_id, patient = $patient;";

/// Opens an alarm episode under its key (`$e`: [`NewAlarm`]); the caller checks that the key is
/// free.
pub(crate) const ALARM_CREATE: &str = "CREATE type::record('alarm_log', $e.id) SET device = $device_ref, company = $company_ref,
    kind = $e.kind, creation_date = $e.at, patient = $patient, reason_json = $e.reason_json;";

/// Attends the alarm `$e.key` at `$e.at`, by the user `$e.by` when a user did, if it is pending
/// (without its closing `;`: a caller may add a RETURN clause).
pub(crate) const ALARM_ATTEND_UPDATE: &str = "UPDATE type::record('alarm_log', $e.key) SET has_been_attended = true, attended_time = $e.at,
    attended_by = IF $e.by = NONE THEN attended_by ELSE type::record('user', $e.by) END
    WHERE company = type::record('company', $company) AND has_been_attended = false";

/// Writes a turn (`$e`: [`NewTurn`]), once per device and recording time.
pub(crate) const TURN_UPSERT: &str =
    "UPSERT type::record('turn_log', $e.id) SET device = $device_ref, company = $company_ref, patient = $patient,
    at_ms = $e.turn.at_ms, recorded_at_ms = $e.turn.recorded_at_ms, position = $e.turn.position,
    by = IF $e.turn.by = NONE THEN NONE ELSE type::record('user', $e.turn.by) END,
    tier_before = $e.turn.tier_before, loaded_ms = $e.turn.loaded_ms, interval_ms = $e.turn.interval_ms,
    detected = $e.turn.detected;";

/// Audits a turn ([`audited`]) as `device.turn` by its recorder, keyed like the turn so that a
/// retried batch audits it once.
pub(crate) const TURN_AUDIT: &str = "UPSERT type::record('audit_log', string::concat('turn-', $e.id)) SET company = $company_ref,
    actor_company = $company_ref, actor_user_id = $e.turn.by,
    actor_email = (SELECT VALUE email FROM type::record('user', $e.turn.by))[0] ?? '',
    action = 'device.turn', entity_type = 'device', entity_id = $device,
    summary = string::concat($device_ref.hardware_serial, ': patient turned to ', $e.turn.position ?? '-'),
    created_at_ms = $e.turn.recorded_at_ms;";

/// Whether a turn is audited: somebody recorded it (the clock did not detect it).
pub(crate) fn audited(turn: &TurnLog) -> bool {
    turn.by.is_some() && !turn.detected
}

/// The statements that write a turn (`$e`: [`NewTurn`]), its audit included when it is audited.
fn turn_statements(turn: &TurnLog) -> String {
    if audited(turn) { format!("{TURN_UPSERT}\n{TURN_AUDIT}") } else { TURN_UPSERT.to_owned() }
}

/// One company's logs.
pub struct Logs<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
    /// Cluster mode: the writer's lease revision, checked against the device's fence in every
    /// device write's transaction (`CompanyStore::fenced`); `None` on a hub on its own.
    pub(crate) fence: Option<i64>,
}

/// Log queries across the hub.
pub struct HubLogs<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl Logs<'_> {
    /// Opens an alarm episode for a device of the company; returns its id.
    pub async fn raise_alarm(&self, device_id: &str, kind: &str, at: i64) -> Result<String, StoreError> {
        self.raise_alarm_keyed(device_id, &new_id(), kind, at).await
    }

    /// Opens the alarm episode `key` (the device actor's alarm, `device-number`). Raising the same
    /// key again is a no-op, so a retried batch never doubles an alarm.
    pub async fn raise_alarm_keyed(&self, device_id: &str, key: &str, kind: &str, at: i64) -> Result<String, StoreError> {
        self.raise_alarm_with_reason(device_id, key, kind, at, None).await
    }

    /// [`Self::raise_alarm_keyed`] with the alarm's reason (JSON text, an Ulcer Risk alarm's).
    pub async fn raise_alarm_with_reason(
        &self,
        device_id: &str,
        key: &str,
        kind: &str,
        at: i64,
        reason_json: Option<String>,
    ) -> Result<String, StoreError> {
        retrying(|| {
            let reason_json = reason_json.clone();
            async move {
                let id = key.to_owned();
                if let Some(stored_at) = self.stored_alarm_date(&id).await? {
                    // Written before (a retried batch): nothing to do. A different date is another
                    // alarm under the same key, which this write would lose: say so loudly.
                    if stored_at != at {
                        tracing::error!(alarm = %id, stored_at, at, "an alarm key was used twice; the newer alarm is not stored");
                    }
                    return Ok(id);
                }
                self.create_for_device(device_id, ALARM_CREATE, NewAlarm { id: id.clone(), kind: kind.to_owned(), at, reason_json })
                    .await?;
                Ok(id)
            }
        })
        .await
    }

    /// Writes a turn of a device of the company (`turn.by` a user id); written once per device
    /// and recording time, however often a batch is retried. A turn somebody recorded (not one
    /// the clock detected) is audited (`device.turn`, by its recorder) in the same transaction,
    /// keyed like the turn so that a retried batch audits it once.
    pub async fn add_turn(&self, turn: &TurnLog) -> Result<(), StoreError> {
        let statements = turn_statements(turn);
        retrying(|| self.create_for_device(&turn.device_id, &statements, NewTurn::of(turn))).await
    }

    /// A device's recorded turns, newest first.
    pub async fn turns(&self, device_id: &str) -> Result<Vec<TurnLog>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(device) AS device_id, at_ms, recorded_at_ms, position, by.email AS by, tier_before, loaded_ms,
                    interval_ms, (detected ?? false) AS detected FROM turn_log WHERE device = type::record('device', $device) AND company = type::record('company', $company)
                    ORDER BY at_ms DESC LIMIT $limit",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("device", device_id.to_owned()))
            .bind(("limit", LOG_LIST_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }

    /// The creation date of the stored alarm `key`, if there is one.
    async fn stored_alarm_date(&self, key: &str) -> Result<Option<i64>, StoreError> {
        let mut response = self
            .db
            .query("SELECT VALUE creation_date FROM type::record('alarm_log', $key) WHERE company = type::record('company', $company)")
            .bind(("key", key.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        let found: Vec<i64> = response.take(0)?;
        Ok(found.into_iter().next())
    }

    /// Attends the alarm `key` at `at` (Unix seconds), by user `by` when a user did, if it is
    /// pending; whether it was.
    pub async fn attend_keyed(&self, key: &str, at: i64, by: Option<&str>) -> Result<bool, StoreError> {
        // Fenced (cluster mode): the alarm's device is the key's `device-number` prefix.
        // Results: BEGIN, the check, the update, COMMIT when fenced; the update alone otherwise.
        let index = if self.fence.is_some() { 2 } else { 0 };
        let statement = fenced_write(self.fence, &format!("{ALARM_ATTEND_UPDATE} RETURN VALUE record::id(id);"));
        let statement = &statement;
        let fence_device = key.rsplit_once('-').map(|(device, _)| device).unwrap_or(key);
        let row = AttendRow { key: key.to_owned(), at, by: by.map(str::to_owned) };
        let row = &row;
        retrying(|| async move {
            let response = self
                .db
                .query(statement.as_str())
                .bind(("fence_device", fence_device.to_owned()))
                .bind(("fence", self.fence))
                .bind(("company", self.company.to_owned()))
                .bind(("e", row.clone()))
                .await?;
            let mut response = checked(response)?;
            let attended: Vec<String> = response.take(index)?;
            Ok(!attended.is_empty())
        })
        .await
    }

    /// A device's alarms, newest first.
    pub async fn alarms(&self, device_id: &str) -> Result<Vec<AlarmLog>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {ALARM_FIELDS} FROM alarm_log WHERE device = type::record('device', $device) \
                 AND company = type::record('company', $company) ORDER BY creation_date DESC LIMIT $limit"
            ))
            .bind(("company", self.company.to_owned()))
            .bind(("device", device_id.to_owned()))
            .bind(("limit", LOG_LIST_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }

    /// Whether any of these devices has an unattended alarm.
    pub async fn has_unattended(&self, device_ids: &[String]) -> Result<bool, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT VALUE id FROM alarm_log WHERE device IN $devices.map(|$d| type::record('device', $d))
                    AND company = type::record('company', $company) AND has_been_attended = false LIMIT 1",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("devices", device_ids.to_vec()))
            .await?;
        let found: Vec<surrealdb::types::RecordId> = response.take(0)?;
        Ok(!found.is_empty())
    }

    /// Attends every unattended alarm of these devices at `at` by `user_id`; returns how many.
    pub async fn attend(&self, device_ids: &[String], user_id: &str, at: i64) -> Result<usize, StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPDATE alarm_log SET has_been_attended = true, attended_time = $at, attended_by = type::record('user', $user)
                        WHERE device IN $devices.map(|$d| type::record('device', $d))
                        AND company = type::record('company', $company) AND has_been_attended = false
                        RETURN VALUE record::id(id)",
                )
                .bind(("company", self.company.to_owned()))
                .bind(("devices", device_ids.to_vec()))
                .bind(("user", user_id.to_owned()))
                .bind(("at", at))
                .await?;
            let attended: Vec<String> = response.take(0)?;
            Ok(attended.len())
        })
        .await
    }

    /// Attends those of the alarms `keys` of one device that are still unattended, at `at` by
    /// `user_id`; returns the keys it attended. Only the keys given: an alarm raised after the
    /// caller read them (a device's machine raising its next alarm while the call runs) is the
    /// machine's, and stays pending (`hub::domain::alarms::attend`). In a fenced scope
    /// (`CompanyStore::fenced`, cluster mode) only while the device's fence still holds that
    /// revision (`StoreError::Fenced` otherwise, nothing attended): a hub attending in storage an
    /// alarm that no machine of its own held must not do so after a new owner raised the fence and
    /// read the device's rows, or the owner's machine keeps the alarm pending while its row is
    /// attended (docs/reliability.md §6).
    pub async fn attend_device(&self, device_id: &str, keys: &[String], user_id: &str, at: i64) -> Result<Vec<String>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        // Results: BEGIN, the check, the update, COMMIT when fenced; the update alone otherwise.
        let index = if self.fence.is_some() { 2 } else { 0 };
        let statement = fenced_write(
            self.fence,
            "UPDATE alarm_log SET has_been_attended = true, attended_time = $at, attended_by = type::record('user', $user)
                WHERE device = type::record('device', $device)
                AND company = type::record('company', $company) AND has_been_attended = false
                AND record::id(id) IN $keys
                RETURN VALUE record::id(id);",
        );
        let statement = &statement;
        retrying(|| async move {
            let response = self
                .db
                .query(statement.as_str())
                .bind(("company", self.company.to_owned()))
                .bind(("device", device_id.to_owned()))
                .bind(("fence_device", device_id.to_owned()))
                .bind(("fence", self.fence))
                .bind(("user", user_id.to_owned()))
                .bind(("at", at))
                .bind(("keys", keys.to_vec()))
                .await?;
            let mut response = checked(response)?;
            Ok(response.take(index)?)
        })
        .await
    }

    /// Appends a device log entry.
    pub async fn add_device_log(&self, entry: &DeviceLog) -> Result<(), StoreError> {
        self.create_for_device(&entry.device_id, DEVICE_LOG_CREATE, entry.clone()).await
    }

    /// Runs `create` (which may use `$device_ref`, `$company_ref`, `$patient` and the entry as
    /// `$e`) in a transaction, after checking that the device belongs to the company (`NotFound`
    /// if not). `$patient` is the patient at the bedside when the row is written: the device's
    /// own, else its parent's (a room set's sensor writes for the set's patient), else NONE.
    async fn create_for_device<E: SurrealValue + Clone + 'static>(
        &self,
        device_id: &str,
        create: &str,
        entry: E,
    ) -> Result<(), StoreError> {
        let entry = &entry;
        let fence_check = fence_check(self.fence);
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     {fence_check}
                     LET $company_ref = type::record('company', $company);
                     LET $device_ref = (SELECT VALUE id FROM type::record('device', $device) WHERE company = $company_ref)[0];
                     IF $device_ref = NONE {{ THROW 'notFound' }};
                     LET $patient = $device_ref.current_patient ?? (IF $device_ref.parent THEN $device_ref.parent.current_patient ELSE NONE END);
                     {create}
                     COMMIT TRANSACTION;"
                ))
                .bind(("company", self.company.to_owned()))
                .bind(("device", device_id.to_owned()))
                .bind(("fence_device", device_id.to_owned()))
                .bind(("fence", self.fence))
                .bind(("e", entry.clone()))
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// A device's log entries, newest first.
    pub async fn device_logs(&self, device_id: &str) -> Result<Vec<DeviceLog>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(device) AS device_id, creation_date, max_pressure, position, posture, confidence, pressure_map
                    FROM device_log WHERE device = type::record('device', $device) AND company = type::record('company', $company)
                    ORDER BY creation_date DESC LIMIT $limit",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("device", device_id.to_owned()))
            .bind(("limit", LOG_LIST_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }

    /// Appends a presence log entry ('1' entrance, '0' exit).
    pub async fn add_presence(&self, entry: &PresenceLog) -> Result<(), StoreError> {
        retrying(|| self.create_for_device(&entry.device_id, PRESENCE_CREATE, entry.clone())).await
    }

    /// A device's presence entries, newest first.
    pub async fn presence(&self, device_id: &str) -> Result<Vec<PresenceLog>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(device) AS device_id, creation_date, log_id FROM presence_log
                    WHERE device = type::record('device', $device) AND company = type::record('company', $company)
                    ORDER BY creation_date DESC LIMIT $limit",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("device", device_id.to_owned()))
            .bind(("limit", LOG_LIST_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }
}

/// What a patient's bedside rows are, for [`Logs::of_patient`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PatientLogs {
    pub alarms: Vec<AlarmLog>,
    pub device_logs: Vec<DeviceLog>,
    pub presence: Vec<PresenceLog>,
}

impl Logs<'_> {
    /// Every alarm, device log and presence row written while `patient_id` was at the bedside,
    /// oldest first (a patient's data file). Not limited: a patient's whole stay.
    pub async fn of_patient(&self, patient_id: &str) -> Result<PatientLogs, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {ALARM_FIELDS} FROM alarm_log WHERE patient = $patient AND company = type::record('company', $company)
                    ORDER BY creation_date;
                 SELECT record::id(device) AS device_id, creation_date, max_pressure, position, posture, confidence, pressure_map
                    FROM device_log WHERE patient = $patient AND company = type::record('company', $company) ORDER BY creation_date;
                 SELECT record::id(device) AS device_id, creation_date, log_id FROM presence_log
                    WHERE patient = $patient AND company = type::record('company', $company) ORDER BY creation_date;"
            ))
            .bind(("company", self.company.to_owned()))
            .bind(("patient", patient_id.to_owned()))
            .await?;
        Ok(PatientLogs { alarms: response.take(0)?, device_logs: response.take(1)?, presence: response.take(2)? })
    }
}

impl HubLogs<'_> {
    /// Every unattended alarm of every company, oldest first (the hub's start-up state).
    pub async fn unattended_all(&self) -> Result<Vec<AlarmLog>, StoreError> {
        let mut response =
            self.db.query(format!("SELECT {ALARM_FIELDS} FROM alarm_log WHERE has_been_attended = false ORDER BY creation_date")).await?;
        Ok(response.take(0)?)
    }

    /// One device's unattended alarms, oldest first (a cluster hub taking the device over).
    pub async fn unattended_of(&self, device_id: &str) -> Result<Vec<AlarmLog>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {ALARM_FIELDS} FROM alarm_log WHERE has_been_attended = false AND device = type::record('device', $device) ORDER BY creation_date"
            ))
            .bind(("device", device_id.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }
}

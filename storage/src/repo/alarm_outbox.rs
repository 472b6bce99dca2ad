//! The `alarm_outbox` and `alarm_manager` tables (IHE PCD-04, `hub::alarm_manager`).
//!
//! [`AlarmOutbox`] is one company's queue of alarm reports and its alarm manager's settings;
//! [`HubAlarmOutbox`] is what the hub's one sender reads and marks across companies. A report is
//! keyed by its message control id, so enqueuing the same report again (a retried batch, a
//! replay after a restart) is a no-op, and a row leaves `pending` only when the manager answers.
//! An administrator's change (the settings, a resend) is written with its audit entry in one
//! transaction.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::error::checked;
use crate::model::NewAuditEntry;
use crate::repo::audit::{BindAudit, CREATE_AUDIT};
use crate::retry::retrying;

/// A report to queue.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct NewOutboxEntry {
    /// The message control id (MSH-10), the row's key.
    pub control_id: String,
    /// The alarm's stored key.
    pub alarm: String,
    /// `start`, `continue` or `end`.
    pub phase: String,
    /// The HL7 message.
    pub message: String,
    /// Unix ms.
    pub created_ms: i64,
}

/// A queued report as read back.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct OutboxEntry {
    pub control_id: String,
    pub company_id: String,
    pub alarm: String,
    pub phase: String,
    pub message: String,
    /// `pending`, `delivered` or `dead`.
    pub state: String,
    pub attempts: i64,
    pub created_ms: i64,
    pub next_attempt_ms: i64,
    pub delivered_ms: Option<i64>,
    pub last_error: Option<String>,
}

/// How many reports of a company wait, and how many are dead letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OutboxCounts {
    pub pending: u64,
    pub dead: u64,
}

/// A company's alarm manager.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct AlarmManagerSettings {
    /// Reports go out only while enabled.
    pub enabled: bool,
    pub host: String,
    pub port: i64,
    /// MSH-3 and MSH-4.
    pub sending_application: String,
    pub sending_facility: String,
    /// MSH-5 and MSH-6.
    pub receiving_application: String,
    pub receiving_facility: String,
    /// The alarm kinds that go out (`Missing`, `Ulcer Risk`).
    pub kinds: Vec<String>,
    /// MLLP over TLS.
    pub tls: bool,
    /// The certificate authority (PEM) the manager's certificate must chain to.
    pub ca_pem: String,
}

const FIELDS: &str = "record::id(id) AS control_id, record::id(company) AS company_id, alarm, phase, message, state, attempts, \
    created_ms, next_attempt_ms, delivered_ms, last_error";

/// How many dead letters a list returns at most, newest first.
pub const DEAD_LETTER_LIMIT: i64 = 200;

#[derive(SurrealValue)]
struct NextAttempt {
    next_attempt_ms: i64,
}

#[derive(SurrealValue)]
struct StartedAlarm {
    company_id: String,
    alarm: String,
}

#[derive(SurrealValue)]
struct Count {
    state: String,
    count: i64,
}

impl OutboxCounts {
    /// The counts of a `GROUP BY state` answer (a state with no row is 0).
    fn of(rows: &[Count]) -> OutboxCounts {
        let of = |state: &str| rows.iter().find(|r| r.state == state).map_or(0, |r| r.count.max(0) as u64);
        OutboxCounts { pending: of("pending"), dead: of("dead") }
    }
}

/// One company's alarm reports and alarm manager.
pub struct AlarmOutbox<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

/// The sender's view of every company's queue.
pub struct HubAlarmOutbox<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl AlarmOutbox<'_> {
    /// Queues a report, due at its creation; `false` when a report with this control id exists
    /// already (a concurrent enqueue of the same report loses the create and reads it back).
    pub async fn enqueue(&self, entry: &NewOutboxEntry) -> Result<bool, StoreError> {
        retrying(|| async move {
            if self.exists(&entry.control_id).await? {
                return Ok(false);
            }
            let created = self
                .db
                .query(
                    "CREATE type::record('alarm_outbox', $e.control_id) SET company = type::record('company', $company),
                        alarm = $e.alarm, phase = $e.phase, message = $e.message, state = 'pending', attempts = 0,
                        created_ms = $e.created_ms, next_attempt_ms = $e.created_ms",
                )
                .bind(("company", self.company.to_owned()))
                .bind(("e", entry.clone()))
                .await
                .map_err(StoreError::from)
                .and_then(checked);
            match created {
                Ok(_) => Ok(true),
                Err(_) if self.exists(&entry.control_id).await? => Ok(false),
                Err(error) => Err(error),
            }
        })
        .await
    }

    async fn exists(&self, control_id: &str) -> Result<bool, StoreError> {
        let mut response =
            self.db.query("SELECT VALUE id FROM type::record('alarm_outbox', $id)").bind(("id", control_id.to_owned())).await?;
        let found: Vec<surrealdb::types::RecordId> = response.take(0)?;
        Ok(!found.is_empty())
    }

    /// The company's dead letters, newest first.
    pub async fn dead_letters(&self) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM alarm_outbox WHERE company = type::record('company', $company) AND state = 'dead'
                    ORDER BY created_ms DESC LIMIT $limit"
            ))
            .bind(("company", self.company.to_owned()))
            .bind(("limit", DEAD_LETTER_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }

    /// The company's reports of one alarm, oldest first.
    pub async fn of_alarm(&self, alarm: &str) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM alarm_outbox WHERE company = type::record('company', $company) AND alarm = $alarm
                    ORDER BY created_ms, control_id"
            ))
            .bind(("company", self.company.to_owned()))
            .bind(("alarm", alarm.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }

    /// Puts a dead letter back in the queue, due at `now_ms`, with its audit entry in the same
    /// transaction; `NotFound` unless it is one of the company's dead letters.
    pub async fn resend(&self, control_id: &str, now_ms: i64, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $updated = (UPDATE type::record('alarm_outbox', $id) SET state = 'pending', attempts = 0, next_attempt_ms = $now
                        WHERE company = type::record('company', $company) AND state = 'dead' RETURN VALUE record::id(id));
                     IF array::len($updated) = 0 {{ THROW 'notFound' }};
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("company", self.company.to_owned()))
                .bind(("id", control_id.to_owned()))
                .bind(("now", now_ms))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// How many reports wait and how many are dead.
    pub async fn counts(&self) -> Result<OutboxCounts, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT state, count() AS count FROM alarm_outbox WHERE company = type::record('company', $company)
                    AND state IN ['pending', 'dead'] GROUP BY state",
            )
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(OutboxCounts::of(&response.take::<Vec<Count>>(0)?))
    }

    /// The company's alarm manager, if one is set.
    pub async fn settings(&self) -> Result<Option<AlarmManagerSettings>, StoreError> {
        read_settings(self.db, self.company).await
    }

    /// Sets the company's alarm manager, with its audit entry in the same transaction.
    pub async fn set_settings(&self, settings: &AlarmManagerSettings, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     UPSERT type::record('alarm_manager', $company) CONTENT {{
                        company: type::record('company', $company), enabled: $s.enabled, host: $s.host, port: $s.port,
                        sending_application: $s.sending_application, sending_facility: $s.sending_facility,
                        receiving_application: $s.receiving_application, receiving_facility: $s.receiving_facility,
                        kinds: $s.kinds, tls: $s.tls, ca_pem: $s.ca_pem }};
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("company", self.company.to_owned()))
                .bind(("s", settings.clone()))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }
}

async fn read_settings(db: &Surreal<Any>, company: &str) -> Result<Option<AlarmManagerSettings>, StoreError> {
    let mut response = db
        .query(
            "SELECT enabled, host, port, sending_application, sending_facility, receiving_application, receiving_facility, kinds,
                tls ?? false AS tls, ca_pem ?? '' AS ca_pem
                FROM type::record('alarm_manager', $company) WHERE company = type::record('company', $company)",
        )
        .bind(("company", company.to_owned()))
        .await?;
    Ok(response.take::<Vec<AlarmManagerSettings>>(0)?.into_iter().next())
}

/// The queue of every company at a glance, for the hub's metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OutboxOverview {
    /// Reports waiting to be delivered, and dead letters waiting for an administrator.
    pub counts: OutboxCounts,
    /// When the oldest waiting report was queued, Unix ms.
    pub oldest_pending_ms: Option<i64>,
}

#[derive(SurrealValue)]
struct Created {
    created_ms: i64,
}

impl HubAlarmOutbox<'_> {
    /// How many reports wait and how many are dead, in every company, and the oldest waiting.
    pub async fn overview(&self) -> Result<OutboxOverview, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT state, count() AS count FROM alarm_outbox WHERE state IN ['pending', 'dead'] GROUP BY state;
                 SELECT created_ms FROM alarm_outbox WHERE state = 'pending' ORDER BY created_ms LIMIT 1;",
            )
            .await?;
        let counts = OutboxCounts::of(&response.take::<Vec<Count>>(0)?);
        let oldest = response.take::<Vec<Created>>(1)?.into_iter().next().map(|r| r.created_ms);
        Ok(OutboxOverview { counts, oldest_pending_ms: oldest })
    }

    /// Pending reports due at `now_ms`, oldest first, at most `limit`.
    pub async fn due(&self, now_ms: i64, limit: usize) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM alarm_outbox WHERE state = 'pending' AND next_attempt_ms <= $now
                    ORDER BY created_ms, control_id LIMIT $limit"
            ))
            .bind(("now", now_ms))
            .bind(("limit", limit as i64))
            .await?;
        Ok(response.take(0)?)
    }

    /// The earliest next attempt of a pending report, if any.
    pub async fn next_due_ms(&self) -> Result<Option<i64>, StoreError> {
        let mut response =
            self.db.query("SELECT next_attempt_ms FROM alarm_outbox WHERE state = 'pending' ORDER BY next_attempt_ms LIMIT 1").await?;
        Ok(response.take::<Vec<NextAttempt>>(0)?.into_iter().next().map(|r| r.next_attempt_ms))
    }

    /// The manager acknowledged the report (`AA`).
    pub async fn mark_delivered(&self, control_id: &str, at_ms: i64) -> Result<(), StoreError> {
        self.mark(control_id, "state = 'delivered', delivered_ms = $at, attempts += 1, last_error = NONE", at_ms, None).await
    }

    /// The attempt failed: try again at `next_ms`.
    pub async fn mark_retry(&self, control_id: &str, next_ms: i64, error: &str) -> Result<(), StoreError> {
        self.mark(control_id, "next_attempt_ms = $at, attempts += 1, last_error = $error", next_ms, Some(error)).await
    }

    /// The manager refused the report (`AR`): a dead letter.
    pub async fn mark_dead(&self, control_id: &str, error: &str) -> Result<(), StoreError> {
        self.mark(control_id, "state = 'dead', attempts += 1, last_error = $error", 0, Some(error)).await
    }

    async fn mark(&self, control_id: &str, set: &str, at: i64, error: Option<&str>) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!("UPDATE type::record('alarm_outbox', $id) SET {set} WHERE state = 'pending'"))
                .bind(("id", control_id.to_owned()))
                .bind(("at", at))
                .bind(("error", error.map(|e| e.chars().take(500).collect::<String>())))
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Alarms whose start was queued and whose end was not, as (company id, alarm key).
    pub async fn started_not_ended(&self) -> Result<Vec<(String, String)>, StoreError> {
        let mut response = self
            .db
            .query(
                "LET $ended = (SELECT VALUE alarm FROM alarm_outbox WHERE phase = 'end');
                 SELECT record::id(company) AS company_id, alarm FROM alarm_outbox WHERE phase = 'start' AND alarm NOT IN $ended;",
            )
            .await?;
        let rows: Vec<StartedAlarm> = response.take(1)?;
        Ok(rows.into_iter().map(|r| (r.company_id, r.alarm)).collect())
    }

    /// The company whose alarm `alarm` was reported to a manager (any phase), if one was: how a
    /// manager's status report (PCD-05), which names only the alarm, finds its company.
    pub async fn company_of_alarm(&self, alarm: &str) -> Result<Option<String>, StoreError> {
        let mut response = self
            .db
            .query("SELECT VALUE record::id(company) FROM alarm_outbox WHERE alarm = $alarm LIMIT 1")
            .bind(("alarm", alarm.to_owned()))
            .await?;
        Ok(response.take::<Vec<String>>(0)?.into_iter().next())
    }

    /// A company's alarm manager, if one is set.
    pub async fn settings(&self, company_id: &str) -> Result<Option<AlarmManagerSettings>, StoreError> {
        read_settings(self.db, company_id).await
    }
}

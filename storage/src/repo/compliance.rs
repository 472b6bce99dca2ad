//! What turn compliance reads (issue 23, item 4): one company's turns and alarms in a time range,
//! and its shift settings (the shifts' starts and the company's time zone), which its
//! administrators set with an audit entry in the same transaction.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;
use crate::error::checked;
use crate::model::NewAuditEntry;
use crate::repo::audit::{BindAudit, CREATE_AUDIT};
use crate::retry::retrying;

/// The most rows one range reads of each log (a 31-day range of a 48-bed unit turned every two
/// hours is about 18 000 turns).
pub const COMPLIANCE_ROW_LIMIT: i64 = 100_000;

/// A turn of the turn log, as compliance reads it. Times in Unix ms.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct ComplianceTurn {
    pub device_id: String,
    /// The patient at the bedside then, if one was assigned.
    pub patient: Option<String>,
    pub at_ms: i64,
    pub loaded_ms: i64,
    pub interval_ms: i64,
}

/// An alarm of the alarm log, as compliance reads it. Times in Unix seconds, as the log keeps them.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
pub struct ComplianceAlarm {
    pub device_id: String,
    pub creation_date: i64,
    pub has_been_attended: bool,
    pub attended_time: Option<i64>,
}

/// A company's shift settings as stored; `None` fields read as the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, SurrealValue)]
pub struct ShiftSettings {
    /// Each shift's start, minutes after local midnight.
    pub shift_starts: Option<Vec<i64>>,
    /// The company's IANA time zone.
    pub time_zone: Option<String>,
}

/// One company's compliance reads and settings.
pub struct ComplianceRecords<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl ComplianceRecords<'_> {
    /// The company's turns with `from_ms <= at_ms < to_ms`, oldest first.
    pub async fn turns_between(&self, from_ms: i64, to_ms: i64) -> Result<Vec<ComplianceTurn>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(device) AS device_id, patient, at_ms, loaded_ms, interval_ms FROM turn_log
                    WHERE company = type::record('company', $company) AND at_ms >= $from AND at_ms < $to ORDER BY at_ms LIMIT $limit",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("from", from_ms))
            .bind(("to", to_ms))
            .bind(("limit", COMPLIANCE_ROW_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }

    /// The company's alarms raised with `from_s <= creation_date < to_s`, oldest first.
    pub async fn alarms_between(&self, from_s: i64, to_s: i64) -> Result<Vec<ComplianceAlarm>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(device) AS device_id, creation_date, has_been_attended, attended_time FROM alarm_log
                    WHERE company = type::record('company', $company) AND creation_date >= $from AND creation_date < $to
                    ORDER BY creation_date LIMIT $limit",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("from", from_s))
            .bind(("to", to_s))
            .bind(("limit", COMPLIANCE_ROW_LIMIT))
            .await?;
        Ok(response.take(0)?)
    }

    /// The shift settings; `NotFound` for an unknown company.
    pub async fn shift_settings(&self) -> Result<ShiftSettings, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT VALUE { shift_starts: compliance_shift_starts, time_zone: compliance_time_zone }
                    FROM type::record('company', $id)",
            )
            .bind(("id", self.company.to_owned()))
            .await?;
        response.take::<Vec<ShiftSettings>>(0)?.into_iter().next().ok_or(StoreError::NotFound)
    }

    /// Sets the shift settings and records `audit`, in one transaction; `NotFound` for an unknown
    /// company.
    pub async fn set_shift_settings(&self, starts: &[u16], time_zone: &str, audit: &NewAuditEntry) -> Result<(), StoreError> {
        let starts: Vec<i64> = starts.iter().map(|&s| i64::from(s)).collect();
        retrying(|| {
            let starts = starts.clone();
            async move {
                let response = self
                    .db
                    .query(format!(
                        "BEGIN TRANSACTION;
                         LET $updated = (UPDATE type::record('company', $id) SET compliance_shift_starts = $starts,
                            compliance_time_zone = $zone WHERE id != NONE RETURN VALUE record::id(id));
                         IF array::len($updated) = 0 {{ THROW 'notFound' }};
                         {CREATE_AUDIT}
                         COMMIT TRANSACTION;"
                    ))
                    .bind(("id", self.company.to_owned()))
                    .bind(("starts", starts))
                    .bind(("zone", time_zone.to_owned()))
                    .bind_audit(self.company, audit)
                    .await?;
                checked(response)?;
                Ok(())
            }
        })
        .await
    }
}

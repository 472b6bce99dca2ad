//! The `analysis` table: records of captured analyses, history pages and the storage quota.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::error::checked;
use crate::model::{Analysis, AnalysisFilter, AnalysisTotals, NewAnalysis, NewAuditEntry};
use crate::repo::audit::{BindAudit, CREATE_AUDIT};
use crate::repo::device_fences::fence_check;
use crate::retry::retrying;
use crate::{StoreError, new_id};

/// Storage each company may use for analyses (spec §9: 100 MB), in bytes.
pub const COMPANY_QUOTA_BYTES: u64 = 100 * 1024 * 1024;

const FIELDS: &str = "record::id(id) AS id, record::id(company) AS company_id, record::id(patient) AS patient_id, \
    record::id(user) AS user_id, device, analysis_type, creation_date, notes, map_preview, additional_parameters, size_bytes";

/// `WHERE` clause of a filtered history query; binds `$company`, `$patient`, `$type`, `$device`.
const FILTER: &str = "company = type::record('company', $company) \
    AND ($patient = NONE OR patient = type::record('patient', $patient)) \
    AND ($type = NONE OR analysis_type = $type) \
    AND ($device = NONE OR device = $device)";

/// One company's analysis records.
pub struct Analyses<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
    /// Cluster mode: the storage writer's lease revision of the capturing device; a capture's
    /// analysis is created only while the device's fence still holds it, in the same transaction
    /// (`CompanyStore::fenced`); `None` for a hub on its own and for the browsers' analyses.
    pub(crate) fence: Option<i64>,
}

#[derive(SurrealValue)]
struct TotalsRow {
    count: i64,
    bytes: i64,
}

impl Analyses<'_> {
    /// Stores an analysis for a patient and a user of the company; returns the id.
    /// `NotFound` when the patient or user is not the company's; `QuotaExceeded` when the
    /// company's analyses would pass [`COMPANY_QUOTA_BYTES`].
    pub async fn create(&self, analysis: &NewAnalysis) -> Result<String, StoreError> {
        retrying(|| async move {
            let id = new_id();
            let size = (analysis.map_preview.len() + analysis.additional_parameters.len() + analysis.notes.len()) as i64;
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     {fence}
                     LET $company_ref = type::record('company', $company);
                     LET $patient_ref = (SELECT VALUE id FROM type::record('patient', $patient) WHERE company = $company_ref)[0];
                     LET $user_ref = (SELECT VALUE id FROM type::record('user', $user) WHERE company = $company_ref)[0];
                     IF $patient_ref = NONE OR $user_ref = NONE {{ THROW 'notFound' }};
                     LET $used = math::sum((SELECT VALUE size_bytes FROM analysis WHERE company = $company_ref));
                     IF $used + $size > $quota {{ THROW 'storageQuota' }};
                     CREATE type::record('analysis', $id) SET company = $company_ref, patient = $patient_ref, user = $user_ref,
                        device = $device, analysis_type = $analysis_type, creation_date = $creation_date, notes = $notes,
                        map_preview = $map_preview, additional_parameters = $parameters, size_bytes = $size
                        RETURN VALUE record::id(id);
                     COMMIT TRANSACTION;",
                    fence = fence_check(self.fence)
                ))
                .bind(("fence_device", analysis.device.clone()))
                .bind(("fence", self.fence))
                .bind(("id", id.clone()))
                .bind(("company", self.company.to_owned()))
                .bind(("patient", analysis.patient_id.clone()))
                .bind(("user", analysis.user_id.clone()))
                .bind(("device", analysis.device.clone()))
                .bind(("analysis_type", analysis.analysis_type.clone()))
                .bind(("creation_date", analysis.creation_date))
                .bind(("notes", analysis.notes.clone()))
                .bind(("map_preview", analysis.map_preview.clone()))
                .bind(("parameters", analysis.additional_parameters.clone()))
                .bind(("size", size))
                .bind(("quota", COMPANY_QUOTA_BYTES as i64))
                .await?;
            checked(response)?;
            Ok(id)
        })
        .await
    }

    /// One analysis of the company.
    pub async fn get(&self, id: &str) -> Result<Option<Analysis>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM type::record('analysis', $id) WHERE company = type::record('company', $company)"))
            .bind(("id", id.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take::<Vec<Analysis>>(0)?.into_iter().next())
    }

    /// Replaces an analysis's notes.
    pub async fn set_notes(&self, id: &str, notes: &str) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPDATE type::record('analysis', $id) SET notes = $notes, size_bytes = size_bytes - string::len(notes) + string::len($notes)
                        WHERE company = type::record('company', $company) RETURN VALUE record::id(id)",
                )
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("notes", notes.to_owned()))
                .await?;
            let updated: Vec<String> = response.take(0)?;
            if updated.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }

    /// Replaces an analysis's notes and records `audit` (`analysis.notes`) in one transaction.
    pub async fn set_notes_audited(&self, id: &str, notes: &str, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $updated = (UPDATE type::record('analysis', $id) SET notes = $notes,
                        size_bytes = size_bytes - string::len(notes) + string::len($notes)
                        WHERE company = type::record('company', $company) RETURN VALUE record::id(id));
                     IF array::len($updated) = 0 {{ THROW 'notFound' }};
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("notes", notes.to_owned()))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Deletes an analysis and records `audit` (`analysis.delete`) in one transaction.
    pub async fn delete_audited(&self, id: &str, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $deleted = (DELETE type::record('analysis', $id) WHERE company = type::record('company', $company) RETURN BEFORE);
                     IF array::len($deleted) = 0 {{ THROW 'notFound' }};
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Deletes an analysis.
    pub async fn delete(&self, id: &str) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query("DELETE type::record('analysis', $id) WHERE company = type::record('company', $company) RETURN BEFORE")
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .await?;
            let deleted: Vec<surrealdb::types::Value> = response.take(0)?;
            if deleted.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }

    /// One page (0-based) of the company's analyses matching `filter`, newest first.
    pub async fn page(&self, filter: &AnalysisFilter, page: u64, page_size: u64) -> Result<Vec<Analysis>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM analysis WHERE {FILTER} ORDER BY creation_date DESC, id DESC LIMIT $limit START $start"))
            .bind(("company", self.company.to_owned()))
            .bind(("patient", filter.patient_id.clone()))
            .bind(("type", filter.analysis_type.clone()))
            .bind(("device", filter.device_id.clone()))
            .bind(("limit", page_size as i64))
            .bind(("start", (page * page_size) as i64))
            .await?;
        Ok(response.take(0)?)
    }

    /// How many analyses match `filter` and their size.
    pub async fn totals(&self, filter: &AnalysisFilter) -> Result<AnalysisTotals, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT count() AS count, math::sum(size_bytes) AS bytes FROM analysis WHERE {FILTER} GROUP ALL"))
            .bind(("company", self.company.to_owned()))
            .bind(("patient", filter.patient_id.clone()))
            .bind(("type", filter.analysis_type.clone()))
            .bind(("device", filter.device_id.clone()))
            .await?;
        let row = response.take::<Vec<TotalsRow>>(0)?.into_iter().next();
        Ok(row.map(|r| AnalysisTotals { count: r.count.max(0) as u64, bytes: r.bytes.max(0) as u64 }).unwrap_or_default())
    }
}

//! The `patient` table, and each user's selected patient. Every query is scoped to a company.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use crate::error::checked;
use crate::model::{NewAuditEntry, Patient, PatientFields};
use crate::repo::audit::{BindAudit, CREATE_AUDIT};
use crate::retry::retrying;
use crate::{StoreError, new_id, unix_now};

const FIELDS: &str = "record::id(id) AS id, record::id(company) AS company_id, created_at, { name: name, weight: weight, \
    height: height, birth_date: birth_date, notes: notes, email: email, phone: phone, phone2: phone2, gender: gender, \
    size: size, health_ins: health_ins, medical_cond: medical_cond, profession: profession, address: address, \
    postal_code: postal_code, country: country } AS fields";

const SET_FIELDS: &str = "name = $f.name, weight = $f.weight, height = $f.height, birth_date = $f.birth_date, \
    notes = $f.notes, email = $f.email, phone = $f.phone, phone2 = $f.phone2, gender = $f.gender, size = $f.size, \
    health_ins = $f.health_ins, medical_cond = $f.medical_cond, profession = $f.profession, address = $f.address, \
    postal_code = $f.postal_code, country = $f.country";

/// One company's patients.
pub struct Patients<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl Patients<'_> {
    /// Creates a patient of the company, registered by `user_id` (who must belong to it) with
    /// the data-treatment agreement given; returns the id.
    pub async fn create(&self, user_id: &str, fields: &PatientFields) -> Result<String, StoreError> {
        self.create_with(user_id, fields, None).await
    }

    /// [`Patients::create`] with its audit entry (`patient.create`; the entity id is the new
    /// patient's) in the same transaction.
    pub async fn create_audited(&self, user_id: &str, fields: &PatientFields, audit: &NewAuditEntry) -> Result<String, StoreError> {
        self.create_with(user_id, fields, Some(audit)).await
    }

    async fn create_with(&self, user_id: &str, fields: &PatientFields, audit: Option<&NewAuditEntry>) -> Result<String, StoreError> {
        retrying(|| async move {
            let id = new_id();
            let audit_statement = if audit.is_some() { CREATE_AUDIT } else { "" };
            let entry = audit.map(|a| NewAuditEntry { entity_id: id.clone(), ..a.clone() }).unwrap_or_default();
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $user = (SELECT VALUE id FROM type::record('user', $user_id) WHERE company = type::record('company', $company))[0];
                     IF $user = NONE {{ THROW 'notFound' }};
                     CREATE type::record('patient', $id) SET company = type::record('company', $company), created_by = $user,
                        created_at = $now, agree_data_treatment = true, {SET_FIELDS};
                     {audit_statement}
                     COMMIT TRANSACTION;"
                ))
                .bind(("id", id.clone()))
                .bind(("company", self.company.to_owned()))
                .bind(("user_id", user_id.to_owned()))
                .bind(("now", unix_now()))
                .bind(("f", fields.clone()))
                .bind_audit(self.company, &entry)
                .await?;
            checked(response)?;
            Ok(id)
        })
        .await
    }

    /// Replaces a patient's fields and records `audit` in one transaction; `NotFound` for another
    /// company's patient.
    pub async fn update_audited(&self, id: &str, fields: &PatientFields, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $updated = (UPDATE type::record('patient', $id) SET {SET_FIELDS} WHERE company = type::record('company', $company)
                        RETURN VALUE record::id(id));
                     IF array::len($updated) = 0 {{ THROW 'notFound' }};
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("f", fields.clone()))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Replaces a patient's fields; `NotFound` for another company's patient.
    pub async fn update(&self, id: &str, fields: &PatientFields) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(format!(
                    "UPDATE type::record('patient', $id) SET {SET_FIELDS} WHERE company = type::record('company', $company) \
                     RETURN VALUE record::id(id)"
                ))
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("f", fields.clone()))
                .await?;
            let updated: Vec<String> = response.take(0)?;
            if updated.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }

    /// Deletes a patient and everything that names them, with `audit`, in one transaction (all or
    /// nothing): their analyses are erased; the devices they were assigned to are released; users
    /// who had them selected have none; the bedside log rows written for them (alarms, device
    /// and presence logs, which stay the device's history) no longer name them. `NotFound` for
    /// another company's patient.
    pub async fn delete(&self, id: &str, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $company_ref = type::record('company', $company);
                     LET $patient = (SELECT VALUE id FROM type::record('patient', $id) WHERE company = $company_ref)[0];
                     IF $patient = NONE {{ THROW 'notFound' }};
                     DELETE analysis WHERE company = $company_ref AND patient = $patient;
                     UPDATE device SET current_patient = NONE WHERE company = $company_ref AND current_patient = $id;
                     UPDATE user SET selected_patient = NONE WHERE company = $company_ref AND selected_patient = $patient;
                     UPDATE alarm_log SET patient = NONE WHERE company = $company_ref AND patient = $id;
                     UPDATE device_log SET patient = NONE WHERE company = $company_ref AND patient = $id;
                     UPDATE presence_log SET patient = NONE WHERE company = $company_ref AND patient = $id;
                     UPDATE turn_log SET patient = NONE WHERE company = $company_ref AND patient = $id;
                     DELETE $patient;
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

    /// A patient of the company.
    pub async fn get(&self, id: &str) -> Result<Option<Patient>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM type::record('patient', $id) WHERE company = type::record('company', $company)"))
            .bind(("id", id.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take::<Vec<Patient>>(0)?.into_iter().next())
    }

    /// The company's patients, by name.
    pub async fn list(&self) -> Result<Vec<Patient>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM patient WHERE company = type::record('company', $company) ORDER BY name"))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }

    /// Makes `patient_id` the user's selected patient. Both must belong to the company.
    pub async fn select(&self, user_id: &str, patient_id: &str) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(
                    "BEGIN TRANSACTION;
                     LET $company_ref = type::record('company', $company);
                     LET $patient = (SELECT VALUE id FROM type::record('patient', $patient_id) WHERE company = $company_ref)[0];
                     IF $patient = NONE { THROW 'notFound' };
                     LET $updated = (UPDATE type::record('user', $user_id) SET selected_patient = $patient WHERE company = $company_ref
                        RETURN VALUE record::id(id));
                     IF array::len($updated) = 0 { THROW 'notFound' };
                     COMMIT TRANSACTION;",
                )
                .bind(("company", self.company.to_owned()))
                .bind(("user_id", user_id.to_owned()))
                .bind(("patient_id", patient_id.to_owned()))
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// The user's selected patient, if any (and if it still belongs to the company).
    pub async fn selected(&self, user_id: &str) -> Result<Option<Patient>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT VALUE record::id(selected_patient) FROM type::record('user', $user_id)
                    WHERE company = type::record('company', $company) AND selected_patient != NONE",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("user_id", user_id.to_owned()))
            .await?;
        let selected: Vec<String> = response.take(0)?;
        match selected.into_iter().next() {
            Some(patient_id) => self.get(&patient_id).await,
            None => Ok(None),
        }
    }
}

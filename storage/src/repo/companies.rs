//! The `company` table: [`HubCompanies`] creates, finds and lists companies; [`Profile`] is one
//! company's own record.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use crate::model::{Company, CompanyBranding, CompanyVariants, WardSettings};
use crate::retry::retrying;
use crate::{StoreError, new_id};

const FIELDS: &str = "record::id(id) AS id, company_name, address, logo, page_color, layout_number, \
    { hide_centre_of_pressure: hide_centre_of_pressure ?? false, fitness: fitness ?? false, \
      seating_labels: seating_labels ?? false } AS variants";

/// Company queries across the hub.
pub struct HubCompanies<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

/// One company's own record.
pub struct Profile<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl HubCompanies<'_> {
    /// Creates a company; returns its id.
    pub async fn create(&self, company_name: &str, address: &str) -> Result<String, StoreError> {
        retrying(|| async move {
            let id = new_id();
            self.db
                .query("CREATE type::record('company', $id) SET company_name = $name, address = $address")
                .bind(("id", id.clone()))
                .bind(("name", company_name.to_owned()))
                .bind(("address", address.to_owned()))
                .await?
                .check()?;
            Ok(id)
        })
        .await
    }

    /// The company with this name.
    pub async fn find_by_name(&self, company_name: &str) -> Result<Option<Company>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM company WHERE company_name = $name LIMIT 1"))
            .bind(("name", company_name.to_owned()))
            .await?;
        Ok(response.take::<Vec<Company>>(0)?.into_iter().next())
    }

    /// The company with this id.
    pub async fn get(&self, id: &str) -> Result<Option<Company>, StoreError> {
        let mut response = self.db.query(format!("SELECT {FIELDS} FROM type::record('company', $id)")).bind(("id", id.to_owned())).await?;
        Ok(response.take::<Vec<Company>>(0)?.into_iter().next())
    }

    /// Creates a company with its branding; returns its id. A taken name is `Duplicate`.
    pub async fn create_branded(&self, branding: &CompanyBranding) -> Result<String, StoreError> {
        retrying(|| async move {
            let id = new_id();
            self.db
                .query(
                    "CREATE type::record('company', $id) SET company_name = $name, address = $address, logo = $logo, \
                     page_color = $page_color, layout_number = $layout_number",
                )
                .bind(("id", id.clone()))
                .bind(("name", branding.company_name.clone()))
                .bind(("address", branding.address.clone()))
                .bind(("logo", branding.logo.clone()))
                .bind(("page_color", branding.page_color.clone()))
                .bind(("layout_number", branding.layout_number))
                .await?
                .check()?;
            Ok(id)
        })
        .await
    }

    /// Every company, by name (hub administrators provision them).
    pub async fn list(&self) -> Result<Vec<Company>, StoreError> {
        let mut response = self.db.query(format!("SELECT {FIELDS} FROM company ORDER BY company_name")).await?;
        Ok(response.take(0)?)
    }
}

impl Profile<'_> {
    /// The company's record.
    pub async fn get(&self) -> Result<Option<Company>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM type::record('company', $company)"))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take::<Vec<Company>>(0)?.into_iter().next())
    }

    /// Changes the company's name, address and logo (the branding page).
    pub async fn update_branding(&self, company_name: &str, address: &str, logo: Option<&str>) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPDATE type::record('company', $id) SET company_name = $name, address = $address, logo = $logo \
                     WHERE id != NONE RETURN VALUE record::id(id)",
                )
                .bind(("id", self.company.to_owned()))
                .bind(("name", company_name.to_owned()))
                .bind(("address", address.to_owned()))
                .bind(("logo", logo.map(str::to_owned)))
                .await?;
            let updated: Vec<String> = response.take(0)?;
            if updated.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }

    /// The ward board's settings; `NotFound` for an unknown company. A company stored before
    /// they existed reads as the default (names in full).
    pub async fn ward_settings(&self) -> Result<WardSettings, StoreError> {
        let mut response = self
            .db
            .query("SELECT VALUE { patient_initials: ward_patient_initials ?? false } FROM type::record('company', $id)")
            .bind(("id", self.company.to_owned()))
            .await?;
        response.take::<Vec<WardSettings>>(0)?.into_iter().next().ok_or(StoreError::NotFound)
    }

    /// Sets the ward board's settings (its administrators); `NotFound` for an unknown company.
    pub async fn set_ward_settings(&self, settings: &WardSettings) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPDATE type::record('company', $id) SET ward_patient_initials = $initials WHERE id != NONE \
                     RETURN VALUE record::id(id)",
                )
                .bind(("id", self.company.to_owned()))
                .bind(("initials", settings.patient_initials))
                .await?;
            let updated: Vec<String> = response.take(0)?;
            if updated.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }

    /// Switches the company's variants (its administrators); `NotFound` for an unknown company.
    pub async fn set_variants(&self, variants: &CompanyVariants) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPDATE type::record('company', $id) SET hide_centre_of_pressure = $v.hide_centre_of_pressure, \
                     fitness = $v.fitness, seating_labels = $v.seating_labels WHERE id != NONE RETURN VALUE record::id(id)",
                )
                .bind(("id", self.company.to_owned()))
                .bind(("v", *variants))
                .await?;
            let updated: Vec<String> = response.take(0)?;
            if updated.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }
}

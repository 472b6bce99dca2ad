//! Response bodies more than one group of routes answers with, so that handler files do not
//! import each other: a company (companies, `registerAll`), its variants (companies, login) and
//! a created user (signup, `registerAll`).

use serde::{Deserialize, Serialize};
use storage::model::{Company, CompanyVariants};

use super::json::Oid;

/// A company as the admin panel and branding page read it. `address` and `location` carry the
/// same value (the old branding page read `location`).
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyJson {
    #[serde(rename = "_id")]
    pub id: Oid,
    pub company_name: String,
    pub address: String,
    pub location: String,
    pub logo: Option<String>,
    pub page_color: String,
    pub layout_number: i64,
    pub variants: VariantsJson,
}

/// A company's variants (spec §1, §6) as the client reads and an administrator sends them. Every
/// field is required when sending, so a save states the whole setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VariantsJson {
    pub hide_centre_of_pressure: bool,
    pub fitness: bool,
    pub seating_labels: bool,
}

impl From<CompanyVariants> for VariantsJson {
    fn from(v: CompanyVariants) -> Self {
        VariantsJson { hide_centre_of_pressure: v.hide_centre_of_pressure, fitness: v.fitness, seating_labels: v.seating_labels }
    }
}

impl From<VariantsJson> for CompanyVariants {
    fn from(v: VariantsJson) -> Self {
        CompanyVariants { hide_centre_of_pressure: v.hide_centre_of_pressure, fitness: v.fitness, seating_labels: v.seating_labels }
    }
}

impl From<Company> for CompanyJson {
    fn from(company: Company) -> Self {
        CompanyJson {
            id: Oid::new(&company.id),
            location: company.address.clone(),
            address: company.address,
            company_name: company.company_name,
            logo: company.logo,
            page_color: company.page_color,
            layout_number: company.layout_number,
            variants: company.variants.into(),
        }
    }
}

/// The created user.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedUser {
    pub id: String,
    pub email: String,
    pub role: i64,
    pub company_id: String,
}

//! Companies: `POST /api/auth/company/register`, `GET /api/auth/companies`,
//! `GET /api/auth/companiesname` (administrators), and the caller's own company's branding,
//! `GET` and `PUT /api/companyUser`, and its variants, `GET` and `PUT /api/companyVariants`.

use serde::Serialize;

use super::audit::Audit;
pub use super::bodies::{CompanyJson, VariantsJson};
use super::caller::{Admin, BoardReader};
use super::error::ApiError;
use super::json::{created, ok};
use mat_api::company::{CompanyInput, validate_company};

/// `GET /api/auth/companiesname`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CompanyNames {
    pub companies: Vec<String>,
}

/// Creates a company (administrators).
pub async fn register(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let input: CompanyInput = call.json().await?;
    let branding = validate_company(&input)?;
    let id = call
        .state
        .store
        .hub_wide()
        .companies()
        .create_branded(&branding)
        .await
        .map_err(|e| ApiError::store(e, "company", "duplicateCompany"))?;
    let summary = format!("created company {}", branding.company_name);
    Audit { company_id: &id, action: "company.create", entity_type: "company", entity_id: &id, summary }.record(&call).await;
    let company = call
        .state
        .store
        .hub_wide()
        .companies()
        .get(&id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found("company"))?;
    Ok(created(&CompanyJson::from(company)))
}

/// Every company (administrators, for the create-user and create-device popups).
pub async fn list(call: Admin) -> Result<warp::reply::Response, ApiError> {
    let companies = call.state.store.hub_wide().companies().list().await.map_err(ApiError::internal)?;
    Ok(ok(&companies.into_iter().map(CompanyJson::from).collect::<Vec<_>>()))
}

/// `{ companies: [name, …] }` (administrators).
pub async fn names(call: Admin) -> Result<warp::reply::Response, ApiError> {
    let companies = call.state.store.hub_wide().companies().list().await.map_err(ApiError::internal)?;
    let names: Vec<String> = companies.into_iter().map(|c| c.company_name).collect();
    Ok(ok(&CompanyNames { companies: names }))
}

/// The caller's company, as a one-element list (the branding page uses the first record).
pub async fn own(call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    let company = call.store().profile().get().await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("company"))?;
    Ok(ok(&vec![CompanyJson::from(company)]))
}

/// Changes the caller's company's name, address and logo (administrators). An absent or
/// empty logo removes it.
pub async fn update_own(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let input: CompanyInput = call.json().await?;
    let branding = validate_company(&input)?;
    call.store()
        .profile()
        .update_branding(&branding.company_name, &branding.address, branding.logo.as_deref())
        .await
        .map_err(|e| ApiError::store(e, "company", "duplicateCompany"))?;
    let logo = if branding.logo.is_some() { "a logo" } else { "no logo" };
    let summary = format!("branding: name {}, address {:?}, {logo}", branding.company_name, branding.address);
    let company_id = &call.claims().company_id;
    Audit { company_id, action: "company.branding", entity_type: "company", entity_id: company_id, summary }.record(&call).await;
    let company = call.store().profile().get().await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("company"))?;
    Ok(ok(&CompanyJson::from(company)))
}

/// The caller's company's variants (every role: they change what the client shows).
pub async fn variants(call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    let company = call.store().profile().get().await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("company"))?;
    Ok(ok(&VariantsJson::from(company.variants)))
}

/// Switches the caller's company's variants (administrators of that company); answers them.
pub async fn set_variants(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let input: VariantsJson = call.json().await?;
    call.store().profile().set_variants(&input.into()).await.map_err(|e| ApiError::store(e, "company", "duplicateCompany"))?;
    let summary = format!(
        "variants: hideCentreOfPressure {}, fitness {}, seatingLabels {}",
        input.hide_centre_of_pressure, input.fitness, input.seating_labels
    );
    let company_id = &call.claims().company_id;
    Audit { company_id, action: "company.variants", entity_type: "company", entity_id: company_id, summary }.record(&call).await;
    Ok(ok(&input))
}

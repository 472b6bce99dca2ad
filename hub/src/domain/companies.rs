//! Companies as other operations name them.

use storage::HubWide;

use super::error::DomainError;

/// A company's id from its id or its name (the admin panel sends either; any company of the hub): `companyRequired` when
/// blank, not found when neither matches.
pub async fn resolve(hub: HubWide<'_>, company: &str) -> Result<String, DomainError> {
    let company = company.trim();
    if company.is_empty() {
        return Err(DomainError::refused("companyRequired", "name the company"));
    }
    if let Some(found) = hub.companies().get(company).await.map_err(DomainError::internal)? {
        return Ok(found.id);
    }
    match hub.companies().find_by_name(company).await.map_err(DomainError::internal)? {
        Some(found) => Ok(found.id),
        None => Err(DomainError::NotFound("company")),
    }
}

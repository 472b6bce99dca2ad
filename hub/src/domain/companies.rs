//! Companies as other operations name them.

use storage::Store;

use super::error::DomainError;

/// A company's id from its id or its name (the admin panel sends either): `companyRequired` when
/// blank, not found when neither matches.
pub async fn resolve(store: &Store, company: &str) -> Result<String, DomainError> {
    let company = company.trim();
    if company.is_empty() {
        return Err(DomainError::refused("companyRequired", "name the company"));
    }
    if let Some(found) = store.companies().get(company).await.map_err(DomainError::internal)? {
        return Ok(found.id);
    }
    match store.companies().find_by_name(company).await.map_err(DomainError::internal)? {
        Some(found) => Ok(found.id),
        None => Err(DomainError::NotFound("company")),
    }
}

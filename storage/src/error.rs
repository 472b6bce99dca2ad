//! Storage errors.

/// What can go wrong in storage.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database at this URL could not be opened.
    #[error("cannot open the database at {0}: {1}")]
    Open(String, String),
    /// A unique field already holds this value (e-mail, hardware serial, company name).
    #[error("duplicate: {0}")]
    Duplicate(String),
    /// A value broke a schema assertion.
    #[error("invalid value: {0}")]
    Invalid(String),
    /// The referenced record does not exist (or belongs to another company).
    #[error("not found")]
    NotFound,
    /// The company's analyses would pass its storage quota.
    #[error("the company's storage quota is used up")]
    QuotaExceeded,
    /// Password hashing failed.
    #[error("password hashing failed: {0}")]
    Hash(String),
    /// Another transaction wrote the same records at the same moment and this one still lost
    /// after [`crate::retry::ATTEMPTS`] tries; nothing was written.
    #[error("write conflict: {0}")]
    Conflict(String),
    /// The database server cannot be reached (the connection failed or broke), and did not come
    /// back within [`crate::retry::UNAVAILABLE_WAIT`]. Only a server (`ws://`) reports it.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// Cluster mode: the device's fence (`device_fence`) is no longer the writer's lease
    /// revision; another hub owns the device now and nothing was written. Never retried.
    #[error("fenced: another hub owns the device now")]
    Fenced,
    /// Any other database error.
    #[error("database error: {0}")]
    Database(String),
}

impl StoreError {
    /// Whether `detail`, an error's text, says the database server was unavailable
    /// ([`StoreError::Unavailable`]'s own text): for callers that kept only the text of a storage
    /// error (`DomainError::internal`), so that a server restart still answers "busy, try again",
    /// never "something went wrong".
    pub fn text_is_unavailable(detail: &str) -> bool {
        detail.contains("the database is unavailable: ")
    }
}

impl From<surrealdb::Error> for StoreError {
    fn from(error: surrealdb::Error) -> Self {
        let text = error.to_string();
        if error.is_connection() {
            StoreError::Unavailable(text)
        } else if is_retryable_conflict(&error, &text) {
            StoreError::Conflict(text)
        } else if text.contains("fencedByNewerOwner") {
            StoreError::Fenced
        } else if text.contains("'notFound'") || text.contains("notFound") {
            StoreError::NotFound
        } else if text.contains("storageQuota") {
            StoreError::QuotaExceeded
        } else if text.contains("already contains") {
            StoreError::Duplicate(text)
        } else if text.contains("assert")
            || text.contains("ASSERT")
            || text.contains("must conform to")
            || text.contains("Couldn't coerce")
            || text.contains("expected")
        {
            StoreError::Invalid(text)
        } else {
            StoreError::Database(text)
        }
    }
}

/// SurrealDB's "Transaction conflict: … This transaction can be retried" (the embedded engines
/// report it in the message; a remote one also in its details).
fn is_retryable_conflict(error: &surrealdb::Error, text: &str) -> bool {
    error.query_details() == Some(&surrealdb::types::QueryError::TransactionConflict)
        || text.contains("can be retried")
        || text.contains("Transaction conflict")
}

/// The response's statements' errors as one [`StoreError`]: the cause (a `THROW`, a failed
/// assertion), not the "not executed due to a failed transaction" of the statements around it.
pub(crate) fn checked(mut response: surrealdb::IndexedResults) -> Result<surrealdb::IndexedResults, StoreError> {
    let mut errors: Vec<(usize, surrealdb::Error)> = response.take_errors().into_iter().collect();
    if errors.is_empty() {
        return Ok(response);
    }
    errors.sort_by_key(|(index, _)| *index);
    let cause = errors.iter().position(|(_, e)| !e.to_string().contains("failed transaction")).unwrap_or(0);
    Err(StoreError::from(errors.swap_remove(cause).1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unavailable_server_is_known_by_its_text_wherever_it_was_kept() {
        let gone = StoreError::Unavailable("Connection reset".into()).to_string();
        assert!(StoreError::text_is_unavailable(&gone));
        assert!(StoreError::text_is_unavailable(&format!("reading the device: {gone}")));
        assert!(!StoreError::text_is_unavailable(&StoreError::Database("Connection reset".into()).to_string()));
        assert!(!StoreError::text_is_unavailable(&StoreError::Conflict("busy".into()).to_string()));
    }
}

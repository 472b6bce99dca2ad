//! Why a domain operation refused or failed, in terms the callers render: the REST handlers as
//! an HTTP status and i18n key (`http::call`), the demo and `provision` as an error message.

use mat_api::Invalid;
use storage::StoreError;

/// A refusal or failure of a domain operation.
#[derive(Debug)]
pub enum DomainError {
    /// No such entity in the caller's company (or in any); `what` names it (`device`, `company`).
    NotFound(&'static str),
    /// The operation would duplicate a unique value; `key` is the i18n key (`duplicateSerial`).
    Conflict { key: &'static str, message: String },
    /// The request cannot be carried out as asked; `key` is the i18n key.
    Refused { key: &'static str, message: String },
    /// The operation failed in a way the caller may name; `key` is the i18n key.
    Failed { key: &'static str, message: String },
    /// A value the checks of `mat-api` refused.
    Invalid(Invalid),
    /// Storage refused or failed while writing or reading `what`; a duplicate is reported with
    /// `duplicate_key`.
    Store { error: StoreError, what: &'static str, duplicate_key: &'static str },
    /// The device (or the hub that holds it, in a cluster) did not answer: 503
    /// `deviceUnavailable`, try again.
    Unavailable(String),
    /// Something the hub could not do (a storage failure, an actor that did not answer); the
    /// detail is for the log.
    Internal(String),
}

impl DomainError {
    /// A storage failure nobody can act on (the caller logs it).
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        DomainError::Internal(detail.to_string())
    }

    /// The device or its hub did not answer.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        DomainError::Unavailable(reason.into())
    }

    /// A refusal with this i18n key.
    pub fn refused(key: &'static str, message: impl Into<String>) -> Self {
        DomainError::Refused { key, message: message.into() }
    }

    /// A duplicate of a unique value, with this i18n key.
    pub fn conflict(key: &'static str, message: impl Into<String>) -> Self {
        DomainError::Conflict { key, message: message.into() }
    }

    /// A storage error while writing `what`, duplicates reported with `duplicate_key`.
    pub fn store(what: &'static str, duplicate_key: &'static str) -> impl Fn(StoreError) -> Self {
        move |error| DomainError::Store { error, what, duplicate_key }
    }
}

impl From<Invalid> for DomainError {
    fn from(invalid: Invalid) -> Self {
        DomainError::Invalid(invalid)
    }
}

impl std::fmt::Display for DomainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DomainError::NotFound(what) => write!(f, "no such {what}"),
            DomainError::Conflict { message, .. } | DomainError::Refused { message, .. } | DomainError::Failed { message, .. } => {
                f.write_str(message)
            }
            DomainError::Invalid(invalid) => f.write_str(&invalid.message),
            DomainError::Store { error, what, .. } => write!(f, "storing the {what}: {error}"),
            DomainError::Unavailable(detail) | DomainError::Internal(detail) => f.write_str(detail),
        }
    }
}

impl std::error::Error for DomainError {}

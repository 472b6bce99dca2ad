//! API errors: JSON `{error, message}` with a fitting status code; `error` is an i18n key of
//! spec §8 where one fits. Also turns warp's own rejections into the same shape.

use std::convert::Infallible;

use serde::Serialize;
use warp::Reply;
use warp::http::StatusCode;
use warp::reject::Reject;

/// An error a handler returns.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: &'static str,
    pub message: String,
    /// Seconds to wait, sent as `Retry-After` (429).
    pub retry_after: Option<u64>,
}

impl Reject for ApiError {}

impl ApiError {
    pub fn new(status: StatusCode, error: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, error, message: message.into(), retry_after: None }
    }

    /// 404 for an unknown id or one of another company: the caller cannot tell them apart.
    pub fn not_found(what: &str) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "notFound", format!("no such {what}"))
    }

    /// A storage error as the API answers it: unknown ids 404, duplicates 409 with `duplicate_key`,
    /// schema refusals 400, quota 409, a write that still conflicted after storage's retries 503
    /// with `Retry-After`, anything else 500.
    pub fn store(error: storage::StoreError, what: &str, duplicate_key: &'static str) -> Self {
        match error {
            storage::StoreError::NotFound => ApiError::not_found(what),
            storage::StoreError::Duplicate(_) => ApiError::new(StatusCode::CONFLICT, duplicate_key, format!("this {what} already exists")),
            storage::StoreError::Invalid(detail) => {
                tracing::warn!(%detail, "storage refused a value that passed validation");
                ApiError::new(StatusCode::BAD_REQUEST, "invalidData", format!("the {what} has an invalid field"))
            }
            storage::StoreError::Conflict(detail) => {
                tracing::warn!(%detail, "a write still conflicted after storage's retries");
                ApiError {
                    retry_after: Some(1),
                    ..ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "busy",
                        format!("the {what} is being changed by someone else: try again"),
                    )
                }
            }
            storage::StoreError::Unavailable(detail) => {
                tracing::warn!(%detail, "the database server stayed unavailable through storage's retries");
                ApiError {
                    retry_after: Some(5),
                    ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", "the database is unavailable: try again")
                }
            }
            storage::StoreError::QuotaExceeded => {
                ApiError::new(StatusCode::CONFLICT, "storageQuotaExceeded", "the company's 100 MB of analysis storage is used up")
            }
            other => ApiError::internal(other),
        }
    }

    /// 401: no token, a bad one or an expired one.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 500 for a storage failure; the detail is logged, not sent.
    /// A storage failure of a write the caller cannot name: a conflict that outlasted storage's
    /// retries, or a database server that stayed away, is 503 `busy` with `Retry-After` (as in
    /// [`Self::store`]), never 500; anything else is [`Self::internal`].
    pub fn storage(error: storage::StoreError) -> Self {
        match error {
            busy @ (storage::StoreError::Conflict(_) | storage::StoreError::Unavailable(_)) => ApiError::store(busy, "record", "duplicate"),
            other => ApiError::internal(other),
        }
    }

    /// 503 `deviceUnavailable`: the device's actor, or the hub that owns it, did not answer (an
    /// outcome a handler has no other answer for).
    pub fn device_unavailable(outcome: &actors::actor::session_commands::CommandOutcome) -> Self {
        let message = outcome.refusal().map_or_else(|| "the device did not answer".to_owned(), |(_, message)| message);
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, actors::actor::session_commands::DEVICE_UNAVAILABLE, message)
    }

    /// 500 for what the hub could not do; the detail is logged, not sent. A database server that
    /// was unavailable (a read on the way, which storage does not retry, met its restart) is 503
    /// `busy` with `Retry-After`, as [`Self::store`] answers it.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        let detail = detail.to_string();
        if storage::StoreError::text_is_unavailable(&detail) {
            return ApiError::store(storage::StoreError::Unavailable(detail), "record", "duplicate");
        }
        tracing::error!(%detail, "internal error");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internalError", "something went wrong on the hub")
    }
}

/// The body of every error answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ErrorBody<'a> {
    /// An i18n key (spec §8) or a code such as `invalidBody`.
    pub error: &'a str,
    /// What went wrong, in English.
    pub message: &'a str,
}

/// The JSON reply for an error.
pub fn reply(error: &ApiError) -> warp::reply::Response {
    let body = warp::reply::json(&ErrorBody { error: error.error, message: &error.message });
    let mut response = warp::reply::with_status(body, error.status).into_response();
    if let Some(seconds) = error.retry_after {
        response.headers_mut().insert("retry-after", warp::http::HeaderValue::from(seconds));
    }
    response
}

/// A handler's result as the response.
pub fn finish(result: Result<warp::reply::Response, ApiError>) -> warp::reply::Response {
    result.unwrap_or_else(|error| reply(&error))
}

/// Maps every rejection to `{error, message}`.
pub async fn recover(rejection: warp::Rejection) -> Result<warp::reply::Response, Infallible> {
    let error = if let Some(error) = rejection.find::<ApiError>() {
        error.clone()
    } else if rejection.is_not_found() {
        ApiError::new(StatusCode::NOT_FOUND, "notFound", "no such resource")
    } else if rejection.find::<warp::reject::PayloadTooLarge>().is_some() {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge", "the request body is too large")
    } else if let Some(e) = rejection.find::<warp::filters::body::BodyDeserializeError>() {
        ApiError::new(StatusCode::BAD_REQUEST, "invalidBody", e.to_string())
    } else if rejection.find::<warp::reject::LengthRequired>().is_some() {
        ApiError::new(StatusCode::LENGTH_REQUIRED, "lengthRequired", "a Content-Length header is required")
    } else if rejection.find::<warp::reject::UnsupportedMediaType>().is_some() {
        ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupportedMediaType", "send JSON")
    } else if rejection.find::<warp::reject::MethodNotAllowed>().is_some() {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "methodNotAllowed", "method not allowed")
    } else if let Some(e) = rejection.find::<warp::reject::MissingHeader>() {
        ApiError::new(StatusCode::BAD_REQUEST, "missingHeader", e.to_string())
    } else {
        tracing::warn!(?rejection, "unhandled rejection");
        ApiError::new(StatusCode::BAD_REQUEST, "badRequest", "the request could not be handled")
    };
    Ok(reply(&error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unavailable_database_met_on_the_way_is_busy_not_an_internal_error() {
        let gone = ApiError::internal(format!("reading the caller: {}", storage::StoreError::Unavailable("Connection reset".into())));
        assert_eq!((gone.status, gone.error, gone.retry_after), (StatusCode::SERVICE_UNAVAILABLE, "busy", Some(5)));
        let broken = ApiError::internal(storage::StoreError::Database("syntax".into()));
        assert_eq!((broken.status, broken.error), (StatusCode::INTERNAL_SERVER_ERROR, "internalError"));
    }
}

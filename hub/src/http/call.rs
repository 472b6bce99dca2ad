//! One API call: the caller's token, address and body. The route's access check reads the token
//! (`super::caller`) before the handler runs; handlers read the body themselves
//! ([`Call::json`]), so a route whose path and method matched always answers, with its own
//! error, instead of falling through to another route.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

use bytes::{Buf, Bytes, BytesMut};
use futures_util::{Stream, StreamExt, TryStreamExt};
use serde::de::DeserializeOwned;
use warp::http::StatusCode;
use warp::{Filter, Rejection};

use super::error::ApiError;
use super::state::AppState;
use crate::auth::token::{Claims, unix_now};
use crate::auth::verify::Refusal;
use crate::domain::DomainError;
use mat_api::Invalid;

type BodyStream = Pin<Box<dyn Stream<Item = Result<Bytes, warp::Error>> + Send>>;

/// Request bodies of most calls: a logo of 1 MiB in base64 and its JSON fit.
pub const DEFAULT_BODY_LIMIT: u64 = 2 * 1024 * 1024;
/// Login bodies.
pub const LOGIN_BODY_LIMIT: u64 = 16 * 1024;
/// Analysis bodies: a 60 s dynamic capture's preview frames.
pub const ANALYSIS_BODY_LIMIT: u64 = 32 * 1024 * 1024;

/// A call in progress.
pub struct Call {
    pub state: Arc<AppState>,
    authorization: Option<String>,
    content_length: Option<String>,
    peer: Option<SocketAddr>,
    /// In a mutex only so `&Call` is `Send`; taken once by [`Call::bytes`].
    body: std::sync::Mutex<Option<BodyStream>>,
    limit: u64,
}

impl Call {
    /// The `Authorization` header as sent, for the access check (`super::caller`).
    pub(super) fn authorization(&self) -> Option<&str> {
        self.authorization.as_deref()
    }

    /// The client's IP address, for throttling.
    pub fn client_address(&self) -> String {
        self.peer.map(|p| p.ip().to_string()).unwrap_or_else(|| "unknown".into())
    }

    /// The body, refused with 413 past the route's limit.
    pub async fn bytes(&mut self) -> Result<Bytes, ApiError> {
        let too_large = || {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge", format!("the request body is larger than {} bytes", self.limit))
        };
        if self.content_length.as_deref().and_then(|l| l.trim().parse::<u64>().ok()).is_some_and(|l| l > self.limit) {
            return Err(too_large());
        }
        let taken = self.body.get_mut().unwrap_or_else(|p| p.into_inner()).take();
        let Some(mut body) = taken else { return Ok(Bytes::new()) };
        let mut collected = BytesMut::new();
        while let Some(chunk) = body.next().await {
            let chunk =
                chunk.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalidBody", format!("reading the body failed: {e}")))?;
            if (collected.len() + chunk.len()) as u64 > self.limit {
                return Err(too_large());
            }
            collected.extend_from_slice(&chunk);
        }
        Ok(collected.freeze())
    }

    /// The body as a JSON object read as `T` (400 `invalidBody` when it is not one).
    pub async fn json<T: DeserializeOwned>(&mut self) -> Result<T, ApiError> {
        let bytes = self.bytes().await?;
        parse_object(&bytes)
    }
}

/// A JSON object as `T` ([`mat_api::body::parse_object`]), refused as `invalidBody`.
pub fn parse_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    mat_api::body::parse_object(bytes).map_err(|detail| ApiError::new(StatusCode::BAD_REQUEST, "invalidBody", detail))
}

/// A path segment as sent, percent-decoded (`Force%20Mat` is `Force Mat`).
pub fn path_segment(raw: &str) -> String {
    percent_encoding::percent_decode_str(raw).decode_utf8_lossy().into_owned()
}

/// Builds a [`Call`] for a route with this body limit. Never rejects.
pub fn call(state: Arc<AppState>, limit: u64) -> impl Filter<Extract = (Call,), Error = Rejection> + Clone {
    warp::header::optional::<String>("authorization")
        .and(warp::header::optional::<String>("content-length"))
        .and(super::server::remote())
        .and(warp::body::stream())
        .map(move |authorization, content_length, peer, body: _| {
            let body: BodyStream = Box::pin(into_bytes(body));
            Call { state: state.clone(), authorization, content_length, peer, body: std::sync::Mutex::new(Some(body)), limit }
        })
}

fn into_bytes<S, B>(stream: S) -> impl Stream<Item = Result<Bytes, warp::Error>> + Send
where
    S: Stream<Item = Result<B, warp::Error>> + Send,
    B: Buf,
{
    stream.map_ok(|mut buf| buf.copy_to_bytes(buf.remaining()))
}

/// Checks a bearer token ([`crate::auth::verify`]) against the hub's key and revoked ids: REST
/// calls and the browser socket.
pub fn verify(state: &AppState, token: &str) -> Result<Claims, ApiError> {
    let revoked = state.revoked_tokens.lock().unwrap_or_else(|p| p.into_inner());
    let screens = state.board_screens.lock().unwrap_or_else(|p| p.into_inner());
    crate::auth::verify::verify(&state.signer, &revoked, &screens, token, unix_now()).map_err(ApiError::from)
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, refusal.key(), refusal.message())
    }
}

impl From<DomainError> for ApiError {
    fn from(error: DomainError) -> Self {
        match error {
            DomainError::NotFound(what) => ApiError::not_found(what),
            DomainError::Conflict { key, message } => ApiError::new(StatusCode::CONFLICT, key, message),
            DomainError::Refused { key, message } => ApiError::new(StatusCode::BAD_REQUEST, key, message),
            DomainError::Failed { key, message } => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, key, message),
            DomainError::Invalid(invalid) => invalid.into(),
            DomainError::Store { error, what, duplicate_key } => ApiError::store(error, what, duplicate_key),
            DomainError::Unavailable(reason) => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "deviceUnavailable", reason),
            DomainError::Internal(detail) => ApiError::internal(detail),
        }
    }
}

impl From<Invalid> for ApiError {
    fn from(invalid: Invalid) -> Self {
        let status = if invalid.too_large { StatusCode::PAYLOAD_TOO_LARGE } else { StatusCode::BAD_REQUEST };
        ApiError::new(status, invalid.key, invalid.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(default)]
    struct Named {
        name: String,
    }

    #[test]
    fn only_json_objects_are_bodies() {
        assert_eq!(parse_object::<Named>(br#"{"name": "Ana"}"#).unwrap().name, "Ana");
        for not_object in [&b"[]"[..], b"null", b"5", b"\"x\"", b"{oops"] {
            assert_eq!(parse_object::<Named>(not_object).unwrap_err().error, "invalidBody");
        }
    }

    #[test]
    fn path_segments_are_percent_decoded() {
        assert_eq!(path_segment("Force%20Mat"), "Force Mat");
        assert_eq!(path_segment("Cl%C3%ADnica"), "Clínica");
        assert_eq!(path_segment("plain"), "plain");
    }
}

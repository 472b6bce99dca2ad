//! `POST /api/auth/login` and the bearer-token filter every other call goes through.

use std::convert::Infallible;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::state::AppState;
use crate::auth::token::{unix_now, Claims, TokenError};

/// Login bodies are tiny; anything larger is refused with 413.
pub const LOGIN_BODY_LIMIT: u64 = 16 * 1024;

/// The login request.
#[derive(Debug, Deserialize)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

/// The login response.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoginResponse {
    pub token: String,
    pub user_id: String,
    pub company_id: String,
    pub company_name: String,
    pub role: i64,
    pub expires_at: u64,
}

/// Checks e-mail and password; answers a signed, expiring token.
pub async fn login(state: Arc<AppState>, request: LoginRequest) -> Result<warp::reply::Response, Rejection> {
    let wrong = || ApiError::new(StatusCode::UNAUTHORIZED, "incorrectCredentials", "wrong e-mail or password");
    let credentials = state.store.users().credentials(request.email.trim()).await.map_err(ApiError::internal)?;
    // Hash even for unknown e-mails so response time does not reveal which addresses exist.
    let stored = credentials.as_ref().map(|c| c.password_hash.clone()).unwrap_or_else(|| DUMMY_HASH.to_owned());
    let password = request.password;
    let matches = tokio::task::spawn_blocking(move || storage::password::verify(&password, &stored)).await.map_err(ApiError::internal)?;
    let Some(user) = credentials.filter(|_| matches) else {
        tracing::info!(email = %request.email, "failed login");
        return Err(wrong().into());
    };
    let company = state.store.companies().get(&user.company_id).await.map_err(ApiError::internal)?;
    let claims = Claims { user_id: user.id.clone(), company_id: user.company_id.clone(), role: user.role, expires_at: unix_now() + state.token_ttl_secs };
    let response = LoginResponse {
        token: state.signer.issue(&claims),
        user_id: user.id,
        company_id: user.company_id,
        company_name: company.map(|c| c.company_name).unwrap_or_default(),
        role: user.role,
        expires_at: claims.expires_at,
    };
    Ok(warp::reply::json(&response).into_response())
}

/// An argon2 hash of a random string, verified against when the e-mail is unknown.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3rk7rGPdxfNMsg4Wd1GeRvb8qbfsjKx6IvK8hszrk7Q";


/// Extracts the claims of a valid bearer token, or rejects with 401.
pub fn authenticated(state: Arc<AppState>) -> impl Filter<Extract = (Claims,), Error = Rejection> + Clone {
    warp::header::optional::<String>("authorization").and(with_state(state)).and_then(|header: Option<String>, state: Arc<AppState>| async move {
        let header = header.ok_or_else(|| ApiError::unauthorized("an Authorization: Bearer token is required"))?;
        let token = header.strip_prefix("Bearer ").ok_or_else(|| ApiError::unauthorized("use Authorization: Bearer <token>"))?;
        verify(&state, token).map_err(Rejection::from)
    })
}

/// Checks a token as the browser socket receives it.
pub fn verify(state: &AppState, token: &str) -> Result<Claims, ApiError> {
    state.signer.verify(token.trim(), unix_now()).map_err(|e| match e {
        TokenError::Expired => ApiError::unauthorized("the token has expired; sign in again"),
        TokenError::Malformed | TokenError::BadSignature => ApiError::unauthorized("the token is not valid"),
    })
}

/// Hands the shared state to a handler.
pub fn with_state(state: Arc<AppState>) -> impl Filter<Extract = (Arc<AppState>,), Error = Infallible> + Clone {
    warp::any().map(move || state.clone())
}

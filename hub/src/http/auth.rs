//! `POST /api/auth/login` (throttled per account and address), token checks, and
//! `POST /api/auth/signup`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::call::Call;
use super::companies::VariantsJson;
use super::error::ApiError;
use super::state::AppState;
use crate::auth::roles::ROLE_STAFF;
use crate::auth::token::{unix_now, Claims, TokenError};
use crate::validation::account::{validate_account, AccountInput};

/// The login request.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

/// The login response.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginResponse {
    pub token: String,
    pub user_id: String,
    pub company_id: String,
    pub company_name: String,
    pub role: i64,
    pub expires_at: u64,
    /// The company's variants, so the client shows them from the first screen.
    pub variants: VariantsJson,
}

/// Checks e-mail and password; answers a signed, expiring token. Too many failures for the
/// account or from the address answer 429 `tooManyAttempts` with `Retry-After`.
pub async fn login(mut call: Call) -> Result<warp::reply::Response, ApiError> {
    let request: LoginRequest = call.json().await?;
    let state = call.state.clone();
    let email = request.email.trim().to_lowercase();
    let address = call.client_address();
    if let Some(wait) = state.login_limiter.lock().unwrap_or_else(|p| p.into_inner()).check(&email, &address, Instant::now()) {
        let mut error = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "tooManyAttempts", "too many failed sign-ins; try again later");
        error.retry_after = Some(wait.as_secs().max(1));
        return Err(error);
    }
    let credentials = state.store.users().credentials(&email).await.map_err(ApiError::internal)?;
    // Hash even for unknown e-mails so response time does not reveal which addresses exist.
    let stored = credentials.as_ref().map(|c| c.password_hash.clone()).unwrap_or_else(|| DUMMY_HASH.to_owned());
    let password = request.password;
    let matches = tokio::task::spawn_blocking(move || storage::password::verify(&password, &stored)).await.map_err(ApiError::internal)?;
    let Some(user) = credentials.filter(|_| matches) else {
        tracing::info!(%email, %address, "failed login");
        state.login_limiter.lock().unwrap_or_else(|p| p.into_inner()).failed(&email, &address, Instant::now());
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "incorrectCredentials", "wrong e-mail or password"));
    };
    state.login_limiter.lock().unwrap_or_else(|p| p.into_inner()).succeeded(&email);
    let company = state.store.companies().get(&user.company_id).await.map_err(ApiError::internal)?;
    let claims = Claims { user_id: user.id.clone(), company_id: user.company_id.clone(), role: user.role, expires_at: unix_now() + state.token_ttl_secs };
    let response = LoginResponse {
        token: state.signer.issue(&claims),
        user_id: user.id,
        company_id: user.company_id,
        variants: company.as_ref().map(|c| c.variants.into()).unwrap_or_default(),
        company_name: company.map(|c| c.company_name).unwrap_or_default(),
        role: user.role,
        expires_at: claims.expires_at,
    };
    Ok(warp::reply::json(&response).into_response())
}

/// An argon2 hash of a random string, verified against when the e-mail is unknown.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3rk7rGPdxfNMsg4Wd1GeRvb8qbfsjKx6IvK8hszrk7Q";

/// `POST /api/auth/signup` body: an account and the company (id or name) it joins. A `role`
/// field is accepted and ignored: new users get role 2 (spec §6).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
#[schemars(extend("required" = ["email", "password", "company"]))]
pub struct SignupRequest {
    #[serde(flatten)]
    pub account: AccountInput,
    #[schemars(pattern(crate::validation::schema::NOT_BLANK))]
    pub company: String,
    #[schemars(skip)]
    pub role: Option<serde_json::Value>,
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

/// Creates a staff user in a company (administrators only).
pub async fn signup(mut call: Call) -> Result<warp::reply::Response, ApiError> {
    call.admin()?;
    let request: SignupRequest = call.json().await?;
    let account = validate_account(&request.account)?;
    let company_id = resolve_company(&call.state, &request.company).await?;
    let id = call
        .state
        .store
        .users()
        .create(&account.email, &account.password, ROLE_STAFF, &company_id)
        .await
        .map_err(|e| ApiError::store(e, "user", "duplicateEmail"))?;
    let body = CreatedUser { id, email: account.email, role: ROLE_STAFF, company_id };
    Ok(warp::reply::with_status(warp::reply::json(&body), StatusCode::CREATED).into_response())
}

/// A company's id from its id or its name (the admin panel sends either).
pub async fn resolve_company(state: &AppState, company: &str) -> Result<String, ApiError> {
    let company = company.trim();
    if company.is_empty() {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "companyRequired", "name the company"));
    }
    if let Some(found) = state.store.companies().get(company).await.map_err(ApiError::internal)? {
        return Ok(found.id);
    }
    match state.store.companies().find_by_name(company).await.map_err(ApiError::internal)? {
        Some(found) => Ok(found.id),
        None => Err(ApiError::not_found("company")),
    }
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

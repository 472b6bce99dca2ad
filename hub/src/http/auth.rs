//! `POST /api/auth/login` (throttled per account and address), `POST /api/auth/logout` (revokes
//! the caller's token) and `POST /api/auth/signup`. Tokens are checked by `crate::auth::verify`
//! (through `call::verify`, re-exported here for the route table and the browser socket).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::audit::Audit;
pub use super::bodies::CreatedUser;
use super::bodies::VariantsJson;
use super::call::Call;
pub use super::call::verify;
use super::caller::{Admin, Caller};
use super::error::ApiError;
use super::state::AppState;
use crate::auth::roles::ROLE_STAFF;
use crate::auth::token::{Claims, TokenSigner, unix_now};
use crate::domain::companies;
use mat_api::account::{AccountInput, validate_account};

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
    let credentials = state.store.hub_wide().accounts().credentials(&email).await.map_err(ApiError::internal)?;
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
    let company = state.store.hub_wide().companies().get(&user.company_id).await.map_err(ApiError::internal)?;
    let claims = Claims {
        token_id: TokenSigner::new_token_id(),
        user_id: user.id.clone(),
        company_id: user.company_id.clone(),
        role: user.role,
        expires_at: unix_now() + state.token_ttl_secs,
    };
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

/// Revokes the caller's token: stored (so a restart keeps it revoked) and held in memory until it
/// expires. Later calls and browser sockets with it answer 401. 204 No Content.
pub async fn logout(call: Caller) -> Result<warp::reply::Response, ApiError> {
    let claims = call.claims();
    let state = &call.state;
    let expires_at = i64::try_from(claims.expires_at).unwrap_or(i64::MAX);
    state.store.hub_wide().revoked_tokens().revoke(&claims.token_id, expires_at).await.map_err(ApiError::storage)?;
    state.revoked_tokens.lock().unwrap_or_else(|p| p.into_inner()).revoke(&claims.token_id, claims.expires_at, unix_now());
    Ok(warp::reply::with_status(warp::reply(), StatusCode::NO_CONTENT).into_response())
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
    #[schemars(pattern(mat_api::schema::NOT_BLANK))]
    pub company: String,
    #[schemars(skip)]
    pub role: Option<serde_json::Value>,
}

/// Creates a staff user in a company (administrators only).
pub async fn signup(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let request: SignupRequest = call.json().await?;
    let account = validate_account(&request.account)?;
    let company_id = companies::resolve(call.state.store.hub_wide(), &request.company).await?;
    let id = call
        .state
        .store
        .hub_wide()
        .accounts()
        .create(&account.email, &account.password, ROLE_STAFF, &company_id)
        .await
        .map_err(|e| ApiError::store(e, "user", "duplicateEmail"))?;
    let summary = format!("created user {} (role {ROLE_STAFF})", account.email);
    Audit { company_id: &company_id, action: "user.create", entity_type: "user", entity_id: &id, summary }.record(&call).await;
    let body = CreatedUser { id, email: account.email, role: ROLE_STAFF, company_id };
    Ok(warp::reply::with_status(warp::reply::json(&body), StatusCode::CREATED).into_response())
}

/// Hands the shared state to a handler.
pub fn with_state(state: Arc<AppState>) -> impl Filter<Extract = (Arc<AppState>,), Error = Infallible> + Clone {
    warp::any().map(move || state.clone())
}

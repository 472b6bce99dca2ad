//! Who is calling, by type. A route's [`Access`] names the type its handler receives: a `Public`
//! route gets the bare [`Call`], a `User` route a [`Caller`] (a valid, unexpired, unrevoked
//! token of a person: role 1 or 2), an `Admin` route an [`Admin`] (a caller of role 1), a `Board`
//! route a [`BoardReader`] (a person, or a paired ward screen limited to its unit). All are built only here, by
//! [`Verify::verify`], before the handler runs and before its body is read; a handler whose
//! type does not match its route's access does not compile (`api_route!`).
//!
//! A caller reaches its company's data only through [`Caller::store`], a `CompanyStore` of the
//! token's company, and its company's devices through [`Caller::device`] and
//! [`Caller::device_by_serial`]: a handler has no company id to pass.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use actors::catalog::DeviceInfo;
use storage::CompanyStore;
use warp::http::StatusCode;
use warp::{Filter, Rejection};

use super::api::Access;
use super::auth::verify;
use super::call::{Call, call, path_segment};
use super::error::{ApiError, reply};
use super::state::AppState;
use crate::auth::roles::{ROLE_ADMIN, ROLE_BOARD};
use crate::auth::token::{Claims, unix_now};

/// What a handler of a route with this access receives, built from the call.
pub trait Verify: Sized + Send + 'static {
    /// The route access this type stands for (the route table documents it).
    const ACCESS: Access;
    /// Checks the call: 401 without a valid token, 403 for a role that may not call.
    fn verify(call: Call) -> Result<Self, ApiError>;
}

/// The type a route's handler receives, by the [`Access`] variant `api_route!` names.
pub mod by_access {
    /// `Access::Public`: the unauthenticated call.
    pub type Public = super::Call;
    /// `Access::User`: a signed-in caller.
    pub type User = super::Caller;
    /// `Access::Admin`: an administrator.
    pub type Admin = super::Admin;
    /// `Access::Board`: a signed-in person or a paired ward screen (the board's reads).
    pub type Board = super::BoardReader;
}

impl Verify for Call {
    const ACCESS: Access = Access::Public;

    fn verify(call: Call) -> Result<Self, ApiError> {
        Ok(call)
    }
}

/// A signed-in caller: the call and the claims of its checked token.
pub struct Caller {
    call: Call,
    claims: Claims,
}

impl Verify for Caller {
    const ACCESS: Access = Access::User;

    fn verify(call: Call) -> Result<Self, ApiError> {
        let claims = bearer_claims(&call)?;
        if claims.role == ROLE_BOARD {
            return Err(ApiError::new(StatusCode::FORBIDDEN, "boardReadOnly", "a ward screen only reads its unit's board"));
        }
        Ok(Caller { call, claims })
    }
}

/// The claims of the call's bearer token: valid, unexpired and not revoked (401 otherwise).
fn bearer_claims(call: &Call) -> Result<Claims, ApiError> {
    let header = call.authorization().ok_or_else(|| ApiError::unauthorized("an Authorization: Bearer token is required"))?;
    let token = header.strip_prefix("Bearer ").ok_or_else(|| ApiError::unauthorized("use Authorization: Bearer <token>"))?;
    verify(&call.state, token)
}

impl Caller {
    /// The claims of the caller's token.
    pub fn claims(&self) -> &Claims {
        &self.claims
    }

    /// The caller's user id.
    pub fn user_id(&self) -> &str {
        &self.claims.user_id
    }

    /// The caller's company's data: every query filters on the token's company.
    pub fn store(&self) -> CompanyStore<'_> {
        self.call.state.store.company(&self.claims.company_id)
    }

    /// Checks that `user_id` (a path's `{userId}`) is the caller: one user never acts as another
    /// (404 otherwise).
    pub fn acts_as(&self, user_id: &str) -> Result<(), ApiError> {
        if self.claims.user_id != user_id {
            return Err(ApiError::not_found("user"));
        }
        Ok(())
    }

    /// A device of the caller's company by id (404 for an unknown id or another company's).
    pub fn device(&self, id: &str) -> Result<Arc<DeviceInfo>, ApiError> {
        self.call.state.catalog.get_in_company(id, &self.claims.company_id).ok_or_else(|| ApiError::not_found("device"))
    }

    /// A device of the caller's company by hardware serial (a percent-encoded path segment).
    pub fn device_by_serial(&self, serial: &str) -> Result<Arc<DeviceInfo>, ApiError> {
        self.call
            .state
            .catalog
            .by_serial_in_company(&path_segment(serial), &self.claims.company_id)
            .ok_or_else(|| ApiError::not_found("device"))
    }

    /// Whether `device_id` is a device of the caller's company (a parent's members are checked
    /// one by one).
    pub fn owns_device(&self, device_id: &str) -> bool {
        self.call.state.catalog.get_in_company(device_id, &self.claims.company_id).is_some()
    }
}

impl Deref for Caller {
    type Target = Call;

    fn deref(&self) -> &Call {
        &self.call
    }
}

impl DerefMut for Caller {
    fn deref_mut(&mut self) -> &mut Call {
        &mut self.call
    }
}

/// A signed-in administrator (role 1).
pub struct Admin(Caller);

impl Verify for Admin {
    const ACCESS: Access = Access::Admin;

    fn verify(call: Call) -> Result<Self, ApiError> {
        let caller = Caller::verify(call)?;
        if caller.claims.role != ROLE_ADMIN {
            return Err(ApiError::new(StatusCode::FORBIDDEN, "forbidden", "only an administrator may do this"));
        }
        Ok(Admin(caller))
    }
}

impl Deref for Admin {
    type Target = Caller;

    fn deref(&self) -> &Caller {
        &self.0
    }
}

impl DerefMut for Admin {
    fn deref_mut(&mut self) -> &mut Caller {
        &mut self.0
    }
}

/// The caller of one of the board's reads: a person (role 1 or 2, every device of the company) or
/// a paired ward screen (role 3, its unit's devices only). Its handlers filter what they answer
/// by [`BoardReader::scope`].
pub struct BoardReader {
    caller: Caller,
    /// The unit of a ward screen; `None` for a person.
    unit: Option<String>,
}

impl Verify for BoardReader {
    const ACCESS: Access = Access::Board;

    fn verify(call: Call) -> Result<Self, ApiError> {
        let claims = bearer_claims(&call)?;
        let mut unit = None;
        if claims.role == ROLE_BOARD {
            let mut screens = call.state.board_screens.lock().unwrap_or_else(|p| p.into_inner());
            unit = screens.unit(&claims.user_id, &claims.company_id).map(str::to_owned);
            if unit.is_none() {
                return Err(crate::auth::verify::Refusal::Unpaired.into());
            }
            if let Some(seen) = screens.seen(&claims.user_id, unix_now()) {
                super::ward_screens::store_last_seen(call.state.clone(), claims.company_id.clone(), claims.user_id.clone(), seen);
            }
        }
        Ok(BoardReader { caller: Caller { call, claims }, unit })
    }
}

impl BoardReader {
    /// The ward screen's unit; `None` for a person.
    pub fn unit(&self) -> Option<&str> {
        self.unit.as_deref()
    }

    /// The devices the caller may read: `None` for every device of the company (a person),
    /// the unit's devices and their members for a ward screen.
    pub async fn scope(&self) -> Result<Option<std::collections::HashSet<Arc<str>>>, ApiError> {
        let Some(unit) = &self.unit else { return Ok(None) };
        super::ward_screens::unit_devices(self.caller.store(), unit).await.map(Some).map_err(ApiError::internal)
    }
}

impl Deref for BoardReader {
    type Target = Caller;

    fn deref(&self) -> &Caller {
        &self.caller
    }
}

impl DerefMut for BoardReader {
    fn deref_mut(&mut self) -> &mut Caller {
        &mut self.caller
    }
}

/// A call refused by its route's access check, answered by the route itself.
#[derive(Debug)]
pub struct Refused(ApiError);

impl warp::reject::Reject for Refused {}

/// The call of a route with this body limit, verified as `T`: refused calls reject with
/// [`Refused`], which [`answer_refused`] turns into the route's own answer.
pub fn verified<T: Verify>(state: Arc<AppState>, limit: u64) -> impl Filter<Extract = (T,), Error = Rejection> + Clone {
    call(state, limit).and_then(|call: Call| async move { T::verify(call).map_err(|error| warp::reject::custom(Refused(error))) })
}

/// Answers a [`Refused`] call with its error; passes every other rejection on (another route
/// may match).
pub async fn answer_refused(rejection: Rejection) -> Result<warp::reply::Response, Rejection> {
    match rejection.find::<Refused>() {
        Some(Refused(error)) => Ok(reply(error)),
        None => Err(rejection),
    }
}

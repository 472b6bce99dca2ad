//! `GET /api/deviceTypes`: the device-type table (`mat_protocol::device_type`), so the client
//! reads routes, page families, shapes and capabilities from the hub instead of keeping a copy.

use mat_protocol::device_type::DeviceType;

use super::call::Call;
use super::error::ApiError;
use super::json::ok;

/// Every device type and what follows from it.
pub async fn list(call: Call) -> Result<warp::reply::Response, ApiError> {
    call.claims()?;
    Ok(ok(&DeviceType::table()))
}

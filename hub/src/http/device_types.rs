//! `GET /api/deviceTypes`: the device-type table (`mat_protocol::device_type`), so the client
//! reads routes, page families, shapes and capabilities from the hub instead of keeping a copy.

use mat_protocol::device_type::DeviceType;

use super::caller::Caller;
use super::error::ApiError;
use super::json::ok;

/// Every device type and what follows from it.
pub async fn list(_call: Caller) -> Result<warp::reply::Response, ApiError> {
    Ok(ok(&DeviceType::table()))
}

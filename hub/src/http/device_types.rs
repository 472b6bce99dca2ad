//! `GET /api/deviceTypes`: the device-type table (`mat_protocol::device_type`), so the client
//! reads routes, page families, shapes and capabilities from the hub instead of keeping a copy;
//! and `GET /api/pressureScale`, the figures it converts pressures with (`mat_protocol::scale`).

use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::PressureScale;

use super::caller::BoardReader;
use super::error::ApiError;
use super::json::ok;

/// Every device type and what follows from it.
pub async fn list(_call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    Ok(ok(&DeviceType::table()))
}

/// The pressure unit and the units a user may read pressures in (`mat_protocol::scale`).
pub async fn pressure_scale(_call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    Ok(ok(&PressureScale::hub()))
}

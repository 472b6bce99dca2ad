//! `POST /api/device/{id}/secret`: an administrator of the device's company rotates its secret.
//!
//! The new secret is answered once (the hub keeps only its SHA-256, like at registration). The
//! stored hash and the audit entry change in one transaction; then the catalogue takes the new
//! hash, so the old secret stops working for new connections at once, and a device connected
//! with the old secret is disconnected (docs/decisions.md: a rotated secret is usually a leaked
//! one, and a connection made with it must not outlive it).

use actors::catalog::DeviceInfo;
use storage::device_secret;
use warp::http::StatusCode;

use super::audit::Audit;
use super::caller::Admin;
use super::error::ApiError;
use super::json::ok;
use super::registration::RegisteredDevice;

/// Rotates a device's secret; answers the device with its new secret.
pub async fn rotate(id: String, call: Admin) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    if device.secret_hash.is_empty() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "deviceHasNoSecret",
            "this device never connects itself; rotate its sub-devices' secrets",
        ));
    }
    let secret = device_secret::generate();
    let hash = device_secret::hash(&secret);
    let audit = Audit {
        company_id: &call.claims().company_id,
        action: "device.rotateSecret",
        entity_type: "device",
        entity_id: &device.id,
        summary: format!("rotated the secret of {} ({})", device.serial, device.name),
    };
    let entry = audit.entry(&call).await;
    call.store().devices().rotate_secret(&device.id, &hash, &entry).await.map_err(|e| ApiError::store(e, "device", "duplicate"))?;
    call.state.catalog.upsert(DeviceInfo { secret_hash: hash, ..(*device).clone() });
    call.state.ingest.secrets_rotated();
    let body = RegisteredDevice {
        id: device.id.to_string(),
        hardware_serial: device.serial.clone(),
        device_type: device.device_type,
        name: device.name.clone(),
        device_secret: Some(secret),
        members: Vec::new(),
    };
    Ok(ok(&body))
}

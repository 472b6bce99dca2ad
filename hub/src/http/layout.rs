//! `GET`, `PUT` and `POST /api/LayoutSettings/{userId}`: the caller's own layout settings.
//! GET answers the defaults until the first save; PUT and POST both save (the first save
//! creates, later ones update) and force `is3Dmode` false.

use warp::Reply;
use warp::http::StatusCode;

use super::caller::Caller;
use super::error::ApiError;
use super::json::ok;
use mat_api::layout::{LayoutJson, layout_json, validate_layout};

/// The caller's settings, or the defaults.
pub async fn get(user_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let stored = call.store().layouts().get(call.user_id()).await.map_err(ApiError::internal)?;
    Ok(ok(&stored.as_ref().map(layout_json).unwrap_or_default()))
}

/// Saves the caller's settings: 201 when created, 200 when updated.
pub async fn save(user_id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let input: LayoutJson = call.json().await?;
    let settings = validate_layout(&input)?;
    let created = call.store().layouts().save(call.user_id(), &settings).await.map_err(|e| ApiError::store(e, "user", "duplicate"))?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok(warp::reply::with_status(warp::reply::json(&layout_json(&settings)), status).into_response())
}

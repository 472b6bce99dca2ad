//! `GET /api/userDevices` and `GET /api/deviceConfCompany`, always scoped to the caller's company.

use std::collections::HashMap;
use std::sync::Arc;

use actors::browser::DeviceConfEvent;
use serde::{Deserialize, Serialize};
use warp::{Rejection, Reply};

use super::error::ApiError;
use super::state::AppState;
use crate::auth::token::Claims;

/// `{ "$oid": id }`, the id shape of spec §3.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Oid {
    #[serde(rename = "$oid")]
    pub oid: String,
}

impl Oid {
    fn new(id: &str) -> Self {
        Oid { oid: id.to_owned() }
    }
}

/// A device as the client reads it (spec §3 field names).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceJson {
    #[serde(rename = "_id")]
    pub id: Oid,
    pub name: String,
    pub bed: String,
    pub room: String,
    pub building: String,
    pub floor: String,
    pub health_system: String,
    pub device_type: String,
    pub hardware_serial: String,
    pub company: String,
    pub current_patient: Option<String>,
    pub number_of_subdevices: i64,
    pub parent: Option<Oid>,
    pub system: SystemJson,
}

/// Sub-devices of a parent.
#[derive(Debug, Serialize, Deserialize)]
pub struct SystemJson {
    pub devices: Vec<String>,
}

/// A device configuration with its live status.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceConfJson {
    pub device_id: Oid,
    pub company: String,
    pub image_saved: bool,
    #[serde(flatten)]
    pub status: DeviceConfEvent,
}

/// The caller's company's devices.
pub async fn user_devices(state: Arc<AppState>, claims: Claims) -> Result<warp::reply::Response, Rejection> {
    let company = state.store.companies().get(&claims.company_id).await.map_err(ApiError::internal)?;
    let company_name = company.map(|c| c.company_name).unwrap_or_default();
    let devices = state.store.devices().list_company(&claims.company_id).await.map_err(ApiError::internal)?;
    let body: Vec<DeviceJson> = devices
        .into_iter()
        .map(|d| DeviceJson {
            id: Oid::new(&d.id),
            name: d.name,
            bed: d.bed,
            room: d.room,
            building: d.building,
            floor: d.floor,
            health_system: d.health_system,
            device_type: d.device_type,
            hardware_serial: d.hardware_serial,
            company: company_name.clone(),
            current_patient: d.current_patient,
            number_of_subdevices: d.number_of_subdevices,
            parent: d.parent_id.as_deref().map(Oid::new),
            system: SystemJson { devices: d.member_ids },
        })
        .collect();
    Ok(warp::reply::json(&body).into_response())
}

#[derive(Deserialize)]
struct Envelope {
    data: DeviceConfEvent,
}

/// The caller's company's device configurations, with the live status the cards show.
pub async fn device_conf_company(state: Arc<AppState>, claims: Claims) -> Result<warp::reply::Response, Rejection> {
    let confs = state.store.device_confs().list_company(&claims.company_id).await.map_err(ApiError::internal)?;
    let live: HashMap<String, DeviceConfEvent> = state
        .bus
        .company(&claims.company_id)
        .statuses()
        .iter()
        .filter_map(|bytes| rmp_serde::from_slice::<Envelope>(bytes).ok())
        .map(|e| (e.data.device_id.clone(), e.data))
        .collect();
    let company = state.store.companies().get(&claims.company_id).await.map_err(ApiError::internal)?.map(|c| c.company_name).unwrap_or_default();
    let body: Vec<DeviceConfJson> = confs
        .into_iter()
        .filter_map(|conf| {
            let status = live.get(&conf.device_id)?.clone();
            Some(DeviceConfJson { device_id: Oid::new(&conf.device_id), company: company.clone(), image_saved: conf.image_saved, status })
        })
        .collect();
    Ok(warp::reply::json(&body).into_response())
}

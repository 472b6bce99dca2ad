//! Devices, always scoped to the caller's company: `GET /api/userDevices`,
//! `GET /api/deviceConfCompany`, `GET /api/deviceConfiguration/{id}`, `PUT /api/device/{id}`,
//! `GET /api/device/obtainList/{company}/{type}/{x}`, `GET /api/ForceDeviceApi/{id}` and
//! `GET /api/standard/pressureMapLogs/{serial}`.

use std::collections::HashMap;
use std::sync::Arc;

use actors::actor::session_commands::{ClockReading, CommandOutcome, DeviceCommand};
use actors::browser::{DeviceConfEvent, SideStatus};
use actors::catalog::DeviceInfo;
use actors::live_board::LiveMap;
use mat_core::machine::pressure_ulcer::{DEFAULT_REPOSITIONING_INTERVAL, RepositioningTier};
use mat_core::machine::status::{CardStatus, PatientStatus};
use mat_protocol::device_type::DeviceType;
use serde::{Deserialize, Serialize};
use storage::model::{Device, DeviceConf};
use warp::http::StatusCode;

use super::audit::Audit;
use super::call::path_segment;
use super::caller::{BoardReader, Caller};
use super::error::ApiError;
use super::json::{Oid, ok};
use super::state::AppState;
use crate::domain::device_commands;
use mat_api::device::{DeviceSettingsInput, validate_settings};

/// A device as the client reads it (spec §3 field names).
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
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
    /// The patient at the bedside (beds, seats, room sets): id and name, `null` when free.
    pub current_patient: Option<String>,
    pub current_patient_name: Option<String>,
    pub number_of_subdevices: i64,
    pub parent: Option<Oid>,
    pub system: SystemJson,
}

/// Sub-devices of a parent.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SystemJson {
    pub devices: Vec<String>,
}

impl DeviceJson {
    fn new(device: Device, company_name: &str) -> Self {
        DeviceJson {
            id: Oid::new(&device.id),
            name: device.name,
            bed: device.bed,
            room: device.room,
            building: device.building,
            floor: device.floor,
            health_system: device.health_system,
            device_type: device.device_type,
            hardware_serial: device.hardware_serial,
            company: company_name.to_owned(),
            current_patient: device.current_patient,
            current_patient_name: device.current_patient_name,
            number_of_subdevices: device.number_of_subdevices,
            parent: device.parent_id.as_deref().map(Oid::new),
            system: SystemJson { devices: device.member_ids },
        }
    }
}

/// A device configuration (spec §3) with the live status the cards show.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceConfJson {
    pub device_id: Oid,
    pub company: String,
    pub image_saved: bool,
    pub device_functional: bool,
    pub patient_status: PatientStatus,
    pub state_code: Option<u8>,
    pub card_status: CardStatus,
    pub hardware_serial: String,
    pub device_type: DeviceType,
    pub name: String,
    /// Escalation tier of the repositioning clock (`ok`, `dueSoon`, `due`, `overdue`).
    pub repositioning: RepositioningTier,
    /// An alarm waits to be attended (the card's Attend button).
    pub unattended_alarm: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SideStatus>,
}

/// `GET /api/ForceDeviceApi/{id}`: a Force Mat's four channels (0–4095), their sum, and the hub
/// time of the frame (`null` before any).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForceValues {
    pub presure_value: Vec<u16>,
    pub total: u32,
    pub hub_time_ms: Option<u64>,
}

/// `GET /api/standard/pressureMapLogs/{serial}`: the latest map (`null` before any) and its sum.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PressureMapLog {
    pub creation_date: Option<DateJson>,
    pub pressure_map: Option<Vec<Vec<u16>>>,
    pub pressures: u64,
}

/// `{ "$date": ms }`, the date shape of spec §3.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct DateJson {
    #[serde(rename = "$date")]
    pub date: u64,
}

/// `GET /api/device/{id}/repositioning`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RepositioningClock {
    /// The interval set, minutes.
    pub minutes: u64,
    pub tier: RepositioningTier,
    /// Whole seconds until the next turn is due (0 once due), `null` while nobody lies on the mat.
    pub due_in_seconds: Option<u64>,
    /// Whole seconds the mat has been empty while its load episode lives on (the patient is up
    /// for less than `offloadSeconds`: the countdown runs on); `null` while someone is on it or
    /// the clock is at rest.
    pub unloaded_for_seconds: Option<u64>,
    /// How long the mat must stay empty for the load episode to end, seconds.
    pub offload_seconds: u64,
    pub min_minutes: i64,
    pub max_minutes: i64,
    /// The latest posture (`Supine`, `Prone`, `Left Lateral`, `Right Lateral`, `Seated`,
    /// `No Supine`) of a mat that reads postures, `null` while nobody is present or on a seat.
    pub posture: Option<String>,
    /// Calibrated probability, 0–1, that the posture is right.
    pub posture_confidence: Option<f32>,
    /// Whether the posture is certain (`mat_core::machine::posture::CONFIDENT`); an uncertain one
    /// takes no turn decision and is shown as such.
    pub posture_certain: Option<bool>,
}

/// `PUT /api/device/{id}/repositioning`: the interval now applied, minutes.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct RepositioningInterval {
    pub minutes: u64,
}

/// `{x}` of `obtainList`: a page of 10 from 1, or 0 for all.
pub fn page_or_all_schema(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "integer", "minimum": 0, "maximum": usize::MAX })
}

async fn company_name(call: &Caller) -> Result<String, ApiError> {
    Ok(call.store().profile().get().await.map_err(ApiError::internal)?.map(|c| c.company_name).unwrap_or_default())
}

/// The live statuses of a company's devices, by device id (the live board's).
fn live_statuses(state: &AppState, company_id: &str) -> HashMap<String, DeviceConfEvent> {
    state.board.statuses(company_id).into_iter().map(|status| (status.device_id.clone(), status)).collect()
}

fn conf_json(conf: DeviceConf, status: DeviceConfEvent, company: &str) -> DeviceConfJson {
    DeviceConfJson {
        device_id: Oid::new(&conf.device_id),
        company: company.to_owned(),
        image_saved: conf.image_saved,
        device_functional: status.device_functional,
        patient_status: status.patient_status,
        state_code: status.state_code,
        card_status: status.card_status,
        hardware_serial: status.hardware_serial,
        device_type: status.device_type,
        name: status.name,
        repositioning: status.repositioning,
        unattended_alarm: status.unattended_alarm,
        sides: status.sides,
    }
}

/// The caller's company's devices.
pub async fn user_devices(call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    let company = company_name(&call).await?;
    let scope = call.scope().await?;
    let devices = call.store().devices().list().await.map_err(ApiError::internal)?;
    let shown = devices.into_iter().filter(|d| scope.as_ref().is_none_or(|scope| scope.contains(d.id.as_str())));
    Ok(ok(&shown.map(|d| DeviceJson::new(d, &company)).collect::<Vec<_>>()))
}

/// The caller's company's device configurations, with the live status the cards show.
pub async fn device_conf_company(call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    let scope = call.scope().await?;
    let mut confs = call.store().device_confs().list().await.map_err(ApiError::internal)?;
    confs.retain(|conf| scope.as_ref().is_none_or(|scope| scope.contains(conf.device_id.as_str())));
    let mut live = live_statuses(&call.state, &call.claims().company_id);
    let company = company_name(&call).await?;
    let body: Vec<DeviceConfJson> =
        confs.into_iter().filter_map(|conf| live.remove(&conf.device_id).map(|status| conf_json(conf, status, &company))).collect();
    Ok(ok(&body))
}

/// One device's configuration and live status.
pub async fn device_configuration(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.device(&id)?;
    let conf = call
        .store()
        .device_confs()
        .list()
        .await
        .map_err(ApiError::internal)?
        .into_iter()
        .find(|c| c.device_id == id)
        .ok_or_else(|| ApiError::not_found("device"))?;
    let status = call.state.board.status(&call.claims().company_id, &id).ok_or_else(|| ApiError::not_found("device"))?;
    let company = company_name(&call).await?;
    Ok(ok(&conf_json(conf, status, &company)))
}

/// Renames and relocates a device (name, room and bed required: `deviceParameters`).
pub async fn update(id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let input: DeviceSettingsInput = call.json().await?;
    let settings = validate_settings(&input)?;
    let device = call.store().devices().update_settings(&id, &settings).await.map_err(|e| ApiError::store(e, "device", "duplicate"))?;
    if let Ok(info) = call.device(&id) {
        call.state.catalog.upsert(DeviceInfo { name: device.name.clone(), ..(*info).clone() });
    }
    let summary = format!("{}: name {:?}, room {:?}, bed {:?}", device.hardware_serial, device.name, device.room, device.bed);
    Audit { company_id: &call.claims().company_id, action: "device.update", entity_type: "device", entity_id: &id, summary }
        .record(&call)
        .await;
    let company = company_name(&call).await?;
    Ok(ok(&DeviceJson::new(device, &company)))
}

/// The caller's company's devices of one type. `{company}` must be the caller's company (its id
/// or name); `{x}` is a 1-based page of 10, or 0 for all.
pub async fn obtain_list(company: String, device_type: String, x: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let (company, device_type) = (path_segment(&company), path_segment(&device_type));
    let company_name = company_name(&call).await?;
    if company != call.claims().company_id && company != company_name {
        return Err(ApiError::not_found("company"));
    }
    let device_type = DeviceType::from_name(&device_type)
        .ok_or_else(|| ApiError::new(StatusCode::BAD_REQUEST, "invalidDeviceType", format!("'{device_type}' is not a device type")))?;
    let page: usize = x.parse().map_err(|_| ApiError::new(StatusCode::BAD_REQUEST, "invalidPage", "{x} is a page number, 0 for all"))?;
    let devices = call.store().devices().list_of_type(device_type.name()).await.map_err(ApiError::internal)?;
    let selected: Vec<DeviceJson> = match page {
        0 => devices.into_iter().map(|d| DeviceJson::new(d, &company_name)).collect(),
        n => devices.into_iter().skip((n - 1).saturating_mul(10)).take(10).map(|d| DeviceJson::new(d, &company_name)).collect(),
    };
    Ok(ok(&selected))
}

/// The latest live map of a device (the live board's; `None` before any and after a blank).
fn latest_map(state: &AppState, device: &DeviceInfo) -> Option<Arc<LiveMap>> {
    state.board.latest_map(&device.company_id, &device.id)
}

/// `GET /api/ForceDeviceApi/{id}`: the four channels of a Force Mat (0–4095) and their sum.
pub async fn force_values(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    if device.device_type.frame_shape().map(|(rows, cols, _)| rows * cols) != Some(4) {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "notAForceDevice", "this device has no force channels"));
    }
    let (at, values) = match latest_map(&call.state, &device) {
        Some(map) => (Some(map.hub_time_ms), map.values()),
        None => (None, vec![0; 4]),
    };
    let total: u32 = values.iter().map(|&v| u32::from(v)).sum();
    Ok(ok(&ForceValues { presure_value: values, total, hub_time_ms: at }))
}

/// `GET /api/standard/pressureMapLogs/{serial}`: the device's latest pressure map (spec §3
/// "pressure data update": creationDate.$date, pressureMap), or `pressureMap: null` when it
/// sends nothing.
pub async fn pressure_map_log(serial: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device_by_serial(&serial)?;
    let body = match latest_map(&call.state, &device) {
        Some(live) => {
            let cells = live.values();
            let map: Vec<Vec<u16>> =
                cells.chunks(usize::from(live.cols().max(1))).take(usize::from(live.rows())).map(<[u16]>::to_vec).collect();
            let total: u64 = cells.iter().map(|&v| u64::from(v)).sum();
            PressureMapLog { creation_date: Some(DateJson { date: live.hub_time_ms }), pressure_map: Some(map), pressures: total }
        }
        None => PressureMapLog { creation_date: None, pressure_map: None, pressures: 0 },
    };
    Ok(ok(&body))
}

/// `GET /api/device/{id}/repositioning`: `{ minutes, tier, dueInSeconds, unloadedForSeconds, offloadSeconds, minMinutes,
/// maxMinutes, posture, postureConfidence, postureCertain }` — the interval set for the patient on
/// this device, the escalation tier, whole seconds until the next turn is due (0 once due; `null`
/// while nobody lies on the mat), how long the mat has been empty while its load episode lives
/// on, and the latest posture as the ward board states it (`ward::PostureNow`). `notFound` for
/// types without the clock.
pub async fn get_repositioning(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    // On the device's owner, whichever hub that is (issue 25).
    let (view, posture) = match device_commands::run(&call.state, &device.id, DeviceCommand::ReadClock).await {
        CommandOutcome::Clock(ClockReading { clock: Some(view), posture }) => (view, super::ward::PostureNow::of(posture)),
        CommandOutcome::Clock(_) | CommandOutcome::NoDeviceActor => return Err(ApiError::not_found("repositioning clock")),
        other => return Err(ApiError::device_unavailable(&other)),
    };
    Ok(ok(&RepositioningClock {
        minutes: view.interval.as_secs() / 60,
        tier: view.tier,
        due_in_seconds: view.due_in.map(|d| d.as_secs()),
        unloaded_for_seconds: view.unloaded_for.map(|d| d.as_secs()),
        offload_seconds: view.offload.as_secs(),
        min_minutes: *REPOSITIONING_MINUTES.start(),
        max_minutes: *REPOSITIONING_MINUTES.end(),
        posture: posture.posture,
        posture_confidence: posture.confidence,
        posture_certain: posture.certain,
    }))
}

/// Shortest and longest repositioning interval accepted, minutes (15 min to 24 h).
pub const REPOSITIONING_MINUTES: std::ops::RangeInclusive<i64> = 15..=1440;

/// `PUT /api/device/{id}/repositioning` body: minutes, or `null` for the 2 h default.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RepositioningRequest {
    #[schemars(range(min = *REPOSITIONING_MINUTES.start(), max = *REPOSITIONING_MINUTES.end()))]
    #[serde(deserialize_with = "mat_api::lenient::optional_integer")]
    pub minutes: Option<i64>,
}

/// Sets the repositioning interval of the patient on a device: stored, and applied to the
/// device's clock at once (a turn resets the clock; the interval is how long one position may
/// last). `invalidRepositioningInterval` outside 15–1440 minutes.
pub async fn set_repositioning(id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let request: RepositioningRequest = call.json().await?;
    if request.minutes.is_some_and(|m| !REPOSITIONING_MINUTES.contains(&m)) {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalidRepositioningInterval", "the interval is 15 to 1440 minutes"));
    }
    let device = call.device(&id)?;
    call.store()
        .device_confs()
        .set_repositioning_minutes(&id, request.minutes)
        .await
        .map_err(|e| ApiError::store(e, "device", "duplicate"))?;
    let summary = match request.minutes {
        Some(minutes) => format!("{}: repositioning every {minutes} min", device.serial),
        None => format!("{}: repositioning interval back to the default", device.serial),
    };
    Audit { company_id: &call.claims().company_id, action: "device.repositioning", entity_type: "device", entity_id: &id, summary }
        .record(&call)
        .await;
    let interval = request.minutes.map(|m| std::time::Duration::from_secs(m as u64 * 60)).unwrap_or(DEFAULT_REPOSITIONING_INTERVAL);
    // The interval is stored: the clock takes it on the device's owner, wherever it is (issue 25);
    // parents (horse, room set) have no actor of their own, and a device connected nowhere reads
    // the stored interval when its actor starts.
    let minutes = interval.as_secs() / 60;
    let _ = device_commands::run(&call.state, &device.id, DeviceCommand::SetRepositioningInterval { minutes }).await;
    Ok(ok(&RepositioningInterval { minutes: interval.as_secs() / 60 }))
}

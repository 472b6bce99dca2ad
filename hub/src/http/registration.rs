//! Provisioning (administrators): `POST /api/deviceandconfRegistration`, `POST /api/registerAll`
//! (company, user and device at once) and `POST /api/quickRegistration`.
//!
//! A device never uses its serial as a password: registration issues a random 256-bit secret per
//! device that streams and returns it once; only its SHA-256 is stored (see docs/api.md). The
//! running hub learns the device at once, so it can connect without a restart.

use std::sync::Arc;

use actors::actor::registry::RegistryMsg;
use actors::catalog::DeviceInfo;
use mat_protocol::device_type::DeviceType;
use mat_core::machine::status::PatientStatus;
use rand::Rng;
use serde::{Deserialize, Serialize};
use storage::device_secret;
use storage::model::NewDevice;
use warp::http::StatusCode;

use super::audit::Audit;
use super::auth::{resolve_company, CreatedUser};
use super::caller::{Admin, Caller};
use super::companies::CompanyJson;
use super::error::ApiError;
use super::json::created;
use super::state::AppState;
use crate::auth::roles::ROLE_STAFF;
use mat_api::account::{validate_account, AccountInput};
use mat_api::company::{validate_company, CompanyInput, NAME_MAX};
use mat_api::device::{validate_registration, Registration, RegistrationInput};
use mat_api::lenient::NumberOrText;

/// Length of a quick registration's generated password (spec §9).
pub const QUICK_PASSWORD_CHARS: usize = 12;
/// Domain of a quick registration's generated e-mail.
pub const QUICK_EMAIL_DOMAIN: &str = "quick-registration.invalid";

/// A registered device, with its one-time secret when it streams.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredDevice {
    pub id: String,
    pub hardware_serial: String,
    pub device_type: String,
    pub name: String,
    /// Shown once; the hub keeps only its hash. `None` for parents that never connect.
    pub device_secret: Option<String>,
    /// Sub-devices of a horse or room set, in order.
    pub members: Vec<RegisteredDevice>,
}

/// The members a parent device gets: (serial suffix, name suffix, type).
fn planned_members(registration: &Registration) -> Vec<(String, String, DeviceType)> {
    match registration.device_type {
        DeviceType::SensingHorse => (0..registration.number_of_subdevices)
            .map(|i| {
                let side = if i % 2 == 0 { "left" } else { "right" };
                (format!("-{i}"), format!(" {side} {}", i / 2 + 1), DeviceType::SensingHorseSubdevice)
            })
            .collect(),
        DeviceType::RoomSet => [("-BED", " bed"), ("-SEAT", " seat"), ("-FLOOR", " floor")]
            .into_iter()
            .map(|(serial, name)| (serial.to_owned(), name.to_owned(), DeviceType::ForceMat))
            .collect(),
        _ => Vec::new(),
    }
}

fn new_device(registration: &Registration, company_id: &str, serial: String, name: String, device_type: DeviceType, secret: Option<&str>) -> NewDevice {
    NewDevice {
        name,
        bed: registration.bed.clone(),
        room: registration.room.clone(),
        building: registration.building.clone(),
        floor: registration.floor.clone(),
        health_system: registration.health_system.clone(),
        device_type: device_type.name().to_owned(),
        hardware_serial: serial,
        company_id: company_id.to_owned(),
        number_of_subdevices: registration.number_of_subdevices,
        secret_hash: secret.map(device_secret::hash).unwrap_or_default(),
    }
}

/// Whether any serial this registration would create is taken.
async fn serials_taken(state: &AppState, registration: &Registration) -> Result<bool, ApiError> {
    let mut serials = vec![registration.hardware_serial.clone()];
    serials.extend(planned_members(registration).into_iter().map(|(suffix, _, _)| format!("{}{suffix}", registration.hardware_serial)));
    for serial in serials {
        if state.store.hub_wide().devices().by_serial(&serial).await.map_err(ApiError::internal)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

fn duplicate_serial() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "duplicateSerial", "a device with this hardware serial already exists")
}

/// Creates a device (and its members) in a company, issues secrets, and tells the running hub.
pub async fn register_device(state: &AppState, company_id: &str, registration: &Registration) -> Result<RegisteredDevice, ApiError> {
    if serials_taken(state, registration).await? {
        return Err(duplicate_serial());
    }
    let members = planned_members(registration);
    let store_error = |e| match e {
        storage::StoreError::Duplicate(_) => duplicate_serial(),
        other => ApiError::store(other, "device", "duplicateSerial"),
    };
    let parent_secret = members.is_empty().then(device_secret::generate);
    let parent = new_device(registration, company_id, registration.hardware_serial.clone(), registration.name.clone(), registration.device_type, parent_secret.as_deref());
    let parent_id = state.store.hub_wide().devices().create(&parent).await.map_err(store_error)?;
    let mut registered_members = Vec::new();
    for (serial_suffix, name_suffix, device_type) in &members {
        let secret = device_secret::generate();
        let member = new_device(
            registration,
            company_id,
            format!("{}{serial_suffix}", registration.hardware_serial),
            format!("{}{name_suffix}", registration.name),
            *device_type,
            Some(&secret),
        );
        let id = state.store.hub_wide().devices().create(&member).await.map_err(store_error)?;
        registered_members.push(RegisteredDevice {
            id,
            hardware_serial: member.hardware_serial,
            device_type: member.device_type,
            name: member.name,
            device_secret: Some(secret),
            members: Vec::new(),
        });
    }
    let member_ids: Vec<String> = registered_members.iter().map(|m| m.id.clone()).collect();
    if !member_ids.is_empty() {
        state.store.hub_wide().devices().set_members(&parent_id, &member_ids, company_id).await.map_err(ApiError::internal)?;
    }
    let registered = RegisteredDevice {
        id: parent_id,
        hardware_serial: parent.hardware_serial,
        device_type: parent.device_type,
        name: parent.name,
        device_secret: parent_secret,
        members: registered_members,
    };
    announce(state, company_id, &registered, registration.device_type).await;
    Ok(registered)
}

/// Adds the new devices to the catalogue and has the registry show them (offline) at once.
async fn announce(state: &AppState, company_id: &str, registered: &RegisteredDevice, device_type: DeviceType) {
    let company: Arc<str> = Arc::from(company_id);
    let parent_id: Arc<str> = Arc::from(registered.id.as_str());
    let info = |id: &Arc<str>, device: &RegisteredDevice, device_type: DeviceType, parent: Option<(Arc<str>, usize)>, members: Vec<Arc<str>>| DeviceInfo {
        id: id.clone(),
        serial: device.hardware_serial.clone(),
        company_id: company.clone(),
        device_type,
        name: device.name.clone(),
        parent,
        members,
        secret_hash: device.device_secret.as_deref().map(device_secret::hash).unwrap_or_default(),
        functional: false,
        patient_status: PatientStatus::Correct,
    };
    let member_ids: Vec<Arc<str>> = registered.members.iter().map(|m| Arc::from(m.id.as_str())).collect();
    for (index, (member, id)) in registered.members.iter().zip(&member_ids).enumerate() {
        let member_type = DeviceType::from_name(&member.device_type).unwrap_or(DeviceType::ForceMat);
        state.catalog.upsert(info(id, member, member_type, Some((parent_id.clone(), index)), Vec::new()));
    }
    state.catalog.upsert(info(&parent_id, registered, device_type, None, member_ids.clone()));
    for id in member_ids.iter().chain(std::iter::once(&parent_id)) {
        let device_id = id.clone();
        if let Err(error) = state.actors.registry.call(|reply| RegistryMsg::Registered { device_id, reply }, Some(std::time::Duration::from_secs(5))).await {
            tracing::warn!(%error, device = %id, "the registry did not acknowledge a new device");
        }
    }
}

/// Records the creation of a device (and its members, in the summary) in the audit log; `how`
/// names the call.
async fn audit_device(caller: &Caller, company_id: &str, device: &RegisteredDevice, how: &str) {
    let members = if device.members.is_empty() { String::new() } else { format!(" with {} sub-devices", device.members.len()) };
    let summary = format!("{how}: {} {} ({}){members}", device.device_type, device.hardware_serial, device.name);
    Audit { company_id, action: "device.create", entity_type: "device", entity_id: &device.id, summary }.record(caller).await;
}

/// Records the creation of a company in the audit log.
async fn audit_company(caller: &Caller, company_id: &str, name: &str, how: &str) {
    let summary = format!("{how}: created company {name}");
    Audit { company_id, action: "company.create", entity_type: "company", entity_id: company_id, summary }.record(caller).await;
}

/// Records the creation of a user in the audit log.
async fn audit_user(caller: &Caller, company_id: &str, user_id: &str, email: &str, how: &str) {
    let summary = format!("{how}: created user {email} (role {ROLE_STAFF})");
    Audit { company_id, action: "user.create", entity_type: "user", entity_id: user_id, summary }.record(caller).await;
}

/// `POST /api/deviceandconfRegistration`: registers a device in the company named by `added_by`
/// (its id or name; the caller's company when absent).
pub async fn register(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let input: RegistrationInput = call.json().await?;
    let registration = validate_registration(&input)?;
    let company_id = match input.added_by.as_deref().filter(|c| !c.trim().is_empty()) {
        Some(company) => resolve_company(&call.state, company).await?,
        None => call.claims().company_id.clone(),
    };
    let registered = register_device(&call.state, &company_id, &registration).await?;
    audit_device(&call, &company_id, &registered, "registration").await;
    Ok(created(&registered))
}

/// `POST /api/registerAll` body: a company, its first user and its first device.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(extend("required" = ["company", "user", "device"]))]
pub struct RegisterAllRequest {
    pub company: CompanyInput,
    pub user: AccountInput,
    pub device: RegistrationInput,
}

/// What `registerAll` created; `id` is the company's.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredAll {
    pub id: String,
    pub company: CompanyJson,
    pub user: CreatedUser,
    pub device: RegisteredDevice,
}

/// Creates a company, a staff user and a device. Everything is validated and checked for
/// duplicates before anything is written.
pub async fn register_all(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let request: RegisterAllRequest = call.json().await?;
    let branding = validate_company(&request.company)?;
    let account = validate_account(&request.user)?;
    let registration = validate_registration(&request.device)?;
    let store = call.state.store.hub_wide();
    if store.companies().find_by_name(&branding.company_name).await.map_err(ApiError::internal)?.is_some() {
        return Err(ApiError::new(StatusCode::CONFLICT, "duplicateCompany", "a company with this name already exists"));
    }
    if store.accounts().credentials(&account.email).await.map_err(ApiError::internal)?.is_some() {
        return Err(ApiError::new(StatusCode::CONFLICT, "duplicateEmail", "a user with this e-mail already exists"));
    }
    if serials_taken(&call.state, &registration).await? {
        return Err(duplicate_serial());
    }
    let company_id = store.companies().create_branded(&branding).await.map_err(|e| ApiError::store(e, "company", "duplicateCompany"))?;
    let user_id = store.accounts().create(&account.email, &account.password, ROLE_STAFF, &company_id).await.map_err(|e| ApiError::store(e, "user", "duplicateEmail"))?;
    let device = register_device(&call.state, &company_id, &registration).await?;
    audit_company(&call, &company_id, &branding.company_name, "registerAll").await;
    audit_user(&call, &company_id, &user_id, &account.email, "registerAll").await;
    audit_device(&call, &company_id, &device, "registerAll").await;
    let company = store.companies().get(&company_id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("company"))?;
    let body = RegisteredAll {
        id: company_id.clone(),
        company: company.into(),
        user: CreatedUser { id: user_id, email: account.email, role: ROLE_STAFF, company_id },
        device,
    };
    Ok(created(&body))
}

/// `POST /api/quickRegistration` body.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
#[schemars(extend("required" = ["hardwareSerial", "deviceType"]))]
pub struct QuickRegistrationRequest {
    #[schemars(pattern(mat_api::schema::SERIAL))]
    pub hardware_serial: String,
    #[schemars(schema_with = "mat_api::schema::registrable_device_type")]
    pub device_type: String,
    /// An existing company (id or name); a new company named after the serial when absent.
    pub company: Option<String>,
}

/// What a quick registration created, with the generated credentials (shown once).
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuickRegistration {
    pub email: String,
    pub password: String,
    pub company_id: String,
    pub device: RegisteredDevice,
}

/// The e-mail a quick registration generates from a serial.
pub fn quick_email(serial: &str) -> String {
    format!("admin.{}@{QUICK_EMAIL_DOMAIN}", serial.to_lowercase())
}

/// A random password of [`QUICK_PASSWORD_CHARS`] letters and digits.
pub fn quick_password() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..QUICK_PASSWORD_CHARS).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

/// Registers a device with a generated login for it: `admin.{serial}@…` and a 12-character
/// random password, returned once.
pub async fn quick_register(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let request: QuickRegistrationRequest = call.json().await?;
    let input = RegistrationInput {
        hardware_serial: request.hardware_serial.clone(),
        name: request.hardware_serial.clone(),
        device_type: request.device_type.clone(),
        number_of_subdevices: NumberOrText::Missing,
        ..RegistrationInput::default()
    };
    let registration = validate_registration(&input)?;
    let email = quick_email(&registration.hardware_serial);
    let store = call.state.store.hub_wide();
    if serials_taken(&call.state, &registration).await? {
        return Err(duplicate_serial());
    }
    if store.accounts().credentials(&email).await.map_err(ApiError::internal)?.is_some() {
        return Err(ApiError::new(StatusCode::CONFLICT, "duplicateEmail", "this serial already has a generated login"));
    }
    let company_id = match request.company.as_deref().filter(|c| !c.trim().is_empty()) {
        Some(company) => resolve_company(&call.state, company).await?,
        None => {
            let name: String = registration.hardware_serial.chars().take(NAME_MAX).collect();
            let branding = validate_company(&CompanyInput { company: Some(name), ..CompanyInput::default() })?;
            let id = store.companies().create_branded(&branding).await.map_err(|e| ApiError::store(e, "company", "duplicateCompany"))?;
            audit_company(&call, &id, &branding.company_name, "quickRegistration").await;
            id
        }
    };
    let password = quick_password();
    let user_id = store.accounts().create(&email, &password, ROLE_STAFF, &company_id).await.map_err(|e| ApiError::store(e, "user", "duplicateEmail"))?;
    audit_user(&call, &company_id, &user_id, &email, "quickRegistration").await;
    let device = register_device(&call.state, &company_id, &registration).await?;
    audit_device(&call, &company_id, &device, "quickRegistration").await;
    Ok(created(&QuickRegistration { email, password, company_id, device }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_api::email::is_email;

    #[test]
    fn quick_credentials_are_an_address_and_twelve_random_characters() {
        assert!(is_email(&quick_email("MAT-2024_01.A")));
        let a = quick_password();
        assert_eq!(a.chars().count(), QUICK_PASSWORD_CHARS);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a, quick_password());
    }

    #[test]
    fn parents_get_their_members() {
        let registration = |device_type, n| Registration {
            hardware_serial: "P".into(),
            name: "Parent".into(),
            health_system: String::new(),
            building: String::new(),
            floor: String::new(),
            room: String::new(),
            bed: String::new(),
            device_type,
            number_of_subdevices: n,
        };
        let horse = planned_members(&registration(DeviceType::SensingHorse, 4));
        assert_eq!(horse.len(), 4);
        assert_eq!(horse[0].1, " left 1");
        assert_eq!(horse[1].1, " right 1");
        assert_eq!(horse[3].1, " right 2");
        let room: Vec<String> = planned_members(&registration(DeviceType::RoomSet, 2)).into_iter().map(|m| m.0).collect();
        assert_eq!(room, ["-BED", "-SEAT", "-FLOOR"]);
        assert!(planned_members(&registration(DeviceType::MattressMatIoT, 2)).is_empty());
    }
}

//! Provisioning (administrators): `POST /api/deviceandconfRegistration`, `POST /api/registerAll`
//! (company, user and device at once) and `POST /api/quickRegistration`.
//!
//! The operations are `crate::domain::registration`'s (a device and its family in one storage
//! transaction, secrets issued once, the running hub told); this file reads the bodies, records
//! what was created in the audit log and renders the answers.

use mat_api::account::{AccountInput, validate_account};
use mat_api::company::{CompanyInput, validate_company};
use mat_api::device::{RegistrationInput, validate_registration};
use mat_api::lenient::NumberOrText;
use serde::{Deserialize, Serialize};

use super::audit::Audit;
use super::bodies::{CompanyJson, CreatedUser};
use super::caller::{Admin, Caller};
use super::error::ApiError;
use super::json::created;
use super::state::AppState;
use crate::auth::roles::ROLE_STAFF;
use crate::domain::companies;
pub use crate::domain::registration::RegisteredDevice;
use crate::domain::registration::{self, HubParts};

/// The parts of the running hub a registration writes (hub-wide: a hardware serial is unique
/// across the hub, and an administrator registers in any company) and tells.
fn hub_parts(state: &AppState) -> HubParts<'_> {
    HubParts { store: state.store.hub_wide(), catalog: &state.catalog, registry: &state.actors.registry }
}

/// Records the creation of a device (and its members, in the summary) in the audit log; `how`
/// names the call.
async fn audit_device(caller: &Caller, company_id: &str, device: &RegisteredDevice, how: &str) {
    let members = if device.members.is_empty() { String::new() } else { format!(" with {} sub-devices", device.members.len()) };
    let summary = format!("{how}: {} {} ({}){members}", device.device_type.name(), device.hardware_serial, device.name);
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
        Some(company) => companies::resolve(call.state.store.hub_wide(), company).await?,
        None => call.claims().company_id.clone(),
    };
    let registered = registration::register(hub_parts(&call.state), &company_id, &registration).await?;
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
    let created_all =
        registration::register_all(hub_parts(&call.state), &branding, &account.email, &account.password, &registration).await?;
    let company_id = created_all.company.id.clone();
    audit_company(&call, &company_id, &branding.company_name, "registerAll").await;
    audit_user(&call, &company_id, &created_all.user.id, &created_all.user.email, "registerAll").await;
    audit_device(&call, &company_id, &created_all.device, "registerAll").await;
    let body = RegisteredAll {
        id: company_id.clone(),
        company: created_all.company.into(),
        user: CreatedUser { id: created_all.user.id, email: created_all.user.email, role: ROLE_STAFF, company_id },
        device: created_all.device,
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
    let company = request.company.as_deref().filter(|c| !c.trim().is_empty());
    let quick = registration::quick_register(hub_parts(&call.state), company, &registration).await?;
    if let Some(name) = &quick.created_company {
        audit_company(&call, &quick.company_id, name, "quickRegistration").await;
    }
    audit_user(&call, &quick.company_id, &quick.user.id, &quick.user.email, "quickRegistration").await;
    audit_device(&call, &quick.company_id, &quick.device, "quickRegistration").await;
    Ok(created(&QuickRegistration {
        email: quick.user.email,
        password: quick.password,
        company_id: quick.company_id,
        device: quick.device,
    }))
}

//! Registering devices: a device and its family (a horse's sides, a room set's members) are
//! created in one storage transaction with one naming rule ([`super::device_family`]), by the
//! REST registration calls, the demo and `provision` alike; a running hub then learns them
//! ([`announce`]). Also the compositions of `registerAll` (company, user and device) and
//! `quickRegistration` (a generated login and its device).
//!
//! A device never uses its serial as a password: a device that streams gets a random 256-bit
//! secret, returned once; only its SHA-256 is stored (docs/api.md).

use std::sync::Arc;
use std::time::Duration;

use actors::actor::registry::RegistryMsg;
use actors::catalog::{Catalog, DeviceInfo};
use mat_api::company::{CompanyBranding, CompanyInput, NAME_MAX, validate_company};
use mat_api::device::Registration;
use mat_core::machine::status::PatientStatus;
use mat_protocol::device_type::DeviceType;
use ractor::ActorRef;
use rand::Rng;
use serde::{Deserialize, Serialize};
use storage::model::{Company, NewDevice};
use storage::{HubWide, StoreError, device_secret};

use super::device_family::{PlannedDevice, members};
use super::error::DomainError;
use crate::auth::roles::ROLE_STAFF;

/// Length of a quick registration's generated password (spec §9).
pub const QUICK_PASSWORD_CHARS: usize = 12;
/// Domain of a quick registration's generated e-mail.
pub const QUICK_EMAIL_DOMAIN: &str = "quick-registration.invalid";
/// How long [`announce`] waits for the registry to acknowledge a device.
const REGISTRY_TIMEOUT: Duration = Duration::from_secs(5);

/// A registered device, with its one-time secret when it streams.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredDevice {
    pub id: String,
    pub hardware_serial: String,
    pub device_type: DeviceType,
    pub name: String,
    /// Shown once; the hub keeps only its hash. `None` for parents that never connect.
    pub device_secret: Option<String>,
    /// Sub-devices of a horse or room set, in order.
    pub members: Vec<RegisteredDevice>,
}

impl RegisteredDevice {
    /// The devices of the family that stream (the ones with a secret), members in order.
    pub fn streaming(&self) -> impl Iterator<Item = &RegisteredDevice> {
        std::iter::once(self).chain(&self.members).filter(|d| d.device_secret.is_some())
    }
}

fn duplicate_serial() -> DomainError {
    DomainError::conflict("duplicateSerial", "a device with this hardware serial already exists")
}

/// A storage error of a device write: a duplicate is `duplicateSerial`.
fn device_store_error(error: StoreError) -> DomainError {
    match error {
        StoreError::Duplicate(_) => duplicate_serial(),
        other => DomainError::store("device", "duplicateSerial")(other),
    }
}

/// The family a registration creates: the parent and its members, named by the one rule.
fn planned_family(registration: &Registration) -> (PlannedDevice, Vec<PlannedDevice>) {
    let parent = PlannedDevice {
        serial: registration.hardware_serial.clone(),
        name: registration.name.clone(),
        device_type: registration.device_type,
    };
    let members = members(&registration.hardware_serial, &registration.name, registration.device_type, registration.number_of_subdevices);
    (parent, members)
}

/// `planned` as a row of `registration`'s company and place, with the hash of `secret`.
fn new_device(registration: &Registration, company_id: &str, planned: &PlannedDevice, secret: Option<&str>) -> NewDevice {
    NewDevice {
        name: planned.name.clone(),
        bed: registration.bed.clone(),
        room: registration.room.clone(),
        building: registration.building.clone(),
        floor: registration.floor.clone(),
        health_system: registration.health_system.clone(),
        device_type: planned.device_type.name().to_owned(),
        hardware_serial: planned.serial.clone(),
        company_id: company_id.to_owned(),
        number_of_subdevices: registration.number_of_subdevices,
        secret_hash: secret.map(device_secret::hash).unwrap_or_default(),
    }
}

/// Refuses with `duplicateSerial` when a serial this registration would create is taken: the
/// check compositions make before writing anything else (the transaction of [`create`] is the
/// check that counts).
pub async fn check_serials_free(store: HubWide<'_>, registration: &Registration) -> Result<(), DomainError> {
    let (parent, members) = planned_family(registration);
    for planned in std::iter::once(&parent).chain(&members) {
        if store.devices().by_serial(&planned.serial).await.map_err(DomainError::internal)?.is_some() {
            return Err(duplicate_serial());
        }
    }
    Ok(())
}

/// Creates a device and its family in a company, in one storage transaction, and issues a secret
/// to every device that streams (a parent with members never connects and gets none). A taken
/// serial anywhere in the family is `duplicateSerial` and leaves nothing behind. Registration is
/// hub-wide (`HubWide`): a hardware serial is unique across the hub's companies.
pub async fn create(store: HubWide<'_>, company_id: &str, registration: &Registration) -> Result<RegisteredDevice, DomainError> {
    let (parent, members) = planned_family(registration);
    let parent_secret = members.is_empty().then(device_secret::generate);
    let member_secrets: Vec<String> = members.iter().map(|_| device_secret::generate()).collect();
    let parent_row = new_device(registration, company_id, &parent, parent_secret.as_deref());
    let member_rows: Vec<NewDevice> =
        members.iter().zip(&member_secrets).map(|(m, secret)| new_device(registration, company_id, m, Some(secret))).collect();
    let family = store.devices().create_family(&parent_row, &member_rows).await.map_err(device_store_error)?;
    let registered = |id: String, planned: PlannedDevice, secret: Option<String>, members: Vec<RegisteredDevice>| RegisteredDevice {
        id,
        hardware_serial: planned.serial,
        device_type: planned.device_type,
        name: planned.name,
        device_secret: secret,
        members,
    };
    let members = family
        .member_ids
        .into_iter()
        .zip(members)
        .zip(member_secrets)
        .map(|((id, planned), secret)| registered(id, planned, Some(secret), Vec::new()))
        .collect();
    Ok(registered(family.parent_id, parent, parent_secret, members))
}

/// Adds a registered family to the running hub's catalogue and has the registry show it
/// (offline) at once, so its devices can connect without a restart.
pub async fn announce(catalog: &Catalog, registry: &ActorRef<RegistryMsg>, company_id: &str, registered: &RegisteredDevice) {
    let company: Arc<str> = Arc::from(company_id);
    let parent_id: Arc<str> = Arc::from(registered.id.as_str());
    let info = |id: &Arc<str>, device: &RegisteredDevice, parent: Option<(Arc<str>, usize)>, members: Vec<Arc<str>>| DeviceInfo {
        id: id.clone(),
        serial: device.hardware_serial.clone(),
        company_id: company.clone(),
        device_type: device.device_type,
        name: device.name.clone(),
        parent,
        members,
        secret_hash: device.device_secret.as_deref().map(device_secret::hash).unwrap_or_default(),
        functional: false,
        patient_status: PatientStatus::Correct,
    };
    let member_ids: Vec<Arc<str>> = registered.members.iter().map(|m| Arc::from(m.id.as_str())).collect();
    for (index, (member, id)) in registered.members.iter().zip(&member_ids).enumerate() {
        catalog.upsert(info(id, member, Some((parent_id.clone(), index)), Vec::new()));
    }
    catalog.upsert(info(&parent_id, registered, None, member_ids.clone()));
    for id in member_ids.iter().chain(std::iter::once(&parent_id)) {
        let device_id = id.clone();
        if let Err(error) = registry.call(|reply| RegistryMsg::Registered { device_id, reply }, Some(REGISTRY_TIMEOUT)).await {
            tracing::warn!(%error, device = %id, "the registry did not acknowledge a new device");
        }
    }
}

/// The parts of a running hub a registration writes to (its store) and tells (its catalogue and
/// registry).
#[derive(Clone, Copy)]
pub struct HubParts<'a> {
    /// Where the family is written: hub-wide, as serials are unique across the hub (and so are
    /// e-mails and company names, which `registerAll` and `quickRegistration` check).
    pub store: HubWide<'a>,
    /// The running catalogue, which ingest looks devices up in.
    pub catalog: &'a Catalog,
    /// The device registry, which shows the new devices (offline) at once.
    pub registry: &'a ActorRef<RegistryMsg>,
}

/// Registers a device (and its family) in a company of a running hub: [`create`], then
/// [`announce`].
pub async fn register(hub: HubParts<'_>, company_id: &str, registration: &Registration) -> Result<RegisteredDevice, DomainError> {
    let registered = create(hub.store, company_id, registration).await?;
    announce(hub.catalog, hub.registry, company_id, &registered).await;
    Ok(registered)
}

/// A staff user an administrator created.
#[derive(Debug, Clone)]
pub struct NewStaffUser {
    /// The user's id.
    pub id: String,
    /// The e-mail the user signs in with.
    pub email: String,
}

/// What [`register_all`] created.
#[derive(Debug)]
pub struct RegisteredCompany {
    /// The new company, as stored.
    pub company: Company,
    /// Its first (staff) user.
    pub user: NewStaffUser,
    /// Its first device, with its family and one-time secrets.
    pub device: RegisteredDevice,
}

/// Refuses with `duplicateEmail` when a user has this e-mail.
async fn check_email_free(store: HubWide<'_>, email: &str, message: &str) -> Result<(), DomainError> {
    if store.accounts().credentials(email).await.map_err(DomainError::internal)?.is_some() {
        return Err(DomainError::conflict("duplicateEmail", message));
    }
    Ok(())
}

/// `registerAll`: a company, its first staff user (checked `email` and `password`) and its first
/// device. Everything is checked for duplicates before anything is written.
pub async fn register_all(
    hub: HubParts<'_>,
    branding: &CompanyBranding,
    email: &str,
    password: &str,
    registration: &Registration,
) -> Result<RegisteredCompany, DomainError> {
    let store = hub.store;
    if store.companies().find_by_name(&branding.company_name).await.map_err(DomainError::internal)?.is_some() {
        return Err(DomainError::conflict("duplicateCompany", "a company with this name already exists"));
    }
    check_email_free(store, email, "a user with this e-mail already exists").await?;
    check_serials_free(store, registration).await?;
    let company_id = store.companies().create_branded(branding).await.map_err(DomainError::store("company", "duplicateCompany"))?;
    let user_id =
        store.accounts().create(email, password, ROLE_STAFF, &company_id).await.map_err(DomainError::store("user", "duplicateEmail"))?;
    let device = register(hub, &company_id, registration).await?;
    let company = store.companies().get(&company_id).await.map_err(DomainError::internal)?.ok_or(DomainError::NotFound("company"))?;
    Ok(RegisteredCompany { company, user: NewStaffUser { id: user_id, email: email.to_owned() }, device })
}

/// What [`quick_register`] created: the generated login (password shown once), the company it
/// belongs to and whether that company was created for it.
#[derive(Debug)]
pub struct QuickRegistered {
    /// The generated login.
    pub user: NewStaffUser,
    /// Its generated password (shown once).
    pub password: String,
    /// The company the login and the device belong to.
    pub company_id: String,
    /// The company's name when the registration created it.
    pub created_company: Option<String>,
    /// The registered device, with its family and one-time secrets.
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

/// `quickRegistration`: a device with a generated login for it (`admin.{serial}@…` and a
/// 12-character random password), in an existing company (`company`: its id or name) or, when
/// `None`, a new company named after the serial.
pub async fn quick_register(hub: HubParts<'_>, company: Option<&str>, registration: &Registration) -> Result<QuickRegistered, DomainError> {
    let store = hub.store;
    let email = quick_email(&registration.hardware_serial);
    check_serials_free(store, registration).await?;
    check_email_free(store, &email, "this serial already has a generated login").await?;
    let (company_id, created_company) = match company {
        Some(company) => (super::companies::resolve(store, company).await?, None),
        None => {
            let name: String = registration.hardware_serial.chars().take(NAME_MAX).collect();
            let branding = validate_company(&CompanyInput { company: Some(name), ..CompanyInput::default() })?;
            let id = store.companies().create_branded(&branding).await.map_err(DomainError::store("company", "duplicateCompany"))?;
            (id, Some(branding.company_name))
        }
    };
    let password = quick_password();
    let user_id =
        store.accounts().create(&email, &password, ROLE_STAFF, &company_id).await.map_err(DomainError::store("user", "duplicateEmail"))?;
    let device = register(hub, &company_id, registration).await?;
    Ok(QuickRegistered { user: NewStaffUser { id: user_id, email }, password, company_id, created_company, device })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_api::email::is_email;

    fn registration(serial: &str, device_type: DeviceType) -> Registration {
        Registration {
            hardware_serial: serial.into(),
            name: "Family".into(),
            health_system: String::new(),
            building: String::new(),
            floor: String::new(),
            room: "7".into(),
            bed: String::new(),
            device_type,
            number_of_subdevices: 2,
        }
    }

    #[tokio::test]
    async fn a_family_is_created_whole_or_not_at_all() {
        let store = storage::Store::memory().await.expect("an in-memory store");
        let company = store.hub_wide().companies().create("Clinic", "").await.expect("the company is created");
        let room = create(store.hub_wide(), &company, &registration("R", DeviceType::RoomSet)).await.expect("the registration succeeds");
        assert!(room.device_secret.is_none(), "a parent never connects");
        let serials: Vec<&str> = room.members.iter().map(|m| m.hardware_serial.as_str()).collect();
        assert_eq!(serials, ["R-BED", "R-SEAT", "R-FLOOR"]);
        assert!(room.members.iter().all(|m| m.device_secret.as_deref().is_some_and(|s| s.len() == 43)));
        assert_eq!(room.streaming().count(), 3);
        let stored = store.hub_wide().devices().by_serial("R-SEAT").await.expect("the store answers").expect("it is stored");
        assert!(device_secret::verify(room.members[1].device_secret.as_deref().expect("a member streams"), &stored.secret_hash));
        assert_eq!((stored.parent_id.as_deref(), stored.room.as_str()), (Some(room.id.as_str()), "7"));

        // No check ahead of the transaction: the horse's second side, H-1, is taken, and the
        // parent and first side written before it in the transaction are rolled back.
        create(store.hub_wide(), &company, &registration("H-1", DeviceType::MattressMatIoT)).await.expect("the registration succeeds");
        let before = store.company(&company).devices().list().await.expect("the store answers").len();
        let refused = create(store.hub_wide(), &company, &registration("H", DeviceType::SensingHorse)).await;
        assert!(matches!(refused, Err(DomainError::Conflict { key: "duplicateSerial", .. })), "{refused:?}");
        assert!(store.hub_wide().devices().by_serial("H").await.expect("the store answers").is_none());
        assert!(store.hub_wide().devices().by_serial("H-0").await.expect("the store answers").is_none());
        assert_eq!(store.company(&company).devices().list().await.expect("the store answers").len(), before);
        assert_eq!(store.company(&company).device_confs().list().await.expect("the store answers").len(), before);
    }

    #[test]
    fn quick_credentials_are_an_address_and_twelve_random_characters() {
        assert!(is_email(&quick_email("MAT-2024_01.A")));
        let a = quick_password();
        assert_eq!(a.chars().count(), QUICK_PASSWORD_CHARS);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a, quick_password());
    }
}

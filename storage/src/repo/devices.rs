//! The `device` table: [`HubDevices`] registers devices and reads them across companies (lookup
//! by serial, the start-up catalogue); [`Devices`] is one company's. Creating a device also
//! creates its configuration row.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use crate::error::checked;
use crate::model::{Device, DeviceSettings, NewAuditEntry, NewDevice};
use crate::repo::audit::{BindAudit, CREATE_AUDIT};
use crate::retry::retrying;
use crate::{StoreError, new_id};

const FIELDS: &str = "record::id(id) AS id, name, bed, room, building, floor, health_system, device_type, \
    hardware_serial, record::id(company) AS company_id, current_patient, \
    (IF current_patient THEN type::record('patient', current_patient).name ELSE NONE END) AS current_patient_name, number_of_subdevices, \
    (IF parent THEN record::id(parent) ELSE NONE END) AS parent_id, member_index, \
    members.map(|$m| record::id($m)) AS member_ids, secret_hash";

/// The ids of a family [`HubDevices::create_family`] created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedFamily {
    /// The parent's id.
    pub parent_id: String,
    /// In the order the members were given.
    pub member_ids: Vec<String>,
}

/// The statements of [`HubDevices::create_family`] for a parent and `members` members: `$ids[i]` is
/// device `i`'s id and `$d{i}` its [`NewDevice`] (the parent is device 0).
fn family_transaction(members: usize) -> String {
    let mut statements = String::from("BEGIN TRANSACTION;\nLET $company_ref = type::record('company', $company);\n");
    for index in 0..=members {
        let membership =
            if index == 0 { String::new() } else { format!(", parent = type::record('device', $ids[0]), member_index = {}", index - 1) };
        statements.push_str(&format!(
            "CREATE type::record('device', $ids[{index}]) SET name = $d{index}.name, bed = $d{index}.bed, room = $d{index}.room, \
                building = $d{index}.building, floor = $d{index}.floor, health_system = $d{index}.health_system, \
                device_type = $d{index}.device_type, hardware_serial = $d{index}.hardware_serial, company = $company_ref, \
                number_of_subdevices = $d{index}.number_of_subdevices, secret_hash = $d{index}.secret_hash{membership};\n\
             CREATE device_conf SET device = type::record('device', $ids[{index}]), company = $company_ref;\n"
        ));
    }
    if members > 0 {
        statements
            .push_str("UPDATE type::record('device', $ids[0]) SET members = array::slice($ids, 1).map(|$m| type::record('device', $m));\n");
    }
    statements.push_str("COMMIT TRANSACTION;");
    statements
}

/// Device queries across the hub.
pub struct HubDevices<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

/// One company's devices.
pub struct Devices<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl HubDevices<'_> {
    /// Creates a device and its configuration (not functional, patient status Correct) in one
    /// transaction; returns the device id. A duplicate hardware serial is `StoreError::Duplicate`.
    pub async fn create(&self, device: &NewDevice) -> Result<String, StoreError> {
        retrying(|| async move { Ok(self.create_family(device, &[]).await?.parent_id) }).await
    }

    /// Creates a device family in one transaction: `parent`, its `members` in order (each with
    /// `parent` and `member_index` set, and listed in the parent's `members`) and every device's
    /// configuration. All are created in the parent's company. Nothing is created when any
    /// statement fails: a duplicate hardware serial anywhere in the family (with a stored device or
    /// within the family) is `StoreError::Duplicate` and leaves no device and no configuration.
    pub async fn create_family(&self, parent: &NewDevice, members: &[NewDevice]) -> Result<CreatedFamily, StoreError> {
        retrying(|| async move {
            let ids: Vec<String> = std::iter::repeat_with(new_id).take(members.len() + 1).collect();
            let mut query =
                self.db.query(family_transaction(members.len())).bind(("company", parent.company_id.clone())).bind(("ids", ids.clone()));
            for (index, device) in std::iter::once(parent).chain(members).enumerate() {
                query = query.bind((format!("d{index}"), NewDevice { company_id: parent.company_id.clone(), ..device.clone() }));
            }
            checked(query.await?)?;
            let mut ids = ids.into_iter();
            let parent_id = ids.next().unwrap_or_default();
            Ok(CreatedFamily { parent_id, member_ids: ids.collect() })
        })
        .await
    }

    /// Every device of every company: the hub's catalogue at start-up.
    pub async fn list_all(&self) -> Result<Vec<Device>, StoreError> {
        let mut response = self.db.query(format!("SELECT {FIELDS} FROM device ORDER BY hardware_serial")).await?;
        Ok(response.take(0)?)
    }

    /// The devices of one company, named by a verified board token (a ward screen's socket).
    pub async fn list_of_company(&self, company_id: &str) -> Result<Vec<Device>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM device WHERE company = type::record('company', $company) ORDER BY hardware_serial"))
            .bind(("company", company_id.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }

    /// The device with this serial, in any company (device authentication).
    pub async fn by_serial(&self, serial: &str) -> Result<Option<Device>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM device WHERE hardware_serial = $serial LIMIT 1"))
            .bind(("serial", serial.to_owned()))
            .await?;
        Ok(response.take::<Vec<Device>>(0)?.into_iter().next())
    }
}

impl Devices<'_> {
    /// Replaces a device's secret hash (a newly issued secret).
    pub async fn set_secret_hash(&self, id: &str, secret_hash: &str) -> Result<(), StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(
                    "UPDATE type::record('device', $id) SET secret_hash = $hash \
                     WHERE company = type::record('company', $company) RETURN VALUE record::id(id)",
                )
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("hash", secret_hash.to_owned()))
                .await?;
            let updated: Vec<String> = response.take(0)?;
            if updated.is_empty() { Err(StoreError::NotFound) } else { Ok(()) }
        })
        .await
    }

    /// Rotates a device's secret: replaces its hash and records `audit`, in one transaction
    /// (both or neither); the acting company is this handle's. `NotFound` for another company's device or one without a secret (a
    /// parent that never connects).
    pub async fn rotate_secret(&self, id: &str, secret_hash: &str, audit: &NewAuditEntry) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(format!(
                    "BEGIN TRANSACTION;
                     LET $updated = (UPDATE type::record('device', $id) SET secret_hash = $hash
                        WHERE company = type::record('company', $company) AND secret_hash != '' RETURN VALUE record::id(id));
                     IF array::len($updated) = 0 {{ THROW 'notFound' }};
                     {CREATE_AUDIT}
                     COMMIT TRANSACTION;"
                ))
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("hash", secret_hash.to_owned()))
                .bind_audit(self.company, audit)
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// Assigns `patient_id` to the device as its patient at the bedside, or releases it (`None`).
    /// Both must belong to the company (`NotFound` otherwise). Which devices may have one is the
    /// device-type table's rule, checked by the caller.
    pub async fn set_current_patient(&self, id: &str, patient_id: Option<&str>) -> Result<(), StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(
                    "BEGIN TRANSACTION;
                     LET $company_ref = type::record('company', $company);
                     IF $patient != NONE AND (SELECT VALUE id FROM type::record('patient', $patient) WHERE company = $company_ref)[0] = NONE
                        { THROW 'notFound' };
                     LET $updated = (UPDATE type::record('device', $id) SET current_patient = $patient
                        WHERE company = $company_ref RETURN VALUE record::id(id));
                     IF array::len($updated) = 0 { THROW 'notFound' };
                     COMMIT TRANSACTION;",
                )
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("patient", patient_id.map(str::to_owned)))
                .await?;
            checked(response)?;
            Ok(())
        })
        .await
    }

    /// The company's devices, ordered by name.
    pub async fn list(&self) -> Result<Vec<Device>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM device WHERE company = type::record('company', $company) ORDER BY name, hardware_serial"))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }

    /// A device of the company.
    pub async fn get(&self, id: &str) -> Result<Option<Device>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM type::record('device', $id) WHERE company = type::record('company', $company)"))
            .bind(("id", id.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take::<Vec<Device>>(0)?.into_iter().next())
    }

    /// A device of the company by hardware serial.
    pub async fn by_serial(&self, serial: &str) -> Result<Option<Device>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM device WHERE hardware_serial = $serial AND company = type::record('company', $company) LIMIT 1"
            ))
            .bind(("serial", serial.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take::<Vec<Device>>(0)?.into_iter().next())
    }

    /// Renames and relocates a device of the company; returns the updated device.
    pub async fn update_settings(&self, id: &str, settings: &DeviceSettings) -> Result<Device, StoreError> {
        retrying(|| async move {
            let mut response = self
                .db
                .query(format!(
                    "UPDATE type::record('device', $id) SET name = $name, bed = $bed, room = $room \
                     WHERE company = type::record('company', $company) RETURN {FIELDS}"
                ))
                .bind(("id", id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("name", settings.name.clone()))
                .bind(("bed", settings.bed.clone()))
                .bind(("room", settings.room.clone()))
                .await?;
            response.take::<Vec<Device>>(0)?.into_iter().next().ok_or(StoreError::NotFound)
        })
        .await
    }

    /// The company's devices of one type, ordered by name.
    pub async fn list_of_type(&self, device_type: &str) -> Result<Vec<Device>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM device WHERE company = type::record('company', $company) AND device_type = $type \
                 ORDER BY name, hardware_serial"
            ))
            .bind(("company", self.company.to_owned()))
            .bind(("type", device_type.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }
}

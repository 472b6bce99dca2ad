//! The two ways into the store: [`CompanyStore`], one company's data, and [`HubWide`], the
//! queries that are not one company's or that span them all.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use crate::repo;

/// One company's data. Every repository it hands out takes no company id: it filters on this
/// handle's company in SurrealQL (a row of another company is `NotFound`, never returned).
#[derive(Clone, Copy, Debug)]
pub struct CompanyStore<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
    /// Cluster mode: the lease revision the storage writer writes a device's rows under.
    pub(crate) fence: Option<i64>,
}

impl<'a> CompanyStore<'a> {
    /// This handle, with the device writes of its `logs()`, `device_confs()` and `analyses()`
    /// (device logs, presence, alarms raised and attended, turns, stream end, tare, a capture's
    /// analysis) fenced by `revision`: each
    /// runs only if the written device's fence (`device_fence`) still holds it, in the same
    /// transaction, and fails with `StoreError::Fenced` otherwise (cluster mode, issue 25).
    pub fn fenced(self, revision: i64) -> CompanyStore<'a> {
        CompanyStore { fence: Some(revision), ..self }
    }

    /// The company this handle reads and writes.
    pub fn company_id(&self) -> &'a str {
        self.company
    }

    /// The company's own record: name, address, logo, variants.
    pub fn profile(&self) -> repo::Profile<'a> {
        repo::Profile { db: self.db, company: self.company }
    }

    /// The company's turns and alarms as turn compliance reads them, and its shift settings.
    pub fn compliance(&self) -> repo::ComplianceRecords<'a> {
        repo::ComplianceRecords { db: self.db, company: self.company }
    }

    /// The company's users.
    pub fn users(&self) -> repo::Users<'a> {
        repo::Users { db: self.db, company: self.company }
    }

    /// The company's devices.
    pub fn devices(&self) -> repo::Devices<'a> {
        repo::Devices { db: self.db, company: self.company }
    }

    /// The company's device configurations.
    pub fn device_confs(&self) -> repo::DeviceConfs<'a> {
        repo::DeviceConfs { db: self.db, company: self.company, fence: self.fence }
    }

    /// The company's patients and each of its users' selected patient.
    pub fn patients(&self) -> repo::Patients<'a> {
        repo::Patients { db: self.db, company: self.company }
    }

    /// The company's analysis records.
    pub fn analyses(&self) -> repo::Analyses<'a> {
        repo::Analyses { db: self.db, company: self.company, fence: self.fence }
    }

    /// The layout settings of the company's users.
    pub fn layouts(&self) -> repo::Layouts<'a> {
        repo::Layouts { db: self.db, company: self.company }
    }

    /// The device, presence and alarm logs of the company's devices.
    pub fn logs(&self) -> repo::Logs<'a> {
        repo::Logs { db: self.db, company: self.company, fence: self.fence }
    }

    /// The company's clinical records as an export reads them (device logs, presence, alarms,
    /// analyses without frames; read-only).
    pub fn clinical_records(&self) -> repo::ClinicalRecords<'a> {
        repo::ClinicalRecords { db: self.db, company: self.company }
    }

    /// The audit log as this company's administrators act and read it.
    pub fn audit(&self) -> repo::AuditLog<'a> {
        repo::AuditLog { db: self.db, company: self.company }
    }

    /// The company's alarm manager and its queue of alarm reports (IHE PCD-04).
    pub fn alarm_outbox(&self) -> repo::AlarmOutbox<'a> {
        repo::AlarmOutbox { db: self.db, company: self.company }
    }

    /// The company's paired ward screens (role 3).
    pub fn board_screens(&self) -> repo::BoardScreens<'a> {
        repo::BoardScreens { db: self.db, company: self.company }
    }

    /// What the company's alarm manager reported of its alarms (IHE PCD-05).
    pub fn alarm_statuses(&self) -> repo::AlarmStatuses<'a> {
        repo::AlarmStatuses { db: self.db, company: self.company }
    }
}

/// The queries that are not about one company's data, or that span every company.
#[derive(Clone, Copy, Debug)]
pub struct HubWide<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl<'a> HubWide<'a> {
    /// Companies: creating, finding by name or id, listing them all.
    pub fn companies(&self) -> repo::HubCompanies<'a> {
        repo::HubCompanies { db: self.db }
    }

    /// Accounts: creating a user in a company, and sign-in by e-mail.
    pub fn accounts(&self) -> repo::Accounts<'a> {
        repo::Accounts { db: self.db }
    }

    /// Devices of every company: registration, lookup by serial, the start-up catalogue.
    pub fn devices(&self) -> repo::HubDevices<'a> {
        repo::HubDevices { db: self.db }
    }

    /// Cluster mode: each device's fence, the lease revision its owner writes under.
    pub fn device_fences(&self) -> repo::HubDeviceFences<'a> {
        repo::HubDeviceFences { db: self.db }
    }

    /// Cluster mode: a takeover's fence raise and the reads the device resumes from, in one
    /// round trip.
    pub fn device_takeovers(&self) -> repo::HubDeviceTakeovers<'a> {
        repo::HubDeviceTakeovers { db: self.db }
    }

    /// Cluster mode: the rows of many devices, each under its fence, in one transaction.
    pub fn device_rows(&self) -> repo::HubDeviceRows<'a> {
        repo::HubDeviceRows { db: self.db }
    }

    /// Cluster mode: each device's machine snapshot, kept for the hub that takes it over.
    pub fn device_snapshots(&self) -> repo::HubDeviceSnapshots<'a> {
        repo::HubDeviceSnapshots { db: self.db }
    }

    /// Device configurations of every company: start-up state and the writer's status batches.
    pub fn device_confs(&self) -> repo::HubDeviceConfs<'a> {
        repo::HubDeviceConfs { db: self.db }
    }

    /// Logs of every company: the unattended alarms at start-up.
    pub fn logs(&self) -> repo::HubLogs<'a> {
        repo::HubLogs { db: self.db }
    }

    /// Bearer tokens revoked at logout.
    pub fn revoked_tokens(&self) -> repo::RevokedTokens<'a> {
        repo::RevokedTokens { db: self.db }
    }

    /// Every company's paired ward screens (the hub loads them at start-up).
    pub fn board_screens(&self) -> repo::HubBoardScreens<'a> {
        repo::HubBoardScreens { db: self.db }
    }

    /// Every company's alarm reports, as the hub's one sender reads and marks them.
    pub fn alarm_outbox(&self) -> repo::HubAlarmOutbox<'a> {
        repo::HubAlarmOutbox { db: self.db }
    }

    /// Hub-wide settings (the token signing key, …).
    pub fn settings(&self) -> repo::Settings<'a> {
        repo::Settings { db: self.db }
    }

    /// The fingerprint of the schema the database holds ([`crate::schema`]), `None` before any.
    pub async fn schema_fingerprint(&self) -> Option<String> {
        crate::schema::applied(self.db).await
    }
}

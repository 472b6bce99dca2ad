//! Typed repositories, one per table. Each borrows the store's connection.

mod analyses;
mod audit;
mod companies;
mod device_confs;
mod devices;
mod layouts;
mod logs;
mod patients;
mod revoked_tokens;
mod settings;
mod users;

pub use analyses::{Analyses, COMPANY_QUOTA_BYTES};
pub use audit::{AuditLog, AUDIT_PAGE_MAX, AUDIT_SUMMARY_MAX};
pub use companies::Companies;
pub use device_confs::DeviceConfs;
pub use devices::{CreatedFamily, Devices};
pub use layouts::Layouts;
pub use logs::{Logs, LOG_LIST_LIMIT};
pub use patients::Patients;
pub use revoked_tokens::{RevokedToken, RevokedTokens};
pub use settings::Settings;
pub use users::Users;

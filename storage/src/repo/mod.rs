//! Typed repositories, one file per table. Each borrows the store's connection; the ones a
//! `CompanyStore` hands out also hold its company id and filter on it in every query, the
//! `Hub…` ones (and `Accounts`, `RevokedTokens`, `Settings`) come from `HubWide`.

mod alarm_outbox;
mod alarm_statuses;
mod analyses;
mod audit;
mod board_screens;
mod clinical_records;
mod companies;
mod compliance;
pub(crate) mod device_confs;
pub(crate) mod device_fences;
mod device_rows;
mod device_snapshots;
mod device_takeovers;
mod devices;
mod layouts;
pub(crate) mod logs;
mod patients;
mod revoked_tokens;
mod settings;
mod users;

pub use alarm_outbox::{AlarmManagerSettings, AlarmOutbox, DEAD_LETTER_LIMIT, HubAlarmOutbox, NewOutboxEntry, OutboxCounts, OutboxEntry};
pub use alarm_statuses::{ALARM_STATUS_LIMIT, AlarmStatus, AlarmStatuses};
pub use analyses::{Analyses, COMPANY_QUOTA_BYTES};
pub use audit::{AUDIT_PAGE_MAX, AUDIT_SUMMARY_MAX, AuditLog};
pub use board_screens::{BoardScreen, BoardScreens, HubBoardScreens};
pub use clinical_records::{AlarmRow, AnalysisRow, ClinicalRecords, ClinicalRows, DeviceLogRow, EXPORT_ROW_LIMIT, PresenceRow, TurnRow};
pub use companies::{HubCompanies, Profile};
pub use compliance::{COMPLIANCE_ROW_LIMIT, ComplianceAlarm, ComplianceRecords, ComplianceTurn, ShiftSettings};
pub use device_confs::{DeviceConfs, HubDeviceConfs};
pub use device_fences::HubDeviceFences;
pub use device_rows::{AlarmClash, DeviceRow, DeviceRows, HubDeviceRows, RowsWritten};
pub use device_snapshots::{HubDeviceSnapshots, SnapshotWrite, StoredSnapshot};
pub use device_takeovers::{HubDeviceTakeovers, Takeover, TakeoverRequest};
pub use devices::{CreatedFamily, Devices, HubDevices};
pub use layouts::Layouts;
pub use logs::{HubLogs, LOG_LIST_LIMIT, Logs, PatientLogs};
pub use patients::Patients;
pub use revoked_tokens::{RevokedToken, RevokedTokens};
pub use settings::Settings;
pub use users::{Accounts, Users};

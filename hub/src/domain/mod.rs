//! The hub's domain layer: each entity's operations, with one owner for every fact. The REST
//! handlers extract a request, call one of these and render its answer; the demo, `provision`
//! and the storage writer's records call the same functions. Operations take plain values
//! (company and user ids, checked inputs from `mat-api`) and the parts of the hub they use,
//! never an HTTP request, and refuse with a [`DomainError`].
//!
//! - [`registration`]: a device and its family in one storage transaction, named by
//!   [`device_family`]; `registerAll` and `quickRegistration`.
//! - [`alarms`]: attending a device's alarms through its alarm machine, storage as its journal.
//! - [`records_stored`]: waiting for the storage writer before an attendance or a turn answers;
//!   a database away is 503 `busy` (the writer keeps the records and retries), never 500.
//! - [`analysis_format`]: the stored-analysis format, written from a capture or a client's
//!   analysis and read back by the history, the reports and the raw export; [`analyses`]: the
//!   operations on stored analyses.
//! - [`companies`]: naming a company by id or name.
//! - [`patients`]: the patient at a bedside, deleting a patient, a patient's data file.

pub mod alarms;
pub mod analyses;
pub mod analysis_format;
pub mod companies;
pub mod compliance;
pub mod device_commands;
pub mod device_family;
pub mod error;
pub mod patients;
pub mod records_stored;
pub mod registration;
pub mod turns;

pub use error::DomainError;

//! IHE PCD Alarm Communication Management (ACM), the pure half: what the hub sends an alarm
//! manager (PCD-04, `ORU^R40^ORU_R40`, HL7 v2.6) and how it reads the answers, with no I/O and no
//! clock (times are passed in). `hub::alarm_manager` does the sockets, storage and scheduling.
//!
//! - [`escape`]: HL7 v2 escaping of text in fields and components (`|^~\&`, line breaks).
//! - [`pcd04`]: one alarm's report ([`pcd04::AlarmReport`]) as an `ORU^R40` message.
//! - [`priority`]: the kinds the hub raises, their private `MDCX_` codes and their priorities
//!   after IEC 60601-1-8 (docs/interfaces.md, docs/decisions.md).
//! - [`ack`]: reading an HL7 acknowledgement (`MSA-1` AA/AE/AR, `MSA-2`).
//! - [`pcd05`]: reading a manager's alert status report (`ORA^R41`) and answering it.
//! - [`status_stream`]: the PCD-05 listener's input path (frames → status reports or refusals).
//! - [`mllp`]: MLLP framing (`0x0B` … `0x1C 0x0D`) and an incremental reader of frames.
//! - [`retry`]: when to try a message again.
//! - [`continuation`]: when an unattended alarm's `continue` reports fall due.
//!
//! Everything that reads bytes from the network ([`ack::parse_ack`], [`mllp::FrameReader`]) is
//! total: any input gives a value or an error, never a panic (fuzz targets `hl7_ack`,
//! `pcd05_status`, `pcd05_listener`); the
//! builder keeps any text inside its field (fuzz target `pcd04_message`).

#![forbid(unsafe_code)]

pub mod ack;
pub mod continuation;
pub mod escape;
pub mod mllp;
pub mod pcd04;
pub mod pcd05;
pub mod priority;
pub mod retry;
mod segment;
pub mod status_stream;
mod timestamp;

pub use timestamp::{hl7_date, hl7_timestamp, parse_hl7_timestamp};

//! Pure sans-IO state machines, one concern per file.
//!
//! Nothing here imports tokio, ractor, quinn, warp or surrealdb. Time is passed in as
//! `std::time::Instant`; machines never read a clock or sleep. Inputs are methods, outputs are
//! drained with `poll_output`, and `poll_timeout` says when the machine next wants
//! `handle_timeout`. The actors of the runtime crate (`actors::actor`) drive them.

pub mod alarm;
pub mod body_regions;
pub mod capture;
pub mod device_log;
pub mod device_set;
pub mod live_map;
pub mod mat;
pub mod patient_status;
pub mod posture;
pub mod presence;
pub mod pressure_map;
pub mod pressure_ulcer;
pub mod restart_budget;
pub mod status;
pub mod streaming;
pub mod tare;
pub mod wall_clock;

//! Authentication: signed, expiring bearer tokens and their check, roles, and login throttling.

pub mod rate_limit;
pub mod revocation;
pub mod roles;
pub mod token;
pub mod verify;

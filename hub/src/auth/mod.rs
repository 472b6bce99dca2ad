//! Authentication: signed, expiring bearer tokens and their check, roles, login throttling, and
//! paired ward screens with their one-time pairing codes.

pub mod board;
pub mod pairing;
pub mod rate_limit;
pub mod revocation;
pub mod roles;
pub mod token;
pub mod verify;

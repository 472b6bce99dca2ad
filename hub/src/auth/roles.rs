//! Roles (spec §6 leaves their values open; docs/decisions.md records this choice).
//!
//! - 1, administrator: provisions companies, users and devices (the admin panel), for any
//!   company, and changes their own company's branding. For everything else (devices, patients,
//!   analyses) an administrator sees only their own company, like staff.
//! - 2, staff: every user created through the API (spec §6: new users get role 2).
//! - 3, board: a ward screen on a wall, paired by an administrator to one unit of one company
//!   (`crate::auth::board`). Not a person: it only reads what its unit's board shows, and every
//!   route but the board's reads refuses it (403).

/// Administrators.
pub const ROLE_ADMIN: i64 = 1;
/// Staff.
pub const ROLE_STAFF: i64 = 2;
/// Paired ward screens.
pub const ROLE_BOARD: i64 = 3;

//! Roles (spec §6 leaves their values open; docs/decisions.md records this choice).
//!
//! - 1, administrator: provisions companies, users and devices (the admin panel), for any
//!   company, and changes their own company's branding. For everything else (devices, patients,
//!   analyses) an administrator sees only their own company, like staff.
//! - 2, staff: every user created through the API (spec §6: new users get role 2).

/// Administrators.
pub const ROLE_ADMIN: i64 = 1;
/// Staff.
pub const ROLE_STAFF: i64 = 2;

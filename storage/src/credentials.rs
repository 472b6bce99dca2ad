//! The root user a hub signs in as on a SurrealDB server (`hub --database ws://…`).
//!
//! They come from the environment (`HUB_DATABASE_USER`, `HUB_DATABASE_PASS`), never the command
//! line, where every user of the machine can read them in the process list; the password is never
//! printed (`Debug` hides it).

use std::fmt;

/// A SurrealDB server's root user.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub user: String,
    pub pass: String,
}

/// Only one of the two variables is set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("HUB_DATABASE_USER and HUB_DATABASE_PASS go together: set both or neither")]
pub struct HalfCredentials;

impl Credentials {
    /// The environment variable of the user name.
    pub const USER_VAR: &'static str = "HUB_DATABASE_USER";
    /// The environment variable of the password.
    pub const PASS_VAR: &'static str = "HUB_DATABASE_PASS";

    /// From the two variables' values: both set (and the user not empty) is a login, neither is
    /// none, one alone is an error rather than a sign-in that cannot succeed.
    pub fn from_vars(user: Option<String>, pass: Option<String>) -> Result<Option<Credentials>, HalfCredentials> {
        let user = user.filter(|u| !u.trim().is_empty());
        match (user, pass) {
            (Some(user), Some(pass)) => Ok(Some(Credentials { user, pass })),
            (None, None) => Ok(None),
            _ => Err(HalfCredentials),
        }
    }

    /// From [`Self::USER_VAR`] and [`Self::PASS_VAR`] of this process's environment.
    pub fn from_env() -> Result<Option<Credentials>, HalfCredentials> {
        Credentials::from_vars(std::env::var(Self::USER_VAR).ok(), std::env::var(Self::PASS_VAR).ok())
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials").field("user", &self.user).field("pass", &"…").finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some(text: &str) -> Option<String> {
        Some(text.to_owned())
    }

    #[test]
    fn both_variables_or_neither() {
        assert_eq!(
            Credentials::from_vars(some("root"), some("s3cret")),
            Ok(Some(Credentials { user: "root".into(), pass: "s3cret".into() }))
        );
        assert_eq!(Credentials::from_vars(None, None), Ok(None));
        assert_eq!(Credentials::from_vars(some("root"), None), Err(HalfCredentials));
        assert_eq!(Credentials::from_vars(None, some("s3cret")), Err(HalfCredentials));
        assert_eq!(Credentials::from_vars(some("  "), some("s3cret")), Err(HalfCredentials), "an empty user is no user");
    }

    #[test]
    fn the_password_is_never_printed() {
        let login = Credentials { user: "root".into(), pass: "s3cret".into() };
        let printed = format!("{login:?}");
        assert!(printed.contains("root") && !printed.contains("s3cret"), "{printed}");
    }
}

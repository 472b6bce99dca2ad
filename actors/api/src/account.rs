//! User creation (spec §5): e-mail and password required (emptyEmail), a standard e-mail
//! pattern (incorrectEmail), the repeated password equal (passwordsUnmatch), at least 6
//! characters (shortPassword). Checked in that order, as the old client did.

use serde::Deserialize;

use super::email::is_email;
use super::{Invalid, char_len};

/// Shortest password accepted.
pub const PASSWORD_MIN_CHARS: usize = 6;
/// Longest password accepted (argon2 takes any length; this bounds the work per login).
pub const PASSWORD_MAX_CHARS: usize = 256;

/// A new account as the admin panel sends it.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
#[schemars(extend("required" = ["email", "password"]))]
pub struct AccountInput {
    #[schemars(length(max = 254), pattern(super::schema::EMAIL))]
    pub email: String,
    #[schemars(length(min = PASSWORD_MIN_CHARS, max = PASSWORD_MAX_CHARS))]
    pub password: String,
    /// The repeated password, when the form has one.
    #[schemars(skip)]
    pub password_repeat: Option<String>,
}

/// A checked account: the e-mail trimmed and lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub email: String,
    pub password: String,
}

/// Checks a new account.
pub fn validate_account(input: &AccountInput) -> Result<Account, Invalid> {
    let email = input.email.trim().to_lowercase();
    if email.is_empty() || input.password.is_empty() {
        return Err(Invalid::new("emptyEmail", "e-mail and password are required"));
    }
    if !is_email(&email) {
        return Err(Invalid::new("incorrectEmail", "the e-mail is not a valid address"));
    }
    if input.password_repeat.as_ref().is_some_and(|repeat| *repeat != input.password) {
        return Err(Invalid::new("passwordsUnmatch", "the passwords do not match"));
    }
    let length = char_len(&input.password);
    if length < PASSWORD_MIN_CHARS {
        return Err(Invalid::new("shortPassword", format!("the password needs at least {PASSWORD_MIN_CHARS} characters")));
    }
    if length > PASSWORD_MAX_CHARS {
        return Err(Invalid::new("longPassword", format!("the password is longer than {PASSWORD_MAX_CHARS} characters")));
    }
    Ok(Account { email, password: input.password.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(email: &str, password: &str, repeat: Option<&str>) -> &'static str {
        let input = AccountInput { email: email.into(), password: password.into(), password_repeat: repeat.map(Into::into) };
        validate_account(&input).err().map(|e| e.key).unwrap_or("ok")
    }

    #[test]
    fn rules_apply_in_the_spec_order() {
        assert_eq!(check("", "secret1", None), "emptyEmail");
        assert_eq!(check("a@b.co", "", None), "emptyEmail");
        assert_eq!(check("not-an-email", "x", Some("y")), "incorrectEmail");
        assert_eq!(check("a@b.co", "abc", Some("abd")), "passwordsUnmatch");
        assert_eq!(check("a@b.co", "abcde", Some("abcde")), "shortPassword");
        assert_eq!(check("a@b.co", "abcdef", Some("abcdef")), "ok");
        assert_eq!(check("a@b.co", "ñandú1", None), "ok", "six characters, more bytes");
        assert_eq!(check("a@b.co", &"p".repeat(257), None), "longPassword");
    }

    #[test]
    fn emails_are_trimmed_and_lower_cased() {
        let input = AccountInput { email: "  Nurse@Clinic.ES ".into(), password: "secret1".into(), password_repeat: None };
        assert_eq!(validate_account(&input).unwrap().email, "nurse@clinic.es");
    }
}

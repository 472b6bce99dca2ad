//! The e-mail pattern of spec §5: `local@domain.tld`, no spaces, one `@`.

/// Whether `email` looks like an address: a non-empty local part, one `@`, a domain with a dot
/// that neither starts nor ends the domain, no whitespace, at most 254 characters.
pub fn is_email(email: &str) -> bool {
    if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else { return false };
    if local.is_empty() || domain.contains('@') || local.len() > 64 {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-') && !l.starts_with('-') && !l.ends_with('-'))
        // What storage's schema asserts (SurrealDB's `string::is_email`), so a user that passes
        // here is stored rather than refused with a database error.
        && addr::parse_email_address(email).is_ok()
}

#[cfg(test)]
mod tests {
    use super::is_email;

    #[test]
    fn accepts_ordinary_addresses() {
        for ok in ["a@b.co", "nurse.one+ward@hospital.example.com", "Dr-Ana@clinica-sur.es", "jose@correo.españa.es"] {
            assert!(is_email(ok), "{ok}");
        }
    }

    #[test]
    fn refuses_what_is_not_an_address() {
        for bad in ["", "a", "a@", "@b.co", "a@b", "a@@b.co", "a b@c.co", "a@b..co", "a@.b.co", "a@b.co.", "a@-b.co", "a@b.co\n"] {
            assert!(!is_email(bad), "{bad:?}");
        }
        assert!(!is_email(&format!("{}@b.co", "x".repeat(65))));
        assert!(!is_email("0@0.0"), "storage's e-mail check refuses a numeric top-level domain");
    }
}

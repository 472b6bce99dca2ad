//! User passwords: argon2id with a random salt, PHC strings in storage.

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use crate::StoreError;

/// Hashes a password for storage.
pub fn hash(password: &str) -> Result<String, StoreError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| StoreError::Hash(e.to_string()))
}

/// Whether `password` matches a stored hash. A malformed hash never matches.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_are_salted() {
        let a = hash("demo1234").unwrap();
        let b = hash("demo1234").unwrap();
        assert!(a.starts_with("$argon2id$"));
        assert_ne!(a, b, "random salt");
        assert!(verify("demo1234", &a));
        assert!(!verify("demo1235", &a));
        assert!(!verify("demo1234", "not a hash"));
    }
}

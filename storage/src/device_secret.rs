//! Device secrets: 32 random bytes issued once at registration, stored as a SHA-256 digest.
//!
//! The old app used the hardware serial as the device password, so anyone who could read a
//! label could impersonate a mat. A secret here is 256 bits from the OS generator, shown once
//! (`hub provision`, the registration API) and never stored in clear. A fast hash is right for
//! it: unlike a password it has full entropy, so there is nothing to brute-force, and devices
//! reconnecting by the thousand after a network blip must not queue behind argon2.

use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new secret, base64url without padding (43 characters).
pub fn generate() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The stored form of a secret: lowercase hex SHA-256.
pub fn hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `secret` matches `stored`, compared in constant time. An empty stored hash (a device
/// that was never issued a secret) matches nothing.
pub fn verify(secret: &str, stored: &str) -> bool {
    let computed = hash(secret);
    if stored.is_empty() || computed.len() != stored.len() {
        return false;
    }
    computed.bytes().zip(stored.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_random_and_verify_only_themselves() {
        let (a, b) = (generate(), generate());
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        let stored = hash(&a);
        assert!(verify(&a, &stored));
        assert!(!verify(&b, &stored));
        assert!(!verify(&a, ""));
    }

    #[test]
    fn the_serial_is_not_a_secret() {
        // A device whose secret hash was never set cannot log in with its serial.
        assert!(!verify("MAT-0001", ""));
    }
}

//! Revoked token ids (logout), held in memory so every request is checked without a database
//! round trip. Storage keeps the same ids (`storage::repo::RevokedTokens`) so a restart reloads
//! them; an id is forgotten once its token has expired, when it would be refused anyway.

use std::collections::HashMap;

/// Token ids revoked before their expiry (Unix seconds).
#[derive(Debug, Default)]
pub struct RevokedTokens {
    expiries: HashMap<String, u64>,
}

impl RevokedTokens {
    /// The set from stored (id, expiry) pairs.
    pub fn from_stored(stored: impl IntoIterator<Item = (String, u64)>) -> Self {
        RevokedTokens { expiries: stored.into_iter().collect() }
    }

    /// Revokes a token id until `expires_at`; drops ids expired at `now` on the way.
    pub fn revoke(&mut self, token_id: &str, expires_at: u64, now: u64) {
        self.expiries.retain(|_, expiry| *expiry > now);
        if expires_at > now {
            self.expiries.insert(token_id.to_owned(), expires_at);
        }
    }

    /// Whether a token id was revoked.
    pub fn is_revoked(&self, token_id: &str) -> bool {
        self.expiries.contains_key(token_id)
    }

    /// How many ids are held.
    pub fn len(&self) -> usize {
        self.expiries.len()
    }

    /// Whether none are held.
    pub fn is_empty(&self) -> bool {
        self.expiries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revoked_id_is_refused_and_forgotten_after_its_expiry() {
        let mut revoked = RevokedTokens::default();
        revoked.revoke("a", 100, 10);
        assert!(revoked.is_revoked("a"));
        assert!(!revoked.is_revoked("b"));
        // Revoking another later prunes the expired one.
        revoked.revoke("b", 300, 150);
        assert!(!revoked.is_revoked("a"));
        assert!(revoked.is_revoked("b"));
        assert_eq!(revoked.len(), 1);
        // An already expired token need not be held at all.
        revoked.revoke("c", 100, 150);
        assert!(!revoked.is_revoked("c"));
    }

    #[test]
    fn stored_ids_are_revoked_after_a_restart() {
        let revoked = RevokedTokens::from_stored([("x".to_owned(), 500)]);
        assert!(revoked.is_revoked("x"));
    }
}

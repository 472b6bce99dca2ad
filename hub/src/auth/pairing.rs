//! One-time pairing codes for ward screens (docs/decisions.md "A board on a wall"). An
//! administrator asks for a code for one unit; the wall screen, signed in as nobody, sends it
//! back within [`PAIRING_TTL_SECS`] and receives the board token. A code is used once; codes are
//! 8 characters of an alphabet without look-alikes (31⁸ ≈ 8.5 × 10¹¹), and failed claims are
//! throttled per address like sign-ins, so guessing one in its few minutes is hopeless. Held in
//! memory only: a restart forgets pending codes (the administrator asks for another). Pure: time
//! is passed in.

use std::collections::HashMap;

/// How long a code may be claimed (5 minutes).
pub const PAIRING_TTL_SECS: u64 = 5 * 60;
/// Codes waiting at once, per company (a bound on memory, far above any real use).
pub const MAX_PENDING_PER_COMPANY: usize = 20;
/// Characters of a code: no 0/O, 1/I/L.
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters in a code.
pub const CODE_LENGTH: usize = 8;

/// What a pending code pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingPairing {
    pub company_id: String,
    pub unit: String,
    /// The administrator who asked for the code (the audit entry's actor).
    pub issued_by: String,
    pub issued_by_email: String,
    /// Unix seconds.
    pub expires_at: u64,
}

/// Why a code could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyPending;

/// Pending codes.
#[derive(Debug, Default)]
pub struct PairingCodes {
    pending: HashMap<String, PendingPairing>,
}

/// A new random code.
pub fn new_code() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..CODE_LENGTH).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

/// A code as typed (any case, with spaces or dashes) in its stored form.
pub fn normalize(typed: &str) -> String {
    typed.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_uppercase()).collect()
}

impl PairingCodes {
    fn prune(&mut self, now: u64) {
        self.pending.retain(|_, p| p.expires_at > now);
    }

    /// Keeps `code` for `pairing` (its expiry set to now + [`PAIRING_TTL_SECS`]).
    pub fn issue(&mut self, code: &str, mut pairing: PendingPairing, now: u64) -> Result<u64, TooManyPending> {
        self.prune(now);
        if self.pending.values().filter(|p| p.company_id == pairing.company_id).count() >= MAX_PENDING_PER_COMPANY {
            return Err(TooManyPending);
        }
        pairing.expires_at = now + PAIRING_TTL_SECS;
        let expires_at = pairing.expires_at;
        self.pending.insert(normalize(code), pairing);
        Ok(expires_at)
    }

    /// The pairing of a typed code, used up; `None` for an unknown, used or expired code.
    pub fn claim(&mut self, typed: &str, now: u64) -> Option<PendingPairing> {
        self.prune(now);
        self.pending.remove(&normalize(typed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(company: &str) -> PendingPairing {
        PendingPairing {
            company_id: company.into(),
            unit: "North · 2".into(),
            issued_by: "u1".into(),
            issued_by_email: "a@x.es".into(),
            expires_at: 0,
        }
    }

    #[test]
    fn a_code_is_claimed_once_within_its_five_minutes() {
        let mut codes = PairingCodes::default();
        assert_eq!(codes.issue("ABCD2345", pairing("c1"), 1_000), Ok(1_000 + PAIRING_TTL_SECS));
        assert_eq!(codes.claim("wrong", 1_001), None);
        let claimed = codes.claim("abcd-2345", 1_000 + PAIRING_TTL_SECS - 1).unwrap();
        assert_eq!((claimed.company_id.as_str(), claimed.unit.as_str()), ("c1", "North · 2"));
        assert_eq!(codes.claim("ABCD2345", 1_002), None, "used once");
        codes.issue("EFGH6789", pairing("c1"), 2_000).unwrap();
        assert_eq!(codes.claim("EFGH6789", 2_000 + PAIRING_TTL_SECS), None, "expired");
    }

    #[test]
    fn pending_codes_are_bounded_per_company() {
        let mut codes = PairingCodes::default();
        for i in 0..MAX_PENDING_PER_COMPANY {
            codes.issue(&format!("C{i}"), pairing("c1"), 0).unwrap();
        }
        assert_eq!(codes.issue("ONEMORE", pairing("c1"), 0), Err(TooManyPending));
        assert!(codes.issue("OTHER", pairing("c2"), 0).is_ok(), "another company is not limited by c1's");
        assert!(codes.issue("LATER", pairing("c1"), PAIRING_TTL_SECS).is_ok(), "expired codes make room");
    }

    #[test]
    fn codes_are_random_from_the_alphabet() {
        let (a, b) = (new_code(), new_code());
        assert_ne!(a, b);
        assert_eq!(a.len(), CODE_LENGTH);
        assert!(a.bytes().all(|c| ALPHABET.contains(&c)));
        assert_eq!(normalize(" ab-cd 23 "), "ABCD23");
    }
}

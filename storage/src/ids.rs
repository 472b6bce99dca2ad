//! Record keys: 20 random lowercase alphanumerics, unguessable and URL-safe.

use rand::Rng;

const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// A new random record key.
pub fn new_id() -> String {
    let mut rng = rand::rng();
    (0..20).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

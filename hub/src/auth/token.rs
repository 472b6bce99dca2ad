//! Bearer tokens: `base64url(payload).base64url(HMAC-SHA256(key, payload))`.
//!
//! The payload is `v2|id|user|company|role|expires` with the expiry in Unix seconds and `id` a
//! random token id, by which logout revokes the token (`crate::auth::revocation`). Tokens are
//! checked without a database round trip; the signing key is 32 random bytes kept in storage, so
//! tokens survive a restart and cannot be forged without it. `v1` tokens (no id, so not
//! revocable) are refused: after the upgrade everyone signs in once more.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Who a valid token speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    /// The token's own id (random, 128 bits), by which it is revoked.
    pub token_id: String,
    pub user_id: String,
    pub company_id: String,
    pub role: i64,
    /// Unix seconds.
    pub expires_at: u64,
}

/// Why a token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("malformed token")]
    Malformed,
    #[error("bad token signature")]
    BadSignature,
    #[error("token expired")]
    Expired,
}

/// Signs and checks tokens with one key.
#[derive(Clone)]
pub struct TokenSigner {
    key: Vec<u8>,
}

impl std::fmt::Debug for TokenSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenSigner(..)")
    }
}

impl TokenSigner {
    /// A signer with this key (at least 32 bytes in production).
    pub fn new(key: Vec<u8>) -> Self {
        TokenSigner { key }
    }

    /// A new random key, base64url, for storage.
    pub fn generate_key() -> String {
        let mut key = [0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut key);
        URL_SAFE_NO_PAD.encode(key)
    }

    /// A signer from a stored key.
    pub fn from_stored(key: &str) -> Result<Self, TokenError> {
        URL_SAFE_NO_PAD.decode(key).map(TokenSigner::new).map_err(|_| TokenError::Malformed)
    }

    fn mac(&self, payload: &[u8]) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.key).unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
        mac.update(payload);
        mac
    }

    /// A new random token id.
    pub fn new_token_id() -> String {
        let mut id = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut id);
        URL_SAFE_NO_PAD.encode(id)
    }

    /// A token for these claims.
    pub fn issue(&self, claims: &Claims) -> String {
        let payload = format!("v2|{}|{}|{}|{}|{}", claims.token_id, claims.user_id, claims.company_id, claims.role, claims.expires_at);
        let signature = self.mac(payload.as_bytes()).finalize().into_bytes();
        format!("{}.{}", URL_SAFE_NO_PAD.encode(payload), URL_SAFE_NO_PAD.encode(signature))
    }

    /// The claims of a token that is well-formed, signed with this key and not expired at `now`
    /// (Unix seconds).
    pub fn verify(&self, token: &str, now: u64) -> Result<Claims, TokenError> {
        let (payload, signature) = token.split_once('.').ok_or(TokenError::Malformed)?;
        let payload = URL_SAFE_NO_PAD.decode(payload).map_err(|_| TokenError::Malformed)?;
        let signature = URL_SAFE_NO_PAD.decode(signature).map_err(|_| TokenError::Malformed)?;
        self.mac(&payload).verify_slice(&signature).map_err(|_| TokenError::BadSignature)?;
        let text = String::from_utf8(payload).map_err(|_| TokenError::Malformed)?;
        let parts: Vec<&str> = text.split('|').collect();
        let [version, token_id, user_id, company_id, role, expires_at] = parts.as_slice() else { return Err(TokenError::Malformed) };
        if *version != "v2" || token_id.is_empty() {
            return Err(TokenError::Malformed);
        }
        let claims = Claims {
            token_id: (*token_id).to_owned(),
            user_id: (*user_id).to_owned(),
            company_id: (*company_id).to_owned(),
            role: role.parse().map_err(|_| TokenError::Malformed)?,
            expires_at: expires_at.parse().map_err(|_| TokenError::Malformed)?,
        };
        if now >= claims.expires_at {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }
}

/// Unix seconds now.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(expires_at: u64) -> Claims {
        Claims { token_id: "t1".into(), user_id: "u1".into(), company_id: "c1".into(), role: 2, expires_at }
    }

    #[test]
    fn a_token_verifies_until_it_expires() {
        let signer = TokenSigner::new(b"0123456789abcdef0123456789abcdef".to_vec());
        let token = signer.issue(&claims(1_000));
        assert_eq!(signer.verify(&token, 999), Ok(claims(1_000)));
        assert_eq!(signer.verify(&token, 1_000), Err(TokenError::Expired));
    }

    #[test]
    fn forged_and_tampered_tokens_are_refused() {
        let signer = TokenSigner::new(b"key-one-key-one-key-one-key-one!".to_vec());
        let other = TokenSigner::new(b"key-two-key-two-key-two-key-two!".to_vec());
        let token = signer.issue(&claims(u64::MAX));
        assert_eq!(other.verify(&token, 0), Err(TokenError::BadSignature));
        // Swap the company in the payload but keep the signature.
        let (_, signature) = token.split_once('.').unwrap();
        let forged = format!("{}.{signature}", URL_SAFE_NO_PAD.encode(format!("v2|t1|u1|c2|2|{}", u64::MAX)));
        assert_eq!(signer.verify(&forged, 0), Err(TokenError::BadSignature));
        // A v1 token (no id, so it could never be revoked) is refused even when correctly signed.
        let payload = format!("v1|u1|c1|2|{}", u64::MAX);
        let v1 = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(&payload),
            URL_SAFE_NO_PAD.encode(signer.mac(payload.as_bytes()).finalize().into_bytes())
        );
        assert_eq!(signer.verify(&v1, 0), Err(TokenError::Malformed));
        assert_eq!(signer.verify("garbage", 0), Err(TokenError::Malformed));
        assert_eq!(signer.verify("a.b", 0), Err(TokenError::Malformed));
    }

    #[test]
    fn every_token_has_its_own_id() {
        let signer = TokenSigner::new(b"0123456789abcdef0123456789abcdef".to_vec());
        let (a, b) = (TokenSigner::new_token_id(), TokenSigner::new_token_id());
        assert_ne!(a, b);
        let token = signer.issue(&Claims { token_id: a.clone(), ..claims(10) });
        assert_eq!(signer.verify(&token, 5).unwrap().token_id, a);
    }

    #[test]
    fn stored_keys_round_trip() {
        let key = TokenSigner::generate_key();
        let signer = TokenSigner::from_stored(&key).unwrap();
        let token = signer.issue(&claims(10));
        assert!(TokenSigner::from_stored(&key).unwrap().verify(&token, 5).is_ok());
    }
}

//! Checking a bearer token, for REST calls and the browser socket alike: signed by this hub, not
//! expired, not revoked at logout. Without I/O: the caller passes the clock and the revoked ids.

use super::revocation::RevokedTokens;
use super::token::{Claims, TokenError, TokenSigner};

/// Why a token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Valid once, expired now.
    Expired,
    /// Not a token this hub signed.
    Invalid,
    /// Revoked at sign-out.
    Revoked,
}

impl Refusal {
    /// What the caller is told.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Expired => "the token has expired; sign in again",
            Refusal::Invalid => "the token is not valid",
            Refusal::Revoked => "the token was revoked at sign-out; sign in again",
        }
    }
}

/// The claims of `token` (surrounding blanks ignored) at `now` (Unix seconds).
pub fn verify(signer: &TokenSigner, revoked: &RevokedTokens, token: &str, now: u64) -> Result<Claims, Refusal> {
    let claims = signer.verify(token.trim(), now).map_err(|e| match e {
        TokenError::Expired => Refusal::Expired,
        TokenError::Malformed | TokenError::BadSignature => Refusal::Invalid,
    })?;
    if revoked.is_revoked(&claims.token_id) {
        return Err(Refusal::Revoked);
    }
    Ok(claims)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_expired_forged_and_revoked_tokens() {
        let signer = TokenSigner::new(vec![7; 32]);
        let claims = Claims { token_id: "t1".into(), user_id: "u".into(), company_id: "c".into(), role: 2, expires_at: 1_000 };
        let token = signer.issue(&claims);
        let mut revoked = RevokedTokens::default();
        assert_eq!(verify(&signer, &revoked, &format!(" {token} "), 999), Ok(claims.clone()));
        assert_eq!(verify(&signer, &revoked, &token, 1_000), Err(Refusal::Expired));
        assert_eq!(verify(&TokenSigner::new(vec![8; 32]), &revoked, &token, 999), Err(Refusal::Invalid));
        assert_eq!(verify(&signer, &revoked, "not a token", 999), Err(Refusal::Invalid));
        revoked.revoke("t1", 1_000, 500);
        assert_eq!(verify(&signer, &revoked, &token, 999), Err(Refusal::Revoked));
    }
}

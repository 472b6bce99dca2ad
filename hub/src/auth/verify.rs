//! Checking a bearer token, for REST calls and the browser socket alike: signed by this hub, not
//! expired, not revoked at logout, and a board token's screen still paired. Without I/O: the
//! caller passes the clock, the revoked ids and the paired screens.

use super::board::BoardScreens;
use super::revocation::RevokedTokens;
use super::roles::ROLE_BOARD;
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
    /// A board token whose screen an administrator unpaired.
    Unpaired,
}

impl Refusal {
    /// What the caller is told.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Expired => "the token has expired; sign in again",
            Refusal::Invalid => "the token is not valid",
            Refusal::Revoked => "the token was revoked at sign-out; sign in again",
            Refusal::Unpaired => "this screen is no longer paired; an administrator may pair it again",
        }
    }

    /// The error key the caller is told (`screenUnpaired` lets a ward screen say why it stopped).
    pub fn key(self) -> &'static str {
        match self {
            Refusal::Unpaired => "screenUnpaired",
            _ => "unauthorized",
        }
    }
}

/// The claims of `token` (surrounding blanks ignored) at `now` (Unix seconds). A board token
/// (role 3) names its screen as its user; it is refused once that screen is no longer paired in
/// the token's company.
pub fn verify(signer: &TokenSigner, revoked: &RevokedTokens, screens: &BoardScreens, token: &str, now: u64) -> Result<Claims, Refusal> {
    let claims = signer.verify(token.trim(), now).map_err(|e| match e {
        TokenError::Expired => Refusal::Expired,
        TokenError::Malformed | TokenError::BadSignature => Refusal::Invalid,
    })?;
    if revoked.is_revoked(&claims.token_id) {
        return Err(Refusal::Revoked);
    }
    if claims.role == ROLE_BOARD && screens.unit(&claims.user_id, &claims.company_id).is_none() {
        return Err(Refusal::Unpaired);
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
        let screens = BoardScreens::default();
        assert_eq!(verify(&signer, &revoked, &screens, &format!(" {token} "), 999), Ok(claims.clone()));
        assert_eq!(verify(&signer, &revoked, &screens, &token, 1_000), Err(Refusal::Expired));
        assert_eq!(verify(&TokenSigner::new(vec![8; 32]), &revoked, &screens, &token, 999), Err(Refusal::Invalid));
        assert_eq!(verify(&signer, &revoked, &screens, "not a token", 999), Err(Refusal::Invalid));
        revoked.revoke("t1", 1_000, 500);
        assert_eq!(verify(&signer, &revoked, &screens, &token, 999), Err(Refusal::Revoked));
    }

    #[test]
    fn a_board_token_is_valid_while_its_screen_is_paired_in_its_company() {
        let signer = TokenSigner::new(vec![7; 32]);
        let board =
            Claims { token_id: "t2".into(), user_id: "screen1".into(), company_id: "c".into(), role: ROLE_BOARD, expires_at: 1_000 };
        let token = signer.issue(&board);
        let revoked = RevokedTokens::default();
        let mut screens = BoardScreens::default();
        assert_eq!(verify(&signer, &revoked, &screens, &token, 10), Err(Refusal::Unpaired), "never paired");
        screens.pair("screen1", "other company", "North · 2", 5);
        assert_eq!(verify(&signer, &revoked, &screens, &token, 10), Err(Refusal::Unpaired), "paired elsewhere");
        screens.pair("screen1", "c", "North · 2", 5);
        assert_eq!(verify(&signer, &revoked, &screens, &token, 10), Ok(board));
        assert_eq!(verify(&signer, &revoked, &screens, &token, 1_000), Err(Refusal::Expired));
        screens.unpair("screen1");
        assert_eq!(verify(&signer, &revoked, &screens, &token, 10), Err(Refusal::Unpaired));
    }
}

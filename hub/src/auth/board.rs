//! Paired ward screens (issue 23, docs/decisions.md "A board on a wall"): which screens exist, the
//! company and unit each may show, and when each was last seen. Held in memory so every board
//! call is checked without a database round trip; storage keeps the same rows
//! (`storage::repo::BoardScreens`), so a restart reloads them. A screen's tokens are valid only
//! while its screen is here: unpairing removes it, whatever token the screen holds (renewals give
//! a screen new tokens, so revoking one token id would not be enough). Pure: time is passed in.

use std::collections::HashMap;

/// How long a board token is valid (30 days).
pub const BOARD_TOKEN_TTL_SECS: u64 = 30 * 24 * 3600;
/// A screen renews its token once it is this old (a day): a screen in use never reaches the end
/// of its 30 days, one switched off for longer than that signs in again through a new pairing.
pub const BOARD_RENEW_AFTER_SECS: u64 = 24 * 3600;
/// "Last seen" is written to storage at most this often per screen (every board call updates it
/// in memory; the board reads every 10 s).
pub const LAST_SEEN_STORE_SECS: u64 = 5 * 60;

/// One paired screen as the hub checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairedScreen {
    pub company_id: String,
    pub unit: String,
    /// Unix seconds, in memory.
    pub last_seen: u64,
    /// The last value written to storage.
    pub stored_last_seen: u64,
}

/// Every paired screen, by screen id.
#[derive(Debug, Default)]
pub struct BoardScreens {
    screens: HashMap<String, PairedScreen>,
}

impl BoardScreens {
    /// The screens from stored (id, company, unit, last seen) rows.
    pub fn from_stored(stored: impl IntoIterator<Item = (String, String, String, u64)>) -> Self {
        let screens = stored
            .into_iter()
            .map(|(id, company_id, unit, last_seen)| (id, PairedScreen { company_id, unit, last_seen, stored_last_seen: last_seen }))
            .collect();
        BoardScreens { screens }
    }

    /// Adds a newly paired screen.
    pub fn pair(&mut self, screen_id: &str, company_id: &str, unit: &str, now: u64) {
        let screen = PairedScreen { company_id: company_id.to_owned(), unit: unit.to_owned(), last_seen: now, stored_last_seen: now };
        self.screens.insert(screen_id.to_owned(), screen);
    }

    /// Removes an unpaired screen; whether it was there.
    pub fn unpair(&mut self, screen_id: &str) -> bool {
        self.screens.remove(screen_id).is_some()
    }

    /// The unit a screen of this company may show, or `None` when it is not paired (never was,
    /// was unpaired, or belongs to another company).
    pub fn unit(&self, screen_id: &str, company_id: &str) -> Option<&str> {
        self.screens.get(screen_id).filter(|s| s.company_id == company_id).map(|s| s.unit.as_str())
    }

    /// Notes that a screen was seen at `now`; `Some(now)` when the time should be written to
    /// storage (first time in [`LAST_SEEN_STORE_SECS`]).
    pub fn seen(&mut self, screen_id: &str, now: u64) -> Option<u64> {
        let screen = self.screens.get_mut(screen_id)?;
        screen.last_seen = screen.last_seen.max(now);
        if now >= screen.stored_last_seen + LAST_SEEN_STORE_SECS {
            screen.stored_last_seen = now;
            return Some(now);
        }
        None
    }

    /// When a screen was last seen (Unix seconds).
    pub fn last_seen(&self, screen_id: &str) -> Option<u64> {
        self.screens.get(screen_id).map(|s| s.last_seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_shows_its_unit_of_its_company_until_unpaired() {
        let mut screens = BoardScreens::default();
        screens.pair("s1", "c1", "North · 2", 100);
        assert_eq!(screens.unit("s1", "c1"), Some("North · 2"));
        assert_eq!(screens.unit("s1", "c2"), None, "another company's token naming this screen");
        assert_eq!(screens.unit("s2", "c1"), None);
        assert!(screens.unpair("s1"));
        assert_eq!(screens.unit("s1", "c1"), None);
        assert!(!screens.unpair("s1"));
    }

    #[test]
    fn last_seen_is_kept_in_memory_and_stored_every_five_minutes() {
        let mut screens = BoardScreens::from_stored([("s1".to_owned(), "c1".to_owned(), "u".to_owned(), 1_000)]);
        assert_eq!(screens.seen("s1", 1_010), None);
        assert_eq!(screens.last_seen("s1"), Some(1_010));
        assert_eq!(screens.seen("s1", 1_000 + LAST_SEEN_STORE_SECS - 1), None);
        assert_eq!(screens.seen("s1", 1_000 + LAST_SEEN_STORE_SECS), Some(1_000 + LAST_SEEN_STORE_SECS));
        assert_eq!(screens.seen("s1", 1_000 + LAST_SEEN_STORE_SECS + 10), None);
        assert_eq!(screens.seen("unknown", 5_000), None);
    }
}

//! Login throttling: failed attempts are counted per account and per client address in a
//! sliding window; past the limit, logins are refused with 429 until the oldest failure leaves
//! the window. A success clears the account's count (not the address's: one address guessing
//! many accounts stays throttled). Pure: time is passed in.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// Failures per account within [`WINDOW`].
pub const ACCOUNT_LIMIT: usize = 5;
/// Failures per client address within [`WINDOW`].
pub const ADDRESS_LIMIT: usize = 20;
/// The sliding window.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Keys kept at most; the stalest are dropped first (bounds memory under a spray of addresses).
pub const MAX_KEYS: usize = 100_000;

/// Failure counts by key.
#[derive(Debug, Default)]
struct Window {
    failures: HashMap<String, VecDeque<Instant>>,
}

impl Window {
    fn prune(&mut self, key: &str, now: Instant) -> usize {
        let Some(times) = self.failures.get_mut(key) else { return 0 };
        while times.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            times.pop_front();
        }
        if times.is_empty() {
            self.failures.remove(key);
            return 0;
        }
        times.len()
    }

    /// When `key` may try again, if it is over `limit`.
    fn blocked_for(&mut self, key: &str, limit: usize, now: Instant) -> Option<Duration> {
        if self.prune(key, now) < limit {
            return None;
        }
        let times = self.failures.get(key)?;
        let oldest = times.get(times.len() - limit)?;
        Some(WINDOW.saturating_sub(now.duration_since(*oldest)))
    }

    fn record(&mut self, key: &str, now: Instant) {
        if self.failures.len() >= MAX_KEYS && !self.failures.contains_key(key) {
            let stalest = self.failures.iter().min_by_key(|(_, t)| t.back().copied()).map(|(k, _)| k.clone());
            if let Some(stalest) = stalest {
                self.failures.remove(&stalest);
            }
        }
        self.failures.entry(key.to_owned()).or_default().push_back(now);
    }
}

/// The login limiter.
#[derive(Debug, Default)]
pub struct LoginLimiter {
    accounts: Window,
    addresses: Window,
}

impl LoginLimiter {
    /// `Some(wait)` when this account or address must wait before trying again.
    pub fn check(&mut self, account: &str, address: &str, now: Instant) -> Option<Duration> {
        let account = self.accounts.blocked_for(&account.to_lowercase(), ACCOUNT_LIMIT, now);
        let address = self.addresses.blocked_for(address, ADDRESS_LIMIT, now);
        account.into_iter().chain(address).max()
    }

    /// Records a failed attempt.
    pub fn failed(&mut self, account: &str, address: &str, now: Instant) {
        self.accounts.record(&account.to_lowercase(), now);
        self.addresses.record(address, now);
    }

    /// Clears an account's failures after a successful login.
    pub fn succeeded(&mut self, account: &str) {
        self.accounts.failures.remove(&account.to_lowercase());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_blocked_after_five_failures_until_the_window_passes() {
        let mut limiter = LoginLimiter::default();
        let t0 = Instant::now();
        for i in 0..ACCOUNT_LIMIT {
            assert_eq!(limiter.check("ana@x.es", "10.0.0.1", t0), None, "attempt {i}");
            limiter.failed("ana@x.es", "10.0.0.1", t0);
        }
        assert_eq!(limiter.check("ANA@x.es", "10.0.0.2", t0), Some(WINDOW), "blocked from any address");
        assert_eq!(limiter.check("bob@x.es", "10.0.0.1", t0), None, "other accounts are not");
        let later = t0 + WINDOW - Duration::from_secs(1);
        assert_eq!(limiter.check("ana@x.es", "10.0.0.2", later), Some(Duration::from_secs(1)));
        assert_eq!(limiter.check("ana@x.es", "10.0.0.2", t0 + WINDOW), None);
    }

    #[test]
    fn an_address_is_blocked_after_twenty_failures_across_accounts() {
        let mut limiter = LoginLimiter::default();
        let t0 = Instant::now();
        for i in 0..ADDRESS_LIMIT {
            limiter.failed(&format!("user{i}@x.es"), "10.0.0.9", t0 + Duration::from_secs(i as u64));
        }
        let now = t0 + Duration::from_secs(30);
        assert!(limiter.check("new@x.es", "10.0.0.9", now).is_some());
        assert!(limiter.check("new@x.es", "10.0.0.10", now).is_none());
    }

    #[test]
    fn a_success_clears_the_account_but_not_the_address() {
        let mut limiter = LoginLimiter::default();
        let t0 = Instant::now();
        for _ in 0..ACCOUNT_LIMIT - 1 {
            limiter.failed("ana@x.es", "10.0.0.1", t0);
        }
        limiter.succeeded("ana@x.es");
        limiter.failed("ana@x.es", "10.0.0.1", t0);
        assert_eq!(limiter.check("ana@x.es", "10.0.0.1", t0), None, "the count restarted");
    }

    #[test]
    fn memory_stays_bounded() {
        let mut limiter = LoginLimiter::default();
        let t0 = Instant::now();
        for i in 0..(MAX_KEYS + 10) {
            limiter.addresses.record(&format!("a{i}"), t0 + Duration::from_millis(i as u64));
        }
        assert_eq!(limiter.addresses.failures.len(), MAX_KEYS);
        assert!(!limiter.addresses.failures.contains_key("a0"), "the stalest went first");
    }
}

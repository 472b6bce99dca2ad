//! Which of this hub's devices another hub watches, pure (issue 25): a device's live maps cross
//! to the other hubs only while a watch is fresh. A hub whose sessions watch a device it does not
//! own says so at once and every [`RENEW`]; the owner keeps each watch [`TTL`], so maps stop
//! within that time after the last viewer left (or its hub died) without anyone saying so.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How often a watching hub renews its watches.
pub const RENEW: Duration = Duration::from_secs(2);
/// How long an owner keeps a watch it heard (three renewals: one lost message does not stop the
/// maps).
pub const TTL: Duration = Duration::from_secs(6);

/// The watches an owner heard, by device.
#[derive(Debug, Default)]
pub struct Watches {
    until: HashMap<String, Instant>,
}

impl Watches {
    /// A watch of `device_id` heard at `now`.
    pub fn renew(&mut self, device_id: &str, now: Instant) {
        let until = now + TTL;
        match self.until.get_mut(device_id) {
            Some(at) => *at = (*at).max(until),
            None => {
                self.until.insert(device_id.to_owned(), until);
            }
        }
    }

    /// Whether someone elsewhere watches `device_id` at `now` (a read: the owner asks per frame,
    /// under a shared lock; [`Watches::prune`] forgets expired watches).
    pub fn is_watched(&self, device_id: &str, now: Instant) -> bool {
        self.until.get(device_id).is_some_and(|until| *until > now)
    }

    /// Forgets every expired watch (the table stays as small as the watched devices).
    pub fn prune(&mut self, now: Instant) {
        self.until.retain(|_, until| *until > now);
    }

    /// How many devices are watched.
    pub fn len(&self) -> usize {
        self.until.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.until.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_lasts_its_ttl_and_renewals_extend_it() {
        let start = Instant::now();
        let mut watches = Watches::default();
        assert!(!watches.is_watched("d", start), "nobody watches yet");
        watches.renew("d", start);
        assert!(watches.is_watched("d", start + TTL - Duration::from_millis(1)));
        assert!(!watches.is_watched("d", start + TTL), "expired without renewal");
        watches.renew("d", start + TTL);
        watches.renew("d", start + TTL + RENEW);
        assert!(watches.is_watched("d", start + TTL + RENEW + TTL - Duration::from_millis(1)), "the latest renewal counts");
        assert!(!watches.is_watched("other", start + TTL), "a watch is per device");
    }

    #[test]
    fn a_late_old_renewal_does_not_shorten_a_watch() {
        let start = Instant::now();
        let mut watches = Watches::default();
        watches.renew("d", start + RENEW);
        watches.renew("d", start);
        assert!(watches.is_watched("d", start + TTL + Duration::from_millis(1)));
    }

    #[test]
    fn prune_forgets_expired_watches() {
        let start = Instant::now();
        let mut watches = Watches::default();
        watches.renew("a", start);
        watches.renew("b", start + RENEW);
        watches.prune(start + TTL);
        assert_eq!(watches.len(), 1);
        assert!(watches.is_watched("b", start + TTL));
    }
}

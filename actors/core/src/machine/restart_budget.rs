//! The supervisors' restart policy: at most `max` restarts within `window`, then give up.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Restarts allowed within the window.
pub const MAX_RESTARTS: usize = 3;
/// The window restarts are counted in.
pub const RESTART_WINDOW: Duration = Duration::from_secs(10);

/// Remembers recent restarts of one child.
#[derive(Debug, Clone)]
pub struct RestartBudget {
    max: usize,
    window: Duration,
    recent: VecDeque<Instant>,
}

impl Default for RestartBudget {
    fn default() -> Self {
        RestartBudget::new(MAX_RESTARTS, RESTART_WINDOW)
    }
}

impl RestartBudget {
    /// At most `max` restarts within `window`.
    pub fn new(max: usize, window: Duration) -> Self {
        RestartBudget { max, window, recent: VecDeque::new() }
    }

    /// The child failed at `now`: may it be restarted? Records the restart when it may.
    pub fn try_restart(&mut self, now: Instant) -> bool {
        while self.recent.front().is_some_and(|&t| now.duration_since(t) >= self.window) {
            self.recent.pop_front();
        }
        if self.recent.len() >= self.max {
            return false;
        }
        self.recent.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_restarts_in_ten_seconds_then_give_up() {
        let t0 = Instant::now();
        let mut b = RestartBudget::default();
        assert!(b.try_restart(t0));
        assert!(b.try_restart(t0 + Duration::from_secs(1)));
        assert!(b.try_restart(t0 + Duration::from_secs(2)));
        assert!(!b.try_restart(t0 + Duration::from_secs(3)));
    }

    #[test]
    fn old_restarts_leave_the_window() {
        let t0 = Instant::now();
        let mut b = RestartBudget::default();
        for s in 0..3 {
            assert!(b.try_restart(t0 + Duration::from_secs(s)));
        }
        assert!(!b.try_restart(t0 + Duration::from_millis(9_999)));
        assert!(b.try_restart(t0 + Duration::from_secs(10)), "the first restart is 10 s old now");
    }
}

//! Pure timing policies of a simulated device: reconnect backoff, frame rate and pacing.
//!
//! No clock and no sleeping: each takes `now` as an argument and answers with a delay or an
//! instant, so the device loop is the only place that waits, and the rules are unit-testable.

use std::time::{Duration, Instant};

use mat_protocol::Command;

/// Capped exponential reconnect backoff with optional jitter.
///
/// The first delay is `initial`, each further failure doubles it up to `max`. A connection that
/// stayed up for at least `stable_after` resets the sequence, so a hub restart after hours of
/// service is retried quickly, while a hub that accepts and immediately drops is not hammered.
#[derive(Debug, Clone)]
pub struct Backoff {
    initial: Duration,
    max: Duration,
    stable_after: Duration,
    jitter: f64,
    failures: u32,
    connected_at: Option<Instant>,
    rng_state: u64,
}

impl Backoff {
    /// Start of the backoff sequence.
    pub const INITIAL: Duration = Duration::from_millis(200);
    /// Cap of the backoff sequence.
    pub const MAX: Duration = Duration::from_secs(5);
    /// A connection up this long counts as healthy.
    pub const STABLE_AFTER: Duration = Duration::from_secs(5);

    /// The default policy (200 ms doubling to 5 s, jitter up to −25 %), jitter seeded by `seed`.
    pub fn new(seed: u64) -> Self {
        Self::with(Self::INITIAL, Self::MAX, Self::STABLE_AFTER, 0.25, seed)
    }

    /// A policy with explicit parameters; `jitter` in `0.0..1.0` shortens each delay by a random
    /// fraction up to that much, so many devices dropped together do not return together.
    pub fn with(initial: Duration, max: Duration, stable_after: Duration, jitter: f64, seed: u64) -> Self {
        Self {
            initial,
            max: max.max(initial),
            stable_after,
            jitter: jitter.clamp(0.0, 0.99),
            failures: 0,
            connected_at: None,
            // Zero is a fixed point of xorshift.
            rng_state: seed | 1,
        }
    }

    /// The hub accepted the device at `now`.
    pub fn on_connected(&mut self, now: Instant) {
        self.connected_at = Some(now);
    }

    /// The connection attempt failed or the connection dropped at `now`: how long to wait
    /// before trying again.
    pub fn on_disconnected(&mut self, now: Instant) -> Duration {
        if let Some(since) = self.connected_at.take()
            && now.saturating_duration_since(since) >= self.stable_after
        {
            self.failures = 0;
        }
        let base = self.base_delay(self.failures);
        self.failures = self.failures.saturating_add(1);
        if self.jitter == 0.0 {
            return base;
        }
        let r = self.next_unit();
        base.mul_f64(1.0 - self.jitter * r)
    }

    /// Failures since the last healthy connection.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    fn base_delay(&self, failures: u32) -> Duration {
        let factor = 2u32.saturating_pow(failures.min(31));
        self.initial.saturating_mul(factor).min(self.max)
    }

    /// A uniform number in `[0, 1)` from a xorshift64 generator (no allocation, no dependency).
    fn next_unit(&mut self) -> f64 {
        let mut x = self.rng_state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng_state = x;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Which hub a device connects to next: the address it was given, then the cluster's hubs a
/// welcome lists (issue 25, item 5).
///
/// Every failed attempt and every dropped connection moves to the next hub of the list, wrapping
/// around, so a device whose hub died is on another one after one backoff delay, and comes back
/// to its first hub when the others fail too. The backoff ([`Backoff`]) still spaces the
/// attempts: a cluster that is down as a whole is not hammered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubChoice {
    hubs: Vec<String>,
    current: usize,
}

impl HubChoice {
    /// A device that knows one hub (`HOST:PORT`).
    pub fn new(first: impl Into<String>) -> Self {
        Self { hubs: vec![first.into()], current: 0 }
    }

    /// The hub to connect to now.
    pub fn current(&self) -> &str {
        &self.hubs[self.current]
    }

    /// Every hub the device knows, in the order it tries them.
    pub fn hubs(&self) -> &[String] {
        &self.hubs
    }

    /// The hub the device is connected to welcomed it with the cluster's list: the device now
    /// knows those hubs, and stays on the one it is connected to (kept in the list under the
    /// address it dialled when the list names it differently). An empty list (a lone hub, or one
    /// older than the field) teaches nothing and the device keeps what it knew.
    pub fn on_welcome(&mut self, listed: &[String]) {
        if listed.is_empty() {
            return;
        }
        let dialled = self.hubs[self.current].clone();
        let mut hubs: Vec<String> = Vec::with_capacity(listed.len() + 1);
        for hub in listed {
            if !hub.is_empty() && !hubs.contains(hub) {
                hubs.push(hub.clone());
            }
        }
        self.current = match hubs.iter().position(|hub| *hub == dialled) {
            Some(index) => index,
            None => {
                hubs.insert(0, dialled);
                0
            }
        };
        self.hubs = hubs;
    }

    /// The attempt failed or the connection dropped: move on to the next hub (wrapping around).
    pub fn on_disconnected(&mut self) -> &str {
        self.current = (self.current + 1) % self.hubs.len();
        self.current()
    }
}

/// How fast a device sends frames.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rate {
    /// Like a real mat: `monitor_hz` normally, `live_hz` while a `Stream` command is running.
    Follow {
        /// Frames per second while monitoring.
        monitor_hz: f64,
        /// Frames per second while streaming live.
        live_hz: f64,
    },
    /// Always `hz`, ignoring `Stream` commands (load tests).
    Fixed {
        /// Frames per second.
        hz: f64,
    },
}

impl Default for Rate {
    fn default() -> Self {
        Rate::Follow { monitor_hz: 1.0, live_hz: 10.0 }
    }
}

/// Slowest accepted rate: one frame a minute.
const MIN_HZ: f64 = 1.0 / 60.0;
/// Fastest accepted rate.
const MAX_HZ: f64 = 1_000.0;

fn period(hz: f64) -> Duration {
    let hz = if hz.is_finite() { hz.clamp(MIN_HZ, MAX_HZ) } else { MIN_HZ };
    Duration::from_secs_f64(1.0 / hz)
}

/// What the device answers to a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandOutcome {
    /// The `ok` of the ack.
    pub ok: bool,
    /// The `reason` of the ack (empty when ok).
    pub reason: String,
    /// The frame interval changed: the pacer should be told.
    pub rate_changed: bool,
}

/// The device's rate state: which interval applies now, and the effect of commands on it.
#[derive(Debug, Clone)]
pub struct RateControl {
    rate: Rate,
    live_until: Option<Instant>,
}

impl RateControl {
    /// Starts in monitoring mode (or at the fixed rate).
    pub fn new(rate: Rate) -> Self {
        Self { rate, live_until: None }
    }

    /// Whether live streaming is on at `now`.
    pub fn is_live(&self, now: Instant) -> bool {
        self.live_until.is_some_and(|until| now < until)
    }

    /// When the current live stream ends, if one runs.
    pub fn live_until(&self) -> Option<Instant> {
        self.live_until
    }

    /// The interval between frames at `now`.
    pub fn interval(&self, now: Instant) -> Duration {
        match self.rate {
            Rate::Fixed { hz } => period(hz),
            Rate::Follow { monitor_hz, live_hz } => {
                if self.is_live(now) {
                    period(live_hz)
                } else {
                    period(monitor_hz)
                }
            }
        }
    }

    /// Applies a command received at `now` and says how to acknowledge it.
    ///
    /// `Stream { seconds }` switches to the live rate for `seconds` (0 = back to monitoring) in
    /// follow mode and is acknowledged without effect at a fixed rate. The capture commands are
    /// acknowledged: a simulated mat has nothing to capture beyond the frames it already sends.
    pub fn on_command(&mut self, now: Instant, command: &Command) -> CommandOutcome {
        let ok = |rate_changed| CommandOutcome { ok: true, reason: String::new(), rate_changed };
        match (command, self.rate) {
            (Command::Stream { .. }, Rate::Fixed { .. }) => ok(false),
            (Command::Stream { seconds }, Rate::Follow { .. }) => {
                let before = self.interval(now);
                self.live_until = (*seconds > 0).then(|| now + Duration::from_secs(u64::from(*seconds)));
                ok(self.interval(now) != before)
            }
            (Command::StartSeries { .. } | Command::RemoteActivation { .. }, _) => ok(false),
        }
    }
}

/// Keeps frames on a regular grid of instants without bursting after a stall.
#[derive(Debug, Clone)]
pub struct Pacer {
    next: Instant,
}

impl Pacer {
    /// The first frame is due at `now`.
    pub fn new(now: Instant) -> Self {
        Self { next: now }
    }

    /// When the next frame is due.
    pub fn due(&self) -> Instant {
        self.next
    }

    /// A frame was sent at `now`; the next is due one `interval` after the previous due time,
    /// or one interval from now if the device fell more than an interval behind (frames that
    /// could not be sent in time are skipped, as a real device would).
    pub fn on_sent(&mut self, now: Instant, interval: Duration) {
        self.next += interval;
        if self.next + interval <= now {
            self.next = now + interval;
        }
    }

    /// The interval changed at `now`: a faster rate takes effect at once rather than after the
    /// remainder of a long monitoring interval.
    pub fn on_rate_changed(&mut self, now: Instant, interval: Duration) {
        if self.next > now + interval {
            self.next = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn backoff_doubles_from_200ms_to_a_5s_cap() {
        let t0 = Instant::now();
        let mut b = Backoff::with(Backoff::INITIAL, Backoff::MAX, Backoff::STABLE_AFTER, 0.0, 1);
        let delays: Vec<u64> = (0..8).map(|_| b.on_disconnected(t0).as_millis() as u64).collect();
        assert_eq!(delays, vec![200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000]);
    }

    #[test]
    fn backoff_resets_only_after_a_stable_connection() {
        let t0 = Instant::now();
        let mut b = Backoff::with(MS(200), MS(5_000), MS(5_000), 0.0, 1);
        b.on_disconnected(t0);
        b.on_disconnected(t0);
        // Accepted, then dropped after one second: keep backing off.
        b.on_connected(t0);
        assert_eq!(b.on_disconnected(t0 + MS(1_000)), MS(800));
        // Accepted, then dropped after a minute: start over.
        b.on_connected(t0);
        assert_eq!(b.on_disconnected(t0 + MS(60_000)), MS(200));
        assert_eq!(b.failures(), 1);
    }

    #[test]
    fn backoff_jitter_stays_within_bounds_and_varies() {
        let t0 = Instant::now();
        let mut b = Backoff::new(42);
        let mut seen = std::collections::HashSet::new();
        for i in 0..40u32 {
            let base = Backoff::INITIAL.saturating_mul(2u32.saturating_pow(i.min(31))).min(Backoff::MAX);
            let d = b.on_disconnected(t0);
            assert!(d <= base && d >= base.mul_f64(0.75), "{d:?} vs {base:?}");
            seen.insert(d);
        }
        assert!(seen.len() > 10);
        assert!(b.on_disconnected(t0) <= Backoff::MAX);
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_lone_hub_is_retried_as_before() {
        let mut choice = HubChoice::new("127.0.0.1:4433");
        choice.on_welcome(&[]);
        assert_eq!(choice.on_disconnected(), "127.0.0.1:4433");
        assert_eq!(choice.on_disconnected(), "127.0.0.1:4433");
    }

    #[test]
    fn a_dropped_device_tries_the_next_hub_of_its_welcome_and_comes_back() {
        let mut choice = HubChoice::new("10.0.0.1:4433");
        choice.on_welcome(&strings(&["10.0.0.1:4433", "10.0.0.2:4433", "10.0.0.3:4433"]));
        assert_eq!(choice.current(), "10.0.0.1:4433", "stays on the hub it is connected to");
        assert_eq!(choice.on_disconnected(), "10.0.0.2:4433");
        // B did not answer either: C, then A again.
        assert_eq!(choice.on_disconnected(), "10.0.0.3:4433");
        assert_eq!(choice.on_disconnected(), "10.0.0.1:4433");
    }

    #[test]
    fn the_welcome_of_the_hub_it_moved_to_keeps_it_there() {
        let mut choice = HubChoice::new("10.0.0.1:4433");
        choice.on_welcome(&strings(&["10.0.0.1:4433", "10.0.0.2:4433"]));
        assert_eq!(choice.on_disconnected(), "10.0.0.2:4433");
        // Hub B lists itself first; the device is on B and goes back to A if B goes.
        choice.on_welcome(&strings(&["10.0.0.2:4433", "10.0.0.1:4433"]));
        assert_eq!(choice.current(), "10.0.0.2:4433");
        assert_eq!(choice.on_disconnected(), "10.0.0.1:4433");
        // A hub the device knew only from an old list and no longer listed is forgotten.
        choice.on_welcome(&strings(&["10.0.0.1:4433", "10.0.0.4:4433"]));
        assert_eq!(choice.hubs(), ["10.0.0.1:4433", "10.0.0.4:4433"]);
        // A hub that stops listing (old version) does not make the device forget the others.
        choice.on_welcome(&[]);
        assert_eq!(choice.hubs(), ["10.0.0.1:4433", "10.0.0.4:4433"]);
    }

    #[test]
    fn a_hub_listed_under_another_name_keeps_the_dialled_address() {
        let mut choice = HubChoice::new("localhost:4433");
        choice.on_welcome(&strings(&["hub-a.ward.local:4433", "hub-b.ward.local:4433", "hub-b.ward.local:4433"]));
        assert_eq!(choice.hubs(), ["localhost:4433", "hub-a.ward.local:4433", "hub-b.ward.local:4433"]);
        assert_eq!(choice.current(), "localhost:4433");
    }

    #[test]
    fn follow_rate_obeys_stream_commands_and_expires() {
        let t0 = Instant::now();
        let mut rc = RateControl::new(Rate::Follow { monitor_hz: 2.0, live_hz: 20.0 });
        assert_eq!(rc.interval(t0), MS(500));
        let out = rc.on_command(t0, &Command::Stream { seconds: 3 });
        assert!(out.ok && out.rate_changed);
        assert_eq!(rc.interval(t0 + MS(2_999)), MS(50));
        assert_eq!(rc.interval(t0 + MS(3_000)), MS(500));
        // Restart, then stop early.
        rc.on_command(t0 + MS(3_500), &Command::Stream { seconds: 10 });
        assert!(rc.is_live(t0 + MS(4_000)));
        let out = rc.on_command(t0 + MS(4_000), &Command::Stream { seconds: 0 });
        assert!(out.ok && out.rate_changed);
        assert!(!rc.is_live(t0 + MS(4_000)));
        assert_eq!(rc.interval(t0 + MS(4_000)), MS(500));
    }

    #[test]
    fn fixed_rate_ignores_stream_commands_but_acks_them() {
        let t0 = Instant::now();
        let mut rc = RateControl::new(Rate::Fixed { hz: 10.0 });
        let out = rc.on_command(t0, &Command::Stream { seconds: 60 });
        assert!(out.ok && !out.rate_changed);
        assert_eq!(rc.interval(t0 + MS(1)), MS(100));
        let out = rc.on_command(t0, &Command::StartSeries { period_ms: 3_600_000, repetitions: 24 });
        assert!(out.ok);
    }

    #[test]
    fn absurd_rates_are_clamped() {
        let t0 = Instant::now();
        assert_eq!(RateControl::new(Rate::Fixed { hz: 0.0 }).interval(t0), Duration::from_secs(60));
        assert_eq!(RateControl::new(Rate::Fixed { hz: f64::NAN }).interval(t0), Duration::from_secs(60));
        assert_eq!(RateControl::new(Rate::Fixed { hz: 1e9 }).interval(t0), MS(1));
    }

    #[test]
    fn pacer_keeps_a_grid_and_skips_after_a_stall() {
        let t0 = Instant::now();
        let mut p = Pacer::new(t0);
        assert_eq!(p.due(), t0);
        p.on_sent(t0 + MS(3), MS(100));
        assert_eq!(p.due(), t0 + MS(100));
        p.on_sent(t0 + MS(101), MS(100));
        assert_eq!(p.due(), t0 + MS(200));
        // Stalled for a second: no burst of ten frames, just carry on from now.
        p.on_sent(t0 + MS(1_200), MS(100));
        assert_eq!(p.due(), t0 + MS(1_300));
    }

    #[test]
    fn pacer_speeds_up_at_once_when_streaming_starts() {
        let t0 = Instant::now();
        let mut p = Pacer::new(t0);
        p.on_sent(t0, MS(1_000));
        p.on_rate_changed(t0 + MS(10), MS(100));
        assert_eq!(p.due(), t0 + MS(10));
        // Slowing down keeps the already scheduled frame.
        p.on_sent(t0 + MS(10), MS(100));
        p.on_rate_changed(t0 + MS(20), MS(1_000));
        assert_eq!(p.due(), t0 + MS(110));
    }
}

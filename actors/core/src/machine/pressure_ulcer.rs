//! The repositioning clock behind the `Ulcer Risk` alarm: how long each body region has stayed
//! loaded, and whether the patient has been turned.
//!
//! Each of the [`RegionLoads`] regions has a load episode: it starts when the region becomes
//! loaded and ends only after real offloading, the region staying unloaded for
//! [`UlcerConfig::offload`] (default 15 min). A shorter lift (a hip raised for a minute) does not
//! end it, and the time off counts as loaded, since tissue does not recover in a minute. The
//! longest live episode sets the [`RepositioningTier`]: `DueSoon` in the last
//! [`UlcerConfig::due_soon`] before the repositioning interval (default 2 h), but never more than
//! the last [`DUE_SOON_MAX_SHARE`] of the interval ([`UlcerConfig::due_soon_window`]: a 15 min
//! interval is due soon in its last 3 min 45 s, not from the turn on), `Due` from the interval,
//! `Overdue` from [`UlcerConfig::overdue_after`] past it.
//!
//! A turn resets every episode (each region loaded at that moment starts afresh) without anyone
//! clicking. A turn is either a posture change (a confident posture other than the episode's) or
//! a load shift (the loaded regions of the back and pelvis, [`RegionLoads::torso`], differ from
//! the episode's by a Jaccard distance of [`UlcerConfig::shift_distance`] or more: a raised knee
//! or a moved arm changes other regions), held for [`UlcerConfig::turn_confirmation`] so one
//! noisy frame or a restless minute is not a turn. A posture read below
//! [`UlcerConfig::min_posture_confidence`] (the classifier's [`posture::CONFIDENT`]) is
//! *uncertain*: a change to it is no posture change, so it never makes a turn on its own. What must hold is being away from the
//! episode's posture, not one new posture: Left then Right for 50 s each is a turn. During the confirmation, a reading below the
//! confidence threshold is no evidence either way; only a confident reading of the episode's
//! posture, with the torso's load back in place, cancels it. A nurse may also record a turn by
//! hand ([`UlcerRiskMachine::record_turn`]).
//!
//! The machine samples the map at most once per [`UlcerConfig::sample_interval`] (the regions
//! cost a pass over the cells), so it is cheap on a 30 Hz stream.
//!
//! Inputs: [`UlcerRiskMachine::handle_map`] (or [`UlcerRiskMachine::handle_regions`]),
//! [`UlcerRiskMachine::handle_timeout`], [`UlcerRiskMachine::record_turn`],
//! [`UlcerRiskMachine::set_interval`]. Outputs ([`UlcerOutput`]) are drained with
//! [`UlcerRiskMachine::poll_output`]; [`UlcerRiskMachine::poll_timeout`] is the next tier boundary
//! or offload end.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::body_regions::{BodySpan, REGION_COUNT, RegionLoads};
use super::posture::{self, Posture, PostureReading};
use super::pressure_map::PressureMap;
use super::wall_clock::WallClock;

/// Default repositioning interval.
pub const DEFAULT_REPOSITIONING_INTERVAL: Duration = Duration::from_secs(2 * 3_600);

/// The due-soon window is at most this share of the repositioning interval (a quarter). With the
/// default 2 h interval the 15 min window is within it; a short interval (15 min, the shortest a
/// nurse may set, or a demo's scaled one) is not "due soon" right after a turn (issue: Bed 107
/// read "Turn due soon" with 15 min left of a 15 min interval).
pub const DUE_SOON_MAX_SHARE: f64 = 0.25;

/// Tuning of the clock; [`UlcerConfig::default`] holds the documented defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UlcerConfig {
    /// A region loaded this long is due for repositioning (per patient or device).
    pub interval: Duration,
    /// A region off the mattress this long is really offloaded.
    pub offload: Duration,
    /// `DueSoon` starts this long before the interval ends, at most [`DUE_SOON_MAX_SHARE`] of the
    /// interval ([`UlcerConfig::due_soon_window`]).
    pub due_soon: Duration,
    /// `Overdue` starts this long after the interval ends.
    pub overdue_after: Duration,
    /// A posture change or load shift must hold this long to count as a turn.
    pub turn_confirmation: Duration,
    /// Minimum confidence of a posture reading to count: below it the reading is *uncertain*
    /// and the clock takes no turn decision on it (default [`posture::CONFIDENT`], where held-out
    /// readings under every augmented sensor are right ≥ 99 % of the time).
    pub min_posture_confidence: f32,
    /// Jaccard distance between loaded-region sets that counts as a load shift.
    pub shift_distance: f32,
    /// Maps closer together than this are not sampled.
    pub sample_interval: Duration,
}

impl Default for UlcerConfig {
    fn default() -> Self {
        UlcerConfig {
            interval: DEFAULT_REPOSITIONING_INTERVAL,
            offload: Duration::from_secs(15 * 60),
            due_soon: Duration::from_secs(15 * 60),
            overdue_after: Duration::from_secs(30 * 60),
            turn_confirmation: Duration::from_secs(60),
            min_posture_confidence: posture::CONFIDENT,
            shift_distance: 0.4,
            sample_interval: Duration::from_secs(1),
        }
    }
}

impl UlcerConfig {
    /// How long before the interval ends the clock is `DueSoon`: [`UlcerConfig::due_soon`], but
    /// no more than [`DUE_SOON_MAX_SHARE`] of the interval, so "due soon" always means the turn
    /// really is near, whatever the interval.
    pub fn due_soon_window(&self) -> Duration {
        self.due_soon.min(self.interval.mul_f64(DUE_SOON_MAX_SHARE))
    }
}

/// How urgent repositioning is, shown on the device page and the card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum RepositioningTier {
    /// Nothing to do yet (or nobody on the mat).
    Ok,
    /// The interval ends within the due-soon window (`UlcerConfig::due_soon_window`).
    DueSoon,
    /// The interval has ended: `Ulcer Risk`.
    Due,
    /// Well past the interval.
    Overdue,
}

impl RepositioningTier {
    /// Whether the patient is at risk (the `Ulcer Risk` status).
    pub fn at_risk(self) -> bool {
        self >= RepositioningTier::Due
    }

    /// The name the client shows.
    pub fn name(self) -> &'static str {
        match self {
            RepositioningTier::Ok => "ok",
            RepositioningTier::DueSoon => "dueSoon",
            RepositioningTier::Due => "due",
            RepositioningTier::Overdue => "overdue",
        }
    }
}

/// Why the clock was reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnReason {
    /// The posture changed (from, to).
    Posture(Posture, Posture),
    /// The loaded regions moved.
    LoadShift,
    /// A nurse recorded a turn.
    Manual,
}

/// What the clock wants known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UlcerOutput {
    /// The tier changed.
    Tier(RepositioningTier),
    /// A turn was detected and every region's clock restarted.
    Turned(TurnReason),
}

/// Why the clock stands where it does: the region whose load episode is the longest, how long it
/// has been loaded without the relief the rule asks for (staying off the mattress for
/// [`UlcerConfig::offload`]), against which interval. What an Ulcer Risk alarm says (issue 23).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UlcerReason {
    /// The regions loaded longest (every region whose episode began at the oldest start).
    pub regions: RegionLoads,
    /// Where the body lay along the mat at the last sample that found one (`None`: none since the
    /// clock started or was restored): which part of the body each region held.
    pub body: Option<BodySpan>,
    /// How long it has been loaded (short lifts included: they are no relief).
    pub loaded_for: Duration,
    /// The offloading that would have relieved it.
    pub offload: Duration,
    /// The repositioning interval.
    pub interval: Duration,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RegionClock {
    /// Start of the live load episode.
    loaded_since: Option<Instant>,
    /// Last sample on which the region was loaded.
    last_loaded: Option<Instant>,
}

/// The repositioning clock as a restart must find it: every region's load episode, the turn
/// being confirmed and the tier, with wall-clock times. The tuning is not kept (the restored
/// machine's configuration supplies it, the interval included).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UlcerClockSnapshot {
    /// Per region (in [`RegionLoads`] order): start of the live load episode, Unix ms.
    pub loaded_since_ms: Vec<Option<u64>>,
    /// Per region: the last sample on which it was loaded, Unix ms.
    pub last_loaded_ms: Vec<Option<u64>>,
    /// The last sample, Unix ms.
    pub last_sample_ms: Option<u64>,
    /// The loaded regions a turn is measured against ([`RegionLoads::bits`]).
    pub reference_loads: u32,
    /// The posture a turn is measured against.
    pub reference_posture: Option<Posture>,
    /// Since when a turn is being confirmed, Unix ms.
    pub turn_candidate_since_ms: Option<u64>,
    /// The new posture being confirmed.
    pub candidate_posture: Option<Posture>,
    /// The tier (its alarm, if any, was raised before the snapshot).
    pub tier: RepositioningTier,
}

/// The repositioning clock of one patient on one mat.
#[derive(Debug, Clone)]
pub struct UlcerRiskMachine {
    config: UlcerConfig,
    regions: [RegionClock; REGION_COUNT],
    last_sample: Option<Instant>,
    body: Option<BodySpan>,
    reference_loads: RegionLoads,
    reference_posture: Option<Posture>,
    turn_candidate_since: Option<Instant>,
    candidate_posture: Option<Posture>,
    tier: RepositioningTier,
    outputs: VecDeque<UlcerOutput>,
    last_turn: Option<TurnMoment>,
}

/// Where the clock stood when it last restarted for a turn: what turn compliance counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnMoment {
    /// When the turn happened (for a detected turn, when the change began).
    pub at: Instant,
    /// The tier before the turn.
    pub tier_before: RepositioningTier,
    /// How long the longest load episode had lasted at the turn.
    pub loaded_for: Duration,
}

impl UlcerRiskMachine {
    /// A clock with nobody on the mat.
    pub fn new(config: UlcerConfig) -> Self {
        UlcerRiskMachine {
            config,
            regions: [RegionClock::default(); REGION_COUNT],
            last_sample: None,
            body: None,
            reference_loads: RegionLoads::EMPTY,
            reference_posture: None,
            turn_candidate_since: None,
            candidate_posture: None,
            tier: RepositioningTier::Ok,
            outputs: VecDeque::new(),
            last_turn: None,
        }
    }

    /// What a restart must keep, with wall-clock times.
    pub fn snapshot(&self, clock: WallClock) -> UlcerClockSnapshot {
        UlcerClockSnapshot {
            loaded_since_ms: self.regions.iter().map(|r| clock.unix_ms_opt(r.loaded_since)).collect(),
            last_loaded_ms: self.regions.iter().map(|r| clock.unix_ms_opt(r.last_loaded)).collect(),
            last_sample_ms: clock.unix_ms_opt(self.last_sample),
            reference_loads: self.reference_loads.bits(),
            reference_posture: self.reference_posture,
            turn_candidate_since_ms: clock.unix_ms_opt(self.turn_candidate_since),
            candidate_posture: self.candidate_posture,
            tier: self.tier,
        }
    }

    /// The clock of a snapshot, tuned by `config`. No output is queued: the tier held before.
    pub fn from_snapshot(config: UlcerConfig, snapshot: &UlcerClockSnapshot, clock: WallClock) -> Self {
        let mut machine = Self::new(config);
        for (i, region) in machine.regions.iter_mut().enumerate() {
            region.loaded_since = clock.instant_opt(snapshot.loaded_since_ms.get(i).copied().flatten());
            region.last_loaded = clock.instant_opt(snapshot.last_loaded_ms.get(i).copied().flatten());
        }
        machine.last_sample = clock.instant_opt(snapshot.last_sample_ms);
        machine.reference_loads = RegionLoads::from_bits(snapshot.reference_loads);
        machine.reference_posture = snapshot.reference_posture;
        machine.turn_candidate_since = clock.instant_opt(snapshot.turn_candidate_since_ms);
        machine.candidate_posture = snapshot.candidate_posture;
        machine.tier = snapshot.tier;
        machine
    }

    /// The current tier.
    pub fn tier(&self) -> RepositioningTier {
        self.tier
    }

    /// The configuration in use.
    pub fn config(&self) -> &UlcerConfig {
        &self.config
    }

    /// How long the longest live load episode has lasted at `now`.
    pub fn longest_load(&self, now: Instant) -> Duration {
        self.oldest_episode().map(|since| now.saturating_duration_since(since)).unwrap_or_default()
    }

    /// How long nothing has loaded the mat at `now` while its load episode lives on: the patient
    /// got up (or was lifted off) less than [`UlcerConfig::offload`] ago, and the clock counts the
    /// time off as loaded until then. `None` while a region is loaded at the last sample, or
    /// with no live episode (nobody on the mat, or off it long enough).
    pub fn unloaded_for(&self, now: Instant) -> Option<Duration> {
        let sample = self.last_sample?;
        let last_loaded = self.regions.iter().filter(|r| r.loaded_since.is_some()).filter_map(|r| r.last_loaded).max()?;
        (last_loaded < sample).then(|| now.saturating_duration_since(last_loaded))
    }

    /// Which region has been loaded longest at `now`, and for how long (`None`: nobody on the mat).
    pub fn reason(&self, now: Instant) -> Option<UlcerReason> {
        let since = self.oldest_episode()?;
        let bits = self.regions.iter().enumerate().filter(|(_, r)| r.loaded_since == Some(since)).fold(0u32, |bits, (i, _)| bits | 1 << i);
        Some(UlcerReason {
            regions: RegionLoads::from_bits(bits),
            body: self.body,
            loaded_for: now.saturating_duration_since(since),
            offload: self.config.offload,
            interval: self.config.interval,
        })
    }

    /// A new repositioning interval for this patient or device; the tier follows at once.
    pub fn set_interval(&mut self, now: Instant, interval: Duration) {
        self.config.interval = interval;
        self.update_tier(now);
    }

    /// A frame with the posture read from it (if any). Sampled at most once per
    /// `sample_interval`; where the body lies is kept from the last sample that found one.
    pub fn handle_map(&mut self, now: Instant, map: &PressureMap<'_>, posture: Option<PostureReading>) {
        if self.last_sample.is_some_and(|last| now < last + self.config.sample_interval) {
            return;
        }
        if let Some(body) = BodySpan::of(map) {
            self.body = Some(body);
        }
        self.handle_regions(now, RegionLoads::of(map), posture);
    }

    /// A sample of the loaded regions (what [`Self::handle_map`] computes from a map).
    pub fn handle_regions(&mut self, now: Instant, loads: RegionLoads, posture: Option<PostureReading>) {
        self.last_sample = Some(now);
        self.expire_offloaded(now);
        for (i, clock) in self.regions.iter_mut().enumerate() {
            if loads.is_loaded(i) {
                clock.loaded_since.get_or_insert(now);
                clock.last_loaded = Some(now);
            }
        }
        let posture = posture.filter(|p| p.confidence >= self.config.min_posture_confidence).map(|p| p.posture);
        if loads == RegionLoads::EMPTY {
            // Nobody on the mat: nothing to compare a turn against.
            self.turn_candidate_since = None;
        } else if self.reference_loads == RegionLoads::EMPTY {
            // The patient just lay down (or came back): this is the episode's reference.
            self.reference_loads = loads;
            self.reference_posture = posture;
        } else {
            if self.reference_posture.is_none() {
                self.reference_posture = posture;
            }
            self.watch_for_turn(now, loads, posture);
        }
        self.update_tier(now);
    }

    /// A nurse recorded a turn by hand, done at `at` (not after `now`): each region loaded at the
    /// last sample starts afresh from then (or from when it became loaded, if later), and the next
    /// sample becomes the reference a further turn is measured against.
    pub fn record_turn(&mut self, now: Instant, at: Instant) {
        self.turn(at.min(now), TurnReason::Manual, None);
        self.update_tier(now);
    }

    /// Acts on tier boundaries and offload ends due at `now`.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.expire_offloaded(now);
        self.update_tier(now);
    }

    /// The next tier boundary or the end of a region's offloading.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let c = &self.config;
        let tier_boundary = self.oldest_episode().and_then(|since| {
            let due = since + c.interval;
            [due.checked_sub(c.due_soon_window()), Some(due), Some(due + c.overdue_after)]
                .into_iter()
                .flatten()
                .find(|boundary| self.tier_for(boundary.saturating_duration_since(since)) > self.tier)
        });
        let offload_end = self
            .regions
            .iter()
            .filter(|r| r.loaded_since.is_some())
            .filter_map(|r| r.last_loaded.map(|last| last + c.offload))
            .filter(|end| self.last_sample.is_none_or(|sample| *end > sample))
            .min();
        [tier_boundary, offload_end].into_iter().flatten().min()
    }

    /// Where the clock stood at the last turn (recorded or detected), if there was one.
    pub fn last_turn(&self) -> Option<TurnMoment> {
        self.last_turn
    }

    /// Next output.
    pub fn poll_output(&mut self) -> Option<UlcerOutput> {
        self.outputs.pop_front()
    }

    fn watch_for_turn(&mut self, now: Instant, loads: RegionLoads, posture: Option<Posture>) {
        let posture_changed = matches!((self.reference_posture, posture), (Some(a), Some(b)) if a != b);
        let shifted = loads.torso().distance(self.reference_loads.torso()) >= self.config.shift_distance;
        if !(posture_changed || shifted) && posture.is_none() && self.turn_candidate_since.is_some() {
            // An unsure reading says nothing about whether the turn holds.
            return;
        }
        if !(posture_changed || shifted) {
            self.turn_candidate_since = None;
            self.candidate_posture = None;
            return;
        }
        if posture_changed {
            // Away from the episode's posture, whichever new one: the confirmation runs from when
            // the patient left it. A posture changed every 50 s (Left → Right → Prone → Supine)
            // once restarted it at each change, so no turn was ever confirmed and a patient moved
            // all night raised an Ulcer Risk alarm (issue 23).
            self.candidate_posture = posture;
        }
        let since = *self.turn_candidate_since.get_or_insert(now);
        if now >= since + self.config.turn_confirmation {
            let reason = match (self.reference_posture, posture) {
                (Some(from), Some(to)) if posture_changed => TurnReason::Posture(from, to),
                _ => TurnReason::LoadShift,
            };
            // The turn happened when the change began; the clocks restart from then.
            self.turn(since, reason, Some((loads, posture)));
        }
    }

    fn turn(&mut self, at: Instant, reason: TurnReason, now_loaded: Option<(RegionLoads, Option<Posture>)>) {
        self.last_turn = Some(TurnMoment { at, tier_before: self.tier, loaded_for: self.longest_load(at) });
        for (i, clock) in self.regions.iter_mut().enumerate() {
            let loaded = match now_loaded {
                Some((loads, _)) => loads.is_loaded(i),
                None => clock.loaded_since.is_some() && clock.last_loaded == self.last_sample,
            };
            // A region loaded after the turn keeps its own, later start.
            let since = clock.loaded_since.map_or(at, |s| s.max(at));
            *clock =
                if loaded { RegionClock { loaded_since: Some(since), last_loaded: clock.last_loaded } } else { RegionClock::default() };
        }
        if let Some((loads, posture)) = now_loaded {
            self.reference_loads = loads;
            self.reference_posture = posture;
        } else {
            // A manual turn: the next sample becomes the reference.
            self.reference_loads = RegionLoads::EMPTY;
            self.reference_posture = None;
        }
        self.turn_candidate_since = None;
        self.candidate_posture = None;
        self.outputs.push_back(UlcerOutput::Turned(reason));
        let now = self.last_sample.map_or(at, |s| s.max(at));
        self.update_tier(now);
    }

    fn expire_offloaded(&mut self, now: Instant) {
        let offload = self.config.offload;
        for clock in &mut self.regions {
            if clock.last_loaded.is_some_and(|last| now >= last + offload) {
                *clock = RegionClock::default();
            }
        }
        if self.regions.iter().all(|r| r.loaded_since.is_none()) {
            self.reference_loads = RegionLoads::EMPTY;
            self.reference_posture = None;
        }
    }

    fn oldest_episode(&self) -> Option<Instant> {
        self.regions.iter().filter_map(|r| r.loaded_since).min()
    }

    fn tier_for(&self, loaded: Duration) -> RepositioningTier {
        let c = &self.config;
        if loaded >= c.interval + c.overdue_after {
            RepositioningTier::Overdue
        } else if loaded >= c.interval {
            RepositioningTier::Due
        } else if loaded + c.due_soon_window() >= c.interval {
            RepositioningTier::DueSoon
        } else {
            RepositioningTier::Ok
        }
    }

    fn update_tier(&mut self, now: Instant) {
        let tier = match self.oldest_episode() {
            Some(since) => self.tier_for(now.saturating_duration_since(since)),
            None => RepositioningTier::Ok,
        };
        if tier != self.tier {
            self.tier = tier;
            self.outputs.push_back(UlcerOutput::Tier(tier));
        }
    }
}

#[cfg(test)]
mod tests;

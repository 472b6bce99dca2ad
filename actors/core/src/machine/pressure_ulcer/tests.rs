//! Scenario tests of the repositioning clock: simulated hours, one sample a minute.

use super::*;
use mat_protocol::CellFormat;

const MIN: Duration = Duration::from_secs(60);

/// Shoulders, back and pelvis in the middle column of the grid (supine-like).
const BACK: RegionLoads = RegionLoads::from_bits(0b010_010_010_010_000_000);
/// The same person on a side: shifted to the first column of the grid.
const SIDE: RegionLoads = RegionLoads::from_bits(0b001_001_001_001_000_000);

fn supine() -> Option<PostureReading> {
    Some(PostureReading { posture: Posture::Supine, confidence: 0.9 })
}

fn left() -> Option<PostureReading> {
    Some(PostureReading { posture: Posture::LeftLateral, confidence: 0.9 })
}

struct Sim {
    m: UlcerRiskMachine,
    t0: Instant,
    now: Instant,
    out: Vec<(Duration, UlcerOutput)>,
}

impl Sim {
    fn new() -> Self {
        let t0 = Instant::now();
        Sim { m: UlcerRiskMachine::new(UlcerConfig::default()), t0, now: t0, out: Vec::new() }
    }

    /// One sample a minute for `minutes`, running due timeouts in between as the actor would.
    fn run(&mut self, minutes: u32, loads: RegionLoads, posture: Option<PostureReading>) {
        for _ in 0..minutes {
            self.timeouts_until(self.now);
            self.m.handle_regions(self.now, loads, posture);
            self.drain();
            self.now += MIN;
        }
    }

    /// No samples (the mat sends nothing) for `minutes`; only timeouts.
    fn idle(&mut self, minutes: u32) {
        self.now += MIN * minutes;
        self.timeouts_until(self.now);
    }

    fn timeouts_until(&mut self, until: Instant) {
        while let Some(deadline) = self.m.poll_timeout().filter(|d| *d <= until) {
            self.m.handle_timeout(deadline);
            self.drain_at(deadline);
        }
    }

    fn drain(&mut self) {
        self.drain_at(self.now);
    }

    fn drain_at(&mut self, at: Instant) {
        while let Some(o) = self.m.poll_output() {
            self.out.push((at.duration_since(self.t0), o));
        }
    }

    fn tiers(&self) -> Vec<(u64, RepositioningTier)> {
        self.out
            .iter()
            .filter_map(|(at, o)| match o {
                UlcerOutput::Tier(t) => Some((at.as_secs() / 60, *t)),
                UlcerOutput::Turned(_) => None,
            })
            .collect()
    }
}

#[test]
fn lying_still_escalates_due_soon_due_overdue_on_time() {
    let mut sim = Sim::new();
    sim.run(200, BACK, supine());
    assert_eq!(sim.tiers(), vec![(105, RepositioningTier::DueSoon), (120, RepositioningTier::Due), (150, RepositioningTier::Overdue)]);
    assert!(sim.m.tier().at_risk());
}

#[test]
fn the_tiers_fire_between_samples_from_timeouts_alone() {
    let mut sim = Sim::new();
    let minutes = |m: u64| Duration::from_secs(m * 60);
    sim.m = UlcerRiskMachine::new(UlcerConfig {
        interval: minutes(10),
        due_soon: minutes(2),
        overdue_after: minutes(3),
        ..UlcerConfig::default()
    });
    sim.run(1, BACK, supine());
    // The mat goes quiet: the clock escalates at the exact boundaries, and with no sample for the
    // offload time the regions count as offloaded. (The mat machine only runs these timeouts
    // while the device is functional, so a disconnected mat does not look offloaded.)
    sim.idle(60);
    assert_eq!(
        sim.tiers(),
        vec![(8, RepositioningTier::DueSoon), (10, RepositioningTier::Due), (13, RepositioningTier::Overdue), (15, RepositioningTier::Ok)]
    );
}

#[test]
fn a_short_interval_is_due_soon_only_in_its_last_quarter() {
    // Bed 107 (a 15 min interval) read "Turn due soon" right after a turn, with 15 min left: the
    // 15 min window covered the whole interval. Due soon is at most the last quarter of it.
    let mut sim = Sim::new();
    let seconds = Duration::from_secs;
    sim.m = UlcerRiskMachine::new(UlcerConfig { interval: seconds(15 * 60), ..UlcerConfig::default() });
    assert_eq!(sim.m.config().due_soon_window(), seconds(225));
    sim.run(1, BACK, supine());
    assert_eq!(sim.m.tier(), RepositioningTier::Ok, "just after the clock started, nothing is soon");
    sim.run(16, BACK, supine());
    let tiers: Vec<(Duration, RepositioningTier)> =
        sim.out.iter().filter_map(|(at, o)| if let UlcerOutput::Tier(t) = o { Some((*at, *t)) } else { None }).collect();
    assert_eq!(tiers, vec![(seconds(675), RepositioningTier::DueSoon), (seconds(900), RepositioningTier::Due)]);
    // The default 2 h interval keeps its 15 min window (a quarter would be 30 min).
    assert_eq!(UlcerConfig::default().due_soon_window(), seconds(15 * 60));
}

#[test]
fn a_turn_in_time_resets_the_clock_without_anyone_clicking() {
    let mut sim = Sim::new();
    sim.run(90, BACK, supine());
    sim.run(100, SIDE, left());
    let turns: Vec<UlcerOutput> = sim.out.iter().map(|(_, o)| *o).filter(|o| matches!(o, UlcerOutput::Turned(_))).collect();
    assert_eq!(turns, vec![UlcerOutput::Turned(TurnReason::Posture(Posture::Supine, Posture::LeftLateral))]);
    // DueSoon at 105 min would have come without the turn; after it the clock runs from 90 min,
    // so nothing is due by 190 min.
    assert_eq!(sim.tiers(), vec![]);
    assert!(sim.m.longest_load(sim.now) < Duration::from_secs(101 * 60));
}

#[test]
fn a_turn_must_hold_for_the_confirmation_time() {
    let mut sim = Sim::new();
    sim.run(60, BACK, supine());
    // A restless half minute on the side, then back: not a turn.
    sim.m.handle_regions(sim.now, SIDE, left());
    sim.m.handle_regions(sim.now + Duration::from_secs(30), BACK, supine());
    sim.now += MIN;
    sim.run(70, BACK, supine());
    assert!(!sim.out.iter().any(|(_, o)| matches!(o, UlcerOutput::Turned(_))));
    assert_eq!(sim.tiers().last(), Some(&(120, RepositioningTier::Due)));
}

/// Issue 23: the device log showed a posture change every 50 s (Left Lateral → Right Lateral →
/// Prone → Supine) and yet an Ulcer Risk alarm was raised. Each new posture restarted the 60 s
/// confirmation, so none held long enough to count.
#[test]
fn a_posture_changed_every_fifty_seconds_is_counted_as_turns_and_never_falls_due() {
    const OTHER_SIDE: RegionLoads = RegionLoads::from_bits(0b100_100_100_100_000_000);
    let reading = |posture| Some(PostureReading { posture, confidence: 0.9 });
    let cycle = [
        (SIDE, reading(Posture::LeftLateral)),
        (OTHER_SIDE, reading(Posture::RightLateral)),
        (BACK, reading(Posture::Prone)),
        (BACK, reading(Posture::Supine)),
    ];
    let mut sim = Sim::new();
    sim.run(10, BACK, supine());
    // Three hours, a sample every 10 s, a new posture every 50 s.
    let start = sim.now;
    for step in 0..(3 * 3_600 / 10) {
        let now = start + Duration::from_secs(step * 10);
        sim.timeouts_until(now);
        let (loads, posture) = cycle[(step as usize / 5) % cycle.len()];
        sim.m.handle_regions(now, loads, posture);
        sim.drain_at(now);
    }
    let turns = sim.out.iter().filter(|(_, o)| matches!(o, UlcerOutput::Turned(TurnReason::Posture(..)))).count();
    assert!(turns >= 100, "{turns} turns counted in 3 h of changes every 50 s");
    assert!(!sim.tiers().iter().any(|(_, t)| t.at_risk()), "{:?}", sim.tiers());
    assert!(sim.m.longest_load(start + Duration::from_secs(3 * 3_600)) < 5 * MIN);
}

#[test]
fn a_load_shift_without_a_posture_is_a_turn() {
    let mut sim = Sim::new();
    sim.run(60, BACK, None);
    sim.run(70, SIDE, None);
    assert!(sim.out.iter().any(|(_, o)| *o == UlcerOutput::Turned(TurnReason::LoadShift)));
    assert_eq!(sim.tiers(), vec![]);
}

#[test]
fn a_short_lift_is_not_offloading_but_fifteen_minutes_off_is() {
    let mut sim = Sim::new();
    sim.run(60, BACK, supine());
    sim.run(10, RegionLoads::EMPTY, None);
    sim.run(60, BACK, supine());
    assert_eq!(
        sim.tiers().iter().find(|(_, t)| *t == RepositioningTier::Due),
        Some(&(120, RepositioningTier::Due)),
        "10 min off counts as loaded"
    );

    let mut sim = Sim::new();
    sim.run(60, BACK, supine());
    sim.run(15, RegionLoads::EMPTY, None);
    sim.run(100, BACK, supine());
    // The clock restarted at 75 min: DueSoon would only come at 180 min.
    assert_eq!(sim.tiers(), vec![]);
    assert!(!sim.m.tier().at_risk());
}

#[test]
fn an_empty_mat_within_the_offload_time_says_for_how_long_it_has_been_empty() {
    let mut sim = Sim::new();
    assert_eq!(sim.m.unloaded_for(sim.now), None, "nobody yet");
    sim.run(30, BACK, supine());
    assert_eq!(sim.m.unloaded_for(sim.now), None, "loaded at the last sample");
    // Up at 30 min: the samples of minutes 30..=39 are empty; the last load was at 29 min.
    sim.run(10, RegionLoads::EMPTY, None);
    assert_eq!(sim.m.unloaded_for(sim.now), Some(11 * MIN), "from the last loaded sample");
    assert_eq!(sim.m.longest_load(sim.now), 40 * MIN, "the time off counts as loaded");
    // Back before the offload time: loaded again, the same episode.
    sim.run(1, BACK, supine());
    assert_eq!(sim.m.unloaded_for(sim.now), None);
    assert_eq!(sim.m.longest_load(sim.now), 41 * MIN);
    // Away for the whole offload time: the episode ends, and the mat is simply empty.
    sim.run(16, RegionLoads::EMPTY, None);
    assert_eq!(sim.m.unloaded_for(sim.now), None, "offloaded: no episode to count");
    assert_eq!(sim.m.longest_load(sim.now), Duration::ZERO);
}

#[test]
fn only_the_region_that_stayed_loaded_keeps_its_clock() {
    let mut sim = Sim::new();
    // Middle column of bands 2 (back) and 3 (pelvis).
    let pelvis_and_back = RegionLoads::from_bits(0b010_010_000_000);
    let pelvis_only = RegionLoads::from_bits(0b010_000_000_000);
    sim.run(60, pelvis_and_back, None);
    // The back is lifted for 20 min (a pillow); the pelvis stays loaded. Distance 0.5: the load
    // shift is a turn, so the pelvis clock restarts too — a coarse grid cannot tell a pillow from
    // a turn, and the docs say so.
    sim.run(20, pelvis_only, None);
    assert!(sim.out.iter().any(|(_, o)| *o == UlcerOutput::Turned(TurnReason::LoadShift)));
}

#[test]
fn legs_and_arms_moving_are_not_a_load_shift() {
    let mut sim = Sim::new();
    let lying = RegionLoads::from_bits(0b010_010_010_010_111_010);
    // Both knees up: the thighs (band 4) leave the mat; the arms (band 1's
    // outer columns) go back to the sides. The back and pelvis stay.
    let knees_up = RegionLoads::from_bits(0b010_000_010_010_010_010);
    sim.run(60, lying, None);
    sim.run(70, knees_up, None);
    assert!(!sim.out.iter().any(|(_, o)| matches!(o, UlcerOutput::Turned(_))), "{:?}", sim.out);
    assert_eq!(sim.tiers().first(), Some(&(105, RepositioningTier::DueSoon)));
}

#[test]
fn an_unsure_reading_during_the_confirmation_does_not_cancel_the_turn() {
    let mut sim = Sim::new();
    sim.run(30, BACK, supine());
    let unsure = Some(PostureReading { posture: Posture::Supine, confidence: 0.4 });
    // On the side, with every third reading too unsure to count (and the load on the same
    // regions, so only the posture tells).
    for second in 0..180u64 {
        let reading = if second % 3 == 0 { unsure } else { left() };
        sim.m.handle_regions(sim.now + Duration::from_secs(second), BACK, reading);
    }
    sim.drain();
    assert!(
        sim.out.iter().any(|(_, o)| *o == UlcerOutput::Turned(TurnReason::Posture(Posture::Supine, Posture::LeftLateral))),
        "{:?}",
        sim.out
    );
    // A confident reading of the old posture does cancel it.
    let mut sim = Sim::new();
    sim.run(30, BACK, supine());
    for second in 0..120u64 {
        let reading = if second % 3 == 0 { supine() } else { left() };
        sim.m.handle_regions(sim.now + Duration::from_secs(second), BACK, reading);
    }
    sim.drain();
    assert!(!sim.out.iter().any(|(_, o)| matches!(o, UlcerOutput::Turned(_))), "{:?}", sim.out);
}

#[test]
fn a_manual_turn_restarts_every_loaded_region_now() {
    let mut sim = Sim::new();
    sim.run(110, BACK, supine());
    assert_eq!(sim.m.tier(), RepositioningTier::DueSoon);
    sim.m.record_turn(sim.now, sim.now);
    sim.drain();
    assert_eq!(sim.m.tier(), RepositioningTier::Ok);
    assert!(sim.out.iter().any(|(_, o)| *o == UlcerOutput::Turned(TurnReason::Manual)));
    sim.run(60, BACK, supine());
    assert_eq!(sim.m.tier(), RepositioningTier::Ok);
}

#[test]
fn maps_are_sampled_at_most_once_a_second() {
    let t0 = Instant::now();
    let mut m = UlcerRiskMachine::new(UlcerConfig::default());
    let full = vec![100u8; 16 * 16];
    let map = PressureMap::new(16, 16, CellFormat::U8, &full).expect("shape");
    let empty = vec![0u8; 16 * 16];
    let nobody = PressureMap::new(16, 16, CellFormat::U8, &empty).expect("shape");
    m.handle_map(t0, &map, None);
    assert_eq!(m.longest_load(t0 + MIN), MIN);
    // Frames within the second are not sampled: an empty one does not count as an offload start.
    m.handle_map(t0 + Duration::from_millis(500), &nobody, None);
    m.handle_map(t0 + Duration::from_millis(1_000), &map, None);
    assert_eq!(m.longest_load(t0 + MIN), MIN);
}

#[test]
fn a_turn_recorded_for_an_earlier_time_restarts_the_clock_from_then_but_not_before_a_load_began() {
    let mut sim = Sim::new();
    sim.run(100, BACK, supine());
    // Recorded now for a turn ten minutes ago: the clock counts from then.
    sim.m.record_turn(sim.now, sim.now - 10 * MIN);
    assert_eq!(sim.m.longest_load(sim.now), 10 * MIN);
    // A time before the load began does not lengthen it, and a time ahead of now is now.
    let mut fresh = Sim::new();
    fresh.run(5, BACK, supine());
    fresh.m.record_turn(fresh.now, fresh.now - 60 * MIN);
    assert_eq!(fresh.m.longest_load(fresh.now), 5 * MIN);
    fresh.m.record_turn(fresh.now, fresh.now + 60 * MIN);
    assert_eq!(fresh.m.longest_load(fresh.now), Duration::ZERO);
}

#[test]
fn the_reason_names_the_regions_loaded_longest_and_for_how_long() {
    let mut sim = Sim::new();
    assert_eq!(sim.m.reason(sim.now), None, "nobody on the mat");
    sim.run(30, BACK, supine());
    // The heels join later: the back's regions stay the longest loaded.
    const HEELS: RegionLoads = RegionLoads::from_bits(0b010 << 15);
    sim.run(100, RegionLoads::from_bits(BACK.bits() | HEELS.bits()), supine());
    let reason = sim.m.reason(sim.now).expect("a reason");
    assert_eq!(reason.regions, BACK);
    assert_eq!(reason.loaded_for, 130 * MIN);
    assert_eq!((reason.offload, reason.interval), (15 * MIN, DEFAULT_REPOSITIONING_INTERVAL));
}

#[test]
fn a_posture_change_read_uncertain_is_not_a_turn() {
    // Supine, then hours read as the left side just below the certainty threshold, the load on
    // the same regions (only the posture could tell): no turn, and the clock runs on to Due.
    let uncertain_left = Some(PostureReading { posture: Posture::LeftLateral, confidence: posture::CONFIDENT - 0.01 });
    let mut sim = Sim::new();
    sim.run(30, BACK, supine());
    sim.run(100, BACK, uncertain_left);
    assert!(!sim.out.iter().any(|(_, o)| matches!(o, UlcerOutput::Turned(_))), "{:?}", sim.out);
    assert!(sim.m.tier().at_risk(), "{:?}", sim.m.tier());
    // The same change read at the threshold is a turn.
    let certain_left = Some(PostureReading { posture: Posture::LeftLateral, confidence: posture::CONFIDENT });
    let mut sim = Sim::new();
    sim.run(30, BACK, supine());
    sim.run(5, BACK, certain_left);
    assert!(
        sim.out.iter().any(|(_, o)| *o == UlcerOutput::Turned(TurnReason::Posture(Posture::Supine, Posture::LeftLateral))),
        "{:?}",
        sim.out
    );
    // And the default configuration uses the classifier's one threshold.
    assert_eq!(UlcerConfig::default().min_posture_confidence, posture::CONFIDENT);
}

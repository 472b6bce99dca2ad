//! The tare machine with a simulated clock, read through the presence check of a Mattress Mat IoT
//! (48 × 48 cells of 0.4 mmHg).

use super::*;
use crate::machine::presence::{PresenceDetector, PresenceScale};
use crate::test_maps::body;
use mat_protocol::device_type::DeviceType;

const N: usize = 48 * 48;

/// A deterministic idle level: every cell between 2 and 12 steps (4.8 mmHg at most, under the
/// ceiling), different from cell to cell as a resistive sensor's are.
fn idle_level() -> Vec<u8> {
    (0..N).map(|i| 2 + ((i * 7 + i / 48 * 3) % 11) as u8).collect()
}

/// Small deterministic noise: -1, 0 or +1 step per cell, changing with `seed`.
fn noisy(cells: &[u8], seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    cells
        .iter()
        .map(|&v| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            match (x >> 33) % 3 {
                0 => v.saturating_sub(1),
                1 => v,
                _ => v.saturating_add(1),
            }
        })
        .collect()
}

/// `a` + `b`, saturating: a body on a mat with an idle level.
fn plus(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(&x, &y)| x.saturating_add(y)).collect()
}

struct Rig {
    tare: TareMachine,
    presence: PresenceDetector,
    t0: Instant,
}

impl Rig {
    fn new(stored: Option<Tare>) -> Self {
        let scale = PresenceScale::for_device(DeviceType::MattressMatIoT);
        Rig { tare: TareMachine::new(scale.units_per_cell(), stored), presence: PresenceDetector::with_scale(scale), t0: Instant::now() }
    }

    /// One raw frame at `secs` after the start: tared, then checked; returns the verdict and the
    /// tared cells.
    fn frame(&mut self, secs: u64, raw: &[u8]) -> (Presence, Vec<u8>) {
        let now = self.t0 + Duration::from_secs(secs);
        let mut cells = raw.to_vec();
        self.tare.handle_frame(now, 1_000 * secs, 48, 48, CellFormat::U8, &mut cells);
        let presence = self.presence.check(&PressureMap::new(48, 48, CellFormat::U8, &cells).unwrap());
        self.tare.handle_presence(now, presence);
        (presence, cells)
    }

    /// Frames of an empty mat with `idle`, once a second from `from` to `to` (exclusive).
    fn empty(&mut self, from: u64, to: u64, idle: &[u8]) -> Vec<Presence> {
        (from..to).map(|s| self.frame(s, &noisy(idle, s)).0).collect()
    }

    fn outputs(&mut self) -> Vec<Tare> {
        std::iter::from_fn(|| self.tare.poll_output()).collect()
    }
}

#[test]
fn the_idle_level_alone_reads_presence_without_a_tare() {
    // What the tare is for: this empty mat would be a person.
    let mut rig = Rig::new(None);
    assert_eq!(rig.frame(0, &idle_level()).0, Presence::Present);
}

#[test]
fn an_empty_mat_with_an_offset_reads_absent_after_tare() {
    let idle = idle_level();
    let mut rig = Rig::new(None);
    rig.empty(0, 300, &idle);
    let learnt = rig.outputs();
    assert!(!learnt.is_empty(), "a tare is learnt within five minutes of an empty mat");
    let tare = rig.tare.tare().unwrap().clone();
    assert_eq!(tare.source, TareSource::Learnt);
    for (i, (&t, &v)) in tare.cells.iter().zip(&idle).enumerate() {
        assert!(t.abs_diff(u16::from(v)) <= 1, "cell {i}: tare {t}, idle level {v}");
    }
    // Every later frame of the empty mat reads ABSENCE, noise and all.
    assert!(rig.empty(300, 900, &idle).iter().all(|&p| p == Presence::Absent));
    // A body on it reads as the body alone would.
    let (presence, tared) = rig.frame(900, &plus(&body(), &idle));
    assert_eq!(presence, Presence::Present);
    let alone = PresenceDetector::with_scale(PresenceScale::for_device(DeviceType::MattressMatIoT))
        .stats(&PressureMap::new(48, 48, CellFormat::U8, &body()).unwrap());
    let seen = rig.presence.stats(&PressureMap::new(48, 48, CellFormat::U8, &tared).unwrap());
    assert_eq!(seen.active_points, alone.active_points);
    assert!((seen.mean - alone.mean).abs() < 0.05 * alone.mean, "mean {} against {}", seen.mean, alone.mean);
}

#[test]
fn nothing_is_learnt_before_the_mat_has_settled_empty() {
    let idle = idle_level();
    let mut rig = Rig::new(None);
    rig.empty(0, SETTLE.as_secs(), &idle);
    assert!(rig.outputs().is_empty());
    assert!(rig.tare.tare().is_none());
}

#[test]
fn a_still_patient_is_never_tared_away_over_an_eight_hour_night() {
    let idle = idle_level();
    let mut rig = Rig::new(None);
    rig.empty(0, 300, &idle);
    let before = rig.tare.tare().unwrap().clone();
    rig.outputs();
    // The patient lies perfectly still for eight hours, one frame a second.
    let lying = plus(&body(), &idle);
    let night = 8 * 3600;
    for s in 300..300 + night {
        let (presence, _) = rig.frame(s, &noisy(&lying, s));
        assert_eq!(presence, Presence::Present, "second {s} of the night");
    }
    assert!(rig.outputs().is_empty(), "nothing is learnt while the patient lies there");
    assert_eq!(rig.tare.tare(), Some(&before));
    // Zeroing is refused all night.
    assert_eq!(rig.tare.zero(0).unwrap_err(), TareRefusal::Occupied);
}

#[test]
fn a_patient_on_a_mat_with_no_tare_yet_is_never_learnt() {
    let idle = idle_level();
    let mut rig = Rig::new(None);
    let lying = plus(&body(), &idle);
    for s in 0..8 * 3600 {
        assert_eq!(rig.frame(s, &noisy(&lying, s)).0, Presence::Present);
    }
    assert!(rig.outputs().is_empty());
    assert!(rig.tare.tare().is_none());
}

#[test]
fn drift_of_the_empty_mat_is_followed_but_not_while_occupied() {
    let idle = idle_level();
    let mut rig = Rig::new(None);
    rig.empty(0, 300, &idle);
    rig.outputs();
    // The idle level rises by two steps while a patient lies there for an hour.
    let drifted: Vec<u8> = idle.iter().map(|&v| v + 2).collect();
    for s in 300..3900 {
        rig.frame(s, &noisy(&plus(&body(), &drifted), s));
    }
    assert!(rig.outputs().is_empty());
    // The patient leaves: the drift is learnt once the mat has settled empty.
    let after = rig.empty(3900, 4300, &drifted);
    assert!(after.iter().all(|&p| p == Presence::Absent));
    let tare = rig.tare.tare().unwrap();
    for (&t, &v) in tare.cells.iter().zip(&drifted) {
        assert!(t.abs_diff(u16::from(v)) <= 1);
    }
}

#[test]
fn a_frame_over_the_ceiling_is_never_learnt_from() {
    // Something heavy left on the empty bed (it reads ABSENCE by the load rule), over the ceiling.
    let mut object = idle_level();
    for r in 20..23 {
        for c in 20..23 {
            object[r * 48 + c] = 60;
        }
    }
    let mut rig = Rig::new(None);
    rig.frame(0, &object);
    assert!(rig.tare.ceiling_steps() < 60);
    let verdicts = rig.empty(1, 600, &object);
    assert!(rig.tare.tare().is_none(), "verdicts {:?}", &verdicts[..3]);
}

#[test]
fn no_tare_cell_exceeds_the_ceiling() {
    let ceiling = Rig::new(None).tare.ceiling_steps();
    // 6 mmHg in 0.4 mmHg steps.
    assert_eq!(ceiling, 15);
    // Half the cells idle at the ceiling itself (it reads PRESENCE untared, every cell under the
    // ceiling): learnt, and no cell above the ceiling.
    let high: Vec<u8> = (0..N).map(|i| if i % 2 == 0 { 15 } else { 4 }).collect();
    let mut rig = Rig::new(None);
    assert_eq!(rig.frame(0, &high).0, Presence::Present);
    for s in 1..400 {
        rig.frame(s, &high);
    }
    let tare = rig.tare.tare().unwrap();
    assert_eq!(tare.max_steps(), ceiling);
    assert_eq!(rig.frame(400, &high).0, Presence::Absent);
    // One step more on those cells and nothing is learnt.
    let over: Vec<u8> = high.iter().map(|&v| if v == 15 { 16 } else { v }).collect();
    let mut rig = Rig::new(None);
    for s in 0..400 {
        rig.frame(s, &over);
    }
    assert!(rig.tare.tare().is_none());
}

#[test]
fn the_administrators_zero_takes_the_idle_level_at_once_and_is_refused_while_occupied() {
    let idle = idle_level();
    let mut rig = Rig::new(None);
    assert_eq!(rig.tare.zero(5).unwrap_err(), TareRefusal::NoEmptyFrame);
    let lying = plus(&body(), &idle);
    rig.frame(0, &lying);
    assert_eq!(rig.tare.zero(5).unwrap_err(), TareRefusal::Occupied);
    assert_eq!(TareRefusal::Occupied.key(), "tareOccupied");
    // The patient gets up: three empty frames are enough, no settle time.
    rig.empty(1, 4, &idle);
    let tare = rig.tare.zero(4_000).unwrap().clone();
    assert_eq!((tare.source, tare.set_at_ms), (TareSource::Zeroed, 4_000));
    for (&t, &v) in tare.cells.iter().zip(&idle) {
        assert!(t.abs_diff(u16::from(v)) <= 1);
    }
    assert_eq!(rig.outputs(), vec![tare]);
    assert_eq!(rig.frame(4, &idle).0, Presence::Absent);
}

#[test]
fn a_stored_tare_is_subtracted_from_the_first_frame() {
    let idle = idle_level();
    let stored = Tare { rows: 48, cols: 48, cells: idle.iter().map(|&v| u16::from(v)).collect(), source: TareSource::Zeroed, set_at_ms: 1 };
    let mut rig = Rig::new(Some(stored));
    let (presence, cells) = rig.frame(0, &idle);
    assert_eq!(presence, Presence::Absent);
    assert!(cells.iter().all(|&c| c == 0));
}

#[test]
fn u16_cells_and_other_shapes() {
    let tare = Tare { rows: 1, cols: 2, cells: vec![5, 300], source: TareSource::Learnt, set_at_ms: 0 };
    let mut cells = [10u8, 0, 0x2c, 0x01]; // 10, 300
    tare.subtract(1, 2, CellFormat::U16Le, &mut cells);
    assert_eq!(cells, [5, 0, 0, 0]);
    let mut other = [10u8, 10, 10];
    tare.subtract(1, 3, CellFormat::U8, &mut other);
    assert_eq!(other, [10, 10, 10], "a frame of another shape is not touched");
}

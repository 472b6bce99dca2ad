//! Force channels (Force Mat, room-set sensors): a few load cells, 0–4095 each, with a person
//! arriving, standing or lying with some sway, and leaving.
//!
//! When a person is present every channel reads several hundred and the sum is well above the
//! room-set presence threshold of 200; when nobody is there every channel reads 0.

use std::f32::consts::TAU;
use std::time::Duration;

use super::canvas::Canvas;
use super::script::{Script, Step, smoothstep};

/// Full scale of a force channel.
pub const FORCE_MAX: f32 = 4095.0;

/// The phases of the presence script, in cycle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PresencePhase {
    /// Nobody there.
    Away,
    /// The person arrives (load ramps up).
    Arriving,
    /// The person is there.
    Present,
    /// The person leaves (load ramps down).
    Leaving,
}

impl PresencePhase {
    /// Whether the person is fully there.
    pub fn occupied(self) -> bool {
        self == PresencePhase::Present
    }
}

/// Durations of the presence cycle and the total load when present.
#[derive(Debug, Clone, PartialEq)]
pub struct PresenceScript {
    /// Nobody there, at the start of each cycle.
    pub away: Duration,
    /// Arriving.
    pub arrive: Duration,
    /// Present.
    pub present: Duration,
    /// Leaving.
    pub leave: Duration,
    /// Sum of all channels while present (before sway), in channel units.
    pub total_load: f32,
    /// Period of the sway that moves load between channels.
    pub sway: Duration,
    /// How far into its cycle the script is at time zero (a room set's sensors share one
    /// timeline, each present in its own part of it: [`room_set_scripts`]).
    pub lead: Duration,
}

impl Default for PresenceScript {
    fn default() -> Self {
        Self {
            away: Duration::from_secs(20),
            arrive: Duration::from_secs(2),
            present: Duration::from_secs(40),
            leave: Duration::from_secs(2),
            total_load: 3_200.0,
            sway: Duration::from_millis(5_300),
            lead: Duration::ZERO,
        }
    }
}

impl PresenceScript {
    /// Where the cycle is at time `t` (its [`PresenceScript::lead`] added).
    pub fn at(&self, t: Duration) -> Option<Step<PresencePhase>> {
        self.script().at(t + self.lead)
    }

    /// The cycle as a [`Script`].
    pub fn script(&self) -> Script<PresencePhase> {
        Script::new(vec![
            (PresencePhase::Away, self.away),
            (PresencePhase::Arriving, self.arrive),
            (PresencePhase::Present, self.present),
            (PresencePhase::Leaving, self.leave),
        ])
    }
}

/// One patient in a room set (issue 23): in bed, then in the chair, then crossing the floor,
/// then out of the room for 20 s (less than the 30 s absence delay: the set stays Correct) and
/// back to bed — one sensor at a time, with two seconds between them. Each simulator of the
/// set's bed, seat and floor sensors (in that order) runs its script from its own start; they
/// start within a second of each other. Three independent cycles once had all three sensors
/// present at once.
pub fn room_set_scripts() -> [PresenceScript; 3] {
    const CYCLE: Duration = Duration::from_secs(280);
    // (window start, arrive, present, leave) within the shared cycle.
    let windows = [(0u64, 2u64, 150u64, 2u64), (156, 2, 86, 2), (248, 1, 10, 1)];
    windows.map(|(start, arrive, present, leave)| {
        let window = Duration::from_secs(arrive + present + leave);
        let away = CYCLE - window;
        // The script's own cycle begins with `away`; its window must begin at `start`.
        let lead = Duration::from_secs((away.as_secs() + CYCLE.as_secs() - start) % CYCLE.as_secs());
        PresenceScript {
            away,
            arrive: Duration::from_secs(arrive),
            present: Duration::from_secs(present),
            leave: Duration::from_secs(leave),
            lead,
            ..PresenceScript::default()
        }
    })
}

/// Writes the channel values for `step` at absolute scenario time `t`; `jitter` (−1..1 per
/// channel, supplied by the caller's seeded RNG) adds ±2 % measurement noise while loaded.
pub(crate) fn draw(canvas: &mut Canvas, script: &PresenceScript, step: &Step<PresencePhase>, t: Duration, jitter: &[f32]) {
    let load = match step.phase {
        PresencePhase::Away => return,
        PresencePhase::Arriving => smoothstep(step.fraction),
        PresencePhase::Present => 1.0,
        PresencePhase::Leaving => 1.0 - smoothstep(step.fraction),
    };
    let channels = canvas.rows() * canvas.cols();
    if channels == 0 || load <= 0.0 {
        return;
    }
    let phase = if script.sway.is_zero() { 0.0 } else { (t.as_secs_f64() / script.sway.as_secs_f64()).fract() as f32 };
    let share = script.total_load / channels as f32;
    for i in 0..channels {
        // Each channel sways with its own phase, so load moves around the plate.
        let sway = 1.0 + 0.25 * (TAU * (phase + i as f32 / channels as f32)).sin();
        let noise = 1.0 + 0.02 * jitter.get(i).copied().unwrap_or(0.0);
        let value = (share * load * sway * noise).clamp(0.0, FORCE_MAX);
        canvas.set(i / canvas.cols(), i % canvas.cols(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_phases_at_expected_times() {
        let script = PresenceScript::default().script();
        let at = |ms: u64| script.at(Duration::from_millis(ms)).map(|s| s.phase);
        assert_eq!(at(0), Some(PresencePhase::Away));
        assert_eq!(at(20_000), Some(PresencePhase::Arriving));
        assert_eq!(at(22_000), Some(PresencePhase::Present));
        assert_eq!(at(62_000), Some(PresencePhase::Leaving));
        assert_eq!(at(64_000), Some(PresencePhase::Away));
    }

    #[test]
    fn a_room_sets_sensors_are_never_loaded_at_once_and_each_is_in_turn() {
        let scripts = room_set_scripts();
        let mut seen = [false; 3];
        // Two cycles, every half second, each sensor starting up to a second after the bed's.
        for skew_ms in [0u64, 1_000] {
            for half_seconds in 0..1_120u64 {
                let t = Duration::from_millis(half_seconds * 500);
                let loaded: Vec<usize> = (0..3)
                    .filter(|&i| {
                        let own = if i == 0 { t } else { t.saturating_sub(Duration::from_millis(skew_ms)) };
                        let Some(step) = scripts[i].at(own) else { return false };
                        let mut canvas = Canvas::new(1, 4);
                        draw(&mut canvas, &scripts[i], &step, own, &[0.0; 4]);
                        canvas.values().iter().sum::<f32>() > 200.0
                    })
                    .collect();
                assert!(loaded.len() <= 1, "sensors {loaded:?} loaded at once at {t:?}");
                for i in loaded {
                    seen[i] = true;
                }
            }
        }
        assert_eq!(seen, [true; 3], "bed, seat and floor each see the patient");
        // The bed's window starts the cycle.
        assert_eq!(scripts[0].at(Duration::from_secs(1)).map(|s| s.phase), Some(PresencePhase::Arriving));
        assert_eq!(scripts[1].at(Duration::from_secs(200)).map(|s| s.phase), Some(PresencePhase::Present));
        assert_eq!(scripts[2].at(Duration::from_secs(255)).map(|s| s.phase), Some(PresencePhase::Present));
        assert_eq!(scripts[2].at(Duration::from_secs(270)).map(|s| s.phase), Some(PresencePhase::Away));
    }

    #[test]
    fn present_sum_is_well_above_200_and_absent_is_zero() {
        let script = PresenceScript::default();
        for secs in 0..64u64 {
            let t = Duration::from_secs(secs);
            let step = script.script().at(t).expect("step");
            let mut canvas = Canvas::new(1, 4);
            draw(&mut canvas, &script, &step, t, &[1.0, -1.0, 0.5, -0.5]);
            let sum: f32 = canvas.values().iter().sum();
            assert!(canvas.values().iter().all(|&v| (0.0..=FORCE_MAX).contains(&v)));
            match step.phase {
                PresencePhase::Present => assert!(sum > 1_000.0, "{secs}: {sum}"),
                PresencePhase::Away => assert_eq!(sum, 0.0),
                _ => {}
            }
        }
    }
}

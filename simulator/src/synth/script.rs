//! Cyclic scripts: a list of phases with durations that repeats forever, located by elapsed time.

use std::time::Duration;

/// Where a script is at a given time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step<P> {
    /// The current phase.
    pub phase: P,
    /// Index of the phase in the script.
    pub index: usize,
    /// Time spent in this phase so far.
    pub elapsed: Duration,
    /// Full length of this phase.
    pub length: Duration,
    /// `elapsed / length`, in `0.0..=1.0` (1.0 for a zero-length phase).
    pub fraction: f32,
}

/// A cycle of phases. Zero-length phases are kept (so indices are stable) but never current.
#[derive(Debug, Clone, PartialEq)]
pub struct Script<P> {
    steps: Vec<(P, Duration)>,
    cycle: Duration,
}

impl<P: Copy> Script<P> {
    /// Builds a script from `(phase, duration)` pairs, in order.
    ///
    /// # Panics
    /// Never on user input; an empty list is a programming error caught in debug builds only,
    /// and [`Script::at`] then returns `None`.
    pub fn new(steps: Vec<(P, Duration)>) -> Self {
        let cycle = steps.iter().map(|(_, d)| *d).sum();
        Self { steps, cycle }
    }

    /// Length of one full cycle.
    pub fn cycle(&self) -> Duration {
        self.cycle
    }

    /// The phases and their durations.
    pub fn steps(&self) -> &[(P, Duration)] {
        &self.steps
    }

    /// Start time (within a cycle) of the phase at `index`.
    pub fn start_of(&self, index: usize) -> Duration {
        self.steps.iter().take(index).map(|(_, d)| *d).sum()
    }

    /// Locates time `t` (since the script started; it wraps around every cycle).
    pub fn at(&self, t: Duration) -> Option<Step<P>> {
        let first = self.steps.first()?;
        if self.cycle.is_zero() {
            return Some(Step { phase: first.0, index: 0, elapsed: Duration::ZERO, length: Duration::ZERO, fraction: 1.0 });
        }
        let cycle_ns = self.cycle.as_nanos();
        let mut rest = Duration::from_nanos((t.as_nanos() % cycle_ns) as u64);
        for (index, (phase, length)) in self.steps.iter().enumerate() {
            if rest < *length {
                let fraction = (rest.as_secs_f64() / length.as_secs_f64()) as f32;
                return Some(Step { phase: *phase, index, elapsed: rest, length: *length, fraction });
            }
            rest -= *length;
        }
        // Unreachable in exact arithmetic; rounding lands us at the very end of the last phase.
        let (index, (phase, length)) = self.steps.iter().enumerate().rev().find(|(_, (_, d))| !d.is_zero())?;
        Some(Step { phase: *phase, index, elapsed: *length, length: *length, fraction: 1.0 })
    }
}

/// Smooth 0→1 ramp with zero slope at both ends (`3x² − 2x³`), clamped.
pub fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Linear interpolation.
pub fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum P {
        A,
        B,
        C,
    }

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    #[test]
    fn locates_phases_and_wraps() {
        let script = Script::new(vec![(P::A, s(10)), (P::B, s(0)), (P::C, s(5))]);
        assert_eq!(script.cycle(), s(15));
        assert_eq!(script.at(s(0)).map(|x| x.phase), Some(P::A));
        assert_eq!(script.at(s(9)).map(|x| x.phase), Some(P::A));
        let c = script.at(s(10)).expect("step");
        assert_eq!((c.phase, c.index, c.elapsed), (P::C, 2, s(0)));
        let c = script.at(Duration::from_millis(12_500)).expect("step");
        assert!((c.fraction - 0.5).abs() < 1e-6);
        assert_eq!(script.at(s(15)).map(|x| x.phase), Some(P::A));
        assert_eq!(script.at(s(15 * 1000 + 11)).map(|x| x.phase), Some(P::C));
        assert_eq!(script.start_of(2), s(10));
    }

    #[test]
    fn empty_and_zero_length_scripts_do_not_panic() {
        let empty: Script<P> = Script::new(vec![]);
        assert_eq!(empty.at(s(3)), None);
        let zero = Script::new(vec![(P::B, s(0))]);
        assert_eq!(zero.at(s(3)).map(|x| x.phase), Some(P::B));
    }

    #[test]
    fn smoothstep_is_clamped_and_monotone() {
        assert_eq!(smoothstep(-1.0), 0.0);
        assert_eq!(smoothstep(2.0), 1.0);
        assert!((smoothstep(0.5) - 0.5).abs() < 1e-6);
        let mut last = 0.0;
        for i in 0..=100 {
            let v = smoothstep(i as f32 / 100.0);
            assert!(v >= last);
            last = v;
        }
    }
}

//! Liveness of one device's map (spec §4 "Live pressure"): blank after 5 s without frames; a
//! device marked not functional becomes functional on its first frame.
//!
//! Inputs: [`LiveMap::handle_frame`], [`LiveMap::handle_disconnect`], [`LiveMap::handle_timeout`].
//! Outputs, drained with [`LiveMap::poll_output`]: [`LiveOutput`]. [`LiveMap::poll_timeout`]
//! tells when the machine next needs `handle_timeout`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The map is blanked after this long without a frame.
pub const BLANK_AFTER: Duration = Duration::from_secs(5);

/// A connected device that sends nothing for this long is marked not functional. Devices send
/// frames at their monitoring rate (at least one every few seconds) even when nobody watches,
/// so 30 s of silence means the device or its link is broken.
pub const NOT_FUNCTIONAL_AFTER: Duration = Duration::from_secs(30);

/// What the liveness machine wants the actor to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiveOutput {
    /// `deviceFunctional` changed.
    Functional(bool),
    /// Clear the map on every viewer: no frame for [`BLANK_AFTER`].
    Blank,
}

/// Liveness state of one device.
#[derive(Debug)]
pub struct LiveMap {
    functional: bool,
    last_frame: Option<Instant>,
    blanked: bool,
    outputs: VecDeque<LiveOutput>,
}

impl LiveMap {
    /// Starts with the stored `deviceFunctional` flag.
    pub fn new(functional: bool) -> Self {
        LiveMap { functional, last_frame: None, blanked: true, outputs: VecDeque::new() }
    }

    /// Whether the device is functional now.
    pub fn functional(&self) -> bool {
        self.functional
    }

    /// A frame arrived.
    pub fn handle_frame(&mut self, now: Instant) {
        self.last_frame = Some(now);
        self.blanked = false;
        if !self.functional {
            self.functional = true;
            self.outputs.push_back(LiveOutput::Functional(true));
        }
    }

    /// The device's connection closed.
    pub fn handle_disconnect(&mut self, _now: Instant) {
        self.mark_not_functional();
    }

    /// Time has passed; acts on any deadline that is due.
    pub fn handle_timeout(&mut self, now: Instant) {
        let Some(last) = self.last_frame else { return };
        if !self.blanked && now >= last + BLANK_AFTER {
            self.blanked = true;
            self.outputs.push_back(LiveOutput::Blank);
        }
        if now >= last + NOT_FUNCTIONAL_AFTER {
            self.mark_not_functional();
        }
    }

    /// The next instant at which `handle_timeout` has something to do.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let last = self.last_frame?;
        if !self.blanked {
            Some(last + BLANK_AFTER)
        } else if self.functional {
            Some(last + NOT_FUNCTIONAL_AFTER)
        } else {
            None
        }
    }

    /// Next output, if any.
    pub fn poll_output(&mut self) -> Option<LiveOutput> {
        self.outputs.pop_front()
    }

    fn mark_not_functional(&mut self) {
        if self.functional {
            self.functional = false;
            self.outputs.push_back(LiveOutput::Functional(false));
        }
        if !self.blanked && self.last_frame.is_some() {
            self.blanked = true;
            self.outputs.push_back(LiveOutput::Blank);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(m: &mut LiveMap) -> Vec<LiveOutput> {
        std::iter::from_fn(|| m.poll_output()).collect()
    }

    #[test]
    fn first_frame_makes_a_non_functional_device_functional() {
        let t0 = Instant::now();
        let mut m = LiveMap::new(false);
        m.handle_frame(t0);
        assert_eq!(drain(&mut m), vec![LiveOutput::Functional(true)]);
        m.handle_frame(t0 + Duration::from_millis(100));
        assert_eq!(drain(&mut m), vec![], "already functional: no repeated output");
    }

    #[test]
    fn map_blanks_exactly_five_seconds_after_the_last_frame() {
        let t0 = Instant::now();
        let mut m = LiveMap::new(true);
        m.handle_frame(t0);
        assert_eq!(m.poll_timeout(), Some(t0 + BLANK_AFTER));
        m.handle_timeout(t0 + Duration::from_millis(4_999));
        assert_eq!(drain(&mut m), vec![]);
        m.handle_timeout(t0 + Duration::from_secs(5));
        assert_eq!(drain(&mut m), vec![LiveOutput::Blank]);
        m.handle_timeout(t0 + Duration::from_secs(6));
        assert_eq!(drain(&mut m), vec![], "blanked once only");
    }

    #[test]
    fn a_new_frame_postpones_blanking() {
        let t0 = Instant::now();
        let mut m = LiveMap::new(true);
        m.handle_frame(t0);
        m.handle_frame(t0 + Duration::from_secs(4));
        m.handle_timeout(t0 + Duration::from_secs(5));
        assert_eq!(drain(&mut m), vec![]);
        assert_eq!(m.poll_timeout(), Some(t0 + Duration::from_secs(9)));
    }

    #[test]
    fn silence_marks_the_device_not_functional_and_a_frame_revives_it() {
        let t0 = Instant::now();
        let mut m = LiveMap::new(true);
        m.handle_frame(t0);
        m.handle_timeout(t0 + BLANK_AFTER);
        assert_eq!(m.poll_timeout(), Some(t0 + NOT_FUNCTIONAL_AFTER));
        m.handle_timeout(t0 + NOT_FUNCTIONAL_AFTER - Duration::from_millis(1));
        assert!(m.functional());
        m.handle_timeout(t0 + NOT_FUNCTIONAL_AFTER);
        assert!(!m.functional());
        assert_eq!(drain(&mut m), vec![LiveOutput::Blank, LiveOutput::Functional(false)]);
        assert_eq!(m.poll_timeout(), None);
        m.handle_frame(t0 + Duration::from_secs(60));
        assert_eq!(drain(&mut m), vec![LiveOutput::Functional(true)]);
    }

    #[test]
    fn disconnect_blanks_and_marks_not_functional_at_once() {
        let t0 = Instant::now();
        let mut m = LiveMap::new(false);
        m.handle_frame(t0);
        drain(&mut m);
        m.handle_disconnect(t0 + Duration::from_millis(10));
        assert_eq!(drain(&mut m), vec![LiveOutput::Functional(false), LiveOutput::Blank]);
    }
}

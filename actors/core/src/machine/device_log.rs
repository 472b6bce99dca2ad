//! When a device writes log entries: device log entries on a posture change and at a fixed
//! interval while someone is on the mat, never per frame; presence log entries on entrance and
//! exit.
//!
//! - A posture change is a new posture read with certainty ([`super::posture::CONFIDENT`], the one
//!   owner of the threshold, as for the ward tile and the repositioning clock) for
//!   [`LogConfig::posture_settle`], different from the last logged one. An uncertain reading is
//!   never a posture change; a stretch of uncertain readings held as long after a certain posture
//!   is logged once, as *uncertain* (its entry carries the reading with its confidence), so the log
//!   never leaves a stale posture standing while the hub cannot tell (issue 28). A body read
//!   certain and uncertain by turns settles neither and writes nothing.
//! - Every entry records the posture read at that moment with its confidence, certain or not, so
//!   an uncertain stretch shows in the log as the ward tile shows it: the posture marked uncertain,
//!   with its confidence (the hub's `posture.certain`).
//! - While present, an entry is written every [`LogConfig::interval`] (default 5 min) since the
//!   last entry, whatever the posture.
//! - An entrance or exit is a presence verdict that held for [`LogConfig::presence_settle`], so a
//!   patient shifting on a seat does not write a pair of entries each time.
//!
//! An entry carries the date, the map's maximum pressure, the posture and its confidence, and a
//! preview of the map downsampled to at most [`LogConfig::preview`] cells (block means), so a log
//! of a week stays small. Input: [`DeviceLogMachine::handle_frame`]; outputs ([`LogOutput`])
//! drained with [`DeviceLogMachine::poll_output`]. Frames drive everything, so there is no
//! timeout.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::posture::{Posture, PostureReading};
use super::presence::Presence;
use super::pressure_map::PressureMap;
use super::wall_clock::WallClock;

/// Tuning; [`LogConfig::default`] holds the documented defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogConfig {
    /// An entry at least this often while someone is present.
    pub interval: Duration,
    /// A posture must hold this long to be a change.
    pub posture_settle: Duration,
    /// A presence verdict must hold this long to be an entrance or exit.
    pub presence_settle: Duration,
    /// Largest preview (rows, cols).
    pub preview: (u16, u16),
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            interval: Duration::from_secs(5 * 60),
            posture_settle: Duration::from_secs(10),
            presence_settle: Duration::from_secs(5),
            preview: (16, 16),
        }
    }
}

/// A downsampled copy of a map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewMap {
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub cols: u16,
    /// Row-major block means.
    pub cells: Vec<u16>,
}

impl PreviewMap {
    /// The map downsampled to at most `max_rows × max_cols` by block means.
    pub fn of(map: &PressureMap<'_>, max_rows: u16, max_cols: u16) -> Self {
        let (rows, cols) = (map.rows().min(max_rows.max(1)), map.cols().min(max_cols.max(1)));
        let (src_rows, src_cols) = (usize::from(map.rows()), usize::from(map.cols()));
        let mut cells = Vec::with_capacity(usize::from(rows) * usize::from(cols));
        for pr in 0..usize::from(rows) {
            let (r0, r1) = (pr * src_rows / usize::from(rows), (pr + 1) * src_rows / usize::from(rows));
            for pc in 0..usize::from(cols) {
                let (c0, c1) = (pc * src_cols / usize::from(cols), (pc + 1) * src_cols / usize::from(cols));
                let (mut sum, mut n) = (0u64, 0u64);
                for r in r0..r1 {
                    for c in c0..c1 {
                        sum += u64::from(map.value(r * src_cols + c));
                        n += 1;
                    }
                }
                cells.push(u16::try_from(sum.checked_div(n).unwrap_or(0)).unwrap_or(u16::MAX));
            }
        }
        PreviewMap { rows, cols, cells }
    }
}

/// Why a device log entry was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogReason {
    /// The posture changed (or the first posture after an entrance).
    PostureChange,
    /// The interval passed.
    Interval,
}

/// One device log entry.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceLogEntry {
    /// `creationDate`.
    pub at: Instant,
    /// Highest cell of the map.
    pub max_pressure: u16,
    /// `posture` (id, confidence) and `position`: the reading at that moment, at any confidence
    /// (below [`super::posture::CONFIDENT`] the client shows it uncertain); `None` when no posture could
    /// be read.
    pub posture: Option<PostureReading>,
    /// `pressureMap`, downsampled.
    pub preview: PreviewMap,
    /// Why it was written.
    pub reason: LogReason,
}

/// What the log machine wants written.
#[derive(Debug, Clone, PartialEq)]
pub enum LogOutput {
    /// A device log entry.
    Device(DeviceLogEntry),
    /// A presence log entry (`logId` '1' entrance, '0' exit), dated when the change began.
    Presence { at: Instant, present: bool },
}

/// The log cadence as a restart must find it, so a restart neither logs a second entrance nor
/// an entry before the interval is up. The presence and posture changes still settling are not
/// kept: the next frames settle them again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogCadenceSnapshot {
    /// Whether someone is on the mat (the entrance was logged).
    pub present: bool,
    /// The posture of the last posture-change entry.
    pub logged_posture: Option<Posture>,
    /// When the last device log entry was written, Unix ms.
    pub last_entry_ms: Option<u64>,
}

/// The log cadence of one device.
#[derive(Debug)]
pub struct DeviceLogMachine {
    config: LogConfig,
    present: bool,
    presence_candidate: Option<(Presence, Instant)>,
    /// The reading settling: `Some(posture)` certain, `None` uncertain, since when.
    posture_candidate: Option<(Option<Posture>, Instant)>,
    /// What the last posture-change entry logged since the entrance (`Some(None)`: uncertain).
    logged_posture: Option<Option<Posture>>,
    last_entry: Option<Instant>,
    outputs: VecDeque<LogOutput>,
}

impl DeviceLogMachine {
    /// A machine that starts with nobody on the mat.
    pub fn new(config: LogConfig) -> Self {
        DeviceLogMachine {
            config,
            present: false,
            presence_candidate: None,
            posture_candidate: None,
            logged_posture: None,
            last_entry: None,
            outputs: VecDeque::new(),
        }
    }

    /// What a restart must keep, with wall-clock times.
    pub fn snapshot(&self, clock: WallClock) -> LogCadenceSnapshot {
        LogCadenceSnapshot {
            present: self.present,
            logged_posture: self.logged_posture.flatten(),
            last_entry_ms: clock.unix_ms_opt(self.last_entry),
        }
    }

    /// The cadence of a snapshot, with this tuning.
    pub fn from_snapshot(config: LogConfig, snapshot: &LogCadenceSnapshot, clock: WallClock) -> Self {
        DeviceLogMachine {
            present: snapshot.present,
            logged_posture: snapshot.logged_posture.map(Some),
            last_entry: clock.instant_opt(snapshot.last_entry_ms),
            ..Self::new(config)
        }
    }

    /// Whether the machine considers someone present (after settling).
    pub fn present(&self) -> bool {
        self.present
    }

    /// A frame with its presence verdict and posture reading.
    pub fn handle_frame(&mut self, now: Instant, map: &PressureMap<'_>, presence: Presence, posture: Option<PostureReading>) {
        self.track_presence(now, presence);
        if !self.present {
            return;
        }
        let settled = self.track_posture(now, posture);
        let change = match settled {
            Some(Some(posture)) => self.logged_posture != Some(Some(posture)),
            // Uncertain after a certain posture: the log must not leave that posture standing.
            Some(None) => matches!(self.logged_posture, Some(Some(_))),
            None => false,
        };
        let reason = if change {
            Some(LogReason::PostureChange)
        } else if self.last_entry.is_none_or(|last| now >= last + self.config.interval) {
            Some(LogReason::Interval)
        } else {
            None
        };
        if let Some(reason) = reason {
            if reason == LogReason::PostureChange {
                self.logged_posture = settled;
            }
            self.last_entry = Some(now);
            let (rows, cols) = self.config.preview;
            self.outputs.push_back(LogOutput::Device(DeviceLogEntry {
                at: now,
                max_pressure: map.max_value(),
                posture,
                preview: PreviewMap::of(map, rows, cols),
                reason,
            }));
        }
    }

    /// Next output.
    pub fn poll_output(&mut self) -> Option<LogOutput> {
        self.outputs.pop_front()
    }

    fn track_presence(&mut self, now: Instant, presence: Presence) {
        let is_present = presence == Presence::Present;
        if is_present == self.present {
            self.presence_candidate = None;
            return;
        }
        let (_, since) = *self.presence_candidate.get_or_insert((presence, now));
        if now >= since + self.config.presence_settle {
            self.present = is_present;
            self.presence_candidate = None;
            self.outputs.push_back(LogOutput::Presence { at: since, present: is_present });
            if !is_present {
                // The next stay starts a fresh log: first posture, first interval.
                self.logged_posture = None;
                self.posture_candidate = None;
                self.last_entry = None;
            }
        }
    }

    /// What has been read for the settle time, if anything: `Some(Some(posture))` with certainty,
    /// `Some(None)` uncertain. No reading (no body to read) settles nothing.
    fn track_posture(&mut self, now: Instant, reading: Option<PostureReading>) -> Option<Option<Posture>> {
        let Some(reading) = reading else {
            self.posture_candidate = None;
            return None;
        };
        let posture = reading.is_certain().then_some(reading.posture);
        let since = match self.posture_candidate {
            Some((p, since)) if p == posture => since,
            _ => {
                self.posture_candidate = Some((posture, now));
                now
            }
        };
        (now >= since + self.config.posture_settle).then_some(posture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::posture;
    use mat_protocol::CellFormat;

    const SEC: Duration = Duration::from_secs(1);

    fn reading(posture: Posture) -> Option<PostureReading> {
        Some(PostureReading { posture, confidence: 0.9 })
    }

    /// Frames every second from `from` for `secs` seconds; returns the outputs.
    fn frames(
        m: &mut DeviceLogMachine,
        t0: Instant,
        from: u64,
        secs: u64,
        presence: Presence,
        posture: Option<PostureReading>,
    ) -> Vec<(u64, LogOutput)> {
        let cells = vec![if presence == Presence::Present { 90u8 } else { 0 }; 48 * 48];
        let map = PressureMap::new(48, 48, CellFormat::U8, &cells).expect("shape");
        let mut out = Vec::new();
        for s in from..from + secs {
            m.handle_frame(t0 + SEC * s as u32, &map, presence, posture);
            out.extend(std::iter::from_fn(|| m.poll_output()).map(|o| (s, o)));
        }
        out
    }

    fn device_entries(out: &[(u64, LogOutput)]) -> Vec<(u64, LogReason)> {
        out.iter()
            .filter_map(|(s, o)| match o {
                LogOutput::Device(e) => Some((*s, e.reason)),
                LogOutput::Presence { .. } => None,
            })
            .collect()
    }

    #[test]
    fn a_still_patient_is_logged_on_the_interval_not_per_frame() {
        let t0 = Instant::now();
        let mut m = DeviceLogMachine::new(LogConfig::default());
        let out = frames(&mut m, t0, 0, 3_600, Presence::Present, reading(Posture::Supine));
        // Entrance after 5 s, the first entry at once, the posture settled at 15 s, then every 5 min.
        assert_eq!(out[0], (5, LogOutput::Presence { at: t0, present: true }));
        let entries = device_entries(&out);
        assert_eq!(entries[..3], [(5, LogReason::Interval), (15, LogReason::PostureChange), (315, LogReason::Interval)]);
        assert_eq!(entries.len(), 2 + (3_600 - 15) / 300);
    }

    #[test]
    fn a_turn_is_logged_once_it_settles() {
        let t0 = Instant::now();
        let mut m = DeviceLogMachine::new(LogConfig::default());
        frames(&mut m, t0, 0, 100, Presence::Present, reading(Posture::Supine));
        // Three seconds of a noisy reading are not a change; a held new posture is.
        let out = frames(&mut m, t0, 100, 3, Presence::Present, reading(Posture::Prone));
        assert!(device_entries(&out).is_empty());
        let out = frames(&mut m, t0, 103, 20, Presence::Present, reading(Posture::LeftLateral));
        assert_eq!(device_entries(&out), vec![(113, LogReason::PostureChange)]);
        let Some((_, LogOutput::Device(entry))) = out.iter().find(|(_, o)| matches!(o, LogOutput::Device(_))) else { panic!() };
        assert_eq!(entry.posture.map(|p| p.posture), Some(Posture::LeftLateral));
        assert_eq!(entry.max_pressure, 90);
        assert_eq!((entry.preview.rows, entry.preview.cols, entry.preview.cells.len()), (16, 16, 256));
    }

    fn logged_postures(out: &[(u64, LogOutput)]) -> Vec<(u64, LogReason, Option<PostureReading>)> {
        out.iter()
            .filter_map(|(s, o)| match o {
                LogOutput::Device(e) => Some((*s, e.reason, e.posture)),
                LogOutput::Presence { .. } => None,
            })
            .collect()
    }

    #[test]
    fn an_uncertain_stretch_is_logged_once_as_uncertain_and_is_no_posture() {
        // Supine with certainty, then the left side read just below posture::CONFIDENT for an
        // hour: no posture (as the repositioning clock takes no turn decision on it), but one
        // entry when the uncertainty has held for the settle time, so the log does not leave
        // Supine standing, then the interval entries; each records the reading with its
        // confidence, for the client to show uncertain as the ward tile does.
        let t0 = Instant::now();
        let mut m = DeviceLogMachine::new(LogConfig::default());
        frames(&mut m, t0, 0, 100, Presence::Present, reading(Posture::Supine));
        let unsure = Some(PostureReading { posture: Posture::LeftLateral, confidence: posture::CONFIDENT - 0.01 });
        let out = logged_postures(&frames(&mut m, t0, 100, 3_600, Presence::Present, unsure));
        assert_eq!(out[0], (110, LogReason::PostureChange, unsure));
        assert!(out[1..].iter().all(|(_, reason, _)| *reason == LogReason::Interval), "{out:?}");
        assert_eq!(out.len(), 1 + 11, "then every 5 min: {out:?}");
        assert!(out.iter().all(|(_, _, p)| *p == unsure), "recorded with its confidence: {out:?}");
        // It is no posture: a restart keeps none, and a certain reading of that side, held for
        // the settle time, is the change.
        assert_eq!(m.snapshot(WallClock::new(t0, 0)).logged_posture, None);
        let certain = Some(PostureReading { posture: Posture::LeftLateral, confidence: posture::CONFIDENT });
        let out = logged_postures(&frames(&mut m, t0, 3_700, 20, Presence::Present, certain));
        assert_eq!(out, vec![(3_710, LogReason::PostureChange, certain)]);
    }

    #[test]
    fn uncertain_readings_from_the_start_log_no_change() {
        // Nobody read with certainty yet: the uncertain stretch replaces no posture, and the
        // entrance's interval entry already records it.
        let t0 = Instant::now();
        let mut m = DeviceLogMachine::new(LogConfig::default());
        let unsure = Some(PostureReading { posture: Posture::Prone, confidence: 0.8 });
        let out = logged_postures(&frames(&mut m, t0, 0, 100, Presence::Present, unsure));
        assert_eq!(out, vec![(5, LogReason::Interval, unsure)]);
    }

    #[test]
    fn an_uncertain_reading_breaks_the_settling_of_a_change() {
        // Right side read with certainty 9 s, one uncertain second, 9 s again: never 10 s held.
        let t0 = Instant::now();
        let mut m = DeviceLogMachine::new(LogConfig::default());
        frames(&mut m, t0, 0, 100, Presence::Present, reading(Posture::Supine));
        let right = reading(Posture::RightLateral);
        let unsure = Some(PostureReading { posture: Posture::RightLateral, confidence: 0.7 });
        let mut out = frames(&mut m, t0, 100, 9, Presence::Present, right);
        out.extend(frames(&mut m, t0, 109, 1, Presence::Present, unsure));
        out.extend(frames(&mut m, t0, 110, 9, Presence::Present, right));
        assert!(device_entries(&out).is_empty(), "{out:?}");
        let out = frames(&mut m, t0, 119, 5, Presence::Present, right);
        assert_eq!(device_entries(&out), vec![(120, LogReason::PostureChange)]);
    }

    #[test]
    fn presence_entries_mark_entrance_and_exit_but_not_a_brief_lift() {
        let t0 = Instant::now();
        let mut m = DeviceLogMachine::new(LogConfig::default());
        let mut out = frames(&mut m, t0, 0, 60, Presence::Present, None);
        out.extend(frames(&mut m, t0, 60, 3, Presence::Absent, None));
        out.extend(frames(&mut m, t0, 63, 60, Presence::Present, None));
        out.extend(frames(&mut m, t0, 123, 60, Presence::Absent, None));
        let presence: Vec<(u64, LogOutput)> = out.into_iter().filter(|(_, o)| matches!(o, LogOutput::Presence { .. })).collect();
        assert_eq!(
            presence,
            vec![(5, LogOutput::Presence { at: t0, present: true }), (128, LogOutput::Presence { at: t0 + SEC * 123, present: false })]
        );
        assert!(!m.present());
    }

    #[test]
    fn nobody_on_the_mat_writes_no_device_entries() {
        let t0 = Instant::now();
        let mut m = DeviceLogMachine::new(LogConfig::default());
        assert!(frames(&mut m, t0, 0, 3_600, Presence::Absent, None).is_empty());
    }

    #[test]
    fn previews_are_block_means() {
        let cells: Vec<u8> = (0..16).collect();
        let map = PressureMap::new(4, 4, CellFormat::U8, &cells).expect("shape");
        let preview = PreviewMap::of(&map, 2, 2);
        assert_eq!(preview, PreviewMap { rows: 2, cols: 2, cells: vec![2, 4, 10, 12] });
        let small = PreviewMap::of(&map, 16, 16);
        assert_eq!(small.cells, (0..16).collect::<Vec<u16>>());
    }
}

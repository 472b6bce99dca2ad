//! Real in-bed pressure maps of the development set (`../shared/data/pmd-dev/`, PhysioNet PMD,
//! subjects S1–S4; attribution in that folder's README): reading the recordings and placing a
//! 64 × 32 frame onto a device's grid in the product's orientation.
//!
//! Pure apart from [`load`], which reads one file. Used by the simulator's bodies and by the tests
//! that measure presence, posture and turns on real maps.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mat_core::machine::posture::Posture;
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{units_per_cell, units_to_mmhg};

use crate::synth::{Replay, ReplayFrame};

/// Rows of a real frame (along the body; the head at row 0).
pub const REAL_ROWS: usize = 64;
/// Columns of a real frame (across the body; a supine person's left towards column 0).
pub const REAL_COLS: usize = 32;
/// How wide [`place`] lays the sensor across the grid, over its length: the sensor's 32 columns
/// on half as many cells as its 64 rows, as if its cells were square. The posture model is fitted
/// and measured on this placement (docs/posture.md).
pub const PLACED_WIDTH_OVER_LENGTH: f32 = 0.5;
/// The sensor's true shape, across over along: its cells are not square. Its 64 rows cover about
/// 190 cm along the body and its 32 columns about 76 cm across (a 75 × 30 inch bed sensor);
/// measured on the recordings themselves, a supine body of 175–183 cm spans rows 1–63 (about
/// 2.9 cm a row) while the shoulders with the arms span 20–26 columns and the back of the head
/// 4–7 (about 2.4 cm a column). On a real 4 cm mat a body is this much narrower than [`place`]
/// lays it (19 cells across on 48, not 24); the `posture_true_width` example measures what the
/// posture model reads from bodies placed at it.
pub const TRUE_WIDTH_OVER_LENGTH: f32 = 76.0 / 190.0;
/// Raw reading of full scale: 1000 = 100 mmHg.
pub const REAL_FULL_SCALE: u16 = 1000;
/// Raw units per mmHg.
pub const REAL_UNITS_PER_MMHG: f32 = 10.0;
/// The subjects of the development set. The data set's other subjects are held out: never add them.
pub const DEV_SUBJECTS: [u8; 4] = [1, 2, 3, 4];
/// Posture recordings per subject, numbered 1..=17.
pub const POSTURES: std::ops::RangeInclusive<u8> = 1..=17;
/// The first frames of every recording are junk (nearly empty or saturated).
pub const JUNK_FRAMES: usize = 2;

/// One frame: `REAL_ROWS × REAL_COLS` raw readings, row-major.
pub type RealFrame = Vec<u16>;

/// The frames of one posture recording of one subject (junk frames already skipped).
#[derive(Debug, Clone)]
pub struct Recording {
    pub subject: u8,
    pub posture: u8,
    pub frames: Vec<RealFrame>,
}

impl Recording {
    /// The class the data set's README gives this recording.
    pub fn label(&self) -> Posture {
        label(self.posture)
    }
}

/// What a recording shows, by its number (the README's table).
pub fn label(posture: u8) -> Posture {
    match posture {
        2 | 4 | 5 | 13 => Posture::RightLateral,
        3 | 6 | 7 | 14 => Posture::LeftLateral,
        _ => Posture::Supine,
    }
}

/// A short description of a recording, by its number (the README's table).
pub fn description(posture: u8) -> &'static str {
    match posture {
        1 => "supine",
        2 => "right side",
        3 => "left side",
        4 => "right, 30° wedge",
        5 => "right, 60° wedge",
        6 => "left, 30° wedge",
        7 => "left, 60° wedge",
        8 => "supine, star",
        9 => "supine, hands crossed",
        10 => "supine, knees up",
        11 => "supine, right knee up",
        12 => "supine, left knee up",
        13 => "right, foetal",
        14 => "left, foetal",
        15 => "supine, bed inclined 30°",
        16 => "supine, bed inclined 45°",
        17 => "supine, bed inclined 60°",
        _ => "unknown",
    }
}

/// Where the development set lives: `$PMD_DEV_DIR`, else `../shared/data/pmd-dev` beside the
/// workspace root.
pub fn dev_set_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PMD_DEV_DIR") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/pmd-dev")
}

/// Reads recording `posture` of subject `subject` from `dir` (`S{subject}/{posture}.u16`).
pub fn load(dir: &Path, subject: u8, posture: u8) -> io::Result<Recording> {
    let bytes = std::fs::read(dir.join(format!("S{subject}")).join(format!("{posture}.u16")))?;
    Ok(Recording { subject, posture, frames: parse_frames(&bytes)? })
}

/// Splits a file's bytes into frames and skips the junk ones at the start.
pub fn parse_frames(bytes: &[u8]) -> io::Result<Vec<RealFrame>> {
    let frame_bytes = REAL_ROWS * REAL_COLS * 2;
    if !bytes.len().is_multiple_of(frame_bytes) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} bytes is not a whole number of {frame_bytes}-byte frames", bytes.len()),
        ));
    }
    Ok(bytes
        .chunks_exact(frame_bytes)
        .skip(JUNK_FRAMES)
        .map(|f| f.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect())
        .collect())
}

/// Places a real frame onto a device grid of `rows × cols` in the product's orientation (see
/// `docs/posture.md`): the body lies along the longer side (along the columns on a square map),
/// the head at its start, a supine person's left towards the first row (first column on a tall
/// map). The sensor's 64 cells fill the long side and its 32 cells half as many cells across
/// ([`PLACED_WIDTH_OVER_LENGTH`]), centred. Cells are area-averaged, in the recording's raw units.
/// The simulator's bed bodies are drawn on a sensor of the same shape and placed the same way.
pub fn place<T: Copy + Into<f32>>(frame: &[T], rows: usize, cols: usize) -> Vec<f32> {
    place_with_width(frame, rows, cols, PLACED_WIDTH_OVER_LENGTH)
}

/// As [`place`], with the sensor laid `width_over_length` as wide across the grid as it is long
/// ([`TRUE_WIDTH_OVER_LENGTH`]: as wide as the body was on the bed).
pub fn place_with_width<T: Copy + Into<f32>>(frame: &[T], rows: usize, cols: usize, width_over_length: f32) -> Vec<f32> {
    assert_eq!(frame.len(), REAL_ROWS * REAL_COLS, "a real frame has 64 × 32 cells");
    let along_cols = mat_core::machine::posture::lies_along_columns(rows, cols);
    let (long, short) = if along_cols { (cols, rows) } else { (rows, cols) };
    // Floored: at half the length, an odd side's cells across as `long / 2` always placed them.
    let across = ((long as f32 * width_over_length).floor() as usize).max(1).min(short);
    let offset = (short - across) / 2;
    // Resample the sensor to `long × across` (along × across), then write it into the grid.
    let resampled = area_resample(frame, REAL_ROWS, REAL_COLS, long, across);
    let mut out = vec![0.0; rows * cols];
    for a in 0..long {
        for c in 0..across {
            let v = resampled[a * across + c];
            let s = offset + c;
            let (r, k) = if along_cols { (s, a) } else { (a, s) };
            out[r * cols + k] = v;
        }
    }
    out
}

/// A real frame as `device` would send it: placed on the device's grid ([`place`]) and quantised
/// to its cells with the device's documented scale (`mat_protocol::scale`; a bed mat's step
/// is 0.4 mmHg, so raw 1000 = 100 mmHg becomes 250). `None` for types that send no frames.
pub fn device_cells(frame: &[u16], device: DeviceType) -> Option<Vec<u8>> {
    let (rows, cols, _) = device.frame_shape()?;
    let placed = place(frame, usize::from(rows), usize::from(cols));
    Some(mmhg_to_cells(placed.iter().map(|&raw| raw / REAL_UNITS_PER_MMHG), device))
}

/// Pressures in mmHg → `device`'s cells (rounded to its steps, clamped to a byte).
pub fn mmhg_to_cells(mmhg: impl IntoIterator<Item = f32>, device: DeviceType) -> Vec<u8> {
    let step = units_to_mmhg(units_per_cell(device)) as f32;
    mmhg.into_iter().map(|p| (p / step).round().clamp(0.0, 255.0) as u8).collect()
}

/// Real recordings played back as `device` sends them (see [`device_cells`]): the first
/// `frames` frames of each recording in turn, each held for `hold`, then an empty bed (all
/// zeros) for `empty`. For [`crate::Scenario::Replay`].
pub fn replay(segments: &[(&Recording, usize)], hold: Duration, empty: Duration, device: DeviceType) -> Replay {
    let cells = |frame: &[u16]| device_cells(frame, device).expect("a map device").into_iter().map(u16::from).collect();
    let mut out: Vec<ReplayFrame> = segments
        .iter()
        .flat_map(|(rec, frames)| rec.frames.iter().take(*frames))
        .map(|frame| ReplayFrame { cells: cells(frame), hold, occupied: true })
        .collect();
    let len = device.frame_shape().map_or(0, |(r, c, _)| usize::from(r) * usize::from(c));
    out.push(ReplayFrame { cells: vec![0; len], hold: empty, occupied: false });
    Replay::new(out)
}

/// Area-weighted resampling of a `src_rows × src_cols` grid to `dst_rows × dst_cols`.
pub fn area_resample<T: Copy + Into<f32>>(src: &[T], src_rows: usize, src_cols: usize, dst_rows: usize, dst_cols: usize) -> Vec<f32> {
    let row_w = weights(src_rows, dst_rows);
    let col_w = weights(src_cols, dst_cols);
    let mut out = vec![0.0f32; dst_rows * dst_cols];
    for (dr, rws) in row_w.iter().enumerate() {
        for (dc, cws) in col_w.iter().enumerate() {
            let mut sum = 0.0f32;
            let mut area = 0.0f32;
            for &(sr, wr) in rws {
                for &(sc, wc) in cws {
                    let w = wr * wc;
                    sum += w * src[sr * src_cols + sc].into();
                    area += w;
                }
            }
            out[dr * dst_cols + dc] = if area > 0.0 { sum / area } else { 0.0 };
        }
    }
    out
}

/// For each destination cell, the source cells it overlaps and the overlap length.
fn weights(src: usize, dst: usize) -> Vec<Vec<(usize, f32)>> {
    let scale = src as f32 / dst as f32;
    (0..dst)
        .map(|d| {
            let lo = d as f32 * scale;
            let hi = lo + scale;
            let first = lo.floor() as usize;
            let last = (hi.ceil() as usize).min(src);
            (first..last)
                .filter_map(|s| {
                    let w = (hi.min(s as f32 + 1.0) - lo.max(s as f32)).max(0.0);
                    (w > 1e-6).then_some((s, w))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame_with(cells: &[(usize, usize, u16)]) -> Vec<u16> {
        let mut f = vec![0u16; REAL_ROWS * REAL_COLS];
        for &(r, c, v) in cells {
            f[r * REAL_COLS + c] = v;
        }
        f
    }

    #[test]
    fn labels_follow_the_readme() {
        assert_eq!(label(1), Posture::Supine);
        assert_eq!(label(5), Posture::RightLateral);
        assert_eq!(label(7), Posture::LeftLateral);
        assert_eq!(label(13), Posture::RightLateral);
        assert_eq!(label(14), Posture::LeftLateral);
        assert_eq!(label(17), Posture::Supine);
    }

    #[test]
    fn parse_skips_junk_frames_and_rejects_partial_files() {
        let mut bytes = Vec::new();
        for n in 0..4u16 {
            bytes.extend(std::iter::repeat_n(n.to_le_bytes(), REAL_ROWS * REAL_COLS).flatten());
        }
        let frames = parse_frames(&bytes).expect("whole frames");
        assert_eq!(frames.len(), 2);
        assert!(frames[0].iter().all(|&v| v == 2));
        assert!(parse_frames(&bytes[..100]).is_err());
    }

    #[test]
    fn resampling_keeps_a_uniform_level_and_the_total_load() {
        let src = vec![400u16; REAL_ROWS * REAL_COLS];
        for (r, c) in [(48, 24), (16, 16), (30, 17)] {
            let out = area_resample(&src, REAL_ROWS, REAL_COLS, r, c);
            assert!(out.iter().all(|&v| (v - 400.0).abs() < 1e-3), "{r}x{c}");
        }
    }

    #[test]
    fn placing_on_a_square_map_puts_the_head_at_the_first_column_and_the_left_at_the_first_row() {
        // Head (row 0) near the person's left (column 0), feet (row 63) to the right (column 31).
        let f = frame_with(&[(0, 0, 900), (63, 31, 700)]);
        let out = place(&f, 48, 48);
        let (r, c) = argmax(&out, 48);
        assert_eq!(c, 0, "head at the first column");
        assert_eq!(r, 12, "left side at the first body row (across cells centred: rows 12..36)");
        let last = out[35 * 48 + 47];
        assert!(last > 0.0, "feet at the last column, right side at the last body row");
    }

    #[test]
    fn at_its_true_width_the_sensor_is_19_cells_across_a_48_cell_bed() {
        let out = place_with_width(&vec![500u16; REAL_ROWS * REAL_COLS], 48, 48, TRUE_WIDTH_OVER_LENGTH);
        let body_rows: Vec<usize> = (0..48).filter(|r| out[r * 48 + 20] > 0.0).collect();
        assert_eq!(body_rows, (14..33).collect::<Vec<_>>(), "76 cm of 190 cm: 19 of 48 cells, centred");
        assert_eq!(place(&vec![500u16; REAL_ROWS * REAL_COLS], 48, 48).iter().filter(|&&v| v > 0.0).count(), 48 * 24);
    }

    #[test]
    fn placing_on_a_tall_map_keeps_rows_along_the_body() {
        let f = frame_with(&[(0, 0, 900)]);
        let out = place(&f, 48, 24);
        assert_eq!(argmax(&out, 24), (0, 0));
    }

    fn argmax(v: &[f32], cols: usize) -> (usize, usize) {
        let i = v.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(i, _)| i).unwrap_or(0);
        (i / cols, i % cols)
    }

    #[test]
    fn device_cells_use_the_documented_step() {
        // 100 mmHg (raw 1000) on a bed mat is 250 steps of 0.4 mmHg; 0.2 mmHg rounds to 1 step.
        let out = device_cells(&vec![1000u16; REAL_ROWS * REAL_COLS], DeviceType::MattressMatIoT).unwrap();
        assert_eq!(out.len(), 48 * 48);
        assert_eq!(out.iter().copied().max(), Some(250));
        assert_eq!(mmhg_to_cells([0.2, 0.19, 200.0], DeviceType::SleepMat), vec![1, 0, 255]);
        assert_eq!(device_cells(&vec![0u16; REAL_ROWS * REAL_COLS], DeviceType::SensingHorse), None);
    }

    #[test]
    fn the_development_set_is_readable() {
        let dir = dev_set_dir();
        let rec = load(&dir, 1, 1).expect("S1/1.u16");
        assert!(rec.frames.len() > 20);
        assert!(rec.frames[5].iter().any(|&v| v > 0));
    }
}

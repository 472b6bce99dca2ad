//! The dynamic video player's frames (spec §4, §9): every capture frame resampled to 48×48,
//! three playback frames per captured interval (linear interpolation), and cells at or below 5
//! zeroed. The centre-of-pressure trace advances one sample per three playback frames, hence
//! the tracking index divided by 3.

use super::frame::Capture;

/// Spec §9: the video map is 48×48.
pub const PLAYBACK_SIZE: usize = 48;
/// Playback frames per captured interval; spec §9's tracking index "divides by 3" because of it.
pub const PLAYBACK_STEPS_PER_FRAME: usize = 3;
/// Spec §9: video cells at or below 5 are zeroed.
pub const PLAYBACK_ZERO_AT_OR_BELOW: u16 = 5;

/// Number of playback frames: 3 per interval between captured frames, plus the last frame.
pub fn playback_len(capture: &Capture) -> usize {
    match capture.frames().len() {
        0 => 0,
        n => (n - 1) * PLAYBACK_STEPS_PER_FRAME + 1,
    }
}

/// Which captured sample of the centre-of-pressure trace goes with playback frame `index`.
pub fn trace_index(playback_index: usize) -> usize {
    playback_index / PLAYBACK_STEPS_PER_FRAME
}

/// Playback frame `index` as 48×48 row-major cells, or `None` past the end. Frame 3k is captured
/// frame k; frames 3k+1 and 3k+2 lie 1/3 and 2/3 of the way to frame k+1.
pub fn playback_frame(capture: &Capture, index: usize) -> Option<Vec<u16>> {
    if index >= playback_len(capture) || capture.rows() == 0 || capture.cols() == 0 {
        return None;
    }
    let frames = capture.frames();
    let k = trace_index(index);
    let step = index % PLAYBACK_STEPS_PER_FRAME;
    let a = resample_to_playback(capture.rows(), capture.cols(), frames[k].frame.cells());
    let mixed: Vec<f64> = if step == 0 {
        a
    } else {
        let b = resample_to_playback(capture.rows(), capture.cols(), frames[k + 1].frame.cells());
        let t = step as f64 / PLAYBACK_STEPS_PER_FRAME as f64;
        a.iter().zip(&b).map(|(x, y)| x + (y - x) * t).collect()
    };
    Some(
        mixed
            .into_iter()
            .map(|v| {
                let v = v.round().clamp(0.0, f64::from(u16::MAX)) as u16;
                if v <= PLAYBACK_ZERO_AT_OR_BELOW { 0 } else { v }
            })
            .collect(),
    )
}

/// Bilinear resampling of a `rows × cols` map onto 48×48, corners aligned (a 48×48 map is
/// returned unchanged).
fn resample_to_playback(rows: u16, cols: u16, cells: &[u16]) -> Vec<f64> {
    let (rows, cols) = (rows as usize, cols as usize);
    let source = |size: usize, i: usize| -> f64 { if size <= 1 { 0.0 } else { i as f64 * (size - 1) as f64 / (PLAYBACK_SIZE - 1) as f64 } };
    let mut out = Vec::with_capacity(PLAYBACK_SIZE * PLAYBACK_SIZE);
    for r in 0..PLAYBACK_SIZE {
        let y = source(rows, r);
        let (y0, fy) = (y.floor() as usize, y.fract());
        let y1 = (y0 + 1).min(rows.saturating_sub(1));
        for c in 0..PLAYBACK_SIZE {
            let x = source(cols, c);
            let (x0, fx) = (x.floor() as usize, x.fract());
            let x1 = (x0 + 1).min(cols.saturating_sub(1));
            let at = |row: usize, col: usize| f64::from(cells[row * cols + col]);
            let top = at(y0, x0) * (1.0 - fx) + at(y0, x1) * fx;
            let bottom = at(y1, x0) * (1.0 - fx) + at(y1, x1) * fx;
            out.push(top * (1.0 - fy) + bottom * fy);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::frame::PressureFrame;
    use mat_protocol::device_type::DeviceType;

    fn uniform_capture(values: &[u16]) -> Capture {
        let mut c = Capture::new(DeviceType::PodologyIoT, 48, 48);
        for (i, &v) in values.iter().enumerate() {
            c.push(i as u64 * 33, PressureFrame::new(48, 48, vec![v; 48 * 48]).unwrap()).unwrap();
        }
        c
    }

    #[test]
    fn three_playback_frames_per_interval() {
        let c = uniform_capture(&[30, 60, 90]);
        assert_eq!(playback_len(&c), 7);
        // 30 → 60: 30, 40, 50, then 60, 70, 80, 90.
        let firsts: Vec<u16> = (0..7).map(|i| playback_frame(&c, i).unwrap()[0]).collect();
        assert_eq!(firsts, vec![30, 40, 50, 60, 70, 80, 90]);
        assert_eq!(playback_frame(&c, 7), None);
    }

    #[test]
    fn the_trace_index_divides_by_three() {
        assert_eq!((0..7).map(trace_index).collect::<Vec<_>>(), vec![0, 0, 0, 1, 1, 1, 2]);
    }

    #[test]
    fn cells_at_or_below_five_are_zeroed() {
        let c = uniform_capture(&[5, 8]);
        // 5 → 0; 6 → 6; 7 → 7 and 8 stay.
        let values: Vec<u16> = (0..4).map(|i| playback_frame(&c, i).unwrap()[0]).collect();
        assert_eq!(values, vec![0, 6, 7, 8]);
        let c = uniform_capture(&[6]);
        assert_eq!(playback_frame(&c, 0).unwrap()[5], 6);
    }

    #[test]
    fn an_empty_shape_has_no_playback_frame() {
        let mut c = Capture::new(DeviceType::PodologyIoT, 0, 48);
        c.push(0, PressureFrame::new(0, 48, vec![]).unwrap()).unwrap();
        assert_eq!(playback_frame(&c, 0), None);
    }

    #[test]
    fn small_maps_are_resampled_to_48_by_48() {
        // 2×2 map [0 100; 100 200]: corners keep their values, the centre is their mean, 100.
        let mut c = Capture::new(DeviceType::SeatingMatIoT, 2, 2);
        c.push(0, PressureFrame::new(2, 2, vec![0, 100, 100, 200]).unwrap()).unwrap();
        let f = playback_frame(&c, 0).unwrap();
        assert_eq!(f.len(), 48 * 48);
        assert_eq!((f[0], f[47], f[47 * 48], f[48 * 48 - 1]), (0, 100, 100, 200));
        // Cell (0, 1) is 1/47 of the way from 0 to 100: 2.1 → 2 → zeroed.
        assert_eq!(f[1], 0);
    }
}

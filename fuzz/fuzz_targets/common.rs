//! Turns fuzzer bytes into a capture: a device type, an analysis kind, a small shape and frames.

use mat_core::analysis::{AnalysisKind, Capture, PressureFrame};
use mat_protocol::device_type::DeviceType;

pub const KINDS: [AnalysisKind; 6] = [
    AnalysisKind::Static,
    AnalysisKind::Dynamic,
    AnalysisKind::Balance,
    AnalysisKind::SeatingDynamic,
    AnalysisKind::Fitting,
    AnalysisKind::Rehab,
];

/// `None` when the input is too short to describe a capture.
pub fn capture_from(data: &[u8]) -> Option<(AnalysisKind, Capture, &[u8])> {
    let (&[kind, device, rows, cols, frames, step], rest) = data.split_first_chunk::<6>()?;
    let kind = KINDS[kind as usize % KINDS.len()];
    let device = DeviceType::ALL[device as usize % DeviceType::ALL.len()];
    let rows = u16::from(rows % 48) + 1;
    let cols = u16::from(cols % 48) + 1;
    let cells = rows as usize * cols as usize;
    let frames = (frames % 8) as usize + 1;
    let mut capture = Capture::new(device, rows, cols);
    let mut bytes = rest.iter().copied().cycle();
    if rest.is_empty() {
        return None;
    }
    for i in 0..frames {
        // Cells take the input's bytes cyclically, scaled over the 0..=1023 range of real sensors.
        let values: Vec<u16> = (0..cells).map(|_| u16::from(bytes.next().unwrap_or(0)) * 4).collect();
        let frame = PressureFrame::new(rows, cols, values).ok()?;
        capture.push(i as u64 * (u64::from(step) + 1) * 10, frame).ok()?;
    }
    Some((kind, capture, rest))
}

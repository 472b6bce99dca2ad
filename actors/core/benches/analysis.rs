//! Cost of analysing a 60 s dynamic capture at 30 Hz (1,800 frames of 48×48): the dynamic
//! podology analysis the capture machine runs when a walk ends, plus balance and the processed
//! raw export of the same frames. Budget: under 100 ms in release. Results go to
//! docs/performance.md.
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mat_core::analysis::export::{ExportKind, ExportMetadata, export_raw};
use mat_core::analysis::{AnalysisKind, AnalysisParams, AnalysisResult, Capture, PressureFrame, analyse};
use mat_protocol::device_type::DeviceType;

const SIZE: usize = 48;
const FRAMES: u64 = 1_800;
const FRAME_MS: u64 = 33;

/// Two feet 14 columns apart rolling heel to toe with a 1.2 s cycle, out of phase: an ellipse of
/// pressure per foot whose loaded rows move from the heel (rows 30–38) to the toes (rows 10–18).
fn walking_capture() -> Capture {
    let mut capture = Capture::new(DeviceType::PodologyIoT, SIZE as u16, SIZE as u16);
    for i in 0..FRAMES {
        let t = (i * FRAME_MS) as f64 / 1000.0;
        let mut cells = vec![0u16; SIZE * SIZE];
        for (centre_col, phase) in [(15.0, 0.0), (33.0, 0.6)] {
            let cycle = ((t + phase) % 1.2) / 1.2;
            if cycle > 0.6 {
                continue; // swing
            }
            let roll = cycle / 0.6;
            let centre_row = 34.0 - 20.0 * roll;
            for r in 8..40 {
                for c in 0..SIZE {
                    let (dy, dx) = ((r as f64 - centre_row) / 9.0, (c as f64 - centre_col) / 3.5);
                    let d = dy * dy + dx * dx;
                    if d < 1.0 {
                        cells[r * SIZE + c] = (20.0 + 180.0 * (1.0 - d) * (0.8 + 0.2 * ((r * 5 + c * 3) % 7) as f64 / 6.0)) as u16;
                    }
                }
            }
        }
        capture.push(i * FRAME_MS, PressureFrame::new(SIZE as u16, SIZE as u16, cells).unwrap()).unwrap();
    }
    capture
}

fn benches(c: &mut Criterion) {
    let capture = walking_capture();
    let params = AnalysisParams::default();
    let result = analyse(AnalysisKind::Dynamic, &capture, &params).unwrap();
    let AnalysisResult::Dynamic(dynamic) = &result else { panic!("not dynamic") };
    assert!(dynamic.left.rockers.is_some() && dynamic.right.rockers.is_some(), "{:?}", dynamic.left);

    let mut group = c.benchmark_group("analysis 60 s at 30 Hz, 48x48");
    group.sample_size(20).measurement_time(Duration::from_secs(10));
    group.bench_function("dynamic", |b| b.iter(|| analyse(AnalysisKind::Dynamic, black_box(&capture), &params).unwrap()));
    group.bench_function("balance", |b| b.iter(|| analyse(AnalysisKind::Balance, black_box(&capture), &params).unwrap()));
    let metadata = ExportMetadata {
        analysis_type: AnalysisKind::Dynamic,
        patient_id: "bench",
        creation_date_s: 1_763_779_200,
        export_date_ms: 1_763_779_200_000,
    };
    let series = result.additional_parameters().to_vec();
    group.bench_function("processed export", |b| {
        b.iter(|| export_raw(ExportKind::Processed, &metadata, black_box(&capture), &series).unwrap())
    });
    group.finish();
}

criterion_group!(analysis, benches);
criterion_main!(analysis);

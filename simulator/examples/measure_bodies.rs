//! Measures real bodies in the development set (`../shared/data/pmd-dev/`, S1–S4): the figures the
//! simulator's bed bodies are calibrated to (`simulator/src/synth/bed.rs`, "Measured on real maps").
//!
//! ```sh
//! cargo run -p simulator --example measure_bodies
//! ```
//!
//! Each frame is placed on a 48 × 24 grid (rows along the body, 4 cm cells), in mmHg. Per posture
//! (1 supine, 3 left side, 2 right side), averaged over every frame of the four subjects: the body's
//! extent along the mat, contact cells (≥ 0.8 mmHg), median / mean / 90th-percentile / peak of the
//! contact cells, the robust peak (95th percentile) of seven bands along the body, the sideways
//! offset of the legs from the torso line and the share of the load on the person's left half.

use simulator::real::{self, DEV_SUBJECTS};

const ROWS: usize = 48;
const COLS: usize = 24;
const ACTIVE_MMHG: f32 = 0.8;
/// Bands along the body, as fractions of its extent: head, shoulders, back, pelvis, thighs,
/// calves, heels.
const BANDS: [(f32, f32, &str); 7] = [
    (0.0, 0.12, "head"),
    (0.12, 0.30, "shoulders"),
    (0.30, 0.42, "back"),
    (0.42, 0.58, "pelvis"),
    (0.58, 0.75, "thighs"),
    (0.75, 0.90, "calves"),
    (0.90, 1.0, "heels"),
];

#[derive(Default)]
struct Sums {
    frames: f64,
    extent: f64,
    contact: f64,
    median: f64,
    mean: f64,
    p90: f64,
    peak: f64,
    bands: [f64; 7],
    leg_offset: f64,
    left_share: f64,
}

fn percentile(sorted: &[f32], q: f32) -> f32 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f32 * q).round() as usize]
}

fn measure(map: &[f32], sums: &mut Sums) {
    let active_rows: Vec<usize> = (0..ROWS).filter(|&r| (0..COLS).filter(|&c| map[r * COLS + c] >= ACTIVE_MMHG).count() >= 2).collect();
    let (Some(&first), Some(&last)) = (active_rows.first(), active_rows.last()) else { return };
    let extent = (last + 1 - first) as f32;
    let mut active: Vec<f32> = map.iter().copied().filter(|&v| v >= ACTIVE_MMHG).collect();
    active.sort_by(f32::total_cmp);
    sums.frames += 1.0;
    sums.extent += f64::from(extent / ROWS as f32);
    sums.contact += active.len() as f64;
    sums.median += f64::from(percentile(&active, 0.5));
    sums.mean += f64::from(active.iter().sum::<f32>() / active.len() as f32);
    sums.p90 += f64::from(percentile(&active, 0.9));
    sums.peak += f64::from(*active.last().unwrap_or(&0.0));
    for (b, (lo, hi, _)) in BANDS.iter().enumerate() {
        let (r0, r1) = (first as f32 + lo * extent, first as f32 + hi * extent);
        let mut band: Vec<f32> = (0..ROWS)
            .filter(|&r| (r as f32 + 0.5) >= r0 && (r as f32 + 0.5) < r1)
            .flat_map(|r| map[r * COLS..(r + 1) * COLS].iter().copied())
            .filter(|&v| v >= ACTIVE_MMHG)
            .collect();
        band.sort_by(f32::total_cmp);
        sums.bands[b] += f64::from(percentile(&band, 0.95));
    }
    // Centroid across (columns, 0 = the person's left when supine) of the torso and of the legs.
    let centroid = |lo: f32, hi: f32| {
        let (mut w, mut wc) = (0.0f32, 0.0f32);
        for r in 0..ROWS {
            let f = (r as f32 + 0.5 - first as f32) / extent;
            if f >= lo && f < hi {
                for c in 0..COLS {
                    w += map[r * COLS + c];
                    wc += map[r * COLS + c] * (c as f32 + 0.5);
                }
            }
        }
        if w > 0.0 { wc / w } else { COLS as f32 / 2.0 }
    };
    sums.leg_offset += f64::from((centroid(0.6, 0.95) - centroid(0.12, 0.5)) / COLS as f32);
    let total: f32 = map.iter().sum();
    let left: f32 = (0..ROWS).flat_map(|r| map[r * COLS..r * COLS + COLS / 2].iter()).sum();
    sums.left_share += f64::from(left / total.max(1e-6));
}

/// Sums over `subjects` of recording `posture`.
fn measure_recordings(dir: &std::path::Path, posture: u8, subjects: &[u8]) -> Sums {
    let mut sums = Sums::default();
    for &subject in subjects {
        let rec = real::load(dir, subject, posture).expect("the development set");
        for frame in &rec.frames {
            let placed: Vec<f32> = real::place(frame, ROWS, COLS).iter().map(|v| v / real::REAL_UNITS_PER_MMHG).collect();
            measure(&placed, &mut sums);
        }
    }
    sums
}

fn main() {
    let dir = real::dev_set_dir();
    println!(
        "| posture | frames | extent (of 48 rows) | contact cells | median | mean | p90 | peak (mmHg) | band p95: head, shoulders, back, pelvis, thighs, calves, heels (mmHg) | leg offset (of 24 cols) | left share |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for posture in [1u8, 3, 2] {
        let sums = measure_recordings(&dir, posture, &DEV_SUBJECTS);
        let n = sums.frames;
        let bands: Vec<String> = sums.bands.iter().map(|b| format!("{:.1}", b / n)).collect();
        println!(
            "| {} | {n} | {:.2} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {:+.3} | {:.2} |",
            real::description(posture),
            sums.extent / n,
            sums.contact / n,
            sums.median / n,
            sums.mean / n,
            sums.p90 / n,
            sums.peak / n,
            bands.join(", "),
            sums.leg_offset / n,
            sums.left_share / n
        );
    }
    println!("\nSupine, per subject: leg offset (of 24 cols), left share");
    for subject in DEV_SUBJECTS {
        let sums = measure_recordings(&dir, 1, &[subject]);
        println!("S{subject}: {:+.3}, {:.2}", sums.leg_offset / sums.frames, sums.left_share / sums.frames);
    }
}

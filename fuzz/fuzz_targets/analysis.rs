//! The analysis engine on arbitrary captures: every kind, every device type, shapes from 1×1 to
//! 48×48, any cell values. It may refuse (too few frames, no pressure) but never panic, and what it
//! returns must serialise (it is stored as JSON).
#![no_main]

#[path = "common.rs"]
mod common;

use mat_core::analysis::{analyse, AnalysisParams};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((kind, capture, rest)) = common::capture_from(data) else { return };
    let params = AnalysisParams {
        weight_kg: rest.first().map(|&w| f64::from(w)),
        height_cm: rest.get(1).map(|&h| f64::from(h) * 2.0),
    };
    if let Ok(result) = analyse(kind, &capture, &params) {
        serde_json::to_vec(&result).expect("an analysis result serialises");
    }
});

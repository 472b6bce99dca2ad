//! The PDF renderers on arbitrary analyses and layout options: the analysis report and the
//! real-scale print, in any language, palette and widget choice. Never a panic; a PDF when they
//! answer Ok.
#![no_main]

#[path = "common.rs"]
mod common;

use mat_core::analysis::{analyse, AnalysisParams};
use libfuzzer_sys::fuzz_target;
use reports::{
    analysis_pdf, real_scale_pdf, AnalysisReportInput, LayoutOptions, PaperSize, PatientSummary, RealScaleInput, ReportBranding, ReportClock,
    ReportMap,
};

fuzz_target!(|data: &[u8]| {
    let Some((kind, capture, rest)) = common::capture_from(data) else { return };
    let Some((&options_len, rest)) = rest.split_first() else { return };
    let (options_json, notes) = rest.split_at((options_len as usize).min(rest.len()));
    let options: LayoutOptions = serde_json::from_slice(options_json).unwrap_or_default();
    let notes: String = String::from_utf8_lossy(notes).chars().take(1100).collect();
    let result = analyse(kind, &capture, &AnalysisParams::default()).ok();
    let mean = capture.mean_map();
    let map = ReportMap { rows: mean.rows(), cols: mean.cols(), cells: mean.cells().to_vec() };
    // The company's logo is bytes from outside too: the notes' bytes stand for one (decoded or refused).
    let branding = ReportBranding {
        company_name: notes.chars().take(60).collect(),
        logo: (options_len % 3 == 0).then(|| notes.as_bytes().to_vec()),
        fitness: options_len % 5 == 0,
        hide_centre_of_pressure: options_len % 7 == 0,
    };
    let clock = ReportClock { utc_offset_minutes: Some((i16::from(options_len) - 128) * 7), time_zone: Some("Europe/Madrid".into()) };
    let input = AnalysisReportInput {
        analysis_type: kind,
        device_type: capture.device_type(),
        device_name: notes.chars().take(40).collect(),
        creation_date_s: i64::from(options_len) * 86_400,
        branding: branding.clone(),
        patient: Some(PatientSummary { name: notes.chars().rev().take(30).collect(), height_cm: Some(170.0), weight_kg: None }),
        notes: notes.clone(),
        map: map.clone(),
        result,
    };
    if let Ok(pdf) = analysis_pdf(&input, &options) {
        assert!(pdf.starts_with(b"%PDF"));
    }
    let real = RealScaleInput {
        device_type: capture.device_type(),
        device_name: input.device_name.clone(),
        creation_date_s: input.creation_date_s,
        patient_name: None,
        company_name: branding.company_name,
        map,
        language: options.language,
        palette: options.palette,
        clock,
    };
    let paper = if options_len % 2 == 0 { PaperSize::A4 } else { PaperSize::A3 };
    if let Ok(pdf) = real_scale_pdf(&real, paper) {
        assert!(pdf.starts_with(b"%PDF"));
    }
});

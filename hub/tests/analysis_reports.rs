//! A captured analysis printed later: the report shows the patient's height and weight of the
//! capture day (stored with the record), the engine's stored result, the company's name, and is
//! named after the patient and the analysis.

use std::sync::Arc;

use actors::actor::record::CaptureRecord;
use actors::catalog::Catalog;
use hub::domain::analyses::{record_capture, report_source};
use mat_core::analysis::AnalysisResult;
use mat_core::machine::capture::{CaptureKind, CapturedFrame};
use mat_protocol::device_type::DeviceType;
use reports::{AnalysisReportInput, LayoutOptions, PdfKind, ReportClock};
use storage::Store;
use storage::model::{AnalysisFilter, CompanyBranding, PatientFields};

/// Two feet standing still on a 48 × 48 plate.
fn feet() -> Vec<u16> {
    let mut cells = vec![1u16; 48 * 48];
    for r in 14..27 {
        for c in (14..19).chain(28..33) {
            cells[r * 48 + c] = if r > 22 { 180 } else { 90 };
        }
    }
    cells
}

#[tokio::test]
async fn a_report_printed_later_shows_the_patient_as_on_the_capture_day() {
    let store = Store::open("mem://").await.unwrap();
    let branding = CompanyBranding {
        company_name: "Clínica Norte".into(),
        address: String::new(),
        logo: None,
        page_color: "#ffffff".into(),
        layout_number: 1,
    };
    let company_id = store.hub_wide().companies().create_branded(&branding).await.unwrap();
    let user_id = store.hub_wide().accounts().create("nurse@example.com", "a long password 1", 2, &company_id).await.unwrap();
    let company = store.company(&company_id);
    let on_the_day = PatientFields { name: "María García Pérez".into(), weight: 64.5, height: 168.0, ..Default::default() };
    let patient_id = company.patients().create(&user_id, &on_the_day).await.unwrap();
    let capture = CaptureRecord {
        device_id: Arc::from("plate-1"),
        patient_id: patient_id.clone(),
        user_id: user_id.clone(),
        kind: CaptureKind::Static,
        requested_at_ms: 1_764_171_060_000, // 2025-11-26T15:31:00Z
        seconds: 0,
        frames: vec![CapturedFrame { offset_ms: 0, rows: 48, cols: 48, cells: feet() }],
        dropped_frames: 0,
    };
    record_capture(store.company(&company_id), Some(DeviceType::PodologyIoT), Arc::new(capture)).await.unwrap();
    // Months later the patient weighs more and has grown.
    let today = PatientFields { weight: 80.0, height: 171.0, ..on_the_day.clone() };
    company.patients().update(&patient_id, &today).await.unwrap();

    let id = company.analyses().page(&AnalysisFilter::default(), 0, 10).await.unwrap()[0].id.clone();
    let source = report_source(store.company(&company_id), &Catalog::default(), &id).await.unwrap();
    let patient = source.patient.clone().unwrap();
    assert_eq!((patient.name.as_str(), patient.height_cm, patient.weight_kg), ("María García Pérez", Some(168.0), Some(64.5)));
    assert_eq!(source.branding.company_name, "Clínica Norte");
    let Some(AnalysisResult::Static(result)) = &source.result else { panic!("the stored static result") };
    assert!(result.left_global_surface > 0.0 && result.right_global_surface > 0.0);

    let madrid = ReportClock { utc_offset_minutes: Some(60), time_zone: Some("Europe/Madrid".into()) };
    let name = reports::pdf_file_name(
        PdfKind::Analysis,
        Some(&patient.name),
        source.kind,
        source.device_type,
        source.record.creation_date,
        &madrid,
    );
    assert_eq!(name, "maria-garcia-perez_static_2025-11-26_1631.pdf");

    let input = AnalysisReportInput {
        analysis_type: source.kind,
        device_type: source.device_type,
        device_name: source.device_name.clone(),
        creation_date_s: source.record.creation_date,
        branding: source.branding.clone(),
        patient: source.patient.clone(),
        notes: String::new(),
        map: source.map.clone(),
        result: source.result.clone(),
    };
    let pdf = reports::analysis_pdf(&input, &LayoutOptions { clock: madrid, ..Default::default() }).unwrap();
    let document = lopdf::Document::load_mem(&pdf).unwrap();
    let text = document.extract_text(&[1]).unwrap();
    assert!(text.contains("64.5 kg") && text.contains("168 cm"), "{text}");
    assert!(!text.contains("80.0 kg") && !text.contains("171 cm"), "{text}");
    assert!(text.contains("2025-11-26 16:31 (Europe/Madrid)") && text.contains("Clínica Norte"), "{text}");
}

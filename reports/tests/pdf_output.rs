//! Parses the generated PDFs back with lopdf: page sizes, page count per widget list, text in
//! every language, the scale bar's length and the real-scale cell size.
#![allow(clippy::unwrap_used)]

use lopdf::content::Content;
use mat_core::analysis::{AnalysisKind, AnalysisParams, Capture, PressureFrame, analyse};
use mat_protocol::device_type::DeviceType;
use reports::i18n::{Text, text};
use reports::{
    AnalysisReportInput, Language, LayoutOptions, Palette, PaperSize, PatientSummary, RealScaleInput, ReportBranding, ReportClock,
    ReportError, ReportMap, Widget, analysis_pdf, real_scale_pdf,
};

/// Two rectangular feet on a 48×48 plate: columns 14..=19 and 28..=33, rows 10..=33.
fn feet_map() -> ReportMap {
    let mut cells = vec![0u16; 48 * 48];
    for r in 10..=33 {
        for c in (14..=19).chain(28..=33) {
            cells[r * 48 + c] = if r > 26 { 180 } else { 90 };
        }
    }
    ReportMap { rows: 48, cols: 48, cells }
}

fn report_input(notes: &str) -> AnalysisReportInput {
    let map = feet_map();
    let mut capture = Capture::new(DeviceType::PodologyIoT, 48, 48);
    capture.push(0, PressureFrame::new(48, 48, map.cells.clone()).unwrap()).unwrap();
    let result = analyse(AnalysisKind::Static, &capture, &AnalysisParams::default()).unwrap();
    AnalysisReportInput {
        analysis_type: AnalysisKind::Static,
        device_type: DeviceType::PodologyIoT,
        device_name: "Plate 1".to_owned(),
        creation_date_s: 1_700_000_000,
        branding: ReportBranding { company_name: "Clínica Norte".to_owned(), ..Default::default() },
        patient: Some(PatientSummary { name: "Ana Pérez".to_owned(), height_cm: Some(170.0), weight_kg: Some(65.0) }),
        notes: notes.to_owned(),
        map,
        result: Some(result),
    }
}

fn page_sizes(doc: &lopdf::Document) -> Vec<(f32, f32)> {
    doc.get_pages()
        .values()
        .map(|&id| {
            let page = doc.get_object(id).unwrap().as_dict().unwrap();
            let b = page.get(b"MediaBox").unwrap().as_array().unwrap();
            (b[2].as_float().unwrap() - b[0].as_float().unwrap(), b[3].as_float().unwrap() - b[1].as_float().unwrap())
        })
        .collect()
}

fn all_text(doc: &lopdf::Document) -> String {
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).unwrap()
}

/// Every `re` between `BMC /tag` and its `EMC` on page `page`, in page points: the operands
/// mapped through the scale-and-translate `cm` in force (`q`/`Q` nest), as `[x, y, width, height]`.
fn marked_rectangles(doc: &lopdf::Document, page: u32, tag: &[u8]) -> Vec<[f32; 4]> {
    let id = doc.get_pages()[&page];
    let content = Content::decode(&doc.get_page_content(id).unwrap()).unwrap();
    let mut inside = false;
    let mut rects = Vec::new();
    // (scale x, scale y, translate x, translate y); the maps use no rotation or skew.
    let identity = [1.0f32, 1.0, 0.0, 0.0];
    let mut matrix = identity;
    let mut saved = Vec::new();
    for op in content.operations {
        let numbers = || op.operands.iter().map(|o| o.as_float().unwrap()).collect::<Vec<f32>>();
        match op.operator.as_str() {
            "BMC" => inside = op.operands[0].as_name().unwrap() == tag,
            "EMC" => inside = false,
            "q" => saved.push(matrix),
            "Q" => matrix = saved.pop().expect("Q without q"),
            "cm" => {
                let m = numbers();
                assert!(m[1] == 0.0 && m[2] == 0.0, "a map drawn rotated or skewed: {m:?}");
                let [sx, sy, tx, ty] = matrix;
                matrix = [sx * m[0], sy * m[3], tx + sx * m[4], ty + sy * m[5]];
            }
            "re" if inside => {
                let v = numbers();
                let [sx, sy, tx, ty] = matrix;
                rects.push([tx + sx * v[0], ty + sy * v[1], sx * v[2], sy * v[3]]);
            }
            _ => {}
        }
    }
    rects
}

/// Operands of the first `re` after the `EMC` that closes `BMC /tag` on page `page` (drawn in
/// page space).
fn first_rectangle_after(doc: &lopdf::Document, page: u32, tag: &[u8]) -> [f32; 4] {
    let id = doc.get_pages()[&page];
    let content = Content::decode(&doc.get_page_content(id).unwrap()).unwrap();
    let (mut inside, mut closed) = (false, false);
    for op in content.operations {
        match op.operator.as_str() {
            "BMC" => inside = op.operands[0].as_name().unwrap() == tag,
            "EMC" if inside => (inside, closed) = (false, true),
            "re" if closed => {
                let v: Vec<f32> = op.operands.iter().map(|o| o.as_float().unwrap()).collect();
                return [v[0], v[1], v[2], v[3]];
            }
            _ => {}
        }
    }
    panic!("no rectangle after the {} section", String::from_utf8_lossy(tag))
}

#[test]
fn a_summary_page_first_and_further_pages_only_when_asked_and_needed() {
    let options =
        LayoutOptions { widgets: vec![Widget::PressureMap, Widget::Results, Widget::Histogram, Widget::Notes], ..Default::default() };
    // Summary, the feet's further figures, the histogram: the notes fit on the summary.
    let with_notes = lopdf::Document::load_mem(&analysis_pdf(&report_input("Pain in the left heel."), &options).unwrap()).unwrap();
    let sizes = page_sizes(&with_notes);
    assert_eq!(sizes.len(), 3, "summary + figures + histogram");
    for (w, h) in sizes {
        assert!((w - 595.28).abs() < 0.01 && (h - 841.89).abs() < 0.01, "{w}×{h}");
    }
    assert!(doc_text(&with_notes, 1).contains("Pain in the left heel."), "the notes are on the summary");
    // The longest notes (1,100 characters) still fit on the summary.
    let long = "Tender heel. ".repeat(84);
    let doc = lopdf::Document::load_mem(&analysis_pdf(&report_input(&long), &options).unwrap()).unwrap();
    assert_eq!(page_sizes(&doc).len(), 3);
    // Notes of many short lines go on as many further pages as they need, none lost.
    let lines: String = (1..=120).map(|i| format!("line {i}\n")).collect();
    let doc = lopdf::Document::load_mem(&analysis_pdf(&report_input(&lines), &options).unwrap()).unwrap();
    let pages = page_sizes(&doc).len();
    assert!(pages >= 5, "{pages} pages");
    let all = all_text(&doc);
    assert!(all.contains("line 1\n") || all.contains("line 1 ") || all.contains("line 1"), "first line");
    assert!(all.contains("line 120"), "the last line is printed");
    let empty = lopdf::Document::load_mem(&analysis_pdf(&report_input(""), &LayoutOptions::default()).unwrap()).unwrap();
    assert_eq!(page_sizes(&empty).len(), 1, "the summary page is always there, alone when nothing more is asked");
}

fn doc_text(doc: &lopdf::Document, page: u32) -> String {
    doc.extract_text(&[page]).unwrap()
}

#[test]
fn text_is_in_the_requested_language_for_all_eight() {
    for lang in Language::ALL {
        let options = LayoutOptions { widgets: vec![Widget::Results, Widget::Notes], language: lang, ..Default::default() };
        let pdf = analysis_pdf(&report_input("メモ: 踵の痛み. Заметка. Σημείωση."), &options).unwrap();
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let extracted = all_text(&doc);
        for phrase in [Text::ReportTitle, Text::Static, Text::Results, Text::LeftFoot, Text::Notes] {
            assert!(extracted.contains(text(lang, phrase)), "{lang:?}: {:?} missing from {extracted:?}", text(lang, phrase));
        }
        if lang != Language::En {
            assert!(!extracted.contains("Analysis report"), "{lang:?} report still in English");
        }
        // Notes in three scripts survive whatever the interface language.
        assert!(extracted.contains("踵の痛み") && extracted.contains("Заметка") && extracted.contains("Σημείωση"));
        assert!(extracted.contains("Ana Pérez"));
    }
}

#[test]
fn pressure_maps_are_coloured_cells_in_the_palette() {
    let options = LayoutOptions { widgets: vec![Widget::PressureMap], palette: Palette::by_id("greys").unwrap(), ..Default::default() };
    let doc = lopdf::Document::load_mem(&analysis_pdf(&report_input(""), &options).unwrap()).unwrap();
    // 2 feet × 6 columns × 24 rows = 288 non-zero cells, each one square.
    let cells = marked_rectangles(&doc, 1, b"PressureMap");
    assert_eq!(cells.len(), 288);
    assert!(cells.iter().all(|r| (r[2] - r[3]).abs() < 1e-3 && r[2] > 5.0));
    // Each square sits where its cell is: read back from the left-most column (14) and the top
    // row (10), the squares are exactly the feet's cells, none doubled.
    let size = cells[0][2];
    let left = cells.iter().map(|r| r[0]).fold(f32::INFINITY, f32::min);
    let top = cells.iter().map(|r| r[1] + r[3]).fold(f32::NEG_INFINITY, f32::max);
    let drawn: std::collections::BTreeSet<(usize, usize)> = cells
        .iter()
        .map(|r| (10 + ((top - (r[1] + r[3])) / size).round() as usize, 14 + ((r[0] - left) / size).round() as usize))
        .collect();
    let map = feet_map();
    let loaded: std::collections::BTreeSet<(usize, usize)> =
        (0..48).flat_map(|r| (0..48).map(move |c| (r, c))).filter(|&(r, c)| map.cells[r * 48 + c] != 0).collect();
    assert_eq!(drawn, loaded);
    // And the map's outline (the first rectangle after the section) frames all 48 × 48 cells:
    // the top-left square of the feet is 14 cells right of and 10 below its top-left corner.
    let outline = first_rectangle_after(&doc, 1, b"PressureMap");
    assert!((outline[2] - 48.0 * size).abs() < 0.01 && (outline[3] - 48.0 * size).abs() < 0.01, "{outline:?}");
    assert!((left - (outline[0] + 14.0 * size)).abs() < 0.01, "left {left} in {outline:?}");
    assert!((top - (outline[1] + outline[3] - 10.0 * size)).abs() < 0.01, "top {top} in {outline:?}");
    // The greys palette paints the top of the scale (180) black: find a "0 0 0 rg" inside the map.
    let id = doc.get_pages()[&1];
    let ops = Content::decode(&doc.get_page_content(id).unwrap()).unwrap().operations;
    assert!(ops.iter().any(|op| op.operator == "rg" && op.operands.iter().all(|o| o.as_float().unwrap() == 0.0)));
}

fn real_scale_input(device_type: DeviceType, map: ReportMap, language: Language) -> RealScaleInput {
    RealScaleInput {
        device_type,
        device_name: "Plate 1".to_owned(),
        creation_date_s: 1_700_000_000,
        patient_name: Some("Ana Pérez".to_owned()),
        company_name: "Clínica Norte".to_owned(),
        map,
        language,
        palette: Palette::by_id("jet").unwrap(),
        clock: ReportClock::utc(),
    }
}

/// Two adult feet on a 48 × 48 plate at 2 cm: 12 rows (24 cm) by 5 columns (10 cm), columns
/// 14..=18 and 26..=30, rows 18..=29; sensor noise of 0–1 step (1 kPa, under the two-step
/// active floor) elsewhere.
fn adult_feet() -> ReportMap {
    let mut cells: Vec<u16> = (0..48 * 48).map(|i| (i % 2) as u16).collect();
    for r in 18..=29 {
        for c in (14..=18).chain(26..=30) {
            cells[r * 48 + c] = if r > 25 { 160 } else { 70 };
        }
    }
    ReportMap { rows: 48, cols: 48, cells }
}

#[test]
fn real_scale_pages_are_a3_or_a4_with_a_10_cm_scale_bar_and_every_foot_cell() {
    // A3 holds one foot (14 rows with margins, 28 cm) but not both side by side (19 columns,
    // 38 cm): a page per foot. A4 (11 rows) holds half a foot: two pages per foot.
    for (paper, (w, h), pages) in [(PaperSize::A3, (841.89, 1190.55), 2), (PaperSize::A4, (595.28, 841.89), 4)] {
        let pdf = real_scale_pdf(&real_scale_input(DeviceType::PodologyIoT, adult_feet(), Language::Fr), paper).unwrap();
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let sizes = page_sizes(&doc);
        assert_eq!(sizes.len(), pages, "{paper:?}");
        let mut printed = 0;
        for (page, size) in (1..).zip(&sizes) {
            assert!((size.0 - w).abs() < 0.01 && (size.1 - h).abs() < 0.01, "{paper:?}: {size:?}");
            // 10 cm = 100 mm / 25.4 mm per inch × 72 pt per inch = 283.46 pt.
            let bar = marked_rectangles(&doc, page, b"ScaleBar");
            assert_eq!(bar.len(), 1);
            assert!((bar[0][2] - 283.46).abs() < 0.01, "scale bar {} pt", bar[0][2]);
            let cells = marked_rectangles(&doc, page, b"PressureMap");
            assert!(!cells.is_empty(), "{paper:?} page {page} shows no footprint");
            printed += cells.len();
        }
        // Every loaded cell is printed once, and no noise cell.
        assert_eq!(printed, 2 * 12 * 5, "{paper:?}");
        let text = all_text(&doc);
        assert!(text.contains(text_of(Language::Fr, Text::RealScaleTitle)));
        assert!(text.contains(text_of(Language::Fr, Text::LeftFoot)) && text.contains(text_of(Language::Fr, Text::RightFoot)));
    }
}

fn text_of(lang: Language, t: Text) -> &'static str {
    text(lang, t)
}

#[test]
fn real_scale_cells_measure_the_device_pitch() {
    // Podology cells are 2 cm = 56.69 pt.
    let doc = lopdf::Document::load_mem(
        &real_scale_pdf(&real_scale_input(DeviceType::PodologyIoT, adult_feet(), Language::En), PaperSize::A4).unwrap(),
    )
    .unwrap();
    let cells = marked_rectangles(&doc, 1, b"PressureMap");
    assert!(!cells.is_empty());
    assert!(cells.iter().all(|r| (r[2] - 56.693).abs() < 0.01 && (r[3] - 56.693).abs() < 0.01));
    assert!(all_text(&doc).contains(text(Language::En, Text::Clipped)), "the parts say they are parts");
    // A seat loaded on rows and columns 4..=11 of a 16×16 map: 8 + 2 margin cells at 2 cm = 20 cm
    // fit on A3; 64 loaded cells of 56.69 pt on one page, no note about parts.
    let mut seat_cells = vec![0u16; 256];
    for r in 4..=11 {
        for c in 4..=11 {
            seat_cells[r * 16 + c] = 60;
        }
    }
    let seat = ReportMap { rows: 16, cols: 16, cells: seat_cells };
    let doc = lopdf::Document::load_mem(
        &real_scale_pdf(&real_scale_input(DeviceType::SeatingMatIoT, seat, Language::Ja), PaperSize::A3).unwrap(),
    )
    .unwrap();
    assert_eq!(page_sizes(&doc).len(), 1);
    let cells = marked_rectangles(&doc, 1, b"PressureMap");
    assert_eq!(cells.len(), 64);
    assert!(cells.iter().all(|r| (r[2] - 56.693).abs() < 0.01));
    let extracted = all_text(&doc);
    assert!(!extracted.contains(text(Language::Ja, Text::Clipped)));
    assert!(extracted.contains(text(Language::Ja, Text::RealScaleTitle)));
}

#[test]
fn a_map_of_the_wrong_shape_is_refused() {
    let mut input = report_input("");
    input.map.cells.pop();
    assert_eq!(
        analysis_pdf(&input, &LayoutOptions::default()).unwrap_err(),
        ReportError::ShapeMismatch { rows: 48, cols: 48, cells: 2303 }
    );
    let empty = RealScaleInput {
        map: ReportMap { rows: 0, cols: 48, cells: vec![] },
        ..real_scale_input(DeviceType::PodologyIoT, feet_map(), Language::En)
    };
    assert_eq!(real_scale_pdf(&empty, PaperSize::A4).unwrap_err(), ReportError::EmptyMap);
}

/// Every path (`m` then `l`s) drawn between `BMC /tag` and its `EMC` on page `page`, in page
/// points (the charts draw in page space).
fn marked_paths(doc: &lopdf::Document, page: u32, tag: &[u8]) -> Vec<Vec<[f32; 2]>> {
    let id = doc.get_pages()[&page];
    let content = Content::decode(&doc.get_page_content(id).unwrap()).unwrap();
    let mut inside = false;
    let mut paths: Vec<Vec<[f32; 2]>> = Vec::new();
    for op in content.operations {
        let point = || {
            let v: Vec<f32> = op.operands.iter().map(|o| o.as_float().unwrap()).collect();
            [v[0], v[1]]
        };
        match op.operator.as_str() {
            "BMC" => inside = op.operands[0].as_name().unwrap() == tag,
            "EMC" => inside = false,
            "m" if inside => paths.push(vec![point()]),
            "l" if inside => paths.last_mut().unwrap().push(point()),
            _ => {}
        }
    }
    paths
}

/// A seat loaded for 2 s, then left for 2 s: 40 frames at 10 Hz, a square of 100 steps in the
/// first half and nothing in the second.
fn seat_left_half_way() -> AnalysisReportInput {
    let mut capture = Capture::new(DeviceType::SeatingMatIoT, 16, 16);
    let mut seated = vec![0u16; 256];
    for r in 4..12 {
        for c in 3..13 {
            seated[r * 16 + c] = 100;
        }
    }
    for i in 0..40u64 {
        let cells = if i < 20 { seated.clone() } else { vec![0; 256] };
        capture.push(i * 100, PressureFrame::new(16, 16, cells).unwrap()).unwrap();
    }
    let result = analyse(AnalysisKind::SeatingDynamic, &capture, &AnalysisParams::default()).unwrap();
    AnalysisReportInput {
        analysis_type: AnalysisKind::SeatingDynamic,
        device_type: DeviceType::SeatingMatIoT,
        device_name: "Chair 2".to_owned(),
        map: ReportMap { rows: 16, cols: 16, cells: capture.mean_map().cells().to_vec() },
        result: Some(result),
        ..report_input("")
    }
}

#[test]
fn a_dynamic_seat_s_course_is_charted_over_its_seconds() {
    let input = seat_left_half_way();
    let options = |widgets: Vec<Widget>| LayoutOptions { widgets, ..Default::default() };
    let pdf = analysis_pdf(&input, &options(vec![Widget::PressureMap, Widget::Results])).unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    // Leaving the seat for 2 s is a push-up: its figures' page, then the course.
    assert_eq!(doc.get_pages().len(), 3, "the summary, the push-up, then the course");
    let page = doc_text(&doc, 3);
    for phrase in [
        "Over the capture",
        "Pressure (mmHg)",
        "Maximum pressure",
        "Mean pressure",
        "Contact area (cm²)",
        "Laterality (%)",
        "Left",
        "Right",
        "Centre of pressure",
    ] {
        assert!(page.contains(phrase), "{phrase:?} missing from\n{page}");
    }
    // One point a frame, spread over the plot's width; the seat's load, then nothing.
    let pressures = marked_paths(&doc, 3, b"PressureOverTime");
    assert_eq!(pressures.len(), 2, "the maximum and the mean");
    let maximum = &pressures[0];
    assert_eq!(maximum.len(), 40);
    assert!(maximum.windows(2).all(|w| w[1][0] > w[0][0]), "left to right in time");
    let (loaded, left) = (maximum[10][1], maximum[30][1]);
    assert!(loaded > left + 50.0, "the pressure falls when the seat is left: {loaded} then {left}");
    let floor = pressures[1][30][1];
    assert_eq!(left, floor, "nothing on the seat is 0 for both lines");
    let areas = marked_paths(&doc, 3, b"ContactAreaOverTime");
    assert_eq!(areas.len(), 1);
    assert!(areas[0][10][1] > areas[0][30][1] + 30.0, "the contact area falls too: {:?}", areas[0]);
    let sides = marked_paths(&doc, 3, b"LateralityOverTime");
    assert_eq!(sides.len(), 2);
    assert_eq!(sides[0][10][1], sides[1][10][1], "a square in the middle: as much left as right");

    // Without the results asked for, or for a static analysis, no such page.
    let pdf = analysis_pdf(&input, &options(vec![Widget::PressureMap, Widget::Histogram])).unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    assert_eq!(doc.get_pages().len(), 2, "the summary and the histogram");
    assert!((1..=2).all(|p| marked_paths(&doc, p, b"PressureOverTime").is_empty()));
    let pdf = analysis_pdf(&report_input(""), &options(vec![Widget::PressureMap, Widget::Results])).unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    assert!((1..=doc.get_pages().len() as u32).all(|p| marked_paths(&doc, p, b"PressureOverTime").is_empty()));
}

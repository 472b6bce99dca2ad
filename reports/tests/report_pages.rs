//! The reports read back as a reader sees them: the text through poppler's `pdftotext` (units,
//! the patient, each kind's own figures) and the pages rendered through `pdftoppm` (the summary
//! page's map is the body on one background colour, no sensor noise; the real-scale print shows
//! the footprint). poppler-utils come from Debian (`apt-get install poppler-utils`).
//!
//! With `REPORT_ARTIFACTS=DIR` the PDFs and page images are also left in DIR to look at.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use mat_core::analysis::units::active_floor;
use mat_core::analysis::{AnalysisKind, AnalysisParams, Capture, PressureFrame, analyse};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use reports::analysis_report::summary_map_box;
use reports::{
    AnalysisReportInput, FramesDrawn, Language, LayoutOptions, Palette, PaperSize, PatientSummary, RealScaleInput, ReportBranding,
    ReportClock, ReportMap, Widget, analysis_pdf, real_scale_pdf,
};
use simulator::{MapSynth, Scenario};

/// `seconds` of `scenario` from `start_s` at `hz`, with the simulator's sensor noise.
fn simulated(device: DeviceType, scenario: &str, start_s: f64, seconds: f64, hz: f64) -> Capture {
    simulated_idling(device, scenario, start_s, seconds, hz, 0.0)
}

/// As [`simulated`], on a sensor idling `idle_steps` above zero (another make's: a kilopascal
/// plate's own simulated sensor reads zero unloaded).
fn simulated_idling(device: DeviceType, scenario: &str, start_s: f64, seconds: f64, hz: f64, idle_steps: f32) -> Capture {
    let (rows, cols, _) = device.frame_shape().unwrap();
    let mut synth = MapSynth::new(rows, cols, CellFormat::U8, Scenario::from_name(scenario).unwrap(), 7)
        .for_device_type(device)
        .with_idle_level(idle_steps, 7);
    let mut capture = Capture::new(device, rows, cols);
    for i in 0..(seconds * hz) as u64 {
        let t = start_s + i as f64 / hz;
        let cells = synth.render(Duration::from_secs_f64(t));
        let map = PressureMap::new(rows, cols, CellFormat::U8, &cells).unwrap();
        capture.push_map((t * 1000.0).round() as u64, &map).unwrap();
    }
    capture
}

/// Frame `index` of a real in-bed recording (PhysioNet PMD, ../shared/data/pmd-dev): raw 0–1000
/// is 0–100 mmHg, so raw / 4 is the bed mat's 0.4 mmHg step.
fn real_bed_frame(subject: u32, recording: u32, index: usize) -> PressureFrame {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../shared/data/pmd-dev/S{subject}/{recording}.u16"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let frame = &bytes[index * 4096..(index + 1) * 4096];
    let cells = frame.chunks(2).map(|b| u16::from_le_bytes([b[0], b[1]]) / 4).collect();
    PressureFrame::new(64, 32, cells).unwrap()
}

fn as_map(frame: &PressureFrame) -> ReportMap {
    ReportMap { rows: frame.rows(), cols: frame.cols(), cells: frame.cells().to_vec() }
}

const PARAMS: AnalysisParams = AnalysisParams { weight_kg: Some(71.5), height_cm: Some(168.0) };

/// A report of `kind` over `capture` as the hub draws it (`report_map`): a static report its
/// last map, a walk each cell's highest value, anything else the frames' mean.
fn report(kind: AnalysisKind, capture: &Capture, notes: &str) -> AnalysisReportInput {
    let result = analyse(kind, capture, &PARAMS).unwrap();
    let map = match (kind, FramesDrawn::of(kind)) {
        (AnalysisKind::Static, _) => capture.frames().last().unwrap().frame.clone(),
        (_, FramesDrawn::Peak) => peak_map(capture),
        (_, FramesDrawn::Mean) => capture.mean_map(),
    };
    AnalysisReportInput {
        analysis_type: kind,
        device_type: capture_device(capture),
        device_name: "Unit 3".to_owned(),
        creation_date_s: 1_764_171_060, // 2025-11-26T15:31:00Z
        branding: ReportBranding { company_name: "Clínica San Rafael".to_owned(), ..Default::default() },
        patient: Some(PatientSummary { name: "María García Pérez".to_owned(), height_cm: Some(168.0), weight_kg: Some(71.5) }),
        notes: notes.to_owned(),
        map: as_map(&map),
        result: Some(result),
    }
}

/// Each cell's highest value over the capture.
fn peak_map(capture: &Capture) -> PressureFrame {
    let first = &capture.frames()[0].frame;
    let mut cells = vec![0u16; first.cells().len()];
    for captured in capture.frames() {
        for (peak, &cell) in cells.iter_mut().zip(captured.frame.cells()) {
            *peak = (*peak).max(cell);
        }
    }
    PressureFrame::new(first.rows(), first.cols(), cells).unwrap()
}

fn capture_device(capture: &Capture) -> DeviceType {
    capture.device_type()
}

fn single(device: DeviceType, frame: PressureFrame) -> Capture {
    let mut capture = Capture::new(device, frame.rows(), frame.cols());
    capture.push(0, frame).unwrap();
    capture
}

fn options(lang: Language) -> LayoutOptions {
    LayoutOptions {
        widgets: vec![Widget::PressureMap, Widget::Results, Widget::Histogram, Widget::Notes],
        language: lang,
        clock: ReportClock { utc_offset_minutes: Some(60), time_zone: Some("Europe/Madrid".to_owned()) },
        ..Default::default()
    }
}

fn out_dir() -> PathBuf {
    let dir = std::env::var_os("REPORT_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join(format!("report-pages-{}", std::process::id())));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(name: &str, pdf: &[u8]) -> PathBuf {
    let path = out_dir().join(format!("{name}.pdf"));
    std::fs::write(&path, pdf).unwrap();
    path
}

fn pdftotext(pdf: &Path) -> String {
    let out = Command::new("pdftotext").args(["-layout"]).arg(pdf).arg("-").output().expect("pdftotext (poppler-utils) is installed");
    assert!(out.status.success(), "pdftotext failed on {}", pdf.display());
    String::from_utf8(out.stdout).unwrap()
}

/// An RGB page image.
struct Image {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Image {
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// Page `page` rendered at `dpi` (and a PNG of it beside the PDF, to look at).
fn pdftoppm(pdf: &Path, page: u32, dpi: u32) -> Image {
    let prefix = pdf.with_extension("").to_string_lossy().into_owned() + &format!("-p{page}");
    let run = |format: &str| {
        let status = Command::new("pdftoppm")
            .args([format, "-r", &dpi.to_string(), "-f", &page.to_string(), "-l", &page.to_string(), "-singlefile"])
            .arg(pdf)
            .arg(&prefix)
            .status()
            .expect("pdftoppm (poppler-utils) is installed");
        assert!(status.success());
    };
    run("-png");
    // Plain PPM (P6) to read back here.
    let status = Command::new("pdftoppm")
        .args(["-r", &dpi.to_string(), "-f", &page.to_string(), "-l", &page.to_string(), "-singlefile"])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(format!("{prefix}.ppm")).unwrap();
    // "P6\n<w> <h>\n255\n" then the samples.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P6");
    let (width, height) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    Image { width, height, rgb: bytes[at + 1..].to_vec() }
}

fn is_white(p: [u8; 3]) -> bool {
    p == [255, 255, 255]
}

/// The summary page's map read back from its image, one sample at each cell's centre: which
/// cells are painted (`None` where a centre-of-pressure marker, black, covers the sample).
fn painted_cells(image: &Image, map: &ReportMap, dpi: f32) -> Vec<Option<bool>> {
    let [x, y, w, h] = summary_map_box(map.rows, map.cols);
    let px = |pt: f32| pt * dpi / 72.0;
    let page_h = 841.89;
    let cell_w = w / f32::from(map.cols);
    let cell_h = h / f32::from(map.rows);
    let mut painted = Vec::with_capacity(map.cells.len());
    for r in 0..map.rows as usize {
        for c in 0..map.cols as usize {
            let cx = px(x + (c as f32 + 0.5) * cell_w) as usize;
            let cy = px(page_h - (y + h - (r as f32 + 0.5) * cell_h)) as usize;
            let p = image.at(cx.min(image.width - 1), cy.min(image.height - 1));
            painted.push((p != [0, 0, 0]).then_some(!is_white(p)));
        }
    }
    painted
}

/// Checks the summary's map: the painted cells are exactly those at or above the noise floor,
/// everything else is the one white background, and the body is a body, not scattered dots.
fn assert_clean_map(name: &str, input: &AnalysisReportInput) {
    let pdf = write(name, &analysis_pdf(input, &options(Language::En)).unwrap());
    let dpi = 150.0;
    let image = pdftoppm(&pdf, 1, dpi as u32);
    let map = &input.map;
    let painted = painted_cells(&image, map, dpi);
    let floor = active_floor(input.device_type);
    let noise = map.cells.iter().filter(|&&v| v > 0 && v < floor).count();
    let body = map.cells.iter().filter(|&&v| v >= floor).count();
    assert!(noise > 0, "{name}: the fixture has sensor noise to hide");
    assert!(body > 20, "{name}: the fixture has a body");
    for (i, (&v, &p)) in map.cells.iter().zip(&painted).enumerate() {
        let Some(p) = p else { continue };
        assert_eq!(p, v >= floor, "{name}: cell {i} of value {v} (floor {floor}) painted {p}");
    }
    assert!(painted.iter().filter(|p| p.is_none()).count() <= 12, "{name}: the markers cover a few cells at most");
    let painted: Vec<bool> = painted.into_iter().map(|p| p.unwrap_or(false)).collect();
    // Painted cells with no painted neighbour: specks. A body has almost none.
    let (rows, cols) = (map.rows as usize, map.cols as usize);
    let lone = (0..rows * cols)
        .filter(|&i| painted[i])
        .filter(|&i| {
            let (r, c) = (i / cols, i % cols);
            let n = |rr: usize, cc: usize| rr < rows && cc < cols && painted[rr * cols + cc];
            !(n(r.wrapping_sub(1), c) || n(r + 1, c) || n(r, c.wrapping_sub(1)) || n(r, c + 1))
        })
        .count();
    assert!(lone * 50 <= body, "{name}: {lone} lone cells of {body}");
    // The background is one colour: every unpainted cell centre is the same white.
    let [x, y, w, h] = summary_map_box(map.rows, map.cols);
    let px = |pt: f32| (pt * dpi / 72.0) as usize;
    let (x0, x1, y0, y1) = (px(x) + 3, px(x + w) - 3, px(841.89 - y - h) + 3, px(841.89 - y) - 3);
    let mut colours = std::collections::BTreeSet::new();
    let mut white = 0usize;
    for yy in y0..y1 {
        for xx in x0..x1 {
            let p = image.at(xx, yy);
            let grey = p[0] == p[1] && p[1] == p[2];
            if grey {
                colours.insert(p[0]);
                white += usize::from(is_white(p));
            }
        }
    }
    let area = (x1 - x0) * (y1 - y0);
    // An adult sitter covers most of a 32 cm seat: a fifth of it is background.
    assert!(white * 100 >= area * 15, "{name}: background {white} of {area} px");
    // Greys other than white are only markers and lines over the map (black, thin): few.
    let other_grey = (y0..y1).flat_map(|yy| (x0..x1).map(move |xx| (xx, yy))).filter(|&(xx, yy)| {
        let p = image.at(xx, yy);
        p[0] == p[1] && p[1] == p[2] && p[0] != 255
    });
    assert!(other_grey.count() * 50 < area, "{name}: grey speckle in the map area");
}

#[test]
fn the_summary_map_is_the_body_on_one_background_without_sensor_noise() {
    // Simulated standing feet with the simulator's noise, and a real bed recording.
    let feet = simulated_idling(DeviceType::PodologyIoT, "feet", 20.0, 1.0, 1.0, 1.0);
    assert_clean_map("static-feet-map", &report(AnalysisKind::Static, &feet, ""));
    let bed = single(DeviceType::MattressMatIoT, real_bed_frame(1, 1, 10));
    assert_clean_map("static-bed-map", &report(AnalysisKind::Static, &bed, ""));
    let seat = simulated(DeviceType::SeatingMatIoT, "seated", 30.0, 1.0, 1.0);
    assert_clean_map("static-seat-map", &report(AnalysisKind::Static, &seat, ""));
}

/// The report's text as pdftotext reads it, with the kind's figures checked.
fn text_of(name: &str, input: &AnalysisReportInput, lang: Language) -> String {
    let bytes = analysis_pdf(input, &options(lang)).unwrap();
    let pages = lopdf::Document::load_mem(&bytes).unwrap().get_pages().len() as u32;
    let pdf = write(name, &bytes);
    for page in 1..=pages {
        pdftoppm(&pdf, page, 60);
    }
    let text = pdftotext(&pdf);
    assert!(text.contains("María García Pérez"), "{name}: no patient in {text}");
    assert!(text.contains("Clínica San Rafael"), "{name}: no company in {text}");
    assert!(text.contains("2025-11-26 16:31 (Europe/Madrid)"), "{name}: no local time in {text}");
    assert!(text.contains("Unit 3"), "{name}: no device in {text}");
    assert!(text.contains("168 cm") && text.contains("71.5 kg") || text.contains("71,5 kg"), "{name}: no height and weight in {text}");
    text
}

#[test]
fn each_kind_prints_its_own_figures_with_units() {
    let feet = simulated(DeviceType::PodologyIoT, "feet", 20.0, 5.0, 10.0);
    let t = text_of("static-feet", &report(AnalysisKind::Static, &feet, "Pain in the left heel."), Language::En);
    for phrase in
        ["Left foot — Load distribution", "Right foot — Surface", "cm²", "mmHg", "Mean pressure", "Pain in the left heel.", "histogram"]
    {
        assert!(t.contains(phrase), "static feet: {phrase:?} missing from\n{t}");
    }

    let t = text_of("balance", &report(AnalysisKind::Balance, &feet, ""), Language::En);
    for phrase in ["Sway path", "cm/s", "cm²", "Mean velocity", "Left–right (cm)", "Front–back (cm)"] {
        assert!(t.contains(phrase), "balance: {phrase:?} missing from\n{t}");
    }
    assert!(!t.contains("Analysis: Balance"));
    assert!(!t.contains("during the walk"), "a balance test's map is its mean:\n{t}");

    let t = text_of("dynamic-standing", &report(AnalysisKind::Dynamic, &feet, ""), Language::En);
    for phrase in ["Left foot — Steps", "Right foot — Rockers", "Maximum pressure", "mmHg", "Duration"] {
        assert!(t.contains(phrase), "dynamic: {phrase:?} missing from\n{t}");
    }
    assert!(t.contains("(heel / ankle / forefoot)") && t.contains("Mean stance time"), "{t}");
    // A walk's map says what its colours are (each cell's highest pressure, the hub's `report_map`).
    assert!(t.contains("Highest pressure of each cell during the walk"), "dynamic map caption missing from\n{t}");

    // A walk lists its steps, each named in the singular, under a line that says its columns.
    let mut synth = MapSynth::new(48, 48, CellFormat::U8, Scenario::from_name("feet").unwrap(), 7).for_device_type(DeviceType::PodologyIoT);
    synth.begin_walk(Duration::ZERO, Duration::from_secs(10));
    let mut walk = Capture::new(DeviceType::PodologyIoT, 48, 48);
    for i in 0..500u64 {
        let t = Duration::from_millis(i * 20);
        let cells = synth.render(t);
        let map = PressureMap::new(48, 48, CellFormat::U8, &cells).unwrap();
        walk.push_map(i * 20, &map).unwrap();
    }
    let t = text_of("dynamic-walk", &report(AnalysisKind::Dynamic, &walk, ""), Language::En);
    for phrase in ["Contact → toe-off (stance) · Rockers (heel / ankle / forefoot), %", "Left foot — Step 1", "Right foot — Step 1"]
    {
        assert!(t.contains(phrase), "walk: {phrase:?} missing from\n{t}");
    }
    assert!(!t.contains("Steps 1"), "{t}");
    // Its heading fits between the margins in the longest language.
    let t = text_of("dynamic-walk-ru", &report(AnalysisKind::Dynamic, &walk, ""), Language::Ru);
    assert!(t.contains("Левая стопа — Шаг 1"), "{t}");

    let seat = simulated(DeviceType::SeatingMatIoT, "seated", 30.0, 30.0, 5.0);
    let t = text_of("seating-dynamic", &report(AnalysisKind::SeatingDynamic, &seat, ""), Language::Es);
    for phrase in ["Índice de presión máxima", "mmHg", "Índice de dispersión", " %", "Duración"] {
        assert!(t.contains(phrase), "seating: {phrase:?} missing from\n{t}");
    }
    // Its course over the capture, charted as the result's plot panels chart it.
    for phrase in ["A lo largo de la captura", "Presión (mmHg)", "Área de contacto (cm²)", "Lateralidad (%)", "Izquierda", "Derecha"] {
        assert!(t.contains(phrase), "seating: {phrase:?} missing from\n{t}");
    }
    // A bed's, from a real recording, in Japanese: every glyph of its page is in the fonts.
    let mut night = Capture::new(DeviceType::MattressMatIoT, 48, 48);
    for i in 0..40 {
        let cells = simulator::real::device_cells(
            &real_bed_frame(2, 1, 20 + i as usize).cells().iter().map(|c| c * 4).collect::<Vec<u16>>(),
            DeviceType::MattressMatIoT,
        )
        .unwrap();
        night.push(i * 100, PressureFrame::new(48, 48, cells.into_iter().map(u16::from).collect()).unwrap()).unwrap();
    }
    let t = text_of("bed-dynamic-ja", &report(AnalysisKind::SeatingDynamic, &night, ""), Language::Ja);
    for phrase in ["時間経過", "圧力 (mmHg)", "左右差 (%)", "接触面積 (cm²)", "頭–足 (cm)"] {
        assert!(t.contains(phrase), "bed: {phrase:?} missing from\n{t}");
    }
    let t = text_of(
        "static-seat",
        &report(AnalysisKind::Static, &single(DeviceType::SeatingMatIoT, seat.frames()[0].frame.clone()), ""),
        Language::En,
    );
    assert!(!t.contains("foot"), "a seat has no feet:\n{t}");
    for phrase in ["Maximum pressure", "Contact area", "mmHg", "cm²"] {
        assert!(t.contains(phrase), "seat: {phrase:?} missing from\n{t}");
    }

    let bed = single(DeviceType::MattressMatIoT, real_bed_frame(2, 1, 20));
    let t = text_of("static-bed", &report(AnalysisKind::Static, &bed, ""), Language::Fr);
    assert!(!t.contains("pied") && !t.contains("Pied"), "a bed has no feet:\n{t}");
    assert!(!t.contains("Taille 2 cm") && !t.contains("Height 2 cm"), "{t}");
    for phrase in ["Tête", "Épaules", "Sacrum et bassin", "Talons", "mmHg", "IMC", "kg/m²", "Surface de contact"] {
        assert!(t.contains(phrase), "bed: {phrase:?} missing from\n{t}");
    }
    // The histogram's bins by their upper limits, to the tenth of a mmHg as the result's page
    // lists them: eight "≤ x,y", the last the map's maximum.
    let limits: Vec<&str> = t.split("≤ ").skip(1).map(|rest| rest.split_whitespace().next().unwrap_or("")).collect();
    assert_eq!(limits.len(), 8, "eight bins:\n{t}");
    assert!(limits.iter().all(|l| l.split_once(',').is_some_and(|(_, tenths)| tenths.len() == 1)), "{limits:?}");

    let rehab_capture = simulated(DeviceType::RehabMat, "feet", 20.0, 5.0, 10.0);
    let t = text_of("rehab", &report(AnalysisKind::Rehab, &rehab_capture, ""), Language::En);
    for phrase in ["Distance to the centre", "Inside ring 11 (22 cm)", "Inside ring 25 (50 cm)"] {
        assert!(t.contains(phrase), "rehab: {phrase:?} missing from\n{t}");
    }
    assert!(t.contains("Good") || t.contains("Bad") || t.contains("Uncomplete"), "rehab grade missing:\n{t}");
}

#[test]
fn the_real_scale_print_shows_the_footprint() {
    let feet = simulated(DeviceType::PodologyIoT, "feet", 20.0, 1.0, 1.0);
    let map = as_map(&feet.frames()[0].frame);
    let floor = active_floor(DeviceType::PodologyIoT);
    let loaded = map.cells.iter().filter(|&&v| v >= floor).count();
    for paper in [PaperSize::A3, PaperSize::A4] {
        let input = RealScaleInput {
            device_type: DeviceType::PodologyIoT,
            device_name: "Plate".to_owned(),
            creation_date_s: 1_764_171_060,
            patient_name: Some("María García Pérez".to_owned()),
            company_name: "Clínica San Rafael".to_owned(),
            map: map.clone(),
            language: Language::En,
            palette: Palette::default(),
            clock: ReportClock::utc(),
        };
        let pdf = write(&format!("real-scale-{paper:?}"), &real_scale_pdf(&input, paper).unwrap());
        let pages = lopdf::Document::load_mem(&std::fs::read(&pdf).unwrap()).unwrap().get_pages().len() as u32;
        // 2 cm cells at 30 dpi are 23.6 px: count the painted (coloured) pixels of every page.
        let dpi = 30.0f32;
        let cell_px = (2.0 / 2.54 * dpi).powi(2);
        let mut coloured = 0usize;
        for page in 1..=pages {
            let image = pdftoppm(&pdf, page, dpi as u32);
            let here = (0..image.width * image.height)
                .filter(|&i| {
                    let p = image.at(i % image.width, i / image.width);
                    let (max, min) = (p.iter().max().unwrap(), p.iter().min().unwrap());
                    max - min > 40
                })
                .count();
            // Every page shows (part of) a footprint: on A4 an adult foot (≈ 45 cells at 2 cm) is
            // cut in two, so a page may hold a heel and midfoot alone (≈ 15–25 cells).
            assert!(here as f32 > 10.0 * cell_px, "{paper:?} page {page}: {here} coloured px, no footprint");
            coloured += here;
        }
        let expected = loaded as f32 * cell_px;
        assert!((coloured as f32 - expected).abs() < 0.25 * expected, "{paper:?}: {coloured} px for {loaded} cells ({expected} px)");
    }
}

//! The turn-compliance report read back as a reader sees it: the text through poppler's
//! `pdftotext` (branding, period, zone, every figure with its unit, in each of the eight
//! languages), the page through `pdftoppm` (the logo is drawn), rows continued on a second page.
//! With `REPORT_ARTIFACTS=DIR` the PDFs and page images are left in DIR to look at.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use mat_core::compliance::{ComplianceRow, unit_parts};
use reports::i18n::{Text, text, unit_label};
use reports::{ComplianceReportInput, Language, ReportBranding, compliance_file_name, compliance_pdf};

fn row(unit: &str, shift: u32, label: &str) -> ComplianceRow {
    let (building, floor) = unit_parts(unit);
    ComplianceRow {
        unit: unit.to_owned(),
        building: building.to_owned(),
        floor: floor.to_owned(),
        shift,
        shift_label: label.to_owned(),
        beds: 4,
        turns: 0,
        turns_on_time: 0,
        on_time_share: None,
        alarms: 0,
        alarms_attended: 0,
        attend_mean_seconds: None,
        attend_p90_seconds: None,
        bed_days: 28.0 / 3.0,
        alarms_per_bed_day: Some(0.0),
        patients: 0,
        minutes_over_per_patient: None,
    }
}

/// mat-core's hand-made early shift: 5 turns of 4 patients, 2 on time; alarms attended after 60,
/// 120 and 600 s and one waiting; 4 beds for one 8-hour shift.
fn early() -> ComplianceRow {
    ComplianceRow {
        turns: 5,
        turns_on_time: 2,
        on_time_share: Some(0.4),
        alarms: 4,
        alarms_attended: 3,
        attend_mean_seconds: Some(260.0),
        attend_p90_seconds: Some(600.0),
        bed_days: 4.0 / 3.0,
        alarms_per_bed_day: Some(3.0),
        patients: 4,
        minutes_over_per_patient: Some(10.0),
        ..row("North · 2", 0, "07:00–15:00")
    }
}

/// A 60 × 24 RGB PNG: a blue block on white (the CRCs are not checked by the reader).
fn logo_png() -> Vec<u8> {
    let (width, height) = (60u32, 24u32);
    let mut raw = Vec::new();
    for y in 0..height {
        raw.push(0);
        for x in 0..width {
            raw.extend_from_slice(if x < 40 && y > 4 && y < 20 { &[20, 60, 200] } else { &[255, 255, 255] });
        }
    }
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out.extend_from_slice(&[0; 4]);
        out
    };
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(b"IDAT", &miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6)));
    png.extend(chunk(b"IEND", &[]));
    png
}

fn input(language: Language, rows: Vec<ComplianceRow>) -> ComplianceReportInput {
    ComplianceReportInput {
        branding: ReportBranding { company_name: "Clínica San Rafael".to_owned(), logo: Some(logo_png()), ..Default::default() },
        from: "2026-11-01".to_owned(),
        to: "2026-11-07".to_owned(),
        time_zone: "Europe/Madrid".to_owned(),
        shifts: vec!["07:00–15:00".into(), "15:00–23:00".into(), "23:00–07:00".into()],
        rows,
        language,
    }
}

fn out_dir() -> PathBuf {
    let dir = std::env::var_os("REPORT_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join(format!("compliance-pdf-{}", std::process::id())));
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

/// Page 1 as PPM at 50 dpi: (width, height, RGB bytes); a PNG of it is left beside the PDF.
fn first_page(pdf: &Path) -> (usize, usize, Vec<u8>) {
    let prefix = pdf.with_extension("").to_string_lossy().into_owned() + "-p1";
    let png = Command::new("pdftoppm").args(["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile"]).arg(pdf).arg(&prefix).status();
    assert!(png.unwrap().success());
    let out = Command::new("pdftoppm").args(["-r", "50", "-f", "1", "-l", "1", "-singlefile"]).arg(pdf).output().unwrap();
    let data = out.stdout;
    // P6\n<w> <h>\n255\n
    let header: Vec<&[u8]> = data.splitn(4, |b| b.is_ascii_whitespace()).collect();
    let width: usize = std::str::from_utf8(header[1]).unwrap().parse().unwrap();
    let height: usize = std::str::from_utf8(header[2]).unwrap().parse().unwrap();
    let pixels = data[data.len() - width * height * 3..].to_vec();
    (width, height, pixels)
}

/// Whitespace runs of pdftotext's layout collapsed to one space.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_report_prints_branding_period_and_every_figure_with_its_unit() {
    let quick = ComplianceRow {
        alarms: 1,
        alarms_attended: 1,
        attend_mean_seconds: Some(5.2),
        attend_p90_seconds: Some(5.2),
        ..row("North · 2", 2, "23:00–07:00")
    };
    let rows = vec![early(), row("North · 2", 1, "15:00–23:00"), quick, row("", 0, "07:00–15:00")];
    let path = write("compliance-en", &compliance_pdf(&input(Language::En, rows)).unwrap());
    let text = squeezed(&pdftotext(&path));
    for expected in [
        "Clínica San Rafael",
        "Turn compliance",
        "Period: 2026-11-01 – 2026-11-07",
        "Time zone: Europe/Madrid",
        // Several shifts: the plural heading.
        "Shifts: 07:00–15:00 · 15:00–23:00 · 23:00–07:00",
        // Unit (labelled as the web page labels it, not the hub's key "North · 2"), shift, beds,
        // turns, on time, mean and p90 to attend (minutes and seconds as the page writes them,
        // not "4.3 min"), alarms, per bed-day, over.
        "North · floor 2 07:00–15:00 4 5 40 % (2/5) 4 min 20 s 10 min 4 3.00 10 min",
        // A shift without turns or alarms: no share, no time to attend, no minutes over.
        "North · floor 2 15:00–23:00 4 0 — — — 0 0.00 —",
        // Attended within a minute: in seconds, not "0.1 min" ("5 s" on the page; pdftotext reads
        // the single letter's short gap as none).
        "North · floor 2 23:00–07:00 4 0 — 5s 5s 1 0.00 —",
        "No unit",
        "Page 1 / 1",
        "is on time when it came before the repositioning interval elapsed",
    ] {
        assert!(text.contains(expected), "{expected:?} not in\n{text}");
    }
    // Landscape A4, and the logo drawn in the top-left corner: blue pixels there.
    let (width, height, pixels) = first_page(&path);
    assert!(width > height, "{width}×{height}");
    let blue = (0..height / 8)
        .flat_map(|y| (0..width / 6).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let i = (y * width + x) * 3;
            pixels[i + 2] > 150 && pixels[i] < 80
        })
        .count();
    assert!(blue > 20, "the logo's blue block is drawn ({blue} pixels)");
}

#[test]
fn one_shift_is_headed_in_the_singular() {
    let one = ComplianceReportInput { shifts: vec!["00:00–00:00".into()], ..input(Language::En, vec![early()]) };
    let text = squeezed(&pdftotext(&write("compliance-one-shift", &compliance_pdf(&one).unwrap())));
    assert!(text.contains("Shift: 00:00–00:00"), "{text}");
    assert!(!text.contains("Shifts:"), "{text}");
}

#[test]
fn every_language_prints_its_own_words() {
    for language in Language::ALL {
        let path = write(&format!("compliance-{language:?}"), &compliance_pdf(&input(language, vec![early()])).unwrap());
        let text = squeezed(&pdftotext(&path));
        for phrase in [Text::ComplianceTitle, Text::Period, Text::TimeZone] {
            let words = text_of(language, phrase);
            assert!(text.contains(words), "{language:?}: {words:?} not in\n{text}");
        }
        let minutes = format!("10 {}", text_of(language, Text::MinutesUnit));
        assert!(text.contains(&minutes), "{language:?}: {minutes:?} not in\n{text}");
        // Three shifts under the plural heading; the unit as the page labels it in that language.
        let shifts = format!("{}: 07:00–15:00", text_of(language, Text::Shifts));
        assert!(text.contains(&shifts), "{language:?}: {shifts:?} not in\n{text}");
        let unit = unit_label(language, "North", "2");
        assert!(text.contains(&unit), "{language:?}: {unit:?} not in\n{text}");
    }
}

fn text_of(language: Language, phrase: Text) -> &'static str {
    text(language, phrase)
}

#[test]
fn rows_continue_on_further_pages_and_an_empty_range_says_so() {
    let many: Vec<ComplianceRow> = (0..40).map(|i| row(&format!("Ward {i:02} · 1"), 0, "07:00–15:00")).collect();
    let path = write("compliance-many", &compliance_pdf(&input(Language::En, many)).unwrap());
    let text = squeezed(&pdftotext(&path));
    assert!(text.contains("Page 2 / 2"), "{text}");
    assert!(text.contains("Ward 00 · floor 1") && text.contains("Ward 39 · floor 1"), "every row printed");
    let empty = write("compliance-empty", &compliance_pdf(&input(Language::Es, Vec::new())).unwrap());
    assert!(squeezed(&pdftotext(&empty)).contains("Ninguna cama en este periodo"));
    assert_eq!(compliance_file_name(&input(Language::En, Vec::new())), "turn-compliance_2026-11-01_2026-11-07.pdf");
}

//! The turn-compliance report of `GET /api/compliancePdf/{from}/{to}/{language}` (issue 23, item
//! 4): on landscape A4, the company's branding, the period and time zone, then one table row per
//! unit and shift — beds, turns, the share on time (with a bar), the time to attend alarms (mean
//! and 90th percentile), alarms, alarms per bed-day, minutes over the interval per patient — and a
//! note saying how each figure is counted. Rows continue on further pages; text in the requested
//! language. The figures are `mat_core::compliance`'s, printed as they are.

use mat_core::compliance::ComplianceRow;
use serde::{Deserialize, Serialize};

use crate::ReportError;
use crate::document::{Document, PageCanvas, Rgb};
use crate::figures::format_number;
use crate::file_name::ascii_slug;
use crate::i18n::{Language, Text, text, unit_label};
use crate::input::ReportBranding;
use crate::logo::decode_logo;
use crate::map_drawing::{BLACK, GREY};

/// A4 landscape, points.
const WIDTH: f32 = 842.0;
const HEIGHT: f32 = 595.0;
const MARGIN: f32 = 36.0;
const TITLE_SIZE: f32 = 17.0;
const BODY_SIZE: f32 = 9.5;
const HEAD_SIZE: f32 = 7.5;
const ROW: f32 = 17.0;
/// Where the table's header starts, from the page's top.
const TABLE_TOP_FROM_TOP: f32 = 122.0;
/// The lowest row's baseline (the note and the footer below).
const BOTTOM: f32 = 92.0;
const ACCENT: Rgb = [0.12, 0.32, 0.55];
const BAR_GOOD: Rgb = [0.18, 0.55, 0.34];
const BAR_TRACK: Rgb = [0.9, 0.9, 0.9];
const STRIPE: Rgb = [0.96, 0.97, 0.98];

/// Everything the compliance report prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComplianceReportInput {
    pub branding: ReportBranding,
    /// First day, `YYYY-MM-DD`.
    pub from: String,
    /// Last day, `YYYY-MM-DD`.
    pub to: String,
    /// The company's IANA time zone, the clock of the shifts.
    pub time_zone: String,
    /// The shifts' labels (`07:00–15:00`), in the plan's order.
    pub shifts: Vec<String>,
    pub rows: Vec<ComplianceRow>,
    pub language: Language,
}

/// `turn-compliance_{from}_{to}.pdf`.
pub fn compliance_file_name(input: &ComplianceReportInput) -> String {
    format!("turn-compliance_{}_{}.pdf", ascii_slug(&input.from), ascii_slug(&input.to))
}

/// A table column: its heading and its width.
struct Column {
    heading: Text,
    width: f32,
}

const COLUMNS: [Column; 10] = [
    Column { heading: Text::Unit, width: 150.0 },
    Column { heading: Text::Shift, width: 78.0 },
    Column { heading: Text::Beds, width: 44.0 },
    Column { heading: Text::Turns, width: 60.0 },
    Column { heading: Text::OnTime, width: 104.0 },
    Column { heading: Text::AttendMean, width: 70.0 },
    Column { heading: Text::AttendP90, width: 76.0 },
    Column { heading: Text::Alarms, width: 50.0 },
    Column { heading: Text::AlarmsPerBedDay, width: 66.0 },
    Column { heading: Text::MinutesOverPerPatient, width: 72.0 },
];

/// Rows on one page.
fn rows_per_page() -> usize {
    ((HEIGHT - TABLE_TOP_FROM_TOP - 34.0 - BOTTOM) / ROW) as usize + 1
}

/// Renders the compliance report.
pub fn compliance_pdf(input: &ComplianceReportInput) -> Result<Vec<u8>, ReportError> {
    let mut doc = Document::new(WIDTH, HEIGHT)?;
    let logo = input.branding.logo.as_deref().and_then(decode_logo).map(|logo| doc.add_image(logo));
    let per_page = rows_per_page();
    let pages: Vec<&[ComplianceRow]> = if input.rows.is_empty() { vec![&[]] } else { input.rows.chunks(per_page).collect() };
    let total = pages.len();
    for (index, rows) in pages.into_iter().enumerate() {
        doc.page(|doc, canvas| {
            header(doc, canvas, input, logo);
            table(doc, canvas, input, rows);
            footer(doc, canvas, input, index + 1, total);
        });
    }
    Ok(doc.finish())
}

fn t(input: &ComplianceReportInput, x: Text) -> &'static str {
    text(input.language, x)
}

/// Logo and company name on the left, the title on the right, the period, zone and shifts under.
fn header(doc: &mut Document, canvas: &mut PageCanvas, input: &ComplianceReportInput, logo: Option<usize>) {
    let top = HEIGHT - MARGIN;
    let mut x = MARGIN;
    if let (Some(index), Some(image)) = (logo, input.branding.logo.as_deref().and_then(decode_logo)) {
        let (max_w, max_h) = (120.0f32, 40.0f32);
        let s = (max_w / image.width as f32).min(max_h / image.height as f32);
        let (w, h) = (image.width as f32 * s, image.height as f32 * s);
        canvas.marked(b"Logo", |canvas| canvas.image(index, x, top - h, w, h));
        x += w + 12.0;
    }
    doc.text(canvas, x, top - 26.0, 14.0, BLACK, &input.branding.company_name);
    let title = t(input, Text::ComplianceTitle);
    let w = doc.text_width(title, TITLE_SIZE);
    doc.text(canvas, WIDTH - MARGIN - w, top - 20.0, TITLE_SIZE, ACCENT, title);
    canvas.line([MARGIN, top - 48.0], [WIDTH - MARGIN, top - 48.0], ACCENT, 1.2);
    let y = top - 66.0;
    let period = format!("{}: {} – {}", t(input, Text::Period), input.from, input.to);
    doc.text(canvas, MARGIN, y, BODY_SIZE, BLACK, &period);
    let zone = format!("{}: {}", t(input, Text::TimeZone), input.time_zone);
    doc.text(canvas, MARGIN + 250.0, y, BODY_SIZE, BLACK, &zone);
    let heading = if input.shifts.len() > 1 { Text::Shifts } else { Text::Shift };
    let shifts = format!("{}: {}", t(input, heading), input.shifts.join(" · "));
    doc.text(canvas, MARGIN + 480.0, y, BODY_SIZE, BLACK, &shifts);
}

/// The figures of one row, as printed ("—" where a figure has nothing to count).
fn cells(input: &ComplianceReportInput, row: &ComplianceRow) -> [String; 10] {
    let lang = input.language;
    let dash = || "—".to_owned();
    let attend = |seconds: Option<f64>| seconds.map_or_else(dash, |s| attend_time(lang, s));
    let unit = if row.unit.is_empty() { t(input, Text::NoUnit).to_owned() } else { unit_label(lang, &row.building, &row.floor) };
    [
        unit,
        row.shift_label.clone(),
        row.beds.to_string(),
        row.turns.to_string(),
        row.on_time_share.map_or_else(dash, |s| format!("{} % ({}/{})", format_number(lang, s * 100.0, 0), row.turns_on_time, row.turns)),
        attend(row.attend_mean_seconds),
        attend(row.attend_p90_seconds),
        row.alarms.to_string(),
        row.alarms_per_bed_day.map_or_else(dash, |v| format_number(lang, v, 2)),
        row.minutes_over_per_patient.map_or_else(dash, |v| format!("{} {}", format_number(lang, v, 0), t(input, Text::MinutesUnit))),
    ]
}

/// A time to attend as the web page's table writes it (the client's `attendTime`): whole seconds
/// under a minute ("6 s", where minutes said "0.1 min"), minutes and their seconds above ("4 min
/// 20 s", "75 min"; "4.3 min" before), in the page's units.
fn attend_time(lang: Language, seconds: f64) -> String {
    let total = seconds.max(0.0).round() as u64;
    let (minutes_unit, seconds_unit) = (text(lang, Text::MinutesUnit), text(lang, Text::SecondsUnit));
    if total < 60 {
        return format!("{total} {seconds_unit}");
    }
    let minutes = format!("{} {minutes_unit}", format_number(lang, (total / 60) as f64, 0));
    match total % 60 {
        0 => minutes,
        rest => format!("{minutes} {rest} {seconds_unit}"),
    }
}

fn table(doc: &mut Document, canvas: &mut PageCanvas, input: &ComplianceReportInput, rows: &[ComplianceRow]) {
    let top = HEIGHT - TABLE_TOP_FROM_TOP;
    // Headings, wrapped to their column, in small grey type.
    let mut x = MARGIN;
    for column in &COLUMNS {
        let lines = doc.fonts().wrap(t(input, column.heading), HEAD_SIZE, column.width - 6.0);
        for (i, line) in lines.iter().take(3).enumerate() {
            doc.text(canvas, x, top - HEAD_SIZE * 1.25 * i as f32, HEAD_SIZE, GREY, line);
        }
        x += column.width;
    }
    let first = top - 34.0;
    canvas.line([MARGIN, first + ROW - 4.0], [WIDTH - MARGIN, first + ROW - 4.0], GREY, 0.6);
    if rows.is_empty() {
        doc.text(canvas, MARGIN, first, BODY_SIZE, GREY, t(input, Text::NoBeds));
        return;
    }
    for (i, row) in rows.iter().enumerate() {
        let y = first - ROW * i as f32;
        if i % 2 == 1 {
            canvas.fill_rect(MARGIN, y - 5.0, WIDTH - 2.0 * MARGIN, ROW, STRIPE);
        }
        let mut x = MARGIN;
        for (c, (column, value)) in COLUMNS.iter().zip(cells(input, row)).enumerate() {
            if c == 4
                && let Some(share) = row.on_time_share
            {
                // The share on time as a bar under its figure.
                let bar_w = column.width - 10.0;
                canvas.fill_rect(x, y - 6.0, bar_w, 2.5, BAR_TRACK);
                canvas.fill_rect(x, y - 6.0, bar_w * share.clamp(0.0, 1.0) as f32, 2.5, BAR_GOOD);
            }
            doc.text(canvas, x, y, BODY_SIZE, BLACK, &value);
            x += column.width;
        }
    }
}

fn footer(doc: &mut Document, canvas: &mut PageCanvas, input: &ComplianceReportInput, page: usize, total: usize) {
    let note = doc.fonts().wrap(t(input, Text::ComplianceNote), 8.0, WIDTH - 2.0 * MARGIN);
    for (i, line) in note.iter().enumerate() {
        doc.text(canvas, MARGIN, 62.0 - 10.5 * i as f32, 8.0, GREY, line);
    }
    let words = format!("{} {} / {}", t(input, Text::Page), page, total);
    let w = doc.text_width(&words, 8.5);
    doc.text(canvas, WIDTH - MARGIN - w, 22.0, 8.5, GREY, &words);
    let left = format!("{} · {} · {} – {}", input.branding.company_name, t(input, Text::ComplianceTitle), input.from, input.to);
    doc.text(canvas, MARGIN, 22.0, 8.5, GREY, &left);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_to_attend_is_written_as_the_page_writes_it() {
        assert_eq!(attend_time(Language::En, 6.4), "6 s");
        assert_eq!(attend_time(Language::En, 59.4), "59 s");
        assert_eq!(attend_time(Language::En, 59.6), "1 min");
        assert_eq!(attend_time(Language::En, 260.0), "4 min 20 s");
        assert_eq!(attend_time(Language::En, 4500.0), "75 min");
        assert_eq!(attend_time(Language::Ru, 260.0), "4 мин 20 с");
        assert_eq!(attend_time(Language::Ja, 260.0), "4 分 20 秒");
    }

    #[test]
    fn a_page_holds_a_whole_number_of_rows_above_the_note() {
        let n = rows_per_page();
        let lowest = HEIGHT - TABLE_TOP_FROM_TOP - 34.0 - ROW * (n - 1) as f32;
        assert!(lowest >= BOTTOM, "{lowest}");
        assert!(COLUMNS.iter().map(|c| c.width).sum::<f32>() <= WIDTH - 2.0 * MARGIN);
    }
}

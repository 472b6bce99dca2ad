//! The analysis report of `POST /api/downloadAnalysisPDF/{id}/{x}`: one A4 page per widget
//! (Main Page, Pressure Map, Results, Histogram, Notes), text in the requested language.

use mat_core::analysis::body_centre::BodyCentreQuality;
use mat_core::analysis::dynamic_podology::ERROR_EVENTS_OUT_OF_ORDER;
use mat_core::analysis::export::iso_8601_utc;
use mat_core::analysis::histogram::{Histogram, histogram};
use mat_core::analysis::{AnalysisKind, AnalysisResult};

use crate::ReportError;
use crate::document::{Document, PageCanvas};
use crate::i18n::{Language, Text, text};
use crate::input::AnalysisReportInput;
use crate::layout::{LayoutOptions, PaperSize, Widget};
use crate::map_drawing::{BLACK, GREY, MapPlacement, draw_colour_scale, draw_map, draw_marker};

const MARGIN: f32 = 50.0;
const TITLE_SIZE: f32 = 20.0;
const HEADING_SIZE: f32 = 14.0;
const BODY_SIZE: f32 = 10.5;
const LINE: f32 = 16.0;

/// Renders the analysis report: the widgets of `options.effective_widgets`, each on its own A4
/// page with a page number, in `options.language`.
pub fn analysis_pdf(input: &AnalysisReportInput, options: &LayoutOptions) -> Result<Vec<u8>, ReportError> {
    input.map.check()?;
    let (width, height) = PaperSize::A4.points();
    let mut doc = Document::new(width, height)?;
    let lang = options.language;
    let widgets = options.effective_widgets(!input.notes.trim().is_empty());
    let total = widgets.len();
    for (index, widget) in widgets.into_iter().enumerate() {
        doc.page(|doc, canvas| {
            match widget {
                Widget::MainPage => main_page(doc, canvas, input, options),
                Widget::PressureMap => map_page(doc, canvas, input, options),
                Widget::Results => results_page(doc, canvas, input, lang),
                Widget::Histogram => histogram_page(doc, canvas, input, lang),
                Widget::Notes => notes_page(doc, canvas, input, lang),
            }
            let footer = format!("{} {} / {}", text(lang, Text::Page), index + 1, total);
            let w = doc.text_width(&footer, 9.0);
            doc.text(canvas, (doc.width() - w) / 2.0, 25.0, 9.0, GREY, &footer);
        });
    }
    Ok(doc.finish())
}

/// The name of an analysis kind in `lang`.
pub fn kind_text(kind: AnalysisKind) -> Text {
    match kind {
        AnalysisKind::Static => Text::Static,
        AnalysisKind::Dynamic => Text::Dynamic,
        AnalysisKind::Balance => Text::Balance,
        AnalysisKind::SeatingDynamic => Text::SeatingDynamic,
        AnalysisKind::Fitting => Text::Fitting,
        AnalysisKind::Rehab => Text::Rehab,
    }
}

/// `YYYY-MM-DD HH:MM UTC`.
pub fn format_date(unix_s: i64) -> String {
    let iso = iso_8601_utc(unix_s.saturating_mul(1000));
    format!("{} {} UTC", &iso[..10], &iso[11..16])
}

/// A number with `decimals` places and the language's decimal separator (a comma everywhere
/// but en and ja).
pub fn format_number(lang: Language, value: f64, decimals: usize) -> String {
    let s = format!("{value:.decimals$}");
    match lang {
        Language::En | Language::Ja => s,
        _ => s.replace('.', ","),
    }
}

fn heading(doc: &mut Document, canvas: &mut PageCanvas, y: f32, words: &str) -> f32 {
    doc.text(canvas, MARGIN, y, HEADING_SIZE, BLACK, words);
    canvas.line([MARGIN, y - 5.0], [doc.width() - MARGIN, y - 5.0], GREY, 0.5);
    y - HEADING_SIZE - 12.0
}

fn label_lines(doc: &mut Document, canvas: &mut PageCanvas, mut y: f32, lines: &[(String, String)]) -> f32 {
    for (label, value) in lines {
        doc.text(canvas, MARGIN, y, BODY_SIZE, BLACK, label);
        doc.text(canvas, MARGIN + 230.0, y, BODY_SIZE, BLACK, value);
        y -= LINE;
    }
    y
}

fn main_page(doc: &mut Document, canvas: &mut PageCanvas, input: &AnalysisReportInput, options: &LayoutOptions) {
    let lang = options.language;
    let top = doc.height() - 70.0;
    doc.text(canvas, MARGIN, top, TITLE_SIZE, BLACK, text(lang, Text::ReportTitle));
    let mut y = top - 36.0;
    let mut lines = vec![
        (text(lang, Text::Analysis).to_owned(), text(lang, kind_text(input.analysis_type)).to_owned()),
        (text(lang, Text::Date).to_owned(), format_date(input.creation_date_s)),
        (text(lang, Text::Device).to_owned(), format!("{} ({})", input.device_name, input.device_type.name())),
    ];
    match &input.patient {
        Some(p) => {
            lines.push((text(lang, Text::Patient).to_owned(), p.name.clone()));
            if let Some(h) = p.height_cm {
                lines.push((text(lang, Text::Height).to_owned(), format!("{} cm", format_number(lang, h, 0))));
            }
            if let Some(w) = p.weight_kg {
                lines.push((text(lang, Text::Weight).to_owned(), format!("{} kg", format_number(lang, w, 1))));
            }
        }
        None => lines.push((text(lang, Text::Patient).to_owned(), text(lang, Text::NoPatient).to_owned())),
    }
    y = label_lines(doc, canvas, y, &lines) - 10.0;
    if let Some(result) = &input.result {
        y = heading(doc, canvas, y, text(lang, Text::Results));
        let summary: Vec<(String, String)> = result_lines(result, lang).into_iter().take(8).collect();
        y = label_lines(doc, canvas, y, &summary) - 10.0;
    }
    let size = (y - 60.0).min(doc.width() - 2.0 * MARGIN).max(60.0);
    let placement = MapPlacement::fit(&input.map, MARGIN, y, size, size);
    draw_map(canvas, &input.map, &placement, options.palette, scale_max(input, options));
}

fn scale_max(input: &AnalysisReportInput, options: &LayoutOptions) -> u16 {
    options.manual_scale.filter(|&s| s > 0).unwrap_or_else(|| input.map.max().max(1))
}

fn map_page(doc: &mut Document, canvas: &mut PageCanvas, input: &AnalysisReportInput, options: &LayoutOptions) {
    let lang = options.language;
    let y = heading(doc, canvas, doc.height() - 70.0, text(lang, Text::PressureMap));
    let size = doc.width() - 2.0 * MARGIN;
    let placement = MapPlacement::fit(&input.map, MARGIN, y, size, size);
    let max = scale_max(input, options);
    draw_map(canvas, &input.map, &placement, options.palette, max);
    if let Some(AnalysisResult::Static(r)) = &input.result {
        for (cop, colour) in [
            (r.left_center_of_pressure, [0.0, 0.0, 0.0]),
            (r.right_center_of_pressure, [0.0, 0.0, 0.0]),
            (r.global_center_of_pressure, [0.8, 0.0, 0.8]),
        ] {
            if let Some([x, yy]) = cop {
                draw_marker(canvas, placement.point(x, yy), 6.0, colour);
            }
        }
    }
    let scale_y = y - placement.rows as f32 * placement.cell - 40.0;
    draw_colour_scale(canvas, MARGIN, scale_y, 200.0, 10.0, options.palette, max);
    doc.text(canvas, MARGIN, scale_y - 14.0, 9.0, BLACK, "0");
    let top = max.to_string();
    let w = doc.text_width(&top, 9.0);
    doc.text(canvas, MARGIN + 200.0 - w, scale_y - 14.0, 9.0, BLACK, &top);
}

fn results_page(doc: &mut Document, canvas: &mut PageCanvas, input: &AnalysisReportInput, lang: Language) {
    let mut y = heading(doc, canvas, doc.height() - 70.0, text(lang, Text::Results));
    y = label_lines(
        doc,
        canvas,
        y,
        &[(text(lang, Text::Analysis).to_owned(), text(lang, kind_text(input.analysis_type)).to_owned())],
    );
    if let Some(result) = &input.result {
        label_lines(doc, canvas, y, &result_lines(result, lang));
    }
}

fn histogram_page(doc: &mut Document, canvas: &mut PageCanvas, input: &AnalysisReportInput, lang: Language) {
    let y = heading(doc, canvas, doc.height() - 70.0, text(lang, Text::Histogram));
    let h: Histogram = match &input.result {
        Some(AnalysisResult::Static(r)) => r.histogram.clone(),
        Some(AnalysisResult::SeatingStatic(r)) => r.histogram.clone(),
        Some(AnalysisResult::BedStatic(r)) => r.histogram.clone(),
        _ => histogram(&input.map.cells),
    };
    let (chart_w, chart_h) = (doc.width() - 2.0 * MARGIN, 300.0);
    let base = y - chart_h;
    let bar_w = chart_w / h.counts.len().max(1) as f32;
    let top = h.counts.iter().copied().max().unwrap_or(0).max(1) as f32;
    canvas.marked(b"Histogram", |canvas| {
        for (i, &count) in h.counts.iter().enumerate() {
            let bar_h = chart_h * count as f32 / top;
            canvas.fill_rect(MARGIN + i as f32 * bar_w + 4.0, base, bar_w - 8.0, bar_h, [0.2, 0.4, 0.8]);
        }
    });
    canvas.line([MARGIN, base], [MARGIN + chart_w, base], BLACK, 0.8);
    for (i, (&count, &upper)) in h.counts.iter().zip(&h.bin_upper_bounds).enumerate() {
        let x = MARGIN + i as f32 * bar_w + 6.0;
        doc.text(canvas, x, base - 14.0, 8.5, BLACK, &format_number(lang, upper, 0));
        doc.text(canvas, x, base - 27.0, 8.5, GREY, &count.to_string());
    }
}

fn notes_page(doc: &mut Document, canvas: &mut PageCanvas, input: &AnalysisReportInput, lang: Language) {
    let mut y = heading(doc, canvas, doc.height() - 70.0, text(lang, Text::Notes));
    let max_width = doc.width() - 2.0 * MARGIN;
    let lines = doc.fonts().wrap(&input.notes, BODY_SIZE, max_width);
    for line in lines {
        if y < 60.0 {
            break; // 1,100 characters fit on one page at this size; nothing is expected here.
        }
        doc.text(canvas, MARGIN, y, BODY_SIZE, BLACK, &line);
        y -= LINE;
    }
}

/// The printed numbers of a result, as (label, value) lines in `lang`.
pub fn result_lines(result: &AnalysisResult, lang: Language) -> Vec<(String, String)> {
    let t = |x: Text| text(lang, x).to_owned();
    let n = |v: f64, d: usize| format_number(lang, v, d);
    let point = |p: Option<[f64; 2]>| p.map_or_else(|| "—".to_owned(), |[x, y]| format!("{} ; {}", n(x, 1), n(y, 1)));
    let mut lines = Vec::new();
    match result {
        AnalysisResult::Static(r) => {
            for (foot, front, back, global, surface, cop) in [
                (
                    Text::LeftFoot,
                    r.left_front_pressure_distribution,
                    r.left_back_pressure_distribution,
                    r.left_global_pressure_distribution,
                    r.left_global_surface,
                    r.left_center_of_pressure,
                ),
                (
                    Text::RightFoot,
                    r.right_front_pressure_distribution,
                    r.right_back_pressure_distribution,
                    r.right_global_pressure_distribution,
                    r.right_global_surface,
                    r.right_center_of_pressure,
                ),
            ] {
                lines.push((
                    format!("{} — {}", t(foot), t(Text::LoadDistribution)),
                    format!("{} % ({} / {} %)", n(global, 1), n(front, 1), n(back, 1)),
                ));
                lines.push((format!("{} — {}", t(foot), t(Text::Surface)), format!("{} cm²", n(surface, 0))));
                lines.push((format!("{} — {}", t(foot), t(Text::CenterOfPressure)), point(cop)));
            }
            lines.push((t(Text::ActivePoints), r.active_points_total.to_string()));
            lines.push((t(Text::MaxPressure), r.max_pressure.to_string()));
            lines.push((t(Text::MeanPressure), n(r.avg_pressure, 1)));
            if let Some(bmi) = r.mattress.as_ref().and_then(|m| m.bmi) {
                lines.push((t(Text::Bmi), n(bmi, 1)));
            }
            if r.footprint_edge_warning {
                lines.push((t(Text::EdgeWarning), String::new()));
            }
        }
        // Issue 21 (h21a): a seat's and a bed's static figures, with the texts this crate has;
        // h21b's report pages print them in full.
        AnalysisResult::SeatingStatic(r) => {
            lines.push((t(Text::PeakPressureIndex), format!("{} mmHg", n(r.peak_pressure_index_mmhg, 1))));
            lines.push((t(Text::DispersionIndex), format!("{} %", n(r.dispersion_index, 1))));
            lines.push((t(Text::MaxPressure), format!("{} mmHg", n(r.max_pressure_mmhg, 1))));
            lines.push((t(Text::MeanPressure), format!("{} mmHg", n(r.mean_pressure_mmhg, 1))));
        }
        AnalysisResult::BedStatic(r) => {
            lines.push((t(Text::MaxPressure), format!("{} mmHg", n(r.max_pressure_mmhg, 1))));
            lines.push((t(Text::MeanPressure), format!("{} mmHg", n(r.mean_pressure_mmhg, 1))));
            if let Some(bmi) = r.mattress.bmi {
                lines.push((t(Text::Bmi), n(bmi, 1)));
            }
        }
        AnalysisResult::Dynamic(r) => {
            for (foot, gait) in [(Text::LeftFoot, &r.left), (Text::RightFoot, &r.right)] {
                let value = match &gait.rockers {
                    Some(k) => format!(
                        "{} / {} / {} s ({} / {} / {} %)",
                        n(k.heel_rocker_s, 3),
                        n(k.ankle_rocker_s, 3),
                        n(k.forefoot_rocker_s, 3),
                        n(k.heel_rocker_share, 1),
                        n(k.ankle_rocker_share, 1),
                        n(k.forefoot_rocker_share, 1)
                    ),
                    // The spec's message keys, translated.
                    None if gait.error.as_deref() == Some(ERROR_EVENTS_OUT_OF_ORDER) => t(Text::RockersOutOfOrder),
                    None => t(Text::RockersNoStance),
                };
                lines.push((format!("{} — {}", t(foot), t(Text::Rockers)), value));
            }
            lines.push((t(Text::Duration), format!("{} s", n(r.duration_s, 1))));
        }
        AnalysisResult::Balance(r) => {
            lines.push((t(Text::SwayPath), format!("{} cm", n(r.sway_path_length_cm, 1))));
            lines.push((t(Text::MeanVelocity), format!("{} cm/s", n(r.mean_velocity_cm_s, 2))));
            lines.push((t(Text::EllipseArea), format!("{} cm²", n(r.confidence_ellipse_area_cm2, 2))));
            lines.push((t(Text::Duration), format!("{} s", n(r.duration_s, 1))));
        }
        AnalysisResult::SeatingDynamic(r) => {
            lines.push((t(Text::PeakPressureIndex), n(r.peak_pressure_index, 0)));
            lines.push((t(Text::DispersionIndex), format!("{} %", n(r.dispersion_index, 1))));
            lines.push((t(Text::PushUps), r.push_ups.as_ref().map_or(0, Vec::len).to_string()));
            lines.push((t(Text::Duration), format!("{} s", n(r.duration_s, 1))));
        }
        AnalysisResult::Fitting(r) | AnalysisResult::Rehab(r) => {
            let quality = match r.quality {
                BodyCentreQuality::Good => Text::Good,
                BodyCentreQuality::Bad => Text::Bad,
                BodyCentreQuality::Uncomplete => Text::Uncomplete,
            };
            lines.push((t(Text::DistanceToCentre), format!("{} cm — {}", n(r.distance_cm, 1), t(quality))));
            lines.push((t(Text::CenterOfPressure), point(Some(r.mean_center_of_pressure))));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_use_the_language_separator() {
        assert_eq!(format_number(Language::En, 22.857, 1), "22.9");
        assert_eq!(format_number(Language::Es, 22.857, 1), "22,9");
        assert_eq!(format_number(Language::Ja, 0.5, 3), "0.500");
        assert_eq!(format_date(1_700_000_000), "2023-11-14 22:13 UTC");
    }

    #[test]
    fn rocker_errors_are_translated() {
        use mat_core::analysis::dynamic_podology::{DynamicResult, FootGait};
        let out_of_order = FootGait { error: Some(ERROR_EVENTS_OUT_OF_ORDER.to_owned()), ..FootGait::default() };
        let result = AnalysisResult::Dynamic(DynamicResult {
            additional_parameters: Vec::new(),
            left: out_of_order,
            right: FootGait::default(),
            feet_separated: true,
            duration_s: 1.0,
            playback_frames: 4,
        });
        let lines = result_lines(&result, Language::Ja);
        assert_eq!(lines[0].1, "ロッカーを計算できません：歩行イベントの順序が不正です");
        assert_eq!(lines[1].1, "ロッカーを計算できません：接地が不足しています");
        assert_eq!(lines[2], ("時間".to_owned(), "1.0 s".to_owned()));
    }
}

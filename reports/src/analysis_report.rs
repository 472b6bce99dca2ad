//! The analysis report of `POST /api/downloadAnalysisPDF/{id}/{x}`: one summary page (branding,
//! patient, date and time on the user's clock, device, the key figures with units, the map on a
//! clean background with a colour bar, the notes), then further pages only for what does not fit
//! there and the user asked for: the rest of the figures (with the balance sway plot), a dynamic
//! capture's course over time (a seat's or a bed's: the charts of its result's plot panels), the
//! histogram, the rest of the notes. Text in the requested language.

use mat_core::analysis::histogram::{Histogram, histogram};
use mat_core::analysis::seating::SeatingResult;
use mat_core::analysis::seating::lying;
use mat_core::analysis::units::{active_floor, cell_pitch_cm};
use mat_core::analysis::{AnalysisKind, AnalysisResult, NamedParameter, ParameterValue};
use mat_core::machine::posture::lies_along_columns;
use mat_protocol::device_type::DeviceType;

use crate::ReportError;
use crate::document::{Document, PageCanvas, Rgb};
use crate::figures::{Figure, Figures, StaticBody, figures, format_number};
use crate::i18n::{Language, Text, text};
use crate::input::{AnalysisReportInput, FramesDrawn};
use crate::layout::{LayoutOptions, PaperSize, Widget};
use crate::logo::decode_logo;
use crate::map_drawing::{BLACK, GREY, MapPlacement, draw_colour_bar, draw_map, draw_marker};
use crate::pressure_unit::PressureScale;
use crate::time_charts::{ChartFrame, ChartLine, time_chart};

const MARGIN: f32 = 40.0;
const TITLE_SIZE: f32 = 17.0;
const HEADING_SIZE: f32 = 12.5;
const BODY_SIZE: f32 = 10.0;
const LABEL_SIZE: f32 = 8.0;
const LINE: f32 = 14.0;
/// Each key figure: a small grey label over its value.
const FIGURE_STEP: f32 = 23.0;
/// The summary's two columns: figures on the left, the map on the right.
const FIGURES_WIDTH: f32 = 255.0;
const MAP_MAX_HEIGHT: f32 = 370.0;
/// Where the summary's body starts, below the header and the patient block.
const BODY_TOP_FROM_TOP: f32 = 190.0;
/// Lowest baseline of page text above the footer.
const BOTTOM: f32 = 55.0;
const ACCENT: Rgb = [0.12, 0.32, 0.55];

/// The name of an analysis kind on `device`: a bed's dynamic capture (stored as
/// `seatingDynamic`) is pressure over time, no seat's analysis (the client's
/// `analysisTypeKey`).
pub fn kind_text(kind: AnalysisKind, device: DeviceType) -> Text {
    match kind {
        AnalysisKind::Static => Text::Static,
        AnalysisKind::Dynamic => Text::Dynamic,
        AnalysisKind::Balance => Text::Balance,
        AnalysisKind::SeatingDynamic if lying(device) => Text::BedDynamic,
        AnalysisKind::SeatingDynamic => Text::SeatingDynamic,
        AnalysisKind::Fitting => Text::Fitting,
        AnalysisKind::Rehab => Text::Rehab,
    }
}

/// Where the summary page draws its map, in page points (x, y of the lower-left corner, width,
/// height), for a map of `rows × cols`: the right column, as tall as fits.
pub fn summary_map_box(rows: u16, cols: u16) -> [f32; 4] {
    let (width, height) = PaperSize::A4.points();
    let left = MARGIN + FIGURES_WIDTH + 20.0;
    let box_w = width - MARGIN - left;
    let cell = (box_w / f32::from(cols.max(1))).min(MAP_MAX_HEIGHT / f32::from(rows.max(1)));
    let (w, h) = (cell * f32::from(cols), cell * f32::from(rows));
    let top = height - BODY_TOP_FROM_TOP;
    [left + (box_w - w) / 2.0, top - h, w, h]
}

/// A further page of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Further {
    Figures,
    /// A dynamic capture's course: its plot panels' charts over time.
    Course,
    Histogram,
    /// Notes lines from this index on, as many as fit one page.
    Notes(usize),
}

/// Notes lines on a further page.
const NOTES_LINES_PER_PAGE: usize = 50;

/// Renders the analysis report.
pub fn analysis_pdf(input: &AnalysisReportInput, options: &LayoutOptions) -> Result<Vec<u8>, ReportError> {
    input.map.check()?;
    let (width, height) = PaperSize::A4.points();
    let mut doc = Document::new(width, height)?;
    let lang = options.language;
    let scale = PressureScale::new(input.device_type, options.pressure_unit, input.branding.fitness)
        .calibrated(input.result.as_ref().and_then(AnalysisResult::weight_calibration));
    let widgets = options.effective_widgets(!input.notes.trim().is_empty());
    let figures = input.result.as_ref().map(|r| figures(r, input.device_type, &input.map, &scale, lang)).unwrap_or_default();
    let summary = SummaryLayout::new(&doc, input, &figures, widgets.contains(&Widget::Notes));
    let mut further = Vec::new();
    let sway = matches!(input.result, Some(AnalysisResult::Balance(_)));
    if widgets.contains(&Widget::Results) && (!figures.detail.is_empty() || sway) {
        further.push(Further::Figures);
    }
    if widgets.contains(&Widget::Results) && input.result.as_ref().and_then(course_of).is_some() {
        further.push(Further::Course);
    }
    if widgets.contains(&Widget::Histogram) {
        further.push(Further::Histogram);
    }
    // Notes with many line breaks can need more than one further page.
    further.extend((0..summary.notes_overflow.len()).step_by(NOTES_LINES_PER_PAGE).map(Further::Notes));
    let total = 1 + further.len();
    let logo = input.branding.logo.as_deref().and_then(decode_logo).map(|logo| doc.add_image(logo));
    let ctx = Context { input, options, scale, lang, total };
    doc.page(|doc, canvas| {
        summary_page(doc, canvas, &ctx, &figures, &summary, logo, widgets.contains(&Widget::PressureMap));
        footer(doc, canvas, &ctx, 1);
    });
    for (i, page) in further.into_iter().enumerate() {
        doc.page(|doc, canvas| {
            match page {
                Further::Figures => figures_page(doc, canvas, &ctx, &figures.detail),
                Further::Course => {
                    if let Some(course) = ctx.input.result.as_ref().and_then(course_of) {
                        course_page(doc, canvas, &ctx, course);
                    }
                }
                Further::Histogram => histogram_page(doc, canvas, &ctx),
                Further::Notes(from) => {
                    let to = (from + NOTES_LINES_PER_PAGE).min(summary.notes_overflow.len());
                    notes_page(doc, canvas, &ctx, &summary.notes_overflow[from..to]);
                }
            }
            footer(doc, canvas, &ctx, i + 2);
        });
    }
    Ok(doc.finish())
}

struct Context<'a> {
    input: &'a AnalysisReportInput,
    options: &'a LayoutOptions,
    scale: PressureScale,
    lang: Language,
    total: usize,
}

impl Context<'_> {
    fn t(&self, x: Text) -> &'static str {
        text(self.lang, x)
    }

    fn scale_max(&self) -> u16 {
        self.options.manual_scale.filter(|&s| s > 0).unwrap_or_else(|| self.input.map.max().max(1))
    }

    fn floor(&self) -> u16 {
        active_floor(self.input.device_type)
    }
}

/// What goes where on the summary page, decided before drawing so the page count is known.
struct SummaryLayout {
    /// Key figures, each wrapped to the figures column.
    figure_lines: Vec<(String, Vec<String>)>,
    /// Notes lines on the summary, and those for a further page.
    notes_here: Vec<String>,
    notes_overflow: Vec<String>,
    notes_top: f32,
}

impl SummaryLayout {
    fn new(doc: &Document, input: &AnalysisReportInput, figures: &Figures, print_notes: bool) -> SummaryLayout {
        let top = doc.height() - BODY_TOP_FROM_TOP;
        let figure_lines: Vec<(String, Vec<String>)> =
            figures.key.iter().map(|(label, value)| (label.clone(), doc.fonts().wrap(value, BODY_SIZE, FIGURES_WIDTH))).collect();
        let figures_h: f32 = 18.0 + figure_lines.iter().map(|(_, v)| FIGURE_STEP + LINE * (v.len().max(1) - 1) as f32).sum::<f32>();
        let map = summary_map_box(input.map.rows, input.map.cols);
        // The colour bar and its labels, and under a walk's map the two lines saying what it is.
        let map_bottom = map[1] - 34.0 - if FramesDrawn::of(input.analysis_type) == FramesDrawn::Peak { 24.0 } else { 0.0 };
        let notes_top = (top - figures_h).min(map_bottom) - 18.0;
        let mut notes_here = Vec::new();
        let mut notes_overflow = Vec::new();
        if print_notes {
            let lines = doc.fonts().wrap(input.notes.trim(), BODY_SIZE, doc.width() - 2.0 * MARGIN);
            let room = ((notes_top - HEADING_SIZE - 12.0 - BOTTOM) / LINE).max(0.0) as usize;
            let split = lines.len().min(room);
            notes_here = lines[..split].to_vec();
            notes_overflow = lines[split..].to_vec();
        }
        SummaryLayout { figure_lines, notes_here, notes_overflow, notes_top }
    }
}

fn heading(doc: &mut Document, canvas: &mut PageCanvas, x: f32, y: f32, width: f32, words: &str) -> f32 {
    doc.text(canvas, x, y, HEADING_SIZE, ACCENT, words);
    canvas.line([x, y - 5.0], [x + width, y - 5.0], GREY, 0.5);
    y - HEADING_SIZE - 10.0
}

/// Company logo and name on the left, the report's title and kind on the right, a rule under.
fn header(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>, logo: Option<usize>, title: &str) {
    let top = doc.height() - MARGIN;
    let mut x = MARGIN;
    if let (Some(index), Some(image)) = (logo, ctx.input.branding.logo.as_deref().and_then(decode_logo)) {
        let (max_w, max_h) = (120.0f32, 46.0f32);
        let s = (max_w / image.width as f32).min(max_h / image.height as f32);
        let (w, h) = (image.width as f32 * s, image.height as f32 * s);
        canvas.marked(b"Logo", |canvas| canvas.image(index, x, top - h, w, h));
        x += w + 12.0;
    }
    doc.text(canvas, x, top - 28.0, 14.0, BLACK, &ctx.input.branding.company_name);
    let w = doc.text_width(title, TITLE_SIZE);
    doc.text(canvas, doc.width() - MARGIN - w, top - 18.0, TITLE_SIZE, ACCENT, title);
    let kind = ctx.t(kind_text(ctx.input.analysis_type, ctx.input.device_type));
    let w = doc.text_width(kind, 11.0);
    doc.text(canvas, doc.width() - MARGIN - w, top - 36.0, 11.0, BLACK, kind);
    canvas.line([MARGIN, top - 54.0], [doc.width() - MARGIN, top - 54.0], ACCENT, 1.2);
}

fn labelled(doc: &mut Document, canvas: &mut PageCanvas, x: f32, y: f32, label: &str, value: &str) {
    doc.text(canvas, x, y, LABEL_SIZE, GREY, label);
    doc.text(canvas, x, y - 13.0, 11.0, BLACK, value);
}

fn summary_page(
    doc: &mut Document,
    canvas: &mut PageCanvas,
    ctx: &Context<'_>,
    figures: &Figures,
    layout: &SummaryLayout,
    logo: Option<usize>,
    markers: bool,
) {
    let input = ctx.input;
    let lang = ctx.lang;
    header(doc, canvas, ctx, logo, ctx.t(Text::ReportTitle));
    // Patient block: who, the body on the analysis day, when, on what.
    let y = doc.height() - MARGIN - 76.0;
    let half = (doc.width() - 2.0 * MARGIN) / 2.0;
    let (who, body) = match &input.patient {
        Some(p) => {
            let mut body = Vec::new();
            if let Some(h) = p.height_cm {
                body.push(format!("{} {} cm", ctx.t(Text::Height), format_number(lang, h, 0)));
            }
            if let Some(w) = p.weight_kg {
                body.push(format!("{} {} kg", ctx.t(Text::Weight), format_number(lang, w, 1)));
            }
            (p.name.clone(), body.join(" · "))
        }
        None => (ctx.t(Text::NoPatient).to_owned(), String::new()),
    };
    labelled(doc, canvas, MARGIN, y, ctx.t(Text::Patient), &who);
    if !body.is_empty() {
        doc.text(canvas, MARGIN, y - 27.0, 9.5, BLACK, &body);
    }
    labelled(doc, canvas, MARGIN + half, y, ctx.t(Text::Date), &ctx.options.clock.format(input.creation_date_s));
    let device = if input.device_name.is_empty() {
        input.device_type.name().to_owned()
    } else {
        format!("{} ({})", input.device_name, input.device_type.name())
    };
    labelled(doc, canvas, MARGIN + half, y - 36.0, ctx.t(Text::Device), &device);

    // Key figures.
    let top = doc.height() - BODY_TOP_FROM_TOP;
    let mut fy = heading(doc, canvas, MARGIN, top + 6.0, FIGURES_WIDTH, ctx.t(Text::Results)) + 6.0;
    for (label, value) in &layout.figure_lines {
        doc.text(canvas, MARGIN, fy, LABEL_SIZE, GREY, label);
        for (i, line) in value.iter().enumerate() {
            doc.text(canvas, MARGIN, fy - 11.5 - LINE * i as f32, BODY_SIZE, BLACK, line);
        }
        fy -= FIGURE_STEP + LINE * (value.len().max(1) - 1) as f32;
    }
    if figures.key.is_empty() {
        doc.text(canvas, MARGIN, fy, BODY_SIZE, GREY, "—");
    }

    // The map on a clean background, its colour bar in the report's unit.
    let [x, bottom, w, h] = summary_map_box(input.map.rows, input.map.cols);
    let placement = MapPlacement::fit(&input.map, x, bottom + h, w, h);
    draw_map(canvas, &input.map, &placement, ctx.options.palette, ctx.floor(), ctx.scale_max());
    if markers {
        draw_overlays(canvas, ctx, &placement);
    }
    draw_colour_bar(doc, canvas, (x, bottom - 18.0, w, 8.0), ctx.options.palette, ctx.floor(), ctx.scale_max(), &ctx.scale, lang);
    if FramesDrawn::of(input.analysis_type) == FramesDrawn::Peak {
        // A walk's map is each cell's highest pressure over it, so its colours reach the feet's
        // maximum pressures printed beside it; the page says what the map is.
        for (i, line) in doc.fonts().wrap(ctx.t(Text::PeakMapCaption), LABEL_SIZE, w).iter().enumerate() {
            doc.text(canvas, x, bottom - 42.0 - 10.0 * i as f32, LABEL_SIZE, GREY, line);
        }
    }

    // Notes, as far as they fit.
    if !layout.notes_here.is_empty() {
        let mut ny = heading(doc, canvas, MARGIN, layout.notes_top, doc.width() - 2.0 * MARGIN, ctx.t(Text::Notes));
        for line in &layout.notes_here {
            doc.text(canvas, MARGIN, ny, BODY_SIZE, BLACK, line);
            ny -= LINE;
        }
    }
}

/// Centres of pressure over the map: each foot's and the body's for a static map (the body's
/// hidden for the variant that hides it), each foot's path for a walk, the body-centre trace and
/// target for fitting and rehab.
fn draw_overlays(canvas: &mut PageCanvas, ctx: &Context<'_>, placement: &MapPlacement) {
    let marker = (placement.cell * 1.2).clamp(3.0, 7.0);
    match &ctx.input.result {
        Some(AnalysisResult::Static(r)) => {
            // Each foot's centre only where there are feet; a seat's or a bed's is the body's.
            let mut points = match StaticBody::of(ctx.input.device_type) {
                StaticBody::Feet => vec![r.left_center_of_pressure, r.right_center_of_pressure],
                StaticBody::Seat | StaticBody::Bed => Vec::new(),
            };
            if !ctx.input.branding.hide_centre_of_pressure {
                points.push(r.global_center_of_pressure);
            }
            for [x, y] in points.into_iter().flatten() {
                draw_marker(canvas, placement.point(x, y), marker, BLACK);
            }
        }
        Some(AnalysisResult::Dynamic(r)) => {
            for (xs, ys) in [("leftCenterOfPressureX", "leftCenterOfPressureY"), ("rightCenterOfPressureX", "rightCenterOfPressureY")] {
                let (Some(xs), Some(ys)) = (series(&r.additional_parameters, xs), series(&r.additional_parameters, ys)) else { continue };
                let line: Vec<[f32; 2]> = xs
                    .iter()
                    .zip(ys)
                    .filter(|(x, y)| x.is_finite() && y.is_finite() && (**x > 0.0 || **y > 0.0))
                    .map(|(&x, &y)| placement.point(x, y))
                    .collect();
                canvas.marked(b"CopLine", |canvas| canvas.polyline(&line, BLACK, 1.0));
            }
        }
        Some(AnalysisResult::Fitting(r) | AnalysisResult::Rehab(r)) => {
            let trace: Vec<[f32; 2]> = r.trace.iter().map(|&[x, y]| placement.point(x, y)).collect();
            canvas.polyline(&trace, BLACK, 0.8);
            draw_marker(canvas, placement.point(r.target[0], r.target[1]), marker, GREY);
            draw_marker(canvas, placement.point(r.mean_center_of_pressure[0], r.mean_center_of_pressure[1]), marker, BLACK);
        }
        _ => {}
    }
}

fn series<'a>(parameters: &'a [NamedParameter], name: &str) -> Option<&'a [f64]> {
    parameters.iter().find(|p| p.name == name).and_then(|p| match &p.value {
        ParameterValue::Series(v) => Some(v.as_slice()),
        _ => None,
    })
}

fn footer(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>, page: usize) {
    let words = format!("{} {} / {}", ctx.t(Text::Page), page, ctx.total);
    let w = doc.text_width(&words, 8.5);
    doc.text(canvas, doc.width() - MARGIN - w, 25.0, 8.5, GREY, &words);
    let who = ctx.input.patient.as_ref().map_or_else(|| ctx.t(Text::NoPatient).to_owned(), |p| p.name.clone());
    let left = format!("{} · {} · {}", ctx.input.branding.company_name, who, ctx.options.clock.format(ctx.input.creation_date_s));
    doc.text(canvas, MARGIN, 25.0, 8.5, GREY, &left);
}

fn page_title(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>, words: &str) -> f32 {
    let top = doc.height() - MARGIN - 18.0;
    doc.text(canvas, MARGIN, top, 14.0, ACCENT, words);
    let kind = ctx.t(kind_text(ctx.input.analysis_type, ctx.input.device_type));
    let w = doc.text_width(kind, 10.0);
    doc.text(canvas, doc.width() - MARGIN - w, top, 10.0, BLACK, kind);
    canvas.line([MARGIN, top - 8.0], [doc.width() - MARGIN, top - 8.0], ACCENT, 1.0);
    top - 30.0
}

fn figures_page(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>, detail: &[Figure]) {
    let mut y = page_title(doc, canvas, ctx, ctx.t(Text::Results));
    for (label, value) in detail {
        if y < BOTTOM + 260.0 && matches!(ctx.input.result, Some(AnalysisResult::Balance(_))) {
            break;
        }
        if y < BOTTOM {
            break;
        }
        if label.is_empty() {
            // A heading over the values' column (a walk's steps): grey, made smaller where a
            // language's words would pass the margin.
            let room = doc.width() - 2.0 * MARGIN - 200.0;
            let size = (BODY_SIZE * room / doc.text_width(value, BODY_SIZE).max(1.0)).min(BODY_SIZE);
            doc.text(canvas, MARGIN + 200.0, y, size, GREY, value);
        } else {
            doc.text(canvas, MARGIN, y, BODY_SIZE, BLACK, label);
            doc.text(canvas, MARGIN + 200.0, y, BODY_SIZE, BLACK, value);
        }
        y -= LINE;
    }
    if let Some(AnalysisResult::Balance(r)) = &ctx.input.result {
        let pitch = cell_pitch_cm(ctx.input.device_type);
        let scatter_cm: Vec<[f64; 2]> = r.body_scatter.iter().map(|p| [p[0] * pitch, p[1] * pitch]).collect();
        sway_plot(doc, canvas, ctx, &scatter_cm, y - 10.0, true);
    }
}

/// A dynamic capture's course, when its result has one to draw: a seat's or a bed's dynamic
/// capture of two frames or more.
fn course_of(result: &AnalysisResult) -> Option<&SeatingResult> {
    match result {
        AnalysisResult::SeatingDynamic(r) if series(&r.additional_parameters, "maxPressureHistoric").is_some_and(|s| s.len() >= 2) => {
            Some(r)
        }
        _ => None,
    }
}

/// A dynamic capture's course over its seconds, as its result's plot panels show it: the
/// maximum and mean pressure (in the report's unit), the contact area, the load on each side,
/// and the centre of pressure's path.
fn course_page(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>, result: &SeatingResult) {
    const RED: Rgb = [0.86, 0.15, 0.15];
    const ORANGE: Rgb = [0.92, 0.35, 0.05];
    const BLUE: Rgb = [0.15, 0.39, 0.92];
    const GREEN: Rgb = [0.09, 0.64, 0.29];
    const PURPLE: Rgb = [0.43, 0.16, 0.85];
    let parameters = &result.additional_parameters;
    let top = page_title(doc, canvas, ctx, ctx.t(Text::OverTheCapture));
    let width = doc.width() - 2.0 * MARGIN;
    let chart = |bottom: f32, height: f32, title: Text, unit: &'static str, fixed_top: Option<f64>| ChartFrame {
        rect: [MARGIN, bottom, width, height],
        title: ctx.t(title),
        unit,
        seconds: ctx.t(Text::SecondsUnit),
        duration_s: result.duration_s,
        fixed_top,
        lang: ctx.lang,
    };
    let pressures = |name: &str| series(parameters, name).unwrap_or_default().iter().map(|&v| ctx.scale.pressure(v)).collect::<Vec<_>>();
    let mut y = top;
    y -= 150.0;
    let lines = [
        ChartLine { label: ctx.t(Text::MaxPressure), colour: RED, values: pressures("maxPressureHistoric") },
        ChartLine { label: ctx.t(Text::MeanPressure), colour: ORANGE, values: pressures("meanPressureHistoric") },
    ];
    time_chart(doc, canvas, &chart(y, 150.0, Text::Pressure, ctx.scale.symbol(), None), &lines, b"PressureOverTime");
    y -= 20.0 + 120.0;
    let area = ChartLine {
        label: ctx.t(Text::ContactArea),
        colour: PURPLE,
        values: series(parameters, "contactArea").unwrap_or_default().to_vec(),
    };
    time_chart(doc, canvas, &chart(y, 120.0, Text::ContactArea, "cm²", None), &[area], b"ContactAreaOverTime");
    y -= 20.0 + 120.0;
    let sides = laterality(parameters);
    let lines = [
        ChartLine { label: ctx.t(Text::Left), colour: BLUE, values: sides.iter().map(|s| s[0] * 100.0).collect() },
        ChartLine { label: ctx.t(Text::Right), colour: GREEN, values: sides.iter().map(|s| s[1] * 100.0).collect() },
    ];
    time_chart(doc, canvas, &chart(y, 120.0, Text::Laterality, "%", Some(100.0)), &lines, b"LateralityOverTime");
    let centres = points(parameters, "centerOfPressure");
    if centres.len() >= 2 {
        let n = centres.len() as f64;
        let (mx, my) = (centres.iter().map(|p| p[0]).sum::<f64>() / n, centres.iter().map(|p| p[1]).sum::<f64>() / n);
        let about_mean: Vec<[f64; 2]> = centres.iter().map(|p| [p[0] - mx, p[1] - my]).collect();
        sway_plot(doc, canvas, ctx, &about_mean, y - 16.0, false);
    }
}

/// The left and right shares of a capture's frames (`lateralityHistoric`).
fn laterality(parameters: &[NamedParameter]) -> Vec<[f64; 2]> {
    parameters
        .iter()
        .find(|p| p.name == "lateralityHistoric")
        .map(|p| match &p.value {
            ParameterValue::Laterality(v) => v.iter().map(|s| [s.l, s.r]).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default()
}

/// A parameter's points (`centerOfPressure`: cm).
fn points(parameters: &[NamedParameter], name: &str) -> Vec<[f64; 2]> {
    parameters
        .iter()
        .find(|p| p.name == name)
        .map(|p| match &p.value {
            ParameterValue::Points(v) => v.clone(),
            _ => Vec::new(),
        })
        .unwrap_or_default()
}

/// The body's centre of pressure over the capture, in cm about its mean (`points_cm`), equal
/// scales on both axes; a balance's with its 95 % confidence ellipse (the one whose area the
/// figures give).
fn sway_plot(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>, points_cm: &[[f64; 2]], top: f32, with_ellipse: bool) {
    let y = heading(doc, canvas, MARGIN, top, doc.width() - 2.0 * MARGIN, ctx.t(Text::CenterOfPressure));
    if points_cm.len() < 2 {
        return;
    }
    let n = points_cm.len() as f64;
    let (mx, my) = (points_cm.iter().map(|p| p[0]).sum::<f64>() / n, points_cm.iter().map(|p| p[1]).sum::<f64>() / n);
    let cm: Vec<[f64; 2]> = points_cm.iter().map(|p| [p[0] - mx, p[1] - my]).collect();
    let (sxx, syy, sxy) = cm.iter().fold((0.0, 0.0, 0.0), |(a, b, c), p| (a + p[0] * p[0], b + p[1] * p[1], c + p[0] * p[1]));
    let (sxx, syy, sxy) = (sxx / (n - 1.0), syy / (n - 1.0), sxy / (n - 1.0));
    // Eigen-decomposition of the 2 × 2 covariance; the 95 % ellipse has semi-axes √(5.991 λ).
    let tr = sxx + syy;
    let det = sxx * syy - sxy * sxy;
    let disc = (tr * tr / 4.0 - det).max(0.0).sqrt();
    let (l1, l2) = (tr / 2.0 + disc, (tr / 2.0 - disc).max(0.0));
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let (a, b) = ((5.991 * l1).sqrt(), (5.991 * l2).sqrt());
    let extent = cm.iter().flat_map(|p| [p[0].abs(), p[1].abs()]).fold(a.max(b), f64::max).max(0.5) * 1.15;
    let side = (y - BOTTOM - 30.0).min(doc.width() - 2.0 * MARGIN - 40.0).max(120.0);
    let (cx, cy) = (doc.width() / 2.0, y - side / 2.0);
    let k = side as f64 / (2.0 * extent);
    let at = |x: f64, yy: f64| [cx + (x * k) as f32, cy - (yy * k) as f32];
    canvas.stroke_rect(cx - side / 2.0, cy - side / 2.0, side, side, GREY, 0.5);
    canvas.line([cx - side / 2.0, cy], [cx + side / 2.0, cy], GREY, 0.3);
    canvas.line([cx, cy - side / 2.0], [cx, cy + side / 2.0], GREY, 0.3);
    let path: Vec<[f32; 2]> = cm.iter().map(|p| at(p[0], p[1])).collect();
    canvas.marked(b"SwayPath", |canvas| canvas.polyline(&path, [0.2, 0.4, 0.8], 0.6));
    let ellipse: Vec<[f32; 2]> = (0..=72)
        .map(|i| {
            let t = f64::from(i) / 72.0 * std::f64::consts::TAU;
            let (ex, ey) = (a * t.cos(), b * t.sin());
            at(ex * angle.cos() - ey * angle.sin(), ex * angle.sin() + ey * angle.cos())
        })
        .collect();
    if with_ellipse {
        canvas.marked(b"Ellipse", |canvas| canvas.polyline(&ellipse, [0.85, 0.1, 0.1], 1.2));
    }
    let lang = ctx.lang;
    let lim = format!("± {} cm", format_number(lang, extent, 1));
    doc.text(canvas, cx + side / 2.0 - doc.text_width(&lim, 8.0), cy - side / 2.0 - 11.0, 8.0, GREY, &lim);
    // The map's own orientation: a body lying along a bed's columns (a square or wide map) from
    // head to feet across the page, its left and right up and down (along the rows of a tall
    // map, the other way round); a standing or seated body's left and right across, front and
    // back up and down.
    let map = &ctx.input.map;
    let (across, up) = match (lying(ctx.input.device_type), lies_along_columns(usize::from(map.rows), usize::from(map.cols))) {
        (true, true) => (Text::AxisHeadFeet, Text::AxisLeftRight),
        (true, false) => (Text::AxisLeftRight, Text::AxisHeadFeet),
        (false, _) => (Text::AxisLeftRight, Text::AxisFrontBack),
    };
    doc.text(canvas, cx - side / 2.0, cy - side / 2.0 - 11.0, 8.0, GREY, ctx.t(across));
    doc.text(canvas, cx - side / 2.0 + 3.0, cy + side / 2.0 - 10.0, 8.0, GREY, ctx.t(up));
}

fn histogram_page(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>) {
    let lang = ctx.lang;
    let y = page_title(doc, canvas, ctx, ctx.t(Text::Histogram));
    let h: Histogram = match &ctx.input.result {
        Some(AnalysisResult::Static(r)) => r.histogram.clone(),
        Some(AnalysisResult::SeatingStatic(r)) => r.histogram.clone(),
        Some(AnalysisResult::BedStatic(r)) => r.histogram.clone(),
        _ => histogram(&ctx.input.map.cells, ctx.floor()),
    };
    let (chart_w, chart_h) = (doc.width() - 2.0 * MARGIN, 300.0);
    let base = y - 30.0 - chart_h;
    let bar_w = chart_w / h.counts.len().max(1) as f32;
    let top = h.percentages.iter().copied().fold(0.0, f64::max).max(1.0) as f32;
    canvas.marked(b"Histogram", |canvas| {
        for (i, &share) in h.percentages.iter().enumerate() {
            let bar_h = chart_h * share as f32 / top;
            canvas.fill_rect(MARGIN + i as f32 * bar_w + 4.0, base, bar_w - 8.0, bar_h, [0.2, 0.4, 0.8]);
        }
    });
    canvas.line([MARGIN, base], [MARGIN + chart_w, base], BLACK, 0.8);
    // Each bin by its upper limit in the unit's decimals, as the result's page lists it ("≤ 3.9"):
    // rounded to whole units, bins 3.9 mmHg wide read as uneven ranges ("16–20", "20–23").
    let d = ctx.scale.decimals();
    for (i, ((&count, &share), &upper)) in h.counts.iter().zip(&h.percentages).zip(&h.bin_upper_bounds).enumerate() {
        let x = MARGIN + i as f32 * bar_w + 4.0;
        let bar_h = chart_h * share as f32 / top;
        doc.text(canvas, x, base + bar_h + 5.0, 8.5, BLACK, &format!("{} %", format_number(lang, share, 1)));
        doc.text(canvas, x, base - 13.0, 8.5, BLACK, &format!("≤ {}", format_number(lang, ctx.scale.pressure(upper), d)));
        doc.text(canvas, x, base - 25.0, 8.0, GREY, &format!("n = {count}"));
    }
    let unit = ctx.scale.symbol();
    let w = doc.text_width(unit, 9.0);
    doc.text(canvas, MARGIN + chart_w - w, base - 40.0, 9.0, BLACK, unit);
}

fn notes_page(doc: &mut Document, canvas: &mut PageCanvas, ctx: &Context<'_>, lines: &[String]) {
    let mut y = page_title(doc, canvas, ctx, ctx.t(Text::Notes));
    for line in lines {
        doc.text(canvas, MARGIN, y, BODY_SIZE, BLACK, line);
        y -= LINE;
    }
}

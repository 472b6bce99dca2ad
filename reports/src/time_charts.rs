//! Line charts over a capture's seconds, for the page of a dynamic capture's course (a seat's or
//! a bed's dynamic analysis): what the result's plot panels show on screen — the pressures, the
//! contact area, the load on each side, frame by frame — drawn on paper. The axis arithmetic is
//! pure ([`axis_top`], [`x_ticks`]); [`time_chart`] draws.

use crate::document::{Document, PageCanvas, Rgb};
use crate::figures::format_number;
use crate::i18n::Language;
use crate::map_drawing::{BLACK, GREY};

/// One line of a chart: its legend, colour and one value per frame, the frames spread evenly
/// over the capture (as the screen's panels spread them).
pub struct ChartLine<'a> {
    pub label: &'a str,
    pub colour: Rgb,
    pub values: Vec<f64>,
}

/// Where a chart goes on the page and what its axes say.
pub struct ChartFrame<'a> {
    /// Left, bottom, width, height of the whole chart (title and axis labels inside), points.
    pub rect: [f32; 4],
    pub title: &'a str,
    /// The values' unit, written after the title ("mmHg", "cm²", "%").
    pub unit: &'a str,
    /// The seconds' symbol of the language ("s", "с", "秒").
    pub seconds: &'a str,
    /// The capture's length, s (the x axis runs from 0 to it).
    pub duration_s: f64,
    /// The y axis's top when it is fixed (100 for shares); otherwise [`axis_top`] of the values.
    pub fixed_top: Option<f64>,
    pub lang: Language,
}

/// The y axis's top for values up to `highest`: the next 1, 2, 2.5 or 5 × 10ⁿ at or above it
/// (1 when nothing is above 0), so the grid lines fall on round numbers.
pub fn axis_top(highest: f64) -> f64 {
    if !highest.is_finite() || highest <= 0.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(highest.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * magnitude).find(|&top| top >= highest * (1.0 - 1e-9)).unwrap_or(10.0 * magnitude)
}

/// The x axis's labelled seconds over `duration_s`: 0, then every round step (1, 2, 5, 10, 15,
/// 30, 60, 120 … s) that gives at most six labels.
pub fn x_ticks(duration_s: f64) -> Vec<f64> {
    if !duration_s.is_finite() || duration_s <= 0.0 {
        return vec![0.0];
    }
    let step = [1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0]
        .into_iter()
        .find(|step| duration_s / step <= 5.0)
        .unwrap_or(3600.0 * (duration_s / 3600.0 / 5.0).ceil());
    (0..).map(|i| f64::from(i) * step).take_while(|t| *t <= duration_s + 1e-9).collect()
}

/// Draws `lines` in `frame`: the title with its unit, the y axis from 0 to its top with three grid
/// lines, the seconds along the bottom, a legend when there is more than one line. Each line is
/// drawn inside a marked-content sequence tagged `tag` (a reader finds the chart by it).
pub fn time_chart(doc: &mut Document, canvas: &mut PageCanvas, frame: &ChartFrame<'_>, lines: &[ChartLine<'_>], tag: &[u8]) {
    let [x0, y0, width, height] = frame.rect;
    let lang = frame.lang;
    let title = format!("{} ({})", frame.title, frame.unit);
    doc.text(canvas, x0, y0 + height - 11.0, 10.0, BLACK, &title);
    // The legend, right-aligned on the title's line.
    if lines.len() > 1 {
        let mut right = x0 + width;
        for line in lines.iter().rev() {
            let w = doc.text_width(line.label, 8.5);
            right -= w;
            doc.text(canvas, right, y0 + height - 11.0, 8.5, BLACK, line.label);
            canvas.fill_rect(right - 14.0, y0 + height - 9.0, 10.0, 3.0, line.colour);
            right -= 26.0;
        }
    }
    let highest = lines.iter().flat_map(|l| l.values.iter().copied()).filter(|v| v.is_finite()).fold(0.0, f64::max);
    let top = frame.fixed_top.unwrap_or_else(|| axis_top(highest));
    let decimals = if top < 10.0 { 1 } else { 0 };
    // The plot's own box: room for the y labels on the left and the x labels below.
    let label_w = [0.0, 0.5, 1.0].iter().map(|f| doc.text_width(&format_number(lang, top * f, decimals), 8.0)).fold(0.0, f32::max);
    let (px, py) = (x0 + label_w + 6.0, y0 + 24.0);
    let (pw, ph) = (width - label_w - 6.0, height - 24.0 - 20.0);
    for f in [0.0f32, 0.5, 1.0] {
        let y = py + ph * f;
        canvas.line([px, y], [px + pw, y], if f == 0.0 { BLACK } else { GREY }, if f == 0.0 { 0.8 } else { 0.3 });
        let label = format_number(lang, top * f64::from(f), decimals);
        doc.text(canvas, px - 4.0 - doc.text_width(&label, 8.0), y - 3.0, 8.0, GREY, &label);
    }
    let duration = frame.duration_s.max(f64::EPSILON);
    for t in x_ticks(frame.duration_s) {
        let x = px + pw * (t / duration) as f32;
        canvas.line([x, py], [x, py - 3.0], BLACK, 0.5);
        let label = format_number(lang, t, 0);
        doc.text(canvas, x - doc.text_width(&label, 8.0) / 2.0, py - 12.0, 8.0, GREY, &label);
    }
    let seconds_w = doc.text_width(frame.seconds, 8.0);
    doc.text(canvas, px + pw - seconds_w, py - 22.0, 8.0, GREY, frame.seconds);
    canvas.marked(tag, |canvas| {
        for line in lines {
            let n = line.values.len();
            if n < 2 {
                continue;
            }
            let points: Vec<[f32; 2]> = line
                .values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let share = (v.max(0.0) / top).min(1.0) as f32;
                    [px + pw * i as f32 / (n - 1) as f32, py + ph * share]
                })
                .collect();
            canvas.polyline(&points, line.colour, 1.0);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_y_axis_ends_on_a_round_number_at_or_above_the_highest_value() {
        assert_eq!(axis_top(0.0), 1.0);
        assert_eq!(axis_top(-3.0), 1.0);
        assert_eq!(axis_top(f64::NAN), 1.0);
        assert_eq!(axis_top(1.0), 1.0);
        assert_eq!(axis_top(1.01), 2.0);
        assert_eq!(axis_top(2.3), 2.5);
        assert_eq!(axis_top(116.0), 200.0);
        assert_eq!(axis_top(142.0), 200.0);
        assert_eq!(axis_top(39.8), 50.0);
        assert_eq!(axis_top(790.0), 1000.0);
        assert_eq!(axis_top(0.42), 0.5);
    }

    #[test]
    fn the_seconds_are_labelled_at_round_steps_at_most_six_times() {
        assert_eq!(x_ticks(0.0), vec![0.0]);
        assert_eq!(x_ticks(4.0), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(x_ticks(29.8), vec![0.0, 10.0, 20.0]);
        assert_eq!(x_ticks(30.0), vec![0.0, 10.0, 20.0, 30.0]);
        assert_eq!(x_ticks(60.0), vec![0.0, 15.0, 30.0, 45.0, 60.0]);
        for d in [0.5, 7.0, 15.0, 59.0, 61.0, 299.0, 900.0, 86_400.0] {
            let ticks = x_ticks(d);
            assert!(ticks.len() <= 6 && ticks[0] == 0.0 && *ticks.last().unwrap() <= d, "{d}: {ticks:?}");
        }
    }
}

//! The real-scale print of `POST /api/downloadRealScalePDF/{id}` (spec §5, §7): the map drawn
//! with each cell as large as the device's cell pitch on A3 or A4, and a 10 cm scale bar so the
//! user can check that the printer kept the scale.

use mat_core::analysis::units::{ACTIVE_THRESHOLD, cell_pitch_cm};

use crate::ReportError;
use crate::analysis_report::format_date;
use crate::document::{Document, POINTS_PER_CM};
use crate::i18n::{Text, text};
use crate::input::{RealScaleInput, ReportMap};
use crate::layout::PaperSize;
use crate::map_drawing::{BLACK, GREY, MapPlacement, draw_map};

/// Spec §5: the scale bar is 10 cm long.
pub const SCALE_BAR_CM: f32 = 10.0;
/// Page margin, 15 mm.
const MARGIN: f32 = 1.5 * POINTS_PER_CM;
/// Room kept for the title block at the top and the scale bar at the bottom.
const HEADER: f32 = 80.0;
const FOOTER: f32 = 70.0;

/// Renders the map at real scale on `paper`.
///
/// The printed area is the active part of the map (cells ≥ 5) with one cell of margin, centred
/// on the page. When it does not fit the paper (a 48 × 48 plate at 2 cm is 96 cm), as many cells
/// as fit are printed around the centre of pressure and a note says so. The scale bar is a
/// marked-content section `ScaleBar` holding one rectangle exactly 10 cm (283.46 pt) long.
pub fn real_scale_pdf(input: &RealScaleInput, paper: PaperSize) -> Result<Vec<u8>, ReportError> {
    input.map.check()?;
    let (width, height) = paper.points();
    let mut doc = Document::new(width, height)?;
    let lang = input.language;
    let cell = cell_pitch_cm(input.device_type) as f32 * POINTS_PER_CM;
    let (avail_w, avail_h) = (width - 2.0 * MARGIN, height - 2.0 * MARGIN - HEADER - FOOTER);
    let (mut window, clipped) = printed_window(&input.map, (avail_w / cell) as usize, (avail_h / cell) as usize);
    window.cell = cell;
    window.left = (width - window.cols as f32 * cell) / 2.0;
    window.top = height - MARGIN - HEADER - (avail_h - window.rows as f32 * cell) / 2.0;
    let scale_max = input.map.max().max(1);
    doc.page(|doc, canvas| {
        let mut y = height - MARGIN - 16.0;
        doc.text(canvas, MARGIN, y, 16.0, BLACK, text(lang, Text::RealScaleTitle));
        y -= 20.0;
        let who = input.patient_name.clone().unwrap_or_else(|| text(lang, Text::NoPatient).to_owned());
        let line = format!("{who} · {} · {}", input.device_name, format_date(input.creation_date_s));
        doc.text(canvas, MARGIN, y, 10.0, BLACK, &line);
        y -= 15.0;
        doc.text(canvas, MARGIN, y, 9.0, GREY, text(lang, Text::PrintActualSize));
        if clipped {
            doc.text(canvas, MARGIN, y - 13.0, 9.0, [0.8, 0.3, 0.0], text(lang, Text::Clipped));
        }
        draw_map(canvas, &input.map, &window, input.palette, scale_max);

        let bar_len = SCALE_BAR_CM * POINTS_PER_CM;
        let (bar_x, bar_y) = (MARGIN, MARGIN + 28.0);
        canvas.marked(b"ScaleBar", |canvas| canvas.fill_rect(bar_x, bar_y, bar_len, 5.0, BLACK));
        for cm in 0..=SCALE_BAR_CM as u32 {
            let x = bar_x + cm as f32 * POINTS_PER_CM;
            let tick = if cm % 5 == 0 { 9.0 } else { 5.0 };
            canvas.line([x, bar_y + 5.0], [x, bar_y + 5.0 + tick], BLACK, 0.6);
        }
        doc.text(canvas, bar_x, bar_y - 14.0, 10.0, BLACK, "0");
        let label = format!("{} cm", SCALE_BAR_CM);
        let w = doc.text_width(&label, 10.0);
        doc.text(canvas, bar_x + bar_len - w / 2.0, bar_y - 14.0, 10.0, BLACK, &label);
    });
    Ok(doc.finish())
}

/// The cells to print: the active bounding box plus one cell, or, when more than `max_cols` ×
/// `max_rows` cells, a window of that size centred on the centre of pressure (clamped to the
/// map). Returns the window (position fields unset) and whether it had to be cut.
fn printed_window(map: &ReportMap, max_cols: usize, max_rows: usize) -> (MapPlacement, bool) {
    let (rows, cols) = (map.rows as usize, map.cols as usize);
    let mut bounds: Option<[usize; 4]> = None; // row0, row1, col0, col1 (inclusive)
    let (mut load, mut sum_x, mut sum_y) = (0f64, 0f64, 0f64);
    for r in 0..rows {
        for c in 0..cols {
            let v = map.value(r, c);
            load += f64::from(v);
            sum_x += f64::from(v) * c as f64;
            sum_y += f64::from(v) * r as f64;
            if v >= ACTIVE_THRESHOLD {
                bounds = Some(match bounds {
                    None => [r, r, c, c],
                    Some([r0, r1, c0, c1]) => [r0.min(r), r1.max(r), c0.min(c), c1.max(c)],
                });
            }
        }
    }
    let [r0, r1, c0, c1] = bounds.unwrap_or([0, rows.saturating_sub(1), 0, cols.saturating_sub(1)]);
    let (r0, r1) = (r0.saturating_sub(1), (r1 + 1).min(rows.saturating_sub(1)));
    let (c0, c1) = (c0.saturating_sub(1), (c1 + 1).min(cols.saturating_sub(1)));
    let (want_rows, want_cols) = (r1 + 1 - r0, c1 + 1 - c0);
    let centre = if load > 0.0 { [sum_y / load, sum_x / load] } else { [rows as f64 / 2.0, cols as f64 / 2.0] };
    let fit = |start: usize, want: usize, max: usize, size: usize, centre: f64| -> (usize, usize, bool) {
        if want <= max {
            return (start, want, false);
        }
        let count = max.clamp(1, size);
        let first = (centre - count as f64 / 2.0).round().max(0.0) as usize;
        (first.min(size - count), count, true)
    };
    let (row0, rows_out, cut_r) = fit(r0, want_rows, max_rows, rows, centre[0]);
    let (col0, cols_out, cut_c) = fit(c0, want_cols, max_cols, cols, centre[1]);
    (MapPlacement { row0, col0, rows: rows_out, cols: cols_out, left: 0.0, top: 0.0, cell: 0.0 }, cut_r || cut_c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_is_the_active_box_plus_one_cell() {
        // 10×10 map, active cells (3, 4) and (5, 6): rows 2..=6, columns 3..=7.
        let mut cells = vec![0u16; 100];
        cells[3 * 10 + 4] = 50;
        cells[5 * 10 + 6] = 50;
        let map = ReportMap { rows: 10, cols: 10, cells };
        let (w, clipped) = printed_window(&map, 20, 20);
        assert!(!clipped);
        assert_eq!((w.row0, w.rows, w.col0, w.cols), (2, 5, 3, 5));
        // Only 3 columns fit: centred on the CoP column 5 → columns 4..=6 (start round(5 − 1.5) = 4).
        let (w, clipped) = printed_window(&map, 3, 20);
        assert!(clipped);
        assert_eq!((w.col0, w.cols, w.row0, w.rows), (4, 3, 2, 5));
    }
}

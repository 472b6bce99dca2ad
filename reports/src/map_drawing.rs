//! Draws a pressure map as coloured cells, with optional centre-of-pressure markers and a colour
//! scale.

use crate::document::{Document, PageCanvas, Rgb};
use crate::figures::format_number;
use crate::i18n::Language;
use crate::input::ReportMap;
use crate::palette::Palette;
use crate::pressure_unit::PressureScale;

/// Outline grey.
pub const GREY: Rgb = [0.6, 0.6, 0.6];
/// Text black.
pub const BLACK: Rgb = [0.0, 0.0, 0.0];

/// Which part of a map to draw and where: `rows` × `cols` cells starting at (`row0`, `col0`),
/// each `cell` points square, the top-left corner at (`left`, `top`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapPlacement {
    pub row0: usize,
    pub col0: usize,
    pub rows: usize,
    pub cols: usize,
    pub left: f32,
    pub top: f32,
    pub cell: f32,
}

impl MapPlacement {
    /// The whole map fitted into a `width × height` box whose top-left corner is (`left`, `top`).
    pub fn fit(map: &ReportMap, left: f32, top: f32, width: f32, height: f32) -> MapPlacement {
        let (rows, cols) = (map.rows as usize, map.cols as usize);
        let cell = (width / cols.max(1) as f32).min(height / rows.max(1) as f32);
        MapPlacement { row0: 0, col0: 0, rows, cols, left, top, cell }
    }

    /// Page position of the centre of map point (x = column, y = row), in cells.
    pub fn point(&self, x: f64, y: f64) -> [f32; 2] {
        let px = self.left + (x as f32 - self.col0 as f32 + 0.5) * self.cell;
        let py = self.top - (y as f32 - self.row0 as f32 + 0.5) * self.cell;
        [px, py]
    }
}

/// Paints the cells of `placement` at or above `floor` (the device's noise floor: the cells below
/// it are background and stay paper white, so sensor noise never speckles the map) inside a
/// marked-content section `PressureMap`, then outlines the drawn area. The section works in cell
/// units (one `cm` maps a cell to `placement.cell` points) and paints each value's cells as one
/// path, so a 48 × 48 map costs one colour per distinct value instead of one per cell.
pub fn draw_map(canvas: &mut PageCanvas, map: &ReportMap, placement: &MapPlacement, palette: Palette, floor: u16, scale_max: u16) {
    let p = *placement;
    let mut cells: Vec<(u16, i32, i32)> = Vec::new();
    for r in p.row0..(p.row0 + p.rows).min(map.rows as usize) {
        for c in p.col0..(p.col0 + p.cols).min(map.cols as usize) {
            let v = map.value(r, c);
            if v != 0 && v >= floor {
                // Lower-left corner in cell units from the placement's top-left corner.
                cells.push((v, (c - p.col0) as i32, -((r - p.row0 + 1) as i32)));
            }
        }
    }
    cells.sort_unstable_by_key(|&(v, _, _)| v);
    canvas.marked(b"PressureMap", |canvas| {
        canvas.scaled(p.left, p.top, p.cell, |canvas| {
            for same_value in cells.chunk_by(|a, b| a.0 == b.0) {
                let colour = palette.colour(same_value[0].0, scale_max);
                canvas.fill_unit_squares(colour, same_value.iter().map(|&(_, x, y)| (x, y)));
            }
        });
    });
    canvas.stroke_rect(p.left, p.top - p.rows as f32 * p.cell, p.cols as f32 * p.cell, p.rows as f32 * p.cell, GREY, 0.5);
}

/// A cross marking a centre of pressure.
pub fn draw_marker(canvas: &mut PageCanvas, at: [f32; 2], size: f32, colour: Rgb) {
    canvas.line([at[0] - size, at[1]], [at[0] + size, at[1]], colour, 1.2);
    canvas.line([at[0], at[1] - size], [at[0], at[1] + size], colour, 1.2);
}

/// A horizontal colour bar from `floor` to `scale_max` (sensor units), `width × height` points at
/// (`x`, `y`), labelled underneath at both ends and the middle in the report's pressure unit.
#[allow(clippy::too_many_arguments)]
pub fn draw_colour_bar(
    doc: &mut Document,
    canvas: &mut PageCanvas,
    (x, y, width, height): (f32, f32, f32, f32),
    palette: Palette,
    floor: u16,
    scale_max: u16,
    scale: &PressureScale,
    lang: Language,
) {
    const STEPS: u32 = 48;
    let (low, high) = (u32::from(floor.max(1)), u32::from(scale_max.max(floor.max(1))));
    let step = width / STEPS as f32;
    canvas.marked(b"ColourBar", |canvas| {
        for i in 0..STEPS {
            let value = (low + (high - low) * (i + 1) / STEPS) as u16;
            canvas.fill_rect(x + i as f32 * step, y, step + 0.2, height, palette.colour(value.max(1), scale_max.max(1)));
        }
    });
    canvas.stroke_rect(x, y, width, height, GREY, 0.5);
    let label = |v: f64| format_number(lang, scale.pressure(v), if scale.pressure(f64::from(high)) >= 20.0 { 0 } else { scale.decimals() });
    let (lo, mid, hi) =
        (label(f64::from(low)), label(f64::from(low + high) / 2.0), format!("{} {}", label(f64::from(high)), scale.symbol()));
    doc.text(canvas, x, y - 11.0, 8.5, BLACK, &lo);
    let w = doc.text_width(&mid, 8.5);
    doc.text(canvas, x + (width - w) / 2.0, y - 11.0, 8.5, BLACK, &mid);
    let w = doc.text_width(&hi, 8.5);
    doc.text(canvas, x + width - w, y - 11.0, 8.5, BLACK, &hi);
}

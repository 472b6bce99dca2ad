//! Draws a pressure map as coloured cells, with optional centre-of-pressure markers and a colour
//! scale.

use crate::document::{PageCanvas, Rgb};
use crate::input::ReportMap;
use crate::palette::Palette;

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

/// Paints the cells of `placement` (non-zero cells only; zero stays paper white) inside a
/// marked-content section `PressureMap`, then outlines the drawn area. The section works in cell
/// units (one `cm` maps a cell to `placement.cell` points) and paints each value's cells as one
/// path, so a 48 × 48 map costs one colour per distinct value instead of one per cell.
pub fn draw_map(canvas: &mut PageCanvas, map: &ReportMap, placement: &MapPlacement, palette: Palette, scale_max: u16) {
    let p = *placement;
    let mut cells: Vec<(u16, i32, i32)> = Vec::new();
    for r in p.row0..(p.row0 + p.rows).min(map.rows as usize) {
        for c in p.col0..(p.col0 + p.cols).min(map.cols as usize) {
            let v = map.value(r, c);
            if v != 0 {
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
    canvas.stroke_rect(
        p.left,
        p.top - p.rows as f32 * p.cell,
        p.cols as f32 * p.cell,
        p.rows as f32 * p.cell,
        GREY,
        0.5,
    );
}

/// A cross marking a centre of pressure.
pub fn draw_marker(canvas: &mut PageCanvas, at: [f32; 2], size: f32, colour: Rgb) {
    canvas.line([at[0] - size, at[1]], [at[0] + size, at[1]], colour, 1.2);
    canvas.line([at[0], at[1] - size], [at[0], at[1] + size], colour, 1.2);
}

/// A horizontal colour scale from 0 to `scale_max`, `width × height` points at (`x`, `y`).
pub fn draw_colour_scale(
    canvas: &mut PageCanvas,
    x: f32,
    y: f32,
    width: f32,
    height: f32,
    palette: Palette,
    scale_max: u16,
) {
    const STEPS: u16 = 32;
    for i in 0..STEPS {
        let value = ((u32::from(i) + 1) * u32::from(scale_max.max(1)) / u32::from(STEPS)) as u16;
        let step = width / f32::from(STEPS);
        canvas.fill_rect(x + f32::from(i) * step, y, step, height, palette.colour(value.max(1), scale_max.max(1)));
    }
    canvas.stroke_rect(x, y, width, height, GREY, 0.5);
}

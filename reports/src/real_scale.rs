//! The real-scale print of `POST /api/downloadRealScalePDF/{id}` (spec §5, §7): the footprint
//! drawn with each cell as large as the device's cell pitch on A3 or A4, its outline, and a 10 cm
//! scale bar so the user can check that the printer kept the scale.
//!
//! Every loaded cell is printed, never an empty crop: the loaded area (cells at or above the
//! device's noise floor, plus one cell of margin) on one page when it fits; otherwise each foot
//! on a page of its own (a podology plate's feet, split as the analysis splits them); and a part
//! still too large for the paper (a body on a bed) in as many page-sized parts as it needs, each
//! saying which part it is.

use mat_core::analysis::PressureFrame;
use mat_core::analysis::feet::split_feet;
use mat_core::analysis::units::{active_floor, cell_pitch_cm};

use crate::ReportError;
use crate::document::{Document, POINTS_PER_CM, PageCanvas};
use crate::figures::StaticBody;
use crate::i18n::{Text, text};
use crate::input::{RealScaleInput, ReportMap};
use crate::layout::PaperSize;
use crate::map_drawing::{BLACK, GREY, MapPlacement, draw_map};

/// Spec §5: the scale bar is 10 cm long.
pub const SCALE_BAR_CM: f32 = 10.0;
/// Page margin, 12 mm.
const MARGIN: f32 = 1.2 * POINTS_PER_CM;
/// Room kept for the title block at the top and the scale bar at the bottom.
const HEADER: f32 = 62.0;
const FOOTER: f32 = 58.0;
const OUTLINE: [f32; 3] = [0.1, 0.1, 0.1];

/// Cells of a map, rows and columns half-open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellBox {
    pub rows: (usize, usize),
    pub cols: (usize, usize),
}

impl CellBox {
    fn height(&self) -> usize {
        self.rows.1 - self.rows.0
    }
    fn width(&self) -> usize {
        self.cols.1 - self.cols.0
    }
}

/// One printed page: the cells it shows and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedPart {
    pub cells: CellBox,
    /// The foot it shows, when the feet were printed apart.
    pub foot: Option<Text>,
    /// Part `k` of `n` when the area had to be cut into page-sized parts.
    pub part: Option<(usize, usize)>,
}

/// The cells of `within` at or above `floor`, as a box grown by one cell (clamped to `within`);
/// `None` when none is.
fn loaded_box(map: &ReportMap, within: CellBox, floor: u16) -> Option<CellBox> {
    let mut b: Option<[usize; 4]> = None;
    for r in within.rows.0..within.rows.1 {
        for c in within.cols.0..within.cols.1 {
            if map.value(r, c) >= floor {
                b = Some(match b {
                    None => [r, r, c, c],
                    Some([r0, r1, c0, c1]) => [r0.min(r), r1.max(r), c0.min(c), c1.max(c)],
                });
            }
        }
    }
    let [r0, r1, c0, c1] = b?;
    Some(CellBox {
        rows: (r0.saturating_sub(1).max(within.rows.0), (r1 + 2).min(within.rows.1)),
        cols: (c0.saturating_sub(1).max(within.cols.0), (c1 + 2).min(within.cols.1)),
    })
}

/// What to print on which page, for paper holding `max_rows × max_cols` cells.
pub fn printed_parts(map: &ReportMap, body: StaticBody, floor: u16, max_rows: usize, max_cols: usize) -> Vec<PrintedPart> {
    let (rows, cols) = (map.rows as usize, map.cols as usize);
    let whole = CellBox { rows: (0, rows), cols: (0, cols) };
    let (max_rows, max_cols) = (max_rows.max(1), max_cols.max(1));
    let fits = |b: &CellBox| b.height() <= max_rows && b.width() <= max_cols;
    let Some(all) = loaded_box(map, whole, floor) else {
        // Nothing loaded: the map's top-left corner, so the page still shows the empty plate.
        return vec![PrintedPart {
            cells: CellBox { rows: (0, rows.min(max_rows)), cols: (0, cols.min(max_cols)) },
            foot: None,
            part: None,
        }];
    };
    if fits(&all) {
        return vec![PrintedPart { cells: all, foot: None, part: None }];
    }
    let mut areas: Vec<(CellBox, Option<Text>)> = vec![(all, None)];
    if body == StaticBody::Feet
        && let Ok(frame) = PressureFrame::new(map.rows, map.cols, map.cells.clone())
        && let Some(split) = split_feet(&frame)
    {
        let feet: Vec<(CellBox, Option<Text>)> = [(split.left, Text::LeftFoot), (split.right, Text::RightFoot)]
            .into_iter()
            .filter_map(|(region, name)| {
                let within = CellBox { rows: (0, rows), cols: (region.col_start, region.col_end.min(cols)) };
                loaded_box(map, within, floor).map(|b| (b, Some(name)))
            })
            .collect();
        if !feet.is_empty() {
            areas = feet;
        }
    }
    let mut parts = Vec::new();
    for (area, foot) in areas {
        if fits(&area) {
            parts.push(PrintedPart { cells: area, foot, part: None });
            continue;
        }
        // Page-sized tiles, centred on the area so the cut falls evenly; tiles with no loaded
        // cell are left out.
        let tiles = |(start, end): (usize, usize), max: usize| -> Vec<(usize, usize)> {
            let n = (end - start).div_ceil(max);
            let size = (end - start).div_ceil(n);
            (0..n).map(|i| (start + i * size, (start + (i + 1) * size).min(end))).collect()
        };
        let boxes: Vec<CellBox> = tiles(area.rows, max_rows)
            .into_iter()
            .flat_map(|r| tiles(area.cols, max_cols).into_iter().map(move |c| CellBox { rows: r, cols: c }))
            .filter(|b| loaded_box(map, *b, floor).is_some())
            .collect();
        let n = boxes.len();
        parts.extend(boxes.into_iter().enumerate().map(|(k, cells)| PrintedPart { cells, foot, part: Some((k + 1, n)) }));
    }
    parts
}

/// Renders the real-scale print on `paper`: one page per [`printed_parts`] entry. The scale bar
/// is a marked-content section `ScaleBar` holding one rectangle exactly 10 cm (283.46 pt) long;
/// the footprint's outline is the section `Outline`.
pub fn real_scale_pdf(input: &RealScaleInput, paper: PaperSize) -> Result<Vec<u8>, ReportError> {
    input.map.check()?;
    let (width, height) = paper.points();
    let mut doc = Document::new(width, height)?;
    let lang = input.language;
    let cell = cell_pitch_cm(input.device_type) as f32 * POINTS_PER_CM;
    let (avail_w, avail_h) = (width - 2.0 * MARGIN, height - 2.0 * MARGIN - HEADER - FOOTER);
    let floor = active_floor(input.device_type);
    let parts = printed_parts(&input.map, StaticBody::of(input.device_type), floor, (avail_h / cell) as usize, (avail_w / cell) as usize);
    let scale_max = input.map.max().max(1);
    let cut = parts.len() > 1;
    for part in &parts {
        doc.page(|doc, canvas| {
            let mut y = height - MARGIN - 14.0;
            doc.text(canvas, MARGIN, y, 14.0, BLACK, text(lang, Text::RealScaleTitle));
            let mut which = Vec::new();
            if let Some(foot) = part.foot {
                which.push(text(lang, foot).to_owned());
            }
            if let Some((k, n)) = part.part {
                which.push(format!("{k} / {n}"));
            }
            if !which.is_empty() {
                let words = which.join(" · ");
                let w = doc.text_width(&words, 14.0);
                doc.text(canvas, width - MARGIN - w, y, 14.0, BLACK, &words);
            }
            y -= 17.0;
            let who = input.patient_name.clone().unwrap_or_else(|| text(lang, Text::NoPatient).to_owned());
            let mut line = vec![who];
            if !input.company_name.is_empty() {
                line.push(input.company_name.clone());
            }
            if !input.device_name.is_empty() {
                line.push(input.device_name.clone());
            }
            line.push(input.clock.format(input.creation_date_s));
            doc.text(canvas, MARGIN, y, 9.5, BLACK, &line.join(" · "));
            y -= 13.0;
            doc.text(canvas, MARGIN, y, 8.5, GREY, text(lang, Text::PrintActualSize));
            if cut && part.part.is_some() {
                doc.text(canvas, MARGIN, y - 12.0, 8.5, [0.7, 0.3, 0.0], text(lang, Text::Clipped));
            }
            let b = part.cells;
            let placement = MapPlacement {
                row0: b.rows.0,
                col0: b.cols.0,
                rows: b.height(),
                cols: b.width(),
                cell,
                left: (width - b.width() as f32 * cell) / 2.0,
                top: height - MARGIN - HEADER - (avail_h - b.height() as f32 * cell) / 2.0,
            };
            draw_map(canvas, &input.map, &placement, input.palette, floor, scale_max);
            draw_outline(canvas, &input.map, &placement, floor);
            scale_bar(doc, canvas);
        });
    }
    Ok(doc.finish())
}

/// The footprint's outline: every cell edge between a cell at or above `floor` and one below
/// it (or the map's edge), inside the placement.
fn draw_outline(canvas: &mut PageCanvas, map: &ReportMap, p: &MapPlacement, floor: u16) {
    let (rows, cols) = (map.rows as usize, map.cols as usize);
    let loaded =
        |r: isize, c: isize| r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols && map.value(r as usize, c as usize) >= floor;
    let corner = |r: usize, c: usize| [p.left + (c - p.col0) as f32 * p.cell, p.top - (r - p.row0) as f32 * p.cell];
    canvas.marked(b"Outline", |canvas| {
        for r in p.row0..p.row0 + p.rows {
            for c in p.col0..p.col0 + p.cols {
                if !loaded(r as isize, c as isize) {
                    continue;
                }
                let (ri, ci) = (r as isize, c as isize);
                if !loaded(ri - 1, ci) {
                    canvas.line(corner(r, c), corner(r, c + 1), OUTLINE, 1.0);
                }
                if !loaded(ri + 1, ci) {
                    canvas.line(corner(r + 1, c), corner(r + 1, c + 1), OUTLINE, 1.0);
                }
                if !loaded(ri, ci - 1) {
                    canvas.line(corner(r, c), corner(r + 1, c), OUTLINE, 1.0);
                }
                if !loaded(ri, ci + 1) {
                    canvas.line(corner(r, c + 1), corner(r + 1, c + 1), OUTLINE, 1.0);
                }
            }
        }
    });
}

fn scale_bar(doc: &mut Document, canvas: &mut PageCanvas) {
    let bar_len = SCALE_BAR_CM * POINTS_PER_CM;
    let (bar_x, bar_y) = (MARGIN, MARGIN + 24.0);
    canvas.marked(b"ScaleBar", |canvas| canvas.fill_rect(bar_x, bar_y, bar_len, 5.0, BLACK));
    for cm in 0..=SCALE_BAR_CM as u32 {
        let x = bar_x + cm as f32 * POINTS_PER_CM;
        let tick = if cm % 5 == 0 { 9.0 } else { 5.0 };
        canvas.line([x, bar_y + 5.0], [x, bar_y + 5.0 + tick], BLACK, 0.6);
    }
    doc.text(canvas, bar_x, bar_y - 13.0, 10.0, BLACK, "0");
    let label = format!("{} cm", SCALE_BAR_CM);
    let w = doc.text_width(&label, 10.0);
    doc.text(canvas, bar_x + bar_len - w / 2.0, bar_y - 13.0, 10.0, BLACK, &label);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feet(rows: usize, cols: usize) -> ReportMap {
        // Feet in columns 14..=19 and 28..=33, rows 10..=33, noise of 2 everywhere else.
        let mut cells = vec![2u16; rows * cols];
        for r in 10..=33 {
            for c in (14..=19).chain(28..=33) {
                cells[r * cols + c] = 90;
            }
        }
        ReportMap { rows: rows as u16, cols: cols as u16, cells }
    }

    #[test]
    fn the_loaded_area_on_one_page_when_it_fits() {
        let map = feet(48, 48);
        let parts = printed_parts(&map, StaticBody::Feet, 5, 30, 30);
        assert_eq!(parts, vec![PrintedPart { cells: CellBox { rows: (9, 35), cols: (13, 35) }, foot: None, part: None }]);
    }

    #[test]
    fn each_foot_on_its_own_page_when_both_do_not_fit() {
        // 26 rows fit, 22 columns do not: one page per foot, each foot whole with its margin.
        let map = feet(48, 48);
        let parts = printed_parts(&map, StaticBody::Feet, 5, 26, 12);
        assert_eq!(
            parts,
            vec![
                PrintedPart { cells: CellBox { rows: (9, 35), cols: (13, 21) }, foot: Some(Text::LeftFoot), part: None },
                PrintedPart { cells: CellBox { rows: (9, 35), cols: (27, 35) }, foot: Some(Text::RightFoot), part: None },
            ]
        );
        // A foot taller than the paper is cut in two halves, each with loaded cells; never a crop
        // of empty plate.
        let parts = printed_parts(&map, StaticBody::Feet, 5, 14, 12);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts[0].cells, CellBox { rows: (9, 22), cols: (13, 21) });
        assert_eq!(parts[1].cells, CellBox { rows: (22, 35), cols: (13, 21) });
        assert_eq!((parts[1].foot, parts[1].part), (Some(Text::LeftFoot), Some((2, 2))));
        for part in &parts {
            assert!(loaded_box(&map, part.cells, 5).is_some());
        }
    }
}

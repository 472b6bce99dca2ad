//! Where the feet are on a podology map: the left/right split (a gap of more than 5 empty
//! columns, spec §9) and each foot's forefoot/heel split at 0.7 of its length.

use super::frame::{PressureFrame, Region};

/// Spec §9: the feet are told apart only across a column gap over 5.
pub const FOOT_GAP_COLUMNS: usize = 5;
/// Spec §9: the forefoot/heel boundary lies at 0.7 of the foot's length from its front.
pub const FOREFOOT_SHARE_OF_LENGTH: f64 = 0.7;

/// The two feet of a map: column ranges (half-open) of the left and right foot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FootSplit {
    /// Columns of the left foot (the lower column indices).
    pub left: Region,
    /// Columns of the right foot.
    pub right: Region,
    /// Whether a gap of more than 5 empty columns separated them. When not, the map was cut at
    /// its global centre of pressure, which is a guess the report should show as such.
    pub separated: bool,
}

/// Splits a map into left and right foot.
///
/// The active columns (any cell ≥ 5) are scanned for the widest run of empty columns between two
/// active ones; if that run is wider than 5 columns the feet are the two sides of it, cut in
/// its middle. Otherwise the feet touch and the map is cut at the column of the global centre of
/// pressure. `None` when no cell is active.
pub fn split_feet(map: &PressureFrame) -> Option<FootSplit> {
    let (rows, cols) = (map.rows() as usize, map.cols() as usize);
    let active_columns: Vec<usize> = (0..cols).filter(|&c| (0..rows).any(|r| map.is_active(map.value(r, c)))).collect();
    if active_columns.is_empty() {
        return None;
    }
    // Widest gap; the left-most wins a tie (only reachable with three or more prints).
    let widest =
        active_columns.windows(2).map(|w| (w[1] - w[0] - 1, w[0], w[1])).fold(
            None,
            |best: Option<(usize, usize, usize)>, gap| match best {
                Some(b) if b.0 >= gap.0 => Some(b),
                _ => Some(gap),
            },
        );
    let whole = |col_start, col_end| Region { row_start: 0, row_end: rows, col_start, col_end };
    if let Some((gap, last_left, first_right)) = widest
        && gap > FOOT_GAP_COLUMNS
    {
        // Cut in the middle of the gap. The gap has no active cell but may hold noise below 5;
        // a column exactly in the middle belongs to neither foot, so a mirrored map is cut at
        // the mirrored place.
        let middle = (last_left + first_right) as f64 / 2.0;
        let (left_end, right_start) = cut_at(middle);
        return Some(FootSplit { left: whole(0, left_end), right: whole(right_start, cols), separated: true });
    }
    let cop_x = map.region_stats(&map.full_region()).center_of_pressure?[0];
    // Columns left of the centre of pressure are the left foot, those right of it the right one.
    let (left_end, right_start) = cut_at(cop_x);
    Some(FootSplit { left: whole(0, left_end), right: whole(right_start.min(cols), cols), separated: false })
}

/// Column ranges either side of position `x`: columns `< x` and columns `> x` (a column exactly
/// at `x` is in neither).
fn cut_at(x: f64) -> (usize, usize) {
    let left_end = x.ceil().max(0.0) as usize;
    let right_start = (x.floor() + 1.0).max(0.0) as usize;
    (left_end, right_start)
}

/// A foot's front (toes to 0.7 of its length) and back (heel) rows within its columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForefootHeel {
    /// Forefoot rows (towards row 0).
    pub front: Region,
    /// Heel rows.
    pub back: Region,
}

/// Splits one foot (its column region) into forefoot and heel.
///
/// The foot runs from its first active row (the toes; row 0 is the front of the plate) to its
/// last. Rows up to first + 0.7 × (last − first) are the forefoot, the rest the heel. `None` when
/// the foot has no active cell.
pub fn split_forefoot_heel(map: &PressureFrame, foot: &Region) -> Option<ForefootHeel> {
    let active_row = |r: usize| (foot.col_start..foot.col_end.min(map.cols() as usize)).any(|c| map.is_active(map.value(r, c)));
    let first = (foot.row_start..foot.row_end).find(|&r| active_row(r))?;
    let last = (foot.row_start..foot.row_end).rev().find(|&r| active_row(r))?;
    let boundary = first as f64 + FOREFOOT_SHARE_OF_LENGTH * (last - first) as f64;
    // Rows at or before the boundary are the forefoot.
    let first_heel_row = boundary.floor() as usize + 1;
    Some(ForefootHeel { front: Region { row_end: first_heel_row, ..*foot }, back: Region { row_start: first_heel_row, ..*foot } })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 12-column map with prints in the given columns (rows 2..8, pressure 50).
    fn map_with_columns(active: &[usize]) -> PressureFrame {
        let mut cells = vec![0u16; 10 * 12];
        for r in 2..8 {
            for &c in active {
                cells[r * 12 + c] = 50;
            }
        }
        PressureFrame::new(10, 12, cells).unwrap()
    }

    #[test]
    fn a_gap_of_six_empty_columns_separates_the_feet() {
        // Active columns 1,2 and 9,10: the gap is columns 3..=8, six empty columns (> 5).
        // Cut in the middle, at 5.5: left is columns 0..=5, right 6..=11.
        let split = split_feet(&map_with_columns(&[1, 2, 9, 10])).unwrap();
        assert!(split.separated);
        assert_eq!((split.left.col_start, split.left.col_end), (0, 6));
        assert_eq!((split.right.col_start, split.right.col_end), (6, 12));
        // Active columns 0 and 8 (gap of 7): the middle column 4 belongs to neither foot.
        let split = split_feet(&map_with_columns(&[0, 8])).unwrap();
        assert_eq!((split.left.col_end, split.right.col_start), (4, 5));
    }

    #[test]
    fn a_gap_of_exactly_five_does_not() {
        // Active columns 1,2 and 8,9: five empty columns (3..=7), not over 5 → cut at the CoP.
        // Symmetric weights: CoP x = (1 + 2 + 8 + 9) / 4 = 5 → left is columns 0..=4, right 6..
        let split = split_feet(&map_with_columns(&[1, 2, 8, 9])).unwrap();
        assert!(!split.separated);
        assert_eq!((split.left.col_end, split.right.col_start), (5, 6));
    }

    #[test]
    fn an_empty_map_has_no_feet() {
        assert_eq!(split_feet(&PressureFrame::new(2, 2, vec![0, 1, 0, 0]).unwrap()), None);
    }

    #[test]
    fn forefoot_is_the_front_seven_tenths() {
        // Foot active from row 2 to row 12: length 10, boundary 2 + 7 = 9 → rows 2..=9 front
        // (8 rows), rows 10..=12 back (3 rows).
        let mut cells = vec![0u16; 16 * 4];
        for r in 2..=12 {
            cells[r * 4 + 1] = 30;
        }
        let map = PressureFrame::new(16, 4, cells).unwrap();
        let split = split_forefoot_heel(&map, &map.full_region()).unwrap();
        assert_eq!((split.front.row_start, split.front.row_end), (0, 10));
        assert_eq!((split.back.row_start, split.back.row_end), (10, 16));
        assert_eq!(map.region_stats(&split.front).active_cells, 8);
        assert_eq!(map.region_stats(&split.back).active_cells, 3);
    }
}

//! Body regions on a coarse grid of the map, and which of them carry load.
//!
//! The map is split into [`REGIONS_ALONG`] bands along its longer side (the body's length on a
//! bed: head, shoulders, back, pelvis, thighs, calves and heels fall in different bands) and
//! [`REGIONS_ACROSS`] bands across it (left, middle, right), 18 regions in all. A square map is
//! split along its columns, as the simulator and the mats lay the body. A region is loaded when at
//! least a fifth of its cells press [`LOADED_MIN`] or more: enough to ignore a few noisy cells,
//! little enough that a narrow contact such as a heel or a shoulder on its side counts.
//!
//! The grid is deliberately coarse: it has to mean the same thing on 16×16, 24×48 and 48×48 mats,
//! and the ulcer-risk clock only needs to know whether a part of the body has been off the
//! mattress, not which sensor it pressed.
//!
//! Which part of the body a band holds depends on where the body lies on the mat, not only on the
//! band's place: [`BodySpan`] finds the body's extent along the mat, and [`BodyBand::most_at_risk`]
//! reads each loaded band's centre against the body's proportions ([`BAND_ENDS`]).

use super::pressure_map::PressureMap;

/// Bands along the longer side of the map.
pub const REGIONS_ALONG: usize = 6;
/// Bands across the shorter side of the map.
pub const REGIONS_ACROSS: usize = 3;
/// Number of regions.
pub const REGION_COUNT: usize = REGIONS_ALONG * REGIONS_ACROSS;
/// The bands along that hold the back and the pelvis on a 6-band grid, whichever end the head
/// lies at.
pub const TORSO_BANDS: std::ops::RangeInclusive<usize> = 2..=3;
/// Smallest cell value that counts as load on a region.
pub const LOADED_MIN: u16 = 20;

/// A part of the body along its length, from the head: what an Ulcer Risk alarm names as the
/// region loaded too long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum BodyBand {
    /// Head and neck.
    Head,
    /// Shoulders and shoulder blades.
    Shoulders,
    /// Back.
    Back,
    /// Pelvis, sacrum and hips.
    Pelvis,
    /// Thighs.
    Thighs,
    /// Lower legs and heels.
    Heels,
}

impl BodyBand {
    /// Which band an alarm names when several were loaded equally long: where pressure ulcers
    /// most often form first (sacrum, heels), then the rest of the back, shoulders, head, thighs.
    pub const ULCER_PRIORITY: [BodyBand; 6] =
        [BodyBand::Pelvis, BodyBand::Heels, BodyBand::Back, BodyBand::Shoulders, BodyBand::Head, BodyBand::Thighs];

    /// The part an alarm names among the loaded regions `loads` (`None`: none loaded). With the
    /// body's span along the mat, each loaded band holds the parts of the body [`BodySpan::parts_in`]
    /// finds in it; without it (a mat shorter than a body, or no body seen since a restart), the
    /// part the band holds on a body filling the mat ([`BodyBand::of_region`]).
    pub fn most_at_risk(loads: RegionLoads, body: Option<BodySpan>, head_at_far_end: bool) -> Option<BodyBand> {
        let mut parts: Vec<BodyBand> = Vec::new();
        for i in (0..REGION_COUNT).filter(|&i| loads.is_loaded(i)) {
            match body {
                Some(span) => {
                    let lines = band(i / REGIONS_ACROSS, usize::from(span.lines), REGIONS_ALONG);
                    parts.extend(span.parts_in(lines.start as f64, lines.end as f64, head_at_far_end));
                }
                None => parts.push(BodyBand::of_region(i, head_at_far_end)),
            }
        }
        BodyBand::ULCER_PRIORITY.into_iter().find(|band| parts.contains(band))
    }

    /// The part at `fraction` of the body's length from the top of the head ([`BAND_ENDS`]; below
    /// 0 the head, beyond 1 the heels).
    pub fn at_fraction(fraction: f64) -> BodyBand {
        BAND_ENDS.iter().find(|(_, end)| fraction < *end).map_or(BodyBand::Heels, |(band, _)| *band)
    }

    /// The band of region `index` (`along * REGIONS_ACROSS + across`) on a body filling the mat (a
    /// 2 m mattress in six bands of about 33 cm), counted from the head's end (`head_at_far_end`:
    /// the mat is installed the other way round).
    pub fn of_region(index: usize, head_at_far_end: bool) -> BodyBand {
        let along = (index / REGIONS_ACROSS).min(REGIONS_ALONG - 1);
        let from_head = if head_at_far_end { REGIONS_ALONG - 1 - along } else { along };
        [BodyBand::Head, BodyBand::Shoulders, BodyBand::Back, BodyBand::Pelvis, BodyBand::Thighs, BodyBand::Heels][from_head]
    }
}

/// Where each part of the body ends, as a fraction of its length from the top of the head (adult
/// proportions: the head about 13 %, the shoulder girdle to 25 %, the back to 40 %, the pelvis and
/// sacrum to 58 %, the knees at about three quarters). The static bed analysis splits a lying body
/// at the same fractions (`analysis::bed_static::REGION_ENDS`).
pub const BAND_ENDS: [(BodyBand, f64); 6] = [
    (BodyBand::Head, 0.13),
    (BodyBand::Shoulders, 0.25),
    (BodyBand::Back, 0.40),
    (BodyBand::Pelvis, 0.58),
    (BodyBand::Thighs, 0.75),
    (BodyBand::Heels, 1.0),
];

/// Where the body lies along the mat, in lines along its long side (the columns of a map at least
/// as wide as tall, the rows otherwise): from the first to the last line that carries the body (two
/// neighbouring cells across the line at [`LOADED_MIN`] or more, so a lone noisy cell does not
/// count) in a run of at least two such lines, a single line without them between two runs closed
/// over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodySpan {
    /// The body's first line, from the mat's index 0.
    pub first: u16,
    /// The body's last line.
    pub last: u16,
    /// Lines along the mat.
    pub lines: u16,
}

impl BodySpan {
    /// A body is taken as at least this share of the mat's length (1.15 m of a 1.92 m mat), from
    /// the end its head lies at: a shorter imprint is a body whose legs do not press (heels
    /// offloaded on a pillow, the bed's foot raised), not a short body. Low enough that no real
    /// recording's naming depends on it, where four fifths misread five (docs/decisions.md).
    pub const MIN_SHARE_OF_MAT: f64 = 0.6;

    /// The body's span on `map` (`None`: no line carries a body).
    pub fn of(map: &PressureMap<'_>) -> Option<BodySpan> {
        let (rows, cols) = (usize::from(map.rows()), usize::from(map.cols()));
        let along_cols = super::posture::lies_along_columns(rows, cols);
        let (long, short) = if along_cols { (cols, rows) } else { (rows, cols) };
        let loaded = |along: usize, across: usize| {
            let index = if along_cols { across * cols + along } else { along * cols + across };
            map.value(index) >= LOADED_MIN
        };
        let carries_body = |along: usize| (1..short).any(|across| loaded(along, across - 1) && loaded(along, across));
        // Runs of lines carrying the body, a single line between two runs closed over.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for along in (0..long).filter(|&along| carries_body(along)) {
            match runs.last_mut() {
                Some((_, last)) if along <= *last + 2 => *last = along,
                _ => runs.push((along, along)),
            }
        }
        // A run of one line is noise or a stray object's edge; the body is the rest, from its
        // first run to its last (the head, the torso and the heels are separate runs on a real
        // body: the neck and the calves barely press).
        let mut body = runs.into_iter().filter(|(first, last)| last > first);
        let (first, mut last) = body.next()?;
        if let Some((_, end)) = body.next_back() {
            last = end;
        }
        Some(BodySpan { first: first as u16, last: last as u16, lines: long as u16 })
    }

    /// The part of the body at `at` lines along the mat (line `k` covers `k..k + 1`), the head at
    /// the span's first line (its last: `head_at_far_end`).
    pub fn part_at(self, at: f64, head_at_far_end: bool) -> BodyBand {
        BodyBand::at_fraction(self.share_from_head(at, head_at_far_end))
    }

    /// The parts of the body between `start` and `end` lines along the mat: the part at the middle,
    /// and every part of which the stretch covers at least half (a band of the mat is about as long
    /// as the pelvis, so it seldom has the pelvis at its middle when it holds most of it).
    pub fn parts_in(self, start: f64, end: f64, head_at_far_end: bool) -> Vec<BodyBand> {
        let (a, b) = (self.share_from_head(start, head_at_far_end), self.share_from_head(end, head_at_far_end));
        let (near, far) = (a.min(b), a.max(b));
        let mut parts = vec![BodyBand::at_fraction((near + far) / 2.0)];
        let mut part_start = 0.0;
        for (part, part_end) in BAND_ENDS {
            let covered = far.min(part_end) - near.max(part_start);
            if covered >= (part_end - part_start) / 2.0 && !parts.contains(&part) {
                parts.push(part);
            }
            part_start = part_end;
        }
        parts
    }

    /// Where `at` lines along the mat lies on the body, as a fraction of its length from the top of
    /// the head.
    fn share_from_head(self, at: f64, head_at_far_end: bool) -> f64 {
        let imprint = f64::from(self.last) + 1.0 - f64::from(self.first);
        let length = imprint.max(Self::MIN_SHARE_OF_MAT * f64::from(self.lines));
        let from_head = if head_at_far_end { f64::from(self.last) + 1.0 - at } else { at - f64::from(self.first) };
        from_head / length
    }
}

/// The set of loaded regions, one bit per region (`along * REGIONS_ACROSS + across`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct RegionLoads(u32);

impl RegionLoads {
    /// No region loaded.
    pub const EMPTY: RegionLoads = RegionLoads(0);

    /// A set from its bits (bits beyond [`REGION_COUNT`] are ignored).
    pub const fn from_bits(bits: u32) -> Self {
        RegionLoads(bits & ((1 << REGION_COUNT) - 1))
    }

    /// The bits.
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Whether region `index` is loaded.
    pub fn is_loaded(self, index: usize) -> bool {
        index < REGION_COUNT && self.0 & (1 << index) != 0
    }

    /// Number of loaded regions.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Only the regions of the middle two bands along (back and pelvis, whichever end the head
    /// lies at): where a turn moves the load and a raised knee or a moved arm does not.
    pub fn torso(self) -> RegionLoads {
        let mut mask = 0u32;
        for along in TORSO_BANDS {
            mask |= ((1 << REGIONS_ACROSS) - 1) << (along * REGIONS_ACROSS);
        }
        RegionLoads(self.0 & mask)
    }

    /// Jaccard distance between two sets: 0 when equal, 1 when disjoint (and 0 when both empty).
    pub fn distance(self, other: RegionLoads) -> f32 {
        let union = (self.0 | other.0).count_ones();
        if union == 0 {
            return 0.0;
        }
        1.0 - (self.0 & other.0).count_ones() as f32 / union as f32
    }

    /// The loaded regions of a map: the loaded cells of each column are counted over the rows
    /// of a band (branch-free, a row at a time), then summed over the columns of each region.
    pub fn of(map: &PressureMap<'_>) -> Self {
        let (rows, cols) = (usize::from(map.rows()), usize::from(map.cols()));
        if rows == 0 || cols == 0 {
            return RegionLoads::EMPTY;
        }
        // The regions' bands run along the map's long side.
        let along_cols = super::posture::lies_along_columns(rows, cols);
        let (row_bands, col_bands) = if along_cols { (REGIONS_ACROSS, REGIONS_ALONG) } else { (REGIONS_ALONG, REGIONS_ACROSS) };
        let region = |row_band: usize, col_band: usize| {
            if along_cols { col_band * REGIONS_ACROSS + row_band } else { row_band * REGIONS_ACROSS + col_band }
        };
        let mut loaded = [0u32; REGION_COUNT];
        let mut cells = [0u32; REGION_COUNT];
        let mut column_loads = vec![0u32; cols];
        for row_band in 0..row_bands {
            let band_rows = band(row_band, rows, row_bands);
            column_loads.fill(0);
            for r in band_rows.clone() {
                map.count_row_at_least(r, LOADED_MIN, &mut column_loads);
            }
            for col_band in 0..col_bands {
                let span = band(col_band, cols, col_bands);
                let i = region(row_band, col_band);
                cells[i] += (band_rows.len() * span.len()) as u32;
                loaded[i] += column_loads[span].iter().sum::<u32>();
            }
        }
        let mut bits = 0u32;
        for (i, (&l, &n)) in loaded.iter().zip(cells.iter()).enumerate() {
            if n > 0 && l * 5 >= n && l > 0 {
                bits |= 1 << i;
            }
        }
        RegionLoads(bits)
    }
}

/// The cells of band `band` of `bands` along `len` cells: cell `k` is in band `k * bands / len`.
fn band(band: usize, len: usize, bands: usize) -> std::ops::Range<usize> {
    (band * len).div_ceil(bands)..((band + 1) * len).div_ceil(bands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_protocol::CellFormat;

    #[test]
    fn regions_follow_the_long_side() {
        // 24 rows × 48 columns: a patch at the first columns, middle rows is region (0, middle).
        let mut cells = vec![0u8; 24 * 48];
        for r in 8..16 {
            for c in 0..8 {
                cells[r * 48 + c] = 100;
            }
        }
        let map = PressureMap::new(24, 48, CellFormat::U8, &cells).expect("shape");
        let loads = RegionLoads::of(&map);
        assert_eq!(loads.count(), 1);
        assert!(loads.is_loaded(1));
        // The same patch on the transposed map lands in the same body region.
        let mut t = vec![0u8; 48 * 24];
        for r in 0..8 {
            for c in 8..16 {
                t[r * 24 + c] = 100;
            }
        }
        let map = PressureMap::new(48, 24, CellFormat::U8, &t).expect("shape");
        assert_eq!(RegionLoads::of(&map), loads);
    }

    #[test]
    fn a_few_noisy_cells_do_not_load_a_region() {
        let mut cells = vec![3u8; 16 * 16];
        cells[0] = 200;
        cells[17] = 200;
        let map = PressureMap::new(16, 16, CellFormat::U8, &cells).expect("shape");
        assert_eq!(RegionLoads::of(&map), RegionLoads::EMPTY);
        let full = vec![60u8; 16 * 16];
        let map = PressureMap::new(16, 16, CellFormat::U8, &full).expect("shape");
        assert_eq!(RegionLoads::of(&map).count(), REGION_COUNT as u32);
    }

    /// The loaded regions counted cell by cell: each cell's region from its own position.
    fn regions_cell_by_cell(map: &PressureMap<'_>) -> RegionLoads {
        let (rows, cols) = (usize::from(map.rows()), usize::from(map.cols()));
        let along_cols = cols >= rows;
        let mut loaded = [0u32; REGION_COUNT];
        let mut cells = [0u32; REGION_COUNT];
        for r in 0..rows {
            for c in 0..cols {
                let (along, across, long, short) = if along_cols { (c, r, cols, rows) } else { (r, c, rows, cols) };
                let region = (along * REGIONS_ALONG / long) * REGIONS_ACROSS + across * REGIONS_ACROSS / short;
                cells[region] += 1;
                loaded[region] += u32::from(map.value(r * cols + c) >= LOADED_MIN);
            }
        }
        let bits = (0..REGION_COUNT).filter(|&i| loaded[i] > 0 && loaded[i] * 5 >= cells[i]).fold(0, |bits, i| bits | 1 << i);
        RegionLoads(bits)
    }

    proptest::proptest! {
        /// Counting rows in spans finds the regions a cell-by-cell count does, in any shape
        /// (fewer cells than bands included) and both cell formats.
        #[test]
        fn regions_counted_in_spans_are_those_counted_cell_by_cell(
            rows in 1u16..40,
            cols in 1u16..40,
            seed in proptest::collection::vec(proptest::prop_oneof![3 => proptest::strategy::Just(0u16), 2 => 0u16..60, 1 => 0u16..1000], 1..1600),
            wide in proptest::bool::ANY,
        ) {
            let values: Vec<u16> = (0..usize::from(rows) * usize::from(cols)).map(|k| seed[k % seed.len()]).collect();
            let bytes: Vec<u8> = if wide {
                values.iter().flat_map(|v| v.to_le_bytes()).collect()
            } else {
                values.iter().map(|&v| v.min(255) as u8).collect()
            };
            let format = if wide { CellFormat::U16Le } else { CellFormat::U8 };
            let map = PressureMap::new(rows, cols, format, &bytes).expect("shape");
            proptest::prop_assert_eq!(RegionLoads::of(&map), regions_cell_by_cell(&map));
        }
    }

    #[test]
    fn the_torso_is_the_middle_two_bands() {
        let all = RegionLoads::from_bits((1 << REGION_COUNT) - 1);
        assert_eq!(all.torso(), RegionLoads::from_bits(0b111_111 << 6));
        assert_eq!(RegionLoads::from_bits(0b111_000_000_111_111_111).torso(), RegionLoads::from_bits(0b111 << 6));
    }

    #[test]
    fn bands_are_counted_from_the_head() {
        assert_eq!(BodyBand::of_region(0, false), BodyBand::Head);
        assert_eq!(BodyBand::of_region(3 * REGIONS_ACROSS + 2, false), BodyBand::Pelvis);
        assert_eq!(BodyBand::of_region(REGION_COUNT - 1, false), BodyBand::Heels);
        assert_eq!(BodyBand::of_region(0, true), BodyBand::Heels);
        assert_eq!(BodyBand::of_region(3 * REGIONS_ACROSS, true), BodyBand::Back);
    }

    #[test]
    fn the_band_named_among_equals_is_the_sacrum_then_the_heels() {
        let all = RegionLoads::from_bits((1 << REGION_COUNT) - 1);
        assert_eq!(BodyBand::most_at_risk(all, None, false), Some(BodyBand::Pelvis));
        let head_and_heels = RegionLoads::from_bits(0b111 | 0b111 << 15);
        assert_eq!(BodyBand::most_at_risk(head_and_heels, None, false), Some(BodyBand::Heels));
        assert_eq!(BodyBand::most_at_risk(RegionLoads::from_bits(0b1), None, false), Some(BodyBand::Head));
        assert_eq!(BodyBand::most_at_risk(RegionLoads::EMPTY, None, false), None);
    }

    /// A 24 × 48 map (the body along the columns) with every cell of columns `along` at 60.
    fn lying(along: std::ops::Range<usize>) -> Vec<u8> {
        let mut cells = vec![0u8; 24 * 48];
        for r in 6..18 {
            for c in along.clone() {
                cells[r * 48 + c] = 60;
            }
        }
        cells
    }

    #[test]
    fn the_body_span_runs_from_the_first_to_the_last_run_of_lines_carrying_the_body() {
        let mut cells = lying(10..30);
        // The hollow of the back: one empty column inside a run is closed over.
        for r in 0..24 {
            cells[r * 48 + 20] = 0;
        }
        // A lone noisy cell, and a cable pressing one column only, do not count.
        cells[3 * 48 + 2] = 200;
        for r in 0..24 {
            cells[r * 48 + 46] = 90;
        }
        let map = PressureMap::new(24, 48, CellFormat::U8, &cells).expect("shape");
        assert_eq!(BodySpan::of(&map), Some(BodySpan { first: 10, last: 29, lines: 48 }));
        // The heels, apart from the torso (the calves barely press), end the body.
        for c in 38..41 {
            cells[8 * 48 + c] = 90;
            cells[9 * 48 + c] = 90;
        }
        let map = PressureMap::new(24, 48, CellFormat::U8, &cells).expect("shape");
        assert_eq!(BodySpan::of(&map), Some(BodySpan { first: 10, last: 40, lines: 48 }));
        // The same body on the transposed map (along the rows).
        let t: Vec<u8> = (0..48 * 24).map(|k| lying(10..30)[(k % 24) * 48 + k / 24]).collect();
        let map = PressureMap::new(48, 24, CellFormat::U8, &t).expect("shape");
        assert_eq!(BodySpan::of(&map), Some(BodySpan { first: 10, last: 29, lines: 48 }));
        let empty = vec![0u8; 24 * 48];
        assert_eq!(BodySpan::of(&PressureMap::new(24, 48, CellFormat::U8, &empty).expect("shape")), None);
    }

    #[test]
    fn parts_are_read_against_the_body_s_proportions() {
        assert_eq!(BodyBand::at_fraction(-0.1), BodyBand::Head);
        assert_eq!(BodyBand::at_fraction(0.12), BodyBand::Head);
        assert_eq!(BodyBand::at_fraction(0.13), BodyBand::Shoulders);
        assert_eq!(BodyBand::at_fraction(0.5), BodyBand::Pelvis);
        assert_eq!(BodyBand::at_fraction(0.6), BodyBand::Thighs);
        assert_eq!(BodyBand::at_fraction(0.8), BodyBand::Heels);
        assert_eq!(BodyBand::at_fraction(1.3), BodyBand::Heels);
        let span = BodySpan { first: 8, last: 47, lines: 48 };
        // 40 lines long: the pelvis from 16 to 23.2 lines below the head.
        assert_eq!(span.part_at(8.0 + 20.0, false), BodyBand::Pelvis);
        assert_eq!(span.part_at(8.0 + 15.0, false), BodyBand::Back);
        assert_eq!(span.part_at(48.0 - 20.0, true), BodyBand::Pelvis);
        assert_eq!(span.part_at(48.0 - 2.0, true), BodyBand::Head);
        // The legs not pressing: a 20-line imprint is read as a body of three fifths of the mat
        // (28.8 lines), line 14 half-way down it.
        let short = BodySpan { first: 0, last: 19, lines: 48 };
        assert_eq!(short.part_at(14.0, false), BodyBand::Pelvis);
        assert_eq!(BodySpan { lines: 20, ..short }.part_at(14.0, false), BodyBand::Thighs);
    }

    #[test]
    fn a_stretch_holds_the_part_at_its_middle_and_those_it_mostly_covers() {
        let span = BodySpan { first: 0, last: 39, lines: 48 };
        // Lines 15..23 of a 40-line body: 37.5–57.5 %, the middle (47.5 %) in the pelvis (40–58 %).
        assert_eq!(span.parts_in(15.0, 23.0, false), vec![BodyBand::Pelvis]);
        // Lines 10..18: 25–45 %, the middle in the back, 2 of the pelvis' 7.2 lines covered: the
        // back only.
        assert_eq!(span.parts_in(10.0, 18.0, false), vec![BodyBand::Back]);
        // Lines 12..20: 30–50 %, the middle (40 %) where the pelvis begins, 4 of the back's 6 lines.
        assert_eq!(span.parts_in(12.0, 20.0, false), vec![BodyBand::Pelvis, BodyBand::Back]);
        // Lines 18..26: 45–65 %, the middle (55 %) in the pelvis, 2.8 of the thighs' 6.8 lines.
        assert_eq!(span.parts_in(18.0, 26.0, false), vec![BodyBand::Pelvis]);
        // Lines 20..28: 50–70 %, the middle in the thighs, 3.2 of the pelvis' 7.2 lines: thighs.
        assert_eq!(span.parts_in(20.0, 28.0, false), vec![BodyBand::Thighs]);
        // The mat the other way round, the head at line 40: lines 17..25 are 37.5–57.5 % down.
        assert_eq!(span.parts_in(17.0, 25.0, true), vec![BodyBand::Pelvis]);
    }

    #[test]
    fn a_body_lying_high_on_the_mat_names_its_sacrum_not_the_mat_s_back_band() {
        // A 1.6 m body from the mat's head end (columns 0..40 of 48): its sacrum lies in the mat's
        // third band (columns 16..24, centre half-way down the body), which on a body filling the
        // mat would hold the back; its heels lie in the fifth (columns 32..40).
        let map_cells = lying(0..40);
        let map = PressureMap::new(24, 48, CellFormat::U8, &map_cells).expect("shape");
        let body = BodySpan::of(&map);
        let loads = RegionLoads::from_bits(0b111 << 6 | 0b111 << 12);
        assert_eq!(BodyBand::most_at_risk(loads, None, false), Some(BodyBand::Back));
        assert_eq!(BodyBand::most_at_risk(loads, body, false), Some(BodyBand::Pelvis));
        // The same body with the mat installed the other way round (head at column 47).
        let map_cells = lying(8..48);
        let map = PressureMap::new(24, 48, CellFormat::U8, &map_cells).expect("shape");
        let body = BodySpan::of(&map);
        let loads = RegionLoads::from_bits(0b111 << 9 | 0b111 << 3);
        assert_eq!(BodyBand::most_at_risk(loads, None, true), Some(BodyBand::Back));
        assert_eq!(BodyBand::most_at_risk(loads, body, true), Some(BodyBand::Pelvis));
        // Here the mat's second band holds the heels, its last the head and most of the shoulders.
        assert_eq!(BodyBand::most_at_risk(RegionLoads::from_bits(0b111 << 3), body, true), Some(BodyBand::Heels));
        assert_eq!(BodyBand::most_at_risk(RegionLoads::from_bits(0b111 << 15), body, true), Some(BodyBand::Shoulders));
    }

    #[test]
    fn distance_is_jaccard() {
        let a = RegionLoads::from_bits(0b1111);
        let b = RegionLoads::from_bits(0b0011);
        assert_eq!(a.distance(a), 0.0);
        assert_eq!(a.distance(b), 0.5);
        assert_eq!(a.distance(RegionLoads::from_bits(0b11_0000)), 1.0);
        assert_eq!(RegionLoads::EMPTY.distance(RegionLoads::EMPTY), 0.0);
    }
}

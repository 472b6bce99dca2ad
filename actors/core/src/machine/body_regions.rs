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

/// The body's part a band along the mat holds (a 2 m mattress in six bands of about 33 cm), from
/// the head's end: what an Ulcer Risk alarm names as the region loaded too long.
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

    /// The band an alarm names among the loaded regions `loads` (`None`: none loaded).
    pub fn most_at_risk(loads: RegionLoads, head_at_far_end: bool) -> Option<BodyBand> {
        let bands: Vec<BodyBand> =
            (0..REGION_COUNT).filter(|&i| loads.is_loaded(i)).map(|i| BodyBand::of_region(i, head_at_far_end)).collect();
        BodyBand::ULCER_PRIORITY.into_iter().find(|band| bands.contains(band))
    }

    /// The band of region `index` (`along * REGIONS_ACROSS + across`), counted from the head's end
    /// (`head_at_far_end`: the mat is installed the other way round).
    pub fn of_region(index: usize, head_at_far_end: bool) -> BodyBand {
        let along = (index / REGIONS_ACROSS).min(REGIONS_ALONG - 1);
        let from_head = if head_at_far_end { REGIONS_ALONG - 1 - along } else { along };
        [BodyBand::Head, BodyBand::Shoulders, BodyBand::Back, BodyBand::Pelvis, BodyBand::Thighs, BodyBand::Heels][from_head]
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
        assert_eq!(BodyBand::most_at_risk(all, false), Some(BodyBand::Pelvis));
        let head_and_heels = RegionLoads::from_bits(0b111 | 0b111 << 15);
        assert_eq!(BodyBand::most_at_risk(head_and_heels, false), Some(BodyBand::Heels));
        assert_eq!(BodyBand::most_at_risk(RegionLoads::from_bits(0b1), false), Some(BodyBand::Head));
        assert_eq!(BodyBand::most_at_risk(RegionLoads::EMPTY, false), None);
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

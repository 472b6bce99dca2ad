//! The pressure histogram of spec §2: 8 bins of equal width from 0 to the map's maximum.

use serde::{Deserialize, Serialize};

/// Spec §2/§9: the histogram has 8 bins.
pub const HISTOGRAM_BINS: usize = 8;

/// Active cells counted per pressure bin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Histogram {
    /// Upper bound of each bin, in sensor units: max × (i + 1) / 8.
    pub bin_upper_bounds: Vec<f64>,
    /// Active cells (at or above the device's active floor) whose pressure falls in each bin.
    pub counts: Vec<u32>,
    /// The same counts as a percentage of the active cells, to 1 decimal.
    pub percentages: Vec<f64>,
}

/// Bins the active cells of `cells` (those at or above `active_floor`, the device's:
/// `units::active_floor`) into 8 equal bins over [0, max]. Bin `i` holds the values in
/// (max·i/8, max·(i+1)/8]; the lowest bin also takes the bottom value. An empty map yields eight
/// empty bins with zero bounds.
pub fn histogram(cells: &[u16], active_floor: u16) -> Histogram {
    let max = cells.iter().copied().max().unwrap_or(0);
    let mut counts = vec![0u32; HISTOGRAM_BINS];
    if max >= active_floor {
        for &v in cells.iter().filter(|&&v| v >= active_floor) {
            // ceil(v·8/max) − 1 puts a value exactly on a bound in the bin below it.
            let bin = (u32::from(v) * HISTOGRAM_BINS as u32).div_ceil(u32::from(max)).saturating_sub(1);
            counts[(bin as usize).min(HISTOGRAM_BINS - 1)] += 1;
        }
    }
    let total: u32 = counts.iter().sum();
    let percentages =
        counts.iter().map(|&c| if total == 0 { 0.0 } else { super::units::round_to(100.0 * f64::from(c) / f64::from(total), 1) }).collect();
    let bin_upper_bounds = (1..=HISTOGRAM_BINS).map(|i| f64::from(max) * i as f64 / HISTOGRAM_BINS as f64).collect();
    Histogram { bin_upper_bounds, counts, percentages }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_bins_over_the_maximum() {
        // max 80 → bins of 10: (0,10] (10,20] … (70,80]. 1 is not active (below a floor of 2); 2 and
        // 10 go to bin 0; 11 to bin 1; 40 to bin 3; 79 and 80 to bin 7.
        let h = histogram(&[1, 2, 10, 11, 40, 79, 80], 2);
        assert_eq!(h.counts.len(), 8);
        assert_eq!(h.counts, vec![2, 1, 0, 1, 0, 0, 0, 2]);
        assert_eq!(h.bin_upper_bounds, vec![10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]);
        // 6 active cells: 2/6 = 33.3 %, 1/6 = 16.7 %.
        assert_eq!(h.percentages, vec![33.3, 16.7, 0.0, 16.7, 0.0, 0.0, 0.0, 33.3]);
    }

    #[test]
    fn an_empty_map_has_eight_empty_bins() {
        let h = histogram(&[0, 1], 2);
        assert_eq!(h.counts, vec![0; 8]);
    }
}

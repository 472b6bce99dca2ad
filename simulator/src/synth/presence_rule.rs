//! The hub's presence rule (spec §5), reimplemented independently for the simulator's tests.
//!
//! Over the "active" cells (≥ 5 hub units and ≥ 2 steps of the device): count ≥ 50, mean ≥ 50,
//! median ≥ 50, standard deviation ≥ 40 (hub units), and the largest 4-connected blob of active
//! cells ≥ 40 cells; otherwise absence. `units_per_cell` is the device's documented scale (1 for
//! the old count, ≈ 13.6 for a bed mat's 0.4 mmHg step). The whole-bed load rule is not repeated
//! here: the simulator's bodies carry tens of kilograms.

/// The verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Someone is on the mat.
    Presence,
    /// Nobody (or not enough contact).
    Absence,
}

/// The verdict with the figures it was based on, for assertion messages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    pub presence: Presence,
    pub count: usize,
    pub mean: f64,
    pub median: f64,
    pub std_dev: f64,
    pub largest_blob: usize,
}

/// Applies the rule to a row-major map of cells in hub units.
pub fn evaluate(values: &[u16], rows: usize, cols: usize) -> Verdict {
    evaluate_scaled(values, rows, cols, 1.0)
}

/// Applies the rule to a row-major map of cells of `units_per_cell` hub units each.
pub fn evaluate_scaled(values: &[u16], rows: usize, cols: usize, units_per_cell: f64) -> Verdict {
    let floor = ((5.0 / units_per_cell).ceil() as u16).max(2);
    let mut active: Vec<u16> = values.iter().copied().filter(|&v| v >= floor).collect();
    let count = active.len();
    let (mean, median, std_dev) = if count == 0 {
        (0.0, 0.0, 0.0)
    } else {
        active.sort_unstable();
        let mean = active.iter().map(|&v| f64::from(v)).sum::<f64>() / count as f64;
        let median = if count % 2 == 1 {
            f64::from(active[count / 2])
        } else {
            (f64::from(active[count / 2 - 1]) + f64::from(active[count / 2])) / 2.0
        };
        let var = active.iter().map(|&v| (f64::from(v) - mean).powi(2)).sum::<f64>() / count as f64;
        (mean * units_per_cell, median * units_per_cell, var.sqrt() * units_per_cell)
    };
    let largest_blob = largest_blob(values, rows, cols, floor);
    let presence = if count >= 50 && mean >= 50.0 && median >= 50.0 && std_dev >= 40.0 && largest_blob >= 40 {
        Presence::Presence
    } else {
        Presence::Absence
    };
    Verdict { presence, count, mean, median, std_dev, largest_blob }
}

/// Size of the largest 4-connected group of active cells (iterative flood fill).
fn largest_blob(values: &[u16], rows: usize, cols: usize, floor: u16) -> usize {
    let mut seen = vec![false; values.len()];
    let mut best = 0;
    let mut stack = Vec::new();
    for start in 0..values.len().min(rows * cols) {
        if seen[start] || values[start] < floor {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            let (r, c) = (i / cols, i % cols);
            let mut visit = |j: usize| {
                if !seen[j] && values[j] >= floor {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if r > 0 {
                visit(i - cols);
            }
            if r + 1 < rows {
                visit(i + cols);
            }
            if c > 0 {
                visit(i - 1);
            }
            if c + 1 < cols {
                visit(i + 1);
            }
        }
        best = best.max(size);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_matches_hand_made_maps() {
        // A 10×10 block alternating 20 and 200: count 100, mean 110, std 90, median 110, blob 100.
        let mut map = vec![0u16; 20 * 20];
        for r in 0..10 {
            for c in 0..10 {
                map[r * 20 + c] = if (r + c) % 2 == 0 { 200 } else { 20 };
            }
        }
        let v = evaluate(&map, 20, 20);
        assert_eq!((v.presence, v.count, v.largest_blob), (Presence::Presence, 100, 100));
        // Uniform pressure: std 0 → absence.
        let flat = vec![120u16; 400];
        assert_eq!(evaluate(&flat, 20, 20).presence, Presence::Absence);
        // A checkerboard of single cells: no 4-connected blob.
        let checker: Vec<u16> = (0..400).map(|i| if (i / 20 + i % 20) % 2 == 0 { if i % 3 == 0 { 250 } else { 60 } } else { 0 }).collect();
        let v = evaluate(&checker, 20, 20);
        assert_eq!((v.presence, v.largest_blob), (Presence::Absence, 1));
        // In 0.4 mmHg steps (13.6 units): 1s are noise, 2 and 8 average 68 units.
        let bed: Vec<u16> = (0..400).map(|i| if i < 100 { if i % 2 == 0 { 2 } else { 8 } } else { 1 }).collect();
        let v = evaluate_scaled(&bed, 20, 20, 13.6);
        assert_eq!((v.presence, v.count), (Presence::Presence, 100));
        assert!((v.mean - 68.0).abs() < 1e-9);
    }
}

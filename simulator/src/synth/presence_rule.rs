//! The hub's presence rule (spec §5), reimplemented independently for the simulator's tests.
//!
//! Over the "active" cells (value ≥ 5): count ≥ 50, mean ≥ 50, median ≥ 50, standard deviation
//! ≥ 40, and the largest 4-connected blob of active cells ≥ 40 cells; otherwise absence.

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

const ACTIVE: u16 = 5;

/// Applies the rule to a row-major map.
pub fn evaluate(values: &[u16], rows: usize, cols: usize) -> Verdict {
    let mut active: Vec<u16> = values.iter().copied().filter(|&v| v >= ACTIVE).collect();
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
        (mean, median, var.sqrt())
    };
    let largest_blob = largest_blob(values, rows, cols);
    let presence = if count >= 50 && mean >= 50.0 && median >= 50.0 && std_dev >= 40.0 && largest_blob >= 40 {
        Presence::Presence
    } else {
        Presence::Absence
    };
    Verdict { presence, count, mean, median, std_dev, largest_blob }
}

/// Size of the largest 4-connected group of active cells (iterative flood fill).
fn largest_blob(values: &[u16], rows: usize, cols: usize) -> usize {
    let mut seen = vec![false; values.len()];
    let mut best = 0;
    let mut stack = Vec::new();
    for start in 0..values.len().min(rows * cols) {
        if seen[start] || values[start] < ACTIVE {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            let (r, c) = (i / cols, i % cols);
            let mut visit = |j: usize| {
                if !seen[j] && values[j] >= ACTIVE {
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
    }
}

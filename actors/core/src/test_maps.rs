//! Maps shared by the machine tests here and the actor tests of the runtime crate (feature
//! `test-maps`).

/// A 48×48 map with a body on it: a 20 × 15 block of cells alternating 20 and 150, which passes
/// the presence check of spec §5.
pub fn body() -> Vec<u8> {
    let mut cells = vec![0u8; 48 * 48];
    for r in 10..30 {
        for c in 15..30 {
            cells[r * 48 + c] = if (r + c) % 2 == 0 { 20 } else { 150 };
        }
    }
    cells
}

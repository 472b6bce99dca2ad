//! A stored `mapPreview` read back: a 2-D grid of numbers is one map, a 3-D array is frames.
//! Shared by the PDF reports and the raw export.

use serde_json::Value;

/// The stored frames (a 2-D map is one frame) as (rows, cols, cells); `None` unless every frame
/// is a non-empty grid of numbers 0–65535.
pub fn preview_frames(preview: &Value) -> Option<Vec<(u16, u16, Vec<u16>)>> {
    let outer = preview.as_array()?;
    let is_frames = outer.first()?.as_array()?.first().is_some_and(Value::is_array);
    let frames: Vec<&Value> = if is_frames { outer.iter().collect() } else { vec![preview] };
    frames
        .into_iter()
        .map(|frame| {
            let rows = frame.as_array()?;
            let cols = rows.first()?.as_array()?.len();
            if cols == 0 {
                return None;
            }
            let mut cells = Vec::with_capacity(rows.len() * cols);
            for row in rows {
                let row = row.as_array().filter(|r| r.len() == cols)?;
                for cell in row {
                    cells.push(cell.as_f64().filter(|v| *v >= 0.0 && *v <= f64::from(u16::MAX))? as u16);
                }
            }
            Some((u16::try_from(rows.len()).ok()?, u16::try_from(cols).ok()?, cells))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_and_frames_read_back() {
        assert_eq!(preview_frames(&json!([[1, 2], [3, 4]])).unwrap(), vec![(2, 2, vec![1, 2, 3, 4])]);
        assert_eq!(preview_frames(&json!([[[1]], [[2]]])).unwrap().len(), 2);
        for bad in [json!(null), json!([]), json!([[]]), json!([[1, 2], [3]]), json!([["a"]]), json!([[-1]]), json!([[70000]]), json!({"rows": 1})] {
            assert!(preview_frames(&bad).is_none(), "{bad}");
        }
    }
}

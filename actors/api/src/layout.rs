//! Layout settings (spec §3, §5, §9): threshold 0–75 in steps of 5; manual scale in steps of 50,
//! clamped to 50–1000, empty resets to 200; PUT and POST force `is3Dmode` false; a camera
//! position of `up`, `center` and `eye`, each `{x, y, z}`.

use mat_protocol::scale::PressureUnit;
use serde::{Deserialize, Serialize};
#[cfg(feature = "surreal")]
use surrealdb::types::SurrealValue;

use super::Invalid;

/// Default manual scale.
pub const MANUAL_SCALE_DEFAULT: i64 = 200;
/// Manual scale bounds and step.
pub const MANUAL_SCALE_MIN: i64 = 50;
pub const MANUAL_SCALE_MAX: i64 = 1000;
pub const MANUAL_SCALE_STEP: i64 = 50;
/// Threshold bounds and step.
pub const THRESHOLD_MAX: i64 = 75;
pub const THRESHOLD_STEP: i64 = 5;
/// Highest palette and smoothing index (the client offers fewer).
pub const INDEX_MAX: i64 = 32;

/// A point of the 3-D camera.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Point3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

/// The 3-D camera: Plotly's default view unless the user moved it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CameraPosition {
    pub up: Point3,
    pub center: Point3,
    pub eye: Point3,
}

impl Default for CameraPosition {
    fn default() -> Self {
        CameraPosition {
            up: Point3 { x: 0.0, y: 0.0, z: 1.0 },
            center: Point3 { x: 0.0, y: 0.0, z: 0.0 },
            eye: Point3 { x: 1.25, y: 1.25, z: 1.25 },
        }
    }
}

/// Layout settings as the client sends and reads them (spec §3 names).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LayoutJson {
    #[serde(default)]
    #[schemars(range(min = 0, max = INDEX_MAX))]
    #[serde(deserialize_with = "super::lenient::integer")]
    pub map_color_index: i64,
    #[serde(default)]
    #[schemars(range(min = 0, max = INDEX_MAX))]
    #[serde(deserialize_with = "super::lenient::integer")]
    pub smoothen_index: i64,
    #[serde(default)]
    #[schemars(range(min = 0, max = THRESHOLD_MAX), extend("multipleOf" = THRESHOLD_STEP))]
    #[serde(deserialize_with = "super::lenient::integer")]
    pub threshold_value: i64,
    #[serde(default)]
    pub contours_enabled: bool,
    #[serde(rename = "is3Dmode", default)]
    pub is_3d_mode: bool,
    #[serde(default)]
    pub camera_position: CameraPosition,
    #[serde(default)]
    pub manual_scale: bool,
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::optional_integer")]
    pub manual_scale_value: Option<i64>,
    /// The unit the user reads pressures in (mmHg unless chosen otherwise; issue 22).
    #[serde(default)]
    #[schemars(schema_with = "super::schema::pressure_unit")]
    pub pressure_unit: PressureUnit,
}

impl Default for LayoutJson {
    fn default() -> Self {
        LayoutJson {
            map_color_index: 0,
            smoothen_index: 0,
            threshold_value: 0,
            contours_enabled: false,
            is_3d_mode: false,
            camera_position: CameraPosition::default(),
            manual_scale: false,
            manual_scale_value: Some(MANUAL_SCALE_DEFAULT),
            pressure_unit: PressureUnit::default(),
        }
    }
}

/// A user's layout settings (spec §3). `camera_position` is JSON text `{up, center, eye}`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "surreal", derive(SurrealValue))]
pub struct LayoutSettings {
    pub map_color_index: i64,
    pub smoothen_index: i64,
    pub threshold_value: i64,
    pub contours_enabled: bool,
    pub is3_dmode: bool,
    pub camera_position: String,
    pub manual_scale: bool,
    pub manual_scale_value: i64,
    /// A `PressureUnit`'s symbol.
    pub pressure_unit: String,
}

/// The manual scale as spec §5 has it: empty resets to 200, else clamped to 50–1000 and
/// rounded to the nearest step of 50.
pub fn normalise_manual_scale(value: Option<i64>) -> i64 {
    match value {
        None => MANUAL_SCALE_DEFAULT,
        Some(v) => {
            let clamped = v.clamp(MANUAL_SCALE_MIN, MANUAL_SCALE_MAX);
            ((clamped + MANUAL_SCALE_STEP / 2) / MANUAL_SCALE_STEP * MANUAL_SCALE_STEP).clamp(MANUAL_SCALE_MIN, MANUAL_SCALE_MAX)
        }
    }
}

/// Checks settings to save; `is3Dmode` is forced false (spec §7).
pub fn validate_layout(input: &LayoutJson) -> Result<LayoutSettings, Invalid> {
    let invalid = |message: String| Invalid::new("invalidLayoutSettings", message);
    if !(0..=THRESHOLD_MAX).contains(&input.threshold_value) || input.threshold_value % THRESHOLD_STEP != 0 {
        return Err(invalid(format!("thresholdValue is 0 to {THRESHOLD_MAX} in steps of {THRESHOLD_STEP}")));
    }
    for (field, value) in [("mapColorIndex", input.map_color_index), ("smoothenIndex", input.smoothen_index)] {
        if !(0..=INDEX_MAX).contains(&value) {
            return Err(invalid(format!("{field} is 0 to {INDEX_MAX}")));
        }
    }
    let camera = input.camera_position;
    if [camera.up, camera.center, camera.eye].iter().any(|p| !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite())) {
        return Err(invalid("cameraPosition must hold finite numbers".into()));
    }
    Ok(LayoutSettings {
        map_color_index: input.map_color_index,
        smoothen_index: input.smoothen_index,
        threshold_value: input.threshold_value,
        contours_enabled: input.contours_enabled,
        is3_dmode: false,
        camera_position: serde_json::to_string(&camera).unwrap_or_else(|_| "{}".into()),
        manual_scale: input.manual_scale,
        manual_scale_value: normalise_manual_scale(input.manual_scale_value),
        pressure_unit: input.pressure_unit.symbol().to_owned(),
    })
}

/// Stored settings as the client reads them.
pub fn layout_json(stored: &LayoutSettings) -> LayoutJson {
    LayoutJson {
        map_color_index: stored.map_color_index,
        smoothen_index: stored.smoothen_index,
        threshold_value: stored.threshold_value,
        contours_enabled: stored.contours_enabled,
        is_3d_mode: stored.is3_dmode,
        camera_position: serde_json::from_str(&stored.camera_position).unwrap_or_default(),
        manual_scale: stored.manual_scale,
        manual_scale_value: Some(stored.manual_scale_value),
        pressure_unit: PressureUnit::from_symbol(&stored.pressure_unit).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_settings_read_back_save_the_same_to_the_last_bit_of_every_float() {
        // Found by the `rest_bodies` fuzz target: without serde_json's float_roundtrip a camera
        // coordinate drifted by one unit in the last place on every save.
        let body = br#"{"is3Dmode": true, "cameraPosition": {"up": {"x": 0, "y": 0, "z": 0}, "center": {"x": 0, "y": 0, "z": 0}, "eye": {"x": 0.5, "y":0.00010001793349469261121307, "z": -625}}, "manualScaleValue": 275}"#;
        let input: LayoutJson = crate::body::parse_object(body).expect("a layout body");
        let saved = validate_layout(&input).expect("valid");
        assert_eq!(validate_layout(&layout_json(&saved)), Ok(saved));
    }

    #[test]
    fn manual_scale_clamps_steps_and_resets_to_200() {
        assert_eq!(normalise_manual_scale(None), 200);
        assert_eq!(normalise_manual_scale(Some(0)), 50);
        assert_eq!(normalise_manual_scale(Some(5000)), 1000);
        assert_eq!(normalise_manual_scale(Some(260)), 250);
        assert_eq!(normalise_manual_scale(Some(275)), 300);
        assert_eq!(normalise_manual_scale(Some(1000)), 1000);
    }

    #[test]
    fn threshold_is_0_to_75_in_steps_of_5() {
        let with = |t| validate_layout(&LayoutJson { threshold_value: t, ..LayoutJson::default() });
        assert!(with(0).is_ok());
        assert!(with(75).is_ok());
        assert_eq!(with(80).unwrap_err().key, "invalidLayoutSettings");
        assert_eq!(with(7).unwrap_err().key, "invalidLayoutSettings");
        assert_eq!(with(-5).unwrap_err().key, "invalidLayoutSettings");
    }

    #[test]
    fn saving_forces_2d_and_keeps_the_camera() {
        let mut input = LayoutJson { is_3d_mode: true, ..LayoutJson::default() };
        input.camera_position.eye.x = 2.0;
        let saved = validate_layout(&input).unwrap();
        assert!(!saved.is3_dmode);
        assert_eq!(layout_json(&saved).camera_position.eye.x, 2.0);
        assert_eq!(layout_json(&saved).manual_scale_value, Some(200));
    }

    #[test]
    fn the_pressure_unit_is_mmhg_until_kpa_is_chosen_and_nothing_else_is_taken() {
        let parse = |body: &[u8]| crate::body::parse_object::<LayoutJson>(body);
        let default = validate_layout(&parse(b"{}").unwrap()).unwrap();
        assert_eq!(default.pressure_unit, "mmHg");
        let kpa = validate_layout(&parse(br#"{"pressureUnit": "kPa"}"#).unwrap()).unwrap();
        assert_eq!(kpa.pressure_unit, "kPa");
        assert_eq!(layout_json(&kpa).pressure_unit, PressureUnit::KPa);
        assert!(parse(br#"{"pressureUnit": "psi"}"#).is_err());
    }

    #[test]
    fn defaults_are_those_of_the_spec() {
        let json = serde_json::to_value(LayoutJson::default()).unwrap();
        assert_eq!(json["manualScaleValue"], 200);
        assert_eq!(json["is3Dmode"], false);
        assert_eq!(json["cameraPosition"]["eye"]["z"], 1.25);
        assert_eq!(json["pressureUnit"], "mmHg");
    }
}

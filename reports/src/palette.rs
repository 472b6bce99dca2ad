//! Colour palettes for pressure maps: a pressure is scaled to 0–1 against the map's scale and
//! looked up along the palette's colour stops. Zero is always white (no contact, and paper).
//!
//! The palettes are the client's: both read `reports/palettes.json`, the one owner of the list,
//! its order (the user's `mapColorIndex`) and every colour stop.

use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::document::Rgb;

/// One palette of `palettes.json`: an id and colour stops `[position 0–1, [r, g, b] 0–255]`.
#[derive(Debug, Deserialize)]
struct PaletteDefinition {
    id: String,
    stops: Vec<(f32, [u8; 3])>,
}

#[derive(Debug, Deserialize)]
struct PaletteFile {
    palettes: Vec<PaletteDefinition>,
}

/// The list, parsed once from the file compiled into the crate.
fn definitions() -> &'static [PaletteDefinition] {
    static DEFINITIONS: OnceLock<Vec<PaletteDefinition>> = OnceLock::new();
    DEFINITIONS.get_or_init(|| {
        let file: PaletteFile = serde_json::from_str(include_str!("../palettes.json"))
            .unwrap_or_else(|e| panic!("reports/palettes.json is not a palette list: {e}"));
        file.palettes
    })
}

/// A palette of the report's pressure maps, by its place in the list (the client's
/// `mapColorIndex`). Serialised as the palette's id (`"pressure"`, `"hot"`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Palette(usize);

impl Palette {
    /// Every palette, in the colour button's order.
    pub fn all() -> impl Iterator<Item = Palette> {
        (0..definitions().len()).map(Palette)
    }

    /// The palette for the user's `mapColorIndex` (cycled, as the colour button does).
    pub fn from_index(index: usize) -> Palette {
        Palette(index % definitions().len())
    }

    /// The palette with this id, if there is one.
    pub fn by_id(id: &str) -> Option<Palette> {
        definitions().iter().position(|p| p.id == id).map(Palette)
    }

    /// The palette's id, also its name in the client's translations (`view.palette.<id>`).
    pub fn id(self) -> &'static str {
        &definitions()[self.0].id
    }

    /// Colour of `value` on a scale whose top is `scale_max` (values above it saturate).
    pub fn colour(self, value: u16, scale_max: u16) -> Rgb {
        if value == 0 || scale_max == 0 {
            return [1.0, 1.0, 1.0];
        }
        let t = (f32::from(value) / f32::from(scale_max)).clamp(0.0, 1.0);
        let stops = &definitions()[self.0].stops;
        let k = stops.windows(2).position(|w| t <= w[1].0).unwrap_or(stops.len().saturating_sub(2));
        let ((t0, a), (t1, b)) = (stops[k], stops[(k + 1).min(stops.len() - 1)]);
        let f = if t1 > t0 { ((t - t0) / (t1 - t0)).clamp(0.0, 1.0) } else { 0.0 };
        let channel = |i: usize| (f32::from(a[i]) + (f32::from(b[i]) - f32::from(a[i])) * f) / 255.0;
        [channel(0), channel(1), channel(2)]
    }
}

/// The document's schema: one of the ids of `palettes.json`.
#[cfg(feature = "json-schema")]
impl schemars::JsonSchema for Palette {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Palette".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let ids: Vec<&str> = Palette::all().map(Palette::id).collect();
        schemars::json_schema!({ "type": "string", "enum": ids, "description": "A palette id of reports/palettes.json, the list the client's colour button cycles" })
    }
}

impl Serialize for Palette {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Palette {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        Palette::by_id(&id).ok_or_else(|| {
            let known: Vec<&str> = Palette::all().map(Palette::id).collect();
            serde::de::Error::custom(format!("unknown palette `{id}`, expected one of {}", known.join(", ")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn palette(id: &str) -> Palette {
        Palette::by_id(id).unwrap_or_else(|| panic!("no palette {id}"))
    }

    #[test]
    fn the_list_is_the_colour_buttons_thirteen_with_the_pressure_palette_first() {
        let ids: Vec<&str> = Palette::all().map(Palette::id).collect();
        assert_eq!(ids.len(), 13);
        assert_eq!(Palette::default().id(), "pressure");
        assert_eq!(ids[2], "hot");
        assert_eq!(ids[12], "greys");
        // Every palette's stops run from 0 to 1 in order.
        for p in definitions() {
            assert!(p.stops.len() >= 2, "{}", p.id);
            assert_eq!(p.stops[0].0, 0.0, "{}", p.id);
            assert_eq!(p.stops[p.stops.len() - 1].0, 1.0, "{}", p.id);
            assert!(p.stops.windows(2).all(|w| w[0].0 < w[1].0), "{}", p.id);
        }
    }

    #[test]
    fn ends_of_the_scale_are_the_end_stops_and_zero_is_white() {
        assert_eq!(palette("jet").colour(0, 100), [1.0, 1.0, 1.0]);
        assert_eq!(palette("jet").colour(1, 1), [128.0 / 255.0, 0.0, 0.0]);
        assert_eq!(palette("greys").colour(200, 100), [0.0, 0.0, 0.0]);
        // Half-way on a two-stop palette is the mean of the stops.
        let mid = palette("greys").colour(50, 100);
        assert!((mid[0] - 117.5 / 255.0).abs() < 1e-6);
        // Uneven stops: the pressure palette's 0.55 stop is green.
        let green = palette("pressure").colour(55, 100);
        assert!((green[1] - 184.0 / 255.0).abs() < 1e-3, "{green:?}");
        assert_eq!(Palette::from_index(15), palette("hot"));
    }

    #[test]
    fn serialised_as_its_id_and_unknown_ids_are_refused() {
        assert_eq!(serde_json::to_string(&palette("viridis")).unwrap(), "\"viridis\"");
        let hot: Palette = serde_json::from_str("\"hot\"").unwrap();
        assert_eq!(hot, palette("hot"));
        assert!(serde_json::from_str::<Palette>("\"sepia\"").is_err());
    }
}

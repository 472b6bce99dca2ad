//! What the user asked for in the PDF layout modal (spec §5, §7): widgets, language, palette,
//! and the paper size of the real-scale print.

use serde::{Deserialize, Serialize};

use crate::document::POINTS_PER_CM;
use crate::i18n::Language;
use crate::local_time::ReportClock;
use crate::palette::Palette;
use crate::pressure_unit::PressureUnit;

/// A section of the analysis report. Each is one page, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Widget {
    /// The summary page: branding, patient, date, device, key figures, the map with its colour
    /// bar, and the notes. Always printed (spec §5).
    MainPage,
    /// The centres of pressure (and a walk's centre-of-pressure line) over the summary's map.
    PressureMap,
    /// A further page with the figures the summary has no room for (per-foot detail, each
    /// step, the balance sway plot), printed only when there are such figures.
    Results,
    /// A further page with the 8-bin pressure histogram, bin edges in the report's unit.
    Histogram,
    /// The notes on the summary page; a further page only for what does not fit (spec §5:
    /// printed only when there are notes).
    Notes,
}

/// Sensor units as any JSON integer (`53874.0` included, as JSON Schema's `integer` allows); a
/// fraction or a number outside `u16` is refused.
fn sensor_units<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u16>, D::Error> {
    match Option::<f64>::deserialize(deserializer)? {
        None => Ok(None),
        Some(v) if v.fract() == 0.0 && (0.0..=f64::from(u16::MAX)).contains(&v) => Ok(Some(v as u16)),
        Some(v) => Err(serde::de::Error::custom(format!("invalid value: {v}, expected sensor units 0 to {}", u16::MAX))),
    }
}

/// `layoutOptions` of `POST /api/downloadAnalysisPDF/{id}/{x}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct LayoutOptions {
    /// Widgets the user ticked (order and duplicates do not matter).
    pub widgets: Vec<Widget>,
    /// Report language.
    pub language: Language,
    /// Map palette.
    pub palette: Palette,
    /// Top of the colour scale in sensor units (the user's manual scale); the map's maximum
    /// when absent. Any JSON integer from 0 to 65535 (`275.0` included).
    #[serde(deserialize_with = "sensor_units")]
    pub manual_scale: Option<u16>,
    /// The unit of the printed pressures; mmHg, or kPa for the fitness variant, when absent.
    pub pressure_unit: Option<PressureUnit>,
    /// The user's clock for the printed date and time.
    #[serde(flatten)]
    pub clock: ReportClock,
}

impl LayoutOptions {
    /// The widgets that will be printed: Main Page always, Notes only when `has_notes`, the rest
    /// as asked, in [`Widget`] order.
    pub fn effective_widgets(&self, has_notes: bool) -> Vec<Widget> {
        let mut widgets: Vec<Widget> = self.widgets.iter().copied().filter(|w| *w != Widget::Notes || has_notes).collect();
        widgets.push(Widget::MainPage);
        widgets.sort_unstable();
        widgets.dedup();
        widgets
    }
}

/// Paper of the real-scale print (spec §5), portrait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum PaperSize {
    A3,
    A4,
}

impl PaperSize {
    /// Width and height in points: A4 210 × 297 mm = 595.28 × 841.89 pt; A3 297 × 420 mm =
    /// 841.89 × 1190.55 pt.
    pub fn points(self) -> (f32, f32) {
        let (w_mm, h_mm) = match self {
            PaperSize::A4 => (210.0, 297.0),
            PaperSize::A3 => (297.0, 420.0),
        };
        (w_mm / 10.0 * POINTS_PER_CM, h_mm / 10.0 * POINTS_PER_CM)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manual_scale_is_any_json_integer_within_sensor_units() {
        let scale = |json: &str| serde_json::from_str::<LayoutOptions>(json).map(|o| o.manual_scale);
        assert_eq!(scale(r#"{"manualScale": 53874.0}"#).expect("an integral float"), Some(53874));
        assert_eq!(scale(r#"{"manualScale": 275}"#).expect("an integer"), Some(275));
        assert_eq!(scale(r#"{"manualScale": null}"#).expect("null"), None);
        assert_eq!(scale("{}").expect("absent"), None);
        assert!(scale(r#"{"manualScale": 27.5}"#).is_err());
        assert!(scale(r#"{"manualScale": 65536}"#).is_err());
        assert!(scale(r#"{"manualScale": -1}"#).is_err());
    }

    #[test]
    fn main_page_is_always_on_and_notes_need_notes() {
        let options = LayoutOptions { widgets: vec![Widget::Notes, Widget::Histogram, Widget::Histogram], ..Default::default() };
        assert_eq!(options.effective_widgets(false), vec![Widget::MainPage, Widget::Histogram]);
        assert_eq!(options.effective_widgets(true), vec![Widget::MainPage, Widget::Histogram, Widget::Notes]);
        assert_eq!(LayoutOptions::default().effective_widgets(true), vec![Widget::MainPage]);
    }

    #[test]
    fn paper_sizes_in_points() {
        let (w, h) = PaperSize::A4.points();
        assert!((w - 595.28).abs() < 0.01 && (h - 841.89).abs() < 0.01);
        let (w, h) = PaperSize::A3.points();
        assert!((w - 841.89).abs() < 0.01 && (h - 1190.55).abs() < 0.01);
    }

    #[test]
    fn options_parse_from_the_client_json() {
        let options: LayoutOptions =
            serde_json::from_str(r#"{"widgets":["mainPage","pressureMap","notes"],"language":"ja","palette":"hot"}"#).unwrap();
        assert_eq!(options.language, Language::Ja);
        assert_eq!(options.palette.id(), "hot");
        assert_eq!(options.widgets, vec![Widget::MainPage, Widget::PressureMap, Widget::Notes]);
    }
}

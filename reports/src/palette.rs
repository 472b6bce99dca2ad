//! Colour palettes for pressure maps: a pressure is scaled to 0–1 against the map's scale and
//! looked up along the palette's colour stops. Zero is always white (no contact).

use serde::{Deserialize, Serialize};

use crate::document::Rgb;

/// A palette of the report's pressure maps. The client cycles palettes by `mapColorIndex`;
/// [`Palette::from_index`] maps that index onto these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Palette {
    /// Blue → cyan → green → yellow → red (the classic pressure-mat look).
    #[default]
    Jet,
    /// Black → red → yellow → white.
    Hot,
    /// Perceptually uniform purple → green → yellow.
    Viridis,
    /// Light grey → black, for black-and-white printing.
    Greys,
}

impl Palette {
    /// Every palette.
    pub const ALL: [Palette; 4] = [Palette::Jet, Palette::Hot, Palette::Viridis, Palette::Greys];

    /// The palette for the user's `mapColorIndex` (cycled).
    pub fn from_index(index: usize) -> Palette {
        Palette::ALL[index % Palette::ALL.len()]
    }

    fn stops(self) -> &'static [Rgb] {
        match self {
            Palette::Jet => &[
                [0.0, 0.0, 0.56],
                [0.0, 0.5, 1.0],
                [0.0, 0.9, 0.6],
                [0.9, 0.95, 0.0],
                [1.0, 0.5, 0.0],
                [0.6, 0.0, 0.0],
            ],
            Palette::Hot => &[[0.2, 0.0, 0.0], [0.9, 0.0, 0.0], [1.0, 0.6, 0.0], [1.0, 1.0, 0.4]],
            Palette::Viridis => {
                &[[0.27, 0.0, 0.33], [0.23, 0.32, 0.55], [0.13, 0.57, 0.55], [0.37, 0.79, 0.38], [0.99, 0.91, 0.14]]
            }
            Palette::Greys => &[[0.85, 0.85, 0.85], [0.0, 0.0, 0.0]],
        }
    }

    /// Colour of `value` on a scale whose top is `scale_max` (values above it saturate).
    pub fn colour(self, value: u16, scale_max: u16) -> Rgb {
        if value == 0 || scale_max == 0 {
            return [1.0, 1.0, 1.0];
        }
        let t = (f32::from(value) / f32::from(scale_max)).clamp(0.0, 1.0);
        let stops = self.stops();
        let position = t * (stops.len() - 1) as f32;
        let i = (position.floor() as usize).min(stops.len() - 2);
        let f = position - i as f32;
        let (a, b) = (stops[i], stops[i + 1]);
        [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_of_the_scale_are_the_end_stops_and_zero_is_white() {
        assert_eq!(Palette::Jet.colour(0, 100), [1.0, 1.0, 1.0]);
        assert_eq!(Palette::Jet.colour(1, 1), [0.6, 0.0, 0.0]);
        assert_eq!(Palette::Greys.colour(200, 100), [0.0, 0.0, 0.0]);
        // Half-way on a two-stop palette is the mean of the stops.
        let mid = Palette::Greys.colour(50, 100);
        assert!((mid[0] - 0.425).abs() < 1e-6);
        assert_eq!(Palette::from_index(5), Palette::Hot);
    }
}

//! The two vendored fonts (DejaVu Sans for Latin, Greek and Cyrillic; Noto Sans CJK JP for kana
//! and kanji, both subset, see fonts/README.md), text measurement, and the choice of font per
//! character: each character comes from the first font that has a glyph for it.

use std::sync::LazyLock;

use ttf_parser::{Face, GlyphId};

use crate::ReportError;

/// DejaVu Sans, subset: every European character of the eight languages.
pub const DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans-Subset.ttf");
/// Noto Sans CJK JP, subset and converted to TrueType outlines: kana, CJK punctuation and the
/// kanji of the report phrases.
pub const NOTO_SANS_JP: &[u8] = include_bytes!("../fonts/NotoSansJP-Subset.ttf");

/// The font files as the PDF embeds them (zlib, level 6), compressed once per process: deflating
/// ≈ 140 KB of font data took most of the time of every report.
static DEJAVU_SANS_DEFLATED: LazyLock<Vec<u8>> = LazyLock::new(|| deflate(DEJAVU_SANS));
static NOTO_SANS_JP_DEFLATED: LazyLock<Vec<u8>> = LazyLock::new(|| deflate(NOTO_SANS_JP));

fn deflate(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, 6)
}

/// A parsed font with the metrics the PDF needs.
pub struct Font {
    /// The font file.
    pub data: &'static [u8],
    /// PostScript-ish name used as /BaseFont.
    pub name: &'static str,
    deflated: &'static LazyLock<Vec<u8>>,
    face: Face<'static>,
}

impl Font {
    fn parse(data: &'static [u8], name: &'static str, deflated: &'static LazyLock<Vec<u8>>) -> Result<Font, ReportError> {
        let face = Face::parse(data, 0).map_err(|e| ReportError::Font(e.to_string()))?;
        Ok(Font { data, name, deflated, face })
    }

    /// The font file zlib-compressed, as the PDF embeds it (computed once per process).
    pub fn deflated(&self) -> &'static [u8] {
        LazyLock::force(self.deflated).as_slice()
    }

    /// Glyph of `c`, if the font has one.
    pub fn glyph(&self, c: char) -> Option<u16> {
        self.face.glyph_index(c).map(|g| g.0).filter(|&g| g != 0)
    }

    /// Advance of glyph `gid` in thousandths of the font size (PDF glyph space).
    pub fn advance(&self, gid: u16) -> f32 {
        let units = f32::from(self.face.glyph_hor_advance(GlyphId(gid)).unwrap_or(0));
        units * 1000.0 / f32::from(self.face.units_per_em())
    }

    /// Ascent, descent, cap height and bounding box in thousandths of the font size.
    pub fn metrics(&self) -> FontMetrics {
        let scale = 1000.0 / f32::from(self.face.units_per_em());
        let bbox = self.face.global_bounding_box();
        FontMetrics {
            ascent: f32::from(self.face.ascender()) * scale,
            descent: f32::from(self.face.descender()) * scale,
            cap_height: f32::from(self.face.capital_height().unwrap_or(self.face.ascender())) * scale,
            bbox: [
                f32::from(bbox.x_min) * scale,
                f32::from(bbox.y_min) * scale,
                f32::from(bbox.x_max) * scale,
                f32::from(bbox.y_max) * scale,
            ],
        }
    }
}

/// Font-wide metrics, in thousandths of the font size.
#[derive(Debug, Clone, Copy)]
pub struct FontMetrics {
    pub ascent: f32,
    pub descent: f32,
    pub cap_height: f32,
    pub bbox: [f32; 4],
}

/// The fonts in fallback order.
pub struct FontSet {
    pub fonts: Vec<Font>,
}

/// A stretch of text set in one font: its glyphs and the characters they stand for.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Index into [`FontSet::fonts`].
    pub font: usize,
    /// (glyph, character) pairs.
    pub glyphs: Vec<(u16, char)>,
}

impl FontSet {
    /// Parses the vendored fonts.
    pub fn load() -> Result<FontSet, ReportError> {
        Ok(FontSet {
            fonts: vec![
                Font::parse(DEJAVU_SANS, "DejaVuSans", &DEJAVU_SANS_DEFLATED)?,
                Font::parse(NOTO_SANS_JP, "NotoSansCJKjp-Regular", &NOTO_SANS_JP_DEFLATED)?,
            ],
        })
    }

    /// Splits `text` into runs, each character from the first font that has it; a character no
    /// font has is set as the first font's missing glyph (0), so the layout keeps its place.
    pub fn runs(&self, text: &str) -> Vec<Run> {
        let mut runs: Vec<Run> = Vec::new();
        for c in text.chars().filter(|c| !c.is_control()) {
            let (font, gid) = self.fonts.iter().enumerate().find_map(|(i, f)| f.glyph(c).map(|g| (i, g))).unwrap_or((0, 0));
            match runs.last_mut() {
                Some(run) if run.font == font => run.glyphs.push((gid, c)),
                _ => runs.push(Run { font, glyphs: vec![(gid, c)] }),
            }
        }
        runs
    }

    /// Width of `text` at `size` points.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        self.runs(text).iter().map(|run| run.glyphs.iter().map(|&(g, _)| self.fonts[run.font].advance(g)).sum::<f32>()).sum::<f32>() * size
            / 1000.0
    }

    /// Whether every character of `text` has a glyph in some font.
    pub fn covers(&self, text: &str) -> bool {
        text.chars().filter(|c| !c.is_control()).all(|c| self.fonts.iter().any(|f| f.glyph(c).is_some()))
    }

    /// Breaks `text` into lines no wider than `max_width` at `size`: at spaces where possible,
    /// between any two characters in a word too long for a line (Japanese has no spaces).
    pub fn wrap(&self, text: &str, size: f32, max_width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.split('\n') {
            let mut line = String::new();
            for word in paragraph.split(' ') {
                let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
                if self.width(&candidate, size) <= max_width {
                    line = candidate;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                for c in word.chars() {
                    line.push(c);
                    if self.width(&line, size) > max_width && line.chars().count() > 1 {
                        line.pop();
                        lines.push(std::mem::replace(&mut line, c.to_string()));
                    }
                }
            }
            lines.push(line);
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::all_texts;

    #[test]
    fn every_phrase_of_every_language_has_glyphs() {
        let fonts = FontSet::load().unwrap();
        for phrase in all_texts() {
            // A template's placeholders (`i18n::unit_label`) are filled in, never printed.
            let printed = phrase.replace("{{building}}", "").replace("{{floor}}", "");
            assert!(fonts.covers(&printed), "no glyph for some character of {phrase:?}");
        }
        // And the whole alphabets a patient's name or notes may use.
        assert!(fonts.covers("ÁÉÍÓÚÑñçàèùœ ΑΒΓΔάέήίόύώΰ АБВГДЕЁЖЗабвгдеёжзщъыьэюя あいうえお アイウエオ"));
        // A reading at the sensor's full scale is printed "≥ 102 mmHg".
        assert!(fonts.covers("≥ ≤"));
    }

    #[test]
    fn latin_greek_and_cyrillic_come_from_dejavu_and_kana_from_noto() {
        let fonts = FontSet::load().unwrap();
        let runs = fonts.runs("Aβж解析");
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].font, runs[0].glyphs.len()), (0, 3));
        assert_eq!((runs[1].font, runs[1].glyphs.len()), (1, 2));
    }

    #[test]
    fn wrapping_respects_the_width() {
        let fonts = FontSet::load().unwrap();
        let lines = fonts.wrap("one two three four five six seven", 10.0, 60.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| fonts.width(l, 10.0) <= 60.0));
        assert_eq!(lines.join(" "), "one two three four five six seven");
        let ja = fonts.wrap("足跡が端に触れています：解析をやり直してください", 10.0, 50.0);
        assert!(ja.len() > 1 && ja.iter().all(|l| fonts.width(l, 10.0) <= 50.0));
    }
}

//! A small page builder over pdf-writer: pages of a fixed size, text in the vendored fonts
//! (embedded as Type0/CIDFontType2 with identity encoding and a ToUnicode map, so the text can
//! be searched and copied), filled rectangles and lines. Coordinates are PDF points from the
//! bottom-left corner.

use std::collections::BTreeMap;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str};

use crate::ReportError;
use crate::font::FontSet;
use crate::logo::{LogoData, LogoImage};

/// PDF points per centimetre (72 per inch, 2.54 cm per inch).
pub const POINTS_PER_CM: f32 = 72.0 / 2.54;

/// An RGB colour, components 0–1.
pub type Rgb = [f32; 3];

/// One page being drawn.
pub struct PageCanvas {
    content: Content,
}

impl PageCanvas {
    /// Fills a rectangle.
    pub fn fill_rect(&mut self, x: f32, y: f32, width: f32, height: f32, colour: Rgb) {
        self.content.set_fill_rgb(colour[0], colour[1], colour[2]);
        self.content.rect(x, y, width, height);
        self.content.fill_nonzero();
    }

    /// Fills unit squares `(x, y)` (lower-left corners, in the current user space) as one path in
    /// one colour: a map's cells of one value cost one colour change and one fill, and their
    /// integer corners are written without float formatting.
    pub fn fill_unit_squares(&mut self, colour: Rgb, corners: impl IntoIterator<Item = (i32, i32)>) {
        self.content.set_fill_rgb(colour[0], colour[1], colour[2]);
        for (x, y) in corners {
            self.content.op("re").operands([x, y, 1, 1]);
        }
        self.content.fill_nonzero();
    }

    /// Runs `draw` with user space scaled by `scale` and its origin moved to (`x`, `y`), then
    /// restores the graphics state.
    pub fn scaled(&mut self, x: f32, y: f32, scale: f32, draw: impl FnOnce(&mut PageCanvas)) {
        self.content.save_state();
        self.content.transform([scale, 0.0, 0.0, scale, x, y]);
        draw(self);
        self.content.restore_state();
    }

    /// Strokes a rectangle's outline.
    pub fn stroke_rect(&mut self, x: f32, y: f32, width: f32, height: f32, colour: Rgb, line_width: f32) {
        self.content.set_stroke_rgb(colour[0], colour[1], colour[2]);
        self.content.set_line_width(line_width);
        self.content.rect(x, y, width, height);
        self.content.stroke();
    }

    /// Draws a straight line.
    pub fn line(&mut self, from: [f32; 2], to: [f32; 2], colour: Rgb, line_width: f32) {
        self.content.set_stroke_rgb(colour[0], colour[1], colour[2]);
        self.content.set_line_width(line_width);
        self.content.move_to(from[0], from[1]);
        self.content.line_to(to[0], to[1]);
        self.content.stroke();
    }

    /// Paints image `index` of the document into the `width × height` box at (`x`, `y`).
    pub fn image(&mut self, index: usize, x: f32, y: f32, width: f32, height: f32) {
        self.content.save_state();
        self.content.transform([width, 0.0, 0.0, height, x, y]);
        self.content.x_object(Name(image_resource_name(index).as_bytes()));
        self.content.restore_state();
    }

    /// Strokes an open polyline through `points`.
    pub fn polyline(&mut self, points: &[[f32; 2]], colour: Rgb, line_width: f32) {
        let Some((first, rest)) = points.split_first() else { return };
        self.content.set_stroke_rgb(colour[0], colour[1], colour[2]);
        self.content.set_line_width(line_width);
        self.content.move_to(first[0], first[1]);
        for p in rest {
            self.content.line_to(p[0], p[1]);
        }
        self.content.stroke();
    }

    /// Wraps what `draw` paints in a marked-content sequence tagged `tag`, so a reader (or a
    /// test) can find it.
    pub fn marked(&mut self, tag: &[u8], draw: impl FnOnce(&mut PageCanvas)) {
        self.content.begin_marked_content(Name(tag));
        draw(self);
        self.content.end_marked_content();
    }
}

/// A document being built: pages, then fonts written once at the end with the widths of the
/// glyphs actually used.
pub struct Document {
    fonts: FontSet,
    width: f32,
    height: f32,
    pages: Vec<Content>,
    used: Vec<BTreeMap<u16, char>>,
    images: Vec<LogoImage>,
}

impl Document {
    /// An empty document whose pages are `width × height` points.
    pub fn new(width: f32, height: f32) -> Result<Document, ReportError> {
        let fonts = FontSet::load()?;
        let used = vec![BTreeMap::new(); fonts.fonts.len()];
        Ok(Document { fonts, width, height, pages: Vec::new(), used, images: Vec::new() })
    }

    /// The fonts, for measuring text.
    pub fn fonts(&self) -> &FontSet {
        &self.fonts
    }

    /// Page width, points.
    pub fn width(&self) -> f32 {
        self.width
    }

    /// Page height, points.
    pub fn height(&self) -> f32 {
        self.height
    }

    /// Adds a page and lets `draw` paint it; `text` calls go through the document so the fonts
    /// know which glyphs to describe.
    pub fn page(&mut self, draw: impl FnOnce(&mut Document, &mut PageCanvas)) {
        let mut canvas = PageCanvas { content: Content::new() };
        draw(self, &mut canvas);
        self.pages.push(canvas.content);
    }

    /// Sets `text` with its baseline starting at (`x`, `y`), `size` points, in `colour`.
    pub fn text(&mut self, canvas: &mut PageCanvas, x: f32, y: f32, size: f32, colour: Rgb, text: &str) {
        let runs = self.fonts.runs(text);
        let content = &mut canvas.content;
        content.set_fill_rgb(colour[0], colour[1], colour[2]);
        content.begin_text();
        content.next_line(x, y);
        for run in runs {
            let name = font_resource_name(run.font);
            content.set_font(Name(name.as_bytes()), size);
            let mut bytes = Vec::with_capacity(run.glyphs.len() * 2);
            for &(gid, c) in &run.glyphs {
                bytes.extend_from_slice(&gid.to_be_bytes());
                self.used[run.font].insert(gid, c);
            }
            content.show(Str(&bytes));
        }
        content.end_text();
    }

    /// Adds an image to the document; [`PageCanvas::image`] paints it by the returned index.
    pub fn add_image(&mut self, image: LogoImage) -> usize {
        self.images.push(image);
        self.images.len() - 1
    }

    /// Width of `text` at `size` points.
    pub fn text_width(&self, text: &str, size: f32) -> f32 {
        self.fonts.width(text, size)
    }

    /// Writes the PDF.
    pub fn finish(self) -> Vec<u8> {
        let mut next = 1;
        let mut alloc = || {
            let r = Ref::new(next);
            next += 1;
            r
        };
        let mut pdf = Pdf::new();
        let (catalog_id, tree_id) = (alloc(), alloc());
        // Only fonts that set some text are written (an empty ToUnicode map is not valid).
        let font_ids: Vec<Option<Ref>> = self.used.iter().map(|glyphs| (!glyphs.is_empty()).then(&mut alloc)).collect();
        let page_ids: Vec<(Ref, Ref)> = (0..self.pages.len()).map(|_| (alloc(), alloc())).collect();
        let image_ids: Vec<Ref> = self.images.iter().map(|_| alloc()).collect();

        pdf.catalog(catalog_id).pages(tree_id);
        pdf.pages(tree_id).kids(page_ids.iter().map(|&(page, _)| page)).count(page_ids.len() as i32);
        for (content, &(page_id, content_id)) in self.pages.into_iter().zip(&page_ids) {
            let mut page = pdf.page(page_id);
            page.parent(tree_id).media_box(Rect::new(0.0, 0.0, self.width, self.height)).contents(content_id);
            let mut resources = page.resources();
            let mut fonts = resources.fonts();
            for (i, font_id) in font_ids.iter().enumerate() {
                if let Some(font_id) = *font_id {
                    fonts.pair(Name(font_resource_name(i).as_bytes()), font_id);
                }
            }
            fonts.finish();
            if !image_ids.is_empty() {
                let mut x_objects = resources.x_objects();
                for (i, &id) in image_ids.iter().enumerate() {
                    x_objects.pair(Name(image_resource_name(i).as_bytes()), id);
                }
                x_objects.finish();
            }
            resources.finish();
            page.finish();
            pdf.stream(content_id, &content.finish());
        }
        for (image, &id) in self.images.iter().zip(&image_ids) {
            let deflated;
            let (data, filter) = match &image.data {
                LogoData::Jpeg(bytes) => (bytes.as_slice(), Filter::DctDecode),
                LogoData::Raw(samples) => {
                    deflated = miniz_oxide::deflate::compress_to_vec_zlib(samples, 6);
                    (deflated.as_slice(), Filter::FlateDecode)
                }
            };
            let mut xobject = pdf.image_xobject(id, data);
            xobject.filter(filter);
            xobject.width(image.width as i32).height(image.height as i32).bits_per_component(8);
            if image.components == 1 {
                xobject.color_space().device_gray();
            } else {
                xobject.color_space().device_rgb();
            }
            xobject.finish();
        }
        for (i, font) in self.fonts.fonts.iter().enumerate() {
            let Some(font_id) = font_ids[i] else { continue };
            let (cid_id, descriptor_id, file_id, cmap_id) = (alloc(), alloc(), alloc(), alloc());
            let base_font = format!("{}{}", subset_tag(i), font.name);
            let system_info = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };

            pdf.type0_font(font_id)
                .base_font(Name(base_font.as_bytes()))
                .encoding_predefined(Name(b"Identity-H"))
                .descendant_font(cid_id)
                .to_unicode(cmap_id);

            let mut cid = pdf.cid_font(cid_id);
            cid.subtype(CidFontType::Type2)
                .base_font(Name(base_font.as_bytes()))
                .system_info(system_info)
                .font_descriptor(descriptor_id)
                .default_width(0.0)
                .cid_to_gid_map_predefined(Name(b"Identity"));
            let mut widths = cid.widths();
            for &gid in self.used[i].keys() {
                widths.consecutive(gid, [font.advance(gid)]);
            }
            widths.finish();
            cid.finish();

            let metrics = font.metrics();
            let [x0, y0, x1, y1] = metrics.bbox;
            pdf.font_descriptor(descriptor_id)
                .name(Name(base_font.as_bytes()))
                .flags(FontFlags::NON_SYMBOLIC)
                .bbox(Rect::new(x0, y0, x1, y1))
                .italic_angle(0.0)
                .ascent(metrics.ascent)
                .descent(metrics.descent)
                .cap_height(metrics.cap_height)
                .stem_v(80.0)
                .font_file2(file_id);

            pdf.stream(file_id, font.deflated()).filter(Filter::FlateDecode).pair(Name(b"Length1"), font.data.len() as i32);

            pdf.stream(cmap_id, &to_unicode_cmap(&self.used[i]));
        }
        pdf.finish()
    }
}

/// The ToUnicode map from glyph ids to the characters they were set for, written by hand in the
/// minimal form of the PDF spec (§9.10.3): pdf-writer's own map carries optional `CMapVersion`
/// and `WMode` entries that some readers (lopdf among them) reject. At most 100 entries per
/// `bfchar` block, as the spec requires.
fn to_unicode_cmap(used: &BTreeMap<u16, char>) -> Vec<u8> {
    let mut out = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    let pairs: Vec<(&u16, &char)> = used.iter().collect();
    for block in pairs.chunks(100) {
        out.push_str(&format!("{} beginbfchar\n", block.len()));
        for (gid, c) in block {
            let mut units = [0u16; 2];
            let utf16: String = c.encode_utf16(&mut units).iter().map(|u| format!("{u:04X}")).collect();
            out.push_str(&format!("<{gid:04X}> <{utf16}>\n"));
        }
        out.push_str("endbfchar\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out.into_bytes()
}

/// The page-resource name of font `index`.
fn font_resource_name(index: usize) -> String {
    format!("F{index}")
}

/// The page-resource name of image `index`.
fn image_resource_name(index: usize) -> String {
    format!("Im{index}")
}

/// The six-letter tag PDF expects before the name of a subset font.
fn subset_tag(index: usize) -> &'static str {
    ["PMATAA+", "PMATAB+"].get(index).copied().unwrap_or("PMATZZ+")
}

//! The company's logo, read from the PNG or JPEG bytes the branding keeps (mat-api checks the
//! type and size) into what a PDF image needs. A JPEG is embedded as it is (DCTDecode); a PNG is
//! decoded (8-bit, not interlaced: what image editors write) and its transparency laid over the
//! white page, then deflated again. A logo in another form is left out: the company's name still
//! heads the report.

use miniz_oxide::inflate::decompress_to_vec_zlib;

/// An image ready to embed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogoImage {
    pub width: u32,
    pub height: u32,
    /// 1 (grey) or 3 (RGB) components of 8 bits.
    pub components: u8,
    pub data: LogoData,
}

/// The image's samples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogoData {
    /// A baseline or progressive JPEG file, embedded as is.
    Jpeg(Vec<u8>),
    /// Raw samples, row by row, `components` bytes per pixel.
    Raw(Vec<u8>),
}

/// Decodes a logo; `None` when it is neither a JPEG nor a PNG this reader handles.
pub fn decode_logo(bytes: &[u8]) -> Option<LogoImage> {
    if bytes.starts_with(&[0xFF, 0xD8]) {
        jpeg(bytes)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        png(bytes)
    } else {
        None
    }
}

fn jpeg(bytes: &[u8]) -> Option<LogoImage> {
    let mut i = 2;
    while i + 4 <= bytes.len() {
        if bytes[i] != 0xFF {
            return None;
        }
        let marker = bytes[i + 1];
        let length = usize::from(u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]));
        // Start of frame (baseline, extended, progressive): precision, height, width, components.
        if matches!(marker, 0xC0..=0xC2) {
            let s = bytes.get(i + 4..i + 10)?;
            let height = u32::from(u16::from_be_bytes([s[1], s[2]]));
            let width = u32::from(u16::from_be_bytes([s[3], s[4]]));
            let components = s[5];
            if width == 0 || height == 0 || !matches!(components, 1 | 3) {
                return None;
            }
            return Some(LogoImage { width, height, components, data: LogoData::Jpeg(bytes.to_vec()) });
        }
        i += 2 + length;
    }
    None
}

fn png(bytes: &[u8]) -> Option<LogoImage> {
    let mut at = 8;
    let (mut width, mut height, mut colour_type) = (0u32, 0u32, 0u8);
    let (mut palette, mut transparency, mut idat) = (Vec::new(), Vec::new(), Vec::new());
    while at + 8 <= bytes.len() {
        let length = u32::from_be_bytes(bytes[at..at + 4].try_into().ok()?) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = bytes.get(at + 8..at + 8 + length)?;
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data.get(0..4)?.try_into().ok()?);
                height = u32::from_be_bytes(data.get(4..8)?.try_into().ok()?);
                let (depth, interlace) = (*data.get(8)?, *data.get(12)?);
                colour_type = *data.get(9)?;
                if depth != 8 || interlace != 0 || width == 0 || height == 0 || width > 8192 || height > 8192 {
                    return None;
                }
            }
            b"PLTE" => palette = data.to_vec(),
            b"tRNS" => transparency = data.to_vec(),
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        at += 12 + length;
    }
    let channels: usize = match colour_type {
        0 | 3 => 1,
        4 => 2,
        2 => 3,
        6 => 4,
        _ => return None,
    };
    let (w, h) = (width as usize, height as usize);
    let raw = decompress_to_vec_zlib(&idat).ok()?;
    let stride = w * channels;
    if raw.len() < h * (stride + 1) {
        return None;
    }
    let mut pixels = vec![0u8; h * stride];
    for row in 0..h {
        let filter = raw[row * (stride + 1)];
        let line = &raw[row * (stride + 1) + 1..(row + 1) * (stride + 1)];
        for x in 0..stride {
            let a = if x >= channels { pixels[row * stride + x - channels] } else { 0 };
            let b = if row > 0 { pixels[(row - 1) * stride + x] } else { 0 };
            let c = if row > 0 && x >= channels { pixels[(row - 1) * stride + x - channels] } else { 0 };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => paeth(a, b, c),
                _ => return None,
            };
            pixels[row * stride + x] = line[x].wrapping_add(predicted);
        }
    }
    // Over white: value × alpha + 255 × (1 − alpha).
    let over_white = |v: u8, alpha: u8| ((u16::from(v) * u16::from(alpha) + 255 * (255 - u16::from(alpha)) + 127) / 255) as u8;
    let (components, samples): (u8, Vec<u8>) = match colour_type {
        0 => (1, pixels),
        4 => (1, pixels.chunks(2).map(|p| over_white(p[0], p[1])).collect()),
        2 => (3, pixels),
        6 => (3, pixels.chunks(4).flat_map(|p| [over_white(p[0], p[3]), over_white(p[1], p[3]), over_white(p[2], p[3])]).collect()),
        _ => {
            let mut rgb = Vec::with_capacity(w * h * 3);
            for &index in &pixels {
                let i = usize::from(index);
                let colour = palette.get(i * 3..i * 3 + 3)?;
                let alpha = transparency.get(i).copied().unwrap_or(255);
                rgb.extend(colour.iter().map(|&v| over_white(v, alpha)));
            }
            (3, rgb)
        }
    };
    Some(LogoImage { width, height, components, data: LogoData::Raw(samples) })
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = ((p - i16::from(a)).abs(), (p - i16::from(b)).abs(), (p - i16::from(c)).abs());
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use miniz_oxide::deflate::compress_to_vec_zlib;

    fn chunk(kind: &[u8], data: &[u8]) -> Vec<u8> {
        // The CRC is not checked by the reader; zero keeps the fixture short.
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out.extend_from_slice(&[0; 4]);
        out
    }

    /// A `width × height` RGBA PNG whose rows use filters None, Sub, Up, Average and Paeth in
    /// turn; `pixel(x, y)` gives each pixel.
    pub(crate) fn rgba_png(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        let stride = width as usize * 4;
        let rows: Vec<Vec<u8>> = (0..height).map(|y| (0..width).flat_map(|x| pixel(x, y)).collect()).collect();
        let mut raw = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            let filter = (y % 5) as u8;
            raw.push(filter);
            for x in 0..stride {
                let a = if x >= 4 { row[x - 4] } else { 0 };
                let b = if y > 0 { rows[y - 1][x] } else { 0 };
                let c = if y > 0 && x >= 4 { rows[y - 1][x - 4] } else { 0 };
                let predicted = match filter {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                    _ => paeth(a, b, c),
                };
                raw.push(row[x].wrapping_sub(predicted));
            }
        }
        let mut ihdr = width.to_be_bytes().to_vec();
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend(chunk(b"IHDR", &ihdr));
        png.extend(chunk(b"IDAT", &compress_to_vec_zlib(&raw, 6)));
        png.extend(chunk(b"IEND", &[]));
        png
    }

    #[test]
    fn a_png_with_every_filter_and_transparency_is_read_over_white() {
        let png = rgba_png(7, 6, |x, y| if x == 0 { [0, 0, 0, 0] } else { [(x * 30) as u8, (y * 40) as u8, 200, 255] });
        let logo = decode_logo(&png).unwrap();
        assert_eq!((logo.width, logo.height, logo.components), (7, 6, 3));
        let LogoData::Raw(samples) = logo.data else { panic!("not raw") };
        for y in 0..6usize {
            assert_eq!(&samples[y * 21..y * 21 + 3], &[255, 255, 255], "transparent column is white");
            for x in 1..7usize {
                assert_eq!(&samples[y * 21 + x * 3..y * 21 + x * 3 + 3], &[(x * 30) as u8, (y * 40) as u8, 200]);
            }
        }
    }

    #[test]
    fn a_jpeg_is_kept_whole_and_anything_else_is_left_out() {
        // SOI, an APP0 of 4 bytes, SOF0: precision 8, 20 rows, 30 columns, 3 components.
        let jpeg = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0, 0, 0xFF, 0xC0, 0x00, 0x11, 8, 0, 20, 0, 30, 3];
        let logo = decode_logo(&jpeg).unwrap();
        assert_eq!((logo.width, logo.height, logo.components), (30, 20, 3));
        assert_eq!(logo.data, LogoData::Jpeg(jpeg.to_vec()));
        assert_eq!(decode_logo(b"GIF89a"), None);
        assert_eq!(decode_logo(b"\x89PNG\r\n\x1a\n"), None);
    }
}

//! A decoded picture a format found in its input (a texture through its palette, a DXT
//! block image), with what it was decoded from named: what previews draw. Formats make it;
//! nothing here knows a format.

use super::mesh::Image;

/// A texture decoded to RGBA8, with its stored pixel format and palette named.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DecodedImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, row 0 at the top as drawn.
    pub rgba: Vec<u8>,
    /// The stored pixel format as the format names it (`PSMT8`, `RGBA32`, `DXT5`).
    pub format: String,
    /// The palette (CLUT) it was decoded through, by name, for indexed formats.
    pub clut: Option<String>,
    /// Which mip level this is (0 = full size).
    pub level: usize,
}

impl DecodedImage {
    /// An image from decoded pixels and the names of what they were decoded from.
    pub fn new(image: Image, format: impl Into<String>, clut: Option<String>, level: usize) -> DecodedImage {
        DecodedImage { width: image.width, height: image.height, rgba: image.rgba, format: format.into(), clut, level }
    }

    /// The RGBA of pixel (x, y), or None outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (usize::try_from(y).ok()? * usize::try_from(self.width).ok()? + usize::try_from(x).ok()?) * 4;
        self.rgba.get(i..i + 4).and_then(|p| <[u8; 4]>::try_from(p).ok())
    }

    /// Bytes the pixels hold (what a preview is charged against the memory budget).
    pub fn pixel_bytes(&self) -> u64 {
        self.rgba.len() as u64
    }

    /// One line naming it: `64×32 PSMT4 via CLUT_a`.
    pub fn describe(&self) -> String {
        let mut s = format!("{}×{} {}", self.width, self.height, self.format);
        if self.level > 0 {
            s.push_str(&format!(" (mip {})", self.level));
        }
        if let Some(c) = &self.clut {
            s.push_str(&format!(" via CLUT {c}"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_reads_row_major_and_misses_outside() {
        let img = DecodedImage::new(Image { width: 2, height: 2, rgba: (0u8..16).collect() }, "RGBA32", None, 0);
        assert_eq!(img.pixel(1, 0), Some([4, 5, 6, 7]));
        assert_eq!(img.pixel(0, 1), Some([8, 9, 10, 11]));
        assert_eq!(img.pixel(2, 0), None);
        assert_eq!(img.pixel(0, 2), None);
        assert_eq!(img.describe(), "2×2 RGBA32");
        let c = DecodedImage { clut: Some("CLT_a".into()), level: 1, ..img };
        assert_eq!(c.describe(), "2×2 RGBA32 (mip 1) via CLUT CLT_a");
    }
}

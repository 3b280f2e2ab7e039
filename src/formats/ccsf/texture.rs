//! Texture (0x0300) and Clut (0x0400) chunks (docs/formats/ccsf.md#texture-0x0300): stored form with spans, and
//! decoding indexed pixels to RGBA.

use super::band;
use super::raw;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{read, read_at};
use crate::limits::Limits;
use crate::model::Span;

/// One mip level as stored.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct Level {
    pub buf_x: u16,
    pub buf_y: u16,
    pub count: u32,
    pub span: Span,
    pub pixels: Span,
}

/// A Texture chunk as stored.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct TextureData {
    pub texture: u32,
    pub clut: u32,
    /// Offset of the `clut` field (where a missing CLUT is reported).
    pub clut_at: u64,
    pub blt_group: Option<u32>,
    /// Offset of the `flag` byte (h in the spec).
    pub h: u64,
    pub flag: u8,
    pub psm: u8,
    pub mipmap: u8,
    pub aref: u8,
    pub tw: u8,
    pub th: u8,
    /// Version >= 0x90 header (8 bytes) or the old 4-byte one.
    pub long_header: bool,
    pub levels: Vec<Level>,
    pub end: u64,
    /// Gen 2 (version ≥ 0x110): RGBA32 pixels (psm 0) decode too.
    pub gen2: bool,
    /// Gen 2 BTX block (psm 0x87..0x89): marker, length, BTX header and DXT data.
    pub btx: Option<Btx>,
    /// Gen 2 non-power-of-two texture (`tw` or `th` 0xFF): level 0's explicit width and
    /// height (SC's reading [?]); level 0 has no buf_x/buf_y word.
    pub npot: Option<raw::NpotHead>,
}

/// A gen-2 BTX block as stored (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two [X:AH], [?]).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct Btx {
    /// The whole block: marker, length, header and data.
    pub span: Span,
    pub head: raw::BtxHead,
    pub header: raw::BtxHeader,
    /// The DXT data (`btx_size` − 64 bytes after the header, AH's reading).
    pub data: Span,
}

impl TextureData {
    /// Whether decoding reads a palette (indexed psm 0x13, 0x14).
    pub fn needs_clut(&self) -> bool {
        self.btx.is_none() && !(self.gen2 && self.psm == 0)
    }

    /// Width and height of mip `level` when the file says them: 2^tw × 2^th halved per
    /// level, a non-power-of-two texture's level 0, a BTX header's size.
    pub fn level_size(&self, level: usize) -> Option<(u64, u64)> {
        if let Some(b) = &self.btx {
            return (level == 0).then(|| (u64::from(*b.header.width), u64::from(*b.header.height)));
        }
        if let Some(n) = &self.npot {
            // the sizes of its further levels are not stated [?]
            return (level == 0).then(|| (u64::from(*n.width), u64::from(*n.height)));
        }
        let shift = u32::try_from(level).ok()?;
        let half = |log2: u8| (1u64 << log2.min(31)).checked_shr(shift).unwrap_or(0);
        Some((half(self.tw), half(self.th)))
    }
}

/// A Clut chunk as stored.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct ClutData {
    pub clut: u32,
    pub blt_group: Option<u32>,
    pub h: u64,
    pub flag: u8,
    pub cpsm: u8,
    pub unknown_2: u8,
    pub unknown_3: u8,
    pub buf_x: u16,
    pub buf_y: u16,
    pub colours: Vec<u32>,
    pub colours_span: Span,
}

pub(in crate::formats) fn parse_texture(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits) -> Result<TextureData> {
    let p = off + 8;
    let head: raw::TextureHead = read(b, p, (version,)).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let (texture, clut, blt_group) = (*head.texture, *head.clut, head.blt_group.map(|x| *x));
    let clut_at = head.clut.span.start;
    let long_header = head.long.is_some();
    let (flag, psm) = (*head.flag, *head.psm);
    let (mipmap, aref, tw, th) = head.long.as_ref().map_or((0, 0, 0, 0), |l| (*l.mipmap, *l.aref, *l.tw, *l.th));
    let hstart = head.flag.span.start;
    let h = head.pad.span.end;
    let gen2 = band::of(version).gen2();
    let mut levels = Vec::with_capacity(usize::from(mipmap) + 1);
    let mut q = h;
    let mut btx = None;
    let mut npot = None;
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    if gen2 && matches!(psm, 0x87..=0x89) {
        // docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two: u32 marker, u32 length of what follows, BTX header + DXT data
        let head: raw::BtxHead = read_at(b, h).map_err(plain)?;
        let n = u64::from(*head.btx_size);
        b.check_count("btx byte", h + 8, n, 1, limits.max_inflated)?;
        let header: raw::BtxHeader = read_at(&b.sub(h + 8, h + 8 + n)?, h + 8).map_err(plain)?;
        btx = Some(Btx { span: Span::at(h, 8 + n), head, header, data: Span::new(h + 8 + 64, h + 8 + n) });
        q = h + 8 + n;
    } else if gen2 && (tw == 0xff || th == 0xff) {
        // docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two (SC's reading, [?]): u16 width, u16 height, u32 count, the pixel
        // words; then the further levels as usual
        let head: raw::NpotHead = read_at(b, h).map_err(plain)?;
        let count = *head.count;
        b.check_count("texture word", h + 8, u64::from(count), 4, limits.max_inflated / 4)?;
        levels.push(Level {
            buf_x: 0,
            buf_y: 0,
            count,
            span: Span::at(h, 8 + 4 * u64::from(count)),
            pixels: Span::at(h + 8, 4 * u64::from(count)),
        });
        q = h + 8 + 4 * u64::from(count);
        npot = Some(head);
    }
    for _ in usize::from(npot.is_some())..=usize::from(mipmap) {
        if btx.is_some() {
            break;
        }
        let head: raw::LevelHead = read_at(b, q).map_err(|e| ParseError::new(e.offset, e.kind))?;
        let count = *head.count;
        b.check_count("texture word", q + 8, u64::from(count), 4, limits.max_inflated / 4)?;
        levels.push(Level {
            buf_x: *head.buf_x,
            buf_y: *head.buf_y,
            count,
            span: Span::at(q, 8 + 4 * u64::from(count)),
            pixels: Span::at(q + 8, 4 * u64::from(count)),
        });
        q += 8 + 4 * u64::from(count);
    }
    Ok(TextureData {
        texture,
        clut,
        clut_at,
        blt_group,
        h: hstart,
        flag,
        psm,
        mipmap,
        aref,
        tw,
        th,
        long_header,
        levels,
        end: q,
        gen2,
        btx,
        npot,
    })
}

pub(in crate::formats) fn parse_clut(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits) -> Result<ClutData> {
    let p = off + 8;
    let head: raw::ClutHead = read(b, p, (version,)).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let (clut, blt_group, h) = (*head.clut, head.blt_group.map(|x| *x), head.flag.span.start);
    let count = *head.count;
    let n = b.check_count("clut colour", h + 12, u64::from(count), 4, limits.max_keys as u64)?;
    let colours = super::model_data::read_u32s(b, h + 12, n)?.0;
    Ok(ClutData {
        clut,
        blt_group,
        h,
        flag: *head.flag,
        cpsm: *head.cpsm,
        unknown_2: *head.unknown_2,
        unknown_3: *head.unknown_3,
        buf_x: *head.buf_x,
        buf_y: *head.buf_y,
        colours,
        colours_span: Span::at(h + 12, 4 * n as u64),
    })
}

/// Decoded pixels are the model's image type.
pub use crate::model::mesh::Image;

/// Colour word (R, G, B, A with 0x80 = opaque) → RGBA8.
pub fn clut_rgba(w: u32) -> [u8; 4] {
    let [r, g, bl, a] = w.to_le_bytes();
    [r, g, bl, u8::try_from((u16::from(a) * 2).min(255)).unwrap_or(255)]
}

/// Decode mip `level` of a texture, through its palette when it is indexed
/// ([`TextureData::needs_clut`]). Rows are stored bottom row first; 4-bit pixels have the
/// left pixel in the low nibble; BTX textures decode their DXT blocks ([`decode_btx`]).
pub(in crate::formats) fn decode_level(
    data: &[u8],
    t: &TextureData,
    clut: Option<&ClutData>,
    level: usize,
) -> Result<Image> {
    if let Some(btx) = &t.btx {
        return decode_btx(data, t, btx, level);
    }
    let (w, h, bpp, px) = level_pixels(data, t, clut, level)?;
    let pal: Vec<[u8; 4]> = match clut {
        Some(c) => c.colours.iter().map(|c| clut_rgba(*c)).collect(),
        None => Vec::new(),
    };
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    for stored_row in 0..h {
        let out_row = h - 1 - stored_row;
        for x in 0..w {
            let i = stored_row * w + x;
            let o = ((out_row * w + x) * 4) as usize;
            if bpp == 32 {
                // RGBA32, alpha 0x80 = opaque like a CLUT colour (byte order unverified [?])
                let i = i as usize * 4;
                let c = px.get(i..i + 4).and_then(|c| <[u8; 4]>::try_from(c).ok()).unwrap_or([0; 4]);
                if let Some(dst) = rgba.get_mut(o..o + 4) {
                    dst.copy_from_slice(&clut_rgba(u32::from_le_bytes(c)));
                }
                continue;
            }
            let idx = if bpp == 8 {
                px.get(i as usize).copied().unwrap_or(0)
            } else {
                let byte = px.get((i / 2) as usize).copied().unwrap_or(0);
                if i.is_multiple_of(2) { byte & 0x0f } else { byte >> 4 }
            };
            let c = pal.get(usize::from(idx)).copied().unwrap_or([0, 0, 0, 0]);
            if let Some(dst) = rgba.get_mut(o..o + 4) {
                dst.copy_from_slice(&c);
            }
        }
    }
    Ok(Image { width: w as u32, height: h as u32, rgba })
}

/// What [`decode_level`] checks before it makes a pixel, for the strict check: the same
/// errors in the same order, without the image (a survey checks every member's textures).
pub(in crate::formats) fn check_level(
    data: &[u8],
    t: &TextureData,
    clut: Option<&ClutData>,
    level: usize,
) -> Result<()> {
    match &t.btx {
        Some(btx) => decode_btx(data, t, btx, level).map(|_| ()),
        None => level_pixels(data, t, clut, level).map(|_| ()),
    }
}

/// Width, height, bits per pixel and the stored pixel bytes of mip `level` of a texture
/// that is not BTX, and the palette check: every error [`decode_level`] can give for it.
fn level_pixels<'d>(
    data: &'d [u8],
    t: &TextureData,
    clut: Option<&ClutData>,
    level: usize,
) -> Result<(u64, u64, u64, &'d [u8])> {
    let lv =
        t.levels.get(level).ok_or_else(|| ParseError::new(t.h, ErrorKind::NotFound(format!("mip level {level}"))))?;
    let bpp: u64 = match t.psm {
        0x13 => 8,
        0x14 => 4,
        0x00 if t.gen2 => 32,
        other => {
            return Err(ParseError::new(
                t.h + 1,
                ErrorKind::Unsupported(format!("psm 0x{other:02x} (only 0x13 PSMT8 and 0x14 PSMT4 occur)")),
            ));
        }
    };
    if t.npot.is_none() && (t.tw > 12 || t.th > 12) {
        return Err(ParseError::new(
            t.h + 4,
            ErrorKind::BadValue {
                what: "texture size",
                value: format!("2^{}×2^{}", t.tw, t.th),
                why: "larger than 4096".into(),
            },
        ));
    }
    let (w, h) = t.level_size(level).ok_or_else(|| {
        ParseError::new(
            lv.span.start,
            ErrorKind::Unsupported(format!(
                "mip level {level} of a non-power-of-two texture: its size is not known [?]"
            )),
        )
    })?;
    let need = (w * h * bpp).div_ceil(8);
    if need > lv.pixels.len() {
        return Err(ParseError::new(
            lv.span.start,
            ErrorKind::CountTooLarge { what: "texture pixel bytes", count: need, max: lv.pixels.len() },
        ));
    }
    let px = Bytes::new(data).slice(lv.pixels.start, need)?;
    if clut.is_none() && bpp != 32 {
        return Err(ParseError::new(t.h, ErrorKind::NotFound("clut of the texture".into())));
    }
    Ok((w, h, bpp, px))
}

/// Bytes of one 4×4 DXT block: 8 for DXT1, 16 for DXT3 and DXT5.
fn dxt_block_bytes(psm: u8) -> u64 {
    if psm == 0x87 { 8 } else { 16 }
}

/// Decode level 0 of a BTX texture (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two [X:AH], [?]): the BTX header's width
/// and height, its pixel format (which must agree with the psm), DXT blocks in the
/// standard S3TC layout, block rows in stored order, first row on top (the addendum does
/// not say whether BTX rows run bottom-up like the PS2 textures [?]).
fn decode_btx(data: &[u8], t: &TextureData, btx: &Btx, level: usize) -> Result<Image> {
    let hd = &btx.header;
    if level != 0 {
        return Err(ParseError::new(
            hd.mip_count.span.start,
            ErrorKind::Unsupported(format!("BTX mip level {level}: their layout is not known [?]")),
        ));
    }
    if hd.magic.0.get(..3) != Some(b"btx".as_slice()) {
        return Err(ParseError::new(
            hd.magic.span.start,
            ErrorKind::BadMagic { expected: "\"btx\"".into(), found: crate::model::escape_text(&hd.magic.0) },
        ));
    }
    if raw::dxt_name(*hd.pixel_format).is_none() || raw::dxt_name(*hd.pixel_format) != raw::dxt_name(u16::from(t.psm)) {
        return Err(ParseError::new(
            hd.pixel_format.span.start,
            ErrorKind::BadValue {
                what: "BTX pixel format",
                value: hd.pixel_format.to_string(),
                why: format!("the texture's psm 0x{:02x} says {}", t.psm, raw::psm_name(t.psm)),
            },
        ));
    }
    let (w, h) = (u64::from(*hd.width), u64::from(*hd.height));
    let block = dxt_block_bytes(t.psm);
    let need = w.div_ceil(4) * h.div_ceil(4) * block;
    if need > btx.data.len() {
        return Err(ParseError::new(
            hd.width.span.start,
            ErrorKind::CountTooLarge { what: "DXT bytes", count: need, max: btx.data.len() },
        ));
    }
    let px = Bytes::new(data).slice(btx.data.start, need)?;
    // w·h·4 ≤ 8 × `need` (DXT1) or 4 × (DXT3/5): bounded by the block's checked length
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    let bw = w.div_ceil(4);
    for (bi, b) in px.chunks_exact(block as usize).enumerate() {
        let (bx, by) = (bi as u64 % bw, bi as u64 / bw);
        let texels = dxt_block(t.psm, b);
        for (k, c) in texels.iter().enumerate() {
            let (x, y) = (bx * 4 + k as u64 % 4, by * 4 + k as u64 / 4);
            if x < w && y < h {
                let o = ((y * w + x) * 4) as usize;
                if let Some(dst) = rgba.get_mut(o..o + 4) {
                    dst.copy_from_slice(c);
                }
            }
        }
    }
    Ok(Image { width: w as u32, height: h as u32, rgba })
}

/// RGB565 → RGB8 (bits replicated into the low bits).
fn rgb565(c: u16) -> [u8; 3] {
    let (r, g, b) = ((c >> 11) & 31, (c >> 5) & 63, c & 31);
    [((r << 3) | (r >> 2)) as u8, ((g << 2) | (g >> 4)) as u8, ((b << 3) | (b >> 2)) as u8]
}

/// The 16 texels (row by row) of one DXT block: DXT1 (8 bytes; `c0 ≤ c1` selects the
/// 3-colour mode with transparent black), DXT3 (4-bit alpha, then a 4-colour block), DXT5
/// (two alpha endpoints and 3-bit alpha indices, then a 4-colour block).
pub(in crate::formats) fn dxt_block(psm: u8, b: &[u8]) -> [[u8; 4]; 16] {
    let byte = |i: usize| b.get(i).copied().unwrap_or(0);
    let u16_at = |i: usize| u16::from_le_bytes([byte(i), byte(i + 1)]);
    let colour_at = if psm == 0x87 { 0 } else { 8 };
    let (c0, c1) = (u16_at(colour_at), u16_at(colour_at + 2));
    let (p0, p1) = (rgb565(c0), rgb565(c1));
    let mix = |a: u8, b: u8, wa: u16, wb: u16| ((u16::from(a) * wa + u16::from(b) * wb) / (wa + wb)) as u8;
    let lerp = |wa: u16, wb: u16| {
        let ([r0, g0, b0], [r1, g1, b1]) = (p0, p1);
        [mix(r0, r1, wa, wb), mix(g0, g1, wa, wb), mix(b0, b1, wa, wb)]
    };
    let four = psm != 0x87 || c0 > c1;
    let palette: [[u8; 4]; 4] = {
        let rgba = |c: [u8; 3], a: u8| [c[0], c[1], c[2], a];
        if four {
            [rgba(p0, 255), rgba(p1, 255), rgba(lerp(2, 1), 255), rgba(lerp(1, 2), 255)]
        } else {
            [rgba(p0, 255), rgba(p1, 255), rgba(lerp(1, 1), 255), [0, 0, 0, 0]]
        }
    };
    let indices =
        u32::from_le_bytes([byte(colour_at + 4), byte(colour_at + 5), byte(colour_at + 6), byte(colour_at + 7)]);
    let mut out = [[0u8; 4]; 16];
    for (k, px) in out.iter_mut().enumerate() {
        *px = palette.get(((indices >> (2 * k)) & 3) as usize).copied().unwrap_or([0; 4]);
    }
    match psm {
        0x88 => {
            for (k, px) in out.iter_mut().enumerate() {
                let a = (byte(k / 2) >> (4 * (k % 2))) & 0x0f;
                px[3] = a * 17;
            }
        }
        0x89 => {
            let (a0, a1) = (u16::from(byte(0)), u16::from(byte(1)));
            // index 0 = a0, 1 = a1, then six interpolated values (a0 > a1), or four and
            // 0, 255 (a0 ≤ a1)
            let alpha: [u8; 8] = std::array::from_fn(|i| {
                let i = i as u16;
                (match i {
                    0 => a0,
                    1 => a1,
                    _ if a0 > a1 => (a0 * (8 - i) + a1 * (i - 1)) / 7,
                    6 => 0,
                    7 => 255,
                    _ => (a0 * (6 - i) + a1 * (i - 1)) / 5,
                }) as u8
            });
            let bits = (2..8).rev().fold(0u64, |acc, i| (acc << 8) | u64::from(byte(i)));
            for (k, px) in out.iter_mut().enumerate() {
                px[3] = alpha.get(((bits >> (3 * k)) & 7) as usize).copied().unwrap_or(0);
            }
        }
        _ => {}
    }
    out
}

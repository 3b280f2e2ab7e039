//! Texture (0x0300) and Clut (0x0400) chunks (spec §5): stored form with spans, and
//! decoding indexed pixels to RGBA.

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
    /// Gen 2 BTX block (psm 0x87..0x89): marker, length and DXT data, not decoded.
    pub btx: Option<Span>,
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
    let long_header = head.long.is_some();
    let (flag, psm) = (*head.flag, *head.psm);
    let (mipmap, aref, tw, th) = head.long.as_ref().map_or((0, 0, 0, 0), |l| (*l.mipmap, *l.aref, *l.tw, *l.th));
    let hstart = head.flag.span.start;
    let h = head.pad.span.end;
    let gen2 = version >= 0x110;
    let mut levels = Vec::with_capacity(usize::from(mipmap) + 1);
    let mut q = h;
    let mut btx = None;
    if gen2 && matches!(psm, 0x87..=0x89) {
        // addendum §6.4: u32 marker, u32 length of what follows, BTX header + DXT data
        let head: raw::BtxHead = read_at(b, h).map_err(|e| ParseError::new(e.offset, e.kind))?;
        let n = u64::from(*head.btx_size);
        b.check_count("btx byte", h + 8, n, 1, limits.max_inflated)?;
        btx = Some(Span::at(h, 8 + n));
        q = h + 8 + n;
    } else if gen2 && (tw == 0xff || th == 0xff) {
        return Err(ParseError::new(
            hstart + 4,
            ErrorKind::Unsupported(
                "non-power-of-two texture (tw or th 0xFF): the readers disagree on its layout [?]; framed, not decoded"
                    .into(),
            ),
        ));
    }
    for _ in 0..=mipmap {
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
    })
}

pub(in crate::formats) fn parse_clut(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits) -> Result<ClutData> {
    let p = off + 8;
    let head: raw::ClutHead = read(b, p, (version,)).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let (clut, blt_group, h) = (*head.clut, head.blt_group.map(|x| *x), head.flag.span.start);
    let count = *head.count;
    let n = b.check_count("clut colour", h + 12, u64::from(count), 4, limits.max_keys as u64)?;
    let mut colours = Vec::with_capacity(n);
    for i in 0..n as u64 {
        colours.push(b.u32_le(h + 12 + 4 * i)?);
    }
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

/// Decode mip `level` of a texture through its palette. Rows are stored bottom row
/// first; 4-bit pixels have the left pixel in the low nibble.
pub(in crate::formats) fn decode_level(data: &[u8], t: &TextureData, clut: &ClutData, level: usize) -> Result<Image> {
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
    if t.tw > 12 || t.th > 12 {
        return Err(ParseError::new(
            t.h + 4,
            ErrorKind::BadValue {
                what: "texture size",
                value: format!("2^{}×2^{}", t.tw, t.th),
                why: "larger than 4096".into(),
            },
        ));
    }
    let w = (1u64 << t.tw) >> level;
    let h = (1u64 << t.th) >> level;
    let need = (w * h * bpp).div_ceil(8);
    if need > lv.pixels.len() {
        return Err(ParseError::new(
            lv.span.start,
            ErrorKind::CountTooLarge { what: "texture pixel bytes", count: need, max: lv.pixels.len() },
        ));
    }
    let px = Bytes::new(data).slice(lv.pixels.start, need)?;
    let pal: Vec<[u8; 4]> = clut.colours.iter().map(|c| clut_rgba(*c)).collect();
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

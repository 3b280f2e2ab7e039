//! The chunk walker (docs/formats/ccsf.md#walker): follows the game's own rules, so every decision is
//! recorded. The size field is trusted for every chunk except Texture (0x0300) and Model
//! (0x0800), whose ends are computed from their contents.

use super::band;
use super::kinds::{dispatched_at, kind_name};
use super::raw;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{read, read_at};
use crate::model::{Span, WalkStep};

/// Which section a chunk was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum Section {
    /// Header, Index and setup chunks up to and including the first Frame.
    Setup,
    /// After the first Frame chunk.
    Frames,
}

/// One chunk as the walker saw it.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct ChunkRef {
    pub off: u64,
    pub kind: u16,
    pub tag: u16,
    pub size: u32,
    /// The end the walker used.
    pub end: u64,
    /// `off + 8 + 4*size`.
    pub declared_end: u64,
    pub section: Section,
}

impl ChunkRef {
    pub fn span(&self) -> Span {
        Span::new(self.off, self.end)
    }
    pub fn payload(&self) -> u64 {
        self.off + 8
    }
    pub fn disagrees(&self) -> bool {
        self.end != self.declared_end
    }
    /// The chunk's first payload word as its own object index ([`raw::ObjectWord`]),
    /// read inside the chunk (`None` when the chunk has no payload word).
    pub fn object(&self, b: &Bytes<'_>) -> Option<u32> {
        object_at(b, self.off, self.end)
    }
    /// A Top chunk's frame word ([`raw::Top`]), read inside the chunk.
    pub fn top(&self, b: &Bytes<'_>) -> Result<u32> {
        top_at(b, self.off, self.end)
    }
}

/// [`ChunkRef::object`] for the chunk or sub-record `off..end`.
pub(in crate::formats) fn object_at(b: &Bytes<'_>, off: u64, end: u64) -> Option<u32> {
    let w = b.sub(off, end).ok()?;
    if let Some(word) = word_at(&w, off + 8) {
        return Some(word);
    }
    rec::<raw::ObjectWord>(&w, off + 8).ok().map(|o| *o.object)
}

/// The little-endian word at `at` of `w` when all four of its bytes are there: what the
/// one-word records read, without their spans (the survey reads one per Top chunk).
fn word_at(w: &Bytes<'_>, at: u64) -> Option<u32> {
    w.u32_le(at).ok()
}

/// [`ChunkRef::top`] for the chunk or sub-record `off..end`.
pub(in crate::formats) fn top_at(b: &Bytes<'_>, off: u64, end: u64) -> Result<u32> {
    let w = b.sub(off, end)?;
    if let Some(word) = word_at(&w, off + 8) {
        return Ok(word);
    }
    rec::<raw::Top>(&w, off + 8).map(|t| *t.frame)
}

/// Result of a walk: chunks in order (all, or only the setup section's; see
/// [`walk_visit`]), one step per chunk when traced, and where it left the rails.
#[derive(Debug, Clone)]
pub(in crate::formats) struct Walk {
    pub version: u16,
    pub chunks: Vec<ChunkRef>,
    pub steps: Vec<WalkStep>,
    pub lost: Option<ParseError>,
    /// Chunks walked (kept or not).
    pub walked: usize,
    /// End of the last chunk walked (0 when none).
    pub end: u64,
}

impl Walk {
    /// True when the walk consumed every byte without leaving the rails.
    pub fn clean(&self, len: u64) -> bool {
        self.lost.is_none() && if self.walked == 0 { len == 0 } else { self.end == len }
    }
}

fn align4(x: u64) -> u64 {
    (x + 3) & !3
}

/// A declared record at `at`, its error without the record path (the walk reports the
/// kind and offset only).
fn rec<T>(b: &Bytes<'_>, at: u64) -> Result<T>
where
    T: binrw::BinRead + crate::formats::record::Record,
    for<'a> T::Args<'a>: Default,
{
    read_at(b, at).map_err(|e| ParseError::new(e.offset, e.kind))
}

/// TEXTURE_END (docs/formats/ccsf.md#walker, `ccStream::Decode_Texture`): the head, then every level's
/// word count.
pub(in crate::formats) fn texture_end(b: &Bytes<'_>, p: u64, version: u16) -> Result<u64> {
    let head: raw::TextureHead = read(b, p + 8, (version,)).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let mips = head.long.as_ref().map_or(0, |l| *l.mipmap);
    levels_end(b, head.pad.span.end, mips)
}

/// TEXTURE_END2 (docs/formats/ccsf-gen2.md#walker): the gen-2 Texture end from its levels (blt_group always
/// present), a BTX block's length, or the non-power-of-two layout.
pub(in crate::formats) fn texture_end2(b: &Bytes<'_>, p: u64) -> Result<u64> {
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    let head: raw::TextureHead = read(b, p + 8, (band::GEN2_FIRST,)).map_err(plain)?;
    let psm = *head.psm;
    let (mips, tw, th) = head.long.as_ref().map_or((0, 0, 0), |l| (*l.mipmap, *l.tw, *l.th));
    let q = head.pad.span.end;
    let over = |q: u64| ParseError::new(q, ErrorKind::Other("texture end overflows".into()));
    if matches!(psm, 0x87..=0x89) {
        let btx: raw::BtxHead = read_at(b, q).map_err(plain)?;
        return btx.btx_size.span.end.checked_add(u64::from(*btx.btx_size)).ok_or_else(|| over(q + 4));
    }
    if tw == 0xff || th == 0xff {
        let npot: raw::NpotHead = read_at(b, q).map_err(plain)?;
        let q = npot.count.span.end.checked_add(4 * u64::from(*npot.count)).ok_or_else(|| over(q + 4))?;
        return match mips {
            0 => Ok(q),
            m => levels_end(b, q, m - 1),
        };
    }
    levels_end(b, q, mips)
}

/// The end of `mips + 1` level records ([`raw::LevelHead`] + its words) from `q`.
pub(in crate::formats) fn levels_end(b: &Bytes<'_>, mut q: u64, mips: u8) -> Result<u64> {
    for _ in 0..=u32::from(mips) {
        let level: raw::LevelHead = rec(b, q)?;
        q = q
            .checked_add(8 + 4 * u64::from(*level.count))
            .ok_or_else(|| ParseError::new(q, ErrorKind::Other("texture end overflows".into())))?;
    }
    Ok(q)
}

/// MODEL_END (docs/formats/ccsf.md#walker, `Decode_Model` and the mmat decoders): pure arithmetic over the
/// few words the decoders branch on, independent of the full model decoder so `check`
/// can compare the two. The heads are the declared records; the skin entries' flag bytes
/// are an array and are read as one.
pub(in crate::formats) fn model_end(b: &Bytes<'_>, p: u64, version: u16) -> Result<u64> {
    let head: raw::ModelHead = rec(b, p + 8)?;
    let (mtype, n) = (head.mtype_at(version), *head.mmat_num);
    let len = b.end();
    let over =
        |q: u64| ParseError::new(p, ErrorKind::OffsetOutOfRange { what: "model end", offset: q, start: p, end: len });
    let mut q = head.pad.span.end;
    for _ in 0..n {
        let (vn, on);
        if mtype & 2 != 0 {
            let h: raw::MmatHead5 = rec(b, q)?;
            (vn, on) = (u64::from(*h.vertex_num), u64::from(*h.offset_num));
            q += 20;
        } else if mtype & 4 != 0 {
            let h: raw::MmatDeformHead = rec(b, q)?;
            vn = b.check_count("bone vertex", q + 12, u64::from(*h.vertex_num), 6, u64::MAX)? as u64;
            on = b.check_count("skin entry", q + 12, u64::from(*h.offset_num), 8, u64::MAX)? as u64;
            q += 12;
        } else if mtype & 8 != 0 {
            vn = 0;
            on = 0;
        } else {
            let h: raw::MmatRigidHead = rec(b, q)?;
            vn = b.check_count("rigid vertex", q + 12, u64::from(*h.vertex_num), 6, u64::MAX)? as u64;
            on = 0;
            q += 12;
        }
        if mtype & 4 != 0 {
            if on > 0 {
                let mut ends = 0u64;
                for k in 0..on {
                    if b.u8(q + 8 * k + 7)? & 2 != 0 {
                        ends += 1;
                    }
                }
                q += 8 * on + 4 * on + 4 * ends;
            } else {
                q = align4(q + 4 + 6 * vn) + 4 * vn + 4 * vn;
            }
        } else if mtype & 2 != 0 {
            return Err(super::model_data::rigid_bit2_error(q, mtype));
        } else if mtype & 8 != 0 {
            let c: raw::ShadowCounts = rec(b, q)?;
            let (vnum, inum) = (*c.v_num, *c.i_num);
            q += 8;
            if vnum != 0 {
                let vnum = u64::try_from(vnum).map_err(|_| {
                    ParseError::new(
                        q - 8,
                        ErrorKind::BadValue { what: "shadow vNum", value: vnum.to_string(), why: "negative".into() },
                    )
                })?;
                let tris = u64::try_from(inum / 3).map_err(|_| {
                    ParseError::new(
                        q - 4,
                        ErrorKind::BadValue { what: "shadow iNum", value: inum.to_string(), why: "negative".into() },
                    )
                })?;
                q = align4(q + 6 * vnum) + 12 * tris;
            }
        } else {
            q = align4(q + 6 * vn);
            if mtype & 0x40 == 0 {
                q += 4 * vn;
            }
            if mtype & 0x200 == 0 {
                q += 4 * vn;
            }
            if mtype & 0x400 == 0 {
                q += 4 * vn;
            }
        }
        if q > len {
            return Err(over(q));
        }
    }
    Ok(q)
}

std::thread_local! {
    /// A survey walk's chunk list, given back for the next file's walk.
    static REUSED_CHUNKS: std::cell::Cell<Option<Vec<ChunkRef>>> = const { std::cell::Cell::new(None) };
}

/// Give a walk's chunk list back once its file is surveyed or checked: the next walk on
/// this thread fills it again when it is large enough (one list per thread, not one per
/// file).
pub(in crate::formats) fn reuse_chunks(mut chunks: Vec<ChunkRef>) {
    if chunks.capacity() <= 1024 {
        chunks.clear();
        REUSED_CHUNKS.with(|cell| cell.set(Some(chunks)));
    }
}

/// WALK (docs/formats/ccsf.md#walker). `version` comes from the Header chunk. With `trace` every chunk's
/// decision is recorded as a [`WalkStep`] (for `walk`, `describe`, the TUI); without it only
/// the chunks and where the walk was lost are kept (surveys and checks: the text would
/// cost more than the walk itself). Every chunk is shown to `visit` as it is walked;
/// frame-section chunks are kept in [`Walk::chunks`] only with `keep_frames` (a survey
/// counts them on the way, and everything after its walk reads only setup chunks).
pub(in crate::formats) fn walk_visit(
    data: &[u8],
    version: u16,
    max_chunks: usize,
    trace: bool,
    keep_frames: bool,
    mut visit: impl FnMut(&ChunkRef),
) -> Walk {
    crate::counters::bump(&crate::counters::CCSF_WALKS);
    let b = Bytes::new(data);
    let len = b.len();
    let chunks = chunk_list(len, max_chunks, keep_frames);
    let mut w = Walk { version, chunks, steps: Vec::new(), lost: None, walked: 0, end: 0 };
    let mut p = 0u64;
    let mut in_frames = false;
    let gen2 = band::of(version).gen2();
    while p + 8 <= len {
        // The bytes of `raw::ChunkHeader`, sliced by hand: one bounds check for both
        // header words, no spans (this loop runs once per chunk, and a stream file has
        // tens of thousands of them; `describe` shows the declared record).
        let Some(&[k0, k1, t0, t1, s0, s1, s2, s3]) =
            usize::try_from(p).ok().and_then(|at| data.get(at..)).and_then(|h| h.first_chunk::<8>())
        else {
            break;
        };
        let (kind, tag) = (u16::from_le_bytes([k0, k1]), u16::from_le_bytes([t0, t1]));
        let size = u32::from_le_bytes([s0, s1, s2, s3]);
        let hdr = Span::at(p, 8);
        // the common case in one table lookup; the error is made only when refused
        if !walks_on(kind, tag, in_frames, gen2, w.walked, max_chunks)
            && let Some((what, why)) = refused(kind, tag, in_frames, version, w.walked, max_chunks)
        {
            w.lose(p, hdr, what, why);
            break;
        }
        let declared_end = p + 8 + 4 * u64::from(size);
        // Most chunks end where their size field says: the end rules (and the rule's text,
        // wanted only for a traced step) are looked up for the computed kinds alone.
        let (end, why) = if in_frames {
            (declared_end, FRAME_SIZE_USED)
        } else if size_decides(kind) {
            (declared_end, SIZE_FIELD_USED)
        } else {
            match chunk_end(&b, p, kind, declared_end, in_frames, gen2, version) {
                (Ok(e), why) => (e, why),
                (Err(e), _) => {
                    let name = kind_name(kind, in_frames);
                    w.lose(e.offset, hdr, format!("chunk 0x{kind:04x} {name}"), e.kind);
                    break;
                }
            }
        };
        if end > len {
            let name = kind_name(kind, in_frames);
            let over = ErrorKind::OffsetOutOfRange { what: "chunk end", offset: end, start: p, end: len };
            w.lose(p, Span::new(p, len), format!("chunk 0x{kind:04x} {name}"), over);
            break;
        }
        let section = if in_frames { Section::Frames } else { Section::Setup };
        let opens_frames = kind == 0x0005 && !in_frames;
        if opens_frames {
            in_frames = true;
        }
        let chunk = ChunkRef { off: p, kind, tag, size, end, declared_end, section };
        visit(&chunk);
        let step = trace.then(|| WalkStep {
            span: Span::new(p, end),
            what: format!("chunk 0x{kind:04x} {}", kind_name(kind, section == Section::Frames)),
            detail: step_detail(&b, &chunk, gen2, why, opens_frames),
            next: (end < len).then_some(end),
            node: None,
        });
        if keep_frames || section == Section::Setup {
            w.chunks.push(chunk);
        }
        w.walked += 1;
        w.end = end;
        if let Some(step) = step {
            w.steps.push(step);
        }
        p = end;
    }
    if w.lost.is_none() && p < len {
        w.trailing(p, len);
    }
    w
}

impl Walk {
    /// Stop the walk at `at`: a step saying why (on `span`, named `what`) and the error.
    fn lose(&mut self, at: u64, span: Span, what: String, kind: ErrorKind) {
        let e = ParseError::new(at, kind);
        self.steps.push(WalkStep { span, what, detail: format!("walk lost: {}", e.kind), next: None, node: None });
        self.lost = Some(e);
    }

    /// The bytes from `p` to `len` are too few for a chunk header: a last step and the error.
    fn trailing(&mut self, p: u64, len: u64) {
        let e =
            ParseError::new(p, ErrorKind::Other(format!("{} trailing bytes too short for a chunk header", len - p)));
        self.steps.push(WalkStep {
            span: Span::new(p, len),
            what: "trailing bytes".into(),
            detail: e.kind.to_string(),
            next: None,
            node: None,
        });
        self.lost = Some(e);
    }
}

/// The empty chunk list a walk of `len` bytes fills.
fn chunk_list(len: u64, max_chunks: usize, keep_frames: bool) -> Vec<ChunkRef> {
    // Stream files average a few dozen bytes per chunk: reserve for 64-byte chunks (capped
    // by the chunk limit) so the list rarely regrows on the way. Without the frame section
    // only setup chunks are kept: a scene's few dozen (regrowing from empty cost a survey
    // of 1 KB members more than the walk itself).
    let by_size = usize::try_from(len / 64).unwrap_or(0);
    let guess = if keep_frames { by_size } else { by_size.clamp(16, 64) }.min(max_chunks);
    // the list the last survey or check gave back, if any ([`reuse_chunks`]) and if it has
    // the room
    let chunks = REUSED_CHUNKS.with(|cell| cell.take()).filter(|v| v.capacity() >= guess);
    chunks.unwrap_or_else(|| Vec::with_capacity(guess))
}

/// The rule of a chunk whose end is its size field outside the frame section.
const SIZE_FIELD_USED: &str = "size field used";
/// The rule of a frame-section chunk's end.
const FRAME_SIZE_USED: &str = "frame-section chunk: size field used (every frame decoder reads exactly size words)";

/// True when a setup-section chunk's end is its size field (no computed rule in
/// [`chunk_end`]).
#[inline]
fn size_decides(kind: u16) -> bool {
    kind != 0x0300 && kind != 0x0800
}

/// True when [`refused`] finds nothing against a chunk header, decided by one lookup for
/// a gen-1 kind (a later generation's own kinds go through [`refused`]).
#[inline]
fn walks_on(kind: u16, tag: u16, in_frames: bool, gen2: bool, walked: usize, max_chunks: usize) -> bool {
    (tag == 0xcccc || tag == 0) && walked < max_chunks && !gen2 && super::kinds::dispatched(kind, in_frames)
}

/// Why the walk stops at a chunk header, if it does: a tag other than 0xcccc or 0, a kind
/// the section does not dispatch, or the chunk limit reached after `walked` chunks. The
/// step's name and the error.
fn refused(
    kind: u16,
    tag: u16,
    in_frames: bool,
    version: u16,
    walked: usize,
    max_chunks: usize,
) -> Option<(String, ErrorKind)> {
    if tag != 0xcccc && tag != 0 {
        let word = u32::from(kind) | u32::from(tag) << 16;
        return Some((
            format!("chunk header 0x{word:08x}"),
            ErrorKind::BadMagic { expected: "tag 0xcccc or 0x0000".into(), found: format!("0x{tag:04x}") },
        ));
    }
    if !dispatched_at(kind, in_frames, version) {
        let sect = if in_frames { "frame" } else { "setup" };
        return Some((
            format!("chunk 0x{kind:04x}"),
            ErrorKind::BadValue {
                what: "chunk kind",
                value: format!("0x{kind:04x}"),
                why: if band::of(version).gen2() {
                    format!(
                        "not a {sect}-section kind of gen 1 or of the later generations (docs/formats/ccsf-gen2.md#walker)"
                    )
                } else {
                    format!("not in the game's {sect}-section dispatch table")
                },
            },
        ));
    }
    if walked >= max_chunks {
        let value = walked as u64 + 1;
        return Some((
            "chunk limit".into(),
            ErrorKind::LimitExceeded { what: "chunks", value, max: max_chunks as u64 },
        ));
    }
    None
}

/// Where the chunk at `p` ends and the rule that says so: the size field, except for
/// Texture and Model chunks in the setup section, whose ends are computed.
fn chunk_end(
    b: &Bytes<'_>,
    p: u64,
    kind: u16,
    declared_end: u64,
    in_frames: bool,
    gen2: bool,
    version: u16,
) -> (Result<u64>, &'static str) {
    if in_frames {
        (Ok(declared_end), FRAME_SIZE_USED)
    } else if gen2 && kind == 0x0300 {
        (texture_end2(b, p), "gen 2: texture sizes are wrong (+50 words in real files): end computed from the levels")
    } else if gen2 && kind == 0x0800 {
        let (end, why) = model_end2(b, p, declared_end, version);
        (Ok(end), why)
    } else if kind == 0x0300 {
        (texture_end(b, p, version), "texture sizes are distrusted: end computed from the mip levels' word counts")
    } else if kind == 0x0800 {
        (model_end(b, p, version), "model sizes are distrusted: end computed from the mmat bodies")
    } else {
        (Ok(declared_end), SIZE_FIELD_USED)
    }
}

/// A gen-2 Model chunk's end: sizes are correct in gen 2 (docs/formats/ccsf-gen2.md#walker),
/// so the model decoder's end is used only when the declared end does not start a chunk.
fn model_end2(b: &Bytes<'_>, p: u64, declared_end: u64, version: u16) -> (u64, &'static str) {
    let len = b.len();
    let starts_chunk = |q: u64| -> bool {
        if q == len {
            return true;
        }
        let Ok(h) = rec::<raw::ChunkHeader>(b, q) else { return false };
        (*h.tag == 0xcccc || *h.tag == 0) && dispatched_at(*h.kind, false, version)
    };
    if declared_end <= len && starts_chunk(declared_end) {
        return (declared_end, "gen 2: size field used (model sizes are correct in gen 2)");
    }
    crate::counters::bump(&crate::counters::CCSF_MODEL_PARSES);
    match super::model2::parse_model(b, p, version, &crate::limits::Limits::default()) {
        Ok(m) if starts_chunk(m.end) => {
            (m.end, "gen 2: the declared end does not start a chunk; end computed by the model decoder")
        }
        _ => (declared_end, "gen 2: size field used (model sizes are correct in gen 2)"),
    }
}

/// A traced chunk's detail: its header words, the end rule `why`, and what it does to the
/// sections (a Frame opening the frame section, a Top opening or closing a frame).
fn step_detail(b: &Bytes<'_>, chunk: &ChunkRef, gen2: bool, why: &str, opens_frames: bool) -> String {
    let ChunkRef { kind, tag, size, end, declared_end, section, .. } = *chunk;
    let computed = section == Section::Setup && (kind == 0x0300 || (kind == 0x0800 && !gen2));
    let mut detail = if end == declared_end && computed {
        format!("tag 0x{tag:04x}, size field 0x{size:x} words; {why}; the computed end agrees with it")
    } else if end == declared_end {
        format!("tag 0x{tag:04x}, size field 0x{size:x} words; {why}")
    } else {
        let d = i128::from(end) - i128::from(declared_end);
        format!(
            "tag 0x{tag:04x}, size field 0x{size:x} words (end 0x{declared_end:x}) but the decoder reads to 0x{end:x} ({:+} words); {why}",
            d / 4
        )
    };
    if opens_frames {
        detail.push_str("; Frame ends the setup section, frame section follows");
    }
    let top = if kind == 0xff01 && section == Section::Frames { chunk.top(b).ok() } else { None };
    if let Some(n) = top {
        match n {
            0xffff_ffff => detail.push_str("; Top -1 closes the frame section"),
            0xffff_fffe => detail.push_str("; Top -2 closes the frame section and resets the scene"),
            n => detail.push_str(&format!("; Top opens frame {n}")),
        }
    }
    detail
}

//! Parsed CCSF → `Document`: one node per chunk with named fields and spans, frame-section
//! records grouped per frame, Anime sub-records as children, Model mmats and Texture
//! levels as children. Unknown layouts are shown as opaque bytes labelled unknown.

use super::anime::{self, CtrlValue, SubRecord};
use super::kinds::{first_word_is_object, kind_name};
use super::mesh::{self, MmatKind};
use super::parse::{Index, Parsed};
use super::texture;
use super::walk::Section;
use crate::bytes::Bytes;
use crate::error::{ParseError, Result};
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, Field, NodeId, Severity, Span, Value, escape_text};
use std::collections::HashMap;

struct Fb<'a, 'd> {
    doc: &'d mut Document,
    node: NodeId,
    b: Bytes<'a>,
    p: u64,
    idx: &'d Index,
}

impl Fb<'_, '_> {
    fn add(&mut self, f: Field) {
        self.doc.add_field(self.node, f);
    }
    fn u32(&mut self, name: &str) -> Result<u32> {
        let v = self.b.u32_le(self.p)?;
        self.add(Field::new(name, Span::at(self.p, 4), Value::uint(u64::from(v), 4)));
        self.p += 4;
        Ok(v)
    }
    fn dec(&mut self, name: &str) -> Result<u32> {
        let v = self.b.u32_le(self.p)?;
        self.add(Field::new(name, Span::at(self.p, 4), Value::dec(u64::from(v))));
        self.p += 4;
        Ok(v)
    }
    fn obj(&mut self, name: &str) -> Result<u32> {
        let v = self.b.u32_le(self.p)?;
        self.add(Field::new(name, Span::at(self.p, 4), Value::dec(u64::from(v)).refers(self.idx.name(v))));
        self.p += 4;
        Ok(v)
    }
    fn f32(&mut self, name: &str, unit: &str) -> Result<f32> {
        let v = self.b.u32_le(self.p)?;
        let mut val = Value::f32(v);
        if !unit.is_empty() {
            val = val.number(f64::from(f32::from_bits(v)), unit);
        }
        self.add(Field::new(name, Span::at(self.p, 4), val));
        self.p += 4;
        Ok(f32::from_bits(v))
    }
    fn vec3(&mut self, name: &str, unit: &str) -> Result<()> {
        for c in ["x", "y", "z"] {
            self.f32(&format!("{name}.{c}"), unit)?;
        }
        Ok(())
    }
    fn u16(&mut self, name: &str) -> Result<u16> {
        let v = self.b.u16_le(self.p)?;
        self.add(Field::new(name, Span::at(self.p, 2), Value::dec(u64::from(v))));
        self.p += 2;
        Ok(v)
    }
    fn i16(&mut self, name: &str) -> Result<i16> {
        let v = self.b.i16_le(self.p)?;
        self.add(Field::new(name, Span::at(self.p, 2), Value::int(i64::from(v), 2)));
        self.p += 2;
        Ok(v)
    }
    fn u8(&mut self, name: &str) -> Result<u8> {
        let v = self.b.u8(self.p)?;
        self.add(Field::new(name, Span::at(self.p, 1), Value::uint(u64::from(v), 1)));
        self.p += 1;
        Ok(v)
    }
    fn pad(&mut self, n: u64) -> Result<()> {
        self.b.slice(self.p, n)?;
        self.add(Field::new("pad", Span::at(self.p, n), Value::bytes(n)).note("pad, ignored"));
        self.p += n;
        Ok(())
    }
    fn colour(&mut self, name: &str) -> Result<u32> {
        let v = self.b.u32_le(self.p)?;
        let [r, g, b, a] = v.to_le_bytes();
        self.add(Field::new(
            name,
            Span::at(self.p, 4),
            Value::uint(u64::from(v), 4).label(format!("rgba {r} {g} {b} {a}")),
        ));
        self.p += 4;
        Ok(v)
    }
    fn array(&mut self, name: &str, span: Option<Span>, what: String) {
        if let Some(s) = span {
            self.add(Field::new(name, s, Value::bytes(s.len()).label(what)));
        }
    }
}

fn uniq_key(seen: &mut HashMap<(NodeId, String), u32>, parent: NodeId, key: String) -> String {
    let n = seen.entry((parent, key.clone())).or_insert(0);
    *n += 1;
    if *n > 1 { format!("{key}~{n}") } else { key }
}

/// Build the document of a parsed file.
pub(in crate::formats) fn describe(data: &[u8], name: &str, p: &Parsed, limits: &Limits) -> Document {
    let b = Bytes::new(data);
    let len = b.len();
    let mut doc = Document::new("ccsf", name, "CCSF", len);
    let version = p.walk.version;
    let mut seen = HashMap::new();
    let mut frame_group: Option<NodeId> = None;
    let mut step_nodes = Vec::with_capacity(p.walk.chunks.len());
    let mut frames = 0u64;
    for c in &p.walk.chunks {
        let kname = kind_name(c.kind, c.section == Section::Frames);
        let obj_name = if first_word_is_object(c.kind) && c.size > 0 {
            b.sub(c.off, c.end).and_then(|w| w.u32_le(c.payload())).ok().map(|o| p.index.name(o))
        } else {
            None
        };
        let mut parent = NodeId::ROOT;
        let base_key = match (c.kind, c.section) {
            (0xff01, Section::Frames) => {
                let n = b.sub(c.off, c.end).and_then(|w| w.u32_le(c.payload())).unwrap_or(0);
                frame_group = None;
                if n >= 0xffff_fffe {
                    format!("Top[{}]", n as i32)
                } else {
                    frames += 1;
                    let g = doc.add_node(
                        NodeId::ROOT,
                        uniq_key(&mut seen, NodeId::ROOT, format!("frame[{n}]")),
                        "frame",
                        c.span(),
                    );
                    frame_group = Some(g);
                    parent = g;
                    format!("Top[{n}]")
                }
            }
            (_, Section::Frames) if c.kind != 0x0005 => {
                if let Some(g) = frame_group {
                    parent = g;
                    if let Some(n) = doc.node_mut(g) {
                        n.span.end = c.end;
                    }
                }
                match &obj_name {
                    Some(o) => format!("{kname}[{o}]"),
                    None => kname.to_string(),
                }
            }
            _ => match &obj_name {
                Some(o) => format!("{kname}[{o}]"),
                None => kname.to_string(),
            },
        };
        let key = uniq_key(&mut seen, parent, base_key);
        let id = doc.add_node(parent, key, kname, c.span());
        step_nodes.push(id);
        // Every read of this chunk's fields stays inside the chunk's span.
        let cb = b.sub(c.off, c.end).unwrap_or(b);
        let mut fb = Fb { doc: &mut doc, node: id, b: cb, p: c.off, idx: &p.index };
        fb.add(Field::new("kind", Span::at(c.off, 2), Value::uint(u64::from(c.kind), 2).label(kname)));
        fb.add(Field::new("tag", Span::at(c.off + 2, 2), Value::uint(u64::from(c.tag), 2)).note("ignored by the game"));
        let mut size = Field::new("size", Span::at(c.off + 4, 4), Value::dec(u64::from(c.size)).label("words"));
        if c.disagrees() {
            let read = (c.end - c.off - 8) / 4;
            size = size.note(format!("size field distrusted: the decoder reads 0x{read:x} words, not 0x{:x}", c.size));
            fb.doc.diag(Diagnostic::new(
                Severity::Info,
                Some(c.off + 4),
                kname,
                format!(
                    "size field says 0x{:x} words, decoder reads 0x{read:x} ({} chunks are walked by content)",
                    c.size, kname
                ),
            ));
        }
        fb.add(size);
        fb.p = c.payload();
        let r = payload(&mut fb, c.kind, c.section, c.off, c.end, version, data, limits);
        let read_to = fb.p;
        match r {
            Ok(()) => {
                if read_to < c.end && c.kind != 0x0700 {
                    let s = Span::new(read_to, c.end);
                    let v = if matches!(c.kind, 0x0d00 | 0x1000 | 0x0604 | 0x0606 | 0x0607 | 0x0802 | 0x0803) {
                        Value::unknown_bytes(s.len()).label("layout not documented")
                    } else {
                        Value::unknown_bytes(s.len())
                    };
                    doc.add_field(id, Field::new("payload", s, v).note("not decoded"));
                }
            }
            Err(e) => {
                let e = e.within(format!("{kname} @0x{:x}", c.off));
                doc.diag(Diagnostic::from_error(&e));
                let from = read_to.clamp(c.payload().min(c.end), c.end);
                if from < c.end {
                    doc.add_field(
                        id,
                        Field::new("unparsed", Span::new(from, c.end), Value::unknown_bytes(c.end - from)),
                    );
                }
            }
        }
        if let Some(n) = doc.node_mut(id)
            && n.summary.is_empty()
            && c.disagrees()
        {
            n.summary = "size field distrusted".into();
        }
    }
    let mut walk = p.walk.steps.clone();
    for (s, id) in walk.iter_mut().zip(&step_nodes) {
        s.node = Some(*id);
    }
    doc.walk = walk;
    for d in &p.diags {
        doc.diag(d.clone());
    }
    if let Some(e) = &p.walk.lost {
        let s = Span::new(e.offset.min(len), len);
        if !s.is_empty() {
            let id = doc.add_node(NodeId::ROOT, "unwalked", "unknown", s);
            doc.add_field(id, Field::new("bytes", s, Value::unknown_bytes(s.len())).note("walk stopped here"));
        }
    }
    let clean = p.walk.clean(len);
    let hdr = p.header.as_ref();
    if let Some(r) = doc.node_mut(NodeId::ROOT) {
        r.summary = format!(
            "{} v0x{:x}, {} chunks, {} frames, walk {}",
            hdr.map_or(String::new(), |h| escape_text(&h.name)),
            hdr.map_or(0, |h| h.version),
            p.walk.chunks.len(),
            frames,
            if clean { "clean" } else { "lost" }
        );
        if p.walk.chunks.iter().any(|c| c.section == Section::Frames && c.kind == 0xff01) && frames > 0 {
            r.anim = Some("frames".into());
        }
    }
    doc
}

#[allow(clippy::too_many_arguments)]
fn payload(
    f: &mut Fb<'_, '_>,
    kind: u16,
    section: Section,
    off: u64,
    end: u64,
    version: u16,
    data: &[u8],
    limits: &Limits,
) -> Result<()> {
    let b = f.b;
    match kind {
        0x0001 => {
            f.add(Field::new("magic", Span::at(f.p, 4), Value::text(b.slice(f.p, 4)?)));
            f.p += 4;
            let name = b.slice(f.p, 32)?;
            f.add(
                Field::new("name", Span::at(f.p, 32), Value::text(super::parse::trim_nul(name)))
                    .note("NUL-padded; = member stem"),
            );
            f.p += 32;
            let v = b.u16_le(f.p)?;
            let gate = match v {
                0..=0x8f => "below 0x90: the game refuses it",
                0x90..=0x91 => "≥0x90: long texture header; no blt_group; 3-word Obj; mtype masked",
                0x92..=0x95 => "≥0x92: blt_group words; 3-word Obj; mtype masked",
                0x96..=0xff => "≥0x96: 4-word Obj; mtype masked to its low byte",
                0x100 => "0x100: every gate open",
                _ => "not gen 1 (.hack//Infection uses 0x90..0x100)",
            };
            f.add(Field::new("version", Span::at(f.p, 2), Value::uint(u64::from(v), 2).label(gate)));
            f.p += 2;
            let pad = b.u16_le(f.p)?;
            f.add(
                Field::new("pad", Span::at(f.p, 2), Value::uint(u64::from(pad), 2).unknown())
                    .note("[?] value not documented"),
            );
            f.p += 2;
            f.dec("frames")?;
            let count = f.dec("count")?;
            let n = b.check_count("header word", f.p, u64::from(count), 4, 1 << 16)?;
            for i in 0..n {
                f.u32(&format!("word[{i}]"))?;
            }
            if let Some(nd) = f.doc.node_mut(f.node) {
                nd.summary = format!("v0x{v:x}");
            }
        }
        0x0002 => {
            // This chunk's own entries: a file may hold more than one Index chunk, and the
            // document-wide name table (`f.idx`) comes from the first.
            let own = super::parse::parse_index(&b, off, end, limits)?;
            let fc = f.dec("file_count")?;
            let oc = f.dec("object_count")?;
            let idx = &own;
            let node = f.node;
            let fl = f.doc.add_node(node, "files", "files", Span::at(f.p, 32 * u64::from(fc)));
            for (i, (path, s)) in idx.files.iter().enumerate() {
                let mark = match path.first() {
                    Some(b'#') => "'#' defined in another file",
                    Some(b' ') => "' ' defined here",
                    _ => "blank",
                };
                f.doc.add_field(fl, Field::new(format!("file[{i}]"), *s, Value::text(path).label(mark)));
            }
            let os = f.p + 32 * u64::from(fc);
            let ol = f.doc.add_node(node, "objects", "objects", Span::at(os, 32 * u64::from(oc)));
            for (i, (name, file, s)) in idx.objects.iter().enumerate() {
                let fname = match idx.files.get(usize::from(*file)) {
                    None => "out of range".to_string(),
                    Some((p, _)) if p.is_empty() => "blank".to_string(),
                    Some((p, _)) => escape_text(p),
                };
                f.doc.add_field(ol, Field::new(format!("object[{i}]"), Span::at(s.start, 30), Value::text(name)));
                f.doc.add_field(
                    ol,
                    Field::new(
                        format!("object[{i}].file"),
                        Span::at(s.start + 30, 2),
                        Value::dec(u64::from(*file)).refers(fname),
                    ),
                );
            }
            f.p = os + 32 * u64::from(oc);
            if let Some(nd) = f.doc.node_mut(node) {
                nd.summary = format!("{} files, {} objects", fc, oc);
            }
        }
        0x0003 => {}
        0x0005 => {
            f.dec("frame_count")?;
        }
        0xff01 => {
            let n = b.u32_le(f.p)?;
            let v = match n {
                0xffff_ffff => Value::uint(u64::from(n), 4).label("end (-1): once / close"),
                0xffff_fffe => Value::uint(u64::from(n), 4).label("end+reset (-2): loop / rewind"),
                _ => Value::dec(u64::from(n)),
            };
            f.add(Field::new("frame", Span::at(f.p, 4), v));
            f.p += 4;
        }
        0x0100 => {
            f.obj("object")?;
            f.obj("parent")?;
            f.obj("model")?;
            if version >= 0x96 {
                f.obj("shadow_model")?;
            }
        }
        0x0200 => {
            f.obj("object")?;
            f.obj("texture")?;
            f.f32("transparency", "")?;
            f.u16("crop_u")?;
            f.u16("crop_v")?;
        }
        0x0300 => {
            let t = texture::parse_texture(&b, off, version, limits)?;
            f.obj("texture")?;
            f.obj("clut")?;
            if t.blt_group.is_some() {
                f.u32("blt_group")?;
            }
            let flag = b.u8(f.p)?;
            let mut names = Vec::new();
            for (bit, n) in [(1, "resident"), (4, "0x04 kept, never read"), (8, "translucent"), (0x10, "clamp")] {
                if flag & bit != 0 {
                    names.push(n.to_string());
                }
            }
            f.add(Field::new("flag", Span::at(f.p, 1), Value::uint(u64::from(flag), 1).flags(names)));
            f.p += 1;
            let psm = b.u8(f.p)?;
            let pl = match psm {
                0x13 => "PSMT8",
                0x14 => "PSMT4",
                _ => "unknown psm",
            };
            f.add(Field::new("psm", Span::at(f.p, 1), Value::uint(u64::from(psm), 1).label(pl)));
            f.p += 1;
            if t.long_header {
                f.u8("mipmap")?;
                f.u8("aref")?;
                let tw = b.u8(f.p)?;
                f.add(Field::new(
                    "tw",
                    Span::at(f.p, 1),
                    Value::dec(u64::from(tw)).label(format!("log2 width: {}", 1u64 << tw.min(63))),
                ));
                f.p += 1;
                let th = b.u8(f.p)?;
                f.add(Field::new(
                    "th",
                    Span::at(f.p, 1),
                    Value::dec(u64::from(th)).label(format!("log2 height: {}", 1u64 << th.min(63))),
                ));
                f.p += 1;
            }
            f.pad(2)?;
            for (i, lv) in t.levels.iter().enumerate() {
                let n = f.doc.add_node(f.node, format!("level[{i}]"), "mip level", lv.span);
                let (w, h) = ((1u64 << t.tw.min(31)) >> i, (1u64 << t.th.min(31)) >> i);
                let s = lv.span.start;
                f.doc.add_field(n, Field::new("buf_x", Span::at(s, 2), Value::dec(u64::from(lv.buf_x))));
                f.doc.add_field(n, Field::new("buf_y", Span::at(s + 2, 2), Value::dec(u64::from(lv.buf_y))));
                f.doc.add_field(
                    n,
                    Field::new("count", Span::at(s + 4, 4), Value::dec(u64::from(lv.count)).label("words")),
                );
                f.doc.add_field(
                    n,
                    Field::new("pixels", lv.pixels, Value::bytes(lv.pixels.len()).label(format!("{w}×{h} indices")))
                        .note("rows bottom-up; 4-bit: low nibble = left pixel"),
                );
                if let Some(nd) = f.doc.node_mut(n) {
                    nd.summary = format!("{w}×{h}");
                }
            }
            f.p = t.end;
            if let Some(nd) = f.doc.node_mut(f.node) {
                nd.summary =
                    format!("{}×{} {pl}, {} levels", 1u64 << t.tw.min(31), 1u64 << t.th.min(31), t.levels.len());
            }
        }
        0x0400 => {
            let c = texture::parse_clut(&b, off, version, limits)?;
            f.obj("clut")?;
            if c.blt_group.is_some() {
                f.u32("blt_group")?;
            }
            f.u8("flag")?;
            f.u8("cpsm")?;
            let u2 = f.b.u8(f.p)?;
            f.add(
                Field::new("unknown_2", Span::at(f.p, 1), Value::uint(u64::from(u2), 1).unknown())
                    .note("read, discarded"),
            );
            f.p += 1;
            let u3 = f.b.u8(f.p)?;
            f.add(
                Field::new("unknown_3", Span::at(f.p, 1), Value::uint(u64::from(u3), 1).unknown())
                    .note("read, discarded"),
            );
            f.p += 1;
            f.u16("buf_x")?;
            f.u16("buf_y")?;
            f.dec("count")?;
            f.array("colours", Some(c.colours_span), format!("{} × rgba, 0x80 = opaque", c.colours.len()));
            f.p = c.colours_span.end;
        }
        0x0500 => {
            f.obj("object")?;
        }
        0x0600 => {
            f.obj("object")?;
            let t = b.i16_le(f.p)?;
            let l = match t {
                1 => "distant",
                2 => "direct",
                3 => "spot",
                4 => "omni",
                _ => "unknown",
            };
            f.add(Field::new("type", Span::at(f.p, 2), Value::int(i64::from(t), 2).label(l)));
            f.p += 2;
            f.pad(2)?;
        }
        0x0700 => {
            let a = anime::parse_anime(&b, off, end, limits)?;
            f.obj("object")?;
            f.dec("frames")?;
            f.dec("words")?;
            let words_ok = u64::from(a.words) + 3 == (end - off - 8) / 4;
            if !words_ok {
                f.doc.diag(Diagnostic::new(
                    Severity::Warning,
                    Some(off + 4),
                    "Anime",
                    "size is not 3 + words ([I] expected)",
                ));
            }
            records(f, &a.records, data, limits)?;
            if let Some(e) = &a.lost {
                f.doc.diag(Diagnostic::from_error(&e.clone().within("Anime sub-stream")));
                let s = Span::new(e.offset.clamp(a.sub_span.start, a.sub_span.end), a.sub_span.end);
                if !s.is_empty() {
                    f.add(
                        Field::new("unwalked", s, Value::unknown_bytes(s.len())).note("sub-record walk stopped here"),
                    );
                }
            }
            let node = f.node;
            let once = a.records.iter().rev().find(|r| r.kind == 0xff01).and_then(|r| b.u32_le(r.off + 8).ok());
            if let Some(nd) = f.doc.node_mut(node) {
                nd.anim = Some(format!("anime:{}", f.idx.name(a.object)));
                nd.summary = format!(
                    "{} frames, {} records, {}",
                    a.frames,
                    a.records.len(),
                    match once {
                        Some(0xffff_fffe) => "loop",
                        Some(0xffff_ffff) => "once",
                        _ => "no end",
                    }
                );
            }
            f.p = end;
        }
        0x0800 => {
            let m = mesh::parse_model(&b, off, version, limits)?;
            f.obj("model")?;
            f.f32("vertex_scale", "")?;
            let mt = b.u16_le(f.p)?;
            let mut names = Vec::new();
            for (bit, n) in [
                (1, "lit"),
                (2, "5-word header"),
                (4, "bone/skin"),
                (8, "shadow"),
                (0x40, "no normals"),
                (0x200, "no colours"),
                (0x400, "no STs"),
            ] {
                if m.mtype & bit != 0 {
                    names.push(n.to_string());
                }
            }
            let mut fld = Field::new("mtype", Span::at(f.p, 2), Value::uint(u64::from(mt), 2).flags(names));
            if m.mtype != mt {
                fld = fld.note(format!("version < 0x100: masked to 0x{:x}", m.mtype));
            }
            f.add(fld);
            f.p += 2;
            f.dec_u16("mmat_num")?;
            let fl = b.u16_le(f.p)?;
            f.add(Field::new(
                "flag",
                Span::at(f.p, 2),
                Value::uint(u64::from(fl), 2).label(format!("blend {}", fl & 3)),
            ));
            f.p += 2;
            f.i16("zoffs")?;
            let u = b.u8(f.p)?;
            f.add(
                Field::new("unknown", Span::at(f.p, 1), Value::uint(u64::from(u), 1).unknown())
                    .note("0x70 in every file; dropped"),
            );
            f.p += 1;
            f.pad(3)?;
            let unit = m.scale / 4096.0;
            let node = f.node;
            let mut counts: HashMap<&str, usize> = HashMap::new();
            for (i, mm) in m.mmats.iter().enumerate() {
                *counts.entry(mm.kind.name()).or_default() += 1;
                let n = f.doc.add_node(node, format!("mmat[{i}]"), format!("{} mmat", mm.kind.name()), mm.span);
                let mut g = Fb { doc: &mut *f.doc, node: n, b, p: mm.span.start, idx: f.idx };
                for (name, v, s) in &mm.header {
                    let val = match *name {
                        "name" | "material" => Value::dec(u64::from(*v)).refers(g.idx.name(*v)),
                        _ => Value::dec(u64::from(*v)),
                    };
                    g.add(Field::new(*name, *s, val));
                }
                if let Some((nd, s)) = mm.node {
                    g.add(Field::new("node", s, Value::dec(u64::from(nd)).label("clump slot")));
                }
                if let Some((vn, inum, s)) = mm.shadow_counts {
                    g.add(Field::new("v_num", Span::at(s.start, 4), Value::int(i64::from(vn), 4)));
                    g.add(
                        Field::new("i_num", Span::at(s.start + 4, 4), Value::int(i64::from(inum), 4))
                            .note(if vn == 0 { "ignored: v_num is 0" } else { "triangles = trunc(i_num / 3)" }),
                    );
                }
                let nv = mm.positions.len();
                match mm.kind {
                    MmatKind::Skin => {
                        let ends = mm.entries.iter().filter(|e| e.last()).count();
                        g.array(
                            "entries",
                            mm.positions_span,
                            format!("{} × (s16[3] pos, u16 weight|last|slot)", mm.entries.len()),
                        );
                        g.array(
                            "normals",
                            mm.normals_span,
                            format!("{} × s8[3]/64 + strip flag (one per entry)", mm.normals.len()),
                        );
                        g.array("sts", mm.sts_span, format!("{ends} × u16 S,T /256 (one per vertex)"));
                    }
                    _ => {
                        g.array("positions", mm.positions_span, format!("{nv} × s16[3] × {unit}"));
                    }
                }
                if let Some(s) = mm.pad_span {
                    g.add(Field::new("pad", s, Value::bytes(s.len())).note("pad to 4, ignored"));
                }
                if mm.kind != MmatKind::Skin {
                    g.array("normals", mm.normals_span, format!("{} × s8[3]/64 + strip flag", mm.normals.len()));
                    g.array(
                        "colours",
                        mm.colours_span,
                        format!(
                            "{} × rgba, 0x80 = 1.0{}",
                            mm.colours.len(),
                            if m.mtype & 1 != 0 { " (dropped: lit)" } else { "" }
                        ),
                    );
                    g.array("sts", mm.sts_span, format!("{} × u16 S,T /256", mm.sts.len()));
                }
                g.array("triangles", mm.triangles_span, format!("{} × s32[3]", mm.triangles.len()));
                let verts = match mm.kind {
                    MmatKind::Skin => mm.entries.iter().filter(|e| e.last()).count(),
                    _ => nv,
                };
                if let Some(nd) = f.doc.node_mut(n) {
                    nd.summary = format!("{verts} vertices");
                }
            }
            f.p = m.end;
            let mut kinds: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
            kinds.sort();
            if let Some(nd) = f.doc.node_mut(node) {
                nd.summary = if kinds.is_empty() { "no mmats".into() } else { kinds.join(", ") };
            }
        }
        0x0900 => {
            f.obj("object")?;
            let n = f.u16("n")?;
            f.pad(2)?;
            b.check_count("clump node", f.p, u64::from(n), 4, (end - f.p) / 4)?;
            for i in 0..n {
                f.obj(&format!("node[{i}]"))?;
            }
        }
        0x0a00 => {
            f.obj("object")?;
            f.obj("parent")?;
            f.obj("target")?;
        }
        0x0b00 => {
            f.obj("object")?;
            f.obj("parent")?;
            let groups = f.u16("groups")?;
            f.i16("pad")?;
            f.dec("total_vertices")?;
            for gi in 0..groups {
                let v = b.u32_le(f.p)?;
                b.check_count("hit vertex", f.p + 8, u64::from(v), 24, (end.saturating_sub(f.p + 8)) / 24)?;
                let s = Span::at(f.p, 8 + 24 * u64::from(v));
                let n = f.doc.add_node(f.node, format!("group[{gi}]"), "hit group", s);
                let mut g = Fb { doc: &mut *f.doc, node: n, b, p: f.p, idx: f.idx };
                g.dec("v")?;
                g.u32("attribute")?;
                g.array("positions", Some(Span::at(g.p, 12 * u64::from(v))), format!("{v} × f32[3]"));
                g.array(
                    "normals",
                    Some(Span::at(g.p + 12 * u64::from(v), 12 * u64::from(v))),
                    format!("{v} × f32[3] (read, discarded)"),
                );
                f.p = s.end;
            }
        }
        0x0c00 => {
            f.obj("box")?;
            f.obj("target")?;
            f.vec3("min", "units")?;
            f.vec3("max", "units")?;
        }
        0x0e00 => {
            f.obj("object")?;
            f.obj("texture")?;
            let fl = b.u16_le(f.p)?;
            f.add(Field::new(
                "flag",
                Span::at(f.p, 2),
                Value::uint(u64::from(fl), 2).label(format!("blend {}", fl & 7)),
            ));
            f.p += 2;
            f.i16("zoffs")?;
            let u = b.u16_le(f.p)?;
            f.add(
                Field::new("unknown", Span::at(f.p, 2), Value::dec(u64::from(u)).unknown())
                    .note("not read by the game"),
            );
            f.p += 2;
            let pat = f.u16("pat_num")?;
            for n in ["x0", "y0", "x1", "y1"] {
                f.f32(n, "")?;
            }
            f.u16("w")?;
            f.u16("h")?;
            b.check_count("eff pattern", f.p, u64::from(pat), 8, (end - f.p) / 8)?;
            f.array(
                "patterns",
                Some(Span::at(f.p, 8 * u64::from(pat))),
                format!("{pat} × (u16 u, v, transparency, pad)"),
            );
            f.p += 8 * u64::from(pat);
        }
        0x1100 => {
            f.obj("object")?;
            f.u8("type")?;
            f.pad(3)?;
            for n in ["fx", "fy", "w", "h"] {
                f.u16(n)?;
            }
        }
        0x1200 => {
            f.obj("object")?;
            let n = f.dec("n")?;
            b.check_count("fb page", f.p, u64::from(n), 8, (end - f.p) / 8)?;
            f.array("pages", Some(Span::at(f.p, 8 * u64::from(n))), format!("{n} × (u8 px, py, pw, ph, type, pad[3])"));
            f.p += 8 * u64::from(n);
        }
        0x1300 => {
            f.obj("object")?;
            f.vec3("pos", "units")?;
        }
        0x1400 => {
            f.obj("object")?;
            f.vec3("pos", "units")?;
            f.vec3("rot", "deg")?;
        }
        0x1700 => {
            let n = f.u16("n")?;
            f.pad(2)?;
            b.check_count("layer", f.p, u64::from(n), 8, (end - f.p) / 8)?;
            for i in 0..n {
                let k = b.u8(f.p)?;
                f.add(Field::new(
                    format!("layer[{i}].kind"),
                    Span::at(f.p, 1),
                    Value::uint(u64::from(k), 1).label(if k == 0 { "draw" } else { "shadow" }),
                ));
                f.p += 1;
                f.pad(3)?;
                f.obj(&format!("layer[{i}].object"))?;
            }
        }
        0x1800 => {
            f.obj("object")?;
            for n in ["x", "y", "w", "h"] {
                f.u16(n)?;
            }
            f.i16("px")?;
            f.i16("py")?;
            f.u8("copies")?;
            f.u8("spread")?;
            f.pad(2)?;
            f.f32("length", "")?;
        }
        0x1900 => {
            f.obj("morpher")?;
            f.obj("base_model")?;
        }
        0x2000 => {
            f.obj("object")?;
            f.u32("flags")?;
            f.obj("modifier")?;
            f.obj("layer")?;
            f.obj("slayer")?;
        }
        0x2200 => {
            f.dec("id")?;
            f.u8("type")?;
            f.u8("bits")?;
            f.u8("track")?;
            f.pad(1)?;
            let blocks = f.dec("blocks")?;
            let words = f.dec("words")?;
            let n = u64::from(blocks) * u64::from(words);
            b.check_count("pcm word", f.p, n, 4, (end - f.p) / 4)?;
            f.array(
                "audio",
                Some(Span::at(f.p, 4 * n)),
                format!("{blocks} blocks × {words} words (256 L + 256 R s16 per 1024 bytes, 48 kHz)"),
            );
            f.p += 4 * n;
        }
        _ => {
            let _ = section;
            record(f, kind, end, data, limits)?;
        }
    }
    Ok(())
}

impl Fb<'_, '_> {
    fn dec_u16(&mut self, name: &str) -> Result<u16> {
        self.u16(name)
    }
}

/// Frame records and controller records (payload only; header already shown).
fn record(f: &mut Fb<'_, '_>, kind: u16, end: u64, _data: &[u8], limits: &Limits) -> Result<()> {
    let b = f.b;
    match kind {
        0x0101 => {
            f.obj("object")?;
            let w = b.u32_le(f.p)?;
            f.add(Field::new("unused", Span::at(f.p, 4), Value::uint(u64::from(w), 4)).note("never read"));
            f.p += 4;
            f.vec3("pos", "units")?;
            f.vec3("rot", "deg")?;
            f.vec3("scale", "")?;
            f.f32("transparency", "")?;
            f.u32("flags")?;
        }
        0x0108 => {
            f.obj("object")?;
            f.u32("event")?;
            f.u32("param")?;
        }
        0x0201 => {
            f.obj("material")?;
            let fl = f.u32("flag")?;
            if fl & 2 == 0 {
                f.f32("u", "")?;
                f.f32("v", "")?;
            }
        }
        0x0502 => {
            f.obj("object")?;
            let fl = f.u32("flag")?;
            if fl & 1 == 0 {
                for (bit, n) in [
                    (1, "pos.x"),
                    (2, "pos.y"),
                    (3, "pos.z"),
                    (4, "rot.x"),
                    (5, "rot.y"),
                    (6, "rot.z"),
                    (7, "unused"),
                    (8, "fov"),
                ] {
                    if fl & (1 << bit) == 0 {
                        let unit = if bit >= 4 && bit != 7 { "deg" } else { "" };
                        let fld_name = if bit == 7 { "bit7 (unknown)" } else { n };
                        f.f32(fld_name, unit)?;
                    }
                }
            }
        }
        0x0601 => {
            f.colour("colour")?;
        }
        0x0602 => {
            f.obj("object")?;
            let fl = f.u32("flag")?;
            f.vec3("rot", "deg")?;
            f.colour("colour")?;
            if fl & 0x20 != 0 {
                f.f32("intensity", "")?;
            }
        }
        0x0608 => {
            f.obj("object")?;
            f.u32("flag")?;
            f.vec3("pos", "units")?;
            f.colour("colour")?;
            f.f32("intensity", "")?;
            f.f32("far_start", "")?;
            f.f32("far_end", "")?;
        }
        0x1801 => {
            f.obj("object")?;
            f.vec3("rot", "deg")?;
            f.f32("alpha", "")?;
        }
        0x1901 => {
            f.obj("morpher")?;
            let n = f.u16("n")?;
            f.pad(2)?;
            b.check_count("morph target", f.p, u64::from(n), 8, (end - f.p) / 8)?;
            for i in 0..n {
                f.obj(&format!("target[{i}]"))?;
                f.f32(&format!("weight[{i}]"), "")?;
            }
        }
        0x2201 => {
            f.dec("id")?;
            let blocks = f.u16("blocks")?;
            f.pad(2)?;
            let words = f.dec("words")?;
            let n = u64::from(blocks) * u64::from(words);
            b.check_count("pcm word", f.p, n, 4, (end - f.p) / 4)?;
            f.array("audio", Some(Span::at(f.p, 4 * n)), format!("{blocks} × {words} words"));
            f.p += 4 * n;
        }
        0x0102 | 0x0202 | 0x0603 | 0x0605 | 0x0609 => {
            let rec = SubRecord { off: f.p - 8, kind, tag: 0, size: 0, end };
            let c = anime::parse_ctrl(&b, &rec, limits)?;
            f.obj("object")?;
            let fl = b.u32_le(f.p)?;
            let mut names = Vec::new();
            for cf in &c.fields {
                if cf.k != 0 {
                    names.push(format!("{}={}", cf.name, if cf.k == 1 { "const" } else { "keyed" }));
                }
            }
            f.add(
                Field::new("flags", Span::at(f.p, 4), Value::uint(u64::from(fl), 4).flags(names))
                    .note("3 bits per field: 0 absent, 1 constant, 2 keyed"),
            );
            f.p += 4;
            for cf in &c.fields {
                let unit = match cf.name {
                    "rotation" => "deg",
                    "position" => "units",
                    _ => "",
                };
                match &cf.value {
                    CtrlValue::Absent => {}
                    CtrlValue::Const(v) => {
                        for (i, w) in v.iter().enumerate() {
                            let nm = if cf.dim == 3 {
                                format!("{}.{}", cf.name, ["x", "y", "z"].get(i).unwrap_or(&"?"))
                            } else {
                                cf.name.to_string()
                            };
                            let val = ctrl_value(cf.name, *w, unit);
                            f.add(Field::new(nm, Span::at(cf.span.start + 4 * i as u64, 4), val).note("constant"));
                        }
                    }
                    CtrlValue::Keys(keys) => {
                        let n = f.doc.add_node(f.node, cf.name, "keyed controller", cf.span);
                        f.doc.add_field(n, Field::new("n", Span::at(cf.span.start, 4), Value::dec(keys.len() as u64)));
                        for (i, (fr, words, s)) in keys.iter().enumerate() {
                            f.doc.add_field(
                                n,
                                Field::new(format!("key[{i}].frame"), Span::at(s.start, 4), Value::dec(u64::from(*fr))),
                            );
                            for (j, w) in words.iter().enumerate() {
                                let nm = if cf.dim == 3 {
                                    format!("key[{i}].{}", ["x", "y", "z"].get(j).unwrap_or(&"?"))
                                } else {
                                    format!("key[{i}].value")
                                };
                                let val = ctrl_value(cf.name, *w, unit);
                                f.doc.add_field(n, Field::new(nm, Span::at(s.start + 4 + 4 * j as u64, 4), val));
                            }
                        }
                        if let Some(nd) = f.doc.node_mut(n) {
                            nd.summary = format!("{} keys", keys.len());
                        }
                    }
                }
            }
            f.p = c.end;
        }
        0x0604 | 0x0606 | 0x0607 | 0x0802 | 0x0803 => {
            if first_word_is_object(kind) && f.p + 4 <= end {
                f.obj("object")?;
            }
            // the rest is labelled unknown by the caller
        }
        0x0d00 | 0x1000 => {}
        _ => {
            return Err(ParseError::new(
                f.p,
                crate::error::ErrorKind::Unsupported(format!("no layout for chunk 0x{kind:04x}")),
            ));
        }
    }
    Ok(())
}

/// Anime sub-records as children of the Anime node, grouped by Top.
fn records(f: &mut Fb<'_, '_>, recs: &[SubRecord], data: &[u8], limits: &Limits) -> Result<()> {
    let b = f.b;
    let anime = f.node;
    let mut group: Option<NodeId> = None;
    let mut seen = HashMap::new();
    for r in recs {
        let kname = kind_name(r.kind, true);
        let mut parent = anime;
        let key = if r.kind == 0xff01 {
            let n = b.sub(r.off, r.end).and_then(|w| w.u32_le(r.off + 8)).unwrap_or(0);
            if n >= 0xffff_fffe {
                group = None;
                format!("Top[{}]", n as i32)
            } else {
                let g = f.doc.add_node(
                    anime,
                    uniq_key(&mut seen, anime, format!("frame[{n}]")),
                    "frame",
                    Span::new(r.off, r.end),
                );
                group = Some(g);
                parent = g;
                format!("Top[{n}]")
            }
        } else {
            if let Some(g) = group {
                parent = g;
                if let Some(nd) = f.doc.node_mut(g) {
                    nd.span.end = r.end;
                }
            }
            let o =
                b.u32_le(r.off + 8).ok().filter(|_| first_word_is_object(r.kind) && r.size > 0).map(|o| f.idx.name(o));
            match o {
                Some(o) => format!("{kname}[{o}]"),
                None => kname.to_string(),
            }
        };
        let key = uniq_key(&mut seen, parent, key);
        let id = f.doc.add_node(parent, key, kname, Span::new(r.off, r.end));
        let mut g = Fb { doc: &mut *f.doc, node: id, b: b.sub(r.off, r.end).unwrap_or(b), p: r.off, idx: f.idx };
        g.add(Field::new("kind", Span::at(r.off, 2), Value::uint(u64::from(r.kind), 2).label(kname)));
        g.add(Field::new("tag", Span::at(r.off + 2, 2), Value::uint(u64::from(r.tag), 2)));
        g.add(Field::new("size", Span::at(r.off + 4, 4), Value::dec(u64::from(r.size)).label("words")));
        g.p = r.off + 8;
        let res = if r.kind == 0xff01 {
            let n = g.b.u32_le(g.p)?;
            let v = match n {
                0xffff_ffff => Value::uint(u64::from(n), 4).label("end (-1): play once"),
                0xffff_fffe => Value::uint(u64::from(n), 4).label("end (-2): loop"),
                _ => Value::dec(u64::from(n)),
            };
            g.add(Field::new("frame", Span::at(g.p, 4), v));
            g.p += 4;
            Ok(())
        } else {
            record(&mut g, r.kind, r.end, data, limits)
        };
        let at = g.p;
        match res {
            Ok(()) => {
                if at < r.end {
                    let s = Span::new(at, r.end);
                    let v = if r.kind == 0x0607 {
                        Value::unknown_bytes(s.len()).label("layout not documented")
                    } else {
                        Value::unknown_bytes(s.len())
                    };
                    f.doc.add_field(id, Field::new("payload", s, v).note("not decoded"));
                }
            }
            Err(e) => {
                f.doc.diag(Diagnostic::from_error(&e.within(format!("Anime > {kname} @0x{:x}", r.off))));
                let from = at.clamp(r.off + 8, r.end);
                if from < r.end {
                    f.doc.add_field(
                        id,
                        Field::new("unparsed", Span::new(from, r.end), Value::unknown_bytes(r.end - from)),
                    );
                }
            }
        }
    }
    Ok(())
}

fn ctrl_value(name: &str, w: u32, unit: &str) -> Value {
    if name == "colour" {
        let [r, g, b, a] = w.to_le_bytes();
        Value::uint(u64::from(w), 4).label(format!("rgba {r} {g} {b} {a}"))
    } else if unit.is_empty() {
        Value::f32(w)
    } else {
        Value::f32(w).number(f64::from(f32::from_bits(w)), unit)
    }
}

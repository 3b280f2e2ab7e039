//! SC6 bank → `model::Document`: the bank header, offset table, every clip with its header
//! fields, group table, groups (base words, 4-bit code lengths, derived code table, and the
//! symbols and extra bits of each keyframe as bit fields), plus the walk trace.
//!
//! Bit-level detail is bounded: per-symbol fields (and per-word base fields) are emitted
//! while a per-document budget of [`DETAIL_BUDGET`] fields lasts, in clip order. A bank of
//! thousands of clips therefore opens quickly; later clips still show every group with its
//! code lengths, base-word and bitstream byte ranges, and `decode` shows their words.

use super::bits::CodeTable;
use super::decode::channel_name;
use super::parse::{
    Bank, Channel, Decoded, Group, Header, StreamKind, align8, decode_groups, layout, parse_bank, parse_header,
};
use super::raw::*;
use super::reject::R;
use super::reject::Sc6Error;
use crate::bytes::Bytes;
use crate::formats::record::{self, FixedSize, Record};
use crate::limits::Limits;
use crate::model::{BitSpan, Diagnostic, Document, Field, NodeId, Severity, Span, Value, WalkStep};

/// Fields of bit-level detail (symbols, extra bits, base words) one document may hold.
pub(in crate::formats) const DETAIL_BUDGET: usize = 60_000;

fn diag_err(doc: &mut Document, e: &Sc6Error, sev: Severity) {
    doc.diag(Diagnostic::new(sev, Some(e.err.offset), e.err.path.clone(), e.err.kind.to_string()));
}

fn step(
    doc: &mut Document,
    span: Span,
    what: impl Into<String>,
    detail: impl Into<String>,
    next: Option<u64>,
    node: Option<NodeId>,
) {
    doc.walk.push(WalkStep { span, what: what.into(), detail: detail.into(), next, node });
}

/// Describe the whole bank permissively.
pub(in crate::formats) fn describe(data: &[u8], name: &str, limits: &Limits) -> Document {
    let len = data.len() as u64;
    let bytes = Bytes::new(data);
    let mut doc = Document::new("sc6", name, "mot bank", len, limits);
    let bank = match parse_bank(bytes) {
        Ok(b) => b,
        Err(e) => {
            doc.add_field(NodeId::ROOT, Field::new("bytes", Span::new(0, len), Value::unknown_bytes(len)));
            diag_err(&mut doc, &e.clone().within("bank"), Severity::Error);
            step(
                &mut doc,
                Span::new(0, len),
                "bank header",
                format!("cannot read the header: {}", e.err.kind),
                None,
                Some(NodeId::ROOT),
            );
            return doc;
        }
    };
    describe_bank(&mut doc, bytes, &bank, limits);
    doc
}

fn describe_bank(doc: &mut Document, bytes: Bytes<'_>, bank: &Bank, limits: &Limits) {
    let len = bytes.len();
    for f in bank.header.fields() {
        doc.add_field(NodeId::ROOT, f);
    }
    for p in &bank.problems {
        diag_err(doc, &p.clone().within("bank"), Severity::Error);
    }
    step(
        doc,
        Span::new(0, BankHeader::SIZE.min(len)),
        "bank header",
        format!(
            "motion_count {} (reserved 0x{:x}); offset table at 0x8..0x{:x}",
            bank.count, bank.reserved, bank.table_end
        ),
        Some(BankHeader::SIZE),
        Some(NodeId::ROOT),
    );
    offset_table(doc, bank, len);
    // bytes between the table and the first clip
    let first = bank.distinct_slots().filter_map(|i| bank.offsets.get(i).copied()).min().unwrap_or(len);
    if first > bank.table_end {
        let pad = bytes.slice(bank.table_end, first - bank.table_end).unwrap_or(&[]);
        let zero = pad.iter().all(|&b| b == 0);
        let aligned = first == align8(bank.table_end);
        let v = if zero { Value::bytes(pad.len() as u64) } else { Value::unknown_bytes(pad.len() as u64) };
        let f = Field::new("pad", Span::new(bank.table_end, first), v);
        let f = if zero && aligned {
            f.note("zero padding to an 8-byte boundary")
        } else {
            f.note("unknown bytes before the first clip")
        };
        doc.add_field(NodeId::ROOT, f);
    }
    describe_clips(doc, bytes, bank, limits);
}

/// The offset table's node: each slot's offset naming its clip (or the clip it aliases),
/// and its walk step.
fn offset_table(doc: &mut Document, bank: &Bank, len: u64) {
    let distinct = bank.distinct_slots().count();
    let slots = bank.offsets.len();
    let table = doc.add_node(
        NodeId::ROOT,
        "offset_table",
        "offset table",
        Span::new(BankHeader::SIZE.min(len), bank.table_end.min(len)),
    );
    if let Some(n) = doc.node_mut(table) {
        n.summary =
            format!("{slots} slots, {distinct} distinct payloads, {} aliases", slots - distinct.min(slots)).into();
    }
    for (i, mut f) in bank.table.fields().into_iter().enumerate() {
        f.value = match (bank.alias_of.get(i).copied().flatten(), bank.bound.get(i).copied().flatten()) {
            (_, None) => f.value.label("unusable offset"),
            (Some(j), _) => f.value.refers(format!("clip[{i}] (alias of clip[{j}])")),
            (None, Some(_)) => f.value.refers(format!("clip[{i}]")),
        };
        doc.add_field(table, f);
    }
    step(
        doc,
        Span::new(BankHeader::SIZE.min(len), bank.table_end.min(len)),
        "offset table",
        format!(
            "{slots} offsets; {distinct} distinct payloads; a clip ends at the next greater distinct offset (EOF for the last); no end sentinel"
        ),
        bank.offsets.iter().copied().filter(|&o| o >= bank.table_end && o <= len).min(),
        Some(table),
    );
}

/// Every clip of the bank, in slot order, while the node and field limits last: an alias as
/// a node naming the clip it repeats, any other clip described with its groups while the
/// bit-level detail budget lasts.
fn describe_clips(doc: &mut Document, bytes: Bytes<'_>, bank: &Bank, limits: &Limits) {
    let len = bytes.len();
    let slots = bank.offsets.len();
    let mut budget = DETAIL_BUDGET;
    let mut node_of: Vec<Option<NodeId>> = vec![None; slots];
    let mut budget_noted = false;
    let mut fields = doc.field_count();
    for i in 0..slots {
        if doc.nodes.len() >= limits.max_nodes || fields >= limits.max_fields {
            doc.diag(Diagnostic::new(
                Severity::Error,
                Some(bank.slot_at(i)),
                "bank",
                format!("node/field limit reached; clips from slot {i} on are not shown"),
            ));
            break;
        }
        let Some(bound) = bank.bound.get(i).copied().flatten() else {
            let o = bank.offsets.get(i).copied().unwrap_or(0);
            doc.diag(Diagnostic::new(
                Severity::Error,
                Some(bank.slot_at(i)),
                format!("bank > offset[{i}]"),
                format!(
                    "slot {i} offset 0x{o:x} is unusable (zero, inside the offset table or past the end 0x{len:x})"
                ),
            ));
            continue;
        };
        let start = bank.offsets.get(i).copied().unwrap_or(0);
        if let Some(owner) = bank.alias_of.get(i).copied().flatten() {
            let id = doc.add_node(NodeId::ROOT, format!("clip[{i}]"), "clip", Span::new(start, bound));
            let owner_node = node_of.get(owner).copied().flatten();
            if let Some(n) = doc.node_mut(id) {
                n.alias_of = owner_node;
                n.summary = format!("alias of clip[{owner}]").into();
                n.anim = Some(format!("clip:{i}"));
            }
            if let Some(n) = node_of.get_mut(i) {
                *n = Some(id);
            }
            step(
                doc,
                Span::new(start, bound),
                format!("clip[{i}]"),
                format!("offset 0x{start:x} repeats slot {owner}: alias, same payload"),
                None,
                Some(id),
            );
            continue;
        }
        let clip = bytes.sub(start, bound).unwrap_or(bytes);
        let first_new = doc.nodes.len();
        let id = describe_clip(doc, clip, i, &mut budget, limits);
        fields += doc.nodes.get(first_new..).unwrap_or(&[]).iter().map(|n| n.fields.len()).sum::<usize>();
        if let Some(n) = node_of.get_mut(i) {
            *n = Some(id);
        }
        if budget == 0 && !budget_noted {
            budget_noted = true;
            doc.diag(Diagnostic::new(
                Severity::Info,
                None,
                format!("clip[{i}]"),
                format!(
                    "bit-level detail budget ({DETAIL_BUDGET} fields) used up at clip[{i}]: later groups show their code lengths and byte ranges, not each symbol; `decode --clip N` shows every word"
                ),
            ));
        }
    }
}

/// The hex label of a present channel for word `i`, if any.
fn word_label(chans: &[super::parse::Channel], kind: StreamKind, i: usize) -> Option<String> {
    chans
        .iter()
        .find(|c| c.word <= i && i < c.word + c.words)
        .map(|c| format!("{}[{}] (0x{:02x})", channel_name(kind, c, LrOrder::HorseMod), i - c.word, c.sel))
}

/// The clip header's fields, as many as the clip holds.
fn header_fields(doc: &mut Document, node: NodeId, clip: Bytes<'_>) {
    if let Some(p) = record::read_prefix::<ClipHeader>(&clip, clip.start()) {
        for f in p.fields() {
            doc.add_field(node, f);
        }
    }
}

fn describe_clip(doc: &mut Document, clip: Bytes<'_>, slot: usize, budget: &mut usize, limits: &Limits) -> NodeId {
    let s = clip.start();
    let span = Span::new(s, clip.end());
    let id = doc.add_node(NodeId::ROOT, format!("clip[{slot}]"), "clip", span);
    if let Some(n) = doc.node_mut(id) {
        n.anim = Some(format!("clip:{slot}"));
    }
    let path = format!("clip[{slot}]");
    let hdr_node = doc.add_node(id, "header", "clip header", Span::new(s, (s + ClipHeader::SIZE).min(clip.end())));
    header_fields(doc, hdr_node, clip);
    let h = match parse_header(clip) {
        Ok(h) => h,
        Err(e) => {
            diag_err(doc, &e.clone().within(&path), Severity::Error);
            if let Some(n) = doc.node_mut(id) {
                n.summary = format!("rejected: {}", e.reason.key()).into();
            }
            step(doc, span, format!("clip[{slot}] header"), format!("rejected: {}", e.err.kind), None, Some(id));
            return id;
        }
    };
    derived_header_fields(doc, hdr_node, &h);
    let (kind, chans) = clip_channels(doc, hdr_node, &h, &path);
    step(
        doc,
        Span::new(s, s + ClipHeader::SIZE),
        format!("clip[{slot}] header"),
        format!(
            "frame_count {}, flags 0x{:x} [{}] → playback {}, effective {}, {} keyframes in {} groups; {} words per keyframe",
            h.frame_count,
            h.flags,
            flag_names(h.flags).join("|"),
            h.playback,
            crate::model::fmt_num(h.effective),
            h.encoded,
            h.group_count,
            h.wc
        ),
        Some(s + ClipHeader::SIZE),
        Some(hdr_node),
    );
    let gt = doc.add_node(id, "group_table", "group table", Span::new(s + ClipHeader::SIZE, s + h.table_end));
    let trace_budget = *budget;
    let dec: Decoded = decode_groups(clip, &h, limits, trace_budget);
    for f in h.groups.fields() {
        doc.add_field(gt, f);
    }
    step(
        doc,
        Span::new(s + ClipHeader::SIZE, s + h.table_end),
        format!("clip[{slot}] group table"),
        format!("{} i16 entries; payload(g) = 0x1c + inclusive prefix sum", h.group_count),
        dec.groups.first().map(|g| s + g.payload),
        Some(gt),
    );
    let chan_list = chans.as_ref().map(|c| c.as_slice()).unwrap_or(&[]);
    let at = ClipAt { doc_clip: id, clip, slot, h: &h, kind, chans: chan_list };
    let mut group_spans: Vec<(Span, u64)> = Vec::new();
    let mut last_end = s + h.table_end;
    let payloads: Vec<u64> = dec.groups.iter().map(|g| s + g.payload).collect();
    for g in &dec.groups {
        let next = payloads.get(usize::try_from(g.index + 1).unwrap_or(usize::MAX)).copied();
        let gspan = describe_group(doc, &at, g, next, budget);
        group_spans.push((gspan, g.index));
        last_end = last_end.max(gspan.end);
    }
    say_group_overlaps(doc, &mut group_spans, &path);
    if let Some(e) = &dec.failure {
        diag_err(doc, &e.clone().within(&path), Severity::Error);
        step(
            doc,
            Span::at(e.err.offset.min(clip.end()), 0),
            format!("clip[{slot}] decode"),
            format!("stopped: {}", e.err.kind),
            None,
            Some(id),
        );
    } else if last_end < clip.end() {
        clip_tail(doc, id, clip, last_end);
    }
    channels_step(doc, hdr_node, &h, kind, &chans, slot);
    let status = match (&dec.failure, &chans) {
        (Some(e), _) => format!("rejected: {}", e.reason.key()),
        (None, Err(e)) => format!("decoded, walk rejected: {}", e.reason.key()),
        (None, Ok(c)) => format!("{} channels, {} stream", c.len(), kind.name()),
    };
    if let Some(n) = doc.node_mut(id) {
        let rate = match h.rate() {
            0.5 => ", half-rate",
            0.25 => ", quarter-rate",
            _ => "",
        };
        n.summary =
            format!("{} frames @60 Hz{rate}, {} words, {} groups; {status}", h.playback, h.wc, h.group_count).into();
    }
    id
}

/// The header fields derived from the stored ones: playback and keyframe counts, the group
/// count, where the table ends and how logical frames map onto keyframes.
fn derived_header_fields(doc: &mut Document, hdr_node: NodeId, h: &Header) {
    let derived = Span::new(h.record.frame_count.span.start, h.record.flags.span.end);
    let hd = |name: &str, v: String| Field::new(name, derived, Value::derived(v));
    doc.add_field(
        hdr_node,
        hd(
            "playback_count",
            format!("{} (frame_count{})", h.playback, if h.flags & F_EXTRA_FRAME != 0 { " + 1 extra" } else { "" }),
        ),
    );
    doc.add_field(hdr_node, hd("effective", crate::model::fmt_num(h.effective)));
    doc.add_field(hdr_node, hd("encoded_count", h.encoded.to_string()).note("stored keyframes = floor(effective)"));
    doc.add_field(hdr_node, hd("group_count", h.group_count.to_string()));
    doc.add_field(hdr_node, hd("table_end", format!("+0x{:x}", h.table_end)));
    let map = match h.rate() {
        0.5 => "logical frame 2k = keyframe k; odd frames blend keyframes k and k+1 halfway",
        0.25 => "logical frame 4k = keyframe k; frames between blend at 1/4, 1/2, 3/4",
        _ => "logical frame k = keyframe k",
    };
    let clamp = if h.effective.fract() != 0.0 { "; the last frames clamp onto the final keyframe" } else { "" };
    doc.add_field(hdr_node, Field::new("frame_map", h.record.flags.span, Value::derived(format!("{map}{clamp}"))));
}

/// The stream the clip's channels are read under (the flag's, or skill-check when only that
/// fits) and its channels, each as a header field; a stream that fits neither is said.
fn clip_channels(doc: &mut Document, hdr_node: NodeId, h: &Header, path: &str) -> (StreamKind, R<Vec<Channel>>) {
    let mut kind = StreamKind::from_flags(h.flags);
    let mut chans = layout(kind, h);
    if let Err(e) = &chans
        && e.reason == super::reject::Reason::ConsumptionMismatch
        && let Ok(c) = layout(StreamKind::SkillCheck, h)
    {
        // chr0ff-style clips: the game samples them through the skill-check stream.
        doc.diag(Diagnostic::new(
            Severity::Info,
            Some(e.err.offset),
            path.to_string(),
            format!("{}; the skill-check stream fits, so channels are shown under it", e.err.kind),
        ));
        kind = StreamKind::SkillCheck;
        chans = Ok(c);
    }
    match &chans {
        Ok(chans) => {
            for c in chans {
                doc.add_field(
                    hdr_node,
                    Field::new(
                        format!("channel[{}]", c.entry),
                        h.record.presence_mask.span,
                        Value::derived(format!(
                            "bit {} sel 0x{:02x} {}: words {}..{}",
                            c.bit,
                            c.sel,
                            channel_name(kind, c, LrOrder::HorseMod),
                            c.word,
                            c.word + c.words
                        )),
                    )
                    .note(selector_name(c.sel)),
                );
            }
        }
        Err(e) => diag_err(doc, &e.clone().within(path), Severity::Error),
    }
    (kind, chans)
}

/// Where a group of a clip is described: the clip's node, bytes, slot, header, stream and
/// channels.
struct ClipAt<'a, 'b> {
    doc_clip: NodeId,
    clip: Bytes<'b>,
    slot: usize,
    h: &'a Header,
    kind: StreamKind,
    chans: &'a [Channel],
}

/// Group `g` of the clip `at` as a node: its base words, code lengths and codes, and its
/// symbols while the detail `budget` lasts (else their byte ranges), and its walk step;
/// `next` is the next group's payload. Returns the group's span.
fn describe_group(doc: &mut Document, at: &ClipAt<'_, '_>, g: &Group, next: Option<u64>, budget: &mut usize) -> Span {
    let ClipAt { doc_clip: id, clip, slot, h, kind, chans: chan_list } = *at;
    let s = clip.start();
    let gstart = s + g.payload;
    let consumed_end = g.end_bit.div_ceil(8);
    let gend = (consumed_end + (consumed_end - s) % 2).min(clip.end()).max(gstart);
    let gid = doc.add_node(id, format!("group[{}]", g.index), "group", Span::new(gstart, gend));
    let first_key = g.index * GROUP_KEYS;
    if let Some(n) = doc.node_mut(gid) {
        n.summary = format!("keyframes {}..{} ({} keys)", first_key, first_key + g.keys - 1, g.keys).into();
    }
    let base_end = gstart + 2 * h.wc;
    let detail = *budget > 0;
    if detail {
        for i in 0..h.wc {
            let at = gstart + 2 * i;
            let v = clip.i16_le(at).unwrap_or(0);
            let mut f = Field::new(format!("base.w{i}"), Span::at(at, 2), Value::int(i64::from(v), 2));
            if let Some(l) = word_label(chan_list, kind, usize::try_from(i).unwrap_or(0)) {
                f = f.note(l);
            }
            doc.add_field(gid, f);
        }
        *budget = budget.saturating_sub(usize::try_from(h.wc).unwrap_or(0));
    } else {
        doc.add_field(
            gid,
            Field::new("base", Span::new(gstart, base_end), Value::bytes(2 * h.wc))
                .note(format!("keyframe {first_key}: {} little-endian i16 words", h.wc)),
        );
    }
    let Some(table) = &g.table else {
        step(
            doc,
            Span::new(gstart, base_end),
            format!("clip[{slot}] group[{}]", g.index),
            "one keyframe: base words only, no bitstream read",
            None,
            Some(gid),
        );
        return Span::new(gstart, gend);
    };
    let lbit = g.lengths_bit;
    code_fields(doc, gid, table, lbit, detail);
    if detail && !g.syms.is_empty() {
        symbol_fields(doc, gid, at, g, table, budget);
    } else {
        doc.add_field(
            gid,
            Field::new(
                "bitstream",
                Span::new((lbit + 72) / 8, gend),
                Value::bytes(gend.saturating_sub((lbit + 72) / 8)),
            )
            .note(format!("{} symbols (+ extra bits), MSB first", (g.keys - 1) * h.wc)),
        );
    }
    step(
        doc,
        Span::new(gstart, gend),
        format!("clip[{slot}] group[{}]", g.index),
        format!(
            "base words 0x{gstart:x}..0x{base_end:x}; 18 code lengths at group bit {} (max length {}); {} symbols for keyframes {}..{}; stream ends at group bit {} (+{} pad bits)",
            lbit - gstart * 8,
            table.max_len,
            (g.keys - 1) * h.wc,
            first_key + 1,
            first_key + g.keys - 1,
            g.end_bit - gstart * 8,
            gend * 8 - g.end_bit.min(gend * 8)
        ),
        next,
        Some(gid),
    );
    Span::new(gstart, gend)
}

/// A group's code lengths and the codes derived from them, field by field while `detail`
/// lasts, else as one field.
fn code_fields(doc: &mut Document, gid: NodeId, table: &CodeTable, lbit: u64, detail: bool) {
    if detail {
        for (sym, l) in table.lengths.iter().enumerate() {
            doc.add_field(
                gid,
                Field::bits(
                    format!("len[{sym}]"),
                    BitSpan { start_bit: lbit + 4 * sym as u64, bits: 4 },
                    Value::bits(u64::from(*l), 4),
                ),
            );
        }
        for c in &table.codes {
            let (code, len) = table.emitted(c.sym).unwrap_or((0, 0));
            let meaning = if c.sym <= 3 {
                format!("delta {}", i32::from(c.sym) - 2)
            } else {
                let n = u32::from(c.sym) - 2;
                format!("{n} extra bits: delta ±[2^{}, 2^{n})", n - 1)
            };
            doc.add_field(
                gid,
                Field::new(
                    format!("code[{}]", c.sym),
                    Span::new(lbit / 8, (lbit + 72).div_ceil(8)),
                    Value::derived(format!("{code:0w$b} ({len} bits): {meaning}", w = len as usize)),
                )
                .note("derived from the lengths"),
            );
        }
    } else {
        let ls: Vec<String> = table.lengths.iter().map(|l| l.to_string()).collect();
        doc.add_field(
            gid,
            Field::new("code_lengths", Span::new(lbit / 8, (lbit + 72).div_ceil(8)), Value::derived(ls.join(" ")))
                .note("18 × 4 bits, symbol 0 first"),
        );
    }
}

/// A group's symbols and extra bits as bit fields, the detail `budget` spent on them; a
/// trace the budget cut short says how much it itemised.
fn symbol_fields(
    doc: &mut Document,
    gid: NodeId,
    at: &ClipAt<'_, '_>,
    g: &Group,
    table: &CodeTable,
    budget: &mut usize,
) {
    let (h, kind, chan_list) = (at.h, at.kind, at.chans);
    let gstart = at.clip.start() + g.payload;
    let consumed_end = g.end_bit.div_ceil(8);
    let gend = (consumed_end + (consumed_end - at.clip.start()) % 2).min(at.clip.end()).max(gstart);
    for sy in &g.syms {
        let code = sy.sym;
        let emitted = table.emitted(code).map_or(0, |(c, _)| c);
        let label = word_label(chan_list, kind, sy.word as usize).unwrap_or_default();
        doc.add_field(
            gid,
            Field::bits(
                format!("k{}.w{}", sy.key, sy.word),
                BitSpan { start_bit: sy.bit, bits: u32::from(sy.code_len) },
                Value::bits(u64::from(emitted), sy.code_len).label(if sy.extra_len == 0 {
                    format!("sym {code} → delta {}", sy.delta)
                } else {
                    format!("sym {code}, {} extra bits", sy.extra_len)
                }),
            )
            .note(label),
        );
        if sy.extra_len > 0 {
            doc.add_field(
                gid,
                Field::bits(
                    format!("k{}.w{}.extra", sy.key, sy.word),
                    BitSpan { start_bit: sy.bit + u64::from(sy.code_len), bits: u32::from(sy.extra_len) },
                    Value::bits(u64::from(sy.extra), sy.extra_len).label(format!("delta {}", sy.delta)),
                ),
            );
        }
    }
    let used = g.syms.len() + g.syms.iter().filter(|x| x.extra_len > 0).count() + 18 + table.codes.len();
    *budget = budget.saturating_sub(used);
    let expected = usize::try_from((g.keys - 1) * h.wc).unwrap_or(0);
    if g.syms.len() < expected {
        doc.add_field(
            gid,
            Field::new(
                "bitstream_rest",
                Span::new(gstart, gend),
                Value::derived(format!("{} of {expected} symbols itemized", g.syms.len())),
            )
            .note("detail budget used up"),
        );
    }
}

/// Hostile group tables can make groups share bytes: say so where each overlap starts.
fn say_group_overlaps(doc: &mut Document, group_spans: &mut [(Span, u64)], path: &str) {
    group_spans.sort_by_key(|(sp, g)| (sp.start, *g));
    let mut widest: Option<(Span, u64)> = None;
    for &(sp, g) in group_spans.iter() {
        if let Some((w, wg)) = widest
            && w.overlaps(&sp)
        {
            doc.diag(Diagnostic::new(
                Severity::Warning,
                Some(sp.start.max(w.start)),
                format!("{path} > group[{g}]"),
                format!("group {g} shares bytes with group {wg}: the group table points them at overlapping payloads"),
            ));
        }
        if widest.is_none_or(|(w, _)| sp.end > w.end) {
            widest = Some((sp, g));
        }
    }
}

/// The bytes after the clip's last group: zero pad, or unknown.
fn clip_tail(doc: &mut Document, id: NodeId, clip: Bytes<'_>, last_end: u64) {
    let tail = clip.slice(last_end, clip.end() - last_end).unwrap_or(&[]);
    let zero = tail.iter().all(|&b| b == 0);
    let v = if zero { Value::bytes(tail.len() as u64) } else { Value::unknown_bytes(tail.len() as u64) };
    doc.add_field(
        id,
        Field::new("tail", Span::new(last_end, clip.end()), v).note(if zero {
            "zero pad: trailing u16 after the last group, then alignment"
        } else {
            "bytes after the last group: unknown (spec open question 3)"
        }),
    );
}

/// The walk step of the clip's channels: the stream against the presence mask, or why the
/// channels were rejected.
fn channels_step(
    doc: &mut Document,
    hdr_node: NodeId,
    h: &Header,
    kind: StreamKind,
    chans: &R<Vec<Channel>>,
    slot: usize,
) {
    if let Ok(c) = &chans {
        step(
            doc,
            h.record.presence_mask.span,
            format!("clip[{slot}] channels"),
            format!(
                "{} stream ({}) against mask 0x{:x}: {} present channels consume {} words = word count",
                kind.name(),
                if kind == StreamKind::SkillCheck {
                    "the flag's stream does not fit; skill-check does".to_string()
                } else {
                    format!("flag 0x8000 {}", if h.flags & F_ALT_STREAM != 0 { "set" } else { "clear" })
                },
                h.mask,
                c.len(),
                h.wc
            ),
            None,
            Some(hdr_node),
        );
    } else if let Err(e) = &chans {
        step(
            doc,
            h.record.presence_mask.span,
            format!("clip[{slot}] channels"),
            format!("rejected: {}", e.err.kind),
            None,
            Some(hdr_node),
        );
    }
}

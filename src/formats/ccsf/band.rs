//! CCSF generations as data: one row per version range where a layout changes
//! (docs/formats/ccsf.md#version-gates, docs/formats/ccsf-gen2.md#version-bands). Every
//! version-dependent rule of the ccsf readers, describer and writer is a lookup of a fact
//! in [`BANDS`]; a new game's CCSF variant is one row here plus a fixture and its vectors.
//! `no_version_comparison_outside_the_band_table` keeps the rest of the folder free of
//! version literals.

/// The highest version the addendum names (its writer guidance's 0x131, band B7): above
/// it a file is walked by B7's rules with a warning.
pub(in crate::formats) const HIGHEST_DESCRIBED: u16 = 0x131;

/// The version whose rules a file of an unknown gen-1 version (0x101..0x10F) is walked by.
pub(in crate::formats) const GEN1_LAST: u16 = 0x100;

/// The first later-generation version: what a gen-2-only reader passes to a record
/// taking the version (every gen-1 gate open).
pub(in crate::formats) const GEN2_FIRST: u16 = 0x110;

/// Which family of rules a version range follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum Generation {
    /// Below 0x90: the game refuses the file; walked with every gen-1 gate closed.
    Refused,
    /// .hack//Infection's own range 0x90..=0x100.
    Gen1,
    /// 0x101..=0x10F: no known game; walked with 0x100's rules and a warning.
    Gen1Above,
    /// 0x110 and up (docs/formats/ccsf-gen2.md).
    Gen2,
}

/// A version band of the addendum (docs/formats/ccsf-gen2.md#version-bands): a label only,
/// the facts are the row's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(in crate::formats) enum Band {
    /// 0x110: gen-1 layouts above 0x100.
    B0,
    /// 0x111: Clump bind pose, Model outline words.
    B1,
    /// 0x112..0x11F: + Model lookup list.
    B2,
    /// 0x120: + 5-word Material.
    B3,
    /// 0x121..0x124: + 5-word Obj.
    B4,
    /// 0x125..0x12F: + 16.16 UVs, 12-byte skin entries.
    B5,
    /// 0x130: + 14-word Material.
    B6,
    /// Above 0x130: + 23-word Material.
    B7,
}

impl Band {
    /// `B4 = 0x121..0x124`.
    pub fn label(self) -> &'static str {
        match self {
            Band::B0 => "B0 = 0x110",
            Band::B1 => "B1 = 0x111",
            Band::B2 => "B2 = 0x112..0x11f",
            Band::B3 => "B3 = 0x120",
            Band::B4 => "B4 = 0x121..0x124",
            Band::B5 => "B5 = 0x125..0x12f",
            Band::B6 => "B6 = 0x130",
            Band::B7 => "B7 = above 0x130",
        }
    }
}

/// What a version range decides. Rows are cumulative in the spec's sense: a fact once
/// opened stays open in later rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct BandFacts {
    /// First version of the row.
    pub first: u16,
    /// Last version of the row (inclusive).
    pub last: u16,
    /// Rule family.
    pub generation: Generation,
    /// The addendum's band (gen 2 only).
    pub band: Option<Band>,
    /// What the Header's `version` field is labelled with (docs/formats/ccsf.md#version-gates).
    pub gate: &'static str,
    /// Texture: the 8-byte header (mipmap, aref, tw, th) rather than the 4-byte one (0x90).
    pub long_texture_header: bool,
    /// Texture and Clut carry a `blt_group` word (0x92).
    pub blt_group: bool,
    /// Obj carries the shadow-model word (0x96).
    pub obj_shadow_model: bool,
    /// Model `mtype`: only its low byte counts (below 0x100).
    pub mtype_low_byte: bool,
    /// Gen 2: every size field but Texture's is right, so a chunk's size picks between
    /// readings where the readers disagree (Obj fifth word, Clump bind poses, Model header).
    pub size_decides: bool,
    /// The band's own Obj word count (gen 2; the size may pick the other reading).
    pub obj_words: u64,
    /// The band's own Clump reading has a bind pose per node (B1+).
    pub clump_bind_pose: bool,
    /// The band's own Material word count (gen 2; 0 in gen 1, whose Material is followed
    /// by a Light record).
    pub material_words: u64,
    /// The band's own Model header has the outline colour and width words (B1+).
    pub model_outline: bool,
    /// The band's own Model header is followed by a lookup list for unlit deformable
    /// models (B2+, AH's `version > 0x111`).
    pub model_lookup: bool,
    /// UVs are s32 16.16 pairs (B5+) rather than s16 /256 pairs in one word.
    pub uv_16_16: bool,
    /// Bytes per skin entry: 8 (`x, y, z, w`) or 12 (B5+: `x, y, z, weight, stop, bone`).
    pub skin_entry_bytes: u64,
    /// Skin mmats carry tangent arrays when the model says so (B5+).
    pub skin_tangents: bool,
    /// Eff `zoffs` is 8.8 fixed point (0x122+).
    pub eff_zoffs_8_8: bool,
    /// A ParticleGenerator resource has four more bytes (above 0x122).
    pub particle_resource_extra: bool,
    /// F_Material 0x0201 has the gen-2 layout (B3+).
    pub f_material2: bool,
    /// The version is one the specs name (not above [`HIGHEST_DESCRIBED`]).
    pub described: bool,
    /// The name of a bone/skin mmat head's entry count: gen 1's `offsetNum`
    /// (docs/formats/ccsf.md#mmat-heads), gen 2's `entryCount` (docs/formats/ccsf-gen2.md#mmats).
    pub skin_count_name: &'static str,
}

impl BandFacts {
    /// Later-generation rules (0x110+): gen-2 kinds, masked F_Obj, quaternion keys, the
    /// gen-2 Model header, computed Texture ends, BTX and RGBA32 textures.
    pub fn gen2(&self) -> bool {
        self.generation == Generation::Gen2
    }
}

/// Gen 1 with every gate closed (below 0x90).
const REFUSED: BandFacts = BandFacts {
    first: 0,
    last: 0x8f,
    generation: Generation::Refused,
    band: None,
    gate: "below 0x90: the game refuses it",
    long_texture_header: false,
    blt_group: false,
    obj_shadow_model: false,
    mtype_low_byte: true,
    size_decides: false,
    obj_words: 3,
    clump_bind_pose: false,
    material_words: 0,
    model_outline: false,
    model_lookup: false,
    uv_16_16: false,
    skin_entry_bytes: 8,
    skin_tangents: false,
    eff_zoffs_8_8: false,
    particle_resource_extra: false,
    f_material2: false,
    described: true,
    skin_count_name: "offset_num",
};

/// 0x100: every gen-1 gate open.
const GEN1_OPEN: BandFacts = BandFacts {
    first: 0x100,
    last: 0x100,
    generation: Generation::Gen1,
    gate: "0x100: every gate open",
    long_texture_header: true,
    blt_group: true,
    obj_shadow_model: true,
    mtype_low_byte: false,
    obj_words: 4,
    ..REFUSED
};

/// B0: gen-2 rules with nothing the later bands add.
const B0: BandFacts = BandFacts {
    first: 0x110,
    last: 0x110,
    generation: Generation::Gen2,
    band: Some(Band::B0),
    gate: "not gen 1 (.hack//Infection uses 0x90..0x100)",
    size_decides: true,
    material_words: 4,
    skin_count_name: "entry_count",
    ..GEN1_OPEN
};

/// Every version range, ascending and contiguous over 0..=0xFFFF.
pub(in crate::formats) const BANDS: &[BandFacts] = &[
    REFUSED,
    BandFacts {
        first: 0x90,
        last: 0x91,
        generation: Generation::Gen1,
        gate: "≥0x90: long texture header; no blt_group; 3-word Obj; mtype masked",
        long_texture_header: true,
        ..REFUSED
    },
    BandFacts {
        first: 0x92,
        last: 0x95,
        generation: Generation::Gen1,
        gate: "≥0x92: blt_group words; 3-word Obj; mtype masked",
        long_texture_header: true,
        blt_group: true,
        ..REFUSED
    },
    BandFacts {
        first: 0x96,
        last: 0xff,
        gate: "≥0x96: 4-word Obj; mtype masked to its low byte",
        mtype_low_byte: true,
        ..GEN1_OPEN
    },
    GEN1_OPEN,
    BandFacts {
        first: 0x101,
        last: 0x10f,
        generation: Generation::Gen1Above,
        gate: "not gen 1 (.hack//Infection uses 0x90..0x100)",
        ..GEN1_OPEN
    },
    B0,
    BandFacts { first: 0x111, last: 0x111, band: Some(Band::B1), model_outline: true, clump_bind_pose: true, ..B0 },
    BandFacts {
        first: 0x112,
        last: 0x11f,
        band: Some(Band::B2),
        model_outline: true,
        clump_bind_pose: true,
        model_lookup: true,
        ..B0
    },
    BandFacts {
        first: 0x120,
        last: 0x120,
        band: Some(Band::B3),
        model_outline: true,
        clump_bind_pose: true,
        model_lookup: true,
        material_words: 5,
        f_material2: true,
        ..B0
    },
    BandFacts { first: 0x121, last: 0x121, ..B4 },
    BandFacts { first: 0x122, last: 0x122, eff_zoffs_8_8: true, ..B4 },
    BandFacts { first: 0x123, last: 0x124, eff_zoffs_8_8: true, particle_resource_extra: true, ..B4 },
    BandFacts { first: 0x125, last: 0x12f, ..B5 },
    BandFacts { first: 0x130, last: 0x130, band: Some(Band::B6), material_words: 14, ..B5 },
    BandFacts { first: 0x131, last: HIGHEST_DESCRIBED, band: Some(Band::B7), material_words: 23, ..B5 },
    ABOVE_DESCRIBED,
];

/// Above the highest described version: B7's rules, said with a warning.
const ABOVE_DESCRIBED: BandFacts = BandFacts {
    first: HIGHEST_DESCRIBED + 1,
    last: u16::MAX,
    band: Some(Band::B7),
    material_words: 23,
    described: false,
    ..B5
};

/// B4 as at 0x121 (the rows of 0x122 and 0x123 open the Eff and particle facts on it).
const B4: BandFacts = BandFacts {
    first: 0x121,
    last: 0x124,
    band: Some(Band::B4),
    model_outline: true,
    clump_bind_pose: true,
    model_lookup: true,
    material_words: 5,
    f_material2: true,
    obj_words: 5,
    ..B0
};

/// B5: 16.16 UVs and 12-byte skin entries on top of everything B4 opens.
const B5: BandFacts = BandFacts {
    first: 0x125,
    last: 0x12f,
    band: Some(Band::B5),
    eff_zoffs_8_8: true,
    particle_resource_extra: true,
    uv_16_16: true,
    skin_entry_bytes: 12,
    skin_tangents: true,
    ..B4
};

/// Versions below this have their row looked up in [`ROW_OF`]: a search per call was half
/// of the walker's own time (it asks once per chunk, and the declared records ask too).
const TABLED: usize = 0x200;

/// The row of each version below [`TABLED`], as [`of`]'s search finds it.
const ROW_OF: [u8; TABLED] = row_table();

// Evaluated at compile time only: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn row_table() -> [u8; TABLED] {
    let mut t = [0u8; TABLED];
    let mut v = 0;
    while v < TABLED {
        let mut i = 0;
        while i < BANDS.len() && (BANDS[i].last as usize) < v {
            i += 1;
        }
        t[v] = i as u8;
        v += 1;
    }
    t
}

/// The facts of `version`'s row.
pub(in crate::formats) fn of(version: u16) -> &'static BandFacts {
    let i = match ROW_OF.get(usize::from(version)) {
        Some(&i) => usize::from(i),
        None => BANDS.partition_point(|r| r.last < version),
    };
    // the rows cover every u16 (`rows_cover_every_version_once`): `i` is always a row
    BANDS.get(i).unwrap_or(&ABOVE_DESCRIBED)
}

/// The generation a header version selects, as `info` and the tree show it: `None` for
/// .hack//Infection's own range (its summaries stay as they were).
pub(in crate::formats) fn generation_label(version: u16) -> Option<String> {
    let f = of(version);
    match f.generation {
        Generation::Refused => Some("below every known band (gen 1 starts at 0x90)".into()),
        Generation::Gen1 => None,
        Generation::Gen1Above => Some("gen 1 rules (above .hack//Infection's 0x100)".into()),
        Generation::Gen2 => Some(format!("gen 2 band {}", f.band.map_or("?", Band::label))),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;

    /// The table gives every version the row the search over [`BANDS`] gives it.
    #[test]
    fn the_row_table_agrees_with_the_search() {
        assert!(BANDS.len() < 256);
        for v in 0..=u16::MAX {
            let searched = BANDS.partition_point(|r| r.last < v);
            let (got, want) = (of(v), &BANDS[searched]);
            assert_eq!((got.first, got.last), (want.first, want.last), "version 0x{v:x}");
        }
    }

    #[test]
    fn rows_cover_every_version_once() {
        assert_eq!(BANDS[0].first, 0);
        assert_eq!(BANDS[BANDS.len() - 1].last, u16::MAX);
        for w in BANDS.windows(2) {
            assert!(w[0].first <= w[0].last, "row 0x{:x}", w[0].first);
            assert_eq!(u32::from(w[0].last) + 1, u32::from(w[1].first), "gap or overlap after 0x{:x}", w[0].last);
        }
        for v in [0u16, 0x8f, 0x90, 0x100, 0x10f, 0x110, 0x122, 0x131, 0x132, u16::MAX] {
            let r = of(v);
            assert!((r.first..=r.last).contains(&v), "0x{v:x} looked up row 0x{:x}..0x{:x}", r.first, r.last);
        }
    }

    /// Facts read off docs/formats/ccsf.md#version-gates and the table of
    /// docs/formats/ccsf-gen2.md#version-bands, one boundary at a time.
    #[test]
    fn facts_match_the_spec_tables() {
        // gen 1 gates: long texture header 0x90, blt_group 0x92, Obj shadow word 0x96, mtype 0x100
        assert!(!of(0x8f).long_texture_header && of(0x90).long_texture_header);
        assert!(!of(0x91).blt_group && of(0x92).blt_group);
        assert!(!of(0x95).obj_shadow_model && of(0x96).obj_shadow_model);
        assert!(of(0xff).mtype_low_byte && !of(0x100).mtype_low_byte && !of(0x110).mtype_low_byte);
        assert_eq!(of(0x100).generation, Generation::Gen1);
        assert_eq!(of(0x10f).generation, Generation::Gen1Above);
        assert_eq!(of(0x8f).generation, Generation::Refused);
        // gen 2 bands
        let band = |v: u16| of(v).band;
        assert_eq!(
            [0x110, 0x111, 0x112, 0x11f, 0x120, 0x121, 0x124, 0x125, 0x12f, 0x130, 0x131, 0x200].map(band),
            [
                Some(Band::B0),
                Some(Band::B1),
                Some(Band::B2),
                Some(Band::B2),
                Some(Band::B3),
                Some(Band::B4),
                Some(Band::B4),
                Some(Band::B5),
                Some(Band::B5),
                Some(Band::B6),
                Some(Band::B7),
                Some(Band::B7)
            ]
        );
        assert!(!of(0x110).model_outline && of(0x111).model_outline);
        assert!(!of(0x110).clump_bind_pose && of(0x111).clump_bind_pose);
        assert!(!of(0x111).model_lookup && of(0x112).model_lookup);
        assert_eq!([0x110, 0x11f, 0x120, 0x12f, 0x130, 0x131].map(|v| of(v).material_words), [4, 4, 5, 5, 14, 23]);
        assert!(!of(0x11f).f_material2 && of(0x120).f_material2);
        assert_eq!([0x110, 0x120, 0x121, 0x131].map(|v| of(v).obj_words), [4, 4, 5, 5]);
        assert!(!of(0x121).eff_zoffs_8_8 && of(0x122).eff_zoffs_8_8);
        assert!(!of(0x122).particle_resource_extra && of(0x123).particle_resource_extra);
        assert!(!of(0x124).uv_16_16 && of(0x125).uv_16_16 && of(0x131).uv_16_16);
        assert_eq!([0x124, 0x125].map(|v| of(v).skin_entry_bytes), [8, 12]);
        assert!(of(0x131).described && !of(0x132).described);
        assert!(!of(0x10f).gen2() && of(0x110).gen2() && of(u16::MAX).gen2());
    }

    /// `line` without its comment and with its string literals emptied.
    fn code_of(line: &str) -> String {
        let (mut out, mut chars, mut in_str) = (String::new(), line.chars().peekable(), false);
        while let Some(c) = chars.next() {
            match c {
                '\\' if in_str => {
                    chars.next();
                }
                '"' => {
                    in_str = !in_str;
                    out.push('"');
                }
                '/' if !in_str && chars.peek() == Some(&'/') => break,
                _ if in_str => {}
                _ => out.push(c),
            }
        }
        out
    }

    /// Whether `code` compares something named `*version` with a number literal (on either
    /// side, or by `contains`/`match`), or orders [`Band`]s.
    fn compares_a_version(code: &str) -> bool {
        const OPS: [&str; 6] = [">=", "<=", "==", "!=", ">", "<"];
        let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let number_first = |s: &str| s.trim_start().starts_with(|c: char| c.is_ascii_digit());
        let number_last = |s: &str| {
            let s = s.trim_end();
            s[s.trim_end_matches(is_ident).len()..].starts_with(|c: char| c.is_ascii_digit())
        };
        // `version` ends a name (`hdr_version`); the writers' short `v` is a whole word
        for (name, whole) in [("version", false), ("v", true)] {
            let mut from = 0;
            while let Some(at) = code[from..].find(name).map(|a| a + from) {
                let end = at + name.len();
                from = end;
                if code[end..].starts_with(is_ident) || (whole && code[..at].ends_with(is_ident)) {
                    continue; // `versions`, `version_gate`, `nv`: not the value
                }
                // the place ending in the name: `*h.version`, `p.walk.version`, `hdr_version`
                let left =
                    code[..at].trim_end_matches(|c: char| is_ident(c) || matches!(c, '.' | '*' | '&')).trim_end();
                let right = code[end..].trim_start();
                if OPS.iter().any(|op| right.strip_prefix(op).is_some_and(number_first))
                    || OPS.iter().any(|op| left.strip_suffix(op).is_some_and(number_last))
                    // a short `v` is often another value: only its number comparisons count
                    || (!whole && (left.ends_with("contains(") || left.ends_with("match")))
                {
                    return true;
                }
            }
        }
        let mut from = 0;
        while let Some(at) = code[from..].find("Band::B").map(|a| a + from) {
            from = at + "Band::B".len();
            let left = code[..at].trim_end_matches(|c: char| is_ident(c) || c == ':').trim_end();
            let right = code[from..].trim_start_matches(is_ident).trim_start();
            if OPS[..2].iter().chain(&OPS[4..]).any(|op| left.ends_with(op) || right.starts_with(op)) {
                return true;
            }
        }
        false
    }

    #[test]
    fn the_version_comparison_finder_finds_each_form() {
        for yes in [
            "if version >= 0x110 {",
            "let wide = g.version > 0x125;",
            "p.walk.version<0x90",
            "#[br(if(version >= 0x96))]",
            "if 0x110 <= version {",
            "} else if (0x101..0x110).contains(&version) {",
            "match version {",
            "match *h.version {",
            "let own = if band >= Band::B4 { 5 } else { 4 };",
            "let x = hdr_version == 7;",
            "let five = v >= 0x120;",
        ] {
            assert!(compares_a_version(&code_of(yes)), "missed: {yes}");
        }
        for no in [
            "if band::of(version).gen2() {",
            "let v = version_gate(version);",
            "read(b, p, (version,))",
            "format!(\"version >= 0x110 here\")",
            "x >= 0x110 // version >= 0x110",
            "let versions = 3 > 2;",
            "Some(Band::B4) == f.band",
            "let nv = 3; let k = uv > 0x120;",
        ] {
            assert!(!compares_a_version(&code_of(no)), "false hit: {no}");
        }
    }

    /// The band table is the only place in the ccsf folder that compares versions with
    /// literals (test-only modules, whose expectations come from the specs, excepted).
    #[test]
    fn no_version_comparison_outside_the_band_table() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats/ccsf");
        let module = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        // `#[cfg(test)]`, other attributes, `mod x;`: x.rs is test code (`raw_tests.rs` is
        // raw.rs's `#[cfg(test)] #[path]` module)
        let (mut test_only, mut cfg_test) = (vec!["raw_tests.rs".to_string()], false);
        for line in module.lines().map(str::trim) {
            if let Some(m) = line.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')).filter(|_| cfg_test) {
                test_only.push(format!("{m}.rs"));
            }
            cfg_test = line == "#[cfg(test)]" || (cfg_test && line.starts_with("#["));
        }
        assert!(
            test_only.iter().any(|m| m == "gen2_tests.rs") && test_only.iter().any(|m| m == "tests.rs"),
            "{test_only:?}"
        );
        let mut hits = Vec::new();
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".rs") || name == "band.rs" || test_only.contains(&name) {
                continue;
            }
            let src = std::fs::read_to_string(&path).unwrap();
            for (n, line) in src.lines().enumerate() {
                if compares_a_version(&code_of(line)) {
                    hits.push(format!("src/formats/ccsf/{name}:{}: {}", n + 1, line.trim()));
                }
            }
        }
        assert!(
            hits.is_empty(),
            "version comparisons outside band.rs (make them a fact of a BANDS row):\n{}",
            hits.join("\n")
        );
    }
}

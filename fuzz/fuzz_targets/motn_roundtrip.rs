//! Encoder → decoder round trip: a MOTN sequence built from fuzz bytes (frame count,
//! nodes, channels, keys with every code and duplicate frames) is encoded by the writer
//! into a file, and the decoder's key table must list the same frames, codes and values.
#![no_main]
use animscope::formats::motn::Channel;
use animscope::formats::motn::write::{
    ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec, encode_file, encode_sequence,
};
use animscope_fuzz::Cur;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut c = Cur(data);
    let frames = 2 + u16::from(c.u8()) + u16::from(c.u8() % 2) * 200;
    let channels = [Channel::Px, Channel::Py, Channel::Pz, Channel::Rx, Channel::Ry, Channel::Rz];
    let mut nodes: Vec<NodeSpec> = Vec::new();
    for _ in 0..1 + c.u8() % 3 {
        let node = c.u8() % 127;
        if nodes.iter().any(|n| n.node == node) {
            continue;
        }
        let bits = c.u8();
        let mut chans = Vec::new();
        for (i, ch) in channels.iter().enumerate() {
            if bits & (1 << i) == 0 {
                continue;
            }
            let mut mid: Vec<u16> = (0..c.u8() % 6)
                .map(|_| 1 + u16::from(c.u8()) % (frames - 1).max(1))
                .filter(|f| *f < frames - 1)
                .collect();
            mid.sort_unstable();
            let mut keys = vec![0u16];
            keys.extend(mid);
            keys.push(frames - 1);
            let keys = keys
                .into_iter()
                .map(|frame| {
                    let values = match c.u8() % 4 {
                        0 => KeyValues::Zero,
                        1 => KeyValues::Value(c.f16_exact()),
                        2 => KeyValues::Slope { tangent: c.f16_exact(), value: c.f16_exact() },
                        _ => KeyValues::InOut {
                            in_tangent: c.f16_exact(),
                            out_tangent: c.f16_exact(),
                            value: c.f16_exact(),
                        },
                    };
                    KeySpec { frame, values }
                })
                .collect();
            chans.push(ChannelSpec { channel: *ch, keys });
        }
        if !chans.is_empty() {
            nodes.push(NodeSpec { node, channels: chans });
        }
    }
    if nodes.is_empty() {
        return;
    }
    let spec = SequenceSpec { frames, kind_word: 0, nodes };
    let Ok(seq) = encode_sequence(&spec) else { return };
    let file = encode_file(&[("FUZZ".to_string(), seq)], None);
    let limits = animscope::limits::Limits::default();
    let clip = animscope_fuzz::decode_key("motn", file, "seq:FUZZ", &limits).unwrap();
    let table = clip.tables.iter().find(|t| t.name == "keys").unwrap();
    let want: Vec<(u16, u8)> = spec
        .ordered_channels()
        .iter()
        .flat_map(|(_, ch)| ch.keys.iter().map(|k| (k.frame, k.values.code())).collect::<Vec<_>>())
        .collect();
    // columns: track, key, frame, code, in, out, value, ...
    let got: Vec<(u16, u8)> = table.rows.iter().map(|r| (r[2].parse().unwrap(), r[3].parse().unwrap())).collect();
    assert_eq!(got, want);
});

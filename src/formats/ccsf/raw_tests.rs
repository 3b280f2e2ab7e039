//! The declarations' sizes.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use crate::formats::record::assert_fixed_size;

#[test]
fn fixed_sizes_match_the_declarations() {
    assert_fixed_size::<ChunkHeader>();
    assert_fixed_size::<Header>();
    assert_fixed_size::<IndexHead>();
    assert_fixed_size::<IndexFile>();
    assert_fixed_size::<IndexObject>();
    assert_fixed_size::<Frame>();
    assert_fixed_size::<Top>();
    assert_fixed_size::<Material>();
    assert_fixed_size::<Camera>();
    assert_fixed_size::<Light>();
    assert_fixed_size::<Clump>();
    assert_fixed_size::<ExtObj>();
    assert_fixed_size::<Hit>();
    assert_fixed_size::<HitGroup>();
    assert_fixed_size::<Bbox>();
    assert_fixed_size::<Eff>();
    assert_fixed_size::<FbRect>();
    assert_fixed_size::<FbPage>();
    assert_fixed_size::<DummyPos>();
    assert_fixed_size::<DummyPosRot>();
    assert_fixed_size::<Layer>();
    assert_fixed_size::<LayerEntry>();
    assert_fixed_size::<Shadow>();
    assert_fixed_size::<Morpher>();
    assert_fixed_size::<Obj2>();
    assert_fixed_size::<Pcm>();
    assert_fixed_size::<LevelHead>();
    assert_fixed_size::<AnimeHead>();
    assert_fixed_size::<CtrlHead>();
    assert_fixed_size::<FObj>();
    assert_fixed_size::<FNote>();
    assert_fixed_size::<FAmbient>();
    assert_fixed_size::<FOmniLight>();
    assert_fixed_size::<FShadow>();
    assert_fixed_size::<FMorpher>();
    assert_fixed_size::<MorphTarget>();
    assert_fixed_size::<FPcm>();
    assert_fixed_size::<ModelHead>();
}

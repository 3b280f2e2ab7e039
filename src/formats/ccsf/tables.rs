//! Every CCSF record's layout table, listed once, for converting to user-layout structs
//! (`formats::record_layout`): the layout export of a built-in record and the test that the
//! user-layout interpreter labels each hand vector as the record does.

use super::raw::*;
use crate::formats::record_layout::record_tables;

record_tables! {
    RECORDS:
    Vec3, MaskedVec3, ChunkHeader, Header, Words, ObjectList, IndexHead, IndexFile, IndexObject, Frame, Top,
    Obj, Material, Camera, ObjectWord, Light, Clump, ExtObj, Hit, HitGroup, Bbox, Eff, FbRect, EffPattern,
    FbPage, FbPageEntry, DummyPos, DummyPosRot, Layer, LayerEntry, Shadow, Morpher, Obj2, Pcm, TextureHead,
    TextureLong, LevelHead, BtxHead, BtxHeader, NpotHead, ClutHead, AnimeHead, CtrlHead, FObj, FNote,
    FMaterial, FCamera, FAmbient, FDistantLight, FOmniLight, FShadow, FMorpher, MorphTarget, FPcm, ModelHead,
    MmatRigidHead, MmatHead5, MmatDeformHead, BoneNode, ShadowCounts, MmatTriHead, TriSectionHead, ClumpBind,
    ClumpBinds, Material2, MaterialScale, MaterialShader, MaterialMulti, ModelHead2, LookupList, BlobHead,
    StreamParam, BlurParam, DynamicsHead, Spring, Collision, ParticleAnmHead, ParticleGenHead, ParticleCtrl,
    ParticleGenParams, ForceField, ParticleResource, MorphCtrlHead, MorphCtrlTarget, FObjHead2, FObjValues2,
    FMaterial2, FMaterialUv, FMaterialScale, CelShadeFrame, BlurFrame,
}

//! The committed fixtures are exactly what the writers produce today.

#[test]
fn fixtures_regenerate_identically() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for (rel, bytes) in animscope::fixtures::all() {
        let committed = std::fs::read(dir.join(&rel)).unwrap_or_else(|e| panic!("fixtures/{rel}: {e}"));
        assert!(
            committed == bytes,
            "fixtures/{rel} differs from its writer's output; run `cargo run -q -- gen-fixtures`"
        );
    }
}

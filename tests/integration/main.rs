//! Integration tests: one module per area.
mod bounds;
mod ccsf;
mod cli;
mod export;
mod fixtures;
mod gltf;
mod gzarc;
mod hostile;
mod hostile_gen;
mod layering;
mod motn;
mod motn_export;
mod on_demand;
mod robust;
mod sc6;
mod support;
mod tui;

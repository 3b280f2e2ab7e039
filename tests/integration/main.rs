//! Integration tests: one module per area.
mod bounds;
mod ccsf;
mod cli;
mod diff;
mod export;
mod fixtures;
mod gltf;
mod gzarc;
mod hostile;
mod layering;
mod motn;
mod motn_export;
mod on_demand;
mod robust;
mod sc6;
mod support;
mod tui;

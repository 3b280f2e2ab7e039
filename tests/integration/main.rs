//! Integration tests: one module per area.
mod ccsf;
mod cli;
mod fixtures;
mod gzarc;
mod robust;

//! Integration tests: one module per area.
mod fixtures;
mod cli;
mod robust;

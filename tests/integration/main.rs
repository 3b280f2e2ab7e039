//! Integration tests: one module per area.
mod cli;
mod fixtures;
mod robust;
mod sc6;

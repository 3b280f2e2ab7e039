//! Integration tests: one module per area.
mod cli;
mod fixtures;
mod motn;
mod robust;

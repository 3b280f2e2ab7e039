//! Integration tests: one module per area.
mod bounds;
mod cli;
mod fixtures;
mod motn;
mod robust;
mod sc6;
mod tui;

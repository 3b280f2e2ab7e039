//! Writes the real-shaped MOTN bench inputs (`benches/common/motn_real.rs`) under
//! `target/bench-data/` for whole-command measurements: `motn_real_{1,3}x.bin` and
//! `motn_real_{1,3}tenths.bin`, and prints their paths.
//!
//! ```sh
//! cargo run --example bench_inputs
//! ```

#[path = "../benches/common/motn_big.rs"]
#[allow(dead_code)]
mod motn_big;
#[path = "../benches/common/motn_real.rs"]
#[allow(dead_code)]
mod motn_real;

fn main() {
    for tenths in [1, 3] {
        println!("{}", motn_real::motn_real_tenths_path(tenths).display());
    }
    for copies in [1, 3] {
        println!("{}", motn_real::motn_real_path(copies).display());
    }
}

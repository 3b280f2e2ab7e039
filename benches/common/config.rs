//! Criterion settings shared by the benches: short warm-up and measurement windows keep the
//! whole `cargo bench` run to a few minutes.

use criterion::Criterion;
use std::time::Duration;

/// One second of warm-up, three of measurement.
pub fn short() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

//! CPU time consumed by this process (all threads), from `/proc/self/task/*/schedstat`
//! (nanoseconds on CPU). The benchmark machine is shared, so wall time includes waiting
//! for a core; per-core throughput targets are measured in CPU time instead
//! (`Bencher::iter_custom`), which the waiting does not inflate.

use std::time::Duration;

/// Nanoseconds all threads of this process have spent on a CPU so far.
pub fn process_cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    tasks
        .filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()))
        .sum()
}

/// CPU time `iters` runs of `f` take (for `Bencher::iter_custom`).
pub fn cpu_time<T>(iters: u64, mut f: impl FnMut() -> T) -> Duration {
    let start = process_cpu_ns();
    for _ in 0..iters {
        std::hint::black_box(f());
    }
    Duration::from_nanos(process_cpu_ns().saturating_sub(start))
}

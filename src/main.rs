//! The `animscope` binary: parse arguments and hand over to the library.
fn main() -> std::process::ExitCode {
    animscope::cli::main()
}

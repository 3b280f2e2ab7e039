//! The standard streams, written with every error handled. `print!` and `eprintln!`
//! panic when a write fails (a full disk, `> /dev/full`, a closed pipe); writes made here
//! return the error instead, marked with the stream it happened on, so the command line
//! can end with its usual exit code and say what could not be written
//! (`cannot write standard output: No space left on device`), or end quietly when the
//! reader of a pipe has gone.

use std::fmt;
use std::io::{self, Write};

/// A standard stream of the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// The stream's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
        }
    }
}

/// A failed write to a standard stream: the stream and the system's error.
#[derive(Debug)]
pub struct StreamError {
    /// The stream written to.
    pub stream: Stream,
    /// What the write returned.
    pub source: io::Error,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}: {}", self.stream.name(), self.source)
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// `e` marked as a failed write to `stream`, keeping its kind (a closed pipe stays
/// [`io::ErrorKind::BrokenPipe`]). An error already marked is kept as it is.
pub fn failed(stream: Stream, e: io::Error) -> io::Error {
    if stream_of(&e).is_some() {
        return e;
    }
    io::Error::new(e.kind(), StreamError { stream, source: e })
}

/// The stream a failed write of `e` was on, when it was marked by [`failed`].
pub fn stream_of(e: &io::Error) -> Option<Stream> {
    e.get_ref().and_then(|inner| inner.downcast_ref::<StreamError>()).map(|s| s.stream)
}

/// True when `e`, or an error it was caused by, is a closed pipe (the reader went away:
/// `animscope tree FILE | head -1`).
pub fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        if e.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe) {
            return true;
        }
        next = e.source();
    }
    false
}

/// A writer whose errors are marked with the stream it writes to.
pub struct Marked<W> {
    inner: W,
    stream: Stream,
}

impl<W: Write> Marked<W> {
    /// `inner`, whose errors are reported as writes to `stream`.
    pub fn new(inner: W, stream: Stream) -> Self {
        Marked { inner, stream }
    }
}

impl<W: Write> Write for Marked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| failed(self.stream, e))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(|e| failed(self.stream, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| failed(self.stream, e))
    }
}

/// Write `args` to standard error (without a newline); a failure is returned, marked.
pub fn err_text(args: fmt::Arguments<'_>) -> io::Result<()> {
    Marked::new(io::stderr().lock(), Stream::Stderr).write_fmt(args)
}

/// Write one line, `args` and a newline, to standard error in one locked write; a failure
/// is returned, marked.
pub fn err_line(args: fmt::Arguments<'_>) -> io::Result<()> {
    let mut line = fmt::format(args);
    line.push('\n');
    Marked::new(io::stderr().lock(), Stream::Stderr).write_all(line.as_bytes())
}

/// Write `text` to standard output at once; a failure is returned, marked.
pub fn out_text(text: &str) -> io::Result<()> {
    let mut out = Marked::new(io::stdout().lock(), Stream::Stdout);
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// `eprintln!` that returns the write's result (marked with the stream) instead of
/// panicking when standard error cannot be written.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::stdio::err_line(format_args!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails every write with `kind`.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(self.0))
        }
    }

    #[test]
    fn a_failed_write_names_its_stream_and_keeps_its_kind() {
        let e = Marked::new(Failing(io::ErrorKind::StorageFull), Stream::Stdout).write_all(b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        assert_eq!(stream_of(&e), Some(Stream::Stdout));
        assert!(e.to_string().starts_with("cannot write standard output: "), "{e}");
        // marked once, even through two layers
        let twice = failed(Stream::Stderr, e);
        assert_eq!(stream_of(&twice), Some(Stream::Stdout));
        assert_eq!(twice.to_string().matches("cannot write").count(), 1, "{twice}");
    }

    #[test]
    fn a_closed_pipe_is_found_under_other_errors() {
        let pipe = Marked::new(Failing(io::ErrorKind::BrokenPipe), Stream::Stdout).flush().unwrap_err();
        assert!(is_broken_pipe(&pipe));
        #[derive(Debug, thiserror::Error)]
        #[error("outer")]
        struct Outer(#[source] io::Error);
        assert!(is_broken_pipe(&Outer(pipe)));
        assert!(!is_broken_pipe(&Outer(io::Error::from(io::ErrorKind::StorageFull))));
    }
}

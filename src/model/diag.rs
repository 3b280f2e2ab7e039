use super::{NodeId, Span, sanitize};
use std::fmt;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing (e.g. a size field the walker distrusted, by design).
    Info,
    /// Unusual but handled (e.g. trailing bytes, overlap explained).
    Warning,
    /// Part of the input could not be parsed; what follows may be missing.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A finding attached to a document: severity, where, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// Absolute offset it refers to, if any.
    pub offset: Option<u64>,
    /// Structure path (`clip[3] > group[2]`), possibly empty.
    pub path: String,
    /// Lowercase message.
    pub message: String,
    /// For the finding that counts a node's overlaps past the few named one by one
    /// ("overlaps N more siblings", [`crate::model::build::placement`]): the bytes the
    /// counted overlaps cover, from the first one's start to the last one's end. The span
    /// contract check ([`crate::model::Document::validate`]) matches on this, not on words.
    pub counted_overlaps: Option<Span>,
}

impl Diagnostic {
    /// A diagnostic at `offset`.
    pub fn new(severity: Severity, offset: Option<u64>, path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic { severity, offset, path: path.into(), message: message.into(), counted_overlaps: None }
    }

    /// This finding, counting overlaps over `span` ([`Diagnostic::counted_overlaps`]).
    pub fn counting_overlaps(mut self, span: Span) -> Self {
        self.counted_overlaps = Some(span);
        self
    }

    /// An error diagnostic from a parse error (permissive parsing turns errors into these).
    pub fn from_error(e: &crate::error::ParseError) -> Self {
        Diagnostic::new(Severity::Error, Some(e.offset), e.path.clone(), e.kind.to_string())
    }
}

/// Path and message shown with control characters escaped ([`sanitize`]).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.severity)?;
        if let Some(o) = self.offset {
            write!(f, " @0x{o:x}")?;
        }
        if !self.path.is_empty() {
            write!(f, " {}", sanitize(&self.path))?;
        }
        write!(f, ": {}", sanitize(&self.message))
    }
}

/// One decision of a format's walker, replayable in the CLI (`walk`) and the TUI.
#[derive(Debug, Clone, PartialEq)]
pub struct WalkStep {
    /// The bytes this step read (a header, a size field, a whole chunk).
    pub span: Span,
    /// What was read, short (`chunk 0x0300 Texture`).
    pub what: String,
    /// The decision in words (`size field says 0x2007 words; computed end 0x8174 used: texture sizes are distrusted`).
    pub detail: String,
    /// Where the walk goes next, if it continues.
    pub next: Option<u64>,
    /// The node this step produced, if any.
    pub node: Option<NodeId>,
}

/// What and detail shown with control characters escaped ([`sanitize`]).
impl fmt::Display for WalkStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.span, sanitize(&self.what), sanitize(&self.detail))?;
        match self.next {
            Some(n) => write!(f, " → next 0x{n:x}"),
            None => write!(f, " → stop"),
        }
    }
}

//! Why a bank or clip is rejected: one reason per check in docs/formats/sc6-mot.md#clip-checks
//! plus the list, each turned into a [`ParseError`] with its absolute offset.

use crate::error::{ErrorKind, ParseError};

/// A rejection reason. `key()` is the stable snake_case name used by `survey` counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(in crate::formats) enum Reason {
    BankTooShort,
    BankCountZero,
    BankCountTooLarge,
    BankReservedNonzero,
    OffsetTableTruncated,
    OffsetInsideTable,
    OffsetsOutOfOrder,
    OffsetPastEof,
    OffsetZero,
    ClipTooShort,
    FrameCountZero,
    WordCountZero,
    WordCountTooLarge,
    GroupTablePastClip,
    PayloadBeforeTable,
    PayloadPastClip,
    PayloadOdd,
    BaseWordsPastClip,
    BitReadPastClip,
    CodeLengthsAllZero,
    CodeLengthsOversubscribed,
    UnknownSelector,
    StreamTooLong,
    ConsumptionMismatch,
    DecodeWorkExceeded,
    RootOutOfRange,
    ReadPastEnd,
}

impl Reason {
    /// Stable snake_case key.
    pub(in crate::formats) fn key(self) -> &'static str {
        match self {
            Reason::BankTooShort => "bank_too_short",
            Reason::BankCountZero => "bank_count_zero",
            Reason::BankCountTooLarge => "bank_count_too_large",
            Reason::BankReservedNonzero => "bank_reserved_nonzero",
            Reason::OffsetTableTruncated => "offset_table_truncated",
            Reason::OffsetInsideTable => "offset_inside_table",
            Reason::OffsetsOutOfOrder => "offsets_out_of_order",
            Reason::OffsetPastEof => "offset_past_eof",
            Reason::OffsetZero => "offset_zero",
            Reason::ClipTooShort => "clip_too_short",
            Reason::FrameCountZero => "frame_count_zero",
            Reason::WordCountZero => "word_count_zero",
            Reason::WordCountTooLarge => "word_count_too_large",
            Reason::GroupTablePastClip => "group_table_past_clip",
            Reason::PayloadBeforeTable => "payload_before_table",
            Reason::PayloadPastClip => "payload_past_clip",
            Reason::PayloadOdd => "payload_odd",
            Reason::BaseWordsPastClip => "base_words_past_clip",
            Reason::BitReadPastClip => "bit_read_past_clip",
            Reason::CodeLengthsAllZero => "code_lengths_all_zero",
            Reason::CodeLengthsOversubscribed => "code_lengths_oversubscribed",
            Reason::UnknownSelector => "unknown_selector",
            Reason::StreamTooLong => "stream_too_long",
            Reason::ConsumptionMismatch => "channel_stream_mismatch",
            Reason::DecodeWorkExceeded => "decode_work_exceeded",
            Reason::RootOutOfRange => "root_out_of_range",
            Reason::ReadPastEnd => "read_past_end",
        }
    }
}

/// A rejection: its reason (for counting) and the error (for showing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::formats) struct Sc6Error {
    pub reason: Reason,
    pub err: ParseError,
}

impl Sc6Error {
    /// A rejection at absolute `offset` with a `BadValue` kind naming the reason.
    pub(in crate::formats) fn bad(
        reason: Reason,
        offset: u64,
        value: impl Into<String>,
        why: impl Into<String>,
    ) -> Self {
        Sc6Error {
            reason,
            err: ParseError::new(
                offset,
                ErrorKind::BadValue { what: reason.key(), value: value.into(), why: why.into() },
            ),
        }
    }

    /// A rejection with an explicit error kind.
    pub(in crate::formats) fn kind(reason: Reason, offset: u64, kind: ErrorKind) -> Self {
        Sc6Error { reason, err: ParseError::new(offset, kind) }
    }

    /// Add structure context to the error path.
    #[must_use]
    pub(in crate::formats) fn within(mut self, outer: impl AsRef<str>) -> Self {
        self.err = self.err.within(outer);
        self
    }
}

impl From<ParseError> for Sc6Error {
    fn from(err: ParseError) -> Self {
        let reason = match err.kind {
            ErrorKind::LimitExceeded { .. } | ErrorKind::CountTooLarge { .. } => Reason::DecodeWorkExceeded,
            _ => Reason::ReadPastEnd,
        };
        Sc6Error { reason, err }
    }
}

/// Shorthand.
pub(in crate::formats) type R<T> = std::result::Result<T, Sc6Error>;

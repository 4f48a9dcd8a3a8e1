//! The errors validation reports ([`UriError`], [`ErrorKind`]) and the
//! byte spans of a parsed reference they point into.

use std::fmt;
use std::ops::Range;

/// A byte range of the input; a private copyable stand-in for `Range`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Span {
    pub(super) fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub(super) fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// What is wrong with a URI reference; see [`ErrorKind::message`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The scheme is not `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    InvalidScheme,
    /// A `%` not followed by two hexadecimal digits.
    BadPercentEncoding,
    /// A character that the component's grammar does not allow.
    InvalidCharacter,
    /// An IP-literal without a closing `]`.
    UnclosedIpLiteral,
    /// An IP-literal that is not a valid `IPv6address`.
    InvalidIpv6,
    /// An IPv6 literal with a zone identifier (`%25...`, RFC 6874), which
    /// RFC 3986 does not allow.
    Ipv6ZoneId,
    /// An IP-literal starting with `v` that is not a valid `IPvFuture`.
    InvalidIpvFuture,
    /// A label of a registered name is longer than 63 octets (a
    /// percent-escape counts as one).
    LabelTooLong,
    /// A registered name is longer than 255 characters.
    HostTooLong,
    /// The port contains a character that is not a digit.
    InvalidPort,
    /// The port number is larger than 65535.
    PortTooLarge,
    /// The scheme requires a non-empty host (see [`scheme_requires_host`](super::scheme_requires_host)).
    MissingHost,
    /// A relative reference whose first path segment contains `:` (it
    /// would be mistaken for a scheme).
    RelativeFirstSegmentColon,
}

impl ErrorKind {
    /// The human-readable message of this error kind (the one table of
    /// messages; [`UriError`]'s `Display` uses it).
    pub fn message(self) -> &'static str {
        match self {
            ErrorKind::InvalidScheme => {
                "invalid scheme (must be a letter followed by letters, \
                 digits, '+', '-' or '.')"
            }
            ErrorKind::BadPercentEncoding => {
                "'%' not followed by two hexadecimal digits"
            }
            ErrorKind::InvalidCharacter => "character not allowed here",
            ErrorKind::UnclosedIpLiteral => "IP literal without closing ']'",
            ErrorKind::InvalidIpv6 => "invalid IPv6 address",
            ErrorKind::Ipv6ZoneId => {
                "IPv6 zone identifiers are not allowed by RFC 3986"
            }
            ErrorKind::InvalidIpvFuture => {
                "invalid IPvFuture literal (expected v<hex>.<chars>)"
            }
            ErrorKind::LabelTooLong => "host name label longer than 63 octets",
            ErrorKind::HostTooLong => "host name longer than 255 characters",
            ErrorKind::InvalidPort => "port is not a decimal number",
            ErrorKind::PortTooLarge => "port number larger than 65535",
            ErrorKind::MissingHost => "this scheme requires a host",
            ErrorKind::RelativeFirstSegmentColon => {
                "first segment of a relative path contains ':'"
            }
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// One violation found by [`Uri::errors`](super::Uri::errors): its kind and the byte offset
/// (into [`Uri::as_str`](super::Uri::as_str)) where it was detected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UriError {
    kind: ErrorKind,
    offset: usize,
}

impl UriError {
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> UriError {
        UriError { kind, offset }
    }

    /// What is wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset into the parsed string where the problem was detected.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.message(), self.offset)
    }
}

impl std::error::Error for UriError {}

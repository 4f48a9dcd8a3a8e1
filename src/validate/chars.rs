//! The characters each component may hold: RFC 3986 byte classes and
//! the non-ASCII characters of RFC 3987 IRIs.

use super::error::{ErrorKind, Span, UriError};
use crate::lex::{is_sub_delim, is_unreserved};

/// RFC 3987 2.2 `ucschar`, and `iprivate` where `private` (the query):
/// the non-ASCII characters an IRI may hold, without the noncharacters
/// (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF), the specials U+FFF0..U+FFFD, the
/// tags plane's first block U+E0000..U+E0FFF, and the bidi formatting
/// controls of RFC 3987 4.1 (and the isolates U+2066..U+2069).
pub(super) fn is_iri_char(c: char, private: bool) -> bool {
    let u = c as u32;
    let ucschar = match u {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        // Planes 1 to 14, each without its last two code points.
        0x10000..=0xDFFFF => u & 0xFFFF <= 0xFFFD,
        0xE1000..=0xEFFFD => true,
        _ => false,
    };
    let iprivate =
        matches!(u, 0xE000..=0xF8FF) || (u >= 0xF0000 && u & 0xFFFF <= 0xFFFD);
    (ucschar || (private && iprivate))
        && !matches!(
            c,
            '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
        )
}

pub(super) fn is_hex(b: Option<&u8>) -> bool {
    b.is_some_and(u8::is_ascii_hexdigit)
}

/// Checks that `s[sp]` consists of unreserved, pct-encoded (RFC 3986 2.1:
/// "%" HEXDIG HEXDIG), sub-delims, IRI characters and the bytes of
/// `extra`; pushes at most one error.
pub(super) fn check_chars(
    s: &str,
    sp: Span,
    extra: &[u8],
    errs: &mut Vec<UriError>,
) {
    check_iri_chars(s, sp, extra, false, errs);
}

/// [`check_chars`], with RFC 3987 `iprivate` allowed where `private`
/// (the query: `iquery = *( ipchar / iprivate / "/" / "?" )`).
pub(super) fn check_iri_chars(
    s: &str,
    sp: Span,
    extra: &[u8],
    private: bool,
    errs: &mut Vec<UriError>,
) {
    let Some(part) = s.get(sp.range()) else { return };
    let bytes = part.as_bytes();
    let mask = extra.iter().fold(CLASS_BASE | DOT, |m, &b| m | class_bit(b));
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if CLASS[b as usize] & mask != 0 {
            i += 1;
            continue;
        }
        let bad = if b == b'%' {
            if is_hex(bytes.get(i + 1)) && is_hex(bytes.get(i + 2)) {
                i += 3;
                continue;
            }
            ErrorKind::BadPercentEncoding
        } else if b >= 0x80 {
            // `part` is a str: a char starts here.
            match part.get(i..).and_then(|t| t.chars().next()) {
                Some(c) if is_iri_char(c, private) => {
                    i += c.len_utf8();
                    continue;
                }
                _ => ErrorKind::InvalidCharacter,
            }
        } else {
            ErrorKind::InvalidCharacter
        };
        errs.push(UriError::new(bad, sp.start + i));
        return;
    }
}

/// Byte classes for [`check_chars`]: bit 0 for unreserved and
/// sub-delims (RFC 3986 2.2, 2.3) but `.`, one bit for each of
/// `: @ / ? .` (`.` has its own for the dot segments of
/// [`quick_check`](super::fast::quick_check)).
pub(super) const CLASS_BASE: u8 = 1;
/// The class of `.`, an unreserved character.
pub(super) const DOT: u8 = 32;

pub(super) const fn class_bit(b: u8) -> u8 {
    match b {
        b':' => 2,
        b'@' => 4,
        b'/' => 8,
        b'?' => 16,
        b'.' => DOT,
        _ => 0,
    }
}

pub(super) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if (is_unreserved(b) || is_sub_delim(b)) && b != b'.' {
            CLASS_BASE
        } else {
            class_bit(b)
        };
        i += 1;
    }
    t
};

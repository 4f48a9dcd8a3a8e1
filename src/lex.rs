//! Lexical facts every stage shares: RFC 3986 character classes,
//! percent-encoding (section 2.1) and UTF-8 characters read at a byte
//! offset of the haystack.

use std::borrow::Cow;

use crate::data::uts58::{LinkTerm, link_term};

/// RFC 3986 2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~".
pub(crate) const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 2.2: sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" /
/// "+" / "," / ";" / "=".
pub(crate) const fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

/// Where `needle`, a short literal, first occurs in `hay`, which is
/// short too (a header field, a line): a search for its first byte (by
/// [`crate::sieve::find_byte`], made for short searches) and a
/// comparison there, without the set-up of a substring searcher, which
/// costs more than such a search.
pub(crate) fn find_short(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut from = 0;
    while let Some(k) = crate::sieve::find_byte(hay.get(from..)?, first) {
        let i = from + k;
        if hay.get(i + 1..).is_some_and(|t| t.starts_with(rest)) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// The value of a hex digit (RFC 3986 2.1: HEXDIG, any case).
pub(crate) fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The value of a base64 character, either alphabet (RFC 4648 sections
/// 4 and 5: `+` or `-` is 62, `/` or `_` is 63).
pub(crate) const fn base64_val(b: u8) -> Option<u8> {
    Some(match b {
        b'A'..=b'Z' => b - b'A',
        b'a'..=b'z' => b - b'a' + 26,
        b'0'..=b'9' => b - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    })
}

/// Decodes `%XX` (RFC 3986 section 2.1); a `%` not followed by two hex
/// digits is kept as is.
pub(crate) fn pct_decode(s: &str) -> Cow<'_, [u8]> {
    let b = s.as_bytes();
    if !b.contains(&b'%') {
        return Cow::Borrowed(b);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hi = b.get(i + 1).copied().and_then(hex_val);
            let lo = b.get(i + 2).copied().and_then(hex_val);
            if let (Some(hi), Some(lo)) = (hi, lo) {
                out.push(hi << 4 | lo);
                i += 3;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    Cow::Owned(out)
}

/// Whether a non-ASCII character cannot be part of a host name or of
/// the letters of a word: anything but UTS #58 Link_Term Include
/// (punctuation, symbols that end text, spaces, controls, format
/// characters other than ZWJ and ZWNJ).
pub(crate) fn is_unicode_stop(c: char) -> bool {
    link_term(c) != LinkTerm::Include
}

/// Decode the UTF-8 character at `hay[i..]`: `None` when invalid.
pub(crate) fn char_at(hay: &[u8], i: usize) -> Option<(char, usize)> {
    let b = hay[i];
    let len = match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let bytes = hay.get(i..i + len)?;
    let s = std::str::from_utf8(bytes).ok()?;
    s.chars().next().map(|c| (c, len))
}

/// The character that ends just before `hay[end]`, if valid UTF-8.
pub(crate) fn char_before(hay: &[u8], end: usize) -> Option<char> {
    let mut i = end;
    while i > 0 && end - i < 4 {
        i -= 1;
        if hay[i] & 0xC0 != 0x80 {
            return std::str::from_utf8(&hay[i..end]).ok()?.chars().next();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::find_short;

    #[test]
    fn find_short_agrees_with_memmem() {
        let hays: [&[u8]; 7] =
            [b"", b"=", b"=?", b"a=b=?c", b"?=?=", b":/:// x", b"=?="];
        for hay in hays {
            for needle in [&b"=?"[..], b"?=", b"://", b"=", b""] {
                let want = if needle.is_empty() {
                    None
                } else {
                    memchr::memmem::find(hay, needle)
                };
                assert_eq!(
                    find_short(hay, needle),
                    want,
                    "{hay:?} {needle:?}"
                );
            }
        }
        // Longer hays, past each length where the byte search changes
        // its way, with few and with many of the needle's first byte.
        let mut next = crate::testing::xorshift(0x5407_f1d5);
        for _ in 0..5_000 {
            let len = next() as usize % 600;
            let dense = next().is_multiple_of(2);
            let hay: Vec<u8> = (0..len)
                .map(|_| match next() % if dense { 4 } else { 64 } {
                    0 => b'=',
                    1 => b'?',
                    2 => b':',
                    _ => b'a',
                })
                .collect();
            for needle in [&b"=?"[..], b"?=", b"=", b":a"] {
                assert_eq!(
                    find_short(&hay, needle),
                    memchr::memmem::find(&hay, needle),
                    "{hay:?} {needle:?}"
                );
            }
        }
    }
}

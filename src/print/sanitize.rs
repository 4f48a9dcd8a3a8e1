//! Terminal safety: text from hostile input (URLs, file names) is
//! printed with control, bidi-override and other invisible format
//! characters percent-encoded, so it can never move the cursor, change
//! colours or reorder what a terminal shows.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must not reach a terminal raw.
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}' // zero-width, LRM, RLM
            | '\u{2028}'..='\u{202E}' // separators, bidi embeddings
            | '\u{2060}'..='\u{2069}' // word joiner, bidi isolates
            | '\u{FEFF}')
}

/// `s` with every unsafe character replaced by the percent-encoding of
/// its UTF-8 bytes (`\x1b` becomes `%1B`). Borrowed when nothing changes.
pub fn escape_for_terminal(s: &str) -> Cow<'_, str> {
    // Printable ASCII, the common case, needs no decoding. The fold does
    // not stop early, so it compiles to a vector loop.
    let unprintable = s
        .bytes()
        .fold(0u8, |acc, b| acc | u8::from(b.wrapping_sub(0x20) >= 0x5f));
    if unprintable == 0 || !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            let mut b = [0; 4];
            for byte in c.encode_utf8(&mut b).bytes() {
                let _ = write!(out, "%{byte:02X}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(escape_for_terminal("http://a/"), "http://a/");
        assert_eq!(escape_for_terminal("a\x1b[31mb"), "a%1B[31mb");
        assert_eq!(escape_for_terminal("x\u{202E}y"), "x%E2%80%AEy");
        assert_eq!(escape_for_terminal("t\tn\n"), "t%09n%0A");
    }
}

//! Terminal safety: text from hostile input (URLs, file names) is
//! printed with control, bidi-control and other invisible characters
//! percent-encoded, so it can never move the cursor, change colours,
//! reorder or hide what a terminal shows.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::Write;

use crate::data::terminal_chars::UNSAFE;

/// Whether `c` must not reach a terminal raw: it has General_Category
/// Cc, Cf, Zl or Zp, Bidi_Control, Default_Ignorable_Code_Point or
/// Noncharacter_Code_Point (UAX #44; the table is generated from the
/// UCD by `src/data/gen_terminal.py`).
pub(crate) fn is_unsafe(c: char) -> bool {
    let c = u32::from(c);
    if c < 0xA0 {
        // C0 controls and DEL to the C1 controls: Cc.
        return !(0x20..0x7F).contains(&c);
    }
    UNSAFE
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                Ordering::Less
            } else if lo > c {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .is_ok()
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

/// The most characters of a piece of input that a message repeats.
pub const EXCERPT_CHARS: usize = 100;

/// A piece of input as a warning or an error message repeats it: its
/// first [`EXCERPT_CHARS`] characters, and when there are more, an
/// ellipsis and the whole length (`abc… (8388608 bytes)`), escaped by
/// [`escape_for_terminal`]. A message about hostile input stays one
/// short, harmless line however long that input is.
pub fn excerpt(s: &str) -> Cow<'_, str> {
    excerpt_to(s, EXCERPT_CHARS)
}

/// The most characters of an error message from an input's reading
/// or decoding that is repeated: the message is urlx's own sentence,
/// with at most a piece of input in it.
pub const MESSAGE_CHARS: usize = 1000;

/// [`excerpt`] with at most `chars` characters.
pub fn excerpt_to(s: &str, chars: usize) -> Cow<'_, str> {
    match s.char_indices().nth(chars) {
        None => escape_for_terminal(s),
        Some((cut, _)) => {
            let head = escape_for_terminal(&s[..cut]);
            Cow::Owned(format!("{head}\u{2026} ({} bytes)", s.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::terminal_chars as props;

    /// Whether `c` is in the ranges of a property list.
    fn has(list: &[(u32, u32)], c: u32) -> bool {
        list.iter().any(|&(lo, hi)| lo <= c && c <= hi)
    }

    #[test]
    fn escapes() {
        assert_eq!(escape_for_terminal("http://a/"), "http://a/");
        assert_eq!(escape_for_terminal("a\x1b[31mb"), "a%1B[31mb");
        assert_eq!(escape_for_terminal("x\u{202E}y"), "x%E2%80%AEy");
        assert_eq!(escape_for_terminal("t\tn\n"), "t%09n%0A");
        // ARABIC LETTER MARK (Bidi_Control), MONGOLIAN VOWEL SEPARATOR
        // (Default_Ignorable_Code_Point), NEL (Cc).
        assert_eq!(escape_for_terminal("a\u{61C}b"), "a%D8%9Cb");
        assert_eq!(escape_for_terminal("a\u{180E}b"), "a%E1%A0%8Eb");
        assert_eq!(escape_for_terminal("a\u{85}b"), "a%C2%85b");
        assert_eq!(escape_for_terminal("Straße/例え"), "Straße/例え");
    }

    #[test]
    fn excerpts() {
        assert_eq!(excerpt("utf-8"), "utf-8");
        let exact = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let long = format!("\u{202E}{}", "x".repeat(8 << 20));
        assert_eq!(
            excerpt(&long),
            format!("%E2%80%AE{}\u{2026} (8388611 bytes)", "x".repeat(99))
        );
    }

    /// `is_unsafe` is exactly the union of the property lists as the
    /// UCD gives them, code point by code point.
    #[test]
    fn unsafe_is_the_union_of_the_properties() {
        let lists = [
            props::CC,
            props::CF,
            props::ZL,
            props::ZP,
            props::BIDI_CONTROL,
            props::DEFAULT_IGNORABLE,
            props::NONCHARACTER,
        ];
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let listed = lists.iter().any(|l| has(l, u32::from(c)));
            assert_eq!(is_unsafe(c), listed, "U+{:04X}", u32::from(c));
        }
        // The union table is sorted, disjoint and not adjacent.
        for w in UNSAFE.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1 + 1 < w[1].0, "{w:?}");
        }
        // General_Category Cc is what the standard library calls a
        // control character.
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(has(props::CC, u32::from(c)), c.is_control());
        }
    }

    /// Characters named in the property lists of the UCD files.
    #[test]
    fn property_lists() {
        for c in [0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069] {
            assert!(has(props::BIDI_CONTROL, c), "U+{c:04X}");
        }
        for c in [0x00AD, 0x180E, 0x200B, 0x2060, 0x3164, 0xFE0F, 0xFEFF] {
            assert!(has(props::DEFAULT_IGNORABLE, c), "U+{c:04X}");
        }
        assert!(has(props::DEFAULT_IGNORABLE, 0xE0100));
        assert!(has(props::NONCHARACTER, 0xFDD0));
        assert!(has(props::NONCHARACTER, 0x10FFFF));
        assert_eq!(props::ZL, [(0x2028, 0x2028)]);
        assert_eq!(props::ZP, [(0x2029, 0x2029)]);
        assert!(!has(props::CF, u32::from('a')));
    }
}

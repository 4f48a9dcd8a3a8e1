//! Charset conversion of mail text to UTF-8, with a map from each
//! character of the text back to the bytes it came from.
//!
//! The charsets are those of the WHATWG Encoding Standard (through
//! `encoding_rs`), plus the 7-bit ones that standard maps to its
//! "replacement" encoding, which turns a whole text into one U+FFFD:
//! ISO-2022-KR (RFC 1557), ISO-2022-CN and ISO-2022-CN-EXT (RFC 1922)
//! and HZ-GB-2312 (RFC 1843). Browsers refuse them for safety; mail
//! still carries them, and their ASCII (where URLs are) is ASCII, so
//! they are decoded here: KS X 1001 and GB 2312 characters through the
//! EUC-KR and GBK decoders (their 7-bit byte pairs with the high bit
//! set are those charsets' EUC forms), CNS 11643 characters, for which
//! there is no decoder, as U+FFFD.
//!
//! Positions are exact: in an ASCII-compatible charset ASCII bytes map
//! one to one and every other character to its first byte; in UTF-16
//! every character maps to its first code unit; in the ISO 2022 family
//! and HZ every character maps to its first byte after the escape or
//! shift sequence that selected its set.

use encoding_rs::{
    CoderResult, Decoder, EUC_KR, Encoding, GBK, ISO_2022_JP, REPLACEMENT,
    UTF_8, UTF_16BE, UTF_16LE,
};

use super::offsets::{MapBuilder, OffsetMap};

/// A charset text is converted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Charset {
    /// An encoding of the WHATWG Encoding Standard.
    Whatwg(&'static Encoding),
    /// ISO-2022-KR (RFC 1557).
    Iso2022Kr,
    /// ISO-2022-CN and ISO-2022-CN-EXT (RFC 1922).
    Iso2022Cn,
    /// HZ-GB-2312 (RFC 1843).
    Hz,
}

impl Charset {
    /// The charset a MIME `charset` label names, if it is known.
    pub(super) fn for_label(label: &[u8]) -> Option<Charset> {
        let enc = Encoding::for_label(label)?;
        if enc != REPLACEMENT {
            return Some(Charset::Whatwg(enc));
        }
        // The Encoding Standard's labels of "replacement" (section 4.2).
        let l = label.trim_ascii().to_ascii_lowercase();
        match &l[..] {
            b"iso-2022-kr" | b"csiso2022kr" => Some(Charset::Iso2022Kr),
            b"iso-2022-cn" | b"iso-2022-cn-ext" => Some(Charset::Iso2022Cn),
            b"hz-gb-2312" => Some(Charset::Hz),
            _ => None,
        }
    }

    /// The charset's name, for warnings.
    pub(super) fn name(self) -> &'static str {
        match self {
            Charset::Whatwg(e) => e.name(),
            Charset::Iso2022Kr => "ISO-2022-KR",
            Charset::Iso2022Cn => "ISO-2022-CN",
            Charset::Hz => "HZ-GB-2312",
        }
    }

    /// Whether the charset switches between its sets with control
    /// characters: ESC in ISO-2022-JP (RFC 1468), and SO and SI too in
    /// ISO-2022-KR (RFC 1557) and ISO-2022-CN (RFC 1922).
    pub(super) fn shifts_by_controls(self) -> bool {
        matches!(self, Charset::Iso2022Kr | Charset::Iso2022Cn)
            || self == Charset::Whatwg(ISO_2022_JP)
    }

    /// Whether every ASCII byte of a text in this charset is that ASCII
    /// character, so that the text's lines can be handled as bytes
    /// (`format=flowed`).
    pub(super) fn is_ascii_compatible(self) -> bool {
        match self {
            Charset::Whatwg(e) => e.is_ascii_compatible(),
            _ => false,
        }
    }
}

/// Text converted to UTF-8.
pub(super) struct Converted {
    pub text: String,
    /// Offsets in `text` to offsets in the input.
    pub map: OffsetMap,
    /// Some input was malformed (and replaced with U+FFFD).
    pub malformed: bool,
    /// Some characters are in a set with no decoder (CNS 11643 in
    /// ISO-2022-CN) and were replaced with U+FFFD.
    pub unsupported: bool,
}

/// Converts `input` from `charset` to UTF-8. With `exact` false the map
/// may be left out (every offset maps to 0; valid UTF-8 keeps its exact
/// map, which costs nothing), for a caller that maps the whole text to
/// one place anyway (a base64 part). The 7-bit charsets outside the
/// Encoding Standard are mapped exactly either way.
pub(super) fn convert(
    input: &[u8],
    charset: Charset,
    exact: bool,
) -> Converted {
    let (text, map, malformed, unsupported) = match charset {
        Charset::Whatwg(enc) => {
            let (text, map, bad) = to_utf8(input, enc, exact);
            (text, map, bad, false)
        }
        cs => seven_bit(input, cs),
    };
    Converted { text, map, malformed, unsupported }
}

/// Feeds `src` to `dec`, appending to `out`. Returns whether some
/// input was malformed (and replaced with U+FFFD).
pub(super) fn feed(
    dec: &mut Decoder,
    src: &[u8],
    out: &mut String,
    last: bool,
) -> bool {
    let mut src = src;
    let mut errors = false;
    for _ in 0..64 {
        let need = dec.max_utf8_buffer_length(src.len()).unwrap_or(16);
        out.reserve(need.max(16));
        let (res, read, bad) = dec.decode_to_string(src, out, last);
        errors |= bad;
        src = src.get(read..).unwrap_or(&[]);
        if res == CoderResult::InputEmpty {
            break;
        }
    }
    errors
}

/// Converts `input` from `enc` to UTF-8, with a map from the text to
/// offsets in `input` (see the [module documentation](self)). The flag
/// tells whether some input was malformed.
pub(super) fn to_utf8(
    input: &[u8],
    enc: &'static Encoding,
    exact: bool,
) -> (String, OffsetMap, bool) {
    to_utf8_by(input, enc, exact, true)
}

/// [`to_utf8`]. With `runs` false, every byte outside a run of ASCII is
/// fed to the decoder on its own, so that each character is known by
/// the byte that completed it: what decoding in runs must agree with,
/// and what it falls back to on input it cannot read ahead.
fn to_utf8_by(
    input: &[u8],
    enc: &'static Encoding,
    exact: bool,
    runs: bool,
) -> (String, OffsetMap, bool) {
    if enc == UTF_8
        && let Some(s) = crate::sieve::utf8(input)
    {
        return (s.to_string(), OffsetMap::linear_from(0), false);
    }
    if !enc.is_ascii_compatible() {
        if exact && (enc == UTF_16LE || enc == UTF_16BE) {
            return utf16_to_utf8(input, enc);
        }
        if exact && enc == ISO_2022_JP {
            return iso_2022_jp_to_utf8(input);
        }
        let (text, _, bad) = enc.decode(input);
        return (text.into_owned(), OffsetMap::constant(0), bad);
    }
    if !exact {
        // No map wanted: the text as the decoder writes it, which the
        // exact conversion below agrees with.
        let (text, bad) = enc.decode_without_bom_handling(input);
        return (text.into_owned(), OffsetMap::constant(0), bad);
    }
    if runs && enc.is_single_byte() {
        return single_byte_to_utf8(input, enc);
    }
    let units = if runs { Units::of(enc) } else { None };
    let mut errors = false;
    let mut dec = enc.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(input.len() + input.len() / 2);
    let mut b = MapBuilder::default();
    let mut pending: Option<usize> = None;
    // The characters of a run, as `Units::run` reads them.
    let mut widths: Vec<(usize, u8)> = Vec::new();
    // Bytes before this are fed on their own: a run that was malformed
    // or not what its lead bytes promised, or the byte after a run that
    // starts no character.
    let mut one_by_one = 0;
    let mut i = 0;
    while i < input.len() {
        // With nothing pending the decoder holds nothing (`holds_after`).
        if pending.is_none() {
            let rest = input.get(i..).unwrap_or(&[]);
            let ascii = crate::sieve::ascii_prefix(rest);
            if !ascii.is_empty() {
                push_ascii(&mut b, out.len(), i, ascii.len());
                // ASCII is UTF-8 as it is: copied whole.
                out.push_str(ascii);
                i += ascii.len();
                continue;
            }
            if let Some(units) = units
                && i >= one_by_one
            {
                let (end, whole) = units.run(input, i, &mut widths);
                let before = out.len();
                if end > i
                    && !feed(&mut dec, &input[i..end], &mut out, false)
                    && push_units(&mut b, &out, before, i, &widths)
                {
                    i = end;
                    if !whole {
                        one_by_one = end + 1;
                    }
                    continue;
                }
                // The decoder read these bytes otherwise: they go to it
                // one at a time, from a fresh decoder (nothing was held
                // where they start).
                out.truncate(before);
                dec = enc.new_decoder_without_bom_handling();
                one_by_one = if whole { end } else { end + 1 };
            }
        }
        let start = pending.unwrap_or(i);
        let before = out.len();
        let byte = input.get(i..i + 1).unwrap_or(&[]);
        errors |= feed(&mut dec, byte, &mut out, false);
        if out.len() > before {
            let kept = holds_after(enc, input[i]);
            let written = out.len() - before;
            if kept {
                // U+FFFD for the bytes before the kept one, which starts
                // the next character (text was pending, so `start < i`).
                b.push_char(before, start, i - start, written);
            } else if start < i
                && input[i].is_ascii()
                && written > 1
                && out.as_bytes().last() == Some(&input[i])
            {
                // U+FFFD for the bytes before an ASCII byte that cut
                // their sequence short, then that byte as itself.
                b.push_char(before, start, i - start, written - 1);
                b.push_char(out.len() - 1, i, 1, 1);
            } else {
                b.push_char(before, start, i + 1 - start, written);
            }
            pending = kept.then_some(i);
        } else {
            pending = Some(start);
        }
        i += 1;
    }
    let before = out.len();
    errors |= feed(&mut dec, &[], &mut out, true);
    if out.len() > before {
        b.push(before, pending.unwrap_or(input.len()), false);
    }
    (out, b.finish(0), errors)
}

/// Whether the decoder of `enc`, having just written text for `byte`,
/// still holds that byte: UTF-8's decoder, finding a lead byte where a
/// sequence needed a continuation, writes U+FFFD for the sequence cut
/// short and reads the lead byte again as the start of the next
/// (Encoding Standard 8.1.1, UTF-8 decoder: the byte is restored to the
/// queue). The other decoders read again ASCII, which they write at
/// once, or (gb18030, 10.2.1) the second to fourth bytes of a sequence,
/// which settle in the same call; so text written means a decoder
/// holding nothing. What the decoder writes for the whole input is what
/// tests compare this with.
fn holds_after(enc: &'static Encoding, byte: u8) -> bool {
    enc == UTF_8 && (0xc2..=0xf4).contains(&byte)
}

/// Where a run of ASCII becomes an anchor of its own in a map.
const LONG_ASCII: usize = 16;

/// Maps a run of `len` ASCII bytes, copied from raw offset `raw` to text
/// offset `text`: a few characters between others in their run, a
/// longer run as an anchor of its own.
fn push_ascii(b: &mut MapBuilder, text: usize, raw: usize, len: usize) {
    if len < LONG_ASCII {
        for k in 0..len {
            b.push_char(text + k, raw + k, 1, 1);
        }
    } else {
        b.push(text, raw, true);
    }
}

/// A single-byte charset: every byte is one character, whatever the
/// bytes around it (ASCII bytes are themselves), so each byte of 0x80 or
/// more is looked up in a table of the charset's characters and maps to
/// its own byte. A byte the charset leaves unmapped is U+FFFD, and makes
/// the text malformed, as the decoder has it.
fn single_byte_to_utf8(
    input: &[u8],
    enc: &'static Encoding,
) -> (String, OffsetMap, bool) {
    let table = upper_half(enc);
    let mut out = String::with_capacity(input.len() + input.len() / 2);
    let mut b = MapBuilder::default();
    let mut errors = false;
    let mut i = 0;
    while i < input.len() {
        let ascii = crate::sieve::ascii_prefix(&input[i..]);
        push_ascii(&mut b, out.len(), i, ascii.len());
        // ASCII is UTF-8 as it is: copied whole.
        out.push_str(ascii);
        i += ascii.len();
        while let Some(&byte) = input.get(i)
            && !byte.is_ascii()
        {
            let c = table[usize::from(byte & 0x7f)];
            errors |= c == char::REPLACEMENT_CHARACTER;
            b.push_char(out.len(), i, 1, c.len_utf8());
            out.push(c);
            i += 1;
        }
    }
    (out, b.finish(0), errors)
}

/// The characters of bytes 0x80 to 0xFF in single-byte charset `enc`,
/// decoded once a thread and kept.
fn upper_half(enc: &'static Encoding) -> [char; 128] {
    thread_local! {
        static TABLES: std::cell::RefCell<Vec<(&'static Encoding, [char; 128])>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    TABLES.with_borrow_mut(|tables| {
        if let Some((_, t)) = tables.iter().find(|(e, _)| *e == enc) {
            return *t;
        }
        let bytes: Vec<u8> = (0x80..=0xff).collect();
        let (text, _) = enc.decode_without_bom_handling(&bytes);
        debug_assert_eq!(text.chars().count(), 128, "a character a byte");
        let mut t = [char::REPLACEMENT_CHARACTER; 128];
        for (slot, c) in t.iter_mut().zip(text.chars()) {
            *slot = c;
        }
        tables.push((enc, t));
        t
    })
}

/// The length of the UTF-8 sequence whose first byte is `lead`.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0..0xc0 => 1,
        0xc0..0xe0 => 2,
        0xe0..0xf0 => 3,
        _ => 4,
    }
}

/// The ASCII-compatible charsets of more than one byte a character
/// whose characters' lengths follow from their first bytes (the lead
/// byte rules of each decoder in the Encoding Standard: UTF-8 8.1.1,
/// gb18030 10.2.1, Big5 11.1.1, EUC-JP 12.1.1, Shift_JIS 12.3.1, EUC-KR
/// 13.1.1), so that a run of them can be decoded in one call and still
/// be mapped character by character.
#[derive(Clone, Copy, Debug)]
enum Units {
    Utf8,
    /// GBK and gb18030 (one decoder).
    Gb18030,
    Big5,
    EucJp,
    EucKr,
    ShiftJis,
}

impl Units {
    fn of(enc: &'static Encoding) -> Option<Units> {
        use encoding_rs::{BIG5, EUC_JP, GB18030, SHIFT_JIS};
        Some(match enc {
            e if e == UTF_8 => Units::Utf8,
            e if e == GBK || e == GB18030 => Units::Gb18030,
            e if e == BIG5 => Units::Big5,
            e if e == EUC_JP => Units::EucJp,
            e if e == EUC_KR => Units::EucKr,
            e if e == SHIFT_JIS => Units::ShiftJis,
            _ => return None,
        })
    }

    /// The well-formed character that starts `rest` (with a byte of
    /// 0x80 or more): its length in bytes and how many characters it
    /// decodes to. `None` where the first byte starts no character.
    /// Only the first byte is read, and the second for gb18030 (a digit
    /// makes four bytes) and Big5 (its pairs): whether the rest is
    /// well-formed, the decoder tells.
    fn unit(self, rest: &[u8]) -> Option<(usize, usize)> {
        let (&lead, next) = (rest.first()?, rest.get(1));
        let len = match (self, lead) {
            (Units::Utf8, 0xc2..=0xdf) => 2,
            (Units::Utf8, 0xe0..=0xef) => 3,
            (Units::Utf8, 0xf0..=0xf4) => 4,
            // gb18030: 0x80 is the euro sign; a second byte that is a
            // digit makes a four-byte sequence.
            (Units::Gb18030, 0x80) => 1,
            (Units::Gb18030, 0x81..=0xfe) => {
                if next.is_some_and(u8::is_ascii_digit) { 4 } else { 2 }
            }
            (Units::Big5 | Units::EucKr, 0x81..=0xfe) => 2,
            (Units::EucJp, 0x8e | 0xa1..=0xfe) => 2,
            (Units::EucJp, 0x8f) => 3,
            // Shift_JIS: 0x80 and the half-width katakana are one byte.
            (Units::ShiftJis, 0x80 | 0xa1..=0xdf) => 1,
            (Units::ShiftJis, 0x81..=0x9f | 0xe0..=0xfc) => 2,
            _ => return None,
        };
        // Big5 pointers 1133, 1135, 1164 and 1166 decode to a letter
        // and a combining mark.
        let two = matches!(self, Units::Big5)
            && lead == 0x88
            && matches!(next, Some(0x62 | 0x64 | 0xa3 | 0xa5));
        Some((len, 1 + usize::from(two)))
    }

    /// The run of characters from `input[i]` (a byte of 0x80 or more)
    /// on, in `widths`: (raw length, characters) for each character not
    /// ASCII, (length, 0) for each run of ASCII. ASCII
    /// between whole characters is itself, as `to_utf8` copies it, and
    /// the run goes on past a short run of it (under [`LONG_ASCII`]
    /// bytes), for about [`RUN_BYTES`]. Returns where
    /// the run ends and whether it ends there (`false`: at a byte that
    /// starts no character, or a character cut by the end of the input).
    fn run(
        self,
        input: &[u8],
        i: usize,
        widths: &mut Vec<(usize, u8)>,
    ) -> (usize, bool) {
        widths.clear();
        let limit = i.saturating_add(RUN_BYTES);
        let mut at = i;
        // A run of ASCII is never cut (`to_utf8` maps a long one as a
        // whole): the limit is only looked at between characters.
        while at < limit
            && let Some(rest) = input.get(at..)
            && let Some(&first) = rest.first()
        {
            if first.is_ascii() {
                let n =
                    rest.iter().take(LONG_ASCII).take_while(|b| b.is_ascii());
                let n = n.count();
                if n >= LONG_ASCII {
                    // Copied by the caller, faster than decoded.
                    break;
                }
                widths.push((n, 0));
                at += n;
                continue;
            }
            match self.unit(rest) {
                Some((len, chars)) if len <= rest.len() => {
                    widths.push((len, chars as u8));
                    at += len;
                }
                _ => return (at, false),
            }
        }
        (at, true)
    }
}

/// About the most bytes one run of [`Units::run`] spans (it ends at the
/// first character or short run of ASCII past this): the width list of
/// one run stays small whatever the text.
const RUN_BYTES: usize = 1 << 16;

/// Maps the characters the decoder wrote to `out` from `before` on for
/// a run of raw bytes from `raw` on, read as `widths`. Returns `false`,
/// with nothing mapped, when the text does not hold the characters the
/// widths promise (the decoder read the bytes otherwise).
fn push_units(
    b: &mut MapBuilder,
    out: &str,
    before: usize,
    raw: usize,
    widths: &[(usize, u8)],
) -> bool {
    let text = out.as_bytes().get(before..).unwrap_or_default();
    let chars = out.get(before..).map_or(0, |t| t.chars().count());
    let want: usize = widths
        .iter()
        .map(|&(len, n)| if n == 0 { len } else { usize::from(n) })
        .sum();
    if chars != want {
        return false;
    }
    let (mut t, mut r) = (0, raw);
    for &(len, n) in widths {
        if n == 0 {
            push_ascii(b, before + t, r, len);
            t += len;
            r += len;
            continue;
        }
        let mut w = 0;
        for _ in 0..n {
            w += text.get(t + w).copied().map_or(1, utf8_width);
        }
        b.push_char(before + t, r, len, w);
        t += w;
        r += len;
    }
    true
}

/// UTF-16 (RFC 2781), byte order mark sniffed as the Encoding Standard
/// does: each character maps to its first code unit, two bytes each,
/// four for a surrogate pair (a run of ASCII is one anchor of two raw
/// bytes per character). An unpaired surrogate is one U+FFFD for its
/// unit; an odd last byte, one U+FFFD.
fn utf16_to_utf8(
    input: &[u8],
    enc: &'static Encoding,
) -> (String, OffsetMap, bool) {
    let (text, actual, bad) = enc.decode(input);
    if actual == UTF_8 {
        // A UTF-8 byte order mark: UTF-8 after it.
        let rest = input.get(3..).unwrap_or(&[]);
        let (text, map, bad) = to_utf8(rest, UTF_8, true);
        let mut b = MapBuilder::default();
        b.append(&map, 0, 3);
        return (text, b.finish(3), bad);
    }
    let bom: &[u8] =
        if actual == UTF_16LE { b"\xff\xfe" } else { b"\xfe\xff" };
    let mut raw = if input.starts_with(bom) { 2 } else { 0 };
    let mut b = MapBuilder::default();
    for (t, c) in text.char_indices() {
        // A run of characters of one width is one anchor.
        let units = if u32::from(c) > 0xffff { 4 } else { 2 };
        b.push_char(t, raw.min(input.len()), units, c.len_utf8());
        raw += units;
    }
    b.push(text.len(), input.len(), false);
    (text.into_owned(), b.finish(0), bad)
}

/// How many bytes of ISO-2022-JP (RFC 1468) made character `c`: one in
/// the ASCII, JIS X 0201 Roman and katakana sets, two in JIS X 0208.
fn iso_2022_jp_width(c: char) -> usize {
    let one = c.is_ascii()
        || matches!(c, '\u{a5}' | '\u{203e}' | '\u{fffd}')
        || ('\u{ff61}'..='\u{ff9f}').contains(&c);
    if one { 1 } else { 2 }
}

/// ISO-2022-JP (RFC 1468) as the Encoding Standard's decoder reads it
/// (12.2.1), mapped as [`stepwise_to_utf8`] maps it, but a segment at a
/// time where that is sure to agree: between escape sequences the text
/// is in one set, and where all the bytes of a segment are that set's
/// ([`jp_segment`]), each byte (each pair in JIS X 0208) is one
/// character, which the decoder writes when it reads the character's
/// last byte: so its first byte is found as a byte at a time finds it.
/// Such segments are decoded in one call each; from the first segment
/// that is not so, the rest goes a byte at a time, through the same
/// decoder.
fn iso_2022_jp_to_utf8(input: &[u8]) -> (String, OffsetMap, bool) {
    iso_2022_jp_segments(input).0
}

/// [`iso_2022_jp_to_utf8`], and how many bytes went in segments.
fn iso_2022_jp_segments(input: &[u8]) -> ((String, OffsetMap, bool), usize) {
    let mut st = Stepwise::new(ISO_2022_JP, input.len());
    let mut at = 0;
    while at < input.len() {
        let rest = input.get(at + 1..).unwrap_or(&[]);
        let end =
            memchr::memchr(0x1b, rest).map_or(input.len(), |k| at + 1 + k);
        let segment = input.get(at..end).unwrap_or(&[]);
        let Some((escape, unit)) = jp_segment(segment, at == 0) else {
            break;
        };
        let before = st.out.len();
        st.errors |= feed(&mut st.dec, segment, &mut st.out, false);
        if (segment.get(1..3) == Some(b"(B") || escape == 0)
            && st.out.len() - before == segment.len() - escape
        {
            // ASCII, whose bytes are the text.
            st.places.ascii(before, at + escape);
            st.from = end;
            at = end;
            continue;
        }
        let made = st.out.get(before..).unwrap_or("");
        if made.chars().count() != (segment.len() - escape) / unit {
            // Not what the bytes promise (which the decoder's rules rule
            // out): all of it a byte at a time.
            let all = stepwise_to_utf8(input, ISO_2022_JP, iso_2022_jp_width);
            return (all, 0);
        }
        let mut raw = at + escape;
        for (t, c) in made.char_indices() {
            let end = raw + unit;
            let first = end.saturating_sub(iso_2022_jp_width(c)).max(st.from);
            st.places.place(before + t, first, end - first, c);
            st.from = end;
            raw = end;
        }
        at = end;
    }
    (st.finish(input, at, iso_2022_jp_width), at)
}

/// Whether `segment` (the bytes from an escape sequence to the next, or
/// at the `start` of the text, those before the first) is one the
/// ISO-2022-JP decoder reads as one character per `unit` bytes after
/// its escape: a valid escape sequence (none at the start, where the
/// set is ASCII) then at least one byte, all of its set (ASCII and JIS
/// X 0201 Roman: below 0x80 but SO and SI; katakana: 0x21 to 0x5F; JIS
/// X 0208: pairs of 0x21 to 0x7E). A segment with no byte after its
/// escape is not (an escape right after it is an error; at the end of
/// the text it writes nothing, a byte at a time as well). Returns the
/// escape's length and `unit`.
fn jp_segment(segment: &[u8], start: bool) -> Option<(usize, usize)> {
    let (escape, rule): (usize, fn(&u8) -> bool) = match segment {
        [0x1b, b'(', b'B' | b'J', ..] => {
            (3, |&b| b < 0x80 && b != 0x0e && b != 0x0f)
        }
        [0x1b, b'(', b'I', ..] => (3, |&b| (0x21..=0x5f).contains(&b)),
        [0x1b, b'$', b'@' | b'B', ..] => (3, |&b| (0x21..=0x7e).contains(&b)),
        [0x1b, ..] => return None,
        _ if start => (0, |&b| b < 0x80 && b != 0x0e && b != 0x0f),
        _ => return None,
    };
    let unit = if segment.get(1) == Some(&b'$') { 2 } else { 1 };
    let body = segment.get(escape..).unwrap_or(&[]);
    (!body.is_empty() && body.len() % unit == 0 && body.iter().all(rule))
        .then_some((escape, unit))
}

/// A stateful encoding decoded a byte at a time, so that each character
/// is known by the byte that completed it: it maps to that byte less
/// its width in bytes (`width`), never before the first byte fed since
/// the previous character (escape sequences make no character).
fn stepwise_to_utf8(
    input: &[u8],
    enc: &'static Encoding,
    width: fn(char) -> usize,
) -> (String, OffsetMap, bool) {
    Stepwise::new(enc, input.len()).finish(input, 0, width)
}

/// The state of [`stepwise_to_utf8`]: the decoder, the text and map so
/// far, and the raw offset after the byte that completed the last
/// character.
struct Stepwise {
    dec: Decoder,
    out: String,
    places: Places,
    errors: bool,
    from: usize,
}

/// A map built character by character, and the last character placed:
/// its text offset, raw offset and whether it is ASCII, and where its
/// raw bytes end.
#[derive(Default)]
struct Places {
    b: MapBuilder,
    tail: Option<(usize, usize, bool)>,
    /// The raw offset one past the last character placed.
    tail_end: usize,
}

impl Places {
    /// Maps character `c`, at `text`, to raw offset `first`, `raw_len`
    /// bytes before the next character's (at least 1: after an error two
    /// characters may share a byte, and the next then starts an anchor
    /// of its own): all its bytes map there, and characters in a row
    /// make one anchor or a mixed run (a map of about a byte a character
    /// at most).
    fn place(&mut self, text: usize, first: usize, raw_len: usize, c: char) {
        self.b.push_char(text, first, raw_len.max(1), c.len_utf8());
        self.tail = Some((text, first, c.is_ascii()));
        self.tail_end = first + raw_len;
    }

    /// Maps the text from `text` on to the raw bytes from `raw` on, one
    /// to one (ASCII).
    fn ascii(&mut self, text: usize, raw: usize) {
        self.b.push(text, raw, true);
        self.tail = None;
    }

    /// The map of a text of `len` bytes. Its end (where a URL at the
    /// end of the text ends) maps one past its last character's raw
    /// bytes, not past an escape sequence after them: after the last
    /// character if that is ASCII, else from an anchor of its own.
    fn finish(mut self, len: usize) -> OffsetMap {
        match self.tail {
            Some((text, first, true)) => self.b.push(text, first, true),
            Some((_, _, false)) => self.b.end_at(len, self.tail_end),
            None => {}
        }
        self.b.finish(0)
    }
}

impl Stepwise {
    fn new(enc: &'static Encoding, len: usize) -> Stepwise {
        Stepwise {
            dec: enc.new_decoder_without_bom_handling(),
            out: String::with_capacity(len + len / 2),
            places: Places::default(),
            errors: false,
            from: 0,
        }
    }

    /// Feeds `input[at..]` a byte at a time, then the end of the input.
    fn finish(
        mut self,
        input: &[u8],
        at: usize,
        width: fn(char) -> usize,
    ) -> (String, OffsetMap, bool) {
        let mut starts: Vec<(usize, usize, char)> = Vec::new();
        for i in at..=input.len() {
            let before = self.out.len();
            let src = input.get(i..i + 1).unwrap_or(&[]);
            let last = i == input.len();
            self.errors |= feed(&mut self.dec, src, &mut self.out, last);
            if self.out.len() == before {
                continue;
            }
            let end = (i + 1).min(input.len());
            // Usually one character; placed from the last one back.
            starts.clear();
            let mut raw = end;
            let made = self.out.get(before..).unwrap_or("");
            for (t, c) in made.char_indices().rev() {
                raw = raw.saturating_sub(width(c)).max(self.from);
                starts.push((before + t, raw, c));
            }
            for (k, &(t, r, c)) in starts.iter().enumerate().rev() {
                // Up to where the next character starts, or the end of
                // the byte.
                let next = k.checked_sub(1).map_or(end, |n| starts[n].1);
                self.places.place(t, r, next.saturating_sub(r), c);
            }
            self.from = end;
        }
        let map = self.places.finish(self.out.len());
        (self.out, map, self.errors)
    }
}

/// The 94x94 sets the 7-bit charsets designate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    /// KS X 1001 (KS C 5601): EUC-KR with the high bit set.
    Ksc,
    /// GB 2312: GBK (EUC-CN) with the high bit set.
    Gb,
    /// CNS 11643, any plane: no decoder.
    Cns,
}

/// What an escape sequence of ISO-2022-KR or ISO-2022-CN does.
enum Escape {
    /// Designates a set to G1 (`ESC $ ) F`), invoked by SO.
    G1(Set),
    /// Designates a set to G2 or G3 (`ESC $ * H`, `ESC $ + I`..`M`),
    /// used one character at a time by a single shift.
    Other,
    /// A single shift (`ESC N`, `ESC O`): the next two bytes are one
    /// character of G2 or G3.
    SingleShift,
}

/// The escape sequence `rest` starts with (RFC 1557, RFC 1922) and its
/// length.
fn escape(rest: &[u8]) -> Option<(Escape, usize)> {
    match rest {
        [0x1b, b'$', b')', f, ..] => match f {
            b'C' => Some((Escape::G1(Set::Ksc), 4)),
            // ISO-IR-165 is GB 2312 with additions.
            b'A' | b'E' => Some((Escape::G1(Set::Gb), 4)),
            b'G' => Some((Escape::G1(Set::Cns), 4)),
            _ => None,
        },
        [0x1b, b'$', b'*', b'H', ..] => Some((Escape::Other, 4)),
        [0x1b, b'$', b'+', b'I'..=b'M', ..] => Some((Escape::Other, 4)),
        [0x1b, b'N' | b'O', ..] => Some((Escape::SingleShift, 2)),
        // ASCII designated to G0.
        [0x1b, b'(', b'B', ..] => Some((Escape::Other, 3)),
        _ => None,
    }
}

/// Decodes one character of `set` written as the byte pair `pair`
/// (each byte 0x21 to 0x7e) into `out`; false when it is not one.
fn decode_pair(set: Set, pair: [u8; 2], out: &mut String) -> bool {
    let enc = match set {
        Set::Ksc => EUC_KR,
        Set::Gb => GBK,
        Set::Cns => return false,
    };
    let mut dec = enc.new_decoder_without_bom_handling();
    !feed(&mut dec, &[pair[0] | 0x80, pair[1] | 0x80], out, true)
}

/// Decodes ISO-2022-KR, ISO-2022-CN(-EXT) or HZ-GB-2312. Returns the
/// text, its map, and whether some input was malformed, and some was in
/// a set with no decoder.
///
/// - ISO-2022-KR, ISO-2022-CN: `ESC $ ) C` (KS X 1001), `ESC $ ) A`
///   (GB 2312) or `ESC $ ) G` (CNS 11643 plane 1) designates G1; SO
///   (0x0e) shifts to it, SI (0x0f) and every line end back to ASCII;
///   in G1 a pair of bytes from 0x21 to 0x7e is one character. `ESC N`
///   and `ESC O` take one pair from G2 or G3 (CNS 11643 planes 2 to 7).
///   ISO-2022-KR's G1 is KS X 1001 even before its designation.
/// - HZ: `~{` shifts to GB 2312 pairs, `~}` (or a line end) back to
///   ASCII; `~~` is `~`, `~` at a line end joins the next line; a `~`
///   before anything else is kept as written.
/// - An 8-bit byte does not belong: it is read as the EUC form of the
///   charset's set (mislabelled EUC-KR or GB 2312 text), as malformed.
fn seven_bit(input: &[u8], cs: Charset) -> (String, OffsetMap, bool, bool) {
    let hz = cs == Charset::Hz;
    let mut out = String::with_capacity(input.len() + input.len() / 2);
    let mut b = MapBuilder::default();
    let (mut malformed, mut unsupported) = (false, false);
    let mut g1 = match cs {
        Charset::Iso2022Kr => Some(Set::Ksc),
        Charset::Hz => Some(Set::Gb),
        _ => None,
    };
    let mut shifted = false;
    let mut i = 0;
    // Where the last character decoded in the match below ends (text,
    // raw): the end of the text maps there when that character ends it,
    // not past a shift or escape after it.
    let mut tail = (0, 0);
    while let Some(&c) = input.get(i) {
        let at_char = out.len();
        let rest = input.get(i..).unwrap_or(&[]);
        if !shifted {
            let run = rest
                .iter()
                .take_while(|&&c| {
                    c < 0x80
                        && !matches!(c, 0x1b | 0x0e | 0x0f)
                        && !(hz && c == b'~')
                })
                .count();
            if run > 0 {
                b.push(out.len(), i, true);
                out.push_str(std::str::from_utf8(&rest[..run]).unwrap_or(""));
                i += run;
                continue;
            }
        }
        match c {
            0x1b if !hz => match escape(rest) {
                Some((Escape::G1(set), len)) => {
                    g1 = Some(set);
                    i += len;
                }
                Some((Escape::Other, len)) => i += len,
                Some((Escape::SingleShift, len)) => {
                    // CNS 11643 planes 2 to 7: no decoder.
                    b.push(out.len(), i, false);
                    out.push('\u{fffd}');
                    unsupported = true;
                    i += len + 2;
                }
                None => {
                    b.push(out.len(), i, false);
                    out.push('\u{fffd}');
                    malformed = true;
                    i += 1;
                }
            },
            0x0e if !hz => {
                shifted = true;
                i += 1;
            }
            0x0f if !hz => {
                shifted = false;
                i += 1;
            }
            b'~' if hz => match rest.get(1..) {
                Some([b'{', ..]) => {
                    shifted = true;
                    i += 2;
                }
                Some([b'}', ..]) => {
                    shifted = false;
                    i += 2;
                }
                Some([b'~', ..]) => {
                    b.push(out.len(), i, false);
                    out.push('~');
                    i += 2;
                }
                Some([b'\n', ..]) => i += 2,
                Some([b'\r', b'\n', ..]) => i += 3,
                _ => {
                    b.push(out.len(), i, true);
                    out.push('~');
                    i += 1;
                }
            },
            0x80.. => {
                // 8-bit text under a 7-bit label.
                malformed = true;
                let euc = if cs == Charset::Iso2022Kr { EUC_KR } else { GBK };
                let take = match rest.get(1) {
                    Some(&d) if d >= 0x41 => 2,
                    _ => 1,
                };
                let before = out.len();
                let mut dec = euc.new_decoder_without_bom_handling();
                feed(
                    &mut dec,
                    rest.get(..take).unwrap_or(&[]),
                    &mut out,
                    true,
                );
                if out.len() == before {
                    out.push('\u{fffd}');
                }
                b.push(before, i, false);
                i += take;
            }
            0x21..=0x7e if shifted => {
                let second = rest.get(1).copied();
                let before = out.len();
                b.push(before, i, false);
                match (g1, second) {
                    (Some(set), Some(d)) if (0x21..=0x7e).contains(&d) => {
                        if !decode_pair(set, [c, d], &mut out) {
                            out.truncate(before);
                            out.push('\u{fffd}');
                            if set == Set::Cns {
                                unsupported = true;
                            } else {
                                malformed = true;
                            }
                        }
                        i += 2;
                    }
                    _ => {
                        out.push('\u{fffd}');
                        malformed = true;
                        i += 1;
                    }
                }
            }
            _ => {
                // ASCII in the shifted state: spaces and controls; a
                // line end shifts back (RFC 1557's formal syntax ends
                // every shifted segment before the line end; RFC 1922,
                // RFC 1843).
                if c == b'\n' {
                    shifted = false;
                }
                b.push(out.len(), i, true);
                out.push(char::from(c));
                i += 1;
            }
        }
        if out.len() > at_char {
            tail = (out.len(), i.min(input.len()));
        }
    }
    if tail.0 == out.len() && tail.0 > 0 {
        b.end_at(tail.0, tail.1);
    }
    (out, b.finish(0), malformed, unsupported)
}

/// The encoding of Windows code page `cp` (as TNEF, Outlook and RTF
/// name the code page of their 8-bit text), for those the Encoding
/// Standard has; `None` for others (DOS code pages among them).
pub(super) fn codepage(cp: i64) -> Option<&'static Encoding> {
    let label: &[u8] = match cp {
        20127 | 1252 => b"windows-1252",
        874 => b"windows-874",
        932 => b"shift_jis",
        936 => b"gbk",
        949 => b"euc-kr",
        950 => b"big5",
        866 => b"ibm866",
        1200 => b"utf-16le",
        1201 => b"utf-16be",
        1250 => b"windows-1250",
        1251 => b"windows-1251",
        1253 => b"windows-1253",
        1254 => b"windows-1254",
        1255 => b"windows-1255",
        1256 => b"windows-1256",
        1257 => b"windows-1257",
        1258 => b"windows-1258",
        10000 => b"macintosh",
        20866 => b"koi8-r",
        21866 => b"koi8-u",
        28591 => b"iso-8859-1",
        28592 => b"iso-8859-2",
        28593 => b"iso-8859-3",
        28594 => b"iso-8859-4",
        28595 => b"iso-8859-5",
        28596 => b"iso-8859-6",
        28597 => b"iso-8859-7",
        28598 => b"iso-8859-8",
        28599 => b"iso-8859-9",
        28603 => b"iso-8859-13",
        28605 => b"iso-8859-15",
        50220..=50222 => b"iso-2022-jp",
        51932 => b"euc-jp",
        54936 => b"gb18030",
        65001 => b"utf-8",
        _ => return None,
    };
    Encoding::for_label(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::WINDOWS_1252;

    #[test]
    fn maps_of_converted_text_are_small_and_exact() {
        // Every character maps to its own raw byte, in runs of one width
        // (two-byte é, three-byte €) and in mixed runs alike.
        let mut raw = Vec::new();
        for k in 0..3000 {
            raw.extend_from_slice(match k % 7 {
                0 | 1 => b"\xe9\x80",
                2 => b"abc ",
                3 => b"\xe9\xe9\xe9\xe9",
                _ => b"\x80",
            });
        }
        let enc = encoding_rs::WINDOWS_1252;
        let (text, map, _) = to_utf8(&raw, enc, true);
        for (k, (t, _)) in text.char_indices().enumerate() {
            assert_eq!(map.raw_offset(t), k, "char {k}");
            assert_eq!(map.raw_offset(t + 1).min(k), k, "inside char {k}");
        }
        assert_eq!(map.raw_offset(text.len()), raw.len());
        assert!(
            map.anchor_count() < raw.len() / 100,
            "{}",
            map.anchor_count()
        );
        // KOI8-R: a line of Cyrillic is one anchor.
        let (text, map, _) = to_utf8(
            &[0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4],
            encoding_rs::KOI8_R,
            true,
        );
        assert_eq!(text, "Привет");
        assert_eq!(map.anchor_count(), 1);
        assert_eq!(map.raw_offset(4), 2);
        // UTF-16 with characters of one, two and four UTF-8 bytes mixed.
        let s = "a\u{e9}\u{20ac}\u{1f600}".repeat(500);
        let raw: Vec<u8> =
            s.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let (text, map, _) = to_utf8(&raw, encoding_rs::UTF_16LE, true);
        let mut at = 0;
        for (t, c) in text.char_indices() {
            assert_eq!(map.raw_offset(t), at, "{t}");
            at += 2 * c.len_utf16();
        }
        assert!(map.anchor_count() < 20, "{}", map.anchor_count());
    }

    /// Single-byte charsets (runs of 8-bit bytes decoded in one call),
    /// unmapped bytes among them, between ASCII runs short and long: the
    /// text the decoder gives, every byte of each character mapped to
    /// the character's byte.
    #[test]
    fn single_byte_runs_map_each_byte() {
        let mut next = crate::testing::xorshift(0x51_6e_61_e5);
        let charsets = [
            WINDOWS_1252,
            encoding_rs::ISO_8859_8,
            encoding_rs::KOI8_R,
            encoding_rs::X_USER_DEFINED,
        ];
        for enc in charsets {
            for _ in 0..200 {
                let mut raw = Vec::new();
                for _ in 0..next() % 6 {
                    for _ in 0..next() % 200 {
                        raw.push(b'a' + (next() % 26) as u8);
                    }
                    for _ in 0..1 + next() % 8 {
                        raw.push(0x80 | next() as u8);
                    }
                }
                let (text, map, bad) = to_utf8(&raw, enc, true);
                let (want, want_bad) = enc.decode_without_bom_handling(&raw);
                assert_eq!((text.as_str(), bad), (&*want, want_bad));
                for (k, (t, c)) in text.char_indices().enumerate() {
                    for j in t..t + c.len_utf8() {
                        assert_eq!(map.raw_offset(j), k, "{}", enc.name());
                    }
                }
                assert_eq!(map.raw_offset(text.len()), raw.len());
            }
        }
    }

    /// Text in `enc` for the run tests: ASCII, characters `enc` can
    /// write (letters of many scripts, the euro sign, Big5's letters with
    /// a combining mark, characters outside the BMP), and bytes that
    /// start no character, lone lead bytes and lead bytes before ASCII.
    fn mixed_text(
        enc: &'static Encoding,
        next: &mut impl FnMut() -> u64,
    ) -> Vec<u8> {
        let pieces: [&str; 12] = [
            "http://example.org/x ",
            "a",
            "\u{4e2d}\u{6587}\u{5b57}",
            "\u{d55c}\u{ad6d}",
            "\u{3072}\u{ff76}\u{ff9f}",
            "\u{41f}\u{440}\u{438}",
            "\u{e9}\u{20ac}\u{a5}",
            "\u{ca}\u{304}\u{ea}\u{30c}",
            "\u{1f600}\u{20000}",
            "\u{3000}\u{ff01}",
            "\u{2460}\u{7881}",
            "\u{80}",
        ];
        let mut raw = Vec::new();
        for _ in 0..next() % 40 {
            match next() % 10 {
                0 => raw.push(0x80 | next() as u8),
                1 => {
                    raw.push(0x80 | next() as u8);
                    raw.push(next() as u8 & 0x7f);
                }
                2 => raw.push(next() as u8),
                _ => {
                    let s = pieces[(next() % 12) as usize];
                    raw.extend_from_slice(&enc.encode(s).0);
                }
            }
        }
        raw
    }

    /// `raw` decoded in runs gives the text, map and flag of its bytes
    /// fed one at a time, and the text and flag the decoder writes for
    /// the whole of it.
    fn assert_agrees(enc: &'static Encoding, raw: &[u8]) {
        let runs = to_utf8_by(raw, enc, true, true);
        let bytes = to_utf8_by(raw, enc, true, false);
        assert_eq!(runs, bytes, "{} {raw:x?}", enc.name());
        let (want, bad) = enc.decode_without_bom_handling(raw);
        assert_eq!(
            (&*runs.0, runs.2),
            (&*want, bad),
            "{} {raw:x?}",
            enc.name()
        );
        // With no map wanted, the same text and flag, and a map of one
        // anchor (valid UTF-8 keeps its exact map: it costs nothing).
        let (text, map, inexact_bad) = to_utf8_by(raw, enc, false, true);
        assert_eq!((&*text, inexact_bad), (&*want, bad), "{}", enc.name());
        assert_eq!(map.anchor_count(), 1);
    }

    /// Decoding runs whole gives the text, map and flag of feeding the
    /// decoder a byte at a time, in every ASCII-compatible charset of
    /// more than one byte a character (and single-byte ones), on random
    /// text and on every pair of bytes after a lead byte.
    #[test]
    fn runs_agree_with_bytes_fed_one_at_a_time() {
        use encoding_rs::{BIG5, EUC_JP, GB18030, SHIFT_JIS, WINDOWS_1253};
        let charsets = [
            UTF_8,
            GBK,
            GB18030,
            BIG5,
            EUC_JP,
            EUC_KR,
            SHIFT_JIS,
            WINDOWS_1252,
            WINDOWS_1253,
            encoding_rs::KOI8_R,
            encoding_rs::X_USER_DEFINED,
        ];
        let mut next = crate::testing::xorshift(0x7275_6e73_2d76_7331);
        for enc in charsets {
            for _ in 0..400 {
                let raw = mixed_text(enc, &mut next);
                assert_agrees(enc, &raw);
            }
            // Longer than a run reads ahead: runs cut by the limit.
            // Well-formed, but for a byte that starts no character near
            // the end.
            let line = "\u{4e2d}\u{6587} \u{d55c}\u{3072}\u{ff76}\u{41f}\u{e9}\u{20ac}x/\n";
            let mut long =
                enc.encode(&line.repeat(3 * RUN_BYTES / 16)).0.into_owned();
            let at = long.len() - 100;
            long.insert(at, 0xff);
            assert_agrees(enc, &long);
            for lead in 0x80..=0xffu8 {
                for trail in 0..=0xffu8 {
                    let raw = [b'a', lead, trail, b'0', lead, trail, lead];
                    assert_agrees(enc, &raw);
                }
            }
        }
    }

    /// Well-formed text is decoded in runs, never a byte at a time: the
    /// lead byte rules of `Units` are those of the decoders (with the
    /// sequences the encoders never write: Big5's pairs, EUC-JP's
    /// JIS X 0212, the euro sign as gb18030's one byte 0x80).
    #[test]
    fn well_formed_text_is_decoded_in_runs() {
        use encoding_rs::{BIG5, EUC_JP, GB18030, SHIFT_JIS};
        let cases: [(&'static Encoding, &[u8]); 7] = [
            (UTF_8, b""),
            (GBK, b"\x80"),
            (GB18030, b"\x80\x81\x30\x81\x30"),
            (BIG5, b"\x88\x62\x88\x64\x88\xa3\x88\xa5"),
            (EUC_JP, b"\x8f\xb0\xa1\x8e\xb6"),
            (EUC_KR, b""),
            (SHIFT_JIS, b"\x80\xb6"),
        ];
        let mut next = crate::testing::xorshift(0x6675_6c6c_2d72_756e);
        let text =
            "\u{4e2d}\u{d55c}\u{3072}\u{ff76}\u{41f}\u{e9}\u{20ac}\u{1f600}";
        let chars: Vec<char> = text.chars().collect();
        let mut widths = Vec::new();
        for (enc, extra) in cases {
            let units = Units::of(enc).unwrap();
            for _ in 0..300 {
                let mut raw = Vec::new();
                for _ in 0..next() % 30 {
                    match next() % 4 {
                        0 => raw.extend_from_slice(b"x/"),
                        1 => raw.extend_from_slice(extra),
                        _ => {
                            let c = chars[(next() % 8) as usize].to_string();
                            raw.extend_from_slice(&enc.encode(&c).0);
                        }
                    }
                }
                let mut i = 0;
                while i < raw.len() {
                    if raw[i].is_ascii() {
                        i += 1;
                        continue;
                    }
                    let (end, whole) = units.run(&raw, i, &mut widths);
                    assert!(whole && end > i, "{} {raw:x?}", enc.name());
                    let mut dec = enc.new_decoder_without_bom_handling();
                    let mut out = String::new();
                    let bad = feed(&mut dec, &raw[i..end], &mut out, false);
                    let mut b = MapBuilder::default();
                    let mapped = push_units(&mut b, &out, 0, i, &widths);
                    assert!(!bad && mapped, "{} {raw:x?}", enc.name());
                    i = end;
                }
            }
        }
    }

    /// Short strings of the bytes decoders recover from errors on
    /// (lead bytes, gb18030's digits, bytes that start nothing, ASCII):
    /// the decoder's text and flag, and the map of bytes fed one at a
    /// time.
    #[test]
    fn error_recovery_gives_the_decoders_text() {
        use encoding_rs::{BIG5, EUC_JP, GB18030, SHIFT_JIS};
        let alphabet = [
            0x80, 0x81, 0x88, 0x8e, 0x8f, 0xa1, 0xa3, 0xc2, 0xe0, 0xed, 0xf0,
            0xf4, 0xfe, 0xff, 0x30, 0x39, 0x62, b'a', b' ',
        ];
        let mut next = crate::testing::xorshift(0x6572_726f_722d_7265);
        for enc in [UTF_8, GBK, GB18030, BIG5, EUC_JP, EUC_KR, SHIFT_JIS] {
            for _ in 0..20_000 {
                let raw: Vec<u8> = (0..1 + next() % 8)
                    .map(|_| {
                        alphabet[(next() % alphabet.len() as u64) as usize]
                    })
                    .collect();
                assert_agrees(enc, &raw);
            }
        }
    }

    /// Every pair of bytes (and gb18030 four-byte sequence) the decoder
    /// reads without error is read in one run, never a byte at a time.
    #[test]
    fn every_well_formed_pair_is_one_run() {
        use encoding_rs::{BIG5, EUC_JP, GB18030, SHIFT_JIS};
        let mut widths = Vec::new();
        let mut one_run = |enc: &'static Encoding, raw: &[u8]| {
            let (_, bad) = enc.decode_without_bom_handling(raw);
            if bad || raw[0].is_ascii() {
                return;
            }
            let units = Units::of(enc).unwrap();
            let (end, whole) = units.run(raw, 0, &mut widths);
            let mut dec = enc.new_decoder_without_bom_handling();
            let mut out = String::new();
            let bad = feed(&mut dec, &raw[..end], &mut out, false);
            let mut b = MapBuilder::default();
            let mapped = push_units(&mut b, &out, 0, 0, &widths);
            assert!(whole && end == raw.len(), "{} {raw:x?}", enc.name());
            assert!(!bad && mapped, "{} {raw:x?}", enc.name());
        };
        for enc in [UTF_8, GBK, GB18030, BIG5, EUC_JP, EUC_KR, SHIFT_JIS] {
            for lead in 0x80..=0xffu8 {
                one_run(enc, &[lead]);
                for trail in 0..=0xffu8 {
                    one_run(enc, &[lead, trail]);
                }
            }
        }
        for lead in 0x81..=0xfeu8 {
            for third in (0x81..=0xfeu8).step_by(7) {
                for digit in [0x30, 0x35, 0x39] {
                    one_run(
                        GB18030,
                        &[lead, digit, third, 0x39 - digit + 0x30],
                    );
                }
            }
        }
        // Three bytes: EUC-JP's JIS X 0212; UTF-8's three and four.
        for (enc, raw) in [
            (EUC_JP, &b"\x8f\xb0\xa1"[..]),
            (UTF_8, "\u{4e2d}".as_bytes()),
            (UTF_8, "\u{1f600}".as_bytes()),
        ] {
            one_run(enc, raw);
        }
    }

    /// A byte that cuts a sequence short maps to itself: an ASCII byte
    /// (the URL after it starts there) and a lead byte the decoder keeps
    /// (lead bytes in a row stay one run of the map, however many).
    #[test]
    fn bytes_after_a_cut_sequence_map_to_themselves() {
        let (text, map, bad) = to_utf8(b"\xe0http://x", UTF_8, true);
        assert_eq!((&*text, bad), ("\u{fffd}http://x", true));
        assert_eq!(map.raw_offset(3), 1, "the h");
        let (text, map, _) = to_utf8(b"a\xe0\xc2\xa9b", UTF_8, true);
        assert_eq!(text, "a\u{fffd}\u{a9}b");
        assert_eq!(map.raw_offset(1), 1, "U+FFFD for the e0");
        assert_eq!(map.raw_offset(4), 2, "the c2 a9");
        assert_eq!(map.raw_offset(6), 4, "the b");
        let gb = to_utf8(b"\x81\x30\x81 x", GBK, true);
        assert_eq!(gb.0, "\u{fffd}0\u{fffd} x");
        assert_eq!(gb.1.raw_offset(gb.0.len() - 1), 4, "the x");
        let raw = b"\xc2".repeat(10_000);
        let (text, map, _) = to_utf8(&raw, UTF_8, true);
        assert_eq!(text.chars().count(), 10_000);
        assert_eq!(map.raw_offset(3 * 9_999), 9_999);
        assert!(map.anchor_count() < 10, "{}", map.anchor_count());
    }

    #[test]
    fn charset_maps() {
        let (text, map, bad) = to_utf8(b"a\xe9b http://x", WINDOWS_1252, true);
        assert_eq!(text, "aéb http://x");
        assert!(!bad);
        assert_eq!(map.raw_offset(1), 1);
        assert_eq!(map.raw_offset(3), 2);
        assert_eq!(map.raw_offset(text.find("http").unwrap()), 4);
        let sjis = Encoding::for_label(b"shift_jis").unwrap();
        // 0x83 0x5C is one character whose second byte is ASCII '\'.
        let (text, map, _) = to_utf8(b"x\x83\x5cy", sjis, true);
        assert_eq!(text, "xソy");
        assert_eq!(map.raw_offset(1), 1);
        assert_eq!(map.raw_offset(text.len() - 1), 3);
        let (text, map, bad) = to_utf8(b"ok\xff http", UTF_8, true);
        assert_eq!(text, "ok\u{fffd} http");
        assert!(bad);
        assert_eq!(map.raw_offset(text.find("http").unwrap()), 4);
    }

    #[test]
    fn replacement_labels_are_decoded() {
        for (label, cs) in [
            ("ISO-2022-KR", Charset::Iso2022Kr),
            ("csISO2022KR", Charset::Iso2022Kr),
            ("iso-2022-cn", Charset::Iso2022Cn),
            ("ISO-2022-CN-EXT", Charset::Iso2022Cn),
            ("HZ-GB-2312", Charset::Hz),
        ] {
            assert_eq!(Charset::for_label(label.as_bytes()), Some(cs));
        }
        assert_eq!(Charset::for_label(b"replacement"), None);
        assert_eq!(
            Charset::for_label(b"iso-2022-jp"),
            Some(Charset::Whatwg(ISO_2022_JP))
        );
    }

    #[test]
    fn iso_2022_jp_maps_each_character() {
        // `ESC $ B` + the pair `F|` (日), `ESC ( B`, then ASCII.
        let input = b"a\x1b$BF|\x1b(Bb http://x/";
        let (text, map, bad) = to_utf8(input, ISO_2022_JP, true);
        assert_eq!(text, "a日b http://x/");
        assert!(!bad);
        assert_eq!(map.raw_offset(0), 0);
        assert_eq!(map.raw_offset(1), 4, "the pair, after its escape");
        let b = text.find('b').unwrap();
        assert_eq!(map.raw_offset(b), 9, "after `ESC ( B`");
        let h = text.find("http").unwrap();
        assert_eq!(map.raw_offset(h), 11);
        assert_eq!(map.raw_offset(text.len()), input.len());
        // Not exact: everything at 0.
        let (_, map, _) = to_utf8(input, ISO_2022_JP, false);
        assert_eq!(map.raw_offset(h), 0);
    }

    /// ISO-2022-JP's map by definition: the bytes fed one at a time,
    /// each character at the byte that completed it less its width in
    /// bytes, never before the byte after the previous character's, an
    /// anchor each (ASCII advancing with the raw bytes); the text's end
    /// one past its last character's raw bytes (before an escape
    /// sequence after them).
    fn jp_map_by_definition(raw: &[u8]) -> OffsetMap {
        let mut dec = ISO_2022_JP.new_decoder_without_bom_handling();
        let (mut out, mut b) = (String::new(), MapBuilder::default());
        let mut from = 0;
        let mut last_end = 0;
        for i in 0..=raw.len() {
            let before = out.len();
            let last = i == raw.len();
            feed(&mut dec, raw.get(i..i + 1).unwrap_or(&[]), &mut out, last);
            let made: Vec<char> = out[before..].chars().collect();
            let end = (i + 1).min(raw.len());
            let mut firsts = vec![end; made.len()];
            let mut at = end;
            for (k, &c) in made.iter().enumerate().rev() {
                at = at.saturating_sub(iso_2022_jp_width(c)).max(from);
                firsts[k] = at;
            }
            let mut t = before;
            for (&c, &first) in made.iter().zip(&firsts) {
                b.push(t, first, c.is_ascii());
                t += c.len_utf8();
            }
            if !made.is_empty() {
                from = end;
                last_end = end;
            }
        }
        if !out.is_empty() {
            b.end_at(out.len(), last_end);
        }
        b.finish(0)
    }

    /// ISO-2022-JP decoded a segment at a time, and a byte at a time,
    /// gives the decoder's text and flag and maps each offset as
    /// defined (`jp_map_by_definition`), alone and composed with a
    /// transfer encoding's map, on random segments of each
    /// set, well-formed and not (escapes in a row, lone and unknown
    /// escapes, odd pairs, bytes outside the set, unmapped pairs, SO,
    /// line breaks); well-formed text goes in segments to its end, and
    /// its map is small either way.
    #[test]
    fn iso_2022_jp_maps_each_offset_as_defined() {
        let escapes: [&[u8]; 8] = [
            b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$B", b"\x1b$@", b"\x1b",
            b"\x1b(", b"\x1b$A",
        ];
        let bodies: [&[u8]; 10] = [
            b"ab", b"F|", b"$\"%N", b"\\~", b"6E", b"\n", b"\x0e", b"\xa4",
            b")!", b"x",
        ];
        let mut next = crate::testing::xorshift(0x2022_4a50_5345_4753);
        let mut fast = 0;
        for _ in 0..20_000 {
            let mut raw = Vec::new();
            for _ in 0..next() % 6 {
                if !next().is_multiple_of(4) {
                    raw.extend_from_slice(escapes[(next() % 8) as usize]);
                }
                for _ in 0..next() % 4 {
                    raw.extend_from_slice(bodies[(next() % 10) as usize]);
                }
            }
            let want = jp_map_by_definition(&raw);
            let (text, bad) = ISO_2022_JP.decode_without_bom_handling(&raw);
            // The map of a transfer encoding: runs, some jumping ahead
            // (soft line breaks).
            let mut b = MapBuilder::default();
            let (mut t, mut r) = (0, 0);
            while t <= raw.len() {
                b.push(t, r, true);
                let step = (next() % 4) as usize;
                t += step;
                r += step + (next() % 3) as usize;
            }
            let inner = b.finish(0);
            let one_by_one =
                stepwise_to_utf8(&raw, ISO_2022_JP, iso_2022_jp_width);
            for got in [iso_2022_jp_to_utf8(&raw), one_by_one] {
                assert_eq!((&*got.0, got.2), (&*text, bad), "{raw:x?}");
                let len = got.0.len();
                let (g, w) = (
                    got.1.then(len, inner.clone()),
                    want.then(len, inner.clone()),
                );
                for t in 0..=len {
                    let at = (t, got.1.raw_offset(t), g.raw_offset(t));
                    assert_eq!(at, (t, want.raw_offset(t), w.raw_offset(t)));
                }
            }
            fast += usize::from(iso_2022_jp_segments(&raw).1 > 0);
        }
        // Many inputs have a first segment that goes in one call.
        assert!(fast > 2_000, "{fast}");
        // Well-formed text goes in segments to its end.
        for _ in 0..2_000 {
            let mut raw = Vec::new();
            for _ in 0..next() % 6 {
                let (escape, body): (&[u8], &[u8]) = match next() % 4 {
                    0 => (b"\x1b(B", b"a http://x/\n"),
                    1 => (b"\x1b(J", b"\\~z"),
                    2 => (b"\x1b(I", b"6E"),
                    _ => (b"\x1b$B", b"F|$\"%N"),
                };
                raw.extend_from_slice(escape);
                for _ in 0..1 + next() % 20 {
                    raw.extend_from_slice(body);
                }
            }
            let ((_, map, _), in_segments) = iso_2022_jp_segments(&raw);
            assert_eq!(in_segments, raw.len(), "{raw:x?}");
            // A few anchors a segment, not one a character.
            let segments = raw.iter().filter(|&&b| b == 0x1b).count();
            let (_, one_by_one, _) =
                stepwise_to_utf8(&raw, ISO_2022_JP, iso_2022_jp_width);
            for map in [map, one_by_one] {
                assert!(map.anchor_count() <= 3 * segments + 1, "{raw:x?}");
            }
        }
    }

    #[test]
    fn utf16_maps_each_code_unit() {
        // Big-endian byte order mark under the UTF-16 (little-endian)
        // label: sniffed, as the Encoding Standard does.
        let mut input = b"\xfe\xff".to_vec();
        for u in "a\u{1f600}b".encode_utf16() {
            input.extend_from_slice(&u.to_be_bytes());
        }
        input.push(0); // an odd last byte
        let (text, map, bad) = to_utf8(&input, UTF_16LE, true);
        assert_eq!(text, "a\u{1f600}b\u{fffd}");
        assert!(bad);
        assert_eq!(map.raw_offset(0), 2);
        assert_eq!(map.raw_offset(1), 4);
        assert_eq!(map.raw_offset(5), 8);
        assert_eq!(map.raw_offset(6), 10);
        assert_eq!(map.raw_offset(text.len()), input.len());
    }

    #[test]
    fn seven_bit_edge_cases() {
        let kr = |b: &[u8]| {
            let c = convert(b, Charset::Iso2022Kr, true);
            (c.text, c.malformed)
        };
        // No designator: KS X 1001 all the same; SO state ends at the
        // line end; an unknown escape and a lone byte are U+FFFD.
        assert_eq!(kr(b"\x0e>H\nx"), ("\u{c548}\nx".to_string(), false));
        assert_eq!(kr(b"\x1bZa"), ("\u{fffd}Za".to_string(), true));
        assert_eq!(kr(b"\x0e>"), ("\u{fffd}".to_string(), true));
        assert_eq!(kr(b"\x0e> \x0fx"), ("\u{fffd} x".to_string(), true));
        // 8-bit EUC-KR under the 7-bit label.
        assert_eq!(kr(b"\xbe\xc8 a"), ("\u{c548} a".to_string(), true));
        assert_eq!(kr(b"\xff"), ("\u{fffd}".to_string(), true));
        // HZ: `~}` ends GB mode, `~~` is `~`, an odd `~` stays.
        let hz = |b: &[u8]| convert(b, Charset::Hz, true).text;
        assert_eq!(hz(b"~{VP~}~~a~b~"), "\u{4e2d}~a~b~");
        // Truncated escapes never read past the end.
        for b in [&b"\x1b"[..], b"\x1b$", b"\x1b$)", b"\x1bN", b"\x1bN!"] {
            let c = convert(b, Charset::Iso2022Cn, true);
            assert!(c.map.raw_offset(c.text.len()) <= b.len());
        }
    }

    /// HZ-GB-2312 text made of random pieces, each known to make text or
    /// not (shifts, line continuations): the end of the text maps one
    /// past the raw bytes of the last piece that made text, however the
    /// text ends (a GB pair, `~~`, 8-bit GB bytes, ASCII, a line end).
    #[test]
    fn hz_text_ends_after_its_last_character() {
        let ascii: [(&[u8], bool); 5] = [
            (b"a/", true),
            (b"~~", true),
            (b"\xd6\xd0", true),
            (b"~{", false),
            (b"~\n", false),
        ];
        let gb: [(&[u8], bool); 5] = [
            (b"VP", true),
            (b"F|", true),
            (b" ", true),
            (b"~}", false),
            (b"~\n", false),
        ];
        let mut next = crate::testing::xorshift(0x4a5a_6762_3233_3132);
        let mut split = 0;
        for _ in 0..5_000 {
            let (mut raw, mut want, mut shifted) = (Vec::new(), 0, false);
            for _ in 0..next() % 8 {
                let pieces = if shifted { &gb } else { &ascii };
                let (piece, makes) = pieces[(next() % 5) as usize];
                raw.extend_from_slice(piece);
                if makes {
                    want = raw.len();
                }
                if piece == b"~{" || piece == b"~}" {
                    shifted = !shifted;
                }
            }
            let c = convert(&raw, Charset::Hz, true);
            assert_eq!(c.map.raw_offset(c.text.len()), want, "{raw:x?}");
            split += usize::from(want < raw.len());
        }
        assert!(split > 500, "{split}");
    }

    #[test]
    fn every_charset_maps_inside_its_input() {
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1du64);
        let alphabet = b"\x1b\x0e\x0f$)(*+ABCGHN~{}\n\r!>Hh:/\x80\xfe\x00";
        let charsets = [
            Charset::Iso2022Kr,
            Charset::Iso2022Cn,
            Charset::Hz,
            Charset::Whatwg(ISO_2022_JP),
            Charset::Whatwg(UTF_16LE),
            Charset::Whatwg(UTF_16BE),
        ];
        for _ in 0..3000 {
            let len = (next() % 40) as usize;
            let input: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            for cs in charsets {
                let c = convert(&input, cs, true);
                let mut last = 0;
                for k in 0..=c.text.len() {
                    let r = c.map.raw_offset(k);
                    assert!(r <= input.len(), "{cs:?} {input:?}");
                    if c.text.is_char_boundary(k) {
                        assert!(r >= last, "{cs:?} {input:?} in order");
                        last = r;
                    }
                }
            }
        }
    }
}

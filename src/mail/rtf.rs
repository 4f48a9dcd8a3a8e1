//! Owns RTF as Outlook stores message bodies: compressed RTF
//! ([MS-OXRTFCP]) undone, and RTF read as the text it shows, or as the
//! HTML it encapsulates ([MS-OXRTFEX], `\fromhtml1`), so that the URLs
//! of either can be found.
//!
//! The reading is for finding URLs, not for rendering: control words are
//! dropped but for those that stand for text (`\par`, `\line`, `\tab`,
//! `\'hh`, `\uN`, escaped `\{ \} \\`); groups that hold no text (font,
//! colour and style tables, document information, pictures, binary data
//! of `\binN`) are left out; a field's instruction (`HYPERLINK "url"`)
//! is kept, since that is where a link's target is. In encapsulated HTML
//! the text inside `\htmlrtf ... \htmlrtf0` (RTF-only rendering) is left
//! out and the `{\*\htmltag ...}` groups give the HTML's tags.

use encoding_rs::{Encoding, WINDOWS_1252};

/// [MS-OXRTFCP] 2.1.3.1.1: the dictionary's initial contents.
const PRESET: &[u8] = b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx";

/// [MS-OXRTFCP] 2.1.3.1.1: `COMPRESSED`, `LZFu` read as a little-endian
/// number.
const LZFU: u32 = 0x7546_5A4C;
/// `UNCOMPRESSED`, `MELA`.
const MELA: u32 = 0x414C_454D;

/// Why compressed RTF could not be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RtfError {
    /// Shorter than its 16-byte header.
    Short,
    /// Neither `LZFu` nor `MELA`.
    UnknownType(u32),
}

impl std::fmt::Display for RtfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RtfError::Short => {
                f.write_str("compressed RTF shorter than its header")
            }
            RtfError::UnknownType(t) => {
                write!(f, "compressed RTF of unknown type {t:#010x}")
            }
        }
    }
}

/// Decompress `data` (PR_RTF_COMPRESSED, [MS-OXRTFCP] 2.2.1): the
/// header's sizes bound the work, never the allocation beyond `limit`
/// bytes of output. Data cut short gives what it holds.
pub(crate) fn decompress(
    data: &[u8],
    limit: usize,
) -> Result<Vec<u8>, RtfError> {
    let word = |i: usize| -> Option<u32> {
        Some(u32::from_le_bytes(data.get(i..i + 4)?.try_into().ok()?))
    };
    let (Some(comp_size), Some(raw_size), Some(kind)) =
        (word(0), word(4), word(8))
    else {
        return Err(RtfError::Short);
    };
    // COMPSIZE counts the bytes after itself: the rest of the header (12)
    // and the contents.
    let end = data.len().min((comp_size as usize).saturating_add(4));
    let body = data.get(16..end).unwrap_or_default();
    let limit = limit.min(raw_size as usize);
    match kind {
        MELA => Ok(body[..body.len().min(limit)].to_vec()),
        LZFU => Ok(lzfu(body, limit)),
        other => Err(RtfError::UnknownType(other)),
    }
}

/// [MS-OXRTFCP] 2.2.1.2: runs of eight items, each announced by a bit of
/// a control byte (low bit first): 0 a literal byte, 1 a two-byte
/// reference (big-endian: 12 bits of dictionary offset, 4 of length - 2)
/// into the 4096-byte dictionary; a reference to the write position
/// ends the data.
fn lzfu(body: &[u8], limit: usize) -> Vec<u8> {
    let mut dict = [0u8; 4096];
    dict[..PRESET.len()].copy_from_slice(PRESET);
    let mut write = PRESET.len();
    let mut out = Vec::with_capacity(limit.min(body.len() * 4));
    let mut i = 0;
    while i < body.len() && out.len() < limit {
        let control = body[i];
        i += 1;
        for bit in 0..8 {
            if control >> bit & 1 == 0 {
                let Some(&b) = body.get(i) else { return out };
                i += 1;
                dict[write] = b;
                write = (write + 1) % 4096;
                out.push(b);
            } else {
                let Some(r) = body.get(i..i + 2) else { return out };
                i += 2;
                let r = u16::from_be_bytes([r[0], r[1]]);
                let offset = usize::from(r >> 4);
                let len = usize::from(r & 0xF) + 2;
                if offset == write {
                    return out;
                }
                for k in 0..len {
                    let b = dict[(offset + k) % 4096];
                    dict[write] = b;
                    write = (write + 1) % 4096;
                    out.push(b);
                }
            }
            if out.len() >= limit {
                out.truncate(limit);
                return out;
            }
        }
    }
    out
}

/// Whether RTF encapsulates HTML ([MS-OXRTFEX] 2.1.3.1: `\fromhtml1` in
/// the header, before the first text).
pub(crate) fn is_html(rtf: &[u8]) -> bool {
    let head = &rtf[..rtf.len().min(1024)];
    memchr::memmem::find(head, b"\\fromhtml").is_some()
}

/// Whether RTF was made from plain text ([MS-OXRTFEX] 2.1.3.1:
/// `\fromtext` in the header).
pub(crate) fn is_from_text(rtf: &[u8]) -> bool {
    let head = &rtf[..rtf.len().min(1024)];
    memchr::memmem::find(head, b"\\fromtext").is_some()
}

/// Groups that hold no text: their contents are left out.
const SKIPPED: &[&[u8]] = &[
    b"fonttbl",
    b"colortbl",
    b"stylesheet",
    b"info",
    b"pict",
    b"filetbl",
    b"revtbl",
    b"listtable",
    b"listoverridetable",
    b"themedata",
    b"colorschememapping",
    b"datastore",
    b"latentstyles",
    b"rsidtbl",
    b"generator",
    b"xmlnstbl",
    b"objdata",
];

/// Destinations marked `\*` whose text is kept: a field's instruction
/// (`HYPERLINK "url"`) and encapsulated HTML's tags.
const KEPT_STARRED: &[&[u8]] = &[b"fldinst", b"htmltag", b"mhtmltag"];

/// The text RTF `rtf` shows, or for encapsulated HTML the HTML; code
/// pages from `\ansicpgN` (Windows-1252 without one).
pub(crate) fn to_text(rtf: &[u8]) -> String {
    let html = is_html(rtf);
    let mut out = String::new();
    // Bytes of `\'hh` escapes waiting to be decoded together (a
    // character of a double-byte code page takes two).
    let mut pending: Vec<u8> = Vec::new();
    let mut encoding: &'static Encoding = WINDOWS_1252;
    // Per group: skipped, inside \htmlrtf, the \ucN count.
    #[derive(Clone, Copy)]
    struct State {
        skip: bool,
        htmlrtf: bool,
        uc: usize,
    }
    let mut stack: Vec<State> = Vec::new();
    let mut st = State { skip: false, htmlrtf: false, uc: 1 };
    // Characters still to drop after a \uN (its fallback).
    let mut drop = 0usize;
    // After `{`: whether the next control word opens a destination.
    let mut group_start = false;
    let mut starred = false;
    let flush =
        |pending: &mut Vec<u8>, out: &mut String, enc: &'static Encoding| {
            if !pending.is_empty() {
                let (s, _, _) = enc.decode(pending);
                out.push_str(&s);
                pending.clear();
            }
        };
    let visible = |st: &State| !(st.skip || (html && st.htmlrtf));
    let mut i = 0;
    while i < rtf.len() {
        let b = rtf[i];
        match b {
            b'{' => {
                flush(&mut pending, &mut out, encoding);
                // Deep nesting is bounded by the input's length; a stack
                // of small states costs little.
                stack.push(st);
                group_start = true;
                starred = false;
                i += 1;
                continue;
            }
            b'}' => {
                flush(&mut pending, &mut out, encoding);
                st = stack.pop().unwrap_or(st);
                group_start = false;
                i += 1;
                continue;
            }
            b'\\' => {
                let Some(&next) = rtf.get(i + 1) else { break };
                if next == b'*' {
                    starred = true;
                    i += 2;
                    continue;
                }
                if next == b'\'' {
                    // \'hh: a byte of the code page.
                    let hex = rtf.get(i + 2..i + 4).and_then(|h| {
                        u8::from_str_radix(std::str::from_utf8(h).ok()?, 16)
                            .ok()
                    });
                    i += 4;
                    if drop > 0 {
                        drop -= 1;
                    } else if let Some(byte) = hex
                        && visible(&st)
                    {
                        pending.push(byte);
                    }
                    group_start = false;
                    continue;
                }
                if !next.is_ascii_alphabetic() {
                    // A control symbol: `\{`, `\}`, `\\` are text; `\~`
                    // a no-break space; others (`\-`, `\_`) nothing.
                    flush(&mut pending, &mut out, encoding);
                    i += 2;
                    let text = match next {
                        b'{' | b'}' | b'\\' => Some(next as char),
                        b'~' => Some(' '),
                        b'\n' | b'\r' => Some('\n'),
                        _ => None,
                    };
                    if let Some(c) = text
                        && visible(&st)
                    {
                        if drop > 0 {
                            drop -= 1;
                        } else {
                            out.push(c);
                        }
                    }
                    group_start = false;
                    continue;
                }
                // A control word: letters, an optional signed number, and
                // a space that belongs to it.
                let s = i + 1;
                let mut e = s;
                while e < rtf.len() && rtf[e].is_ascii_alphabetic() {
                    e += 1;
                }
                let word = &rtf[s..e];
                let ns = e;
                if e < rtf.len() && rtf[e] == b'-' {
                    e += 1;
                }
                while e < rtf.len() && rtf[e].is_ascii_digit() {
                    e += 1;
                }
                let num: Option<i64> = std::str::from_utf8(&rtf[ns..e])
                    .ok()
                    .and_then(|n| n.parse().ok());
                if e < rtf.len() && rtf[e] == b' ' {
                    e += 1;
                }
                i = e;
                if group_start {
                    group_start = false;
                    let skip = if starred {
                        !KEPT_STARRED.contains(&word)
                    } else {
                        SKIPPED.contains(&word)
                    };
                    if skip {
                        st.skip = true;
                    }
                }
                starred = false;
                if word == b"bin" {
                    // \binN: N bytes of binary data follow.
                    let n = num.unwrap_or(0).max(0) as usize;
                    i = i.saturating_add(n).min(rtf.len());
                    continue;
                }
                let text = match word {
                    b"par" | b"line" | b"sect" | b"page" | b"row" => {
                        Some("\n")
                    }
                    b"tab" | b"cell" => Some("\t"),
                    b"emspace" | b"enspace" | b"qmspace" => Some(" "),
                    b"lquote" | b"rquote" => Some("'"),
                    b"ldblquote" | b"rdblquote" => Some("\""),
                    _ => None,
                };
                match word {
                    b"ansicpg" => {
                        if let Some(enc) =
                            num.and_then(super::charset::codepage)
                        {
                            encoding = enc;
                        }
                    }
                    b"htmlrtf" => st.htmlrtf = num != Some(0),
                    // A \uN's fallback is a character or a few.
                    b"uc" => st.uc = num.unwrap_or(1).clamp(0, 8) as usize,
                    b"u" => {
                        flush(&mut pending, &mut out, encoding);
                        // \uN: a UTF-16 code unit, negative above 32767.
                        let unit = num.unwrap_or(0).rem_euclid(65536) as u32;
                        if visible(&st) {
                            let c = char::from_u32(unit).unwrap_or('\u{FFFD}');
                            out.push(c);
                        }
                        drop = st.uc;
                    }
                    _ => {}
                }
                if let Some(t) = text {
                    flush(&mut pending, &mut out, encoding);
                    // In encapsulated HTML, line breaks come from the HTML.
                    if visible(&st) && !html {
                        out.push_str(t);
                    }
                }
                continue;
            }
            b'\r' | b'\n' => {
                // Line breaks in RTF source are not text.
                i += 1;
                continue;
            }
            _ => {}
        }
        group_start = false;
        if drop > 0 {
            drop -= 1;
        } else if visible(&st) {
            if pending.is_empty() && b.is_ascii() {
                out.push(b as char);
            } else {
                pending.push(b);
            }
        }
        i += 1;
    }
    flush(&mut pending, &mut out, encoding);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_dictionary() {
        // [MS-OXRTFCP] 2.1.3.1.1: 207 bytes.
        assert_eq!(PRESET.len(), 207);
    }

    // [MS-OXRTFCP] 3.1.1 and 3.1.2: the specification's two examples.
    #[test]
    fn spec_examples() {
        let simple: &[u8] = &[
            0x2d, 0x00, 0x00, 0x00, 0x2b, 0x00, 0x00, 0x00, 0x4c, 0x5a, 0x46,
            0x75, 0xf1, 0xc5, 0xc7, 0xa7, 0x03, 0x00, 0x0a, 0x00, 0x72, 0x63,
            0x70, 0x67, 0x31, 0x32, 0x35, 0x42, 0x32, 0x0a, 0xf3, 0x20, 0x68,
            0x65, 0x6c, 0x09, 0x00, 0x20, 0x62, 0x77, 0x05, 0xb0, 0x6c, 0x64,
            0x7d, 0x0a, 0x80, 0x0f, 0xa0,
        ];
        assert_eq!(
            decompress(simple, 1 << 20).unwrap(),
            b"{\\rtf1\\ansi\\ansicpg1252\\pard hello world}\r\n"
        );
        let crossing: &[u8] = &[
            0x1a, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x4c, 0x5a, 0x46,
            0x75, 0xe2, 0xd4, 0x4b, 0x51, 0x41, 0x00, 0x04, 0x20, 0x57, 0x58,
            0x59, 0x5a, 0x0d, 0x6e, 0x7d, 0x01, 0x0e, 0xb0,
        ];
        assert_eq!(
            decompress(crossing, 1 << 20).unwrap(),
            b"{\\rtf1 WXYZWXYZWXYZWXYZWXYZ}"
        );
    }

    #[test]
    fn uncompressed_and_damaged() {
        let mut mela = vec![0u8; 16];
        mela[0..4].copy_from_slice(&(12u32 + 5).to_le_bytes());
        mela[4..8].copy_from_slice(&5u32.to_le_bytes());
        mela[8..12].copy_from_slice(&MELA.to_le_bytes());
        mela.extend_from_slice(b"{\\rtf}");
        assert_eq!(decompress(&mela, 100).unwrap(), b"{\\rtf");
        assert_eq!(decompress(&mela[..10], 100), Err(RtfError::Short));
        mela[8] = 0;
        assert!(matches!(
            decompress(&mela, 100),
            Err(RtfError::UnknownType(_))
        ));
        // The output is bounded by the limit, whatever the header says.
        let mut lz = vec![0u8; 16];
        lz[0..4].copy_from_slice(&1000u32.to_le_bytes());
        lz[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        lz[8..12].copy_from_slice(&LZFU.to_le_bytes());
        // References that each copy 17 bytes, never the end marker.
        for _ in 0..50 {
            lz.push(0xFF);
            lz.extend_from_slice(&[0x00, 0x0F].repeat(8));
        }
        assert_eq!(decompress(&lz, 1000).unwrap().len(), 1000);
    }

    #[test]
    fn text_of_rtf() {
        let rtf = br#"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}{\colortbl;\red0\green0\blue0;}
{\*\generator Riched20;}\pard See {\field{\*\fldinst{HYPERLINK "http://a.example/x"}}{\fldrslt{here}}}\par
caf\'e9 \u8364?5 \{x\}\par}"#;
        let t = to_text(rtf);
        assert!(t.contains(r#"HYPERLINK "http://a.example/x""#), "{t}");
        assert!(t.contains("here\n"), "{t}");
        assert!(t.contains("café €5 {x}\n"), "{t}");
        assert!(!t.contains("Arial") && !t.contains("Riched"), "{t}");
    }

    #[test]
    fn encapsulated_html() {
        // [MS-OXRTFEX] 2.1.3: the HTML's tags in \*\htmltag groups, the
        // RTF-only text between \htmlrtf and \htmlrtf0.
        let rtf = br#"{\rtf1\ansi\ansicpg1252\fromhtml1 \deff0{\fonttbl{\f0\fswiss Arial;}}
{\*\htmltag19 <html>}{\*\htmltag34 <body>}\htmlrtf {\htmlrtf0 Go to
{\*\htmltag84 <a href="https://b.example/p?q=1">}\htmlrtf {\field{\*\fldinst{HYPERLINK "https://b.example/p?q=1"}}{\fldrslt\cf1\ul \htmlrtf0 the page\htmlrtf }\htmlrtf0 \htmlrtf }\htmlrtf0
{\*\htmltag92 </a>}}{\*\htmltag42 </body>}{\*\htmltag27 </html>}}"#;
        assert!(is_html(rtf));
        let t = to_text(rtf);
        assert!(t.contains(r#"<a href="https://b.example/p?q=1">"#), "{t}");
        assert!(t.contains("the page"), "{t}");
        assert!(!t.contains("HYPERLINK"), "{t}");
    }

    #[test]
    fn binary_data_is_skipped() {
        let mut rtf = b"{\\rtf1 a{\\object\\bin6 ".to_vec();
        rtf.extend_from_slice(b"http:/");
        rtf.extend_from_slice(b"} b}");
        assert_eq!(to_text(&rtf), "a b");
    }
}

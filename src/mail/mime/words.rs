//! Header field values: RFC 2047 encoded words, decoded to UTF-8 with
//! their offsets kept.

use super::params::*;
use super::transfer::*;
use crate::hit::Decoded;
use crate::lex::find_short;
use crate::mail::charset::{Charset, feed, to_utf8};
use crate::mail::offsets::{MapBuilder, OffsetMap};
use crate::sanitize::excerpt;
use encoding_rs::{Decoder, Encoding, UTF_8, WINDOWS_1252};

/// Longest RFC 2047 encoded word accepted (the RFC says 75).
const MAX_ENCODED_WORD: usize = 2048;

/// One parsed encoded word.
pub(super) struct Word<'a> {
    pub(super) charset: &'a [u8],
    base64: bool,
    pub(super) payload: &'a [u8],
    /// Index just past the closing `?=`.
    pub(super) end: usize,
}

pub(super) fn parse_word(v: &[u8], at: usize) -> Option<Word<'_>> {
    let rest = v.get(at..)?;
    if !rest.starts_with(b"=?") {
        return None;
    }
    let limit = rest.len().min(MAX_ENCODED_WORD);
    let rest = rest.get(..limit)?;
    let q1 = 2 + rest.get(2..)?.iter().position(|&c| c == b'?')?;
    let charset = rest.get(2..q1)?;
    if charset.is_empty()
        || charset.iter().any(|&c| c <= b' ' || c >= 0x7f || c == b'=')
    {
        return None;
    }
    let enc = *rest.get(q1 + 1)?;
    if rest.get(q1 + 2) != Some(&b'?') {
        return None;
    }
    let base64 = match enc {
        b'B' | b'b' => true,
        b'Q' | b'q' => false,
        _ => return None,
    };
    let p0 = q1 + 3;
    let tail = rest.get(p0..)?;
    let close = find_short(tail, b"?=")?;
    let payload = tail.get(..close)?;
    if payload.iter().any(|&c| c == b' ' || c == b'\t') {
        return None;
    }
    let charset = charset.split(|&c| c == b'*').next().unwrap_or(charset);
    Some(Word { charset, base64, payload, end: at + p0 + close + 2 })
}

pub(super) fn charset_for(label: &[u8]) -> Option<Charset> {
    let s = String::from_utf8_lossy(label);
    if is_ascii_label(&s) {
        Some(Charset::Whatwg(UTF_8))
    } else {
        Charset::for_label(label)
    }
}

/// Decodes the encoded words of an unfolded header value. Returns the
/// text, its map to offsets in `v`, and the kind of the first word.
pub(super) fn decode_words(
    v: &[u8],
    warnings: &mut Vec<String>,
) -> (String, OffsetMap, Decoded) {
    let mut out = String::with_capacity(v.len());
    let mut b = MapBuilder::default();
    let mut decoded = Decoded::None;
    let mut plain_start = 0;
    let mut i = 0;
    // An open run of adjacent encoded words in one charset.
    let mut run: Option<(&'static Encoding, Decoder, Vec<u8>)> = None;
    while i < v.len() {
        let Some(p) = find_short(v.get(i..).unwrap_or(&[]), b"=?") else {
            break;
        };
        let at = i + p;
        let Some(word) = parse_word(v, at) else {
            i = at + 1;
            continue;
        };
        let between = v.get(plain_start..at).unwrap_or(&[]);
        let adjacent =
            run.is_some() && between.iter().all(|&c| c == b' ' || c == b'\t');
        if !adjacent {
            flush_run(&mut run, &mut out, &mut b, at);
            push_plain(between, plain_start, &mut out, &mut b, warnings);
        }
        if decoded == Decoded::None {
            decoded = if word.base64 {
                Decoded::Base64
            } else {
                Decoded::QuotedPrintable
            };
        }
        let bytes = if word.base64 {
            decode_base64(word.payload).0
        } else {
            unescape(word.payload, b'=', true)
        };
        let enc = match charset_for(word.charset) {
            Some(Charset::Whatwg(e)) => e,
            Some(cs) => {
                // A 7-bit charset of our own: each word stands alone,
                // whole characters (RFC 2047 section 5) starting in
                // ASCII (section 6.2).
                flush_run(&mut run, &mut out, &mut b, at);
                let conv = super::super::charset::convert(&bytes, cs, false);
                let name = cs.name();
                if conv.malformed {
                    warnings.push(format!(
                        "text not valid {name}, bad bytes replaced"
                    ));
                }
                if conv.unsupported {
                    warnings.push(format!(
                        "{name} characters of CNS 11643 replaced"
                    ));
                }
                b.push(out.len(), at, false);
                out.push_str(&conv.text);
                i = word.end;
                plain_start = word.end;
                continue;
            }
            None => {
                let cs = String::from_utf8_lossy(word.charset);
                warnings.push(format!(
                    "unknown charset {}, read as UTF-8 lossily",
                    excerpt(&cs)
                ));
                UTF_8
            }
        };
        if run.as_ref().is_some_and(|(e, _, _)| *e != enc) {
            flush_run(&mut run, &mut out, &mut b, at);
        }
        let (_, dec, _) = run.get_or_insert_with(|| {
            (enc, enc.new_decoder_without_bom_handling(), Vec::new())
        });
        let before = out.len();
        feed(dec, &bytes, &mut out, false);
        if out.len() > before {
            b.push(before, at, false);
        }
        i = word.end;
        plain_start = word.end;
    }
    flush_run(&mut run, &mut out, &mut b, v.len());
    push_plain(
        v.get(plain_start..).unwrap_or(&[]),
        plain_start,
        &mut out,
        &mut b,
        warnings,
    );
    (out, b.finish(0), decoded)
}

pub(super) fn flush_run(
    run: &mut Option<(&'static Encoding, Decoder, Vec<u8>)>,
    out: &mut String,
    b: &mut MapBuilder,
    at: usize,
) {
    if let Some((_, mut dec, _)) = run.take() {
        let before = out.len();
        feed(&mut dec, &[], out, true);
        if out.len() > before {
            b.push(before, at, false);
        }
    }
}

/// Unencoded header text: UTF-8 if valid, else windows-1252.
pub(super) fn push_plain(
    bytes: &[u8],
    offset: usize,
    out: &mut String,
    b: &mut MapBuilder,
    warnings: &mut Vec<String>,
) {
    if bytes.is_empty() {
        return;
    }
    // UTF-8 (most header text) is copied as it is, one run from
    // `offset`: the map `to_utf8` gives it, without its copy.
    if let Some(text) = crate::sieve::utf8(bytes) {
        b.push(out.len(), offset, true);
        out.push_str(text);
        return;
    }
    warnings.push("8-bit bytes read as windows-1252".to_string());
    let (text, map, _) = to_utf8(bytes, WINDOWS_1252, true);
    b.append(&map, out.len(), offset);
    out.push_str(&text);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain header text comes out as its conversion by `to_utf8` (UTF-8
    /// when valid, else windows-1252) appended: same text, same offsets.
    #[test]
    fn plain_text_is_its_conversion() {
        let pieces: [&[u8]; 6] =
            [b"ab", b" ", "\u{e9}".as_bytes(), b"\xe9", b"\xff", b"\xe2\x82"];
        let mut next = crate::testing::xorshift(0x0dd_ba11);
        for _ in 0..20_000 {
            let piece = |next: &mut dyn FnMut() -> u64| -> Vec<u8> {
                (0..next() % 6)
                    .flat_map(|_| {
                        pieces[next() as usize % pieces.len()].iter().copied()
                    })
                    .collect()
            };
            let (a, c) = (piece(&mut next), piece(&mut next));
            let (at_a, at_c) =
                (next() as usize % 50, 60 + next() as usize % 50);
            let (mut out, mut b, mut warnings) =
                (String::new(), MapBuilder::default(), Vec::new());
            push_plain(&a, at_a, &mut out, &mut b, &mut warnings);
            push_plain(&c, at_c, &mut out, &mut b, &mut warnings);
            let (mut want, mut wb, mut want_warnings) =
                (String::new(), MapBuilder::default(), Vec::new());
            for (bytes, at) in [(&a, at_a), (&c, at_c)] {
                if bytes.is_empty() {
                    continue;
                }
                let enc = match std::str::from_utf8(bytes) {
                    Ok(_) => UTF_8,
                    Err(_) => {
                        want_warnings.push(
                            "8-bit bytes read as windows-1252".to_string(),
                        );
                        WINDOWS_1252
                    }
                };
                let (text, map, _) = to_utf8(bytes, enc, true);
                wb.append(&map, want.len(), at);
                want.push_str(&text);
            }
            assert_eq!(out, want, "{a:?} {c:?}");
            assert_eq!(warnings, want_warnings, "{a:?} {c:?}");
            assert_eq!(b.finish(0), wb.finish(0), "{a:?} {c:?}");
        }
    }
}

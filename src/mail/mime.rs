//! MIME decoding of one RFC 5322 message into UTF-8 pieces to scan.
//!
//! [`parse_message`] takes the raw bytes of one message (an mbox
//! separator line already removed; CRLF or LF line ends) and returns the
//! text the URL scanner should look at, as [`Piece`]s: one per header
//! field whose value contains a `:` (but `Content-Class`, whose value is
//! a class name), and one per text part of the body
//! (`text/plain` and other `text/*` as [`PieceKind::Text`], `text/html` as
//! [`PieceKind::Html`]). Each piece has its transfer encoding
//! (quoted-printable, base64) undone, its charset converted to UTF-8,
//! `format=flowed` lines unwrapped, and an [`OffsetMap`] from offsets in
//! its text back to byte offsets in the raw message. The preamble and
//! the epilogue of a multipart, which RFC 2046 5.1.1 has MIME agents
//! ignore, are text people read (a mailing list's footer after the close
//! delimiter): each is a [`PieceKind::Text`] piece too.
//!
//! Every part also gets the base URI in effect for it
//! (draft-fielding-url-syntax-05 section 5.1): its own `Content-Base`,
//! else its `Content-Location` (resolved against the enclosing base when
//! relative), else the base of the enclosing multipart or message.
//!
//! Bad input never panics and never stops the walk: what can be decoded
//! is decoded, the rest is taken as it is, and [`Parsed::warnings`] says
//! what went wrong. Work is linear in the input times the nesting depth,
//! which is bounded by [`MimeOptions::max_depth`].

use super::charset::{Charset, convert, feed, to_utf8};
use crate::resolve::resolve_str;
use crate::sanitize::excerpt;
use crate::validate::Uri;
use encoding_rs::{Decoder, Encoding, UTF_8, WINDOWS_1252};
use memchr::memmem;

/// Limits and choices for [`parse_message`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MimeOptions {
    /// Deepest nesting of multiparts and embedded messages that is
    /// walked; the body of an entity deeper than this is scanned as
    /// undecoded `text/plain` (with a warning).
    pub max_depth: usize,
    /// Most MIME entities (the message itself, every part, every
    /// embedded message) walked in one message; the rest of each
    /// multipart and embedded message past the limit is scanned as
    /// undecoded `text/plain` (with a warning), a piece whose part is the
    /// multipart's path and `rest`.
    pub max_parts: usize,
    /// Scan non-text parts (images, `application/*`, ...) too, read as
    /// UTF-8 lossily after their transfer encoding is undone.
    pub attachments: bool,
    /// Leave out the header fields that cannot hold a URL with a scheme:
    /// ASCII without encoded words (nothing to decode) and without a
    /// colon after a letter (or after a digit and before `/`), like
    /// `Date` or `Received`.
    /// For a caller that looks for `scheme:` URLs only (not abbreviated
    /// forms, addresses or defanged URLs).
    pub skip_fields_without_scheme: bool,
}

impl Default for MimeOptions {
    /// Depth 32, 10,000 parts, no attachments, every header field.
    fn default() -> Self {
        MimeOptions {
            max_depth: 32,
            max_parts: 10_000,
            attachments: false,
            skip_fields_without_scheme: false,
        }
    }
}

/// Whether a raw header field value may hold a `scheme:` URL once
/// unfolded and decoded: it has a byte to decode (8-bit, or `=?` of an
/// RFC 2047 encoded word) or a colon that passes the scanner's early
/// reject. Unfolding removes only line breaks that are followed by
/// whitespace, so it changes neither byte around a colon that the
/// reject looks at into a letter, digit or `/`.
fn may_hold_scheme(raw: &[u8]) -> bool {
    !raw.is_ascii()
        || memchr::memmem::find(raw, b"=?").is_some()
        || memchr::memchr_iter(b':', raw)
            .any(|i| crate::scan::plausible(raw, i))
}

/// Where a piece of text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceKind {
    /// A header field; the field name as written (`List-Unsubscribe`).
    Header(String),
    /// A `text/*` part other than `text/html` (or, with
    /// [`MimeOptions::attachments`], a non-text part), or the preamble
    /// or epilogue of a multipart.
    Text,
    /// A `text/html` part: the HTML source, as UTF-8.
    Html,
}

/// Which transfer encoding was undone to get a piece's text (the type
/// of [`Hit`](crate::Hit)'s provenance): for a header field, the kind
/// of its RFC 2047 encoded words (`Q` as quoted-printable, `B` as
/// base64).
pub use crate::hit::Decoded;

/// Map from byte offsets in a piece's text to byte offsets in the raw
/// message.
///
/// Stored compactly as a sorted list of anchors: from an anchor's text
/// offset on, offsets either advance with the raw offsets (a run copied
/// unchanged), advance in characters of one width (two raw bytes for
/// each ASCII character in UTF-16, three for each quoted-printable
/// escape of ASCII, one raw byte for each two-byte character of a
/// single-byte charset), all map to one raw offset (an encoded word, a
/// base64 part), or follow a run of characters of mixed widths, one
/// byte each in a side table (text converted from a charset). Its size
/// is at most about one byte per character converted, whatever the
/// text; a run of characters of one width is one anchor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OffsetMap {
    anchors: Vec<Anchor>,
    /// The characters of the mixed runs: raw width << 3 | text width.
    chars: Vec<u8>,
}

/// Most characters in one mixed run: a lookup walks at most this many.
const RUN_CHARS: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Anchor {
    text: usize,
    raw: usize,
    /// With `den` > 0: from here on, each character of `den` text bytes
    /// came from `num` raw bytes, and all its bytes map to its first raw
    /// byte: (0, 1) all text maps to `raw`, (1, 1) copied unchanged,
    /// (2, 1) ASCII in UTF-16, (3, 1) quoted-printable escapes of ASCII.
    /// With `den` 0: a mixed run, whose characters are
    /// `OffsetMap::chars` from `run` on.
    num: u8,
    den: u8,
    run: u32,
}

/// A character of a mixed run: `raw` bytes that became `text` bytes;
/// `None` when it does not fit in a byte.
fn char_code(raw: usize, text: usize) -> Option<u8> {
    (raw < 32 && (1..8).contains(&text)).then_some((raw << 3 | text) as u8)
}

impl Anchor {
    fn ratio(text: usize, raw: usize, num: u8, den: u8) -> Anchor {
        Anchor { text, raw, num, den: den.max(1), run: 0 }
    }

    /// The raw offset of text offset `t`, for an anchor of one width.
    fn raw_at(&self, t: usize) -> usize {
        let chars = t.saturating_sub(self.text) / usize::from(self.den.max(1));
        self.raw.saturating_add(chars.saturating_mul(usize::from(self.num)))
    }
}

impl OffsetMap {
    /// The byte offset in the raw message of the text's byte at
    /// `text_offset`.
    ///
    /// Exact for text copied unchanged (7bit, 8bit, ASCII runs of an
    /// ASCII-compatible charset) and for quoted-printable (each decoded
    /// byte maps to its first raw byte: the `=` of `=3D`). A character
    /// converted from another charset maps to its first raw byte (in
    /// UTF-16 its first code unit; in ISO-2022-JP, ISO-2022-KR and HZ
    /// its first byte after the escape or shift that selected its set);
    /// text from an RFC 2047 encoded word maps to the word's `=?`; all
    /// the text of a base64 part maps to its first body line. An offset
    /// at or past the end of the text (a URL's end) continues the last
    /// run.
    pub fn raw_offset(&self, text_offset: usize) -> usize {
        let idx = self.anchors.partition_point(|a| a.text <= text_offset);
        match idx.checked_sub(1).and_then(|i| self.anchors.get(i)) {
            Some(a) => self.raw_in(a, text_offset),
            None => text_offset,
        }
    }

    /// The raw offset of text offset `t` under anchor `a`.
    fn raw_in(&self, a: &Anchor, t: usize) -> usize {
        if a.den > 0 {
            return a.raw_at(t);
        }
        let (mut at, mut raw) = (a.text, a.raw);
        let from = a.run as usize;
        for &c in self.chars.get(from..).unwrap_or(&[]).iter().take(RUN_CHARS)
        {
            let (r, w) = (usize::from(c >> 3), usize::from(c & 7));
            if t < at + w {
                break;
            }
            at += w;
            raw += r;
        }
        raw
    }

    /// How many anchors the map holds (a measure of its size).
    pub fn anchor_count(&self) -> usize {
        self.anchors.len()
    }

    /// The map of text copied unchanged from `raw_start` on.
    pub(super) fn linear_from(raw_start: usize) -> OffsetMap {
        let linear = Anchor::ratio(0, raw_start, 1, 1);
        OffsetMap { anchors: vec![linear], chars: Vec::new() }
    }

    /// The map of text that all maps to `raw`.
    pub(super) fn constant(raw: usize) -> OffsetMap {
        let constant = Anchor::ratio(0, raw, 0, 1);
        OffsetMap { anchors: vec![constant], chars: Vec::new() }
    }

    /// The characters of the mixed run of `a`, up to text offset `end`:
    /// (text offset, raw offset, raw width, text width) each.
    fn run_chars(
        &self,
        a: &Anchor,
        end: usize,
    ) -> impl Iterator<Item = (usize, usize, usize, usize)> + '_ {
        let (mut at, mut raw) = (a.text, a.raw);
        let from = a.run as usize;
        self.chars.get(from..).unwrap_or(&[]).iter().take(RUN_CHARS).map_while(
            move |&c| {
                let (r, w) = (usize::from(c >> 3), usize::from(c & 7));
                (at < end).then(|| {
                    let this = (at, raw, r, w);
                    at += w;
                    raw += r;
                    this
                })
            },
        )
    }

    /// This map (text -> mid) followed by `inner` (mid -> raw), for a
    /// text of `len` bytes. The inner maps (quoted-printable, yEnc,
    /// unfolding, `format=flowed`) have runs of one width only.
    fn then(&self, len: usize, inner: &OffsetMap) -> OffsetMap {
        if let [only] = inner.anchors[..]
            && (only.text, only.num, only.den) == (0, 1, 1)
        {
            // Inner text copied unchanged from `only.raw` on (a part in
            // 7bit or 8bit): this map, moved.
            let mut moved = self.clone();
            for a in &mut moved.anchors {
                a.raw = a.raw.saturating_add(only.raw);
            }
            return moved;
        }
        let mut b = MapBuilder::default();
        for (k, a) in self.anchors.iter().enumerate() {
            let end = self.anchors.get(k + 1).map_or(len, |n| n.text);
            if a.den == 0 {
                // Character by character: each maps to where its first
                // mid byte maps.
                // The inner anchors are walked along (mid offsets only
                // grow), not searched for each character.
                let mut k = inner.anchors.partition_point(|x| x.text <= a.raw);
                let mut inner_at = |mid: usize| {
                    while inner.anchors.get(k).is_some_and(|x| x.text <= mid) {
                        k += 1;
                    }
                    match k.checked_sub(1).and_then(|i| inner.anchors.get(i)) {
                        Some(x) => inner.raw_in(x, mid),
                        None => mid,
                    }
                };
                let mut raw = None;
                for (t, mid, r, w) in self.run_chars(a, end) {
                    let at = raw.unwrap_or_else(|| inner_at(mid));
                    let next = inner_at(mid + r);
                    b.push_char(t, at, next.saturating_sub(at), w);
                    raw = Some(next);
                }
                continue;
            }
            if a.num == 0 || end <= a.text {
                b.push(a.text, inner.raw_offset(a.raw), false);
                continue;
            }
            let (n, d) = (usize::from(a.num), usize::from(a.den));
            let mid_end = a.raw_at(end);
            let first = inner.anchors.partition_point(|x| x.text <= a.raw);
            let inner_num = first
                .checked_sub(1)
                .and_then(|i| inner.anchors.get(i))
                .map_or(1, |x| x.num);
            b.push_ratio(
                a.text,
                inner.raw_offset(a.raw),
                a.num.saturating_mul(inner_num),
                a.den,
            );
            for x in inner.anchors.iter().skip(first) {
                if x.text >= mid_end {
                    break;
                }
                debug_assert_eq!(x.den, 1, "an inner map of one width");
                // The first character whose mid offset is in x's run (a
                // run that starts inside a character takes the next).
                let t = a.text + (x.text - a.raw).div_ceil(n) * d;
                if t >= end {
                    break;
                }
                // (If a later inner anchor starts before this character
                // too, its turn replaces this anchor.)
                let raw = inner.raw_in(x, a.raw_at(t));
                b.push_ratio(t, raw, a.num.saturating_mul(x.num), a.den);
            }
        }
        b.finish(inner.raw_offset(0))
    }
}

/// Builds an [`OffsetMap`] from anchors pushed in text order, dropping
/// the ones that continue the previous run.
#[derive(Default)]
pub(super) struct MapBuilder {
    map: OffsetMap,
    /// Where the last anchor's mixed run ends (text, raw) and how many
    /// characters it has, while it is the last anchor.
    run_end: Option<(usize, usize, usize)>,
}

impl MapBuilder {
    /// From `text` on, text maps to `raw`: advancing with it (`linear`)
    /// or all to `raw`.
    pub(super) fn push(&mut self, text: usize, raw: usize, linear: bool) {
        self.push_ratio(text, raw, u8::from(linear), 1);
    }

    /// One character of `text_len` bytes at `text`, converted from the
    /// `raw_len` raw bytes at `raw`: characters of one width in a row
    /// make one anchor, others a mixed run. All its bytes map to its
    /// first raw byte.
    pub(super) fn push_char(
        &mut self,
        text: usize,
        raw: usize,
        raw_len: usize,
        text_len: usize,
    ) {
        let (num, den) = (u8::try_from(raw_len), u8::try_from(text_len));
        let last = self.map.anchors.last().copied();
        if let (Some(l), Ok(num), Ok(den)) = (last, num, den)
            && l.den > 0
            && l.den == den
            && l.num == num
            && text >= l.text
            && (text - l.text) % usize::from(den) == 0
            && l.raw_at(text) == raw
        {
            return; // the run of one width goes on
        }
        let Some(code) = char_code(raw_len, text_len) else {
            self.push_ratio(text, raw, 0, 1);
            return;
        };
        if let Some((t, r, n)) = self.run_end
            && t == text
            && r == raw
            && n < RUN_CHARS
        {
            self.map.chars.push(code);
            self.run_end = Some((text + text_len, raw + raw_len, n + 1));
            return;
        }
        // A lone character of one width before this one: a mixed run
        // from there.
        if let Some(l) = last
            && l.den > 0
            && l.num > 0
            && l.raw_at(text) == raw
            && text == l.text + usize::from(l.den)
            && let Some(first) = char_code(usize::from(l.num), text - l.text)
        {
            self.map.anchors.pop();
            self.start_run(l.text, l.raw, first);
            self.map.chars.push(code);
            self.run_end = Some((text + text_len, raw + raw_len, 2));
            return;
        }
        match (num, den) {
            (Ok(num), Ok(den)) => self.push_ratio(text, raw, num, den),
            _ => {
                self.start_run(text, raw, code);
                self.run_end = Some((text + text_len, raw + raw_len, 1));
            }
        }
    }

    /// Push a mixed-run anchor at (`text`, `raw`) whose first character
    /// is `code`.
    fn start_run(&mut self, text: usize, raw: usize, code: u8) {
        self.drop_from(text);
        let run = u32::try_from(self.map.chars.len()).unwrap_or(u32::MAX);
        self.map.anchors.push(Anchor { text, raw, num: 0, den: 0, run });
        self.map.chars.push(code);
    }

    /// Anchors come in text order; one that steps back replaces what it
    /// overlaps rather than breaking the order.
    fn drop_from(&mut self, text: usize) {
        while let Some(last) = self.map.anchors.last()
            && last.text >= text
        {
            if last.den == 0 {
                self.map.chars.truncate(last.run as usize);
            }
            self.map.anchors.pop();
            self.run_end = None;
        }
    }

    /// From `text` on, each character of `den` text bytes maps to `num`
    /// raw bytes, starting at `raw`.
    pub(super) fn push_ratio(
        &mut self,
        text: usize,
        raw: usize,
        num: u8,
        den: u8,
    ) {
        let den = den.max(1);
        self.drop_from(text);
        if let Some(last) = self.map.anchors.last()
            && last.den > 0
            && last.num == num
            && last.den == den
            && (text - last.text) % usize::from(den) == 0
            && last.raw_at(text) == raw
        {
            return;
        }
        self.run_end = None;
        self.map.anchors.push(Anchor::ratio(text, raw, num, den));
    }

    /// Appends `sub` (offsets relative to `text_base` and `raw_base`).
    pub(super) fn append(
        &mut self,
        sub: &OffsetMap,
        text_base: usize,
        raw_base: usize,
    ) {
        for (k, a) in sub.anchors.iter().enumerate() {
            if a.den > 0 {
                self.push_ratio(
                    text_base + a.text,
                    raw_base + a.raw,
                    a.num,
                    a.den,
                );
                continue;
            }
            let end = sub.anchors.get(k + 1).map_or(usize::MAX, |n| n.text);
            for (t, raw, r, w) in sub.run_chars(a, end) {
                self.push_char(text_base + t, raw_base + raw, r, w);
            }
        }
    }

    pub(super) fn finish(mut self, empty_raw: usize) -> OffsetMap {
        let anchors = &mut self.map.anchors;
        if anchors.first().is_none_or(|a| a.text != 0) {
            let raw = anchors.first().map_or(empty_raw, |a| a.raw);
            anchors.insert(0, Anchor::ratio(0, raw, 0, 1));
        }
        self.map
    }
}

/// One piece of text to scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Header field or body part.
    pub source: PieceKind,
    /// MIME part path: `""` for the message's own headers and for the
    /// body of a message that is not multipart; `"1"`, `"2"`, `"2.1"`
    /// for the children of multiparts (1-based, nested with dots). A
    /// part's own header fields and, for a `message/rfc822` part, the
    /// embedded message's header fields and its (non-multipart) body
    /// carry the part's path; the children of an embedded multipart
    /// are `"2.1"`, `"2.2"`, ... The preamble and the epilogue of a
    /// multipart (RFC 2046 5.1.1) are its path and `preamble` or
    /// `epilogue`: `"epilogue"` for the message's own multipart,
    /// `"2.preamble"` for that of a multipart in part 2 (a section
    /// name after a part number, as IMAP's `2.MIME` in RFC 3501 6.4.5).
    pub part: String,
    /// The transfer encoding that was undone.
    pub decoded: Decoded,
    /// The text, UTF-8. Header values are unfolded and their encoded
    /// words decoded; body text keeps its line ends (CRLF or LF). The
    /// yEnc blocks of [`PieceKind::Text`] pieces in an ASCII-compatible
    /// charset are left out.
    pub text: String,
    /// Text offsets to raw offsets.
    pub map: OffsetMap,
    /// The base URI in effect for this part (absolute), if any.
    pub base: Option<String>,
    /// Lowercased `type/subtype` of the part (for a header, of the
    /// entity whose header it is).
    pub content_type: String,
}

/// What [`parse_message`] found in one message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The top-level `Message-ID`, without the `<` `>`.
    pub message_id: Option<String>,
    /// Header pieces first, then body pieces, walking the MIME tree in
    /// raw order (an entity's header pieces come right before its
    /// body's pieces).
    pub pieces: Vec<Piece>,
    /// Human-readable notes on bad input, each at most once, such as
    /// `part 2: invalid base64 (decoded what could be)`.
    pub warnings: Vec<String>,
}

/// Most warnings kept for one message.
const MAX_WARNINGS: usize = 64;
/// Longest RFC 2047 encoded word accepted (the RFC says 75).
const MAX_ENCODED_WORD: usize = 2048;
/// Most RFC 2231 continuation sections joined for one parameter.
const MAX_SECTIONS: usize = 128;

/// Decodes one message: see the [module documentation](self).
pub fn parse_message(raw: &[u8], opts: &MimeOptions) -> Parsed {
    let mut pieces = Vec::new();
    let mut parsed = walk_message(raw, opts, &mut |_, p| pieces.push(p));
    parsed.pieces = pieces;
    parsed
}

/// Decodes one message as [`parse_message`] does, but gives each piece
/// to `each` as soon as it is decoded, with what is known so far (the
/// Message-ID is, from the first piece on: it is in the top-level
/// header; warnings may come later), so that only one piece is held at
/// a time; the [`Parsed`] returned has no pieces.
pub(crate) fn walk_message(
    raw: &[u8],
    opts: &MimeOptions,
    each: &mut dyn FnMut(&Parsed, Piece),
) -> Parsed {
    let mut w = Walker {
        raw,
        opts,
        parsed: Parsed::default(),
        each,
        entities: 0,
        parts_warned: false,
    };
    w.entity(0, raw.len(), "", 0, None, false, true);
    w.parsed
}

/// A header field, located in the raw message.
struct Field<'a> {
    /// As written (printable ASCII, borrowed from the message).
    name: &'a str,
    /// Raw range of the value: after the colon, up to (not including)
    /// the line end of its last line.
    value: (usize, usize),
}

/// What an entity's header says about its body.
#[derive(Default)]
struct Info {
    content_type: Option<String>,
    params: Params,
    transfer: Option<String>,
    base: Option<String>,
    location: Option<String>,
    attachment: bool,
    message_id: Option<String>,
}

struct Walker<'a, 'f> {
    raw: &'a [u8],
    opts: &'a MimeOptions,
    /// The Message-ID and the warnings; the pieces go to `each`.
    parsed: Parsed,
    each: &'f mut dyn FnMut(&Parsed, Piece),
    entities: usize,
    parts_warned: bool,
}

fn where_(path: &str) -> String {
    if path.is_empty() {
        "message".to_string()
    } else {
        format!("part {path}")
    }
}

fn child_path(path: &str, k: impl std::fmt::Display) -> String {
    if path.is_empty() { k.to_string() } else { format!("{path}.{k}") }
}

impl<'a> Walker<'a, '_> {
    fn warn(&mut self, msg: String) {
        let w = &mut self.parsed.warnings;
        if w.len() < MAX_WARNINGS && !w.contains(&msg) {
            w.push(msg);
        }
    }

    /// Walks one entity (header and body) in `raw[start..end]`.
    #[allow(clippy::too_many_arguments)]
    fn entity(
        &mut self,
        start: usize,
        end: usize,
        path: &str,
        depth: usize,
        inherited: Option<&str>,
        digest_child: bool,
        top: bool,
    ) {
        self.entities += 1;
        if self.entities > self.opts.max_parts {
            self.rest_as_text(start, end, path, inherited);
            return;
        }
        let (fields, body_start) = self.split_header(start, end, path);
        let info = self.header_info(&fields, path);
        if top {
            self.parsed.message_id = info.message_id.clone();
        }
        let base = self.part_base(&info, inherited, path);
        let ct = match &info.content_type {
            Some(ct) => ct.clone(),
            None if digest_child => "message/rfc822".to_string(),
            None => "text/plain".to_string(),
        };
        for f in &fields {
            self.header_piece(f, path, &base, &ct);
        }
        self.body(&info, &ct, body_start, end, path, depth, base.as_deref());
    }

    /// Splits the header section off `raw[start..end]`: the fields and
    /// where the body starts.
    fn split_header(
        &mut self,
        start: usize,
        end: usize,
        path: &str,
    ) -> (Vec<Field<'a>>, usize) {
        let raw = self.raw.get(..end).unwrap_or(self.raw);
        let mut fields: Vec<Field<'a>> = Vec::new();
        let mut pos = start;
        let mut first = true;
        while pos < end {
            let line_end =
                memchr::memchr(b'\n', raw.get(pos..).unwrap_or(&[]))
                    .map_or(end, |i| pos + i);
            let next = (line_end + 1).min(end);
            let mut content_end = line_end;
            if content_end > pos && raw.get(content_end - 1) == Some(&b'\r') {
                content_end -= 1;
            }
            let line = raw.get(pos..content_end).unwrap_or(&[]);
            if line.is_empty() {
                return (fields, next);
            }
            let is_first = first;
            first = false;
            if matches!(line.first(), Some(b' ' | b'\t')) {
                if let Some(f) = fields.last_mut() {
                    f.value.1 = content_end;
                }
                pos = next;
                continue;
            }
            match field_name(line) {
                Some((name, colon)) => {
                    fields.push(Field {
                        name,
                        value: (pos + colon + 1, content_end),
                    });
                }
                None if is_first && line.starts_with(b"From ") => {}
                None => {
                    let w = where_(path);
                    self.warn(format!(
                        "{w}: header ended by a line that is not a field"
                    ));
                    return (fields, pos);
                }
            }
            pos = next;
        }
        (fields, end)
    }

    /// The unfolded value of a field: its bytes and their raw offsets.
    fn unfold(&self, field: &Field<'_>) -> (Vec<u8>, OffsetMap) {
        let (s, e) = field.value;
        let v = self.raw.get(s..e).unwrap_or(&[]);
        let mut b = MapBuilder::default();
        let body = v.strip_suffix(b"\n").unwrap_or(v);
        if memchr::memchr(b'\n', body).is_none() {
            let v = body;
            // Not folded (most fields): one run, trimmed.
            let lead = v.iter().take_while(|&&c| c == b' ' || c == b'\t');
            let from = lead.count();
            let mut to = v.len();
            while to > from && matches!(v[to - 1], b' ' | b'\t' | b'\r') {
                to -= 1;
            }
            b.push(0, s + from, true);
            return (v[from..to].to_vec(), b.finish(s));
        }
        let mut bytes = Vec::with_capacity(v.len());
        // RFC 5322 2.2.3: unfolding removes each CRLF (or LF) that is
        // followed by whitespace; leading whitespace is dropped. The
        // value is copied a line at a time.
        let fold_at = |i: usize| {
            v[i] == b'\n' || (v[i] == b'\r' && v.get(i + 1) == Some(&b'\n'))
        };
        let mut i = 0;
        while i < v.len() && (matches!(v[i], b' ' | b'\t') || fold_at(i)) {
            i += 1;
        }
        while i < v.len() {
            let nl = memchr::memchr(b'\n', &v[i..]).map_or(v.len(), |p| i + p);
            let mut end = nl;
            if nl < v.len() && end > i && v[end - 1] == b'\r' {
                end -= 1;
            }
            if end > i {
                b.push(bytes.len(), s + i, true);
                bytes.extend_from_slice(&v[i..end]);
            }
            i = nl + 1;
        }
        while matches!(bytes.last(), Some(b' ' | b'\t' | b'\r')) {
            bytes.pop();
        }
        (bytes, b.finish(s))
    }

    fn header_info(&mut self, fields: &[Field<'_>], path: &str) -> Info {
        let mut info = Info::default();
        const SLOTS: [&str; 6] = [
            "content-type",
            "content-transfer-encoding",
            "content-base",
            "content-location",
            "content-disposition",
            "message-id",
        ];
        for f in fields {
            // Most fields are none of these: no lowercase copy for them.
            if !SLOTS.iter().any(|s| f.name.eq_ignore_ascii_case(s)) {
                continue;
            }
            let name = f.name.to_ascii_lowercase();
            let (bytes, _) = self.unfold(f);
            let value = String::from_utf8_lossy(&bytes).into_owned();
            match name.as_str() {
                "content-type" if info.content_type.is_none() => {
                    let (main, params) = parse_structured(&value);
                    let ct = if is_media_type(&main) {
                        main
                    } else {
                        let w = where_(path);
                        self.warn(format!(
                            "{w}: invalid Content-Type {:?}, \
                             read as text/plain",
                            excerpt(&main)
                        ));
                        "text/plain".to_string()
                    };
                    info.content_type = Some(ct);
                    info.params = params;
                }
                "content-transfer-encoding" if info.transfer.is_none() => {
                    let (main, _) = parse_structured(&value);
                    info.transfer = Some(main);
                }
                "content-base" if info.base.is_none() => {
                    info.base = Some(uri_value(&value));
                }
                "content-location" if info.location.is_none() => {
                    info.location = Some(uri_value(&value));
                }
                "content-disposition" => {
                    let (main, _) = parse_structured(&value);
                    info.attachment |= main == "attachment";
                }
                "message-id" if info.message_id.is_none() => {
                    info.message_id = message_id(&value);
                }
                _ => {}
            }
        }
        info
    }

    /// The base URI for an entity (section 5.1 of the url-syntax draft).
    fn part_base(
        &mut self,
        info: &Info,
        inherited: Option<&str>,
        path: &str,
    ) -> Option<String> {
        if let Some(cb) = info.base.as_deref().filter(|s| !s.is_empty()) {
            if Uri::parse(cb).is_absolute() {
                return Some(cb.to_string());
            }
            let w = where_(path);
            self.warn(format!("{w}: relative Content-Base ignored"));
        }
        if let Some(cl) = info.location.as_deref().filter(|s| !s.is_empty()) {
            if Uri::parse(cl).is_absolute() {
                return Some(cl.to_string());
            }
            // RFC 3986 section 5.2, as for every other reference.
            if let Some(Ok(r)) = inherited.map(|b| resolve_str(b, cl)) {
                return Some(r);
            }
        }
        inherited.map(str::to_string)
    }

    fn header_piece(
        &mut self,
        f: &Field<'_>,
        path: &str,
        base: &Option<String>,
        ct: &str,
    ) {
        // `Content-Class` (Microsoft Exchange, [MS-OXCMAIL]: the message's
        // PidNameContentClass) names a class of item, such as
        // `urn:content-classes:message` or
        // `http://content-classes.microsoft.com/exchange/conflict`: a
        // name in URI form that nothing dereferences, not a link.
        if f.name.eq_ignore_ascii_case("content-class") {
            return;
        }
        if self.opts.skip_fields_without_scheme {
            let raw = self.raw.get(f.value.0..f.value.1).unwrap_or(&[]);
            if !may_hold_scheme(raw) {
                return;
            }
        }
        let (bytes, unfold_map) = self.unfold(f);
        let mut warnings = Vec::new();
        let (text, map, decoded) = decode_words(&bytes, &mut warnings);
        for w in warnings {
            let p = where_(path);
            self.warn(format!("{p}: header {}: {w}", excerpt(f.name)));
        }
        if self.opts.skip_fields_without_scheme && !text.contains(':') {
            return;
        }
        let map = map.then(text.len(), &unfold_map);
        (self.each)(
            &self.parsed,
            Piece {
                source: PieceKind::Header(f.name.to_string()),
                part: path.to_string(),
                decoded,
                text,
                map,
                base: base.clone(),
                content_type: ct.to_string(),
            },
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn body(
        &mut self,
        info: &Info,
        ct: &str,
        start: usize,
        end: usize,
        path: &str,
        depth: usize,
        base: Option<&str>,
    ) {
        let (top, _) = ct.split_once('/').unwrap_or((ct, ""));
        let transfer = info.transfer.as_deref().unwrap_or("");
        let identity = matches!(transfer, "" | "7bit" | "8bit" | "binary");
        let composite = top == "multipart"
            || (identity
                && matches!(
                    ct,
                    "message/rfc822"
                        | "message/global"
                        | "message/news"
                        | "message/rfc822-headers"
                ));
        if composite && depth >= self.opts.max_depth {
            let w = where_(path);
            self.warn(format!("{w}: nested too deep, read as text/plain"));
            self.leaf(info, "text/plain", start, end, path, base, true);
            return;
        }
        if top == "multipart" {
            self.multipart(info, ct, start, end, path, depth, base);
        } else if composite {
            self.entity(start, end, path, depth + 1, base, false, false);
        } else if top == "text" || top == "message" {
            self.leaf(info, ct, start, end, path, base, top == "message");
        } else if matches!(
            ct,
            "application/pgp-signature"
                | "application/pgp-keys"
                | "application/pgp-encrypted"
        ) {
            // ASCII-armored OpenPGP (RFC 3156 4-6, RFC 4880 6.2): text,
            // whose `Comment:` lines are read by people.
            self.leaf(info, "text/plain", start, end, path, base, true);
        } else if self.opts.attachments {
            self.leaf(info, ct, start, end, path, base, true);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn multipart(
        &mut self,
        info: &Info,
        ct: &str,
        start: usize,
        end: usize,
        path: &str,
        depth: usize,
        base: Option<&str>,
    ) {
        let w = where_(path);
        let boundary = info.params.get("boundary").unwrap_or_default();
        if boundary.is_empty() {
            let ct = excerpt(ct);
            self.warn(format!("{w}: {ct} without boundary, read as text"));
            self.leaf(info, "text/plain", start, end, path, base, true);
            return;
        }
        let body = self.raw.get(start..end).unwrap_or(&[]);
        // No more parts than can still be walked: the split's list stays
        // within the part limit, however many delimiter lines there are.
        let room = self.opts.max_parts.saturating_sub(self.entities);
        let split = split_multipart(body, boundary.as_bytes(), room.max(1));
        if split.parts.is_empty() {
            self.warn(format!(
                "{w}: boundary of {} never found, read as text",
                excerpt(ct)
            ));
            self.leaf(info, "text/plain", start, end, path, base, true);
            return;
        }
        if !split.closed && split.rest.is_none() {
            let ct = excerpt(ct);
            self.warn(format!("{w}: {ct} has no close delimiter"));
        }
        let (s, e) = split.preamble;
        self.outside_parts(start + s, start + e, path, "preamble", base);
        let digest = ct == "multipart/digest";
        for (k, (s, e)) in split.parts.into_iter().enumerate() {
            if self.entities >= self.opts.max_parts {
                // A part could hold more parts than are left.
                self.rest_as_text(start + s, end, path, base);
                return;
            }
            let child = child_path(path, k + 1);
            self.entity(
                start + s,
                start + e,
                &child,
                depth + 1,
                base,
                digest,
                false,
            );
        }
        if let Some(r) = split.rest {
            self.rest_as_text(start + r, end, path, base);
            return;
        }
        let (s, e) = split.epilogue;
        self.outside_parts(start + s, start + e, path, "epilogue", base);
    }

    /// Past [`MimeOptions::max_parts`]: the rest of the multipart or
    /// embedded message at `path`, `raw[start..end]`, is read as text as
    /// written, like a preamble.
    fn rest_as_text(
        &mut self,
        start: usize,
        end: usize,
        path: &str,
        base: Option<&str>,
    ) {
        if !self.parts_warned {
            self.parts_warned = true;
            let n = self.opts.max_parts;
            self.warn(format!(
                "more than {n} MIME parts: the rest was read as text"
            ));
        }
        self.outside_parts(start, end, path, "rest", base);
    }

    /// The preamble or the epilogue of a multipart, `raw[start..end]`,
    /// as a `text/plain` piece whose part is the multipart's path and
    /// `which` (`"preamble"`, `"2.epilogue"`).
    ///
    /// RFC 2046 5.1.1 has MIME agents ignore both, but readers see them:
    /// mailing list managers append their footer after the close
    /// delimiter, and senders write notes before the first delimiter.
    /// The text is taken as written (no transfer encoding applies to it)
    /// and read as UTF-8, or as windows-1252 when it is not valid UTF-8,
    /// as an 8-bit part without a charset is; no warning is given, since
    /// nothing was declared. Blank text gives no piece, nor, with
    /// [`MimeOptions::skip_fields_without_scheme`], text without a colon
    /// that may end a scheme (such as the usual `This is a multi-part
    /// message in MIME format.`).
    fn outside_parts(
        &mut self,
        start: usize,
        end: usize,
        path: &str,
        which: &str,
        base: Option<&str>,
    ) {
        let bytes = self.raw.get(start..end).unwrap_or(&[]);
        if bytes.iter().all(u8::is_ascii_whitespace)
            || (self.opts.skip_fields_without_scheme
                && !may_hold_scheme(bytes))
        {
            return;
        }
        let (bytes, map) =
            without_yenc(bytes.to_vec(), OffsetMap::linear_from(start));
        let enc = if std::str::from_utf8(&bytes).is_ok() {
            UTF_8
        } else {
            WINDOWS_1252
        };
        let conv = convert(&bytes, Charset::Whatwg(enc), true);
        let map = conv.map.then(conv.text.len(), &map);
        (self.each)(
            &self.parsed,
            Piece {
                source: PieceKind::Text,
                part: child_path(path, which),
                decoded: Decoded::None,
                text: conv.text,
                map,
                base: base.map(str::to_string),
                content_type: "text/plain".to_string(),
            },
        );
    }

    /// A part whose text becomes a piece. `lenient`: a part read as text
    /// although it is not `text/*`.
    #[allow(clippy::too_many_arguments)]
    fn leaf(
        &mut self,
        info: &Info,
        ct: &str,
        start: usize,
        end: usize,
        path: &str,
        base: Option<&str>,
        lenient: bool,
    ) {
        let w = where_(path);
        let body = self.raw.get(start..end).unwrap_or(&[]);
        let transfer = info.transfer.as_deref().unwrap_or("");
        // Text appended after a base64 part's data, as mailing list
        // managers append their footer to a one-part message.
        let mut trailer = None;
        let (bytes, map, decoded) = match transfer {
            "quoted-printable" => {
                let (bytes, map, clean) = decode_qp(body, start);
                if !clean {
                    self.warn(format!(
                        "{w}: invalid quoted-printable (kept as written)"
                    ));
                }
                (bytes, map, Decoded::QuotedPrintable)
            }
            "base64" => {
                let data = base64_extent(body);
                trailer = (data < body.len()).then_some(start + data);
                let (bytes, clean) = decode_base64(&body[..data]);
                if !clean {
                    self.warn(format!(
                        "{w}: invalid base64 (decoded what could be)"
                    ));
                }
                (bytes, OffsetMap::constant(start), Decoded::Base64)
            }
            t if looks_quoted_printable(body) => {
                // Spam often sends quoted-printable without saying so:
                // `=3D` in attributes and `=` at line ends.
                self.warn(format!(
                    "{w}: quoted-printable though declared {:?}, decoded",
                    if t.is_empty() { "7bit".into() } else { excerpt(t) }
                ));
                let (bytes, map, _) = decode_qp(body, start);
                (bytes, map, Decoded::QuotedPrintable)
            }
            t => {
                if !matches!(t, "" | "7bit" | "8bit" | "binary") {
                    self.warn(format!(
                        "{w}: unknown transfer encoding {:?}, read as is",
                        excerpt(t)
                    ));
                }
                (body.to_vec(), OffsetMap::linear_from(start), Decoded::None)
            }
        };
        let label = info.params.get("charset");
        let (charset, declared_ascii) = match label.as_deref() {
            None => (Charset::Whatwg(UTF_8), true),
            Some(l) if is_ascii_label(l) => (Charset::Whatwg(UTF_8), true),
            Some(l) => match Charset::for_label(l.trim().as_bytes()) {
                Some(c) => (c, false),
                None => {
                    self.warn(format!(
                        "{w}: unknown charset {}, read as UTF-8 lossily",
                        excerpt(l)
                    ));
                    (Charset::Whatwg(UTF_8), false)
                }
            },
        };
        // yEnc blocks hold binary data: left out of text (not HTML) in a
        // charset where their lines are ASCII lines.
        let (bytes, map) =
            if ct != "text/html" && charset.is_ascii_compatible() {
                without_yenc(bytes, map)
            } else {
                (bytes, map)
            };
        let (bytes, map) = if ct == "text/plain"
            && !lenient
            && charset.is_ascii_compatible()
            && info
                .params
                .get("format")
                .is_some_and(|f| f.eq_ignore_ascii_case("flowed"))
        {
            let delsp = info
                .params
                .get("delsp")
                .is_some_and(|d| d.eq_ignore_ascii_case("yes"));
            let (out, fmap) = unflow(&bytes, delsp);
            let len = out.len();
            (out, fmap.then(len, &map))
        } else {
            (bytes, map)
        };
        let mut charset = charset;
        if declared_ascii && std::str::from_utf8(&bytes).is_err() && !lenient {
            self.warn(format!(
                "{w}: 8-bit text without charset, read as windows-1252"
            ));
            charset = Charset::Whatwg(WINDOWS_1252);
        }
        // All the text of a base64 part maps to its first line: no
        // finer map is needed.
        let exact = decoded != Decoded::Base64;
        let conv = convert(&bytes, charset, exact);
        let name = charset.name();
        if conv.malformed && !lenient {
            self.warn(format!(
                "{w}: text not valid {name}, bad bytes replaced"
            ));
        }
        if conv.unsupported && !lenient {
            self.warn(format!("{w}: {name} characters of CNS 11643 replaced"));
        }
        let (text, cmap) = (conv.text, conv.map);
        let map = cmap.then(text.len(), &map);
        let source =
            if ct == "text/html" { PieceKind::Html } else { PieceKind::Text };
        (self.each)(
            &self.parsed,
            Piece {
                source,
                part: path.to_string(),
                decoded,
                text,
                map,
                base: base.map(str::to_string),
                content_type: ct.to_string(),
            },
        );
        if let Some(from) = trailer {
            self.outside_parts(from, end, path, "trailer", base);
        }
    }
}

/// The field name of a header line and the index of its colon.
fn field_name(line: &[u8]) -> Option<(&str, usize)> {
    let colon = memchr::memchr(b':', line)?;
    let name = line.get(..colon)?;
    let trimmed_len = name
        .iter()
        .rposition(|&c| c != b' ' && c != b'\t')
        .map_or(0, |i| i + 1);
    let name = name.get(..trimmed_len)?;
    if name.is_empty() || !name.iter().all(|&c| (33..=126).contains(&c)) {
        return None;
    }
    // Printable ASCII: UTF-8 as it is.
    Some((std::str::from_utf8(name).ok()?, colon))
}

fn is_media_type(s: &str) -> bool {
    let tok = |t: &str| {
        !t.is_empty()
            && t.bytes().all(|c| {
                c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c)
            })
    };
    s.split_once('/').is_some_and(|(a, b)| tok(a) && tok(b))
}

fn is_ascii_label(l: &str) -> bool {
    let l = l.trim().to_ascii_lowercase();
    matches!(
        l.as_str(),
        "" | "us-ascii" | "ascii" | "ansi_x3.4-1968" | "us" | "iso646-us"
    )
}

/// A `Content-Base` or `Content-Location` value: whitespace removed
/// (section 5.1.1 of the url-syntax draft), `<...>` and quotes dropped.
fn uri_value(value: &str) -> String {
    let s: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    let s =
        s.strip_prefix('<').and_then(|t| t.strip_suffix('>')).unwrap_or(&s);
    let s = s.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(s);
    s.to_string()
}

fn message_id(value: &str) -> Option<String> {
    let v = value.trim();
    let id = match (v.find('<'), v.find('>')) {
        (Some(a), Some(b)) if a < b => v.get(a + 1..b).unwrap_or(""),
        _ => v,
    };
    let id = id.trim();
    if id.is_empty() { None } else { Some(id.to_string()) }
}

// ---------------------------------------------------------------------
// Structured header values: Content-Type parameters, RFC 2231.

/// Parameters of a structured header field, names lowercased.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Params {
    list: Vec<(String, String)>,
}

impl Params {
    fn get(&self, name: &str) -> Option<String> {
        self.list.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    }
}

/// Splits `type/subtype; a=b; c="d"` into the lowercased main value
/// (whitespace and comments removed) and its parameters.
fn parse_structured(value: &str) -> (String, Params) {
    let mut segments: Vec<String> = Vec::new();
    // Each segment is at most the whole value: one allocation each.
    let mut cur = String::with_capacity(value.len());
    let mut quoted = false;
    let mut escaped = false;
    let mut comment = 0usize;
    for c in value.chars() {
        if quoted {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
            continue;
        }
        if comment > 0 {
            match c {
                '(' => comment += 1,
                ')' => comment -= 1,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                quoted = true;
                cur.push(c);
            }
            '(' => comment = 1,
            ';' => segments.push(std::mem::replace(
                &mut cur,
                String::with_capacity(value.len()),
            )),
            _ => cur.push(c),
        }
    }
    segments.push(cur);
    let mut iter = segments.into_iter();
    let main: String = iter
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    // (base name, section, extended, value)
    let mut raw_params: Vec<(String, Option<usize>, bool, String)> =
        Vec::new();
    for seg in iter {
        let Some((name, val)) = seg.split_once('=') else { continue };
        let name = name.trim().to_ascii_lowercase();
        let val = unquote(val.trim());
        let (name, extended) = match name.strip_suffix('*') {
            Some(n) => (n.to_string(), true),
            None => (name, false),
        };
        let (base, section) = match name.split_once('*') {
            Some((b, n)) => match n.parse::<usize>() {
                Ok(n) => (b.to_string(), Some(n)),
                Err(_) => (name.clone(), None),
            },
            None => (name, None),
        };
        if !base.is_empty() {
            raw_params.push((base, section, extended, val));
        }
    }
    let mut params = Params::default();
    for (base, _, _, val) in &raw_params {
        if params.list.iter().any(|(n, _)| n == base) {
            continue;
        }
        let rfc2231 = raw_params
            .iter()
            .any(|(b, s, e, _)| b == base && (s.is_some() || *e));
        // An RFC 2231 form wins over a plain value beside it.
        let value = if rfc2231 {
            join_2231(base, &raw_params).unwrap_or_else(|| val.clone())
        } else {
            val.clone()
        };
        params.list.push((base.clone(), value));
    }
    (main, params)
}

fn unquote(v: &str) -> String {
    let Some(inner) = v.strip_prefix('"') else { return v.to_string() };
    let mut out = String::new();
    let mut escaped = false;
    for c in inner.chars() {
        if escaped {
            out.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

/// Joins the RFC 2231 sections of parameter `base` (`name*=` or
/// `name*0*=`, `name*1=`, ...) and decodes them.
fn join_2231(
    base: &str,
    all: &[(String, Option<usize>, bool, String)],
) -> Option<String> {
    let mut bytes = Vec::new();
    let mut charset: Option<String> = None;
    let single =
        all.iter().find(|(b, s, e, _)| b == base && s.is_none() && *e);
    let mut sections: Vec<(usize, bool, &str)> = Vec::new();
    if let Some((_, _, _, v)) = single {
        sections.push((0, true, v));
    } else {
        for n in 0..MAX_SECTIONS {
            let Some((_, _, e, v)) =
                all.iter().find(|(b, s, _, _)| b == base && *s == Some(n))
            else {
                break;
            };
            sections.push((n, *e, v));
        }
    }
    if sections.is_empty() {
        return None;
    }
    for (n, extended, v) in sections {
        if !extended {
            bytes.extend_from_slice(v.as_bytes());
            continue;
        }
        let mut v = v;
        if n == 0 {
            let mut it = v.splitn(3, '\'');
            if let (Some(cs), Some(_lang), Some(rest)) =
                (it.next(), it.next(), it.next())
            {
                charset = Some(cs.to_string());
                v = rest;
            }
        }
        bytes.extend(unescape(v.as_bytes(), b'%', false));
    }
    let enc = charset
        .as_deref()
        .filter(|c| !is_ascii_label(c))
        .and_then(|c| Encoding::for_label(c.as_bytes()))
        .unwrap_or(UTF_8);
    Some(enc.decode_without_bom_handling(&bytes).0.into_owned())
}

fn hex_pair(a: Option<&u8>, b: Option<&u8>) -> Option<u8> {
    let hex = crate::lex::hex_val;
    Some(hex(*a?)? << 4 | hex(*b?)?)
}

/// `v` with each `marker` followed by two hex digits decoded (`%41` in
/// RFC 2231 values, `=41` in RFC 2047 Q words, where `_` is also a
/// space when `underscore_space`); anything else is kept as it is.
fn unescape(v: &[u8], marker: u8, underscore_space: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while let Some(&c) = v.get(i) {
        let pair = if c == marker {
            hex_pair(v.get(i + 1), v.get(i + 2))
        } else {
            None
        };
        if let Some(b) = pair {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(if underscore_space && c == b'_' { b' ' } else { c });
        i += 1;
    }
    out
}

// ---------------------------------------------------------------------
// Header values: RFC 2047 encoded words.

/// One parsed encoded word.
struct Word<'a> {
    charset: &'a [u8],
    base64: bool,
    payload: &'a [u8],
    /// Index just past the closing `?=`.
    end: usize,
}

fn parse_word(v: &[u8], at: usize) -> Option<Word<'_>> {
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
    let close = memmem::find(tail, b"?=")?;
    let payload = tail.get(..close)?;
    if payload.iter().any(|&c| c == b' ' || c == b'\t') {
        return None;
    }
    let charset = charset.split(|&c| c == b'*').next().unwrap_or(charset);
    Some(Word { charset, base64, payload, end: at + p0 + close + 2 })
}

fn charset_for(label: &[u8]) -> Option<Charset> {
    let s = String::from_utf8_lossy(label);
    if is_ascii_label(&s) {
        Some(Charset::Whatwg(UTF_8))
    } else {
        Charset::for_label(label)
    }
}

/// Decodes the encoded words of an unfolded header value. Returns the
/// text, its map to offsets in `v`, and the kind of the first word.
fn decode_words(
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
        let Some(p) = memmem::find(v.get(i..).unwrap_or(&[]), b"=?") else {
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
                let conv = super::charset::convert(&bytes, cs, false);
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

fn flush_run(
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
fn push_plain(
    bytes: &[u8],
    offset: usize,
    out: &mut String,
    b: &mut MapBuilder,
    warnings: &mut Vec<String>,
) {
    if bytes.is_empty() {
        return;
    }
    let enc = if std::str::from_utf8(bytes).is_ok() {
        UTF_8
    } else {
        warnings.push("8-bit bytes read as windows-1252".to_string());
        WINDOWS_1252
    };
    let (text, map, _) = to_utf8(bytes, enc, true);
    b.append(&map, out.len(), offset);
    out.push_str(&text);
}

// ---------------------------------------------------------------------
// Transfer encodings and charsets.

/// Whether a body not declared quoted-printable plainly is, judged only
/// on evidence no unencoded text gives by chance, because a wrong guess
/// would change URLs that are right as written (`?q=da-x` would become
/// `?q\u{da}-x`):
///
/// - every `=` is one an encoder writes (RFC 2045 6.7): a soft line
///   break (`=` before the line end, rule 5, transport padding allowed)
///   or `=` and two hexadecimal digits in uppercase, as rule 1 requires
///   of encoders (a lowercase pair, `=0 ` or `="` rules the guess out);
/// - there is an encoded `=` (`=3D`, which rule 1 makes every encoder
///   write for a literal `=`) and a soft line break;
/// - no escape inside a `scheme://` run (up to whitespace, a quote or
///   `<` `>`) decodes to anything but printable ASCII: an encoded URL
///   decodes to a URL (RFC 3986 section 2 allows only those characters),
///   while `?id=C3FF` written as is would decode to bytes no URL has.
///
/// Lines of MIME structure are not looked at: a delimiter line (`--`
/// and a boundary, RFC 2046 5.1.1) and the header fields that follow
/// it. They are found in the body of a multipart whose own
/// `Content-Type` was lost (the body is then read as one text, its
/// parts' bodies encoded, their delimiters and headers not).
fn looks_quoted_printable(body: &[u8]) -> bool {
    // Most bodies have no `=3D`: no need to read them line by line.
    if memmem::find(body, b"=3D").is_none() {
        return false;
    }
    let mut encoded_eq = false;
    let mut soft = false;
    // Whether the `=` being looked at is inside a `scheme://` run.
    let mut in_url = false;
    let mut in_part_header = false;
    let mut start = 0;
    while start < body.len() {
        let rest = body.get(start..).unwrap_or(&[]);
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let line = rest.get(..end).unwrap_or(&[]);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        start += end + 1;
        if in_part_header {
            in_part_header = !line.is_empty();
            continue;
        }
        if is_delimiter_line(line) {
            let next = body.get(start..).unwrap_or(&[]);
            let next = next.split(|&c| c == b'\n').next().unwrap_or(&[]);
            in_part_header = field_name(next).is_some();
            in_url = false;
            continue;
        }
        let mut read = 0;
        let mut soft_here = false;
        for i in memchr::memchr_iter(b'=', line) {
            let before = line.get(read..i).unwrap_or(&[]);
            in_url = url_run_continues(before, in_url);
            let after = line.get(i + 1..).unwrap_or(&[]);
            if after.iter().all(|&c| c == b' ' || c == b'\t') {
                // A soft break: the run goes on after the line end.
                soft_here = true;
                break;
            }
            let upper = |c: Option<&u8>| {
                c.is_some_and(|c| matches!(c, b'0'..=b'9' | b'A'..=b'F'))
            };
            let (a, b) = (line.get(i + 1), line.get(i + 2));
            let Some(v) = hex_pair(a, b).filter(|_| upper(a) && upper(b))
            else {
                return false;
            };
            if in_url && !(0x21..=0x7e).contains(&v) {
                return false;
            }
            encoded_eq |= v == b'=';
            read = i + 3;
        }
        soft |= soft_here;
        in_url &= soft_here;
    }
    encoded_eq && soft
}

/// A multipart delimiter line: `--` and a boundary without whitespace
/// (RFC 2046 5.1.1; trailing whitespace allowed).
fn is_delimiter_line(line: &[u8]) -> bool {
    let rest = line.strip_prefix(b"--").unwrap_or(&[]).trim_ascii_end();
    !rest.is_empty() && !rest.iter().any(|&c| c == b' ' || c == b'\t')
}

/// Whether a `scheme://` run that was open (`open`) before `bytes`, or
/// starts in them, is still open after them: a run starts at `://` and
/// ends at whitespace, a quote, `<` or `>`.
fn url_run_continues(bytes: &[u8], open: bool) -> bool {
    let stop = |c: &u8| {
        matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'"' | b'\'' | b'<' | b'>')
    };
    match bytes.iter().rposition(stop) {
        Some(d) => {
            memmem::find(bytes.get(d..).unwrap_or(&[]), b"://").is_some()
        }
        None => open || memmem::find(bytes, b"://").is_some(),
    }
}

/// Decodes quoted-printable `body` (at raw offset `base`). Returns the
/// bytes, their map, and whether the input was valid.
fn decode_qp(body: &[u8], base: usize) -> (Vec<u8>, OffsetMap, bool) {
    let mut out = Vec::with_capacity(body.len());
    let mut b = MapBuilder::default();
    let mut clean = true;
    // Whether the output ends inside a `scheme://` run (no whitespace
    // since its `://`).
    let mut in_url = false;
    let mut i = 0;
    while i < body.len() {
        let rest = body.get(i..).unwrap_or(&[]);
        let run = memchr::memchr(b'=', rest).unwrap_or(rest.len());
        if run > 0 {
            b.push(out.len(), base + i, true);
            let text = rest.get(..run).unwrap_or(&[]);
            let from = out.len().saturating_sub(2);
            out.extend_from_slice(text);
            in_url = url_run_continues(&out[from..], in_url);
            i += run;
            continue;
        }
        // body[i] is '='.
        let mut j = i + 1;
        while matches!(body.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        match (body.get(j), body.get(j + 1)) {
            (Some(b'\r'), Some(b'\n')) => {
                i = j + 2;
                continue;
            }
            (Some(b'\n'), _) | (None, _) => {
                i = j + 1;
                continue;
            }
            _ => {}
        }
        let escape = hex_pair(body.get(i + 1), body.get(i + 2))
            .filter(|&v| !in_url || url_escape(&body[i + 1..i + 3], v));
        if let Some(v) = escape {
            b.push_ratio(out.len(), base + i, 3, 1);
            out.push(v);
            in_url = url_run_continues(&[v], in_url);
            i += 3;
        } else {
            clean = false;
            b.push(out.len(), base + i, true);
            out.push(b'=');
            i += 1;
        }
    }
    (out, b.finish(base), clean)
}

/// Whether the escape `=` `hex` (value `v`) inside a URL was written by
/// a quoted-printable encoder: upper-case hex (RFC 2045 6.7 (1): "must
/// be used") and a byte that is text, not a control. Otherwise it is a
/// `=` of the URL that its writer left unencoded (`?id=dcx007`,
/// `?spam_id=100115`) and stays as written.
fn url_escape(hex: &[u8], v: u8) -> bool {
    !hex.iter().any(u8::is_ascii_lowercase)
        && (v >= 0x20 && v != 0x7F || matches!(v, b'\t' | b'\r' | b'\n'))
}

fn b64_value(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

/// Decodes base64, skipping whitespace and (with a `false` result)
/// other characters, up to the first `=`.
/// The length of the base64 data at the start of a part's body: up to
/// the first line, after the data began, that holds a character outside
/// the base64 alphabet (RFC 2045 6.8: encoded lines hold only it, `=`
/// and line ends), or the line after one with `=` padding. What follows
/// is text appended to the part, not data.
fn base64_extent(body: &[u8]) -> usize {
    let mut started = false;
    let mut pos = 0;
    for line in body.split_inclusive(|&b| b == b'\n') {
        let text = line.trim_ascii_end();
        if text.is_empty() {
            pos += line.len();
            continue;
        }
        let data = text.iter().all(|&c| b64_value(c).is_some() || c == b'=');
        if !data && started {
            return pos;
        }
        started |= data;
        pos += line.len();
        if data && text.contains(&b'=') {
            // The padding ends the data; text may follow.
            let rest = &body[pos..];
            let next = rest.iter().position(|b| !b.is_ascii_whitespace());
            return next.map_or(body.len(), |n| pos + n);
        }
    }
    body.len()
}

fn decode_base64(input: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(input.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut n = 0;
    let mut clean = true;
    for &c in input {
        if let Some(v) = b64_value(c) {
            acc = acc << 6 | v;
            n += 1;
            if n == 4 {
                out.extend_from_slice(&[
                    (acc >> 16) as u8,
                    (acc >> 8) as u8,
                    acc as u8,
                ]);
                acc = 0;
                n = 0;
            }
        } else if c == b'=' {
            break;
        } else if !c.is_ascii_whitespace() {
            clean = false;
        }
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        1 => clean = false,
        _ => {}
    }
    (out, clean)
}

/// Unwraps `format=flowed` text (RFC 3676 section 4): returns the text
/// and its map to offsets in `input`.
///
/// A line ending in a space (not the signature separator `-- `) joins
/// the next line when both have the same quote depth (count of leading
/// `>`); with `delsp` the trailing space is dropped. Continuation lines
/// lose their quote marks and stuffing space; an unquoted paragraph's
/// first line loses its stuffing space; a quoted paragraph's first line
/// keeps its prefix as written. Line ends of fixed lines are kept.
fn unflow(input: &[u8], delsp: bool) -> (Vec<u8>, OffsetMap) {
    struct Line {
        start: usize,
        quotes: usize,
        content: usize,
        end: usize,
        next: usize,
        flowed: bool,
    }
    let mut lines = Vec::new();
    let mut pos = 0;
    while pos < input.len() {
        let rest = input.get(pos..).unwrap_or(&[]);
        let (end, next) = match memchr::memchr(b'\n', rest) {
            Some(k) => (pos + k, pos + k + 1),
            None => (input.len(), input.len()),
        };
        let end = if end > pos && input.get(end - 1) == Some(&b'\r') {
            end - 1
        } else {
            end
        };
        let quotes = input
            .get(pos..end)
            .unwrap_or(&[])
            .iter()
            .take_while(|&&c| c == b'>')
            .count();
        let mut content = pos + quotes;
        if input.get(content) == Some(&b' ') && content < end {
            content += 1;
        }
        let body = input.get(content..end).unwrap_or(&[]);
        let flowed = body != b"-- " && body.last() == Some(&b' ');
        lines.push(Line { start: pos, quotes, content, end, next, flowed });
        pos = next;
    }
    let mut out = Vec::with_capacity(input.len());
    let mut b = MapBuilder::default();
    let mut emit = |out: &mut Vec<u8>, s: usize, e: usize| {
        if let Some(seg) = input.get(s..e).filter(|g| !g.is_empty()) {
            b.push(out.len(), s, true);
            out.extend_from_slice(seg);
        }
    };
    let mut joined = false;
    for (k, l) in lines.iter().enumerate() {
        if !joined && l.quotes > 0 {
            // The first line of a quoted paragraph keeps its prefix as
            // written (`> `), so quoted text still reads as quoted.
            emit(&mut out, l.start, l.content);
        }
        let joins =
            l.flowed && lines.get(k + 1).is_some_and(|n| n.quotes == l.quotes);
        let content_end = if joins && delsp { l.end - 1 } else { l.end };
        emit(&mut out, l.content, content_end);
        if !joins {
            emit(&mut out, l.end, l.next);
        }
        joined = joins;
    }
    (out, b.finish(0))
}

// ---------------------------------------------------------------------
// yEnc.

/// `text` without its yEnc blocks (see [`yenc_blocks`]), and the map of
/// what is left: the text around a block keeps its offsets into the raw
/// message.
fn without_yenc(text: Vec<u8>, map: OffsetMap) -> (Vec<u8>, OffsetMap) {
    let blocks = yenc_blocks(&text);
    if blocks.is_empty() {
        return (text, map);
    }
    let mut out = Vec::with_capacity(text.len());
    // Offsets in `out` to offsets in `text`.
    let mut kept = MapBuilder::default();
    let mut from = 0;
    for (s, e) in blocks.into_iter().chain([(text.len(), text.len())]) {
        kept.push(out.len(), from, true);
        out.extend_from_slice(text.get(from..s).unwrap_or(&[]));
        from = e;
    }
    let len = out.len();
    let map = kept.finish(0).then(len, &map);
    (out, map)
}

/// The byte ranges of the yEnc blocks of `text` (yEnc 1.3, the formal
/// specification of 2002): from a line that starts `=ybegin ` and has
/// the `line=`, `size=` and `name=` keywords, up to and with the next
/// line that starts `=yend` (to the end of the text if there is none).
/// Between them are a multipart post's `=ypart` line and the data lines:
/// binary bytes shifted by 42, in which a URL or an address is noise.
/// Each range starts at a line start and ends after a line end, so the
/// text around it keeps its lines.
fn yenc_blocks(b: &[u8]) -> Vec<(usize, usize)> {
    let line_end = |at: usize| {
        memchr::memchr(b'\n', b.get(at..).unwrap_or(&[]))
            .map_or(b.len(), |k| at + k + 1)
    };
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(p) = memmem::find(b.get(from..).unwrap_or(&[]), b"=ybegin ")
    {
        let start = from + p;
        let header_end = line_end(start);
        from = header_end;
        let header = b.get(start..header_end).unwrap_or(&[]);
        let keyword = |k: &[u8]| memmem::find(header, k).is_some();
        if (start > 0 && b.get(start - 1) != Some(&b'\n'))
            || !(keyword(b" line=")
                && keyword(b" size=")
                && keyword(b" name="))
        {
            continue;
        }
        let mut end = b.len();
        let mut search = header_end.saturating_sub(1);
        while let Some(q) =
            memmem::find(b.get(search..).unwrap_or(&[]), b"\n=yend")
        {
            let at = search + q + 1;
            if matches!(b.get(at + 5), None | Some(b' ' | b'\r' | b'\n')) {
                end = line_end(at);
                break;
            }
            search = at;
        }
        blocks.push((start, end));
        from = end;
    }
    blocks
}

// ---------------------------------------------------------------------
// Multipart bodies.

/// A multipart body cut at the delimiter lines of its boundary (RFC
/// 2046 5.1.1); ranges are offsets in the body.
#[derive(Debug, Default, PartialEq, Eq)]
struct Split {
    /// The body parts, between the delimiter lines (the line break
    /// before a delimiter line belongs to it).
    parts: Vec<(usize, usize)>,
    /// Whether the close delimiter (`--boundary--`) was found.
    closed: bool,
    /// The preamble: from the start of the body up to the line break
    /// before the first delimiter line (empty when the body starts with
    /// it).
    preamble: (usize, usize),
    /// The epilogue: from the line after the close delimiter to the end
    /// of the body (empty when the close delimiter is missing).
    epilogue: (usize, usize),
    /// Where the part after the last one listed starts, when there are
    /// more parts than the limit: the rest of the body is not split.
    rest: Option<usize>,
}

/// Splits a multipart body at the delimiter lines of `boundary` into
/// at most `limit` parts. No part: the boundary never occurs.
fn split_multipart(body: &[u8], boundary: &[u8], limit: usize) -> Split {
    let mut dash = Vec::with_capacity(boundary.len() + 2);
    dash.extend_from_slice(b"--");
    dash.extend_from_slice(boundary);
    let finder = memmem::Finder::new(&dash);
    let mut split =
        Split { epilogue: (body.len(), body.len()), ..Split::default() };
    let mut open: Option<usize> = None;
    for at in finder.find_iter(body) {
        if at > 0 && body.get(at - 1) != Some(&b'\n') {
            continue;
        }
        let mut j = at + dash.len();
        let close = body.get(j..j + 2) == Some(b"--");
        if close {
            j += 2;
        }
        while matches!(body.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        let line_end = match (body.get(j), body.get(j + 1)) {
            (None, _) => body.len(),
            (Some(b'\n'), _) => j + 1,
            (Some(b'\r'), Some(b'\n')) => j + 2,
            (Some(b'\r'), None) => j + 1,
            _ => continue,
        };
        // The line break before the delimiter belongs to it.
        let mut part_end = at;
        if part_end > 0 && body.get(part_end - 1) == Some(&b'\n') {
            part_end -= 1;
            if part_end > 0 && body.get(part_end - 1) == Some(&b'\r') {
                part_end -= 1;
            }
        }
        match open.take() {
            Some(s) if split.parts.len() == limit => {
                split.rest = Some(s);
                return split;
            }
            Some(s) => split.parts.push((s, part_end.max(s))),
            // The first delimiter line ends the preamble.
            None => split.preamble = (0, part_end),
        }
        if close {
            split.closed = true;
            split.epilogue = (line_end, body.len());
            return split;
        }
        open = Some(line_end);
    }
    match open {
        Some(s) if split.parts.len() == limit => split.rest = Some(s),
        Some(s) => split.parts.push((s, body.len().max(s))),
        None => {}
    }
    split
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &[u8]) -> Parsed {
        parse_message(raw, &MimeOptions::default())
    }

    fn bodies(p: &Parsed) -> Vec<&Piece> {
        p.pieces
            .iter()
            .filter(|x| !matches!(x.source, PieceKind::Header(_)))
            .collect()
    }

    fn paths(p: &Parsed) -> Vec<String> {
        bodies(p).iter().map(|x| x.part.clone()).collect()
    }

    fn pos(raw: &[u8], needle: &str) -> usize {
        memmem::find(raw, needle.as_bytes()).expect(needle)
    }

    const NESTED: &str = "From: a@example.com\r\n\
        Content-Type: multipart/mixed; boundary=\"outer\"\r\n\
        Content-Base: http://base.example/dir/page\r\n\
        \r\n\
        preamble http://preamble.example/\r\n\
        --outer\r\n\
        Content-Type: text/plain\r\n\
        \r\n\
        one http://one.example/\r\n\
        --outer  \r\n\
        Content-Type: multipart/alternative; boundary=inner\r\n\
        Content-Location: sub/\r\n\
        \r\n\
        --inner\r\n\
        \r\n\
        two-one\r\n\
        --inner\r\n\
        Content-Type: text/html; charset=utf-8\r\n\
        Content-Location: http://other.example/x/y.html\r\n\
        \r\n\
        <a href=\"z\">two-two</a>\r\n\
        --inner--\r\n\
        --outer\r\n\
        Content-Type: image/png\r\n\
        Content-Transfer-Encoding: base64\r\n\
        \r\n\
        aGVsbG8gaHR0cDovL2ltZy5leGFtcGxlLw==\r\n\
        --outer--\r\n\
        epilogue http://epilogue.example/\r\n";

    #[test]
    fn nested_part_paths_and_bases() {
        let p = parse(NESTED.as_bytes());
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert_eq!(paths(&p), ["preamble", "1", "2.1", "2.2", "epilogue"]);
        let all = bodies(&p);
        let b = &all[1..4];
        assert_eq!(b[0].text, "one http://one.example/");
        assert_eq!(b[1].text, "two-one");
        assert_eq!(b[1].content_type, "text/plain");
        assert_eq!(b[2].source, PieceKind::Html);
        assert_eq!(b[0].base.as_deref(), Some("http://base.example/dir/page"));
        // Relative Content-Location resolved against the enclosing base
        // and inherited by the children.
        assert_eq!(b[1].base.as_deref(), Some("http://base.example/dir/sub/"));
        // An absolute Content-Location wins over the enclosing base.
        assert_eq!(
            b[2].base.as_deref(),
            Some("http://other.example/x/y.html")
        );
        // The image is not scanned; the preamble and the epilogue are
        // text, mapped to the raw message.
        let raw = NESTED.as_bytes();
        let (pre, epi) = (all[0], all[4]);
        assert_eq!(pre.text, "preamble http://preamble.example/");
        assert_eq!(epi.text, "epilogue http://epilogue.example/\r\n");
        for x in [pre, epi] {
            assert_eq!(x.source, PieceKind::Text);
            assert_eq!(x.decoded, Decoded::None);
            assert_eq!(x.content_type, "text/plain");
            assert_eq!(
                x.base.as_deref(),
                Some("http://base.example/dir/page")
            );
        }
        assert_eq!(pre.map.raw_offset(9), pos(raw, "http://preamble"));
        assert_eq!(epi.map.raw_offset(9), pos(raw, "http://epilogue"));
        assert_eq!(b[0].map.raw_offset(4), pos(raw, "http://one"));
        // The CRLF before a delimiter belongs to the delimiter.
        assert!(!b[2].text.ends_with('\n'));
    }

    #[test]
    fn preamble_and_epilogue_pieces() {
        let raw = b"Content-Type: multipart/mixed; boundary=o\n\n\
            This is a multi-part message in MIME format.\n\
            --o\n\
            Content-Type: multipart/alternative; boundary=i\n\n\
            \n\n--i\n\ninner\n--i--\nfoot http://inner-foot.example/\n\
            --o--\n\
            caf\xe9 http://list.example/info\n";
        let p = parse(raw);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        // A blank preamble gives no piece.
        assert_eq!(paths(&p), ["preamble", "1.1", "1.epilogue", "epilogue"]);
        let b = bodies(&p);
        assert_eq!(b[0].text, "This is a multi-part message in MIME format.");
        assert_eq!(b[2].text, "foot http://inner-foot.example/");
        assert_eq!(b[2].map.raw_offset(5), pos(raw, "http://inner-foot"));
        // Not UTF-8: windows-1252, offsets exact after the 8-bit byte.
        assert_eq!(b[3].text, "caf\u{e9} http://list.example/info\n");
        assert_eq!(b[3].map.raw_offset(6), pos(raw, "http://list"));
        // For a caller that wants `scheme:` URLs only, text without a
        // colon after a letter is left out.
        let opts = MimeOptions {
            skip_fields_without_scheme: true,
            ..MimeOptions::default()
        };
        let p = parse_message(raw, &opts);
        assert_eq!(paths(&p), ["1.1", "1.epilogue", "epilogue"]);
        // Without a close delimiter there is no epilogue: the last part
        // runs to the end.
        let p = parse(
            b"Content-Type: multipart/mixed; boundary=q\n\n\
            --q\n\nA http://a.example/\n",
        );
        assert_eq!(paths(&p), ["1"]);
    }

    #[test]
    fn attachments_option_scans_images() {
        let opts = MimeOptions { attachments: true, ..MimeOptions::default() };
        let p = parse_message(NESTED.as_bytes(), &opts);
        assert_eq!(
            paths(&p),
            ["preamble", "1", "2.1", "2.2", "3", "epilogue"]
        );
        let img = bodies(&p)[4];
        assert_eq!(img.text, "hello http://img.example/");
        assert_eq!(img.content_type, "image/png");
        assert_eq!(img.decoded, Decoded::Base64);
        let raw = NESTED.as_bytes();
        assert_eq!(img.map.raw_offset(6), pos(raw, "aGVsbG8g"));
    }

    #[test]
    fn message_rfc822_headers_and_base() {
        let raw = b"Subject: outer\n\
            Content-Type: multipart/mixed; boundary=b\n\
            Content-Location: http://a.example/top/\n\
            \n\
            --b\n\
            Content-Type: message/rfc822\n\
            \n\
            Subject: inner: http://inner.example/\n\
            Message-ID: <inner@example>\n\
            Content-Location: deeper/\n\
            \n\
            inner body\n\
            --b--\n";
        let p = parse(raw);
        assert_eq!(p.message_id, None);
        let subj: Vec<&Piece> = p
            .pieces
            .iter()
            .filter(|x| x.source == PieceKind::Header("Subject".into()))
            .collect();
        assert_eq!(subj.len(), 2);
        assert_eq!(
            (subj[0].part.as_str(), subj[0].text.as_str()),
            ("", "outer")
        );
        let subj = &subj[1..];
        assert_eq!(subj[0].part, "1");
        assert_eq!(subj[0].text, "inner: http://inner.example/");
        assert_eq!(
            subj[0].base.as_deref(),
            Some("http://a.example/top/deeper/")
        );
        assert_eq!(subj[0].map.raw_offset(7), pos(raw, "http://inner"));
        let b = bodies(&p);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].part, "1");
        assert_eq!(b[0].text, "inner body");
        assert_eq!(b[0].base.as_deref(), Some("http://a.example/top/deeper/"));
    }

    #[test]
    fn relative_location_without_base_is_ignored() {
        let raw = b"Content-Location: foo/bar\n\nx\n";
        assert_eq!(bodies(&parse(raw))[0].base, None);
        let raw = b"Content-Base: foo/\nContent-Location: http://l/\n\nx\n";
        let p = parse(raw);
        assert_eq!(bodies(&p)[0].base.as_deref(), Some("http://l/"));
        assert!(
            p.warnings.iter().any(|w| w.contains("relative Content-Base"))
        );
        // Folded Content-Base: whitespace removed (section 5.1.1).
        let raw = b"Content-Base: \"http://a.example/\n b/c\"\n\nx\n";
        let p = parse(raw);
        assert_eq!(
            bodies(&p)[0].base.as_deref(),
            Some("http://a.example/b/c")
        );
    }

    #[test]
    fn qp_decoding_and_map() {
        let body = b"a=3Db http://x.example/lo=\r\nng?q=3D1 =ZZ end=\n";
        let (out, map, clean) = decode_qp(body, 100);
        assert_eq!(out, b"a=b http://x.example/long?q=1 =ZZ end");
        assert!(!clean, "=ZZ is invalid");
        let text = String::from_utf8(out).unwrap();
        let u = text.find("http").unwrap();
        assert_eq!(map.raw_offset(u), 100 + 6);
        let n = text.find("ng?").unwrap();
        assert_eq!(map.raw_offset(n), 100 + pos(body, "ng?"));
        let eq = text.find("=1").unwrap();
        assert_eq!(map.raw_offset(eq), 100 + pos(body, "=3D1"));
        let zz = text.find("=ZZ").unwrap();
        assert_eq!(map.raw_offset(zz), 100 + pos(body, "=ZZ"));
        // Transport padding after a soft break, and `=` at the end.
        let (out, _, clean) = decode_qp(b"ab= \t\r\ncd=", 0);
        assert_eq!(out, b"abcd");
        assert!(clean);
        // Lowercase hex is accepted.
        assert_eq!(decode_qp(b"=c3=a9", 0).0, "é".as_bytes());
    }

    #[test]
    fn qp_guess_needs_unambiguous_evidence() {
        let qp = |s: &str| looks_quoted_printable(s.as_bytes());
        // Written by an encoder: `=3D`, uppercase escapes, soft breaks.
        assert!(qp("<a href=3D\"http://x.example/?b=3D1\">x</a> a=\nb\n"));
        assert!(qp("a=3Db caf=C3=A9 soft=  \r\nbreak"));
        // A lowercase pair, `="`, `=0 `: not an encoder's.
        assert!(!qp("a=3db soft=\nbreak"));
        assert!(!qp("a=3Db soft=\n<a href=\"http://x/\">"));
        assert!(!qp("a=3Db size=0 soft=\nbreak"));
        // Both signs are needed.
        assert!(!qp("a=3Db no soft break\n"));
        assert!(!qp("see http://x.example/?ref=\nnext line\n"));
        // An escape in a URL that would decode to a byte no URL has.
        assert!(!qp("http://c.example/Click?q=DA-BBB x=3Dy soft=\nb\n"));
        // Outside a run escapes decode to anything; a run goes on
        // after a soft break.
        assert!(qp("http://c.example/Click?q=3D1 caf=E9 soft=\nb\n"));
        assert!(!qp("http://x.example/a=3D1&lo=\nng=E9 soft=\nb\n"));
        // Delimiter lines and the part headers after them are not read.
        assert!(qp("------=_Part_1\nContent-Type: text/html; a=\"b\"\n\n\
                    x=3Dy soft=\nbreak\n------=_Part_1--\n"));
    }

    #[test]
    fn base64_lenient() {
        assert_eq!(decode_base64(b"aGVs\r\nbG8=").0, b"hello");
        assert!(decode_base64(b"aGVs\r\nbG8=").1);
        let (out, clean) = decode_base64(b"aGV*sbG8");
        assert_eq!(out, b"hello");
        assert!(!clean);
        let (out, clean) = decode_base64(b"aGVsb");
        assert_eq!(out, b"hel");
        assert!(!clean);
        // Stops at padding.
        assert_eq!(decode_base64(b"YQ==YmM=").0, b"a");
        let raw = b"Content-Transfer-Encoding: base64\n\n!!aHR0cDovL3gv\n";
        let p = parse(raw);
        assert_eq!(bodies(&p)[0].text, "http://x/");
        assert_eq!(
            p.warnings,
            ["message: invalid base64 (decoded what could be)"]
        );
    }

    #[test]
    fn unknown_charset_is_lossy_utf8() {
        let raw = "Content-Type: text/plain; charset=x-foo\n\nsé http://x/\n";
        let p = parse(raw.as_bytes());
        assert_eq!(bodies(&p)[0].text, "sé http://x/\n");
        assert_eq!(
            p.warnings,
            ["message: unknown charset x-foo, read as UTF-8 lossily"]
        );
    }

    #[test]
    fn input_in_warnings_is_cut_and_escaped() {
        let long = format!("\u{202E}{}", "x".repeat(8 << 20));
        let raw = format!(
            "Content-Type: text/plain; charset={long}\n\
             Content-Transfer-Encoding: {long}\n\nhttp://x/\n"
        );
        let p = parse(raw.as_bytes());
        let cut =
            format!("%E2%80%AE{}\u{2026} (8388611 bytes)", "x".repeat(99));
        assert_eq!(
            p.warnings,
            [
                format!(
                    "message: unknown transfer encoding {cut:?}, read as is"
                ),
                format!(
                    "message: unknown charset {cut}, read as UTF-8 lossily"
                ),
            ]
        );
        // In a header's encoded word too (RFC 2047 section 2).
        let raw = format!("Subject: =?{}?q?a?=\n\nx\n", "y".repeat(500));
        let p = parse(raw.as_bytes());
        assert!(p.warnings.iter().all(|w| w.len() < 200), "{:?}", p.warnings);
    }

    #[test]
    fn encoded_words() {
        let mut w = Vec::new();
        let v = b"=?utf-8?q?a?= =?UTF-8?B?Yg==?=\t=?iso-8859-1?Q?=E9_x?= c";
        let (text, map, dec) = decode_words(v, &mut w);
        assert_eq!(text, "abé x c");
        assert_eq!(dec, Decoded::QuotedPrintable);
        assert!(w.is_empty());
        assert_eq!(map.raw_offset(1), pos(v, "=?UTF-8?B"));
        assert_eq!(map.raw_offset(2), pos(v, "=?iso"));
        assert_eq!(map.raw_offset(text.len() - 1), v.len() - 1);
        // A UTF-8 character split across two adjacent words.
        let (text, _, _) =
            decode_words(b"=?utf-8?Q?=C3?= =?utf-8?Q?=A9?=", &mut w);
        assert_eq!(text, "é");
        // Not an encoded word: kept as written.
        let (text, _, _) = decode_words(b"=?x =?utf-8?z?a?= a=?b", &mut w);
        assert_eq!(text, "=?x =?utf-8?z?a?= a=?b");
        // Whitespace between a word and plain text stays.
        let (text, _, _) = decode_words(b"=?utf-8?q?a?= b", &mut w);
        assert_eq!(text, "a b");
        // 8-bit header bytes.
        let (text, _, _) = decode_words(b"caf\xe9: x", &mut w);
        assert_eq!(text, "café: x");
        assert_eq!(w, ["8-bit bytes read as windows-1252"]);
    }

    #[test]
    fn header_unfolding_map() {
        let raw = b"List-Archive: <http://a.example/x\r\n\ty> ,\r\n <mailto:m@x>\r\nTo: b\r\n\r\n";
        let p = parse(raw);
        assert_eq!(p.pieces.len(), 3, "List-Archive, To, the body");
        let h = &p.pieces[0];
        assert_eq!(h.source, PieceKind::Header("List-Archive".into()));
        assert_eq!(h.text, "<http://a.example/x\ty> , <mailto:m@x>");
        let y = h.text.find("\ty").unwrap();
        assert_eq!(h.map.raw_offset(y), pos(raw, "\ty>"));
        let m = h.text.find("<mailto").unwrap();
        assert_eq!(h.map.raw_offset(m), pos(raw, "<mailto"));
        // The empty body is still a piece.
        assert_eq!(bodies(&p)[0].text, "");
    }

    #[test]
    fn rfc2231_parameters() {
        let (main, params) = parse_structured(
            "Text/Plain (comment); charset=\"us-ascii\"; \
             title*0*=us-ascii'en'This%20is%20; title*1*=%2A%2A; \
             title*2=\"isn't it!\"; name*=utf-8''caf%C3%A9.txt; \
             boundary=\"a\\\"b; c\"",
        );
        assert_eq!(main, "text/plain");
        assert_eq!(params.get("charset").as_deref(), Some("us-ascii"));
        assert_eq!(
            params.get("title").as_deref(),
            Some("This is **isn't it!")
        );
        assert_eq!(params.get("name").as_deref(), Some("café.txt"));
        assert_eq!(params.get("boundary").as_deref(), Some("a\"b; c"));
    }

    #[test]
    fn flowed_unwrapping() {
        let input = b"> quoted soft \r\n> more\r\nplain \r\n>not joined\r\n \
            From stuffed \r\nlast\r\n-- \r\nsig\r\n";
        let (out, map) = unflow(input, false);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "> quoted soft more\r\nplain \r\n>not joined\r\n\
             From stuffed last\r\n-- \r\nsig\r\n"
        );
        let m = text.find("more").unwrap();
        assert_eq!(map.raw_offset(m), pos(input, "more"));
        let f = text.find("From").unwrap();
        assert_eq!(map.raw_offset(f), pos(input, "From"));
        // DelSp=yes removes the trailing space: a URL broken there joins.
        let (out, map) = unflow(b"see http://x.example/ab \ncd ok\n", true);
        assert_eq!(out, b"see http://x.example/abcd ok\n");
        assert_eq!(map.raw_offset(23), 25);
        let raw = b"Content-Type: text/plain; format=Flowed; delsp=yes\n\n\
            a http://x/ab \ncd\n";
        let p = parse(raw);
        assert_eq!(bodies(&p)[0].text, "a http://x/abcd\n");
    }

    #[test]
    fn truncated_and_broken_multiparts() {
        // Headers only, no blank line, no final line end.
        let p = parse(b"Subject: a: b\nX-Foo: http://x/");
        assert_eq!(p.pieces.len(), 3);
        assert_eq!(p.pieces[1].text, "http://x/");
        // Missing close delimiter: the last part runs to the end.
        let p = parse(b"Content-Type: multipart/mixed; boundary=q\n\n--q\n\nA\n--q\n\nB http://b/");
        assert_eq!(paths(&p), ["1", "2"]);
        assert_eq!(bodies(&p)[1].text, "B http://b/");
        assert_eq!(
            p.warnings,
            ["message: multipart/mixed has no close delimiter"]
        );
        // A delimiter must start a line.
        let p = parse(b"Content-Type: multipart/mixed; boundary=q\n\nx --q\n");
        assert_eq!(bodies(&p)[0].text, "x --q\n");
        // A header ended by a non-field line.
        let p = parse(b"Subject: x\nnot a header\nbody\n");
        assert_eq!(bodies(&p)[0].text, "not a header\nbody\n");
        assert_eq!(p.warnings.len(), 1);
        // Empty input.
        let p = parse(b"");
        assert_eq!(bodies(&p)[0].text, "");
    }

    #[test]
    fn depth_and_part_limits() {
        let mut raw = String::new();
        for k in 0..40 {
            raw.push_str(&format!(
                "Content-Type: multipart/mixed; boundary=b{k}\n\n--b{k}\n"
            ));
        }
        raw.push_str("\ndeep http://deep/\n");
        let p = parse(raw.as_bytes());
        assert!(p.warnings.iter().any(|w| w.contains("nested too deep")));
        let deep = bodies(&p)[0];
        assert_eq!(deep.part.split('.').count(), 32);
        assert!(deep.text.contains("deep http://deep/"));
        let mut raw =
            String::from("Content-Type: multipart/mixed; boundary=b\n\n");
        for k in 0..50 {
            raw.push_str(&format!("--b\n\npart {k}\n"));
        }
        let opts = MimeOptions { max_parts: 10, ..MimeOptions::default() };
        let p = parse_message(raw.as_bytes(), &opts);
        // The message and 9 parts are walked; the other 41 parts are one
        // text piece, delimiter lines and all.
        let b = bodies(&p);
        assert_eq!(b.len(), 10);
        assert_eq!(b[8].text, "part 8");
        assert_eq!(b[9].part, "rest");
        assert!(b[9].text.starts_with("\npart 9\n--b\n"));
        assert!(b[9].text.ends_with("\npart 49\n"));
        assert_eq!(b[9].map.raw_offset(0), pos(raw.as_bytes(), "\npart 9"));
        assert!(p.warnings.iter().any(|w| w.contains("more than 10")));
        // The limit met inside a nested multipart: the rest of the inner
        // one and then the rest of the outer one are read as text.
        let mut raw = String::from(
            "Content-Type: multipart/mixed; boundary=o\n\n--o\n\
             Content-Type: multipart/mixed; boundary=i\n\n",
        );
        for k in 0..20 {
            raw.push_str(&format!("--i\n\ninner {k}\n"));
        }
        raw.push_str("--i--\n--o\n\nouter http://after/\n--o--\nfooter\n");
        let p = parse_message(raw.as_bytes(), &opts);
        let texts: Vec<(&str, &str)> = bodies(&p)
            .iter()
            .map(|b| (b.part.as_str(), b.text.as_str()))
            .collect();
        assert_eq!(texts.len(), 10, "{texts:?}");
        assert_eq!(texts[7], ("1.8", "inner 7"));
        assert_eq!(texts[8].0, "1.rest");
        assert!(texts[8].1.ends_with("inner 19\n--i--"), "{texts:?}");
        assert_eq!(texts[9].0, "rest");
        assert!(texts[9].1.contains("outer http://after/\n--o--\nfooter"));
    }

    #[test]
    fn offset_map_compose_and_compactness() {
        let body = "x".repeat(1000) + "=\n" + &"y".repeat(1000);
        let (out, map, _) = decode_qp(body.as_bytes(), 10);
        assert_eq!(out.len(), 2000);
        assert_eq!(map.anchor_count(), 2);
        assert_eq!(map.raw_offset(999), 1009);
        assert_eq!(map.raw_offset(1000), 1012);
        // Composition splits the outer run where the inner map breaks.
        let outer = OffsetMap::linear_from(995);
        let composed = outer.then(10, &map);
        assert_eq!(composed.raw_offset(0), 1005);
        assert_eq!(composed.raw_offset(5), 1012);
        assert_eq!(OffsetMap::default().raw_offset(7), 7);
        // UTF-16BE in quoted-printable, a soft break inside the unit of
        // `b`: each character maps to the first raw byte of its unit.
        let body = b"=00a=00=\nb=00c";
        let (out, qp, _) = decode_qp(body, 0);
        assert_eq!(out, b"\0a\0b\0c");
        let (text, cs, _) = to_utf8(&out, encoding_rs::UTF_16BE, true);
        assert_eq!(text, "abc");
        let map = cs.then(text.len(), &qp);
        let raws: Vec<usize> = (0..=3).map(|t| map.raw_offset(t)).collect();
        assert_eq!(raws, [0, 4, 10, body.len()]);
    }

    #[test]
    fn eight_bit_body_without_charset() {
        let p = parse(b"\ncaf\xe9 http://x/\n");
        assert_eq!(bodies(&p)[0].text, "café http://x/\n");
        assert_eq!(bodies(&p)[0].map.raw_offset(6), 6);
        assert_eq!(p.warnings.len(), 1);
    }
}

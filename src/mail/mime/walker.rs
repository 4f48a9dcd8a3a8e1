//! The MIME entity walker: the header fields and parts of one message
//! (RFC 2045, 2046), each decoded into a piece of UTF-8 text to scan, with
//! its base URI and where it came from.

use std::borrow::Cow;

use super::flowed::*;
use super::http::{self, Codings};
use super::multipart::*;
use super::params::*;
use super::transfer::*;
use super::words::*;
use super::yenc::*;
use crate::hit::Record;
use crate::mail::charset::{Charset, Converted, convert};
use crate::mail::offsets::{MapBuilder, OffsetMap};
use crate::mail::{outlook, rtf, tnef};
use crate::resolve::resolve_str;
use crate::sanitize::excerpt;
use crate::validate::Uri;
use encoding_rs::{UTF_8, WINDOWS_1252};

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
    /// The message is a record of a web archive, whose `WARC/` line is
    /// at this offset of the input: its own header fields are not
    /// scanned (they describe the record) but give [`Parsed::record`]
    /// and, with `WARC-Target-URI`, the base; an HTTP message in it
    /// (`application/http`) is walked into, its codings undone; and
    /// JSON, JavaScript and XML bodies are read as text.
    pub web: Option<u64>,
}

impl Default for MimeOptions {
    /// Depth 32, 10,000 parts, no attachments, every header field.
    fn default() -> Self {
        MimeOptions {
            max_depth: 32,
            max_parts: 10_000,
            attachments: false,
            skip_fields_without_scheme: false,
            web: None,
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
    crate::sieve::marks(raw, b':', b'=').any(|i| match raw.get(i) {
        Some(b':') => crate::scan::plausible(raw, i),
        Some(b'=') => raw.get(i + 1) == Some(&b'?'),
        _ => true, // not ASCII
    })
}

/// What the marks of [`may_hold_scheme`] say about a raw header field
/// value, read in the one pass that test makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueMarks {
    /// Nothing to decode and no colon the scanner keeps: no URL.
    Nothing,
    /// ASCII without `=?` and a colon the scanner keeps: its text is its
    /// bytes, and a scan of them may find a URL.
    PlainColon,
    /// A byte to decode: 8-bit, or the `=?` of an encoded word.
    Encoded,
}

/// The [`ValueMarks`] of `raw`: up to its first byte to decode, and
/// past its first colon that the scanner keeps to learn whether it has
/// one.
fn value_marks(raw: &[u8]) -> ValueMarks {
    let mut colon = false;
    for i in crate::sieve::marks(raw, b':', b'=') {
        match raw.get(i) {
            Some(b':') => colon = colon || crate::scan::plausible(raw, i),
            Some(b'=') if raw.get(i + 1) == Some(&b'?') => {
                return ValueMarks::Encoded;
            }
            Some(b'=') => {}
            _ => return ValueMarks::Encoded, // not ASCII
        }
    }
    if colon { ValueMarks::PlainColon } else { ValueMarks::Nothing }
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

/// A [`Piece`] as the walk hands it over: its strings borrowed where
/// the message or the walk holds them (a header field's name and, when
/// the value is its own text, its text; the part's path, type and base),
/// made owned only for [`parse_message`]. A message has a few pieces a
/// part, each scanned and dropped at once.
#[derive(Debug)]
pub(crate) struct PieceRef<'a> {
    /// A header field's name as written; `None` for a body part.
    pub header: Option<Cow<'a, str>>,
    /// HTML, or text (a header field's value is text).
    pub html: bool,
    /// See [`Piece::part`].
    pub part: Cow<'a, str>,
    pub decoded: Decoded,
    pub text: Cow<'a, str>,
    pub map: OffsetMap,
    pub base: Option<&'a str>,
    pub content_type: &'a str,
}

impl PieceRef<'_> {
    fn into_piece(self) -> Piece {
        let source = match (self.header, self.html) {
            (Some(name), _) => PieceKind::Header(name.into_owned()),
            (None, true) => PieceKind::Html,
            (None, false) => PieceKind::Text,
        };
        Piece {
            source,
            part: self.part.into_owned(),
            decoded: self.decoded,
            text: self.text.into_owned(),
            map: self.map,
            base: self.base.map(str::to_string),
            content_type: self.content_type.to_string(),
        }
    }
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
    /// For a web archive record ([`MimeOptions::web`]): what its header
    /// says.
    pub record: Option<std::sync::Arc<Record>>,
}

/// Most warnings kept for one message.
const MAX_WARNINGS: usize = 64;

/// Decodes one message: see the [module documentation](super).
pub fn parse_message(raw: &[u8], opts: &MimeOptions) -> Parsed {
    let mut pieces = Vec::new();
    let mut parsed =
        walk_message(raw, opts, &mut |_, p| pieces.push(p.into_piece()));
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
    each: &mut dyn FnMut(&Parsed, PieceRef<'_>),
) -> Parsed {
    let mut w = Walker {
        raw,
        opts,
        parsed: Parsed::default(),
        each,
        entities: 0,
        parts_warned: false,
    };
    if raw.starts_with(&tnef::SIGNATURE) {
        // A TNEF file on its own: read as the TNEF part of a message.
        w.tnef(raw, 0, "", None);
    } else if raw.starts_with(&outlook::SIGNATURE) {
        // An Outlook .msg file.
        w.outlook(raw, 0, "", None);
    } else {
        w.entity(0, raw.len(), "", 0, None, Kind::Top);
    }
    w.parsed
}

/// A part that holds a message of Microsoft's formats.
enum Container {
    /// TNEF data.
    Tnef(Vec<u8>),
    /// An Outlook message, read.
    Outlook(Box<outlook::Msg>),
}

/// Which entity [`Walker::entity`] walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The message itself (or a web archive record).
    Top,
    /// A part, or an embedded message.
    Part,
    /// A part of a `multipart/digest`: `message/rfc822` by default.
    DigestChild,
    /// An HTTP request or response in a web archive record
    /// (`application/http`): a start line, header fields, a body.
    Http,
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
    /// The codings of an HTTP message's body (web archives).
    http: Option<Codings>,
}

struct Walker<'a, 'f> {
    raw: &'a [u8],
    opts: &'a MimeOptions,
    /// The Message-ID and the warnings; the pieces go to `each`.
    parsed: Parsed,
    each: &'f mut dyn FnMut(&Parsed, PieceRef<'_>),
    entities: usize,
    parts_warned: bool,
}

/// A conversion's text, map and flags (malformed, unsupported), the
/// text owned.
fn converted(c: Converted) -> (Cow<'static, str>, OffsetMap, bool, bool) {
    (Cow::Owned(c.text), c.map, c.malformed, c.unsupported)
}

/// Types of web content that are text though not `text/*`: JSON,
/// JavaScript, XML, a record's `application/warc-fields`.
fn is_textual_application(ct: &str) -> bool {
    matches!(
        ct,
        "application/json"
            | "application/javascript"
            | "application/x-javascript"
            | "application/ecmascript"
            | "application/xml"
            | "application/warc-fields"
    ) || (ct.starts_with("application/")
        && (ct.ends_with("+json") || ct.ends_with("+xml")))
}

/// What a warning names for the entity at `path`: written out only when
/// a warning is.
fn where_(path: &str) -> Where<'_> {
    Where(path)
}

/// See [`where_`].
struct Where<'p>(&'p str);

impl std::fmt::Display for Where<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            f.write_str("message")
        } else {
            write!(f, "part {}", self.0)
        }
    }
}

/// `path` and a dot, or nothing for the message itself.
fn prefix(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!("{path}.") }
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
    fn entity(
        &mut self,
        start: usize,
        end: usize,
        path: &str,
        depth: usize,
        inherited: Option<&str>,
        kind: Kind,
    ) {
        self.entities += 1;
        if self.entities > self.opts.max_parts {
            self.rest_as_text(start, end, path, inherited);
            return;
        }
        // An HTTP message starts with its request or status line.
        let start = match kind {
            Kind::Http => {
                let raw = self.raw.get(start..end).unwrap_or(&[]);
                memchr::memchr(b'\n', raw).map_or(end, |i| start + i + 1)
            }
            _ => start,
        };
        let (fields, body_start) = self.split_header(start, end, path);
        let mut info = self.header_info(&fields, path);
        let record = match (kind, self.opts.web) {
            (Kind::Top, Some(offset)) => Some(self.record(&fields, offset)),
            _ => None,
        };
        if kind == Kind::Top {
            self.parsed.message_id = info.message_id.clone();
        }
        // A record's target is the base of what it holds (WARC 1.1
        // 5.3, `WARC-Target-URI`), unless its own fields give one.
        let target = record.as_ref().and_then(|r| r.target.clone());
        let inherited = match (&target, inherited) {
            (Some(t), _) if Uri::parse(t).is_absolute() => Some(t.as_str()),
            (_, i) => i,
        };
        let base = self.part_base(&info, inherited, path);
        // A body without a type is text (an HTTP body too: nothing in it
        // is lost, and RFC 9110 8.3 lets a recipient sniff it).
        let ct: &str = match &info.content_type {
            Some(ct) => ct,
            None if kind == Kind::DigestChild => "message/rfc822",
            None => "text/plain",
        };
        match record {
            // A record's own fields describe it; they are not scanned.
            Some(r) => self.parsed.record = Some(std::sync::Arc::new(r)),
            None => {
                for f in &fields {
                    self.header_piece(f, path, &base, ct);
                }
            }
        }
        if kind == Kind::Http {
            // The HTTP framing replaces MIME's transfer encodings.
            info.http = Some(self.codings(&fields));
            info.transfer = None;
        }
        self.body(&info, ct, body_start, end, path, depth, base.as_deref());
    }

    /// The codings an HTTP message's fields name, lower case.
    fn codings(&self, fields: &[Field<'_>]) -> Codings {
        let coding = |name: &str| {
            fields
                .iter()
                .filter(|f| f.name.eq_ignore_ascii_case(name))
                .map(|f| {
                    let (v, _) = self.unfold(f);
                    String::from_utf8_lossy(&v).to_ascii_lowercase()
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        Codings {
            transfer: coding("transfer-encoding"),
            content: coding("content-encoding"),
        }
    }

    /// What a web archive record's header fields say about it.
    fn record(&self, fields: &[Field<'_>], offset: u64) -> Record {
        let mut r = Record { offset, ..Record::default() };
        for f in fields {
            let slot = match f.name.to_ascii_lowercase().as_str() {
                "warc-record-id" => &mut r.id,
                "warc-type" => &mut r.kind,
                "warc-target-uri" => &mut r.target,
                "content-type" => &mut r.content_type,
                _ => continue,
            };
            if slot.is_none() {
                let (bytes, _) = self.unfold(f);
                let v = String::from_utf8_lossy(&bytes);
                let v = v.trim();
                // Record IDs are written in angle brackets, and WARC 1.0
                // wrote the target so too.
                let v = v
                    .strip_prefix('<')
                    .and_then(|x| x.strip_suffix('>'))
                    .unwrap_or(v);
                *slot = Some(v.to_string());
            }
        }
        r
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
        // Room for a usual header (a few dozen fields) at once.
        let mut fields: Vec<Field<'a>> = Vec::with_capacity(64);
        let mut pos = start;
        let mut first = true;
        while pos < end {
            let line_end =
                crate::sieve::find_byte(raw.get(pos..).unwrap_or(&[]), b'\n')
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

    /// The value of a field written on one line (most fields), trimmed,
    /// and its raw offset: what [`Walker::unfold`] makes of it, without a
    /// copy. `None` for a folded value.
    fn one_line(&self, field: &Field<'_>) -> Option<(&'a [u8], usize)> {
        let (s, e) = field.value;
        let v = self.raw.get(s..e).unwrap_or(&[]);
        let v = v.strip_suffix(b"\n").unwrap_or(v);
        if memchr::memchr(b'\n', v).is_some() {
            return None;
        }
        let lead = v.iter().take_while(|&&c| c == b' ' || c == b'\t');
        let from = lead.count();
        let mut to = v.len();
        while to > from && matches!(v[to - 1], b' ' | b'\t' | b'\r') {
            to -= 1;
        }
        Some((&v[from..to], s + from))
    }

    /// The unfolded value of a field, borrowed where it is on one line.
    fn unfolded(&self, field: &Field<'_>) -> Cow<'a, [u8]> {
        match self.one_line(field) {
            Some((v, _)) => Cow::Borrowed(v),
            None => Cow::Owned(self.unfold(field).0),
        }
    }

    /// The unfolded value of a field: its bytes and their raw offsets.
    fn unfold(&self, field: &Field<'_>) -> (Vec<u8>, OffsetMap) {
        let (s, e) = field.value;
        let v = self.raw.get(s..e).unwrap_or(&[]);
        if let Some((v, at)) = self.one_line(field) {
            let mut b = MapBuilder::default();
            b.push(0, at, true);
            return (v.to_vec(), b.finish(s));
        }
        // An anchor a line: room for a few lines at once.
        let mut b = MapBuilder::with_capacity(8);
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
            let Some(name) =
                SLOTS.iter().find(|s| f.name.eq_ignore_ascii_case(s))
            else {
                continue;
            };
            let bytes = self.unfolded(f);
            // An ASCII value (most) is its text without the lossy
            // conversion's character by character reading.
            let value = match crate::sieve::ascii_str(&bytes) {
                Some(v) => Cow::Borrowed(v),
                None => String::from_utf8_lossy(&bytes),
            };
            match *name {
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
                    info.transfer = Some(structured_main(&value));
                }
                "content-base" if info.base.is_none() => {
                    info.base = Some(uri_value(&value));
                }
                "content-location" if info.location.is_none() => {
                    info.location = Some(uri_value(&value));
                }
                "content-disposition" => {
                    info.attachment |= structured_main(&value) == "attachment";
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
        let marks = self.opts.skip_fields_without_scheme.then(|| {
            value_marks(self.raw.get(f.value.0..f.value.1).unwrap_or(&[]))
        });
        if marks == Some(ValueMarks::Nothing) {
            return;
        }
        // A value on one line without encoded words, in UTF-8 (most
        // fields): its text is its bytes, copied at one offset. A plain
        // value with a colon the scanner keeps is known to be such text
        // and to hold a colon once it is on one line (trimming takes
        // only whitespace from its ends).
        let simple = match marks {
            Some(ValueMarks::PlainColon) => self
                .one_line(f)
                .and_then(|(v, at)| Some((crate::sieve::ascii_str(v)?, at))),
            _ => self
                .one_line(f)
                .filter(|(v, _)| {
                    !v.is_empty() && crate::lex::find_short(v, b"=?").is_none()
                })
                .and_then(|(v, at)| Some((std::str::from_utf8(v).ok()?, at))),
        };
        let (text, map, decoded) = match simple {
            Some((v, at)) => {
                if marks == Some(ValueMarks::Encoded)
                    && crate::sieve::find_byte(v.as_bytes(), b':').is_none()
                {
                    return;
                }
                (Cow::Borrowed(v), OffsetMap::linear_from(at), Decoded::None)
            }
            None => {
                let (bytes, unfold_map) = self.unfold(f);
                let mut warnings = Vec::new();
                let (text, map, decoded) = decode_words(&bytes, &mut warnings);
                for w in warnings {
                    let p = where_(path);
                    self.warn(format!("{p}: header {}: {w}", excerpt(f.name)));
                }
                if self.opts.skip_fields_without_scheme
                    && crate::sieve::find_byte(text.as_bytes(), b':').is_none()
                {
                    return;
                }
                let map = map.then(text.len(), unfold_map);
                (Cow::Owned(text), map, decoded)
            }
        };
        (self.each)(
            &self.parsed,
            PieceRef {
                header: Some(Cow::Borrowed(f.name)),
                html: false,
                part: Cow::Borrowed(path),
                decoded,
                text,
                map,
                base: base.as_deref(),
                content_type: ct,
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
        let web = self.opts.web.is_some();
        if web && ct == "application/http" && depth < self.opts.max_depth {
            self.entity(start, end, path, depth + 1, base, Kind::Http);
        } else if web && ct == "application/xhtml+xml" {
            self.leaf(info, "text/html", start, end, path, base, true);
        } else if web && is_textual_application(ct) {
            self.leaf(info, ct, start, end, path, base, true);
        } else if top == "multipart" {
            self.multipart(info, ct, start, end, path, depth, base);
        } else if composite {
            self.entity(start, end, path, depth + 1, base, Kind::Part);
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
        } else if let Some(c) = self.container(info, ct, start, end, path) {
            match c {
                Container::Tnef(data) => self.tnef(&data, start, path, base),
                Container::Outlook(m) => {
                    self.outlook_message(&m, start, path, base);
                }
            }
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
            let kind = if digest { Kind::DigestChild } else { Kind::Part };
            self.entity(start + s, start + e, &child, depth + 1, base, kind);
        }
        if let Some(r) = split.rest {
            self.rest_as_text(start + r, end, path, base);
            return;
        }
        let (s, e) = split.epilogue;
        self.outside_parts(start + s, start + e, path, "epilogue", base);
    }

    /// A part that is a TNEF stream (`winmail.dat`, see
    /// [`crate::mail::tnef`]: declared `application/ms-tnef` or
    /// `application/vnd.ms-tnef`, named `winmail.dat`, or starting with
    /// TNEF's signature) or an Outlook message (see
    /// [`crate::mail::outlook`]: declared `application/vnd.ms-outlook`,
    /// named `*.msg`, or a compound file that holds a message), decoded.
    fn container(
        &mut self,
        info: &Info,
        ct: &str,
        start: usize,
        end: usize,
        path: &str,
    ) -> Option<Container> {
        let body = self.raw.get(start..end).unwrap_or(&[]);
        let transfer = info.transfer.as_deref().unwrap_or("");
        let name =
            info.params.get("name").unwrap_or_default().to_ascii_lowercase();
        let tnef_declared =
            matches!(ct, "application/ms-tnef" | "application/vnd.ms-tnef")
                || name == "winmail.dat";
        let msg_declared =
            ct == "application/vnd.ms-outlook" || name.ends_with(".msg");
        let decode = |b: &[u8]| match transfer {
            "base64" => decode_base64(&b[..base64_extent(b)]).0,
            "quoted-printable" => decode_qp(b, 0).0,
            _ => b.to_vec(),
        };
        // The first bytes alone (16 base64 characters hold 12).
        let head = decode(&body[..body.len().min(64)]);
        let (tnef_sig, cfb_sig) = (
            head.starts_with(&tnef::SIGNATURE),
            head.starts_with(&outlook::SIGNATURE),
        );
        if !(tnef_declared || msg_declared || tnef_sig || cfb_sig) {
            return None;
        }
        let data = decode(body);
        let w = where_(path);
        if data.starts_with(&tnef::SIGNATURE) {
            return Some(Container::Tnef(data));
        }
        if data.starts_with(&outlook::SIGNATURE) {
            match outlook::parse(&data) {
                Ok(m) => return Some(Container::Outlook(Box::new(m))),
                // Other compound files (Word, Excel) are attachments like
                // any other.
                Err(e) if msg_declared => self.warn(format!("{w}: {e}")),
                Err(_) => {}
            }
            return None;
        }
        if tnef_declared || msg_declared {
            let what =
                if tnef_declared { "TNEF" } else { "an Outlook message" };
            self.warn(format!(
                "{w}: declared {what} but has no signature of one"
            ));
        }
        None
    }

    /// The bodies of TNEF data `data` (a part starting at `start`) and
    /// its attached files, as [`Walker::rich`] gives them.
    pub(super) fn tnef(
        &mut self,
        data: &[u8],
        start: usize,
        path: &str,
        base: Option<&str>,
    ) {
        let t = tnef::parse(data);
        self.rich(&t, Decoded::Tnef, start, path, "tnef", base);
    }

    /// An Outlook message `data` (a part starting at `start`, or a `.msg`
    /// file): its Internet header's fields, bodies and attached files as
    /// [`Walker::rich`] gives them, and its attached messages as parts
    /// `PATH.msg.N`, `depth` levels down.
    pub(super) fn outlook(
        &mut self,
        data: &[u8],
        start: usize,
        path: &str,
        base: Option<&str>,
    ) {
        match outlook::parse(data) {
            Ok(m) => self.outlook_message(&m, start, path, base),
            Err(e) => {
                let w = where_(path);
                self.warn(format!("{w}: {e}"));
            }
        }
    }

    fn outlook_message(
        &mut self,
        m: &outlook::Msg,
        start: usize,
        path: &str,
        base: Option<&str>,
    ) {
        if path.is_empty() && self.parsed.message_id.is_none() {
            self.parsed.message_id = m.message_id.clone();
        }
        if let Some(h) = &m.headers {
            for (name, value) in outlook::header_fields(h) {
                (self.each)(
                    &self.parsed,
                    PieceRef {
                        header: Some(Cow::Owned(name)),
                        html: false,
                        part: Cow::Borrowed(path),
                        decoded: Decoded::Outlook,
                        text: Cow::Owned(value),
                        map: OffsetMap::constant(start),
                        base,
                        content_type: "message/rfc822",
                    },
                );
            }
        }
        self.rich(&m.rich, Decoded::Outlook, start, path, "msg", base);
        for (k, inner) in &m.embedded {
            let part = format!("{}msg.{}", prefix(path), k + 1);
            self.outlook_message(inner, start, &part, base);
        }
    }

    /// The bodies of a message read out of TNEF or an Outlook file, each
    /// scanned, and its attached files that hold text (all of them with
    /// [`MimeOptions::attachments`]), as parts `PATH.KIND.N`: the bodies
    /// with the part's path. Their text maps to the part's first byte,
    /// as base64's does.
    fn rich(
        &mut self,
        t: &tnef::Tnef,
        decoded: Decoded,
        start: usize,
        path: &str,
        kind_name: &str,
        base: Option<&str>,
    ) {
        let w = where_(path);
        for p in &t.problems {
            self.warn(format!("{w}: {p}"));
        }
        let emit = |walker: &mut Self,
                    html: bool,
                    bytes: &[u8],
                    enc: Option<&'static encoding_rs::Encoding>,
                    part: String| {
            let charset = Charset::Whatwg(enc.unwrap_or(WINDOWS_1252));
            let conv = convert(bytes, charset, false);
            let ct = if html { "text/html" } else { "text/plain" };
            (walker.each)(
                &walker.parsed,
                PieceRef {
                    header: None,
                    html,
                    part: Cow::Owned(part),
                    decoded,
                    text: Cow::Owned(conv.text),
                    map: OffsetMap::constant(start),
                    base,
                    content_type: ct,
                },
            );
        };
        if let Some(body) = &t.body {
            emit(self, false, body.as_bytes(), Some(UTF_8), path.to_string());
        }
        if let Some((html, enc)) = &t.html {
            emit(self, true, html, *enc, path.to_string());
        }
        if let Some(compressed) = &t.rtf {
            // LZFu gives at most 17 bytes for every 2 of input.
            let limit =
                compressed.len().saturating_mul(9).saturating_add(4096);
            match rtf::decompress(compressed, limit) {
                // RTF that only wraps the HTML or the plain body that is
                // there too ([MS-OXRTFEX]) would give their URLs twice.
                Ok(raw)
                    if (rtf::is_html(&raw) && t.html.is_some())
                        || (rtf::is_from_text(&raw) && t.body.is_some()) => {}
                Ok(raw) => {
                    let text = rtf::to_text(&raw);
                    let html = rtf::is_html(&raw);
                    let part = path.to_string();
                    emit(self, html, text.as_bytes(), Some(UTF_8), part);
                }
                Err(e) => self.warn(format!("{w}: {e}")),
            }
        }
        for (k, a) in t.attachments.iter().enumerate() {
            let kind = a.kind();
            if a.data.is_empty() || (kind.is_none() && !self.opts.attachments)
            {
                continue;
            }
            let part = format!("{}{kind_name}.{}", prefix(path), k + 1);
            let enc = std::str::from_utf8(&a.data).is_ok().then_some(UTF_8);
            emit(self, kind == Some(true), &a.data, enc, part);
        }
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
            without_yenc(Cow::Borrowed(bytes), OffsetMap::linear_from(start));
        let enc = if crate::sieve::utf8(&bytes).is_some() {
            UTF_8
        } else {
            WINDOWS_1252
        };
        let conv = convert(&bytes, Charset::Whatwg(enc), true);
        let map = conv.map.then(conv.text.len(), map);
        (self.each)(
            &self.parsed,
            PieceRef {
                header: None,
                html: false,
                part: Cow::Owned(child_path(path, which)),
                decoded: Decoded::None,
                text: Cow::Owned(conv.text),
                map,
                base,
                content_type: "text/plain",
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
        // The part's charset, for the transfer encoding (warnings about
        // it come below).
        let label = info.params.value("charset");
        let labeled =
            label.and_then(|l| Charset::for_label(l.trim().as_bytes()));
        // A text body taken as written (not HTML, which has no yEnc
        // blocks and holds `=` in every attribute) is read for both
        // `=3D` and `=ybegin ` at once.
        let signs = (info.http.is_none()
            && ct != "text/html"
            && !matches!(transfer, "quoted-printable" | "base64"))
        .then(|| equal_signs(body));
        let mut as_written = false;
        let (bytes, map, decoded) = match transfer {
            _ if info.http.is_some() => {
                let codings = info.http.clone().unwrap_or_default();
                let (bytes, map, decoded, warnings) =
                    http::decode(body, start, &codings);
                for warning in warnings {
                    self.warn(format!("{w}: {warning}"));
                }
                (Cow::Owned(bytes), map, decoded)
            }
            "quoted-printable" => {
                let (bytes, map, clean) = decode_qp_in(body, start, labeled);
                if !clean {
                    self.warn(format!(
                        "{w}: invalid quoted-printable (kept as written)"
                    ));
                }
                (Cow::Owned(bytes), map, Decoded::QuotedPrintable)
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
                (
                    Cow::Owned(bytes),
                    OffsetMap::constant(start),
                    Decoded::Base64,
                )
            }
            t if self.opts.web.is_none()
                && looks_quoted_printable(
                    body,
                    signs.map(|s| s.encoded_eq),
                ) =>
            {
                // Spam often sends quoted-printable without saying so:
                // `=3D` in attributes and `=` at line ends. (Not in a web
                // archive: HTTP has no transfer encoding that looks so,
                // and `=3D` in a page is what the page says.)
                self.warn(format!(
                    "{w}: quoted-printable though declared {:?}, decoded",
                    if t.is_empty() { "7bit".into() } else { excerpt(t) }
                ));
                let (bytes, map, _) = decode_qp_in(body, start, labeled);
                (Cow::Owned(bytes), map, Decoded::QuotedPrintable)
            }
            t => {
                if !matches!(t, "" | "7bit" | "8bit" | "binary") {
                    self.warn(format!(
                        "{w}: unknown transfer encoding {:?}, read as is",
                        excerpt(t)
                    ));
                }
                // Taken as written: borrowed, not copied.
                as_written = true;
                (
                    Cow::Borrowed(body),
                    OffsetMap::linear_from(start),
                    Decoded::None,
                )
            }
        };
        let (charset, declared_ascii) = match label {
            None => (Charset::Whatwg(UTF_8), true),
            Some(l) if is_ascii_label(l) => (Charset::Whatwg(UTF_8), true),
            Some(l) => match labeled {
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
        // charset where their lines are ASCII lines. A body taken as
        // written without `=ybegin ` has none.
        let no_yenc = as_written && signs.is_some_and(|s| !s.ybegin);
        let (bytes, map) = if ct != "text/html"
            && charset.is_ascii_compatible()
            && !no_yenc
        {
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
            (Cow::Owned(out), fmap.then(len, map))
        } else {
            (bytes, map)
        };
        // All the text of a base64 part maps to its first line: no
        // finer map is needed.
        let exact = decoded != Decoded::Base64;
        let mut charset = charset;
        // Valid UTF-8 is the text as it is: borrowed where the bytes
        // are the message's own.
        let utf8 = |bytes: Cow<'a, [u8]>| match bytes {
            Cow::Borrowed(b) => match crate::sieve::utf8(b) {
                Some(text) => Ok(Cow::Borrowed(text)),
                None => Err(Cow::Borrowed(b)),
            },
            Cow::Owned(v) => match crate::sieve::utf8_string(v) {
                Ok(text) => Ok(Cow::Owned(text)),
                Err(v) => Err(Cow::Owned(v)),
            },
        };
        let conv = if declared_ascii && !lenient {
            match utf8(bytes) {
                Ok(text) => (text, OffsetMap::linear_from(0), false, false),
                Err(bytes) => {
                    self.warn(format!(
                        "{w}: 8-bit text without charset, read as \
                         windows-1252"
                    ));
                    charset = Charset::Whatwg(WINDOWS_1252);
                    converted(convert(&bytes, charset, exact))
                }
            }
        } else if charset == Charset::Whatwg(UTF_8) {
            match utf8(bytes) {
                Ok(text) => (text, OffsetMap::linear_from(0), false, false),
                Err(bytes) => converted(convert(&bytes, charset, exact)),
            }
        } else {
            converted(convert(&bytes, charset, exact))
        };
        let (text, cmap, malformed, unsupported) = conv;
        let name = charset.name();
        if malformed && !lenient {
            self.warn(format!(
                "{w}: text not valid {name}, bad bytes replaced"
            ));
        }
        if unsupported && !lenient {
            self.warn(format!("{w}: {name} characters of CNS 11643 replaced"));
        }
        let map = cmap.then(text.len(), map);
        (self.each)(
            &self.parsed,
            PieceRef {
                header: None,
                html: ct == "text/html",
                part: Cow::Borrowed(path),
                decoded,
                text,
                map,
                base,
                content_type: ct,
            },
        );
        if let Some(from) = trailer {
            self.outside_parts(from, end, path, "trailer", base);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn may_hold_scheme_is_its_three_tests() {
        // 8-bit bytes, an encoded word's `=?`, or a colon the scanner
        // keeps, anywhere in the field.
        let pieces: [&[u8]; 9] =
            [b"ab", b"=?", b"=", b"?", b"http:", b"://", b": ", b"\xE9", b" "];
        let mut next = crate::testing::xorshift(0x0bad_cafe);
        for _ in 0..50_000 {
            let raw: Vec<u8> = (0..next() % 40)
                .flat_map(|_| {
                    pieces[next() as usize % pieces.len()].iter().copied()
                })
                .collect();
            let want = !raw.is_ascii()
                || raw.windows(2).any(|w| w == b"=?")
                || (0..raw.len()).any(|i| {
                    raw[i] == b':' && crate::scan::plausible(&raw, i)
                });
            assert_eq!(may_hold_scheme(&raw), want, "{raw:?}");
            // The marks that tell a plain value from one to decode make
            // the same test.
            let encoded =
                !raw.is_ascii() || raw.windows(2).any(|w| w == b"=?");
            let marks = match (want, encoded) {
                (false, _) => ValueMarks::Nothing,
                (true, false) => ValueMarks::PlainColon,
                (true, true) => ValueMarks::Encoded,
            };
            assert_eq!(value_marks(&raw), marks, "{raw:?}");
        }
    }

    /// A field value on one line without encoded words skips unfolding
    /// and word decoding: its text and offsets are what they give.
    #[test]
    fn one_line_fields_as_decoded_words_give_them() {
        // Every field, and only those that may hold a scheme (whose plain
        // values skip the tests for words to decode).
        for skip in [false, true] {
            one_line_fields_give_decoded_words(skip);
        }
    }

    fn one_line_fields_give_decoded_words(skip: bool) {
        let pieces: [&[u8]; 10] = [
            b"http://a.example/",
            b" ",
            b"\t",
            b"\r",
            "\u{e9}".as_bytes(),
            b"x",
            b":",
            b"=?",
            b"=?utf-8?q?a=3Ab?=",
            b"\xff",
        ];
        let opts = MimeOptions {
            skip_fields_without_scheme: skip,
            ..MimeOptions::default()
        };
        let mut next = crate::testing::xorshift(0x5eed_f1e1);
        let mut fast = 0;
        for _ in 0..20_000 {
            let mut value: Vec<u8> = Vec::new();
            for _ in 0..next() % 8 {
                value
                    .extend_from_slice(pieces[next() as usize % pieces.len()]);
            }
            let mut raw = b"X-Link:".to_vec();
            let s = raw.len();
            raw.extend_from_slice(&value);
            raw.extend_from_slice(b"\nSubject: s\n\nbody\n");
            let parsed = parse_message(&raw, &opts);
            let got = parsed
                .pieces
                .iter()
                .find(|p| p.source == PieceKind::Header("X-Link".into()));
            // The general way: the trimmed value, its words decoded.
            let v = &raw[s..s + value.len()];
            let from = v.iter().take_while(|&&c| c == b' ' || c == b'\t');
            let from = from.count();
            let mut to = v.len();
            while to > from && matches!(v[to - 1], b' ' | b'\t' | b'\r') {
                to -= 1;
            }
            let mut b = MapBuilder::default();
            b.push(0, s + from, true);
            let unfold_map = b.finish(s);
            let (text, map, decoded) =
                decode_words(&v[from..to], &mut Vec::new());
            let map = map.then(text.len(), unfold_map.clone());
            let Some(got) = got else {
                assert!(
                    !text.contains(':')
                        || text.is_empty()
                        || skip && !may_hold_scheme(v),
                    "{value:?}"
                );
                continue;
            };
            assert!(!skip || may_hold_scheme(v), "{value:?}");
            fast += usize::from(std::str::from_utf8(&v[from..to]).is_ok());
            assert_eq!(got.text, text, "{value:?}");
            assert_eq!(got.decoded, decoded, "{value:?}");
            for i in 0..=text.len() + 1 {
                assert_eq!(
                    got.map.raw_offset(i),
                    map.raw_offset(i),
                    "{value:?} at {i}"
                );
            }
        }
        assert!(fast > 1_000, "{fast}");
    }
}

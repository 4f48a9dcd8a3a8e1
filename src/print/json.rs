//! JSON Lines: one object per hit, with the URL, its validity and
//! errors, its RFC 3986 components, and where it was found.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Value, json};

use crate::hit::Hit;
use crate::normalize::{iri, normalize_parsed};
use crate::pipeline::InputInfo;
use crate::validate::Uri;

/// An object written field by field, in order, into a line buffer (no
/// map is built: hits are printed by the million).
struct Object<'b> {
    buf: &'b mut Vec<u8>,
    first: bool,
}

impl<'b> Object<'b> {
    fn new(buf: &'b mut Vec<u8>) -> Object<'b> {
        buf.push(b'{');
        Object { buf, first: true }
    }

    /// `"key":value`, the value in serde_json's encoding.
    fn field<T: serde::Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        if !self.first {
            self.buf.push(b',');
        }
        self.first = false;
        self.buf.push(b'"');
        self.buf.extend_from_slice(key.as_bytes()); // keys need no escape
        self.buf.extend_from_slice(b"\":");
        // Writing into a Vec cannot fail; a value that cannot be
        // serialized (none here) would be written as null.
        if serde_json::to_writer(&mut *self.buf, value).is_err() {
            self.buf.extend_from_slice(b"null");
        }
    }

    fn end(self) {
        self.buf.push(b'}');
    }
}

/// A field value of a hit, as [`hit_fields`] gives it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum FieldValue<'a> {
    /// A string, or JSON `null` when `None`.
    Str(Option<&'a str>),
    /// A number, or `null` when `None`.
    Int(Option<u64>),
    /// A boolean.
    Bool(bool),
    /// A list of strings (`errors`).
    Strs(&'a [String]),
    /// The warnings, as (code, message) pairs.
    Warnings(&'a [(&'static str, String)]),
}

/// Every field [`hit_fields`] can give, in its order: those of mail and
/// web archive provenance only for hits found there.
pub const FIELD_NAMES: &[&str] = &[
    "url",
    "resolved",
    "uri",
    "normalized",
    "valid",
    "repaired",
    "errors",
    "warnings",
    "scheme",
    "host",
    "port",
    "path",
    "query",
    "fragment",
    "file",
    "line",
    "column",
    "start",
    "end",
    "context",
    "hyphen_break",
    "alternative",
    "abbreviated",
    "refanged",
    "encoded",
    "unwrapped",
    "message",
    "message_id",
    "part",
    "header",
    "attribute",
    "anchor_text",
    "source",
    "decoded",
    "record_offset",
    "record_id",
    "record_type",
    "target_uri",
    "content_type",
];

/// Give `each` the fields of `hit`, in order, as `--json` prints them
/// (the same keys, the same values): the URL and its forms, validity,
/// components, position, context, and where in a message or web archive
/// record it was found. For programs that want the fields without
/// parsing JSON (the Python package builds its objects from them).
pub fn hit_fields(
    input: &InputInfo,
    hit: &Hit,
    mut each: impl FnMut(&'static str, FieldValue<'_>),
) {
    use FieldValue::*;
    // The components of the URL as written, but for a form written
    // without its scheme or defanged, those of the URI it stands for.
    // The URL is parsed once; the other forms are parsed only when they
    // differ from it (most URLs are their own resolved, URI and
    // warning forms).
    let written = hit.uri();
    let stand_in = hit.abbreviated().is_some() || hit.refanged();
    let uri = match hit.resolved() {
        Some(r) if stand_in => reparse(r, &written),
        _ => written.clone(),
    };
    // RFC 3987 3.1 and RFC 3986 6.2.2-6.2.3, of the resolved form.
    let (uri_form, normalized) = match hit.resolved() {
        Some(r) => {
            let ascii = iri::to_uri(r).unwrap_or_else(|e| e);
            let normal = normalize_parsed(&reparse(&ascii, &written));
            let normal = normal.into_owned();
            (Some(ascii.into_owned()), Some(normal))
        }
        None => (None, None),
    };
    let warnings = warnings(hit, &written);
    let port = uri.port().and_then(|p| p.parse::<u32>().ok());
    let unwrapped = hit.unwrapped();
    each("url", Str(Some(hit.url())));
    each("resolved", Str(hit.resolved()));
    each("uri", Str(uri_form.as_deref()));
    each("normalized", Str(normalized.as_deref()));
    each("valid", Bool(hit.is_valid()));
    each("repaired", Str(hit.repaired()));
    let errors: Vec<String> =
        hit.errors().iter().map(ToString::to_string).collect();
    each("errors", Strs(&errors));
    each("warnings", Warnings(&warnings));
    each("scheme", Str(uri.scheme()));
    each("host", Str(uri.host()));
    each("port", Int(port.map(u64::from)));
    each("path", Str(Some(uri.path())));
    each("query", Str(uri.query()));
    each("fragment", Str(uri.fragment()));
    each("file", Str(Some(&input.name)));
    each("line", Int(Some(hit.line())));
    each("column", Int(Some(hit.column())));
    each("start", Int(Some(hit.start())));
    each("end", Int(Some(hit.end())));
    each("context", Str(Some(hit.context().as_str())));
    each("hyphen_break", Bool(hit.hyphen_break()));
    each("alternative", Str(hit.alternative()));
    each("abbreviated", Str(hit.abbreviated()));
    each("refanged", Bool(hit.refanged()));
    each("encoded", Str(hit.encoded()));
    each("unwrapped", Str(unwrapped.as_deref()));
    if let Some(p) = hit.provenance() {
        each("message", Int(Some(p.message)));
        each("message_id", Str(p.message_id.as_deref()));
        each("part", Str(Some(&p.part)));
        each("header", Str(p.header.as_deref()));
        each("attribute", Str(p.attribute.as_deref()));
        each("anchor_text", Str(p.anchor_text.as_deref()));
        each("source", Str(Some(p.source.as_str())));
        each("decoded", Str(Some(p.decoded.as_str())));
        if let Some(r) = &p.record {
            each("record_offset", Int(Some(r.offset)));
            each("record_id", Str(r.id.as_deref()));
            each("record_type", Str(r.kind.as_deref()));
            each("target_uri", Str(r.target.as_deref()));
            each("content_type", Str(r.content_type.as_deref()));
        }
    }
}

/// Write the JSON object of one hit into `buf`.
pub(crate) fn hit_object(buf: &mut Vec<u8>, input: &InputInfo, hit: &Hit) {
    let mut o = Object::new(buf);
    hit_fields(input, hit, |key, value| match value {
        FieldValue::Str(v) => o.field(key, &v),
        FieldValue::Int(v) => o.field(key, &v),
        FieldValue::Bool(v) => o.field(key, &v),
        FieldValue::Strs(v) => o.field(key, v),
        FieldValue::Warnings(v) => {
            let list: Vec<Value> = v
                .iter()
                .map(|(code, message)| json!({"code": code, "message": message}))
                .collect();
            o.field(key, &list);
        }
    });
    o.end();
}

/// The hit's warnings as (code, message): the URL's own (scheme rules,
/// security lint, registry), then those of the mail reader about the
/// message it came from (code `mail`).
fn warnings(hit: &Hit, written: &Uri) -> Vec<(&'static str, String)> {
    let own = hit
        .warnings_target()
        .map(|t| hit.warnings_of(&reparse(t, written)))
        .unwrap_or_default()
        .into_iter()
        .map(|f| (f.code, f.message));
    let mail = hit
        .provenance()
        .into_iter()
        .flat_map(|p| p.warnings.iter().map(|w| ("mail", w.clone())));
    own.chain(mail).collect()
}

/// `text` parsed: `written`, the parse of the URL as written, when it is
/// the same text.
fn reparse<'a>(text: &'a str, written: &Uri<'a>) -> Uri<'a> {
    if text == written.as_str() { written.clone() } else { Uri::parse(text) }
}

/// Write one JSON line.
pub(crate) fn write_hit<W: Write>(
    out: &mut W,
    input: &InputInfo,
    hit: &Hit,
) -> io::Result<()> {
    let mut line = Vec::with_capacity(1024);
    hit_object(&mut line, input, hit);
    // serde_json writes valid UTF-8.
    let line = String::from_utf8(line).unwrap_or_default();
    out.write_all(escape_invisible(&line).as_bytes())?;
    out.write_all(b"\n")
}

/// serde_json escapes the C0 controls but writes DEL, the C1 controls,
/// bidi controls and invisible characters raw; escape them as `\uXXXX`
/// (a UTF-16 surrogate pair above U+FFFF, RFC 8259 section 7) so JSON
/// output is as safe on a terminal as the plain output, and still exact.
pub(crate) fn escape_invisible(json: &str) -> std::borrow::Cow<'_, str> {
    // Lines of ASCII without DEL (most) are checked at vector speed.
    let plain =
        json.is_ascii() && memchr::memchr(0x7F, json.as_bytes()).is_none();
    if plain || !json.chars().any(is_invisible) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 12);
    for c in json.chars() {
        if is_invisible(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// An unsafe character that serde_json leaves raw (it escapes all
/// below U+0020).
fn is_invisible(c: char) -> bool {
    c >= '\x7f' && crate::sanitize::is_unsafe(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_list_the_fields_in_order() {
        let text = b"From a@b Thu Jan  1 00:00:00 1970\nSubject: x\n\nhttp://a.example/\n";
        for (data, format) in [
            (&text[..], crate::InputFormat::Mbox),
            (&b"see http://a.example/"[..], crate::InputFormat::Text),
        ] {
            let ex =
                crate::Extractor::builder().format(format).build().unwrap();
            let hits = ex.find(data);
            let input = InputInfo { index: 0, name: String::new() };
            let mut keys = Vec::new();
            hit_fields(&input, &hits[0], |k, _| keys.push(k));
            assert_eq!(keys, FIELD_NAMES[..keys.len()], "{format:?}");
        }
    }

    #[test]
    fn invisible_characters_are_escaped() {
        let line = serde_json::json!({
            "u": "a\u{7f}b\u{85}c\u{61C}d\u{180E}e\u{E0041}f\u{1b}é"
        })
        .to_string();
        let escaped = escape_invisible(&line);
        assert_eq!(
            escaped,
            r#"{"u":"a\u007fb\u0085c\u061cd\u180ee\udb40\udc41f\u001bé"}"#
        );
        // Still the same JSON value.
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back.to_string(), line);
    }
}

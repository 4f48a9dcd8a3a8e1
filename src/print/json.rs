//! JSON Lines: one object per hit, with the URL, its validity and
//! errors, its RFC 3986 components, and where it was found.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::hit::Hit;
use crate::normalize::{iri, normalize};
use crate::pipeline::InputInfo;

/// The JSON object for one hit.
pub(crate) fn hit_object(input: &InputInfo, hit: &Hit) -> Value {
    let uri = hit.uri();
    // RFC 3987 3.1 and RFC 3986 6.2.2-6.2.3, of the resolved form.
    let (uri_form, normalized) = match hit.resolved() {
        Some(r) => {
            let ascii = iri::to_uri(r).unwrap_or_else(|e| e);
            let normal = normalize(&ascii).into_owned();
            (Some(ascii.into_owned()), Some(normal))
        }
        None => (None, None),
    };
    let port = uri.port().and_then(|p| p.parse::<u32>().ok());
    let mut obj = json!({
        "url": hit.url(),
        "resolved": hit.resolved(),
        "uri": uri_form,
        "normalized": normalized,
        "valid": hit.is_valid(),
        "errors": hit.errors(),
        "warnings": warnings(hit),
        "scheme": uri.scheme(),
        "host": uri.host(),
        "port": port,
        "path": uri.path(),
        "query": uri.query(),
        "fragment": uri.fragment(),
        "file": input.name,
        "line": hit.line(),
        "column": hit.column(),
        "start": hit.start(),
        "end": hit.end(),
        "context": hit.context().as_str(),
        "hyphen_break": hit.hyphen_break(),
        "alternative": hit.alternative(),
        "abbreviated": hit.abbreviated(),
        "refanged": hit.refanged(),
        "unwrapped": hit.unwrapped(),
    });
    if let (Some(p), Some(map)) = (hit.provenance(), obj.as_object_mut()) {
        map.insert("message".into(), json!(p.message));
        map.insert("message_id".into(), json!(p.message_id));
        map.insert("part".into(), json!(p.part));
        map.insert("header".into(), json!(p.header));
        map.insert("source".into(), json!(p.source.as_str()));
        map.insert("decoded".into(), json!(p.decoded.as_str()));
    }
    obj
}

/// The hit's warnings as `{"code", "message"}` objects: the URL's own
/// (scheme rules, security lint, registry), then those of the mail
/// reader about the message it came from (code `mail`).
fn warnings(hit: &Hit) -> Value {
    let own = hit
        .warnings()
        .into_iter()
        .map(|f| json!({"code": f.code, "message": f.message}));
    let mail = hit.provenance().into_iter().flat_map(|p| {
        p.warnings.iter().map(|w| json!({"code": "mail", "message": w}))
    });
    Value::Array(own.chain(mail).collect())
}

/// Write one JSON line.
pub(crate) fn write_hit<W: Write>(
    out: &mut W,
    input: &InputInfo,
    hit: &Hit,
) -> io::Result<()> {
    let line = serde_json::to_string(&hit_object(input, hit))?;
    out.write_all(escape_invisible(&line).as_bytes())?;
    out.write_all(b"\n")
}

/// serde_json escapes control characters but writes bidi overrides and
/// zero-width characters raw; escape them as `\uXXXX` so JSON output is
/// as safe on a terminal as the plain output, and still exact.
pub(crate) fn escape_invisible(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.chars().any(is_invisible) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 12);
    for c in json.chars() {
        if is_invisible(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

fn is_invisible(c: char) -> bool {
    super::sanitize::is_unsafe(c) && !c.is_ascii()
}

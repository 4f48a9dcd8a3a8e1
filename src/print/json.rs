//! JSON Lines: one object per hit, with the URL, its validity and
//! errors, its RFC 3986 components, and where it was found.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::hit::Hit;
use crate::pipeline::InputInfo;

/// The JSON object for one hit.
pub(crate) fn hit_object(input: &InputInfo, hit: &Hit) -> Value {
    let uri = hit.uri();
    let port = uri.port().and_then(|p| p.parse::<u32>().ok());
    json!({
        "url": hit.url(),
        "resolved": hit.resolved(),
        "valid": hit.is_valid(),
        "errors": hit.errors(),
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
    })
}

/// Write one JSON line.
pub(crate) fn write_hit<W: Write>(
    out: &mut W,
    input: &InputInfo,
    hit: &Hit,
) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &hit_object(input, hit))?;
    out.write_all(b"\n")
}

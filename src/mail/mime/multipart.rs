//! Multipart bodies (RFC 2046 5.1): splitting at the boundary's
//! delimiter lines into preamble, parts and epilogue.

use memchr::memmem;

/// A multipart body cut at the delimiter lines of its boundary (RFC
/// 2046 5.1.1); ranges are offsets in the body.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Split {
    /// The body parts, between the delimiter lines (the line break
    /// before a delimiter line belongs to it).
    pub(super) parts: Vec<(usize, usize)>,
    /// Whether the close delimiter (`--boundary--`) was found.
    pub(super) closed: bool,
    /// The preamble: from the start of the body up to the line break
    /// before the first delimiter line (empty when the body starts with
    /// it).
    pub(super) preamble: (usize, usize),
    /// The epilogue: from the line after the close delimiter to the end
    /// of the body (empty when the close delimiter is missing).
    pub(super) epilogue: (usize, usize),
    /// Where the part after the last one listed starts, when there are
    /// more parts than the limit: the rest of the body is not split.
    pub(super) rest: Option<usize>,
}

/// Splits a multipart body at the delimiter lines of `boundary` into
/// at most `limit` parts. No part: the boundary never occurs.
pub(super) fn split_multipart(
    body: &[u8],
    boundary: &[u8],
    limit: usize,
) -> Split {
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

//! `format=flowed` text (RFC 3676 4): soft line breaks undone.

use crate::mail::offsets::{MapBuilder, OffsetMap};

/// Unwraps `format=flowed` text (RFC 3676 section 4): returns the text
/// and its map to offsets in `input`.
///
/// A line ending in a space (not the signature separator `-- `) joins
/// the next line when both have the same quote depth (count of leading
/// `>`); with `delsp` the trailing space is dropped. Continuation lines
/// lose their quote marks and stuffing space; an unquoted paragraph's
/// first line loses its stuffing space; a quoted paragraph's first line
/// keeps its prefix as written. Line ends of fixed lines are kept.
pub(super) fn unflow(input: &[u8], delsp: bool) -> (Vec<u8>, OffsetMap) {
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

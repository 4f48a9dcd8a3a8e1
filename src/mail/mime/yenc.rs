//! yEnc-encoded binaries in news bodies, left out of the text scanned.

use crate::mail::offsets::{MapBuilder, OffsetMap};
use memchr::memmem;
use std::borrow::Cow;
use std::sync::LazyLock;

/// The searcher for a block's header line, built once.
static YBEGIN: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"=ybegin "));

/// `text` without its yEnc blocks (see [`yenc_blocks`]), and the map of
/// what is left: the text around a block keeps its offsets into the raw
/// message.
pub(super) fn without_yenc(
    text: Cow<'_, [u8]>,
    map: OffsetMap,
) -> (Cow<'_, [u8]>, OffsetMap) {
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
    let map = kept.finish(0).then(len, map);
    (Cow::Owned(out), map)
}

/// The byte ranges of the yEnc blocks of `text` (yEnc 1.3, the formal
/// specification of 2002): from a line that starts `=ybegin ` and has
/// the `line=`, `size=` and `name=` keywords, up to and with the next
/// line that starts `=yend` (to the end of the text if there is none).
/// Between them are a multipart post's `=ypart` line and the data lines:
/// binary bytes shifted by 42, in which a URL or an address is noise.
/// Each range starts at a line start and ends after a line end, so the
/// text around it keeps its lines.
pub(super) fn yenc_blocks(b: &[u8]) -> Vec<(usize, usize)> {
    let line_end = |at: usize| {
        memchr::memchr(b'\n', b.get(at..).unwrap_or(&[]))
            .map_or(b.len(), |k| at + k + 1)
    };
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(p) = YBEGIN.find(b.get(from..).unwrap_or(&[])) {
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

//! HTTP message bodies of web archive records: the chunked transfer
//! coding (RFC 9112 7.1) and the content codings `gzip`, `deflate` and
//! `zstd` (RFC 9110 8.4.1) undone, with the map back to the record.

use std::io::Read;

use crate::hit::Decoded;
use crate::mail::offsets::{MapBuilder, OffsetMap};

/// Most bytes a content coding is decoded to: past it the body is cut
/// (a warning says so), so a small compressed body cannot make a huge
/// one (a decompression bomb) in memory.
pub(crate) const MAX_DECODED: usize = 16 << 20;

/// The codings an HTTP message's header names, lower case: its
/// `Transfer-Encoding` and `Content-Encoding` values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Codings {
    pub transfer: String,
    pub content: String,
}

/// `body` (at raw offset `start`) with the codings undone: the bytes,
/// their map, what was undone, and warnings about what could not be.
pub(super) fn decode(
    body: &[u8],
    start: usize,
    codings: &Codings,
) -> (Vec<u8>, OffsetMap, Decoded, Vec<String>) {
    let mut warnings = Vec::new();
    let chunked = codings.transfer.split(',').any(|t| t.trim() == "chunked");
    let (bytes, map, mut decoded) = if chunked {
        let (bytes, map, clean) = dechunk(body, start);
        if !clean {
            warnings
                .push("invalid chunked body (read as far as it goes)".into());
        }
        (bytes, map, Decoded::Chunked)
    } else {
        (body.to_vec(), OffsetMap::linear_from(start), Decoded::None)
    };
    // Codings are listed in the order they were applied: undone last
    // first.
    let mut out = bytes;
    let mut compressed = false;
    for coding in codings.content.rsplit(',').map(str::trim) {
        match coding {
            "" | "identity" => {}
            c => match inflate(c, &out) {
                Ok((data, cut)) => {
                    if cut {
                        warnings.push(format!(
                            "{c} body cut at {MAX_DECODED} bytes decoded"
                        ));
                    }
                    out = data;
                    compressed = true;
                }
                Err(e) => {
                    warnings.push(format!(
                        "content coding {c:?} not undone ({e}): read as is"
                    ));
                    break;
                }
            },
        }
    }
    if compressed {
        decoded = Decoded::Compressed;
        return (out, OffsetMap::constant(start), decoded, warnings);
    }
    (out, map, decoded, warnings)
}

/// The chunks' data of a chunked body, mapped to their raw offsets;
/// `false` when the framing is broken (what follows is kept as it is).
fn dechunk(body: &[u8], start: usize) -> (Vec<u8>, OffsetMap, bool) {
    let mut out = Vec::with_capacity(body.len());
    let mut map = MapBuilder::default();
    let mut i = 0;
    while let Some(nl) = memchr::memchr(b'\n', &body[i..]).map(|n| i + n) {
        // chunk-size [ chunk-ext ] CRLF
        let line = &body[i..nl];
        let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        let size = std::str::from_utf8(&line[..digits])
            .ok()
            .and_then(|d| usize::from_str_radix(d, 16).ok());
        let Some(size) = size.filter(|_| digits > 0) else { break };
        let data = nl + 1;
        if size == 0 {
            // The last chunk; trailer fields are not body text.
            return (out, map.finish(start + data), true);
        }
        let end = data.saturating_add(size).min(body.len());
        map.push(out.len(), start + data, true);
        out.extend_from_slice(&body[data..end]);
        if end < data + size {
            return (out, map.finish(start + data), false);
        }
        i = end;
        if body[i..].starts_with(b"\r\n") {
            i += 2;
        } else if body[i..].starts_with(b"\n") {
            i += 1;
        }
    }
    // Broken framing: the rest as it is.
    map.push(out.len(), start + i, true);
    out.extend_from_slice(&body[i..]);
    let clean = i == body.len();
    (out, map.finish(start), clean)
}

/// `data` decoded from content coding `coding`, at most [`MAX_DECODED`]
/// bytes (and whether it was cut there).
fn inflate(coding: &str, data: &[u8]) -> Result<(Vec<u8>, bool), String> {
    let reader = decoder(coding, data)?;
    let mut out = Vec::new();
    let read = reader.take(MAX_DECODED as u64 + 1).read_to_end(&mut out);
    match read {
        Ok(_) => {
            let cut = out.len() > MAX_DECODED;
            out.truncate(MAX_DECODED);
            Ok((out, cut))
        }
        // A truncated stream: what was decoded is kept.
        Err(_) if !out.is_empty() => Ok((out, false)),
        Err(e) => Err(e.to_string()),
    }
}

/// The decoder of content coding `coding` over `data`.
fn decoder<'d>(
    coding: &str,
    data: &'d [u8],
) -> Result<Box<dyn Read + 'd>, String> {
    match coding {
        #[cfg(feature = "gzip")]
        "gzip" | "x-gzip" => {
            Ok(Box::new(flate2::read::MultiGzDecoder::new(data)))
        }
        #[cfg(feature = "gzip")]
        "deflate" => {
            // RFC 9110 8.4.1.2: zlib format; some servers send raw
            // deflate, which is tried when the zlib header is absent.
            let zlib = data.len() >= 2
                && (u16::from(data[0]) << 8 | u16::from(data[1])) % 31 == 0
                && data[0] & 0x0f == 8;
            if zlib {
                Ok(Box::new(flate2::read::ZlibDecoder::new(data)))
            } else {
                Ok(Box::new(flate2::read::DeflateDecoder::new(data)))
            }
        }
        #[cfg(feature = "zstd")]
        "zstd" => zstd::stream::read::Decoder::new(data)
            .map(|d| Box::new(d) as Box<dyn Read + 'd>)
            .map_err(|e| e.to_string()),
        #[cfg(not(feature = "gzip"))]
        "gzip" | "x-gzip" | "deflate" => {
            let _ = data;
            Err("not built in".into())
        }
        #[cfg(not(feature = "zstd"))]
        "zstd" => Err("not built in".into()),
        _ => Err("unknown".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codings(t: &str, c: &str) -> Codings {
        Codings { transfer: t.into(), content: c.into() }
    }

    #[test]
    fn dechunks_and_maps_back() {
        let body = b"5\r\nhttp:\r\n7;ext=1\r\n//a.exa\r\n6\r\nmple/x\r\n0\r\nX-T: 1\r\n\r\n";
        let (text, map, decoded, w) =
            decode(body, 100, &codings("chunked", ""));
        assert_eq!(text, b"http://a.example/x");
        assert_eq!(decoded, Decoded::Chunked);
        assert!(w.is_empty());
        assert_eq!(map.raw_offset(0), 103);
        assert_eq!(map.raw_offset(5), 100 + 19);
        assert_eq!(&body[map.raw_offset(12) - 100..][..3], b"mpl");
    }

    #[test]
    fn broken_chunks_keep_the_rest() {
        let (text, _, _, w) =
            decode(b"3\r\nabc\r\nzz\r\nmore", 0, &codings("chunked", ""));
        assert_eq!(text, b"abczz\r\nmore");
        assert_eq!(w.len(), 1);
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn gunzips_inside_chunks() {
        use std::io::Write;
        let mut z =
            flate2::write::GzEncoder::new(Vec::new(), Default::default());
        z.write_all(b"see http://z.example/").unwrap();
        let gz = z.finish().unwrap();
        let mut body = format!("{:x}\r\n", gz.len()).into_bytes();
        body.extend_from_slice(&gz);
        body.extend_from_slice(b"\r\n0\r\n\r\n");
        let (text, map, decoded, w) =
            decode(&body, 7, &codings("chunked", "gzip"));
        assert_eq!(text, b"see http://z.example/");
        assert_eq!(decoded, Decoded::Compressed);
        assert!(w.is_empty());
        assert_eq!(map.raw_offset(4), 7);
    }

    #[test]
    fn unknown_codings_are_read_as_is() {
        let (text, _, decoded, w) = decode(b"abc", 0, &codings("", "br"));
        assert_eq!((text.as_slice(), decoded), (&b"abc"[..], Decoded::None));
        assert!(w[0].contains("\"br\""));
    }
}

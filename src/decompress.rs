//! Compressed inputs: recognises gzip, bzip2, xz and zstd by file name
//! or by their magic bytes and wraps a reader in the matching streaming
//! decoder (pure Rust for gzip and bzip2; liblzma and the reference zstd
//! library, both built from source, for xz and zstd), so archives are
//! read transparently and never whole. It owns the decoders' memory
//! limits and turns their failures into [`DecodeError`]s that say what
//! went wrong in a sentence; what is read before a failure is the
//! caller's to use.

use std::error::Error as StdError;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The largest zstd window decoded, as a power of two: 2^27 = 128 MiB.
/// RFC 8878 3.1.1.1.2 has a decoder accept at least 8 MB and lets it
/// refuse larger windows to protect its memory; 128 MiB is the reference
/// decoder's own default limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`), past
/// which `zstd -d` asks for `--long=N` or `--memory`. Every compression
/// level stays within it (`--ultra -22` uses 2^27); `--long=28` up to
/// `--long=31` on a larger or piped input do not. The limit is checked
/// on the frame header, before the window is allocated: a header
/// claiming 2 GiB or 2 TiB is refused at once.
pub const MAX_ZSTD_WINDOW_LOG: u32 = 27;

/// The most memory liblzma may use to decode one xz input: 136 MiB,
/// enough for an LZMA2 dictionary of 128 MiB (the same limit as zstd's
/// window) plus the decoder's own state. `xz -9` and `-9e` use a 64 MiB
/// dictionary; a larger one (`xz --lzma2=dict=1536MiB`, or a header
/// claiming 4 GiB) is refused before it is allocated (liblzma's
/// `memlimit`, checked as each block header is read).
pub const MAX_XZ_MEMORY: u64 = 136 << 20;

/// A compression format urlx can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// Not compressed.
    None,
    /// gzip (`.gz`), including concatenated members.
    Gzip,
    /// bzip2 (`.bz2`), including concatenated streams.
    Bzip2,
    /// xz (`.xz`), including concatenated streams.
    Xz,
    /// Zstandard (`.zst`, RFC 8878): every frame in turn, skippable
    /// frames (3.1.2) skipped, content checksums (3.1.1) verified.
    Zstd,
}

/// Which inputs a search decompresses ([`ExtractorBuilder::decompress`](crate::ExtractorBuilder::decompress)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decompress {
    /// None: every input is read as it is (the default).
    #[default]
    Never,
    /// Files whose name ends in `.gz`, `.tgz`, `.bz2`, `.xz` or `.zst`
    /// ([`Compression::from_path`]).
    ByName,
    /// Every input whose first bytes are those of a compressed format
    /// ([`Compression::sniff`]), readers included.
    Sniff,
}

impl Decompress {
    /// Whether the file at `path` is read as it is.
    pub(crate) fn reads_as_is(self, path: &Path) -> bool {
        match self {
            Decompress::Never => true,
            Decompress::ByName => {
                Compression::from_path(path) == Compression::None
            }
            Decompress::Sniff => false,
        }
    }
}

impl Compression {
    /// The format a file name's extension says.
    pub fn from_path(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some("gz" | "tgz") => Compression::Gzip,
            Some("bz2") => Compression::Bzip2,
            Some("xz") => Compression::Xz,
            Some("zst") => Compression::Zstd,
            _ => Compression::None,
        }
    }

    /// The format the first bytes of a stream say. A zstd input may
    /// start with a skippable frame (RFC 8878 3.1.2: magic
    /// `0x184D2A50` to `0x184D2A5F`, as `pzstd` writes).
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Compression::Xz
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
            || (head.len() >= 4
                && head[0] & 0xf0 == 0x50
                && head[1..4] == [0x2a, 0x4d, 0x18])
        {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// The format's name: `gzip`, `bzip2`, `xz`, `zstd` (`plain`).
    pub fn name(self) -> &'static str {
        self.names().0
    }

    /// The format's name, and the command that tests a file of it.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Compression::None => ("plain", "cat"),
            Compression::Gzip => ("gzip", "gzip -t"),
            Compression::Bzip2 => ("bzip2", "bzip2 -t"),
            Compression::Xz => ("xz", "xz -t"),
            Compression::Zstd => ("zstd", "zstd -t"),
        }
    }
}

/// `reader` decompressed as `kind`. The decoder's errors are
/// [`DecodeError`]s (inside an `io::Error` of kind `InvalidData`, or
/// `UnexpectedEof` when the data ends early); errors reading `reader`
/// itself come out as they are.
// Built with no codec, every arm of the match returns.
#[cfg_attr(
    not(any(
        feature = "gzip",
        feature = "bzip2",
        feature = "xz",
        feature = "zstd"
    )),
    allow(unreachable_code, unused_variables)
)]
pub fn decoder<'a, R: Read + 'a>(
    reader: R,
    kind: Compression,
) -> io::Result<Box<dyn Read + 'a>> {
    let source = Source(reader);
    let decoder: Box<dyn Read + 'a> = match kind {
        Compression::None => return Ok(Box::new(source.0)),
        #[cfg(feature = "gzip")]
        Compression::Gzip => {
            Box::new(flate2::read::MultiGzDecoder::new(source))
        }
        #[cfg(feature = "bzip2")]
        Compression::Bzip2 => {
            Box::new(bzip2::read::MultiBzDecoder::new(source))
        }
        #[cfg(feature = "xz")]
        Compression::Xz => {
            let stream = liblzma::stream::Stream::new_auto_decoder(
                MAX_XZ_MEMORY,
                liblzma::stream::CONCATENATED,
            )
            .map_err(io::Error::other)?;
            Box::new(liblzma::read::XzDecoder::new_stream(source, stream))
        }
        #[cfg(feature = "zstd")]
        Compression::Zstd => {
            let mut d = zstd::stream::read::Decoder::new(source)?;
            d.window_log_max(MAX_ZSTD_WINDOW_LOG)?;
            Box::new(d)
        }
        #[allow(unreachable_patterns)]
        left_out => {
            let name = left_out.name();
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "{name} input, and this urlx was built without {name} \
                     (Cargo feature `{name}`): decompress it yourself and \
                     pipe it in"
                ),
            ));
        }
    };
    Ok(Box::new(Explained { inner: decoder, kind, out: 0 }))
}

/// `reader` decompressed according to its magic bytes (and returned as
/// it is when it has none).
pub fn sniffed<'a, R: Read + 'a>(reader: R) -> io::Result<Box<dyn Read + 'a>> {
    let mut buffered = BufReader::with_capacity(64 << 10, reader);
    let kind = Compression::sniff(buffered.fill_buf()?);
    decoder(buffered, kind)
}

/// Why a compressed input could not be decoded to its end.
#[derive(Debug)]
pub struct DecodeError {
    kind: Compression,
    /// Bytes decoded before the failure.
    at: u64,
    why: Why,
}

#[derive(Debug)]
enum Why {
    /// The data is not what the format allows, or fails its checksum;
    /// the decoder's own words.
    Damaged(String),
    /// The data ends inside a frame, block or stream.
    Truncated,
    /// The data asks for more memory than the limits above allow.
    TooLarge,
}

impl DecodeError {
    /// The format being decoded.
    pub fn compression(&self) -> Compression {
        self.kind
    }

    /// How many decompressed bytes came before the failure.
    pub fn offset(&self) -> u64 {
        self.at
    }

    /// Whether the input was refused for the memory it asks for.
    pub fn is_too_large(&self) -> bool {
        matches!(self.why, Why::TooLarge)
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, test) = self.kind.names();
        let at = self.at;
        match (&self.why, self.kind) {
            (Why::Damaged(detail), _) if at == 0 => write!(
                f,
                "the file is not {name} data, or is damaged at its start \
                 ({detail}); `{test}` checks it"
            ),
            (Why::Damaged(detail), _) => write!(
                f,
                "the {name} data is damaged after {at} decompressed bytes \
                 ({detail}); the text before that was searched. `{test}` \
                 checks the file"
            ),
            (Why::Truncated, _) => write!(
                f,
                "the {name} data ends early, after {at} decompressed \
                 bytes: the file is truncated{}",
                if at == 0 {
                    ""
                } else {
                    "; the text before that was searched"
                }
            ),
            (Why::TooLarge, Compression::Xz) => write!(
                f,
                "the xz data needs more than {} MiB of memory to decode \
                 (its dictionary is larger than 128 MiB), more than urlx \
                 gives a decoder; decompress it with `xz -dc` and pipe \
                 that into urlx",
                MAX_XZ_MEMORY >> 20
            ),
            (Why::TooLarge, _) => write!(
                f,
                "the {name} data needs a window larger than {} MiB (it \
                 was made with --long), more than urlx gives a decoder; \
                 decompress it with `zstd -dc --long=31` and pipe that \
                 into urlx",
                1u64 << (MAX_ZSTD_WINDOW_LOG - 20)
            ),
        }
    }
}

impl StdError for DecodeError {}

/// The compressed input, whose own read errors are marked so that they
/// are not mistaken for the decoder's.
struct Source<R>(R);

#[derive(Debug)]
struct SourceError(io::Error);

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl StdError for SourceError {}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                e
            } else {
                io::Error::new(e.kind(), SourceError(e))
            }
        })
    }
}

/// Most bytes asked of the zstd decoder at once. libzstd checks a
/// frame's checksum in the same call that gives the frame's last bytes,
/// and a failing call gives none of them: asked for little at a time,
/// it gives all but the last `ZSTD_READ` bytes or fewer before the
/// mismatch is known.
const ZSTD_READ: usize = 32 << 10;

/// A decoder whose failures are [`DecodeError`]s.
struct Explained<D> {
    inner: D,
    kind: Compression,
    /// Bytes decoded so far.
    out: u64,
}

impl<D: Read> Read for Explained<D> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let buf = match self.kind {
            Compression::Zstd if buf.len() > ZSTD_READ => {
                &mut buf[..ZSTD_READ]
            }
            _ => buf,
        };
        match self.inner.read(buf) {
            Ok(n) => {
                self.out += n as u64;
                Ok(n)
            }
            Err(e) => Err(explain(e, self.kind, self.out)),
        }
    }
}

/// The error a decoder returned, as the read error it carries or as a
/// [`DecodeError`].
fn explain(e: io::Error, kind: Compression, at: u64) -> io::Error {
    if e.kind() == io::ErrorKind::Interrupted {
        return e;
    }
    let io_kind = e.kind();
    let inner = match e.into_inner() {
        Some(inner) => inner,
        None => {
            let why = match io_kind {
                io::ErrorKind::UnexpectedEof => Why::Truncated,
                k => Why::Damaged(io::Error::from(k).to_string()),
            };
            return decode_error(kind, at, why);
        }
    };
    let inner = match inner.downcast::<SourceError>() {
        Ok(source) => return source.0,
        Err(inner) => inner,
    };
    let why = if io_kind == io::ErrorKind::UnexpectedEof {
        Why::Truncated
    } else if too_large(kind, &*inner) {
        Why::TooLarge
    } else {
        Why::Damaged(sentence_case(&inner.to_string()))
    };
    decode_error(kind, at, why)
}

fn decode_error(kind: Compression, at: u64, why: Why) -> io::Error {
    let io_kind = match why {
        Why::Truncated => io::ErrorKind::UnexpectedEof,
        _ => io::ErrorKind::InvalidData,
    };
    io::Error::new(io_kind, DecodeError { kind, at, why })
}

/// Whether a decoder's error says the input needs more memory than its
/// limit: liblzma's `LZMA_MEMLIMIT_ERROR`, zstd's
/// `frameParameter_windowTooLarge` (whose text the binding passes on).
fn too_large(
    kind: Compression,
    e: &(dyn StdError + Send + Sync + 'static),
) -> bool {
    let _ = e;
    match kind {
        #[cfg(feature = "xz")]
        Compression::Xz => matches!(
            e.downcast_ref::<liblzma::stream::Error>(),
            Some(liblzma::stream::Error::MemLimit)
        ),
        #[cfg(feature = "zstd")]
        Compression::Zstd => {
            use zstd::zstd_safe::zstd_sys::ZSTD_ErrorCode;
            let code =
                ZSTD_ErrorCode::ZSTD_error_frameParameter_windowTooLarge;
            let name = zstd::zstd_safe::get_error_name(
                0usize.wrapping_sub(code as usize),
            );
            e.to_string() == name
        }
        _ => false,
    }
}

/// `Restored data doesn't match checksum` as `restored data doesn't
/// match checksum`, to sit inside a sentence.
fn sentence_case(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if chars.clone().next().is_some_and(char::is_lowercase) => {
            c.to_lowercase().chain(chars).collect()
        }
        _ => s.to_owned(),
    }
}

#[cfg(all(test, not(feature = "xz")))]
mod left_out {
    use super::*;

    #[test]
    fn a_format_left_out_is_an_error_that_says_so() {
        let xz = [0xfd, b'7', b'z', b'X', b'Z', 0, 0, 0];
        let e = sniffed(&xz[..]).map(|_| ()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::Unsupported);
        let text = e.to_string();
        assert!(
            text.starts_with("xz input, and this urlx was built without xz")
        );
    }
}

#[cfg(all(
    test,
    feature = "gzip",
    feature = "bzip2",
    feature = "xz",
    feature = "zstd"
))]
mod tests {
    use super::*;
    use std::io::Write;

    fn roundtrip(kind: Compression, data: &[u8]) -> Vec<u8> {
        let compressed = match kind {
            Compression::Gzip => {
                let mut e = flate2::write::GzEncoder::new(
                    Vec::new(),
                    flate2::Compression::fast(),
                );
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Compression::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(
                    Vec::new(),
                    bzip2::Compression::fast(),
                );
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Compression::Xz => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Compression::Zstd => zstd::encode_all(data, 3).unwrap(),
            _ => unreachable!(),
        };
        assert_eq!(Compression::sniff(&compressed), kind);
        let mut out = Vec::new();
        sniffed(&compressed[..]).unwrap().read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn formats_roundtrip() {
        let data = b"see http://a.example/ and more\n".repeat(1000);
        for kind in [
            Compression::Gzip,
            Compression::Bzip2,
            Compression::Xz,
            Compression::Zstd,
        ] {
            assert_eq!(roundtrip(kind, &data), data, "{kind:?}");
        }
    }

    #[test]
    fn read_errors_of_the_source_are_not_decode_errors() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::PermissionDenied, "no"))
            }
        }
        let mut out = Vec::new();
        let e = decoder(Broken, Compression::Zstd)
            .unwrap()
            .read_to_end(&mut out)
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        assert!(e.get_ref().unwrap().downcast_ref::<DecodeError>().is_none());
        assert_eq!(e.to_string(), "no");
    }

    #[test]
    fn plain_passes_through() {
        let mut out = Vec::new();
        sniffed(&b"plain text"[..]).unwrap().read_to_end(&mut out).unwrap();
        assert_eq!(out, b"plain text");
    }

    #[test]
    fn by_extension() {
        assert_eq!(
            Compression::from_path(Path::new("a.mbox.gz")),
            Compression::Gzip
        );
        assert_eq!(
            Compression::from_path(Path::new("a.zst")),
            Compression::Zstd
        );
        assert_eq!(
            Compression::from_path(Path::new("a.txt")),
            Compression::None
        );
    }
}

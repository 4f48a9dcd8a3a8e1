//! Compressed inputs: recognises gzip, bzip2, xz and zstd by file name
//! or by their magic bytes and wraps a reader in the matching streaming
//! decoder (pure Rust, but for xz, whose decoder is liblzma built from
//! source), so archives are read transparently and never whole.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

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
    /// Zstandard (`.zst`).
    Zstd,
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

    /// The format the first bytes of a stream say.
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Compression::Xz
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// `reader` decompressed as `kind`.
pub fn decoder<'a, R: Read + 'a>(
    reader: R,
    kind: Compression,
) -> io::Result<Box<dyn Read + 'a>> {
    Ok(match kind {
        Compression::None => Box::new(reader),
        Compression::Gzip => {
            Box::new(flate2::read::MultiGzDecoder::new(reader))
        }
        Compression::Bzip2 => {
            Box::new(bzip2::read::MultiBzDecoder::new(reader))
        }
        Compression::Xz => {
            Box::new(liblzma::read::XzDecoder::new_multi_decoder(reader))
        }
        Compression::Zstd => Box::new(
            ruzstd::decoding::StreamingDecoder::new(reader)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?,
        ),
    })
}

/// `reader` decompressed according to its magic bytes (and returned as
/// it is when it has none).
pub fn sniffed<'a, R: Read + 'a>(reader: R) -> io::Result<Box<dyn Read + 'a>> {
    let mut buffered = BufReader::with_capacity(64 << 10, reader);
    let kind = Compression::sniff(buffered.fill_buf()?);
    decoder(buffered, kind)
}

#[cfg(test)]
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
        for kind in [Compression::Gzip, Compression::Bzip2, Compression::Xz] {
            assert_eq!(roundtrip(kind, &data), data, "{kind:?}");
        }
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

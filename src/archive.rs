//! Archives: the members of a tar or zip file, one after another, each
//! a reader of its own, in bounded memory. The feeder makes each member
//! an input named `archive:path/in/archive`, at the archive's position
//! among the inputs ([`crate::InputInfo::index`]).
//!
//! tar (POSIX.1-1988 ustar, GNU and POSIX.1-2001 pax headers) is read as
//! a stream; headers are parsed with the `tar` crate. zip is read with
//! `rc-zip`: from its central directory when it is a regular file, as a
//! stream of local headers otherwise. Only regular files are members;
//! a member that is itself an archive is not opened (it reads as binary
//! data and is skipped as such).

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

use rc_zip::error::{Error as ZipError, FormatError};
use rc_zip::fsm::{EntryFsm, FsmResult};
use rc_zip::parse::{Entry, EntryKind};
use rc_zip_sync::ReadZip;

/// Bytes of a tar header block, and the unit tar data is padded to.
const BLOCK: usize = 512;

/// The longest GNU long name or pax header read.
const MAX_META: u64 = 1 << 20;

/// A zip member may expand to this many times its compressed size (or
/// to [`EXPAND_FLOOR`], whichever is more) before it is cut with an
/// error. Text deflates 3 to 20 times, the most repetitive logs a few
/// hundred; a zip bomb's member about 1,000 times (deflate's limit).
pub(crate) const MAX_RATIO: u64 = 200;

/// See [`MAX_RATIO`].
const EXPAND_FLOOR: u64 = 64 << 20;

/// The kind of archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Tar,
    Zip,
}

/// The archive that a stream's first bytes show, if any: a ustar or GNU
/// tar header (the magic at offset 257 and a right checksum), or a zip
/// local file header (or the end record of an empty zip).
pub(crate) fn sniff(head: &[u8]) -> Option<Kind> {
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Kind::Zip);
    }
    let block = head.get(..BLOCK)?;
    (&block[257..262] == b"ustar" && checksum_holds(block))
        .then_some(Kind::Tar)
}

/// Whether a file's name ends as an archive's does (`.tar`, `.tar.gz`,
/// `.tgz`, `.tar.bz2`, `.tbz2`, `.tar.xz`, `.txz`, `.tar.zst`, `.tzst`,
/// `.zip`), in any case.
///
/// An archive is recognised by its first bytes; a regular file smaller
/// than a chunk (512 KiB) is opened before it is scanned only when its
/// name says archive, so a small archive with another name is read as
/// binary data (and skipped as such).
pub fn named(path: &Path) -> bool {
    // Asked of every small file of a walk: no allocation.
    let Some(name) = path.file_name().map(|n| n.as_encoded_bytes()) else {
        return false;
    };
    [
        ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz",
        ".txz", ".tar.zst", ".tzst", ".zip",
    ]
    .iter()
    .any(|ext| {
        name.len() >= ext.len()
            && name[name.len() - ext.len()..]
                .eq_ignore_ascii_case(ext.as_bytes())
    })
}

/// The tar header checksum (POSIX.1 `chksum`): the sum of the block's
/// bytes with the checksum field taken as spaces.
fn checksum_holds(block: &[u8]) -> bool {
    let Ok(header) = <&[u8; BLOCK]>::try_from(block) else { return false };
    let header = tar::Header::from_byte_slice(header);
    let Ok(want) = header.cksum() else { return false };
    let sum: u32 = block
        .iter()
        .enumerate()
        .map(|(i, &b)| if (148..156).contains(&i) { 32 } else { u32::from(b) })
        .sum();
    sum == want
}

/// One member: its path in the archive and its bytes.
pub(crate) struct Member<'a> {
    pub(crate) path: String,
    pub(crate) reader: Box<dyn Read + 'a>,
}

/// The members of one archive, in order.
pub(crate) struct Members<'a> {
    inner: Inner<'a>,
}

enum Inner<'a> {
    Tar(Rc<RefCell<Tar<'a>>>),
    /// A zip file's entries from its central directory.
    /// Each entry with whether its data overlaps another's.
    ZipFile {
        file: Arc<File>,
        entries: std::vec::IntoIter<(Entry, bool)>,
    },
    /// A zip stream, read by local headers.
    ZipStream(Rc<RefCell<ZipStream<'a>>>),
    Done,
}

impl<'a> Members<'a> {
    /// The members of the archive `r` holds (`kind` from [`sniff`]).
    pub(crate) fn stream(
        kind: Kind,
        r: Box<dyn Read + 'a>,
    ) -> io::Result<Members<'a>> {
        let inner = match kind {
            Kind::Tar => Inner::Tar(Rc::new(RefCell::new(Tar {
                src: r,
                left: 0,
                pad: 0,
                failed: false,
            }))),
            Kind::Zip => Inner::ZipStream(Rc::new(RefCell::new(ZipStream {
                src: r,
                state: ZipState::Between(None),
            }))),
        };
        Ok(Members { inner })
    }

    /// The members of the zip file `file`, by its central directory.
    pub(crate) fn zip_file(file: File) -> io::Result<Members<'a>> {
        let entries: Vec<Entry> = {
            let archive = file.read_zip().map_err(zip_error)?;
            archive.entries().map(|e| (*e).clone()).collect()
        };
        let overlaps = overlapping(&entries);
        let entries: Vec<(Entry, bool)> =
            entries.into_iter().zip(overlaps).collect();
        Ok(Members {
            inner: Inner::ZipFile {
                file: Arc::new(file),
                entries: entries.into_iter(),
            },
        })
    }

    /// The next member, an error that ends the archive, or `None` at its
    /// end.
    pub(crate) fn next_member(&mut self) -> Option<io::Result<Member<'a>>> {
        let next = match &mut self.inner {
            Inner::Tar(tar) => Tar::next(tar),
            Inner::ZipFile { file, entries } => loop {
                let (entry, overlaps) = entries.next()?;
                if entry.kind() != EntryKind::File {
                    continue;
                }
                if overlaps {
                    let error = invalid(
                        "zip member whose data overlaps another's (how zip \
                         bombs expand): not read",
                    );
                    break Some(Ok(Member {
                        path: entry.name,
                        reader: Box::new(Failing(Some(error))),
                    }));
                }
                break Some(Ok(zip_member(file, entry)));
            },
            Inner::ZipStream(zip) => ZipStream::next(zip),
            Inner::Done => None,
        };
        if matches!(next, None | Some(Err(_))) {
            self.inner = Inner::Done;
        }
        next
    }
}

/// A tar stream: where the member being read stands.
struct Tar<'a> {
    src: Box<dyn Read + 'a>,
    /// Bytes of the current member not yet read, then its padding.
    left: u64,
    pad: u64,
    failed: bool,
}

impl<'a> Tar<'a> {
    fn next(tar: &Rc<RefCell<Tar<'a>>>) -> Option<io::Result<Member<'a>>> {
        let mut t = tar.borrow_mut();
        if t.failed {
            return None;
        }
        // Skip what the last member's reader left, and the padding.
        let skip = t.left + t.pad;
        if let Err(e) = t.skip(skip) {
            t.failed = true;
            return Some(Err(e));
        }
        t.left = 0;
        t.pad = 0;
        let mut long_name: Option<Vec<u8>> = None;
        let mut pax_path: Option<Vec<u8>> = None;
        loop {
            let mut block = [0u8; BLOCK];
            match read_full(&mut t.src, &mut block) {
                Ok(0) => return None,
                Ok(n) if n < BLOCK => {
                    t.failed = true;
                    return Some(Err(invalid(
                        "tar archive ends inside a header",
                    )));
                }
                Ok(_) => {}
                Err(e) => {
                    t.failed = true;
                    return Some(Err(e));
                }
            }
            // Two zero blocks end the archive; one is enough here.
            if block.iter().all(|&b| b == 0) {
                return None;
            }
            if !checksum_holds(&block) {
                t.failed = true;
                return Some(Err(invalid("tar header with a wrong checksum")));
            }
            let header = tar::Header::from_byte_slice(&block);
            let size = match header.entry_size() {
                Ok(s) => s,
                Err(e) => {
                    t.failed = true;
                    return Some(Err(e));
                }
            };
            let pad = size.next_multiple_of(BLOCK as u64) - size;
            let kind = header.entry_type();
            if kind.is_gnu_longname() || kind.is_pax_local_extensions() {
                let data = match t.meta(size, pad) {
                    Ok(d) => d,
                    Err(e) => {
                        t.failed = true;
                        return Some(Err(e));
                    }
                };
                if kind.is_gnu_longname() {
                    let end = data.iter().position(|&b| b == 0);
                    long_name =
                        Some(data[..end.unwrap_or(data.len())].to_vec());
                } else {
                    pax_path = tar::PaxExtensions::new(&data)
                        .filter_map(Result::ok)
                        .filter(|e| e.key_bytes() == b"path")
                        .last()
                        .map(|e| e.value_bytes().to_vec());
                }
                continue;
            }
            if !(kind.is_file() || kind.is_contiguous()) {
                // Directories, links, devices, global pax headers, GNU
                // sparse files: nothing to read as a member.
                if let Err(e) = t.skip(size + pad) {
                    t.failed = true;
                    return Some(Err(e));
                }
                long_name = None;
                pax_path = None;
                continue;
            }
            let name = pax_path
                .or(long_name)
                .unwrap_or_else(|| header.path_bytes().into_owned());
            t.left = size;
            t.pad = pad;
            drop(t);
            return Some(Ok(Member {
                path: String::from_utf8_lossy(&name).into_owned(),
                reader: Box::new(TarMember(Rc::clone(tar))),
            }));
        }
    }

    /// Read a metadata member's data whole (at most [`MAX_META`] bytes).
    fn meta(&mut self, size: u64, pad: u64) -> io::Result<Vec<u8>> {
        if size > MAX_META {
            return Err(invalid("tar long name or pax header over 1 MiB"));
        }
        let mut data = vec![0; size as usize];
        if read_full(&mut self.src, &mut data)? < data.len() {
            return Err(invalid("tar archive ends inside a header"));
        }
        self.skip(pad)?;
        Ok(data)
    }

    /// Read and drop `n` bytes; an error if the stream ends first.
    fn skip(&mut self, n: u64) -> io::Result<()> {
        let got = io::copy(&mut (&mut self.src).take(n), &mut io::sink())?;
        if got < n {
            return Err(invalid("tar archive ends inside a member"));
        }
        Ok(())
    }
}

/// A tar member's bytes, read from the shared stream.
struct TarMember<'a>(Rc<RefCell<Tar<'a>>>);

impl Read for TarMember<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut t = self.0.borrow_mut();
        if t.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want =
            buf.len().min(usize::try_from(t.left).unwrap_or(usize::MAX));
        let n = t.src.read(&mut buf[..want])?;
        if n == 0 {
            t.failed = true;
            return Err(invalid("tar archive ends inside a member"));
        }
        t.left -= n as u64;
        Ok(n)
    }
}

/// A member of a zip file: its entry decompressed from its local header
/// on, by positional reads.
fn zip_member<'a>(file: &Arc<File>, entry: Entry) -> Member<'a> {
    let path = entry.name.clone();
    let limit = expand_limit(entry.compressed_size);
    let reader = ZipMember {
        file: Arc::clone(file),
        pos: entry.header_offset,
        fsm: Some(Box::new(EntryFsm::new(Some(entry), None))),
    };
    Member { path, reader: Box::new(Capped { inner: reader, left: limit }) }
}

/// For each entry, whether its local header and data run into those of
/// the entry stored after it: in a well-formed zip they never do; a
/// "flat" zip bomb points many entries at the same compressed bytes.
fn overlapping(entries: &[Entry]) -> Vec<bool> {
    let mut by_offset: Vec<usize> = (0..entries.len()).collect();
    by_offset.sort_by_key(|&i| entries[i].header_offset);
    let mut out = vec![false; entries.len()];
    for pair in by_offset.windows(2) {
        let (a, b) = (&entries[pair[0]], &entries[pair[1]]);
        // A local header is 30 bytes and more.
        let end = a
            .header_offset
            .saturating_add(30)
            .saturating_add(a.compressed_size);
        if end > b.header_offset {
            out[pair[0]] = true;
            out[pair[1]] = true;
        }
    }
    out
}

/// A reader that fails once with its error, then ends.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

/// The most bytes a member of `compressed` bytes may expand to.
fn expand_limit(compressed: u64) -> u64 {
    compressed.saturating_mul(MAX_RATIO).max(EXPAND_FLOOR)
}

struct ZipMember {
    file: Arc<File>,
    pos: u64,
    fsm: Option<Box<EntryFsm>>,
}

impl Read for ZipMember {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(fsm) = self.fsm.take() else { return Ok(0) };
        let (file, pos) = (&self.file, &mut self.pos);
        let mut src = |space: &mut [u8]| {
            let n = read_at(file, space, *pos)?;
            *pos += n as u64;
            Ok(n)
        };
        match step(fsm, &mut src, buf)? {
            Step::Data(fsm, n) => {
                self.fsm = Some(fsm);
                Ok(n)
            }
            Step::Done(_) => Ok(0),
        }
    }
}

/// What one [`step`] of an entry's state machine gave.
enum Step {
    /// Decompressed bytes, and the machine to go on with.
    Data(Box<EntryFsm>, usize),
    /// The entry's end (its size and CRC-32 checked), with the bytes
    /// read past it.
    Done(oval::Buffer),
}

/// Run an entry's state machine, reading from `src` as it asks, until
/// it writes into `buf` (not empty) or the entry ends.
fn step(
    mut fsm: Box<EntryFsm>,
    src: &mut dyn FnMut(&mut [u8]) -> io::Result<usize>,
    buf: &mut [u8],
) -> io::Result<Step> {
    if buf.is_empty() {
        return Ok(Step::Data(fsm, 0));
    }
    loop {
        let mut ended = false;
        if fsm.wants_read() {
            let n = src(fsm.space())?;
            ended = n == 0;
            fsm.fill(n);
        }
        match (*fsm).process(buf).map_err(zip_error)? {
            FsmResult::Continue((next, out)) => {
                let next = Box::new(next);
                if out.bytes_written > 0 {
                    return Ok(Step::Data(next, out.bytes_written));
                }
                if out.bytes_read == 0 && (ended || !next.wants_read()) {
                    return Err(invalid("zip archive ends inside a member"));
                }
                fsm = next;
            }
            FsmResult::Done(rest) => return Ok(Step::Done(rest)),
        }
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    loop {
        match file.read_at(buf, pos) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    use std::os::windows::fs::FileExt;
    file.seek_read(buf, pos)
}

/// A zip read as a stream of local headers (RFC-less: PKWARE's
/// APPNOTE 4.3.7), each member's data decompressed to find its end.
struct ZipStream<'a> {
    src: Box<dyn Read + 'a>,
    state: ZipState,
}

enum ZipState {
    /// Before a local header, with the bytes read past the last entry.
    Between(Option<oval::Buffer>),
    /// In a member's data.
    Data(Box<EntryFsm>),
    /// The central directory was reached, or the stream failed.
    Ended,
}

impl<'a> ZipStream<'a> {
    fn next(
        zip: &Rc<RefCell<ZipStream<'a>>>,
    ) -> Option<io::Result<Member<'a>>> {
        let mut z = zip.borrow_mut();
        loop {
            match std::mem::replace(&mut z.state, ZipState::Ended) {
                ZipState::Ended => return None,
                ZipState::Data(fsm) => {
                    // What the member's reader left.
                    z.state = ZipState::Data(fsm);
                    let mut sink = [0u8; 8192];
                    loop {
                        match z.read_data(&mut sink) {
                            Ok(0) => break,
                            Ok(_) => {}
                            Err(e) => return Some(Err(e)),
                        }
                    }
                }
                ZipState::Between(rest) => {
                    let mut fsm = Box::new(EntryFsm::new(None, rest));
                    let entry = loop {
                        let mut ended = false;
                        if fsm.wants_read() {
                            match read_some(&mut z.src, fsm.space()) {
                                Ok(n) => {
                                    ended = n == 0;
                                    fsm.fill(n);
                                }
                                Err(e) => return Some(Err(e)),
                            }
                        }
                        match fsm.process_till_header() {
                            Ok(Some(entry)) => break entry.clone(),
                            Ok(None) if ended => {
                                return Some(Err(invalid(
                                    "zip stream ends without its central \
                                     directory (truncated?)",
                                )));
                            }
                            Ok(None) => {}
                            // No local header: the central directory.
                            Err(ZipError::Format(
                                FormatError::InvalidLocalHeader,
                            )) => return None,
                            Err(e) => return Some(Err(zip_error(e))),
                        }
                    };
                    z.state = ZipState::Data(fsm);
                    if entry.kind() != EntryKind::File {
                        continue;
                    }
                    // A streamed entry with a data descriptor says 0
                    // bytes here: then only the floor holds it.
                    let left = expand_limit(entry.compressed_size);
                    let inner = ZipStreamMember(Rc::clone(zip));
                    return Some(Ok(Member {
                        path: entry.name,
                        reader: Box::new(Capped { inner, left }),
                    }));
                }
            }
        }
    }

    /// The current member's next bytes (0 at its end); an error ends
    /// the stream.
    fn read_data(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Past the member's end (read again after it): nothing more.
        if !matches!(self.state, ZipState::Data(_)) {
            return Ok(0);
        }
        let ZipState::Data(fsm) =
            std::mem::replace(&mut self.state, ZipState::Ended)
        else {
            return Ok(0);
        };
        let src = &mut self.src;
        let mut more = |space: &mut [u8]| read_some(src, space);
        match step(fsm, &mut more, buf) {
            Ok(Step::Data(fsm, n)) => {
                self.state = ZipState::Data(fsm);
                Ok(n)
            }
            Ok(Step::Done(rest)) => {
                self.state = ZipState::Between(Some(rest));
                Ok(0)
            }
            Err(e) => Err(io::Error::new(
                e.kind(),
                format!("{e}; the rest of the zip stream is not read"),
            )),
        }
    }
}

struct ZipStreamMember<'a>(Rc<RefCell<ZipStream<'a>>>);

impl Read for ZipStreamMember<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.borrow_mut().read_data(buf)
    }
}

/// A member cut with an error past `left` bytes (see [`MAX_RATIO`]).
struct Capped<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        match self.left.checked_sub(n as u64) {
            Some(left) => {
                self.left = left;
                Ok(n)
            }
            None => Err(invalid(&format!(
                "zip member expands past {MAX_RATIO} times its compressed \
                 size and past 64 MiB (a zip bomb?): the rest of it is \
                 not read"
            ))),
        }
    }
}

/// One read, retried when interrupted.
fn read_some(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

fn zip_error(e: ZipError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zip: {e}"))
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Read until `buf` is full or the stream ends; the bytes read.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tar of `files` written by the tar crate's builder.
    fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (name, data) in files {
            let mut h = tar::Header::new_ustar();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, name, *data).unwrap();
        }
        b.into_inner().unwrap()
    }

    #[test]
    fn tar_members_in_order_whatever_is_left_unread() {
        let long = "d/".repeat(80) + "long-name.txt";
        let bytes = tar_of(&[
            ("a.txt", b"http://a.example/\n"),
            ("b.txt", b"never read\n"),
            (&long, b"http://c.example/\n"),
        ]);
        assert_eq!(sniff(&bytes), Some(Kind::Tar));
        let mut m = Members::stream(Kind::Tar, Box::new(&bytes[..])).unwrap();
        let mut a = m.next_member().unwrap().unwrap();
        assert_eq!(a.path, "a.txt");
        assert_eq!(a.reader.read(&mut []).unwrap(), 0);
        let mut text = String::new();
        a.reader.read_to_string(&mut text).unwrap();
        assert_eq!(text, "http://a.example/\n");
        // b.txt is skipped unread; a GNU long name is read whole.
        assert_eq!(m.next_member().unwrap().unwrap().path, "b.txt");
        let mut c = m.next_member().unwrap().unwrap();
        assert_eq!(c.path, long);
        text.clear();
        c.reader.read_to_string(&mut text).unwrap();
        assert_eq!(text, "http://c.example/\n");
        assert!(m.next_member().is_none());
    }

    #[test]
    fn names_say_archive() {
        for n in ["a.tar", "A.TGZ", "x.tar.zst", "mail.zip", "b.tar.bz2"] {
            assert!(named(Path::new(n)), "{n}");
        }
        for n in ["a.gz", "tar", "zip.txt", "a.mbox"] {
            assert!(!named(Path::new(n)), "{n}");
        }
    }
}

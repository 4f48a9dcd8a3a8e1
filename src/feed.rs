//! Feeding: opens the inputs in order, decides how each is read (a
//! regular file in parts or whole, a stream through the roll buffer, mail
//! message by message) and cuts them into the items of a batch, within a
//! byte budget. It owns reading; `pipeline` owns what happens to a batch.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::archive::{self, Members};
use crate::decompress::{Compression, Decompress, decoder, sniffed};
use crate::delimit::LOOKBACK;
use crate::format::{self, HEAD, InputFormat, Reading};
use crate::mail::mbox::{Message, Records};
use crate::stream::{Roll, Segment};

/// One input to [`Extractor::search`](crate::Extractor::search): a name and a way to open it.
///
/// Inputs are opened in order on the thread that calls `search`. A
/// reader is read there too; a regular file given with [`Input::file`] is
/// read by the threads that scan it.
pub struct Input<'a> {
    pub(crate) name: String,
    pub(crate) origin: Origin<'a>,
}

/// Where an [`Input`] comes from, and so how it is opened.
pub(crate) enum Origin<'a> {
    Reader(Box<dyn FnOnce() -> io::Result<Box<dyn Read + 'a>> + 'a>),
    /// A path, and its length if the caller knows it already.
    File(PathBuf, Option<u64>),
}

impl<'a> Input<'a> {
    /// An input opened lazily, when the extractor reaches it.
    pub fn new<F, R>(name: impl Into<String>, open: F) -> Input<'a>
    where
        F: FnOnce() -> io::Result<R> + 'a,
        R: Read + 'a,
    {
        Input {
            name: name.into(),
            origin: Origin::Reader(Box::new(move || {
                open().map(|r| Box::new(r) as Box<dyn Read + 'a>)
            })),
        }
    }

    /// A file, opened when the extractor reaches it. A regular file in
    /// plain text is read by the threads that scan it, each its own
    /// part, with positional reads (on Unix); anything else is read in
    /// order like any reader.
    pub fn file(
        name: impl Into<String>,
        path: impl Into<PathBuf>,
    ) -> Input<'a> {
        Input { name: name.into(), origin: Origin::File(path.into(), None) }
    }

    /// A regular file whose length the caller already knows (from
    /// walking its directory): a small one is then opened, read and
    /// scanned by a scanning thread, so a tree of many small files (a
    /// Maildir) costs the calling thread almost nothing per file.
    pub fn file_with_len(
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        len: u64,
    ) -> Input<'a> {
        Input {
            name: name.into(),
            origin: Origin::File(path.into(), Some(len)),
        }
    }

    /// The input's name, as given.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input").field("name", &self.name).finish()
    }
}

/// Most inputs in one batch.
const MAX_BATCH_SEGMENTS: usize = 512;

/// What a byte of a mail message counts for in a batch's size, against
/// one of text: the messages of a batch are copied out of their mailbox
/// by the reading thread and read again by the scanning threads, which
/// find them in the cache only if the batch is small; and decoding a
/// message costs several times scanning its bytes as text.
const MESSAGE_WEIGHT: usize = 4;

/// An input with a NUL byte in its first 64 KiB is binary: skipped.
pub(crate) const BINARY_PROBE: usize = 64 << 10;

/// What one batch entry is.
pub(crate) enum Item {
    /// A segment of input `input`; `first` marks its first segment.
    Data { input: usize, seg: Segment, first: bool, binary_at: Option<usize> },
    /// Input `input` failed to open or read.
    Error { input: usize, error: io::Error },
    /// A mail message of input `input`; `first` marks its first.
    Message { input: usize, msg: Message, first: bool },
    /// The end of mail input `input`.
    End { input: usize },
    /// A range of a regular file, read by the thread that scans it.
    Part { input: usize, part: FilePart },
    /// A whole small regular file, read, recognised and scanned in one
    /// job.
    Small { input: usize, file: File, len: u64 },
    /// The same, opened by the job too.
    SmallPath { input: usize, path: PathBuf, len: u64 },
}

/// A range of a regular file to read and scan in one job.
pub(crate) struct FilePart {
    pub(crate) file: Arc<File>,
    /// The file's length when it was opened.
    pub(crate) len: u64,
    /// The bytes whose triggers this part owns.
    pub(crate) own: Range<u64>,
    pub(crate) first: bool,
    /// Where a NUL byte stopped the file (`u64::MAX`: none yet), shared
    /// by the parts of one file so the ones after it are not scanned.
    pub(crate) stop: Arc<AtomicU64>,
    /// A buffer to read into (reused: no page faults, no zeroing).
    pub(crate) buf: std::sync::Mutex<Vec<u8>>,
}

/// An open input being cut into segments or messages.
pub(crate) struct Current<'a> {
    index: usize,
    reader: Reader<'a>,
    first: bool,
}

/// How an open input is read.
pub(crate) enum Reader<'a> {
    Text(Roll<Box<dyn Read + 'a>>),
    Mail(Box<dyn Records + 'a>),
    /// A regular file in plain text, cut into parts read by the threads
    /// that scan them.
    Parts(Parts),
    /// A small regular file, handed whole to one job.
    Small(File, u64),
    /// A tar or zip archive: its members are inputs of their own.
    Archive(Members<'a>),
}

/// A regular file being cut into [`FilePart`]s.
pub(crate) struct Parts {
    file: Arc<File>,
    len: u64,
    next: u64,
    stop: Arc<AtomicU64>,
}

/// The names of the inputs opened and not yet merged, by input index.
/// Names of merged inputs are dropped, so a walk over millions of files
/// holds only those of the batches in flight.
#[derive(Default)]
pub(crate) struct Names {
    /// The index of the first name held.
    base: usize,
    /// Each input's name and its position among the inputs given (an
    /// archive's members share their archive's).
    held: std::collections::VecDeque<(String, usize)>,
}

impl Names {
    /// Add the name of the next input opened, given at position
    /// `origin`; returns its number.
    pub(crate) fn push(&mut self, name: String, origin: usize) -> usize {
        self.held.push_back((name, origin));
        self.base + self.held.len() - 1
    }

    /// The position given and the name of input `index`, cloned; taken
    /// instead when `last` (nothing after this asks for it again).
    pub(crate) fn get(&mut self, index: usize, last: bool) -> (usize, String) {
        match self.held.get_mut(index.wrapping_sub(self.base)) {
            Some((name, origin)) if last => (*origin, std::mem::take(name)),
            Some((name, origin)) => (*origin, name.clone()),
            None => (index, String::new()),
        }
    }

    /// Drop the names of the inputs before `index`: all merged.
    pub(crate) fn release_before(&mut self, index: usize) {
        while self.base < index && self.held.pop_front().is_some() {
            self.base += 1;
        }
    }
}

/// Opens inputs in order and cuts them into batches of segments.
pub(crate) struct Feeder<'a> {
    inputs: Box<dyn Iterator<Item = (usize, Input<'a>)> + 'a>,
    names: Names,
    current: Option<Current<'a>>,
    /// The archive whose members are being read, one by one.
    archive: Option<Archive<'a>>,
    cfg: FeedConfig,
    /// Buffers of finished segments, for reuse.
    pool: Vec<Vec<u8>>,
}

/// An archive being read: its members, its name and its position among
/// the inputs given.
struct Archive<'a> {
    members: Members<'a>,
    name: String,
    origin: usize,
}

/// How inputs are read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FeedConfig {
    /// Bytes read past each segment (the longest URL and the slack
    /// delimiting reads).
    pub(crate) lookahead: usize,
    /// Read binary inputs too (no NUL-byte cut).
    pub(crate) binary: bool,
    pub(crate) format: InputFormat,
    pub(crate) decompress: Decompress,
    /// Hand over each input's lines as soon as they are read.
    pub(crate) line_buffered: bool,
    /// Bytes of a file part: the largest (parts of batches dense with
    /// URLs are smaller, see `Feeder::batch`).
    pub(crate) chunk: usize,
    /// Bytes of a batch, as configured (the largest).
    pub(crate) batch: usize,
    /// Longest message parsed as MIME.
    pub(crate) max_message: usize,
    /// Hits are given line numbers (mail readers count lines).
    pub(crate) line_numbers: bool,
}

impl<'a> Feeder<'a> {
    /// A feeder of `inputs`, numbered in order.
    pub(crate) fn new<I>(inputs: I, cfg: FeedConfig) -> Feeder<'a>
    where
        I: IntoIterator<Item = Input<'a>>,
        I::IntoIter: 'a,
    {
        Feeder {
            inputs: Box::new(inputs.into_iter().enumerate()),
            names: Names::default(),
            current: None,
            archive: None,
            cfg,
            pool: Vec::new(),
        }
    }

    /// The position given and the name of input `index` (see
    /// [`Names::get`]); the names of the inputs before it are dropped,
    /// all merged.
    pub(crate) fn name(
        &mut self,
        index: usize,
        last: bool,
    ) -> (usize, String) {
        self.names.release_before(index);
        self.names.get(index, last)
    }

    /// Whether a file this long is read and scanned whole in one job.
    /// Not an empty one: a file of the kernel's (`/proc/PID/cmdline`)
    /// says 0 bytes and has more, so it is read as a stream, to its end.
    fn is_small(&self, len: u64) -> bool {
        cfg!(unix) && len > 0 && len <= self.cfg.chunk.max(BINARY_PROBE) as u64
    }

    /// Open a file: a regular file in plain text is read in parts by the
    /// scanning threads (on Unix); anything else like any reader.
    fn file_reader(&self, path: &std::path::Path) -> io::Result<Reader<'a>> {
        let file = File::open(path)?;
        if !self.cfg.decompress.reads_as_is(path) {
            let r = match self.cfg.decompress {
                Decompress::Sniff => sniffed(file)?,
                _ => decoder(file, Compression::from_path(path))?,
            };
            return self.reader(r);
        }
        #[cfg(unix)]
        {
            let meta = file.metadata()?;
            if meta.is_file()
                && self.is_small(meta.len())
                && !archive::named(path)
            {
                return Ok(Reader::Small(file, meta.len()));
            }
            if meta.is_file() {
                let mut head = vec![0; HEAD];
                let n = read_at(&file, &mut head, 0)?;
                head.truncate(n);
                match archive::sniff(&head) {
                    // Read by its central directory, at the end.
                    Some(archive::Kind::Zip) => {
                        return Ok(Reader::Archive(Members::zip_file(file)?));
                    }
                    Some(kind @ archive::Kind::Tar) => {
                        let members = Members::stream(kind, Box::new(file))?;
                        return Ok(Reader::Archive(members));
                    }
                    None => {}
                }
                let format = format::decide(self.cfg.format, &head);
                if matches!(format::reading(format), Reading::Text)
                    && meta.len() > 0
                {
                    return Ok(Reader::Parts(Parts {
                        file: Arc::new(file),
                        len: meta.len(),
                        next: 0,
                        stop: Arc::new(AtomicU64::new(u64::MAX)),
                    }));
                }
            }
        }
        // Mail read as a stream: a file that shrank while it was read
        // ends with an error, so that a partial result is not taken for
        // a whole one.
        let check = file.try_clone()?;
        let len = file.metadata()?.len();
        let mut reader = self.reader(Box::new(file))?;
        if let Reader::Mail(ref mut messages) = reader {
            messages
                .check_end(Box::new(move |read| shrank(&check, len, read)));
        }
        Ok(reader)
    }

    /// Decide how to read an input: its format as configured, or as its
    /// first bytes say.
    fn reader(&self, r: Box<dyn Read + 'a>) -> io::Result<Reader<'a>> {
        self.reader_in(r, true)
    }

    /// [`Feeder::reader`], for an archive's member when not `archives`
    /// (an archive in an archive is not opened).
    fn reader_in(
        &self,
        r: Box<dyn Read + 'a>,
        archives: bool,
    ) -> io::Result<Reader<'a>> {
        let (head, r) = peek(r, HEAD, self.cfg.line_buffered)?;
        let format = format::decide(self.cfg.format, &head);
        let kind = archive::sniff(&head).filter(|_| archives);
        let r: Box<dyn Read + 'a> = Box::new(io::Cursor::new(head).chain(r));
        if let Some(kind) = kind {
            return Members::stream(kind, r).map(Reader::Archive);
        }
        Ok(match format::reading(format) {
            Reading::Records(open) => {
                let mut records = open(r, self.cfg.max_message);
                if !self.cfg.line_numbers {
                    records.without_lines();
                }
                Reader::Mail(records)
            }
            Reading::Text => Reader::Text(
                Roll::new(r, LOOKBACK, self.cfg.lookahead)
                    .line_buffered(self.cfg.line_buffered),
            ),
        })
    }

    /// Keep a large buffer for reuse: as many as three batches of file
    /// parts of the largest size need (the ones in flight), at most.
    /// Batches cut finer have more parts in flight; the buffers of the
    /// parts past that count are allocated afresh.
    pub(crate) fn recycle(&mut self, buf: Vec<u8>) {
        let keep = 3 * (self.cfg.batch / self.cfg.chunk.max(1) + 1);
        if buf.capacity() >= 64 << 10 && self.pool.len() < keep {
            self.pool.push(buf);
        }
    }

    /// The next batch: segments owning about `size` bytes in all (or up
    /// to `MAX_BATCH_SEGMENTS` small inputs), a file cut into parts of
    /// `part` bytes (at most the configured chunk); empty at the end.
    pub(crate) fn batch(&mut self, size: usize, part: usize) -> Vec<Item> {
        let part = part.clamp(1, self.cfg.chunk.max(1));
        let mut batch: Vec<Item> = Vec::new();
        let mut bytes = 0usize;
        while bytes < size && batch.len() < MAX_BATCH_SEGMENTS {
            if self.current.is_none()
                && let Some(arch) = self.archive.as_mut()
            {
                match arch.members.next_member() {
                    Some(Ok(member)) => {
                        let name = format!("{}:{}", arch.name, member.path);
                        let index = self.names.push(name, arch.origin);
                        match self.reader_in(member.reader, false) {
                            Ok(reader) => {
                                self.current = Some(Current {
                                    index,
                                    reader,
                                    first: true,
                                });
                            }
                            Err(error) => {
                                batch
                                    .push(Item::Error { input: index, error });
                                continue;
                            }
                        }
                    }
                    Some(Err(error)) => {
                        // The archive cannot be read on: said under its
                        // own name.
                        let (name, origin) = (arch.name.clone(), arch.origin);
                        let index = self.names.push(name, origin);
                        batch.push(Item::Error { input: index, error });
                        self.archive = None;
                        continue;
                    }
                    None => {
                        self.archive = None;
                        continue;
                    }
                }
            }
            if self.current.is_none() {
                let Some((origin, input)) = self.inputs.next() else { break };
                let index = self.names.push(input.name, origin);
                let reader = match input.origin {
                    Origin::Reader(open) => open()
                        .and_then(|r| match self.cfg.decompress {
                            Decompress::Sniff => sniffed(r),
                            _ => Ok(r),
                        })
                        .and_then(|r| self.reader(r)),
                    Origin::File(path, Some(len))
                        if self.is_small(len)
                            && self.cfg.decompress.reads_as_is(&path)
                            && !archive::named(&path) =>
                    {
                        bytes += len as usize + 1;
                        batch.push(Item::SmallPath {
                            input: index,
                            path,
                            len,
                        });
                        continue;
                    }
                    Origin::File(path, _) => self.file_reader(&path),
                };
                match reader {
                    Ok(Reader::Archive(members)) => {
                        let (_, name) = self.names.get(index, false);
                        self.archive = Some(Archive { members, name, origin });
                        continue;
                    }
                    Ok(reader) => {
                        self.current =
                            Some(Current { index, reader, first: true });
                    }
                    Err(error) => {
                        batch.push(Item::Error { input: index, error });
                        continue;
                    }
                }
            }
            let Some(cur) = self.current.as_mut() else { break };
            let input = cur.index;
            let roll = match cur.reader {
                Reader::Text(ref mut roll) => roll,
                // Never current: its members are.
                Reader::Archive(_) => {
                    self.current = None;
                    continue;
                }
                Reader::Small(..) => {
                    let Some(Current {
                        reader: Reader::Small(file, len), ..
                    }) = self.current.take()
                    else {
                        continue;
                    };
                    bytes += len as usize + 1;
                    batch.push(Item::Small { input, file, len });
                    continue;
                }
                Reader::Parts(ref mut parts) => {
                    let start = parts.next;
                    // A first part always holds the binary probe.
                    let size = if start == 0 {
                        self.cfg.chunk.max(BINARY_PROBE)
                    } else {
                        part
                    };
                    let end = (start + size as u64).min(parts.len);
                    bytes += (end - start) as usize + 1;
                    batch.push(Item::Part {
                        input,
                        part: FilePart {
                            file: parts.file.clone(),
                            len: parts.len,
                            own: start..end,
                            first: start == 0,
                            stop: parts.stop.clone(),
                            buf: std::sync::Mutex::new(
                                self.pool.pop().unwrap_or_default(),
                            ),
                        },
                    });
                    parts.next = end;
                    if end >= parts.len {
                        self.current = None;
                    }
                    continue;
                }
                Reader::Mail(ref mut messages) => {
                    match messages.next_message() {
                        Ok(Some(msg)) => {
                            // The buffer a message is the first to hold
                            // counts in full: a batch of short messages
                            // could otherwise hold a buffer each.
                            bytes += (msg.raw.len() + 1) * MESSAGE_WEIGHT
                                + msg.holds;
                            let first = cur.first;
                            cur.first = false;
                            batch.push(Item::Message { input, msg, first });
                        }
                        Ok(None) => {
                            batch.push(Item::End { input });
                            self.current = None;
                        }
                        Err(error) => {
                            batch.push(Item::Error { input, error });
                            self.current = None;
                        }
                    }
                    continue;
                }
            };
            // A first segment always holds the binary probe.
            let want = if cur.first {
                (size - bytes).max(BINARY_PROBE)
            } else {
                size - bytes
            };
            let spare = self.pool.pop().unwrap_or_default();
            match roll.next_segment(want, spare) {
                Ok(Some(mut seg)) => {
                    let first = cur.first;
                    cur.first = false;
                    // A read error after the last segment is reported
                    // after it (merged, it ends the input first).
                    let error = if seg.eof { roll.take_error() } else { None };
                    let binary_at = if self.cfg.binary {
                        None
                    } else {
                        cut_at_nul(&mut seg, first)
                    };
                    bytes += seg.own.len() + 1;
                    if seg.eof {
                        self.current = None;
                    }
                    batch.push(Item::Data { input, seg, first, binary_at });
                    if let Some(error) = error {
                        batch.push(Item::Error { input, error });
                    }
                    if self.cfg.line_buffered {
                        break;
                    }
                }
                Ok(None) => self.current = None,
                Err(error) => {
                    batch.push(Item::Error { input, error });
                    self.current = None;
                }
            }
        }
        batch
    }
}

/// A part of a file as read: its segment (the bytes it owns with those
/// around them that delimiting reads), where a NUL byte cut it, and the
/// error of a file that shrank while it was read.
pub(crate) struct PartRead {
    pub(crate) seg: Segment,
    pub(crate) binary_at: Option<usize>,
    pub(crate) error: Option<io::Error>,
}

impl FilePart {
    /// Read the part with [`LOOKBACK`] bytes before it and `lookahead`
    /// after it. Unless `binary`, a NUL byte ends the file there (for
    /// the parts after this one too); a part after such a byte reads
    /// nothing. (With `binary`, a caller that looks for the NUL byte
    /// itself applies [`cut_at`] and [`FilePart::stop_here`].)
    pub(crate) fn read(
        &self,
        lookahead: u64,
        binary: bool,
    ) -> io::Result<PartRead> {
        let from = self.own.start.saturating_sub(LOOKBACK as u64);
        let to = (self.own.end + lookahead).min(self.len);
        if self.own.start >= self.stop.load(Ordering::Relaxed) {
            // An earlier part ended the file at a NUL byte.
            let seg =
                Segment { buf: Vec::new(), base: from, own: 0..0, eof: true };
            return Ok(PartRead { seg, binary_at: None, error: None });
        }
        let want = (to - from) as usize;
        let mut buf = self
            .buf
            .lock()
            .map(|mut b| std::mem::take(&mut *b))
            .unwrap_or_default();
        if buf.capacity() == 0 {
            // A new buffer: zeroed by the allocator (pages fresh from the
            // kernel are zero already), not by a pass over it. One that
            // grows keeps its pages (`realloc`), the new bytes zeroed.
            buf = vec![0; want];
        } else if buf.len() < want {
            buf.resize(want, 0);
        }
        let got = read_at(&self.file, &mut buf[..want], from)?;
        buf.truncate(got);
        // A file that shrank ends where its bytes end, with an error.
        // (Only when its own bytes are cut: the next part reports a cut
        // in this one's lookahead, after the bytes this one has.)
        let error = if got < (self.own.end - from) as usize {
            shrank(&self.file, self.len, from + got as u64)
        } else {
            None
        };
        let own_start = ((self.own.start - from) as usize).min(got);
        let own_end = ((self.own.end - from) as usize).min(got);
        let eof =
            self.own.end >= self.len || got < (self.own.end - from) as usize;
        let mut seg =
            Segment { buf, base: from, own: own_start..own_end, eof };
        let binary_at =
            if binary { None } else { cut_at_nul(&mut seg, self.first) };
        if binary_at.is_some() {
            self.stop_here();
        }
        Ok(PartRead { seg, binary_at, error })
    }

    /// The file ends in this part, at a NUL byte: the parts after it read
    /// nothing.
    pub(crate) fn stop_here(&self) {
        self.stop.fetch_min(self.own.start, Ordering::Relaxed);
    }
}

/// Read a small regular file whole into `buf`, as long as it was when
/// listed (`len`): a file that grew since is read as that snapshot, in
/// bounded memory; one that shrank, to its end, and the error that says
/// so is returned. Read into spare capacity: no zeroing first.
pub(crate) fn read_small(
    file: &File,
    len: u64,
    buf: &mut Vec<u8>,
) -> io::Result<Option<io::Error>> {
    // The file is fresh from `open`, so reading from its offset reads it
    // from the start.
    buf.reserve_exact(len as usize);
    io::Read::take(file, len).read_to_end(buf)?;
    Ok(shrank(file, len, buf.len() as u64))
}

/// Fill `buf` from `file` at `offset` (fewer bytes only at its end).
#[cfg(unix)]
pub(crate) fn read_at(
    file: &File,
    buf: &mut [u8],
    offset: u64,
) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut got = 0;
    while got < buf.len() {
        match file.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Without positional reads, file parts are never made.
#[cfg(not(unix))]
pub(crate) fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<usize> {
    Err(io::Error::other("positional reads need Unix"))
}

/// Read up to `n` bytes from the start of `r` (fewer only at its end).
/// With `one_read`, what one read returns (a live stream must not wait
/// for more). A read error after some bytes is left for the reader
/// returned to give, after those bytes; one before any is returned.
pub(crate) fn peek<'a>(
    mut r: Box<dyn Read + 'a>,
    n: usize,
    one_read: bool,
) -> io::Result<(Vec<u8>, Box<dyn Read + 'a>)> {
    let mut head = Vec::with_capacity(n);
    let read = if one_read {
        head.resize(n, 0);
        let got = loop {
            match r.read(&mut head) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other,
            }
        };
        head.truncate(*got.as_ref().unwrap_or(&0));
        got
    } else {
        (&mut r).take(n as u64).read_to_end(&mut head)
    };
    match read {
        Ok(_) => Ok((head, r)),
        Err(e) if head.is_empty() => Err(e),
        Err(e) => Ok((head, Box::new(Failed(Some(e))))),
    }
}

/// The error for a regular file found shorter than the `len` bytes it
/// had when it was opened, after `read` bytes: `None` when it is not
/// (a file of a pseudo-filesystem such as sysfs, whose size is a round
/// figure, gives fewer bytes without shrinking).
pub(crate) fn shrank(file: &File, len: u64, read: u64) -> Option<io::Error> {
    let now = file.metadata().ok()?.len();
    (now < len && read < len).then(|| {
        io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the file shrank while it was read ({len} bytes when \
                 opened, {now} now): only its first {read} bytes were \
                 searched"
            ),
        )
    })
}

/// A reader whose input failed: gives the error once, then an end.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Binary input: a NUL byte in the first [`BINARY_PROBE`] bytes skips
/// the whole input; a later one ends it there. Returns the NUL's offset
/// in the buffer.
pub(crate) fn cut_at_nul(seg: &mut Segment, first: bool) -> Option<usize> {
    let p = memchr::memchr(0, &seg.buf[seg.own.clone()])?;
    Some(cut_at(seg, seg.own.start + p, first))
}

/// [`cut_at_nul`] for the NUL byte at buffer offset `at`, in `seg.own`,
/// found by the scan. Returns `at`.
pub(crate) fn cut_at(seg: &mut Segment, at: usize, first: bool) -> usize {
    let probe = first && at - seg.own.start < BINARY_PROBE;
    seg.own.end = if probe { seg.own.start } else { at };
    seg.eof = true;
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_merged_inputs_are_dropped() {
        let mut names = Names::default();
        for i in 0..10 {
            assert_eq!(names.push(format!("f{i}"), i), i);
        }
        let name = |names: &mut Names, i, last| names.get(i, last).1;
        assert_eq!(name(&mut names, 3, false), "f3");
        names.release_before(5);
        assert_eq!(names.held.len(), 5);
        assert_eq!(name(&mut names, 3, false), ""); // released
        assert_eq!(name(&mut names, 5, false), "f5");
        assert_eq!(name(&mut names, 5, true), "f5"); // taken
        assert_eq!(name(&mut names, 5, false), "");
        assert_eq!(name(&mut names, 9, false), "f9");
        assert_eq!(name(&mut names, 10, false), ""); // not opened yet
        names.release_before(20);
        assert!(names.held.is_empty());
        // A member: numbered on, at its archive's position.
        assert_eq!(names.push("a.tar:m".into(), 7), 10);
        assert_eq!(names.get(10, false), (7, "a.tar:m".to_string()));
    }
}

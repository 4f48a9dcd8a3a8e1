//! Message framing: cuts an mbox (mboxo, mboxrd, mboxcl, mboxcl2), an
//! MMDF mailbox or a Babyl file (Emacs Rmail) into messages, or takes a whole file as one message
//! (Maildir, `.eml`, a news spool article), streaming, with a bound on
//! the size of one message. A message's bytes are a range of the buffer
//! its input was read into, shared with the messages read with it (no
//! copy, no allocation each); where mboxrd `>From ` quoting is undone,
//! a copy without the `>`s, with the map back to the original bytes.
//!
//! # Where a message ends
//!
//! RFC 4155 (section 2) describes the mbox family: each message starts
//! with a `From ` line (the envelope sender and the time of delivery,
//! as `asctime` writes it) and ends with an empty line. Writers differ
//! in how they keep body lines that start with `From ` from being read
//! as separators: mboxo and mboxrd put a `>` before them, mboxcl and
//! mboxcl2 give the body's length in `Content-Length`. Many archives do
//! neither, so a message ends where
//!
//! 1. its header's `Content-Length` says, when the end it gives lands
//!    exactly at the end of the input or at a `From ` line that looks
//!    like a separator (after an optional empty line); body lines that
//!    start with `From ` are then never separators, quoted or not; else
//! 2. at the next line that starts with `From `, comes after an empty
//!    line (or at the start of the input) and looks like a separator.
//!
//! A `From ` line looks like a separator when it reads `From `, the
//! sender (one or more words, `mboxrd@z`, `MAILER-DAEMON`,
//! `a@[10.0.0.1] [x]`), and a date: `asctime` form `Thu Jan  1
//! 00:00:00 1970` (weekday, month, day, `HH:MM` or `HH:MM:SS`, a
//! four-digit year; one or two time zone words such as `EST` or `MET
//! DST` before the year, or one after it, or UUCP's `remote from host`
//! after it, as in qmail's mbox(5) and mutt's `is_from`), or the RFC
//! 5322 3.3 form of the `Date` field (`Wed, 2 May 2001 10:10:26
//! +0200`). So `From here on http://...` in a body is text, whatever
//! precedes it. The first line of an mbox is its first separator
//! whatever it holds (it is how the format was recognised).
//!
//! Lookahead for `Content-Length` and separators is bounded: a message
//! longer than the size limit is cut there (the rest comes as
//! continuation pieces) and its `Content-Length` is not used.

use std::fmt;
use std::io::{self, Read};
use std::ops::{Deref, Range};
use std::sync::{Arc, LazyLock};

use memchr::memmem::Finder;

/// How an input is cut into messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// Messages separated by lines that start with `From `.
    Mbox,
    /// MMDF: each message between two lines of four `^A` (0x01) bytes.
    Mmdf,
    /// Babyl (Emacs Rmail): an options section, then messages each
    /// ending at `^_` (0x1F), starting with `^L` and a line of labels;
    /// a message's original header, then `*** EOOH ***` and the header
    /// as shown (a copy, often pruned), then the body.
    Babyl,
    /// The whole input is one message.
    Single,
}

/// A message's bytes: a range of the buffer its input was read into,
/// shared by the messages read with it and freed with the last of them,
/// or bytes of its own where the reader changed them.
#[cfg_attr(test, derive(Clone))]
pub(crate) enum Raw {
    Owned(Vec<u8>),
    Shared(Arc<Vec<u8>>, Range<usize>),
}

impl Default for Raw {
    fn default() -> Raw {
        Raw::Owned(Vec::new())
    }
}

impl From<Vec<u8>> for Raw {
    fn from(bytes: Vec<u8>) -> Raw {
        Raw::Owned(bytes)
    }
}

impl Deref for Raw {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Raw::Owned(v) => v,
            Raw::Shared(buf, range) => &buf[range.clone()],
        }
    }
}

/// By their bytes, however held.
#[cfg(test)]
impl PartialEq for Raw {
    fn eq(&self, other: &Raw) -> bool {
        **self == **other
    }
}

#[cfg(test)]
impl<const N: usize> PartialEq<&[u8; N]> for Raw {
    fn eq(&self, other: &&[u8; N]) -> bool {
        **self == other[..]
    }
}

impl fmt::Debug for Raw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// One message of an input.
#[derive(Debug)]
pub(crate) struct Message {
    /// 1-based number of the message in its input.
    pub number: u64,
    /// The message's bytes, the mbox `From ` line removed and mboxrd
    /// quoting (`>From ` at the start of a body line) undone.
    pub raw: Raw,
    /// Offsets in `raw` where a `>` was removed, sorted: a position `p`
    /// of `raw` is `p + (removals at or before p)` in the input bytes
    /// from `offset` on.
    pub removed: Vec<usize>,
    /// Offset in the input of the message's first byte (after the
    /// `From ` line).
    pub offset: u64,
    /// Newlines in the input before `offset` (0 when its reader was
    /// told [`Records::without_lines`]).
    pub line: u64,
    /// The message was longer than the limit: this is a piece of it
    /// after the first, to be scanned as plain text.
    pub continuation: bool,
    /// The message was cut at the size limit.
    pub truncated: bool,
    /// A record of a web archive: the offset in the input of its
    /// `WARC/` line (its bytes are the record's header and block).
    pub record: Option<u64>,
    /// Bytes of a web archive that are not a record (no `WARC/` line,
    /// or a header without `Content-Length`), scanned as plain text.
    pub junk: bool,
    /// The bytes of the buffer `raw` shares, when this message is the
    /// first to hold it (0 otherwise): what it keeps in memory beyond its
    /// own bytes, which may be far more (a few bytes between long runs
    /// of `From ` lines), and which a batch of messages counts in its
    /// size.
    pub holds: usize,
}

impl Message {
    /// The offset in the input of byte `p` of `raw`.
    pub fn input_offset(&self, p: usize) -> u64 {
        let shift = self.removed.partition_point(|&r| r <= p);
        self.offset + (p + shift) as u64
    }
}

/// A reader of the records of a container (the messages of an mbox, the
/// one message of an `.eml` file): what a format's entry in the table of
/// [`crate::format::reading`] opens.
pub(crate) trait Records {
    /// The next record, or `None` at the end of the input. A read error
    /// ends the input as its end would, and is returned after the last
    /// record read before it.
    fn next_message(&mut self) -> io::Result<Option<Message>>;

    /// At the end of the input, `check` is told how many bytes were read;
    /// an error it returns is given after the last record, as a read
    /// error would be (a file that shrank while it was read).
    fn check_end(&mut self, check: EndCheck);

    /// Leave each record's line number 0: nothing will ask for a line
    /// (the lines before each record are then not counted).
    fn without_lines(&mut self) {}
}

/// The messages of an mbox (RFC 4155), each at most `max` bytes.
pub(crate) fn mbox_records<'a>(
    reader: Box<dyn Read + 'a>,
    max: usize,
) -> Box<dyn Records + 'a> {
    Box::new(Messages::new(reader, Framing::Mbox, max))
}

/// The messages of an MMDF mailbox, each at most `max` bytes.
pub(crate) fn mmdf_records<'a>(
    reader: Box<dyn Read + 'a>,
    max: usize,
) -> Box<dyn Records + 'a> {
    Box::new(Messages::new(reader, Framing::Mmdf, max))
}

/// The messages of a Babyl file, each at most `max` bytes.
pub(crate) fn babyl_records<'a>(
    reader: Box<dyn Read + 'a>,
    max: usize,
) -> Box<dyn Records + 'a> {
    Box::new(Messages::new(reader, Framing::Babyl, max))
}

/// The input as one message (RFC 5322) or news article (RFC 5536), cut
/// into pieces of at most `max` bytes.
pub(crate) fn single_record<'a>(
    reader: Box<dyn Read + 'a>,
    max: usize,
) -> Box<dyn Records + 'a> {
    Box::new(Messages::new(reader, Framing::Single, max))
}

impl<R: Read> Records for Messages<R> {
    fn next_message(&mut self) -> io::Result<Option<Message>> {
        Messages::next_message(self)
    }

    fn without_lines(&mut self) {
        self.lines = false;
    }

    fn check_end(&mut self, check: EndCheck) {
        Messages::check_end(self, check);
    }
}

/// Reads messages from an input.
pub(crate) struct Messages<R> {
    reader: R,
    framing: Framing,
    /// Read but not yet taken: `buf[start..]`. Messages taken share it;
    /// the next read goes into a buffer no message holds.
    buf: Arc<Vec<u8>>,
    /// Buffers given up while messages held them, each reused once they
    /// no longer do (at most [`SPARES`]).
    spares: Vec<Arc<Vec<u8>>>,
    start: usize,
    /// How far into `buf[start..]` a separator was already looked for.
    searched: usize,
    /// The quoted `>From ` lines met by that search (mbox): each line's
    /// start in `buf[start..]` and the end of its `From `, in order; at
    /// most [`MAX_QUOTED`].
    quoted: Vec<(usize, usize)>,
    /// `quoted` holds every such line before this offset of
    /// `buf[start..]` (0 once it is full: the message is then searched
    /// again for them as it is copied).
    quoted_upto: usize,
    /// Offset in the input of `buf[start]`.
    buf_offset: u64,
    /// Newlines in the input before `buf[start]`.
    buf_line: u64,
    /// Whether `buf_line` is counted.
    lines: bool,
    eof: bool,
    number: u64,
    max: usize,
    /// The previous message was cut at the limit: the next piece is its
    /// continuation.
    continuing: bool,
    /// MMDF: a start marker was just dropped, and a `From ` line after
    /// it (Python's `mailbox` and some MTAs write one) is dropped too;
    /// Babyl: the line of labels after the `^L` line.
    after_marker: bool,
    /// Where the pending message ends by its `Content-Length`.
    length: Length,
    /// `buf[start..]` starts with a line already found to be a separator
    /// (mbox): the end of the message taken before it. The next search
    /// takes it as one without reading it again.
    at_separator: bool,
    /// The read error that ended the input, given after its messages.
    error: Option<io::Error>,
    /// Asked at the end of the input how many bytes were read: an error
    /// to end with instead (see [`Messages::check_end`]).
    end_check: Option<EndCheck>,
}

/// See [`Messages::check_end`].
pub(crate) type EndCheck = Box<dyn FnMut(u64) -> Option<io::Error>>;

/// What is known of the pending message's `Content-Length` end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Length {
    /// Not looked at yet: a message has just started after its `From `
    /// line.
    Unknown,
    /// No usable `Content-Length`: separators decide.
    Absent,
    /// The message ends at this offset of what is pending.
    End(usize),
}

const READ: usize = 1 << 20;

/// The largest buffer messages share (allocated; a buffer holds 1 MiB
/// read after what was pending before it): one grown past it, for a
/// long message or `Content-Length` look-ahead, is copied from instead.
const MAX_SHARED: usize = 2 * READ;

/// Most buffers kept for reuse: enough for the messages of the batches
/// in memory at once to be read into (each buffer holds about [`READ`]
/// bytes of them), so that buffers are not allocated and faulted in
/// again read after read.
const SPARES: usize = 8;

/// Longest `From ` line looked at: a longer one is not a separator.
const MAX_FROM_LINE: usize = 1024;

/// Longest header looked at for a `Content-Length`.
const MAX_HEADER: usize = 1 << 20;

/// Most quoted `>From ` lines of a message noted by the separator search
/// (1 MiB of notes); a message with more is searched for them again as
/// it is copied.
const MAX_QUOTED: usize = 1 << 16;

impl<R: Read> Messages<R> {
    /// Messages of at most `max` bytes (longer ones are cut, and the rest
    /// comes as continuation pieces).
    pub fn new(reader: R, framing: Framing, max: usize) -> Messages<R> {
        Messages {
            reader,
            framing,
            buf: Arc::new(Vec::new()),
            spares: Vec::new(),
            start: 0,
            searched: 0,
            quoted: Vec::new(),
            quoted_upto: 0,
            buf_offset: 0,
            buf_line: 0,
            lines: true,
            eof: false,
            number: 0,
            max: max.max(1024),
            continuing: false,
            after_marker: false,
            length: Length::Absent,
            at_separator: false,
            error: None,
            end_check: None,
        }
    }

    /// At the end of the input, `check` is told how many bytes were read;
    /// an error it returns is given after the last message, as a read
    /// error would be (a file that shrank while it was read).
    pub fn check_end(&mut self, check: EndCheck) {
        self.end_check = Some(check);
    }

    /// Read more input into `buf`; false at the end.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // Compact once per read, not once per message; what is pending
        // moves to a buffer of the reader's own if messages hold this one.
        // A buffer grown for a long message is given up once what is
        // pending fits a buffer of the usual size again.
        let pending = self.buf.len() - self.start;
        if Arc::get_mut(&mut self.buf).is_none()
            || (self.buf.capacity() > MAX_SHARED && pending <= READ)
        {
            self.next_buffer();
        }
        let buf = Arc::get_mut(&mut self.buf).expect("no message holds it");
        buf.drain(..self.start);
        self.start = 0;
        let limit = READ as u64;
        let before = buf.len();
        // Room for the read: exactly, in a buffer messages may share
        // (doubling would take it past that); doubling past it, for a long
        // message (so that it is copied a few times, not once per read).
        if buf.len() + READ <= MAX_SHARED {
            buf.reserve_exact(READ);
        } else {
            buf.reserve(READ);
        }
        let read = self.reader.by_ref().take(limit).read_to_end(buf);
        let n = buf.len() - before;
        if let Err(e) = read {
            // The bytes read before the error are messages too.
            self.error = Some(e);
            self.eof = true;
        } else if n == 0 {
            self.eof = true;
            let read = self.buf_offset + (self.buf.len() - self.start) as u64;
            self.error = self.end_check.as_mut().and_then(|check| check(read));
        }
        Ok(n > 0)
    }

    /// Make a buffer no message holds the current one, what is pending
    /// copied into it: a spare that messages no longer hold, or a new
    /// one. The buffer given up becomes a spare unless there are enough
    /// or it grew for a long message (it is freed then, or with the last
    /// message that holds it).
    fn next_buffer(&mut self) {
        let pending = self.buf.len() - self.start;
        let free = self.spares.iter().position(|b| Arc::strong_count(b) == 1);
        let mut next = match free {
            Some(k) => self.spares.swap_remove(k),
            None => Arc::new(Vec::with_capacity(READ + pending)),
        };
        let buf = Arc::get_mut(&mut next).expect("no message holds it");
        buf.clear();
        buf.extend_from_slice(&self.buf[self.start..]);
        self.start = 0;
        let old = std::mem::replace(&mut self.buf, next);
        if self.spares.len() < SPARES && old.capacity() <= MAX_SHARED {
            self.spares.push(old);
        }
    }

    /// The next message, or `None` at the end of the input. A read error
    /// ends the input as its end would, and is returned after the last
    /// message read before it.
    pub fn next_message(&mut self) -> io::Result<Option<Message>> {
        match self.next_read() {
            Ok(None) => match self.error.take() {
                Some(e) => Err(e),
                None => Ok(None),
            },
            other => other,
        }
    }

    fn next_read(&mut self) -> io::Result<Option<Message>> {
        loop {
            if self.after_marker {
                let pending = &self.buf[self.start..];
                let line = &pending[..pending.len().min(MAX_FROM_LINE)];
                let babyl = self.framing == Framing::Babyl;
                let drops = |l: &[u8]| {
                    if babyl { is_babyl_labels(l) } else { is_from_line(l) }
                };
                match memchr::memchr(b'\n', line) {
                    _ if !babyl
                        && !pending.starts_with(b"From ")
                        && pending.len() >= 5 => {}
                    Some(nl) if drops(&line[..nl]) => {
                        self.consume(nl + 1);
                    }
                    Some(_) => {}
                    None if !self.eof && line.len() < MAX_FROM_LINE => {
                        self.fill()?;
                        continue;
                    }
                    None => {}
                }
                self.after_marker = false;
                self.length = Length::Unknown;
            }
            // Only an mbox's messages end where Content-Length says.
            if self.length == Length::Unknown && self.framing != Framing::Mbox
            {
                self.length = Length::Absent;
            }
            if self.length == Length::Unknown {
                let pending = &self.buf[self.start..];
                match content_length_end(pending, self.eof, self.max) {
                    Some(Length::Unknown) => {
                        self.fill()?;
                        continue;
                    }
                    Some(l) => self.length = l,
                    None => self.length = Length::Absent,
                }
            }
            // Where the next message starts, if it is in the buffer.
            let end = match (self.framing, self.length) {
                (Framing::Mbox, Length::End(end)) => Sep::At(end),
                (Framing::Mbox, _) => {
                    let first = self.number == 0 && self.buf_offset == 0;
                    let known = first || self.at_separator;
                    self.search(|buf, from, eof, quoted| {
                        find_separator(buf, (from, eof, known), quoted)
                    })
                }
                (Framing::Mmdf, _) => self.search(|buf, from, eof, _| {
                    find_mmdf_separator(buf, from, eof)
                }),
                (Framing::Babyl, _) => {
                    let pending = &self.buf[self.start..];
                    if self.number == 0
                        && self.buf_offset == 0
                        && pending.starts_with(b"BABYL OPTIONS:")
                    {
                        // The options section: not a message. Unended
                        // by the input's end or within a message's
                        // length, it is none: its bytes are read as a
                        // message's are, not dropped.
                        match memchr::memchr(0x1f, pending) {
                            Some(p) => {
                                self.consume(p);
                                continue;
                            }
                            None if self.eof || pending.len() > self.max => {}
                            None => {
                                self.fill()?;
                                continue;
                            }
                        }
                    }
                    match memchr::memchr(0x1f, pending) {
                        Some(p) => Sep::At(p),
                        None => Sep::None,
                    }
                }
                (Framing::Single, _) => Sep::None,
            };
            let pending_len = self.buf.len() - self.start;
            match end {
                Sep::At(0) if self.continuing => self.continuing = false,
                Sep::At(0) => {
                    // The buffer starts with a `From ` line: drop it.
                    let pending = &self.buf[self.start..];
                    match memchr::memchr(b'\n', pending) {
                        Some(nl) => {
                            self.consume(nl + 1);
                            self.length = Length::Unknown;
                            self.after_marker = matches!(
                                self.framing,
                                Framing::Mmdf | Framing::Babyl
                            );
                        }
                        None if self.eof => {
                            self.consume(pending_len);
                            return Ok(None);
                        }
                        None if pending_len <= self.max => {
                            self.fill()?;
                        }
                        None => {
                            // A `From ` line longer than a message.
                            self.consume(pending_len);
                            self.length = Length::Unknown;
                        }
                    }
                    continue;
                }
                Sep::At(end) if end <= self.max => {
                    let msg = self.take(end, false);
                    // Both the `Content-Length` end and the search found
                    // a separator line there (or the input's end).
                    self.at_separator = self.framing == Framing::Mbox;
                    return Ok(Some(msg));
                }
                _ => {}
            }
            if pending_len > self.max {
                // Too long: cut at the last line end within the limit.
                let pending = &self.buf[self.start..];
                let cut = memchr::memrchr(b'\n', &pending[..self.max])
                    .map_or(self.max, |p| p + 1);
                return Ok(Some(self.take(cut, true)));
            }
            if !self.fill()? {
                if pending_len == 0 {
                    return Ok(None);
                }
                if matches!(end, Sep::Undecided(_)) {
                    continue; // the end of the input decides the line
                }
                return Ok(Some(self.take(pending_len, false)));
            }
        }
    }

    /// The next separator in what is pending by `find` (given where to
    /// search from: a little before where the last search stopped, and
    /// the quoted lines noted so far), where the next search is to start,
    /// and how far the quoted lines are known.
    fn search(
        &mut self,
        find: impl FnOnce(&[u8], usize, bool, &mut Vec<(usize, usize)>) -> Sep,
    ) -> Sep {
        let pending = &self.buf[self.start..];
        let from = self.searched.saturating_sub(8);
        let found = find(pending, from, self.eof, &mut self.quoted);
        self.searched = match found {
            Sep::Undecided(p) => p,
            _ => pending.len(),
        };
        self.quoted_upto = match found {
            _ if self.quoted.len() >= MAX_QUOTED => 0,
            Sep::At(p) | Sep::Undecided(p) => p,
            Sep::None => pending.len(),
        };
        found
    }

    /// Drop `n` bytes from the front of what is pending.
    fn consume(&mut self, n: usize) {
        let taken = &self.buf[self.start..self.start + n];
        if self.lines {
            self.buf_line += bytecount::count(taken, b'\n') as u64;
        }
        self.buf_offset += n as u64;
        self.start += n;
        self.at_separator = false;
        self.searched = 0;
        self.quoted.clear();
        self.quoted_upto = 0;
    }

    /// Take the first `n` bytes as a message.
    fn take(&mut self, n: usize, cut: bool) -> Message {
        let continuation = self.continuing;
        if !continuation {
            self.number += 1;
        }
        let range = self.start..self.start + n;
        let bytes = &self.buf[range.clone()];
        let changed = match self.framing {
            // The separator's search met every quoted line before `n`
            // whose `From ` ends by `n`: no second pass.
            Framing::Mbox if n <= self.quoted_upto => unquote_lines(
                bytes,
                self.quoted.iter().filter(|&&(_, e)| e <= n).map(|&(l, _)| l),
            ),
            Framing::Mbox => unquote_from(bytes),
            Framing::Babyl if !cut && !continuation => without_eooh(bytes),
            _ => None,
        };
        let (raw, removed, holds) = match changed {
            Some((raw, removed)) => (Raw::Owned(raw), removed, 0),
            // A buffer grown for a long message or look-ahead is not
            // shared: a short message could hold many times its bytes.
            None if self.buf.capacity() > MAX_SHARED => {
                (Raw::Owned(bytes.to_vec()), Vec::new(), 0)
            }
            None => {
                // No message holds the buffer yet: this one is the first.
                let first = Arc::strong_count(&self.buf) == 1;
                let holds = if first { self.buf.capacity() } else { 0 };
                (Raw::Shared(Arc::clone(&self.buf), range), Vec::new(), holds)
            }
        };
        let msg = Message {
            number: self.number,
            raw,
            removed,
            offset: self.buf_offset,
            line: self.buf_line,
            continuation,
            truncated: cut,
            record: None,
            junk: false,
            holds,
        };
        self.continuing = cut;
        self.length = Length::Absent;
        self.consume(n);
        msg
    }
}

/// What a search for the next separator found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    /// The next message's `From ` line starts here.
    At(usize),
    /// No separator in what is pending.
    None,
    /// A `From ` line starts here whose end is not read yet.
    Undecided(usize),
}

/// Where the next message starts (see the [module documentation](self)):
/// the first line that starts with `From `, comes at the start of `buf`
/// or after an empty line, and looks like a separator. A `From ` line at
/// the start of `buf` is one without being read again when `known` says
/// so: the input's first line (whatever it holds), or a line already
/// found to be one. The search starts at
/// `from`; `eof` says that nothing follows `buf`. In the same pass, the
/// quoted `>From ` lines before the separator not yet in `quoted` are
/// added to it (each line's start and the end of its `From `).
fn find_separator(
    buf: &[u8],
    (from, eof, known): (usize, bool, bool),
    quoted: &mut Vec<(usize, usize)>,
) -> Sep {
    // Whether the line at `p` is a separator; `None` while its end is
    // not read.
    let decide = |p: usize| {
        let rest = buf.get(p..).unwrap_or(&[]);
        let line = &rest[..rest.len().min(MAX_FROM_LINE)];
        match memchr::memchr(b'\n', line) {
            Some(nl) => Some(is_from_line(&line[..nl])),
            None if eof || line.len() == MAX_FROM_LINE => {
                Some(is_from_line(line))
            }
            None => None,
        }
    };
    if buf.starts_with(b"From ") {
        if known {
            return Sep::At(0);
        }
        match decide(0) {
            Some(true) => return Sep::At(0),
            None => return Sep::Undecided(0),
            Some(false) => {}
        }
    }
    let from = from.min(buf.len());
    for p in FINDERS.from_line.find_iter(&buf[from..]) {
        let p = from + p;
        match p.checked_sub(1).and_then(|i| buf.get(i)) {
            Some(b'\n') => {}
            Some(b'>') => {
                let mut line = p - 1;
                while line > 0 && buf[line - 1] == b'>' {
                    line -= 1;
                }
                let at_start = line == 0 || buf[line - 1] == b'\n';
                if at_start
                    && quoted.len() < MAX_QUOTED
                    && quoted.last().is_none_or(|&(l, _)| l < line)
                {
                    quoted.push((line, p + b"From ".len()));
                }
                continue;
            }
            _ => continue,
        }
        let before = &buf[..p - 1];
        let after_empty = before.is_empty()
            || before.ends_with(b"\n")
            || before.ends_with(b"\n\r")
            || before == b"\r";
        if !after_empty {
            continue;
        }
        match decide(p) {
            Some(true) => return Sep::At(p),
            None => return Sep::Undecided(p - 1),
            Some(false) => {}
        }
    }
    Sep::None
}

/// Whether `line` is a Babyl message's line of labels: `0,` or `1,`
/// (unseen or seen), then the labels, ending in `,,` and the user's
/// labels (`1,,`, `0, unseen,,`, `1, answered,, work,`).
fn is_babyl_labels(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    matches!(line, [b'0' | b'1', b',', ..])
        && memchr::memmem::find(line, b",,").is_some()
}

/// A Babyl message without its `*** EOOH ***` line and the header as
/// shown after it (up to its empty line): the original header, then the
/// body. The bytes left out are listed as removed (see
/// [`Message::removed`]), one entry each, at the body's start. `None`
/// where there is no `*** EOOH ***` line: the bytes stay as they are.
fn without_eooh(msg: &[u8]) -> Option<(Vec<u8>, Vec<usize>)> {
    const EOOH: &[u8] = b"*** EOOH ***";
    let at = if msg.starts_with(EOOH) {
        Some(0)
    } else {
        memchr::memmem::find(msg, b"\n*** EOOH ***").map(|p| p + 1)
    };
    let at = at?;
    // The shown header ends at its empty line (or runs to the end).
    let shown = &msg[at..];
    let end = memchr::memmem::find(shown, b"\n\n")
        .map(|p| p + 2)
        .or_else(|| memchr::memmem::find(shown, b"\n\r\n").map(|p| p + 3))
        .unwrap_or(shown.len());
    let mut raw = Vec::with_capacity(msg.len() - end);
    raw.extend_from_slice(&msg[..at]);
    raw.extend_from_slice(&msg[at + end..]);
    Some((raw, vec![at; end]))
}

/// The MMDF separator line: four `^A` bytes, alone on their line.
const MMDF_SEP: &[u8] = b"\x01\x01\x01\x01";

/// Where the next MMDF separator line starts in `buf` (the search from
/// `from` on): a line of exactly four `^A` bytes (then `\n`, `\r\n` or
/// the end of the input). A message's end marker and the next one's
/// start marker are two such lines, each dropped in turn.
fn find_mmdf_separator(buf: &[u8], from: usize, eof: bool) -> Sep {
    let decide = |p: usize| match &buf[p + MMDF_SEP.len()..] {
        [] if eof => Some(true),
        [] | [b'\r'] => None,
        [b'\n', ..] | [b'\r', b'\n', ..] => Some(true),
        _ => Some(false),
    };
    if buf.starts_with(MMDF_SEP) {
        match decide(0) {
            Some(true) => return Sep::At(0),
            None => return Sep::Undecided(0),
            Some(false) => {}
        }
    }
    let from = from.min(buf.len());
    for p in memchr::memmem::find_iter(&buf[from..], b"\n\x01\x01\x01\x01") {
        let p = from + p + 1;
        match decide(p) {
            Some(true) => return Sep::At(p),
            None => return Sep::Undecided(p - 1),
            Some(false) => {}
        }
    }
    Sep::None
}

/// Whether the first line of `bytes` (up to its `\n`, or the bytes
/// there are, [`MAX_FROM_LINE`] at most) is a separator line.
fn starts_with_separator(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"From ") {
        return false; // no line end looked for
    }
    let line = &bytes[..bytes.len().min(MAX_FROM_LINE)];
    is_from_line(memchr::memchr(b'\n', line).map_or(line, |nl| &line[..nl]))
}

/// Whether `line` (without its `\n`) is a `From ` line that looks like
/// an mbox separator: `From `, a sender of one to four words, and a
/// date (see the [module documentation](self)).
pub(crate) fn is_from_line(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"From ") else { return false };
    let rest = rest.strip_suffix(b"\r").unwrap_or(rest);
    let mut words: [&[u8]; 16] = [&[]; 16];
    let mut n = 0;
    for w in rest.split(|&c| c == b' ' || c == b'\t') {
        if w.is_empty() {
            continue;
        }
        if n == words.len() {
            return false;
        }
        words[n] = w;
        n += 1;
    }
    let words = &words[..n];
    let sender_ok = |w: &[u8]| w.iter().all(|&c| c > b' ' && c != 0x7f);
    (1..n.min(5)).any(|k| {
        words[..k].iter().all(|w| sender_ok(w))
            && (is_asctime(&words[k..]) || is_rfc5322_date(&words[k..]))
    })
}

const WEEKDAYS: [&[u8]; 7] =
    [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];
const MONTHS: [&[u8]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep",
    b"Oct", b"Nov", b"Dec",
];

fn one_of(w: &[u8], names: &[&[u8]]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(w))
}

fn digits(w: &[u8], min: usize, max: usize) -> bool {
    (min..=max).contains(&w.len()) && w.iter().all(u8::is_ascii_digit)
}

/// `HH:MM` or `HH:MM:SS` (one- or two-digit hour).
fn is_time(w: &[u8]) -> bool {
    let mut parts = w.split(|&c| c == b':');
    let (Some(h), Some(m)) = (parts.next(), parts.next()) else {
        return false;
    };
    let s = parts.next();
    digits(h, 1, 2)
        && digits(m, 2, 2)
        && s.is_none_or(|s| digits(s, 2, 2))
        && parts.next().is_none()
}

/// A time zone word: letters (`EST`, `MET`, `DST`, `UTC`) or a numeric
/// offset (`+0200`, `-0800`).
fn is_zone(w: &[u8]) -> bool {
    let alpha = (1..=5).contains(&w.len())
        && w.iter().all(u8::is_ascii_alphabetic)
        && !one_of(w, &WEEKDAYS);
    let numeric = matches!(w.first(), Some(b'+' | b'-'))
        && digits(w.get(1..).unwrap_or(&[]), 4, 4);
    alpha || numeric
}

/// What may follow the year: nothing, a time zone, or UUCP's
/// `remote from host` (RFC 976).
fn is_date_tail(w: &[&[u8]]) -> bool {
    match w {
        [] => true,
        [z] => is_zone(z),
        [r, f, _] => {
            r.eq_ignore_ascii_case(b"remote")
                && f.eq_ignore_ascii_case(b"from")
        }
        _ => false,
    }
}

/// `asctime` form: `Thu Jan  1 00:00:00 [zone [zone]] 1970 [tail]`.
fn is_asctime(w: &[&[u8]]) -> bool {
    let [day, month, mday, time, rest @ ..] = w else { return false };
    if !(one_of(day, &WEEKDAYS)
        && one_of(month, &MONTHS)
        && digits(mday, 1, 2)
        && is_time(time))
    {
        return false;
    }
    let zones = rest.iter().take(2).take_while(|z| is_zone(z)).count();
    match rest.get(zones..) {
        Some([year, tail @ ..]) => digits(year, 4, 4) && is_date_tail(tail),
        _ => false,
    }
}

/// RFC 5322 3.3 form: `Wed, 2 May 2001 10:10:26 +0200` (the weekday
/// optional, the zone too).
fn is_rfc5322_date(w: &[&[u8]]) -> bool {
    let w = match w.first() {
        Some(d)
            if d.strip_suffix(b",").is_some_and(|d| one_of(d, &WEEKDAYS)) =>
        {
            &w[1..]
        }
        _ => w,
    };
    let [mday, month, year, time, tail @ ..] = w else { return false };
    digits(mday, 1, 2)
        && one_of(month, &MONTHS)
        && digits(year, 4, 4)
        && is_time(time)
        && is_date_tail(tail)
}

/// Where a message that starts `pending` ends by its `Content-Length`
/// (mboxcl, mboxcl2): `End` when the header has one and the end it gives
/// is the end of the input or the start of a separator line, after an
/// optional empty line (RFC 4155 section 2); `Unknown` when more input
/// must be read to tell; `None` (or `Absent`) otherwise, when the
/// message would be longer than `max`, and when it starts with a
/// separator line (a message with nothing in it: in a run of separator
/// lines, the header would otherwise be looked for past each of them,
/// up to [`MAX_HEADER`] bytes each time).
fn content_length_end(
    pending: &[u8],
    eof: bool,
    max: usize,
) -> Option<Length> {
    if starts_with_separator(pending) {
        return None;
    }
    let more =
        if eof || pending.len() > max { None } else { Some(Length::Unknown) };
    let (Some(body), length) = read_header(pending) else {
        return more.filter(|_| pending.len() < MAX_HEADER);
    };
    let length = length?;
    let end = body.checked_add(length).filter(|&e| e <= max)?;
    // Enough to read the next line whole (an empty line, then a `From `
    // line), unless the input ends first.
    let need = end.saturating_add(2 + MAX_FROM_LINE);
    if pending.len() < need && !eof {
        return Some(Length::Unknown);
    }
    let rest = pending.get(end..)?;
    let blank = if rest.starts_with(b"\n") {
        1
    } else if rest.starts_with(b"\r\n") {
        2
    } else {
        0
    };
    for at in [end, end + blank] {
        let rest = pending.get(at..).unwrap_or(&[]);
        if at == pending.len() || starts_with_separator(rest) {
            return Some(Length::End(at));
        }
    }
    None
}

/// Searchers built once: the next `From ` line and quoted ones are
/// looked for in every message.
struct Finders {
    from_line: Finder<'static>,
    quoted_from: Finder<'static>,
}

static FINDERS: LazyLock<Finders> = LazyLock::new(|| Finders {
    from_line: Finder::new(b"From "),
    quoted_from: Finder::new(b">From "),
});

/// The header at the start of `msg`, read once line by line in its first
/// [`MAX_HEADER`] bytes: the offset just past the empty line that ends
/// it (`None` if there is none there), and the value of its first
/// `Content-Length` field (its name in any case, at a line start; digits,
/// whitespace around them allowed; `None` when the field is absent or
/// its value is not such digits).
fn read_header(msg: &[u8]) -> (Option<usize>, Option<usize>) {
    const NAME: &[u8] = b"content-length:";
    let msg = &msg[..msg.len().min(MAX_HEADER)];
    if msg.starts_with(b"\n") {
        return (Some(1), None);
    }
    if msg.starts_with(b"\r\n") {
        return (Some(2), None);
    }
    let mut field = None;
    let mut line = 0;
    let end = loop {
        let rest = msg.get(line..).unwrap_or(&[]);
        // Most lines differ in their first byte.
        if field.is_none()
            && rest.first().is_some_and(|&b| b | 0x20 == b'c')
            && rest
                .get(..NAME.len())
                .is_some_and(|n| n.eq_ignore_ascii_case(NAME))
        {
            field = Some(line + NAME.len());
        }
        let Some(nl) = crate::sieve::find_byte(rest, b'\n') else {
            return (None, None);
        };
        line += nl + 1;
        // The first `\n\n` or `\n\r\n` ends the header.
        match msg.get(line..) {
            Some([b'\n', ..]) => break line + 1,
            Some([b'\r', b'\n', ..]) => break line + 2,
            _ => {}
        }
    };
    let length = field.and_then(|at| {
        let value = msg.get(at..end).unwrap_or(&[]);
        let v = value[..memchr::memchr(b'\n', value).unwrap_or(value.len())]
            .trim_ascii();
        if !digits(v, 1, 19) {
            return None;
        }
        std::str::from_utf8(v).ok()?.parse().ok()
    });
    (Some(end), length)
}

/// Undo mboxrd / mboxo quoting: a line `>From `, `>>From `, ... loses
/// one `>`. Returns the new bytes and the offsets (in them) where a `>`
/// was removed; `None` where no line is quoted.
fn unquote_from(msg: &[u8]) -> Option<(Vec<u8>, Vec<usize>)> {
    // Quoted lines are rare: find `>From ` and copy what lies between.
    let lines = FINDERS.quoted_from.find_iter(msg).filter_map(|pos| {
        let mut line = pos;
        while line > 0 && msg[line - 1] == b'>' {
            line -= 1;
        }
        // Not `>From ` inside a line.
        (line == 0 || msg[line - 1] == b'\n').then_some(line)
    });
    unquote_lines(msg, lines)
}

/// `msg` without the first `>` of each line starting at `lines` (in
/// order), and the offsets in the result where one was removed; `None`
/// where `lines` is empty.
fn unquote_lines(
    msg: &[u8],
    lines: impl Iterator<Item = usize>,
) -> Option<(Vec<u8>, Vec<usize>)> {
    let mut lines = lines.peekable();
    lines.peek()?;
    let mut out = Vec::with_capacity(msg.len());
    let mut removed = Vec::new();
    let mut copied = 0;
    for line in lines {
        out.extend_from_slice(&msg[copied..line]);
        removed.push(out.len());
        copied = line + 1; // the line's first `>` is dropped
    }
    out.extend_from_slice(&msg[copied..]);
    Some((out, removed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line-by-line definition, to check `unquote_from` against.
    fn unquote_by_lines(msg: &[u8]) -> (Vec<u8>, Vec<usize>) {
        let (mut out, mut removed) = (Vec::new(), Vec::new());
        for line in msg.split_inclusive(|&b| b == b'\n') {
            let quotes = line.iter().take_while(|&&b| b == b'>').count();
            if quotes > 0 && line[quotes..].starts_with(b"From ") {
                removed.push(out.len());
                out.extend_from_slice(&line[1..]);
            } else {
                out.extend_from_slice(line);
            }
        }
        (out, removed)
    }

    /// The header's end and `Content-Length` by definition: the first
    /// `\n\n` or `\n\r\n` (or an empty first line), and the first line
    /// before it that starts with the field's name, in any case.
    fn header_by_definition(msg: &[u8]) -> (Option<usize>, Option<usize>) {
        let end = if msg.starts_with(b"\n") {
            Some(1)
        } else if msg.starts_with(b"\r\n") {
            Some(2)
        } else {
            (0..msg.len()).find_map(|i| match &msg[i..] {
                [b'\n', b'\n', ..] => Some(i + 2),
                [b'\n', b'\r', b'\n', ..] => Some(i + 3),
                _ => None,
            })
        };
        let Some(end) = end else { return (None, None) };
        let header = &msg[..end];
        let field = (0..end)
            .filter(|&i| i == 0 || header[i - 1] == b'\n')
            .find(|&i| {
                header.len() >= i + 15
                    && header[i..i + 15]
                        .eq_ignore_ascii_case(b"content-length:")
            });
        let length = field.and_then(|i| {
            let v = header[i + 15..].split(|&b| b == b'\n').next()?;
            let v = v.trim_ascii();
            (!v.is_empty()
                && v.len() <= 19
                && v.iter().all(u8::is_ascii_digit))
            .then(|| std::str::from_utf8(v).ok()?.parse().ok())
            .flatten()
        });
        (Some(end), length)
    }

    #[test]
    fn read_header_agrees_with_the_definition() {
        let pieces: [&[u8]; 10] = [
            b"Content-Length: 12\n",
            b"content-LENGTH:5 \r\n",
            b"X: y\n",
            b"\n",
            b"\r\n",
            b"Content-Length: x\n",
            b" Content-Length: 3\n",
            b"S: Content-Length: 4",
            // 8-bit bytes, and a line longer than a vector step.
            b"\xff\n\xc3\xa9",
            b"Subject: a line that goes on and on, well past the sixty-four bytes of a step\n",
        ];
        // Every sequence of up to 5 pieces (10^5 texts).
        each_sequence(&pieces, 5, |t| {
            assert_eq!(read_header(t), header_by_definition(t), "{t:?}");
        });
    }

    /// `check` on every sequence of 1 to `most` of `pieces`.
    fn each_sequence(pieces: &[&[u8]], most: usize, check: impl Fn(&[u8])) {
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..most {
            let mut next = Vec::new();
            for t in &texts {
                for p in pieces {
                    let mut u = t.clone();
                    u.extend_from_slice(p);
                    next.push(u);
                }
            }
            next.iter().for_each(|t| check(t));
            texts = next;
        }
    }

    /// Each message's bytes as `unquote_from` makes them from its span
    /// of the input: the quoted lines met by the separator search are
    /// the ones a pass of their own finds.
    fn check_unquoted(input: &[u8], max: usize) {
        let mut m = Messages::new(input, Framing::Mbox, max);
        while let Some(msg) = m.next_message().unwrap() {
            let start = msg.offset as usize;
            let span =
                &input[start..start + msg.raw.len() + msg.removed.len()];
            let want = unquoted(span);
            assert_eq!(
                (&*msg.raw, &msg.removed),
                (&want.0[..], &want.1),
                "{start}"
            );
        }
    }

    #[test]
    fn quoted_lines_of_the_separator_search_agree_with_unquote_from() {
        let pieces: [&[u8]; 9] = [
            b"From a@b Thu Jan  1 00:00:00 1970\n",
            b"\n",
            b">From x\n",
            b">>From y\n",
            b"From here on\n",
            b"text >From q\n",
            b">>",
            b"From ",
            b"Content-Length: 2\n\nab\n",
        ];
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d);
        for round in 0..3000 {
            let mut input =
                b"From a@b Thu Jan  1 00:00:00 1970\nS: x\n\n".to_vec();
            for _ in 0..next() % 40 {
                input.extend_from_slice(pieces[(next() % 9) as usize]);
            }
            for max in [1024, 1 << 20] {
                check_unquoted(&input, max);
            }
            // More quoted lines than are noted.
            if round == 0 {
                let mut many =
                    b"From a@b Thu Jan  1 00:00:00 1970\n\n".to_vec();
                for _ in 0..MAX_QUOTED + 10 {
                    many.extend_from_slice(b">From x\n");
                }
                check_unquoted(&many, 4 << 20);
                let mut m = Messages::new(&many[..], Framing::Mbox, 4 << 20);
                let msg = m.next_message().unwrap().unwrap();
                assert_eq!(msg.removed.len(), MAX_QUOTED + 10);
            }
            // A read boundary (`READ`) inside or around a quoted line:
            // the search goes on in the next read.
            if round < 24 {
                let mut big =
                    b"From a@b Thu Jan  1 00:00:00 1970\n\n".to_vec();
                while big.len() < READ - 12 + round {
                    big.extend_from_slice(b"filler line\n");
                }
                big.truncate(READ - 12 + round);
                big.extend_from_slice(b"\n>>From z\n>From w\n\nFrom a@b Thu Jan  1 00:00 1970\n>From v\n");
                check_unquoted(&big, 4 << 20);
                check_unquoted(&big, READ - 4);
            }
        }
    }

    #[test]
    fn unquote_from_agrees_with_lines() {
        let pieces: [&[u8]; 6] =
            [b">", b"From ", b"\n", b"x", b">From ", b" "];
        // Every sequence of up to 6 pieces (6^6 = 46,656 texts).
        each_sequence(&pieces, 6, |t| {
            let want = unquote_by_lines(t);
            assert_eq!(unquoted(t), want, "{t:?}");
            // No copy where nothing is unquoted.
            assert_eq!(unquote_from(t).is_none(), want.1.is_empty(), "{t:?}");
        });
    }

    /// `unquote_from`, the bytes as they are where it changes nothing.
    fn unquoted(msg: &[u8]) -> (Vec<u8>, Vec<usize>) {
        unquote_from(msg).unwrap_or_else(|| (msg.to_vec(), Vec::new()))
    }

    fn all(input: &[u8], framing: Framing, max: usize) -> Vec<Message> {
        let mut m = Messages::new(input, framing, max);
        let mut v = Vec::new();
        while let Some(msg) = m.next_message().unwrap() {
            v.push(msg);
        }
        v
    }

    #[test]
    fn splits_mbox() {
        let mbox = b"From a@b Thu Jan  1 00:00:00 1970\nSubject: one\n\nbody\n>From here\n\nFrom c@d Fri Jan  2 10:00 1970\nSubject: two\n\nx\n";
        let v = all(mbox, Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].number, 1);
        assert_eq!(v[0].raw, b"Subject: one\n\nbody\nFrom here\n\n");
        assert_eq!(v[0].offset, 34);
        assert_eq!(v[0].line, 1);
        assert_eq!(v[0].removed, vec![19]);
        // Byte 19 of raw (`F` of the unquoted line) is byte 20 after the
        // From line in the input.
        assert_eq!(v[0].input_offset(19), 34 + 20);
        assert_eq!(&mbox[v[0].input_offset(19) as usize..][..4], b"From");
        assert_eq!(v[1].number, 2);
        assert_eq!(v[1].raw, b"Subject: two\n\nx\n");
        assert_eq!(&mbox[v[1].offset as usize..][..8], b"Subject:");
        assert_eq!(v[1].line, 7);
        // Told that no line is asked for: the same messages, line 0.
        let mut m = Messages::new(&mbox[..], Framing::Mbox, 1 << 20);
        m.without_lines();
        for want in &v {
            let got = m.next_message().unwrap().unwrap();
            assert_eq!(
                (got.raw, got.offset, got.line),
                (want.raw.clone(), want.offset, 0)
            );
        }
        assert!(m.next_message().unwrap().is_none());
    }

    #[test]
    fn mboxrd_keeps_other_quotes() {
        let (out, removed) = unquoted(b">>From x\n> From y\n>quoted\n");
        assert_eq!(out, b">From x\n> From y\n>quoted\n");
        assert_eq!(removed, vec![0]);
    }

    #[test]
    fn single_and_long_messages() {
        let body = b"Subject: s\n\n"
            .iter()
            .copied()
            .chain(b"line of text\n".repeat(300))
            .collect::<Vec<u8>>();
        let v = all(&body, Framing::Single, 1024);
        assert!(v.len() > 2);
        assert!(!v[0].continuation && v[0].truncated);
        assert!(v[1].continuation);
        assert!(v.iter().all(|m| m.number == 1));
        let joined: Vec<u8> = v.iter().flat_map(|m| m.raw.to_vec()).collect();
        assert_eq!(joined, body);
        for m in &v {
            assert_eq!(&body[m.offset as usize..][..m.raw.len()], &m.raw[..]);
        }
    }

    #[test]
    fn separator_lines() {
        // Separators as found in /work/shared/corpora: public-inbox,
        // SpamAssassin (two spaces, a zone before the year, a sender of
        // two words, an RFC 5322 date), and the forms of mbox(5) and
        // mutt's is_from.
        for line in [
            "From mboxrd@z Thu Jan  1 00:00:00 1970",
            "From 12a1mailbot1@web.de  Thu Aug 22 13:17:22 2002",
            "From tstfromline@localhost  Sat Jan 19 15:26:33 EST 2002",
            "From zvfjenphuq@[1086695621] [ufa]  Sun Aug  5 09:51:15 2001",
            "From stefanie.schwabe@wanadoo.fr Wed, 2 May 2001 10:10:26 +0200",
            "From MAILER-DAEMON Fri Jul  8 12:08:34 2011",
            "From a@b Wed Aug  2 00:39:12 MET DST 1995",
            "From a@b Thu Jan  1 00:00 1970 +0000",
            "From a@b Thu Jan  1 00:00:00 1970 remote from uunet",
            "From \"a b\"@c Thu Jan  1 00:00:00 1970\r",
            "From a@b\tThu Jan 1 00:00:00 1970",
        ] {
            assert!(is_from_line(line.as_bytes()), "{line}");
        }
        // Body lines found in the same corpora, and near misses.
        for line in [
            "From here on http://example.com/ is new",
            "From  :<tst1@example.com>",
            "From my point of view my current approach is actually working",
            "From R4 to R5:",
            "From archive_policy.txt:",
            "From Jeff Walkup <pwappy@well.sf.ca.us>:",
            "From Thu Jan  1 00:00:00 1970",
            "From a@b Thu Jan  1 00:00:00 70",
            "From a@b Thu Jan 1 25:00 1970 and more words",
            "From a@b Thu Jan  1 00:00:00",
            "From a@b Thx Jan  1 00:00:00 1970",
            "From a@b Thu Jxn  1 00:00:00 1970",
            "From a@b Thu Jan  1 0:0:0 1970",
            "From:a@b",
            "From ",
            "",
        ] {
            assert!(!is_from_line(line.as_bytes()), "{line}");
        }
    }

    #[test]
    fn unquoted_body_from_line_stays() {
        // An mboxo writer that did not quote: after an empty line, a body
        // line starts with `From `; it is text, and its URL stays in the
        // message (SYNTHETIC: no unquoted case in the shared corpora).
        let mbox = b"From a@b Thu Jan  1 00:00:00 1970\nSubject: one\n\n\
            intro\n\nFrom here on http://x.example/ is new\n\n\
            From c@d Thu Jan  1 00:00:00 1970\nSubject: two\n\nbody\n";
        let v = all(mbox, Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 2);
        assert!(
            v[0].raw
                .ends_with(b"\n\nFrom here on http://x.example/ is new\n\n")
        );
        assert_eq!(v[1].raw, b"Subject: two\n\nbody\n");
        // The same at the start of a continuation piece after a cut.
        let mut long = b"From a@b Thu Jan  1 00:00:00 1970\nS: 1\n\n".to_vec();
        long.extend(b"x\n".repeat(600));
        long.extend_from_slice(b"From here on http://x.example/\n");
        let v = all(&long, Framing::Mbox, 1024);
        assert!(v.iter().all(|m| m.number == 1));
        let joined: Vec<u8> = v.iter().flat_map(|m| m.raw.to_vec()).collect();
        assert!(joined.ends_with(b"\nFrom here on http://x.example/\n"));
    }

    /// A run of separator lines (messages with nothing in them) is
    /// passed line by line, and the `Content-Length` of the message after
    /// it still frames that message.
    #[test]
    fn separator_runs_before_a_content_length() {
        let sep = "From a@b Thu Jan  1 00:00:00 1970\n";
        let body = "x\n\nFrom y@z Thu Jan  1 00:00:00 1970\nin the body\n";
        let mut mbox = format!("{sep}Subject: 1\n\none\n\n");
        mbox.push_str(&sep.repeat(5000));
        mbox.push_str(&format!("Content-Length: {}\n\n{body}", body.len()));
        let v = all(mbox.as_bytes(), Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 2, "{v:#?}");
        assert_eq!(v[0].raw, b"Subject: 1\n\none\n\n");
        assert!(v[1].raw.ends_with(body.as_bytes()));
    }

    /// A header whose first line starts with `From ` but is no separator
    /// is still read for its `Content-Length`.
    #[test]
    fn content_length_after_a_from_line_that_is_no_separator() {
        let body = "x\n\nFrom y@z Thu Jan  1 00:00:00 1970\nin the body\n";
        let mbox = format!(
            "From a@b Thu Jan  1 00:00:00 1970\nFrom uucp-relay remote\n\
             Content-Length: {}\n\n{body}",
            body.len()
        );
        let v = all(mbox.as_bytes(), Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert!(v[0].raw.ends_with(body.as_bytes()));
    }

    #[test]
    fn content_length_frames_mboxcl2() {
        // mboxcl2: no quoting, the body's length in Content-Length; body
        // lines that start with `From ` (even a well-formed one after an
        // empty line) stay in their message (SYNTHETIC).
        let body1 = "intro\n\nFrom x@y Thu Jan  1 00:00:00 1970\n\
            From here on http://x.example/\n";
        let body2 = "second http://y.example/\n";
        let mbox = format!(
            "From a@b Thu Jan  1 00:00:00 1970\n\
             Subject: one\nContent-Length: {}\n\n{body1}\n\
             From c@d Thu Jan  1 00:00:00 1970\n\
             Content-Length: {}\n\n{body2}",
            body1.len(),
            body2.len()
        );
        let v = all(mbox.as_bytes(), Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 2, "{v:#?}");
        assert!(v[0].raw.ends_with(format!("\n\n{body1}\n").as_bytes()));
        assert_eq!(
            &*v[1].raw,
            format!("Content-Length: {}\n\n{body2}", body2.len()).as_bytes()
        );
        // Without the optional empty line, and with CRLF.
        let mbox = format!(
            "From a@b Thu Jan  1 00:00:00 1970\r\nContent-Length: {}\r\n\r\n\
             {body1}From c@d Thu Jan  1 00:00:00 1970\r\n\r\nz\r\n",
            body1.len()
        );
        let v = all(mbox.as_bytes(), Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 2);
        assert!(v[0].raw.ends_with(body1.as_bytes()));
        assert_eq!(v[1].raw, b"\r\nz\r\n");
        // A length that lands elsewhere is not used: separators decide.
        for wrong in [body1.len() - 3, body1.len() + 5, 1 << 30] {
            let mbox = format!(
                "From a@b Thu Jan  1 00:00:00 1970\n\
                 Content-Length: {wrong}\n\n{body1}\n\
                 From c@d Thu Jan  1 00:00:00 1970\n\nz\n"
            );
            let v = all(mbox.as_bytes(), Framing::Mbox, 1 << 20);
            assert_eq!(v.len(), 3, "{wrong}");
        }
        // The first field named Content-Length counts, whatever its case,
        // not one whose name ends so.
        let mbox = format!(
            "From a@b Thu Jan  1 00:00:00 1970\n\
             X-Original-Content-Length: 3\ncontent-LENGTH: {}\n\n{body1}",
            body1.len()
        );
        let v = all(mbox.as_bytes(), Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 1);
        // A length longer than the limit is not used either.
        let big = "y\n".repeat(1000);
        let mbox = format!(
            "From a@b Thu Jan  1 00:00:00 1970\n\
             Content-Length: {}\n\n{big}",
            big.len()
        );
        let v = all(mbox.as_bytes(), Framing::Mbox, 1024);
        assert!(v.len() > 1 && v[0].truncated);
    }

    #[test]
    fn framing_across_read_boundaries() {
        // Separators and Content-Length ends on both sides of the 1 MiB
        // reads, and lines cut by them: the same messages each time.
        for shift in (0..140).step_by(5).chain([1000, 1030, 1100]) {
            let pad = "p".repeat(READ - 100 + shift);
            let cl = format!("{pad}\n\nFrom x@y Thu Jan  1 00:00:00 1970\n");
            let mbox = format!(
                "From a@b Thu Jan  1 00:00:00 1970\nS: 1\n\n{pad}\n\n\
                 From c@d Thu Jan  1 00:00:00 1970\n\
                 Content-Length: {}\n\n{cl}\n\
                 From e@f Thu Jan  1 00:00:00 1970\nS: 3\n\nend\n",
                cl.len()
            );
            let v = all(mbox.as_bytes(), Framing::Mbox, 4 << 20);
            assert_eq!(v.len(), 3, "{shift}");
            assert_eq!(v[2].raw, b"S: 3\n\nend\n");
            assert!(v[1].raw.ends_with(b"00:00:00 1970\n\n"));
            for m in &v {
                let at = m.offset as usize;
                assert_eq!(&mbox.as_bytes()[at..at + m.raw.len()], &m.raw[..]);
            }
        }
    }

    /// Messages share the buffers they were read into, and a buffer is
    /// read into again only once no message holds it: messages held
    /// while many more are read (a window of about 3 MiB, over several
    /// buffers of 1 MiB reused in turn) keep their bytes, and each one
    /// with a quoted line has bytes of its own.
    #[test]
    fn messages_keep_their_bytes_while_buffers_are_reused() {
        let body = |k: usize| {
            let mut b = format!("Subject: {k}\n\n");
            while b.len() < 900 + k % 700 {
                b.push_str(&format!("line {k} of the body\n"));
            }
            if k.is_multiple_of(97) {
                b.push_str(">From the quoted line\n");
            }
            b.push('\n');
            b
        };
        let mut input = Vec::new();
        let n = 9000;
        for k in 0..n {
            input.extend_from_slice(b"From a@b Thu Jan  1 00:00:00 1970\n");
            input.extend_from_slice(body(k).as_bytes());
        }
        let check = |msg: &Message| {
            let k = msg.number as usize - 1;
            let want = body(k).replace("\n>From ", "\nFrom ");
            assert_eq!(&*msg.raw, want.as_bytes(), "{k}");
            assert_eq!(
                matches!(msg.raw, Raw::Owned(_)),
                k.is_multiple_of(97),
                "{k}"
            );
        };
        let mut m = Messages::new(&input[..], Framing::Mbox, 1 << 20);
        let mut held = std::collections::VecDeque::new();
        let mut buffers = std::collections::HashSet::new();
        while let Some(msg) = m.next_message().unwrap() {
            if let Raw::Shared(buf, _) = &msg.raw {
                buffers.insert(Arc::as_ptr(buf) as usize);
            }
            held.push_back(msg);
            if held.len() > 2500 {
                check(&held.pop_front().unwrap());
            }
            assert!(m.spares.len() <= SPARES);
        }
        assert_eq!(m.number, n as u64);
        held.iter().for_each(check);
        // Over 11 MiB read into a few buffers, each reused.
        assert!(input.len() > 11 << 20);
        assert!((3..=SPARES + 2).contains(&buffers.len()), "{buffers:?}");
    }

    /// Each buffer messages share is counted by the first message to
    /// hold it (so a batch of messages counts what it keeps in memory),
    /// a buffer grown past [`MAX_SHARED`] for a long message is copied
    /// from instead, and the buffers after it are shared again.
    #[test]
    fn shared_buffers_are_counted_and_long_ones_copied_from() {
        let body = |k: usize| {
            let lines = if k == 1500 { 200_000 } else { 20 + k % 30 };
            let mut b = format!("Subject: {k}\n\n");
            for i in 0..lines {
                b.push_str(&format!("line {i} of {k}\n"));
            }
            b.push('\n');
            b
        };
        let mut input = Vec::new();
        for k in 0..3000 {
            input.extend_from_slice(b"From a@b Thu Jan  1 00:00:00 1970\n");
            input.extend_from_slice(body(k).as_bytes());
        }
        let msgs = all(&input, Framing::Mbox, 16 << 20);
        assert_eq!(msgs.len(), 3000);
        let mut buffers = std::collections::HashMap::new();
        for (k, msg) in msgs.iter().enumerate() {
            assert_eq!(&*msg.raw, body(k).as_bytes(), "{k}");
            match &msg.raw {
                Raw::Shared(buf, _) => {
                    assert!(buf.capacity() <= MAX_SHARED, "{k}");
                    buffers.insert(Arc::as_ptr(buf) as usize, buf.capacity());
                }
                Raw::Owned(_) => assert_eq!(msg.holds, 0, "{k}"),
            }
        }
        assert!(body(1500).len() > MAX_SHARED);
        assert!(matches!(msgs[1500].raw, Raw::Owned(_)));
        assert!(msgs[2000..].iter().any(|m| matches!(m.raw, Raw::Shared(..))));
        let held: usize = buffers.values().sum();
        let counted: usize = msgs.iter().map(|m| m.holds).sum();
        assert!(buffers.len() >= 3 && counted >= held, "{counted} {held}");
    }

    #[test]
    fn random_mboxes_are_cut_at_line_starts() {
        // Every byte of the input is in one message or in a dropped
        // `From ` line, in order; each message, its `>` put back, is the
        // input from its offset on.
        let pieces: [&[u8]; 10] = [
            b"From a@b Thu Jan  1 00:00:00 1970\n",
            b"From here on\n",
            b"\n",
            b"\r\n",
            b"Content-Length: 7\n",
            b"Content-Length: 0\n",
            b"body x\n",
            b">From z\n",
            b"S: y\n",
            b"long line without end ",
        ];
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..3000 {
            let n = (next() % 30) as usize;
            let mut input = Vec::new();
            for _ in 0..n {
                input.extend_from_slice(pieces[(next() % 10) as usize]);
            }
            let mut at = 0;
            for m in all(&input, Framing::Mbox, 1024) {
                let offset = m.offset as usize;
                // Between messages: `From ` lines (an empty message
                // between two of them is no message), each a separator
                // line but for the input's first, which is one whatever
                // it holds (a line taken as the separator the message
                // before ends at is not read again).
                for (k, line) in input[at..offset]
                    .split_inclusive(|&c| c == b'\n')
                    .enumerate()
                {
                    assert!(
                        line.starts_with(b"From ") && line.ends_with(b"\n"),
                        "{:?}",
                        String::from_utf8_lossy(&input)
                    );
                    let first = at == 0 && k == 0;
                    assert!(
                        first || is_from_line(&line[..line.len() - 1]),
                        "{:?}",
                        String::from_utf8_lossy(&input)
                    );
                }
                let mut back = m.raw.to_vec();
                for &r in m.removed.iter().rev() {
                    back.insert(r, b'>');
                }
                assert_eq!(&input[offset..offset + back.len()], &back[..]);
                at = offset + back.len();
            }
            let rest = &input[at..];
            assert!(
                rest.is_empty() || rest.starts_with(b"From "),
                "{input:?}"
            );
        }
    }

    #[test]
    fn long_first_line_is_bounded() {
        // A first `From ` line longer than the limit and than a read:
        // dropped as the separator it is; what follows is a message.
        let mut mbox = b"From a@b Thu Jan  1 00:00:00 1970".to_vec();
        mbox.extend(std::iter::repeat_n(b' ', READ + 10));
        mbox.extend_from_slice(b"\nS: 1\n\nbody\n");
        let v = all(&mbox, Framing::Mbox, 4096);
        assert!(v.iter().all(|m| m.raw.len() <= 4096));
        assert!(v.last().is_some_and(|m| m.raw.ends_with(b"body\n")));
    }

    #[test]
    fn mmdf_messages_between_markers() {
        let input = b"\x01\x01\x01\x01\nFrom: a@x\n\nhttp://a.example/\n\
                      \x01\x01\x01\x01\n\x01\x01\x01\x01\nFrom: b@x\n\n\
                      \x01\x01\x01\x01 not a marker\nhttp://b.example/\n\
                      \x01\x01\x01\x01\n";
        {
            let msgs = all(input, Framing::Mmdf, 1 << 20);
            let raw: Vec<&[u8]> = msgs.iter().map(|m| &m.raw[..]).collect();
            assert_eq!(
                raw,
                [
                    &b"From: a@x\n\nhttp://a.example/\n"[..],
                    &b"From: b@x\n\n\x01\x01\x01\x01 not a marker\nhttp://b.example/\n"[..],
                ]
            );
            assert_eq!(msgs[1].offset, 44);
            assert_eq!(&input[44..53], b"From: b@x");
        }
        // Read a byte at a time: the markers fall across reads.
        struct OneByte<'a>(&'a [u8]);
        impl Read for OneByte<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut m = Messages::new(OneByte(input), Framing::Mmdf, 1 << 20);
        let mut slow = Vec::new();
        while let Some(msg) = m.next_message().unwrap() {
            slow.push(msg.raw.to_vec());
        }
        let fast: Vec<Vec<u8>> = all(input, Framing::Mmdf, 1 << 20)
            .into_iter()
            .map(|m| m.raw.to_vec())
            .collect();
        assert_eq!(slow, fast);
    }

    #[test]
    fn babyl_messages_without_their_shown_header() {
        let input = b"BABYL OPTIONS: -*- rmail -*-\nVersion: 5\n\x1f\x0c\n\
                      0, unseen,,\nList-Id: <http://a.example/>\n\n\
                      *** EOOH ***\nList-Id: <http://a.example/>\n\n\
                      body http://b.example/\n\x1f\x0c\n1,,\n\
                      Subject: no EOOH\n\nhttp://c.example/\n\x1f";
        let msgs = all(input, Framing::Babyl, 1 << 20);
        let raw: Vec<&[u8]> = msgs.iter().map(|m| &m.raw[..]).collect();
        assert_eq!(
            raw,
            [
                &b"List-Id: <http://a.example/>\n\nbody http://b.example/\n"[..],
                &b"Subject: no EOOH\n\nhttp://c.example/\n"[..],
            ]
        );
        // Each byte of what is left maps back to its place in the input.
        for m in &msgs {
            for (p, &b) in m.raw.iter().enumerate() {
                assert_eq!(input[m.input_offset(p) as usize], b, "{p}");
            }
        }
        assert!(is_babyl_labels(b"1, answered,, work,"));
        assert!(!is_babyl_labels(b"Subject: 1,,"));
    }

    /// A file that starts as Babyl's options section but never ends it
    /// is read as messages are: nothing dropped, at most a message's
    /// length held at once.
    #[test]
    fn unended_babyl_options_are_kept() {
        let input = b"BABYL OPTIONS: -*- rmail -*-\nsee http://a.example/\n";
        let msgs = all(input, Framing::Babyl, 1 << 20);
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0].raw, input);
        let long = [&input[..], &b"line of text\n".repeat(1000)[..]].concat();
        let msgs = all(&long, Framing::Babyl, 1024);
        assert!(msgs.len() > 10 && msgs.iter().all(|m| m.raw.len() <= 1024));
        let joined: Vec<u8> =
            msgs.iter().flat_map(|m| m.raw.to_vec()).collect();
        assert_eq!(joined, long);
    }

    #[test]
    fn crlf_mbox() {
        let mbox = b"From a Thu Jan  1 00:00:00 1970\r\nS: 1\r\n\r\nb\r\n\r\n\
            From c Thu Jan  1 00:00:00 1970\r\nS: 2\r\n";
        let v = all(mbox, Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].raw, b"S: 2\r\n");
    }
}

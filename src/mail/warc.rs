//! Web archive framing: cuts a WARC file (ISO 28500, WARC 1.0 and 1.1;
//! Common Crawl's WET and WAT files are WARC files too) into records,
//! streaming, with a bound on the size of one record.
//!
//! A record is a version line (`WARC/1.1`), header fields ending at an
//! empty line, a block of exactly `Content-Length` bytes, and two line
//! breaks (WARC 1.1 section 4). Each record is given as a [`Message`]
//! whose bytes are its header fields and block, without the version
//! line: the MIME walker reads the fields as a header (they have that
//! syntax) and the block by the record's `Content-Type`, and with
//! [`MimeOptions::web`](crate::mail::mime::MimeOptions::web) knows to
//! take `WARC-Target-URI` as the base, to walk into an HTTP message and
//! to leave the record's own fields unscanned.
//!
//! Nothing is dropped: bytes where a record should start but none does
//! (no `WARC/` line, no `Content-Length`, a header longer than
//! [`MAX_HEADER`]) are given, up to the next line that starts with
//! `WARC/1.` or `WARC/0.`, as a piece scanned as plain text (`junk`); a
//! record longer than the limit is cut there and its rest comes as
//! continuation pieces, as for mail.

use std::io::{self, Read};

use super::mbox::{EndCheck, Message, Records};

/// Longest record header looked for: a header not ended by then is junk.
const MAX_HEADER: usize = 1 << 20;

/// Bytes read at a time.
const READ: usize = 64 << 10;

/// The records of a WARC file, each at most `max` bytes.
pub(crate) fn warc_records<'a>(
    reader: Box<dyn Read + 'a>,
    max: usize,
) -> Box<dyn Records + 'a> {
    Box::new(Warc::new(reader, max))
}

/// Whether `head` starts as a WARC file does.
pub(crate) fn is_warc(head: &[u8]) -> bool {
    is_version_line_start(head)
}

fn is_version_line_start(b: &[u8]) -> bool {
    b.starts_with(b"WARC/1.") || b.starts_with(b"WARC/0.")
}

/// Reads records from an input.
struct Warc<R> {
    reader: R,
    /// Read but not yet taken: `buf[start..]`.
    buf: Vec<u8>,
    start: usize,
    /// Offset in the input of `buf[start]`, newlines before it (counted
    /// when `lines`).
    offset: u64,
    line: u64,
    lines: bool,
    eof: bool,
    error: Option<io::Error>,
    end_check: Option<EndCheck>,
    number: u64,
    max: usize,
    /// Block bytes of the record being cut that are still to come as
    /// continuation pieces, and the two line breaks after them.
    rest: u64,
}

impl<R: Read> Records for Warc<R> {
    fn next_message(&mut self) -> io::Result<Option<Message>> {
        let msg = self.next_record();
        if msg.is_none() {
            if let Some(e) = self.error.take() {
                return Err(e);
            }
            if let Some(mut check) = self.end_check.take()
                && let Some(e) = check(self.offset)
            {
                return Err(e);
            }
        }
        Ok(msg)
    }

    fn check_end(&mut self, check: EndCheck) {
        self.end_check = Some(check);
    }

    fn without_lines(&mut self) {
        self.lines = false;
    }
}

impl<R: Read> Warc<R> {
    fn new(reader: R, max: usize) -> Self {
        Warc {
            reader,
            buf: Vec::new(),
            start: 0,
            offset: 0,
            line: 0,
            lines: true,
            eof: false,
            error: None,
            end_check: None,
            number: 0,
            max: max.max(1),
            rest: 0,
        }
    }

    fn pending(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// Read until `n` bytes are pending or the input ends.
    fn fill(&mut self, n: usize) {
        while self.pending().len() < n && !self.eof {
            if self.start > 0 && self.start * 2 >= self.buf.len() {
                self.buf.drain(..self.start);
                self.start = 0;
            }
            let have = self.buf.len();
            let want = (n - self.pending().len()).max(READ);
            self.buf.resize(have + want, 0);
            match self.reader.read(&mut self.buf[have..]) {
                Ok(0) => {
                    self.buf.truncate(have);
                    self.eof = true;
                }
                Ok(k) => self.buf.truncate(have + k),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    self.buf.truncate(have);
                }
                Err(e) => {
                    self.buf.truncate(have);
                    self.error = Some(e);
                    self.eof = true;
                }
            }
        }
    }

    /// Take `n` pending bytes (all of them, or fewer at the end).
    fn consume(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(self.pending().len());
        let taken = self.buf[self.start..self.start + n].to_vec();
        self.skip(n);
        taken
    }

    /// Pass over `n` pending bytes.
    fn skip(&mut self, n: usize) {
        let n = n.min(self.pending().len());
        let passed = &self.buf[self.start..self.start + n];
        if self.lines {
            self.line += bytecount::count(passed, b'\n') as u64;
        }
        self.offset += n as u64;
        self.start += n;
    }

    fn message(&self, raw: Vec<u8>, offset: u64, line: u64) -> Message {
        Message {
            number: self.number,
            raw: raw.into(),
            removed: Vec::new(),
            offset,
            line,
            continuation: false,
            truncated: false,
            record: None,
            junk: false,
            holds: 0,
        }
    }

    fn next_record(&mut self) -> Option<Message> {
        if self.rest > 0 {
            return Some(self.continuation());
        }
        // Line breaks between records (the two that end each one, and
        // any a writer added).
        loop {
            self.fill(1);
            let breaks = self
                .pending()
                .iter()
                .take_while(|&&b| matches!(b, b'\r' | b'\n'))
                .count();
            if breaks == 0 {
                break;
            }
            self.skip(breaks);
        }
        if self.pending().is_empty() {
            return None;
        }
        self.fill(MAX_HEADER);
        let head = self.pending();
        let header = is_version_line_start(head)
            .then(|| header_end(&head[..head.len().min(MAX_HEADER)]))
            .flatten();
        let Some((version_end, body)) = header else {
            return Some(self.junk());
        };
        let Some(length) = content_length(&head[version_end..body]) else {
            return Some(self.junk());
        };
        self.number += 1;
        let record = self.offset;
        self.skip(version_end);
        let (offset, line) = (self.offset, self.line);
        let whole = (body - version_end) as u64 + length;
        let take = whole.min(self.max as u64) as usize;
        self.fill(take);
        let raw = self.consume(take);
        let mut msg = self.message(raw, offset, line);
        msg.record = Some(record);
        if (take as u64) < whole {
            msg.truncated = true;
            self.rest = whole - take as u64;
        }
        Some(msg)
    }

    /// The next piece of a record longer than the limit.
    fn continuation(&mut self) -> Message {
        let take = self.rest.min(self.max as u64) as usize;
        let (offset, line) = (self.offset, self.line);
        self.fill(take);
        let raw = self.consume(take);
        self.rest = if raw.len() < take { 0 } else { self.rest - take as u64 };
        let mut msg = self.message(raw, offset, line);
        msg.continuation = true;
        msg.truncated = self.rest > 0;
        msg
    }

    /// Bytes that are not a record, up to the next line that starts as a
    /// record does (or `max` bytes).
    fn junk(&mut self) -> Message {
        let (offset, line) = (self.offset, self.line);
        self.fill(self.max);
        let head = self.pending();
        let limit = head.len().min(self.max);
        let mut end = limit;
        for nl in memchr::memchr_iter(b'\n', &head[..limit]) {
            if is_version_line_start(&head[nl + 1..]) {
                end = nl + 1;
                break;
            }
        }
        let raw = self.consume(end.max(1));
        self.number += 1;
        let mut msg = self.message(raw, offset, line);
        msg.junk = true;
        msg
    }
}

/// Where the version line ends and where the block starts (after the
/// empty line ending the header), if the header ends in `head`.
fn header_end(head: &[u8]) -> Option<(usize, usize)> {
    let version_end = memchr::memchr(b'\n', head)? + 1;
    let mut pos = version_end;
    loop {
        let nl = pos + memchr::memchr(b'\n', &head[pos..])?;
        let line = &head[pos..nl];
        if line.is_empty() || line == b"\r" {
            return Some((version_end, nl + 1));
        }
        pos = nl + 1;
    }
}

/// The value of the `Content-Length` field of a record header.
fn content_length(fields: &[u8]) -> Option<u64> {
    fields.split(|&b| b == b'\n').find_map(|line| {
        let colon = memchr::memchr(b':', line)?;
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        if !name.trim_ascii().eq_ignore_ascii_case(b"Content-Length") {
            return None;
        }
        let v = value.trim_ascii();
        if v.is_empty() || !v.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(v).ok()?.parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Message> {
        let mut w = Warc::new(input, max);
        let mut v = Vec::new();
        while let Some(m) = w.next_message().unwrap() {
            v.push(m);
        }
        v
    }

    const TWO: &[u8] = b"WARC/1.1\r\nWARC-Type: resource\r\n\
        Content-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n\
        WARC/1.0\r\nContent-Length: 3\r\nWARC-Type: metadata\r\n\r\nabc\r\n\r\n";

    #[test]
    fn cuts_records() {
        let v = all(TWO, 1 << 20);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].record, Some(0));
        assert_eq!(v[0].offset, 10);
        assert!(v[0].raw.starts_with(b"WARC-Type: resource"));
        assert!(v[0].raw.ends_with(b"\r\n\r\nhello"));
        assert_eq!(v[1].number, 2);
        let second = TWO.windows(8).position(|w| w == b"WARC/1.0").unwrap();
        assert_eq!(v[1].record, Some(second as u64));
        assert!(v[1].raw.ends_with(b"abc"));
        assert_eq!(v[1].line, 8);
        assert!(v.iter().all(|m| !m.junk && !m.truncated));
    }

    #[test]
    fn long_records_are_cut_and_continued() {
        let v = all(TWO, 40);
        assert!(v[0].truncated && !v[0].continuation);
        assert_eq!(v[0].raw.len(), 40);
        assert!(v[1].continuation);
        // The pieces of the first record are its header and block.
        let first: Vec<u8> = v
            .iter()
            .take_while(|m| m.number == 1)
            .flat_map(|m| m.raw.to_vec())
            .collect();
        assert!(first.ends_with(b"hello"));
        assert_eq!(v.iter().filter(|m| !m.continuation).count(), 2);
    }

    #[test]
    fn junk_is_kept_and_records_found_after_it() {
        let mut input = b"garbage http://x.example/\nmore\n".to_vec();
        input.extend_from_slice(TWO);
        input
            .extend_from_slice(b"WARC/1.1\r\nWARC-Type: x\r\n\r\nno length\n");
        let v = all(&input, 1 << 20);
        assert!(v[0].junk);
        assert_eq!(v[0].raw, b"garbage http://x.example/\nmore\n");
        assert_eq!(v[1].record, Some(31));
        assert!(v[3].junk);
        assert!(v[3].raw.ends_with(b"no length\n"));
        let total: usize = v.iter().map(|m| m.raw.len()).sum();
        // Every byte but the version lines and the record separators.
        assert_eq!(total + 10 + 10 + 4 + 4, input.len());
    }

    #[test]
    fn a_truncated_block_ends_the_input() {
        let v = all(b"WARC/1.1\r\nContent-Length: 100\r\n\r\nshort", 1 << 20);
        assert_eq!(v.len(), 1);
        assert!(v[0].raw.ends_with(b"short"));
    }

    #[test]
    fn lengths() {
        assert_eq!(content_length(b"content-length: 12\r\n"), Some(12));
        assert_eq!(content_length(b"Content-Length: x\r\n"), None);
        assert_eq!(content_length(b"X: 1\r\n"), None);
        assert!(is_warc(b"WARC/1.0\r\n") && !is_warc(b"WARC: x"));
    }
}

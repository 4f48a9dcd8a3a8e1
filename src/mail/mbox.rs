//! Message framing: cuts an mbox (mboxo or mboxrd) into messages at its
//! `From ` separator lines, or takes a whole file as one message
//! (Maildir, `.eml`, a news spool article), streaming, with a bound on
//! the size of one message. It undoes mboxrd `>From ` quoting in a copy
//! and keeps the map back to the original bytes.

use std::io::{self, Read};

/// How an input is cut into messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// Messages separated by lines that start with `From `.
    Mbox,
    /// The whole input is one message.
    Single,
}

/// One message, copied out of its input.
#[derive(Debug)]
pub(crate) struct Message {
    /// 1-based number of the message in its input.
    pub number: u64,
    /// The message's bytes, the mbox `From ` line removed and mboxrd
    /// quoting (`>From ` at the start of a body line) undone.
    pub raw: Vec<u8>,
    /// Offsets in `raw` where a `>` was removed, sorted: a position `p`
    /// of `raw` is `p + (removals at or before p)` in the input bytes
    /// from `offset` on.
    pub removed: Vec<usize>,
    /// Offset in the input of the message's first byte (after the
    /// `From ` line).
    pub offset: u64,
    /// Newlines in the input before `offset`.
    pub line: u64,
    /// The message was longer than the limit: this is a piece of it
    /// after the first, to be scanned as plain text.
    pub continuation: bool,
    /// The message was cut at the size limit.
    pub truncated: bool,
}

impl Message {
    /// The offset in the input of byte `p` of `raw`.
    pub fn input_offset(&self, p: usize) -> u64 {
        let shift = self.removed.partition_point(|&r| r <= p);
        self.offset + (p + shift) as u64
    }
}

/// Reads messages from an input.
pub(crate) struct Messages<R> {
    reader: R,
    framing: Framing,
    /// Read but not yet taken: `buf[start..]`.
    buf: Vec<u8>,
    start: usize,
    /// How far into `buf[start..]` a separator was already looked for.
    searched: usize,
    /// Offset in the input of `buf[0]`.
    buf_offset: u64,
    /// Newlines in the input before `buf[0]`.
    buf_line: u64,
    eof: bool,
    number: u64,
    max: usize,
    /// The previous message was cut at the limit: the next piece is its
    /// continuation.
    continuing: bool,
}

const READ: usize = 1 << 20;

impl<R: Read> Messages<R> {
    /// Messages of at most `max` bytes (longer ones are cut, and the rest
    /// comes as continuation pieces).
    pub fn new(reader: R, framing: Framing, max: usize) -> Messages<R> {
        Messages {
            reader,
            framing,
            buf: Vec::new(),
            start: 0,
            searched: 0,
            buf_offset: 0,
            buf_line: 0,
            eof: false,
            number: 0,
            max: max.max(1024),
            continuing: false,
        }
    }

    /// Read more input into `buf`; false at the end.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // Compact once per read, not once per message.
        self.buf.drain(..self.start);
        self.start = 0;
        let limit = READ as u64;
        let n = self.reader.by_ref().take(limit).read_to_end(&mut self.buf)?;
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// The next message, or `None` at the end of the input.
    pub fn next_message(&mut self) -> io::Result<Option<Message>> {
        loop {
            // Where the next message starts, if it is in the buffer.
            let end = match self.framing {
                Framing::Mbox => {
                    let pending = &self.buf[self.start..];
                    let from = self.searched.saturating_sub(8);
                    let found = find_separator(pending, from);
                    self.searched = pending.len();
                    found
                }
                Framing::Single => None,
            };
            let pending_len = self.buf.len() - self.start;
            match end {
                Some(0) if self.continuing => self.continuing = false,
                Some(0) => {
                    // The buffer starts with a `From ` line: drop it.
                    let pending = &self.buf[self.start..];
                    match memchr::memchr(b'\n', pending) {
                        Some(nl) => self.consume(nl + 1),
                        None if self.eof => {
                            self.consume(pending_len);
                            return Ok(None);
                        }
                        None => {
                            self.fill()?;
                        }
                    }
                    continue;
                }
                Some(end) if end <= self.max => {
                    return Ok(Some(self.take(end, false)));
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
                return Ok(Some(self.take(pending_len, false)));
            }
        }
    }

    /// Drop `n` bytes from the front of what is pending.
    fn consume(&mut self, n: usize) {
        let taken = &self.buf[self.start..self.start + n];
        self.buf_line += bytecount::count(taken, b'\n') as u64;
        self.buf_offset += n as u64;
        self.start += n;
        self.searched = 0;
    }

    /// Take the first `n` bytes as a message.
    fn take(&mut self, n: usize, cut: bool) -> Message {
        let continuation = self.continuing;
        if !continuation {
            self.number += 1;
        }
        let bytes = &self.buf[self.start..self.start + n];
        let (raw, removed) = if self.framing == Framing::Mbox {
            unquote_from(bytes)
        } else {
            (bytes.to_vec(), Vec::new())
        };
        let msg = Message {
            number: self.number,
            raw,
            removed,
            offset: self.buf_offset,
            line: self.buf_line,
            continuation,
            truncated: cut,
        };
        self.continuing = cut;
        self.consume(n);
        msg
    }
}

/// Where the next message starts: the first line that starts with
/// `From ` and comes at the start of `buf` or after an empty line (an
/// mbox writer quotes body lines that start with `From `; requiring the
/// empty line as well keeps archives that did not from being cut up).
/// The search starts at `from`.
fn find_separator(buf: &[u8], from: usize) -> Option<usize> {
    if buf.starts_with(b"From ") {
        return Some(0);
    }
    let from = from.min(buf.len());
    memchr::memmem::find_iter(&buf[from..], b"\nFrom ")
        .map(|p| from + p + 1)
        .find(|&p| {
            let before = &buf[..p - 1];
            before.is_empty()
                || before.ends_with(b"\n")
                || before.ends_with(b"\n\r")
                || before == b"\r"
        })
}

/// Undo mboxrd / mboxo quoting: a line `>From `, `>>From `, ... loses
/// one `>`. Returns the new bytes and the offsets (in them) where a `>`
/// was removed.
fn unquote_from(msg: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::with_capacity(msg.len());
    let mut removed = Vec::new();
    let mut copied = 0;
    // Quoted lines are rare: find `>From ` and copy what lies between.
    for pos in memchr::memmem::find_iter(msg, b">From ") {
        let mut line = pos;
        while line > 0 && msg[line - 1] == b'>' {
            line -= 1;
        }
        if line > 0 && msg[line - 1] != b'\n' {
            continue; // `>From ` inside a line
        }
        out.extend_from_slice(&msg[copied..line]);
        removed.push(out.len());
        copied = line + 1; // the line's first `>` is dropped
    }
    out.extend_from_slice(&msg[copied..]);
    (out, removed)
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

    #[test]
    fn unquote_from_agrees_with_lines() {
        let pieces: [&[u8]; 6] =
            [b">", b"From ", b"\n", b"x", b">From ", b" "];
        // Every sequence of up to 6 pieces (6^6 = 46,656 texts).
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..6 {
            let mut next = Vec::new();
            for t in &texts {
                for p in pieces {
                    let mut u = t.clone();
                    u.extend_from_slice(p);
                    next.push(u);
                }
            }
            for t in &next {
                assert_eq!(unquote_from(t), unquote_by_lines(t), "{t:?}");
            }
            texts = next;
        }
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
        let mbox = b"From a@b Thu Jan  1 00:00:00 1970\nSubject: one\n\nbody\n>From here\n\nFrom c@d Fri\nSubject: two\n\nx\n";
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
    }

    #[test]
    fn mboxrd_keeps_other_quotes() {
        let (out, removed) = unquote_from(b">>From x\n> From y\n>quoted\n");
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
        let joined: Vec<u8> = v.iter().flat_map(|m| m.raw.clone()).collect();
        assert_eq!(joined, body);
        for m in &v {
            assert_eq!(&body[m.offset as usize..][..m.raw.len()], &m.raw[..]);
        }
    }

    #[test]
    fn crlf_mbox() {
        let mbox = b"From a\r\nS: 1\r\n\r\nb\r\n\r\nFrom c\r\nS: 2\r\n";
        let v = all(mbox, Framing::Mbox, 1 << 20);
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].raw, b"S: 2\r\n");
    }
}

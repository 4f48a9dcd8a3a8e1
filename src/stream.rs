//! Streaming input: cuts any `Read` into segments held in memory one
//! batch at a time, each with the bytes around it that delimiting may
//! need (a roll buffer), so that no input is ever read whole.
//!
//! # The roll buffer, by example
//!
//! With a segment size of 8 bytes, a lookback `L` of 2 and a lookahead
//! `A` of 3, the input `abcdefghijklmnopqrst` is cut as:
//!
//! ```text
//! segment 1: buf = abcdefghijk       owned = abcdefgh   (0..8)
//! segment 2: buf = ghijklmnopqrst    owned = ijklmnopqrst (8..20, EOF)
//! ```
//!
//! Segment 1 owns the triggers at offsets 0..8 and can delimit a URL
//! whose trigger is `h` up to `k`; segment 2 starts with the last `L`
//! bytes before its owned range (`gh`) so a scheme that starts before
//! the boundary is still seen whole. Every trigger is owned by exactly
//! one segment, so a URL across the boundary is found exactly once.

use std::io::{self, Read};
use std::ops::Range;

/// A piece of one input held in memory.
pub(crate) struct Segment {
    /// The bytes: owned range plus context before and after it.
    pub buf: Vec<u8>,
    /// Offset in the input of `buf[0]`.
    pub base: u64,
    /// The range of `buf` whose triggers this segment owns.
    pub own: Range<usize>,
    /// This is the input's last segment.
    pub eof: bool,
}

/// Cuts a reader into [`Segment`]s.
pub(crate) struct Roll<R> {
    reader: R,
    carry: Vec<u8>,
    carry_base: u64,
    own_start: usize,
    lookback: usize,
    lookahead: usize,
    eof: bool,
    line_buffered: bool,
    /// The read error that ended the input, kept until the segment of
    /// what was read before it has been handed out.
    error: Option<io::Error>,
}

impl<R: Read> Roll<R> {
    pub fn new(reader: R, lookback: usize, lookahead: usize) -> Roll<R> {
        Roll {
            reader,
            carry: Vec::new(),
            carry_base: 0,
            own_start: 0,
            lookback,
            lookahead,
            eof: false,
            line_buffered: false,
            error: None,
        }
    }

    /// The next segment, owning about `size` bytes; `None` after the one
    /// marked `eof`.
    ///
    /// A read error ends the input like its end would: the bytes read
    /// before it make the last segment (marked `eof`), and the error
    /// waits in [`Roll::take_error`] (as `zcat | grep` searches what was
    /// decompressed before reporting a damaged archive). Only an error
    /// before any byte was read is returned at once.
    ///
    /// `spare` is a buffer to fill (its contents are dropped): passing
    /// back the buffers of finished segments saves the page faults of
    /// fresh memory on every segment.
    pub fn next_segment(
        &mut self,
        size: usize,
        spare: Vec<u8>,
    ) -> io::Result<Option<Segment>> {
        if self.eof {
            return Ok(None);
        }
        let size = size.max(1);
        let want = self.own_start + size + self.lookahead;
        let mut buf = spare;
        buf.clear();
        buf.extend_from_slice(&self.carry);
        let mut eof = false;
        if self.line_buffered {
            return self.next_lines(buf, want);
        }
        while buf.len() < want {
            // `take` + `read_to_end` fills spare capacity without zeroing.
            let limit = (want - buf.len()) as u64;
            match self.reader.by_ref().take(limit).read_to_end(&mut buf) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return self.failed(buf, e),
            }
        }
        let own_end = if eof { buf.len() } else { buf.len() - self.lookahead };
        Ok(Some(self.cut(buf, own_end, eof)))
    }

    /// Line-buffered: one read at a time, and a segment as soon as the
    /// bytes read end a line (so a live stream's URLs come out as its
    /// lines do; a URL wrapped across a line break can then be cut where
    /// a read ended).
    fn next_lines(
        &mut self,
        mut buf: Vec<u8>,
        want: usize,
    ) -> io::Result<Option<Segment>> {
        loop {
            let old = buf.len();
            buf.resize(old + (64 << 10), 0);
            match self.reader.read(&mut buf[old..]) {
                Ok(0) => {
                    buf.truncate(old);
                    let end = buf.len();
                    return Ok(Some(self.cut(buf, end, true)));
                }
                Ok(n) => {
                    buf.truncate(old + n);
                    let pending = &buf[self.own_start.min(buf.len())..];
                    if let Some(p) = memchr::memrchr(b'\n', pending) {
                        let end = self.own_start + p + 1;
                        return Ok(Some(self.cut(buf, end, false)));
                    }
                    if buf.len() >= want {
                        let end = buf.len() - self.lookahead;
                        return Ok(Some(self.cut(buf, end, false)));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    buf.truncate(old);
                }
                Err(e) => {
                    buf.truncate(old);
                    return self.failed(buf, e);
                }
            }
        }
    }

    /// The last segment, of what was read before `error`; the error is
    /// kept for [`Roll::take_error`], or returned when nothing was read.
    fn failed(
        &mut self,
        buf: Vec<u8>,
        error: io::Error,
    ) -> io::Result<Option<Segment>> {
        self.eof = true;
        if self.carry_base == 0 && buf.is_empty() {
            return Err(error);
        }
        self.error = Some(error);
        let end = buf.len();
        Ok(Some(self.cut(buf, end, true)))
    }

    /// The read error that ended the input, once its last segment has
    /// been given.
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// The segment owning `buf[own_start..own_end]`; keep what the next
    /// one needs.
    fn cut(&mut self, buf: Vec<u8>, own_end: usize, eof: bool) -> Segment {
        let own = self.own_start..own_end;
        let base = self.carry_base;
        if !eof {
            let keep = own_end.saturating_sub(self.lookback);
            self.carry.clear();
            self.carry.extend_from_slice(&buf[keep..]);
            self.carry_base = base + keep as u64;
            self.own_start = own_end - keep;
        }
        self.eof = eof;
        Segment { buf, base, own, eof }
    }

    /// Read line by line (see `next_lines`).
    pub fn line_buffered(mut self, yes: bool) -> Self {
        self.line_buffered = yes;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_example() {
        let mut r = Roll::new(&b"abcdefghijklmnopqrst"[..], 2, 3);
        let s1 = r.next_segment(8, Vec::new()).unwrap().unwrap();
        assert_eq!(&s1.buf, b"abcdefghijk");
        assert_eq!(s1.own, 0..8);
        assert!(!s1.eof);
        let s2 = r.next_segment(100, Vec::new()).unwrap().unwrap();
        assert_eq!(&s2.buf, b"ghijklmnopqrst");
        assert_eq!(s2.base, 6);
        assert_eq!(s2.own, 2..14);
        assert!(s2.eof);
        assert!(r.next_segment(8, Vec::new()).unwrap().is_none());
    }

    /// Gives `data`, then fails.
    struct FailsAfter<'a>(&'a [u8]);

    impl Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("damaged"));
            }
            self.0.read(buf)
        }
    }

    #[test]
    fn bytes_before_an_error_make_the_last_segment() {
        for line_buffered in [false, true] {
            let mut r = Roll::new(FailsAfter(b"abcdefghij"), 2, 3)
                .line_buffered(line_buffered);
            let mut owned = Vec::new();
            let mut last = None;
            while let Some(s) = r.next_segment(4, Vec::new()).unwrap() {
                owned.extend_from_slice(&s.buf[s.own.clone()]);
                last = Some(s.eof);
            }
            assert_eq!(owned, b"abcdefghij", "{line_buffered}");
            assert_eq!(last, Some(true));
            assert_eq!(r.take_error().unwrap().to_string(), "damaged");
        }
        // Nothing read: the error comes at once.
        let mut r = Roll::new(FailsAfter(b""), 2, 3);
        assert!(r.next_segment(4, Vec::new()).is_err());
    }

    #[test]
    fn every_byte_owned_once() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        for size in [1, 2, 7, 64, 999, 1000, 5000] {
            let mut r = Roll::new(&data[..], 5, 9);
            let mut next = 0u64;
            while let Some(s) = r.next_segment(size, Vec::new()).unwrap() {
                assert_eq!(s.base + s.own.start as u64, next);
                // Context is the input's own bytes.
                let at = s.base as usize;
                assert_eq!(&s.buf[..], &data[at..at + s.buf.len()]);
                next = s.base + s.own.end as u64;
            }
            assert_eq!(next, 1000, "size {size}");
        }
    }
}

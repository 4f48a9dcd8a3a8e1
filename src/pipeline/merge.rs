//! The ordered merge: walks a scanned batch in input order, carries the
//! scanner's resume offset from chunk to chunk (rescanning where a URL
//! crossed into a chunk), numbers lines, and hands hits, errors and
//! input ends to the sink.

use std::io;
use std::ops::Range;
use std::sync::Arc;

use super::pool::Pool;
use super::scanned::{Found, Scanned, ScannedBatch};
use super::sink::{InputInfo, Sink, Summary};
use crate::delimit::{LOOKBACK, after_run_resumed};
use crate::feed::{Feeder, Item};
use crate::finder::Finder;
use crate::hit::Hit;
use crate::scan::{evaluate_any, next_trigger};
use crate::stream::Segment;

/// What merging needs of the extractor.
pub(super) struct Merger<'e> {
    pub(super) finder: &'e Finder,
    pub(super) pool: &'e Pool,
    pub(super) line_numbers: bool,
}

/// What the merge carries from batch to batch.
#[derive(Default)]
pub(super) struct MergeState {
    carry: Carry,
    pub(super) summary: Summary,
    /// The input whose segments are being merged, until it ends.
    active: Option<usize>,
    /// The last input that ended (parts of it read after its end, past
    /// a NUL byte or a shrunk file's end, are dropped).
    ended: Option<usize>,
    /// The hits of the messages given to the sink since the last
    /// [`MergeState::take_spent`]: freed by whoever takes them.
    spent: Vec<Vec<Hit>>,
}

impl MergeState {
    /// The first segment or message of an input.
    pub(super) fn start(&mut self, input: usize) {
        self.carry = Carry::default();
        self.active = Some(input);
        self.summary.inputs += 1;
    }

    /// Give the warnings and hits of decoded messages to the sink;
    /// `Ok(false)` when it asked to stop.
    fn give_messages(
        &mut self,
        info: &InputInfo,
        out: Found,
        sink: &mut dyn Sink,
    ) -> io::Result<bool> {
        self.summary.messages += out.messages;
        self.summary.bytes += out.bytes;
        self.summary.notes += out.warnings.len() as u64;
        for (number, text) in &out.warnings {
            sink.warning(info, *number, text)?;
        }
        let hits = out.hits;
        for hit in &hits {
            if !self.give(info, hit, sink)? {
                return Ok(false);
            }
        }
        self.spent.push(hits);
        Ok(true)
    }

    /// The hits of the messages merged since the last call, given to the
    /// sink already. A search on several threads has a thread of the pool
    /// free those of batches scanned two at a time (the pool's threads
    /// made them; to the merging thread each is memory in another core's
    /// cache).
    pub(super) fn take_spent(&mut self) -> Vec<Vec<Hit>> {
        std::mem::take(&mut self.spent)
    }

    /// Give a hit to the sink; `Ok(false)` when the sink asked to stop.
    fn give(
        &mut self,
        info: &InputInfo,
        hit: &Hit,
        sink: &mut dyn Sink,
    ) -> io::Result<bool> {
        self.carry.hits += 1;
        self.summary.hits += 1;
        let go = sink.hit(info, hit)?;
        self.summary.stopped |= !go;
        Ok(go)
    }
}

/// Per-input state carried through the merge.
#[derive(Default)]
pub(super) struct Carry {
    /// Absolute offset where scanning resumes.
    resume: u64,
    /// Whether scanning resumes inside the run of a candidate dropped as
    /// too long, which went on past the end of the last buffer: the rest
    /// of the run is skipped first ([`crate::delimit::after_run_resumed`]).
    in_long_run: bool,
    /// Where the skip over that run started (absolute): hyphen breaks
    /// before it are no part of the run.
    run_from: u64,
    /// Line tracking: newlines before `cursor`, last newline before it,
    /// last newline before the current buffer.
    cursor: u64,
    newlines: u64,
    last_nl: Option<u64>,
    nl_before_buf: Option<u64>,
    hits: u64,
}

impl Merger<'_> {
    /// Merge a scanned batch in order and hand its hits to the sink;
    /// `Ok(false)` when the sink asked to stop.
    pub(super) fn merge_batch(
        &self,
        scanned: ScannedBatch,
        feeder: &mut Feeder<'_>,
        st: &mut MergeState,
        sink: &mut dyn Sink,
    ) -> io::Result<bool> {
        let mut results = scanned.results.into_iter();
        let mut jobs = scanned.jobs.into_iter().peekable();
        for (i, item) in scanned.batch.into_iter().enumerate() {
            // The results of this item's jobs (one, but for a segment
            // scanned in chunks).
            let mut outs = std::iter::from_fn(|| {
                let (_, range) = jobs.next_if(|(j, _)| *j == i)?;
                Some((range, results.next().unwrap_or_default()))
            });
            let input = match item {
                Item::Error { input, .. }
                | Item::Data { input, .. }
                | Item::Message { input, .. }
                | Item::End { input }
                | Item::Part { input, .. }
                | Item::Small { input, .. }
                | Item::SmallPath { input, .. } => input,
            };
            // A whole small file is the only item of its input.
            let whole =
                matches!(item, Item::Small { .. } | Item::SmallPath { .. });
            // `input` numbers the inputs as opened (an archive's members
            // each their own); `index` is the position given to search.
            let (index, name) = feeder.name(input, whole);
            let info = InputInfo { index, name };
            let go = match item {
                Item::Error { error, .. } => {
                    self.merge_error(input, &info, &error, st, sink)?;
                    true
                }
                Item::Data { seg, first, binary_at, .. } => {
                    let parts = outs.by_ref().map(|(r, o)| {
                        (r.unwrap_or_default(), o.scanned, o.urls)
                    });
                    let go = self.merge_segment(
                        input, &info, &seg, first, binary_at, parts, st, sink,
                    )?;
                    feeder.recycle(seg.buf);
                    go
                }
                Item::Part { part, .. } => {
                    let Some((_, out)) = outs.next() else { continue };
                    if st.ended == Some(input) {
                        // After a NUL byte or the end of a shrunk file.
                        if let Some(Ok((seg, _))) = out.seg {
                            feeder.recycle(seg.buf);
                        }
                        continue;
                    }
                    match out.seg {
                        Some(Ok((seg, binary_at))) => {
                            let parts = std::iter::once((
                                seg.own.clone(),
                                out.scanned,
                                out.urls,
                            ));
                            let go = self.merge_segment(
                                input, &info, &seg, part.first, binary_at,
                                parts, st, sink,
                            )?;
                            feeder.recycle(seg.buf);
                            if let Some(error) = out.error {
                                self.merge_error(
                                    input, &info, &error, st, sink,
                                )?;
                                st.ended = Some(input);
                            }
                            go
                        }
                        Some(Err(error)) => {
                            self.merge_error(input, &info, &error, st, sink)?;
                            st.ended = Some(input);
                            true
                        }
                        None => true,
                    }
                }
                Item::Message { first, .. } => {
                    if first {
                        st.start(input);
                    }
                    let mut go = true;
                    for (_, out) in outs.by_ref() {
                        go = go && st.give_messages(&info, out, sink)?;
                    }
                    go
                }
                Item::Small { .. } | Item::SmallPath { .. } => {
                    let Some((_, mut out)) = outs.next() else { continue };
                    match out.seg {
                        Some(Ok((seg, binary_at))) => {
                            let parts = std::iter::once((
                                seg.own.clone(),
                                out.scanned,
                                out.urls,
                            ));
                            let go = self.merge_segment(
                                input, &info, &seg, true, binary_at, parts,
                                st, sink,
                            )?;
                            self.pool.put_file(seg.buf);
                            if let Some(error) = out.error {
                                self.merge_error(
                                    input, &info, &error, st, sink,
                                )?;
                            }
                            go
                        }
                        Some(Err(error)) => {
                            self.merge_error(input, &info, &error, st, sink)?;
                            true
                        }
                        None => {
                            st.start(input);
                            let error = out.error.take();
                            let go = st.give_messages(&info, out, sink)?;
                            if go {
                                sink.end(&info, st.carry.hits)?;
                                st.active = None;
                            }
                            if let Some(error) = error {
                                self.merge_error(
                                    input, &info, &error, st, sink,
                                )?;
                            }
                            go
                        }
                    }
                }
                Item::End { .. } => {
                    if st.active == Some(input) {
                        sink.end(&info, st.carry.hits)?;
                        st.active = None;
                    }
                    true
                }
            };
            outs.for_each(drop); // keep `jobs` and `results` in step
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// An input failed: end it if it had begun, and report the error.
    fn merge_error(
        &self,
        id: usize,
        info: &InputInfo,
        error: &io::Error,
        st: &mut MergeState,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        st.summary.errors += 1;
        if st.active == Some(id) {
            sink.end(info, st.carry.hits)?;
            st.active = None;
        }
        sink.error(info, error)
    }

    /// Merge the speculative results of a text segment's chunks, in
    /// order; `Ok(false)` when the sink asked to stop.
    #[allow(clippy::too_many_arguments)]
    fn merge_segment(
        &self,
        id: usize,
        info: &InputInfo,
        seg: &Segment,
        first: bool,
        binary_at: Option<usize>,
        parts: impl Iterator<Item = (Range<usize>, Vec<Scanned>, String)>,
        st: &mut MergeState,
        sink: &mut dyn Sink,
    ) -> io::Result<bool> {
        let line_numbers = self.line_numbers;
        if first {
            st.start(id);
        }
        st.summary.bytes += seg.own.len() as u64;
        for (range, spec, mut urls) in parts {
            let mut keep =
                self.merge(seg, range, spec, &mut urls, &mut st.carry);
            // The chunk's URLs (those of its scan's hits, then those of
            // hits the merge found again), lent to each hit in turn while
            // the sink sees it: moved in and back, no count changed per
            // hit.
            let mut urls = Some(Arc::new(urls));
            // One hit, each of the chunk's written over it in turn (line
            // and column are set for each when asked for, 0 otherwise).
            let mut hit = Hit::of_text();
            for s in keep.drain(..) {
                let start = s.start;
                if !s.place(seg, &mut hit) {
                    continue;
                }
                debug_assert!(urls.is_some(), "the buffer was given back");
                hit.url.lend(&mut urls);
                if line_numbers {
                    position(seg, start, &mut st.carry, &mut hit);
                }
                let go = st.give(info, &hit, sink)?;
                hit.url.give_back(&mut urls);
                if !go {
                    return Ok(false);
                }
            }
            // The chunk's buffers go back to the pool for the next chunk
            // (freeing them would make the allocator hand the pages back
            // to the kernel and fault them in again, chunk after chunk);
            // the URLs unless a sink kept a hit.
            let urls = urls.and_then(|u| Arc::try_unwrap(u).ok());
            self.pool.put(keep, urls);
        }
        if line_numbers && !seg.eof {
            end_segment(seg, &mut st.carry);
        }
        if let Some(at) = binary_at {
            let skipped = seg.own.is_empty() && first;
            let offset = seg.base + at as u64;
            let format = match seg.base {
                0 if skipped => {
                    crate::decompress::Compression::sniff(&seg.buf)
                }
                _ => crate::decompress::Compression::None,
            };
            if format == crate::decompress::Compression::None {
                sink.binary(info, offset, skipped)?;
            } else {
                sink.binary_compressed(info, offset, format)?;
            }
        }
        if seg.eof {
            sink.end(info, st.carry.hits)?;
            st.active = None;
            st.ended = Some(id);
        }
        Ok(true)
    }

    /// Merge one chunk's speculative results given the carried state;
    /// returns the accepted hits with their buffer offsets.
    fn merge(
        &self,
        seg: &Segment,
        range: Range<usize>,
        spec: Vec<Scanned>,
        urls: &mut String,
        carry: &mut Carry,
    ) -> Vec<Scanned> {
        let base = seg.base;
        let from = base + range.start as u64;
        // Encoded URLs take no part in the shadowing: set apart, then put
        // back among the others in the order of their triggers.
        let (independent, spec): (Vec<Scanned>, Vec<Scanned>) =
            if self.finder.rules.encoded && spec.iter().any(|s| s.independent)
            {
                spec.into_iter().partition(|s| s.independent)
            } else {
                (Vec::new(), spec)
            };
        let mut accepted: Vec<Scanned> = Vec::new();
        // Whether scanning resumes before this chunk (see below).
        let mut behind = false;
        if carry.in_long_run {
            // The rest of a dropped candidate's run, which went on past
            // the last buffer (it may end before where that buffer ended,
            // at a hyphen break that turns out not to join). Where this
            // chunk's scan skipped a run past that place, the run ends
            // where that scan found (from any place a run passes, it
            // ends at the same place): not skipped twice.
            let p0 = (carry.resume - base) as usize;
            let passed = spec
                .iter()
                .take_while(|s| s.trigger < p0)
                .filter(|s| !s.independent)
                .find(|s| s.too_long && s.end < p0 && p0 < s.resume);
            let p = match passed {
                Some(s) => s.resume,
                None => {
                    let floor = carry.run_from.saturating_sub(base) as usize;
                    after_run_resumed(&seg.buf, p0, floor)
                }
            };
            carry.resume = base + p as u64;
            carry.in_long_run = false;
            // Only where the last buffer had next to no lookahead (a
            // line-buffered stream hands over what it has read) can that
            // break lie before this chunk: its triggers after the break
            // are scanned here.
            behind = carry.resume < from;
        }
        if carry.resume <= from && !behind {
            accepted = spec;
        } else {
            let mut p = (carry.resume - base) as usize;
            let mut spec = Some(spec);
            while p < range.end {
                let s = spec.as_deref().unwrap_or_default();
                let before = s.partition_point(|x| x.trigger < p);
                let free = p >= range.start
                    && (before == 0 || s[before - 1].resume <= p);
                if free {
                    // The results are in trigger order: those from `p` on
                    // are `rest[before..]`, kept in place (moved as one
                    // block, not one by one).
                    let mut rest = spec.take().unwrap_or_default();
                    rest.drain(..before);
                    if accepted.is_empty() {
                        accepted = rest;
                    } else {
                        accepted.append(&mut rest);
                    }
                    break;
                }
                let Some(t) =
                    next_trigger(&seg.buf, p, range.end, &self.finder.rules)
                else {
                    break;
                };
                match evaluate_any(&seg.buf, t, &self.finder.rules) {
                    Some(c) => {
                        p = c.resume;
                        accepted.push(Scanned::of(self.finder, seg, &c, urls));
                    }
                    None => p = t + 1,
                }
            }
            carry.resume = carry.resume.max(base + p as u64);
        }
        if let Some(last) = accepted.iter().map(|s| s.resume).max() {
            carry.resume = carry.resume.max(base + last as u64);
        }
        // Only a run skipped to the end of the buffer reaches it: any
        // other candidate ends within the lookahead.
        carry.in_long_run =
            !seg.eof && carry.resume >= base + seg.buf.len() as u64;
        if carry.in_long_run
            && let Some(from) = accepted
                .iter()
                .filter(|s| base + s.resume as u64 == carry.resume)
                .find(|s| s.too_long)
                .map(|s| s.end)
        {
            carry.run_from = base + from as u64;
        }
        if !independent.is_empty() {
            accepted.extend(independent);
            // Stable: the two lists are each in trigger order already.
            accepted.sort_by_key(|s| s.trigger);
        }
        accepted
    }
}

/// Set a hit's line and column from its buffer offset `start`.
fn position(seg: &Segment, start: usize, carry: &mut Carry, hit: &mut Hit) {
    let buf = &seg.buf;
    let abs = seg.base + start as u64;
    let line_nl;
    let last_nl;
    if abs >= carry.cursor {
        let from = (carry.cursor - seg.base) as usize;
        let part = &buf[from..start];
        carry.newlines += bytecount::count(part, b'\n') as u64;
        if let Some(p) = memchr::memrchr(b'\n', part) {
            carry.last_nl = Some(seg.base + (from + p) as u64);
        }
        carry.cursor = abs;
        line_nl = carry.newlines;
        last_nl = carry.last_nl;
    } else {
        let to = (carry.cursor - seg.base) as usize;
        line_nl =
            carry.newlines - bytecount::count(&buf[start..to], b'\n') as u64;
        last_nl = match memchr::memrchr(b'\n', &buf[..start]) {
            Some(p) => Some(seg.base + p as u64),
            None => carry.nl_before_buf,
        };
    }
    hit.line = line_nl + 1;
    hit.column = match last_nl {
        Some(p) => abs - p,
        None => abs + 1,
    };
}

/// At the end of a segment, move the line cursor to where the next
/// segment's buffer starts and remember the last newline before it.
fn end_segment(seg: &Segment, carry: &mut Carry) {
    let next_buf = seg.own.end.saturating_sub(LOOKBACK);
    let abs = seg.base + next_buf as u64;
    if abs > carry.cursor {
        let from = (carry.cursor - seg.base) as usize;
        let part = &seg.buf[from..next_buf];
        carry.newlines += bytecount::count(part, b'\n') as u64;
        if let Some(p) = memchr::memrchr(b'\n', part) {
            carry.last_nl = Some(seg.base + (from + p) as u64);
        }
        carry.cursor = abs;
    }
    carry.nl_before_buf = match memchr::memrchr(b'\n', &seg.buf[..next_buf]) {
        Some(p) => Some(seg.base + p as u64),
        None => carry.nl_before_buf,
    };
}

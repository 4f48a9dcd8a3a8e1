//! The pipeline: [`ExtractorBuilder`] -> [`Extractor`], which wires scan,
//! delimit, validate and resolve together over many inputs, in parallel
//! (the only `rayon` user), and hands hits to a [`Sink`] in input order.
//!
//! # How parallel scanning stays exact
//!
//! Inputs are read a batch at a time (see `stream`): whole small files,
//! or segments of a large one cut into chunks. Each chunk is scanned on
//! its own, *speculatively*, as if no URL crossed into it from the chunk
//! before, and its candidates are validated and resolved in the same
//! parallel step. A sequential merge then walks the chunks in order,
//! carrying the one piece of scanner state, the offset where scanning
//! resumes after the last accepted URL. When a URL from the previous
//! chunk ends inside this one, the merge rescans from that offset until
//! it reaches a point where the speculative scan was in the same state
//! (between candidates), and keeps the speculative results from there.
//! The output is therefore the same for every chunk size and thread
//! count, which the tests check down to 1-byte chunks.

mod builder;
mod merge;
mod pool;
mod scanned;
mod sink;

pub use builder::{
    BuildError, DEFAULT_MAX_URL_LEN, ExtractorBuilder, MAX_URL_LEN_LIMIT,
};
pub use sink::{InputInfo, Sink, Summary};

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use builder::{BATCH_HITS, next_batch_size, next_chunk_size};
use merge::{MergeState, Merger};
use pool::Pool;
use scanned::{Found, Scanned, ScannedBatch};

use crate::delimit;
use crate::feed::{
    FeedConfig, Feeder, FilePart, Input, Item, PartRead, cut_at, cut_at_nul,
    read_small,
};
use crate::finder::Finder;
use crate::format::{self, Reading};
use crate::hit::Hit;
use crate::mail;
use crate::mail::mbox::Message;
use crate::scan::{self, ScanRules, scan};
use crate::stream::Segment;
use crate::validate::Uri;

impl ExtractorBuilder {
    /// Build the extractor; fails on a base that is not a valid absolute
    /// URI.
    pub fn build(&self) -> Result<Extractor, BuildError> {
        if let Some(ref b) = self.base {
            let uri = Uri::parse(b);
            if !uri.is_absolute() {
                return Err(BuildError {
                    message: format!(
                        "base URI {:?} is not absolute",
                        crate::sanitize::excerpt(b)
                    ),
                });
            }
            if let Some(e) = uri.errors().first() {
                return Err(BuildError {
                    message: format!(
                        "base URI {:?} is invalid: {e}",
                        crate::sanitize::excerpt(b)
                    ),
                });
            }
        }
        let rules = ScanRules {
            delimit: delimit::Rules {
                max_len: self.max_url_len,
                opaque: self.schemes.clone(),
                refang: self.refang,
            },
            abbrev: self.abbrev,
            search: self.trigger_search,
            encoded: self.encoded,
        };
        let finder = Finder {
            rules,
            base: self.base.clone(),
            schemes: self.schemes.clone(),
            refang: self.refang,
        };
        let mut config = self.clone();
        // Messages count their line breaks only when asked, as the merge
        // of plain text does.
        config.mail.line_numbers = self.line_numbers;
        Ok(Extractor { config, finder, pool: Arc::default() })
    }
}

/// Finds, delimits, validates and resolves URLs. Cheap to share between
/// threads; build one with [`Extractor::builder`].
#[derive(Clone, Debug)]
pub struct Extractor {
    config: ExtractorBuilder,
    finder: Finder,
    pool: Arc<Pool>,
}

/// Hits in one scanned batch above which it is merged before the next
/// batch is scanned (see [`Extractor::search`]): four times the hits that
/// batch sizing aims at, so only a batch it could not cut (one message)
/// passes it.
const HEAVY_BATCH_HITS: usize = 4 * BATCH_HITS as usize;

/// Scanning threads of a search on several threads: as many batches can
/// be scanned at once.
const LANES: usize = 2;

/// A scanning thread's channels: batches to it, scanned batches back.
type Lane = (
    std::sync::mpsc::SyncSender<(Vec<Item>, usize)>,
    std::sync::mpsc::Receiver<ScannedBatch>,
);

/// How many batches may be scanned at once when `batch` is sent:
/// [`LANES`] for mail messages and small files named by path, of
/// `small` bytes in all; one otherwise, the batch scanned alone: text
/// (its chunks keep the threads busy to the batch's end), a batch
/// holding a long message (whose hits, one every few bytes at worst,
/// are never held with another batch's) and one of small files already
/// open (each holds its file open until merged: two such batches at
/// once are as many files open as the old limit allowed).
fn at_once(batch: &[Item], small: usize) -> usize {
    let mut bytes = 0usize;
    for item in batch {
        bytes = bytes.saturating_add(match item {
            Item::Message { msg, .. } => msg.raw.len(),
            Item::SmallPath { len, .. } => {
                usize::try_from(*len).unwrap_or(usize::MAX)
            }
            Item::Data { .. } | Item::Part { .. } | Item::Small { .. } => {
                return 1;
            }
            Item::Error { .. } | Item::End { .. } => 0,
        });
    }
    if bytes <= small { LANES } else { 1 }
}

impl Extractor {
    /// Whether a search's work all runs on the calling thread: when told
    /// so, or when its pool has one thread.
    fn one_thread(&self) -> bool {
        self.config.single_thread
            || self
                .config
                .thread_pool
                .as_ref()
                .map_or_else(rayon::current_num_threads, |p| {
                    p.current_num_threads()
                })
                <= 1
    }

    /// Whether the calling thread is a thread of the pool the search
    /// scans on (inside `par_iter`, `join` or `install`): the search
    /// then reads and merges on it, its batches scanned by that pool
    /// through rayon's own work stealing, with no scanning thread of its
    /// own (one would wait for that pool's threads, which may all be
    /// running searches that wait in turn). Without a pool of its own,
    /// any rayon pool's thread: which pool a thread belongs to cannot be
    /// asked, and its batches are then scanned on that pool.
    fn on_a_pool_thread(&self) -> bool {
        match self.config.thread_pool {
            Some(ref pool) => pool.current_thread_index().is_some(),
            None => rayon::current_thread_index().is_some(),
        }
    }

    /// Run `scan` on the search's pool: the one given to
    /// [`ExtractorBuilder::thread_pool`], or rayon's global pool.
    fn on_pool<T: Send>(&self, scan: impl FnOnce() -> T + Send) -> T {
        match self.config.thread_pool {
            Some(ref pool) => pool.install(scan),
            None => scan(),
        }
    }

    /// A builder with the defaults.
    pub fn builder() -> ExtractorBuilder {
        ExtractorBuilder::new()
    }

    /// All hits in `hay`, in order: valid or not, as the candidates the
    /// delimiting rules found (what the command-line tool prints is
    /// [`Hit::usable`] or [`Hit::absolute`]; keep `hit.is_valid()` for
    /// the valid ones). Read as the builder's [`ExtractorBuilder::format`]
    /// says: plain text unless told otherwise. [`Hit::line`] and
    /// [`Hit::column`] are 0 unless [`ExtractorBuilder::line_numbers`] was
    /// set; [`Hit::start`] is always the byte offset.
    pub fn find(&self, hay: &[u8]) -> Vec<Hit> {
        struct Collect(Vec<Hit>);
        impl Sink for Collect {
            fn hit(&mut self, _: &InputInfo, hit: &Hit) -> io::Result<bool> {
                self.0.push(hit.clone());
                Ok(true)
            }
            fn error(
                &mut self,
                _: &InputInfo,
                _: &io::Error,
            ) -> io::Result<()> {
                Ok(())
            }
        }
        let mut sink = Collect(Vec::new());
        let input = Input::new("", move || Ok(hay));
        // A Collect sink never fails.
        let _ = self.search(std::iter::once(input), &mut sink);
        sink.0
    }

    /// Scan one reader, streaming, calling `f` with each hit in order
    /// until it returns `false`. The hits are those of
    /// [`Extractor::find`]: valid or not, and with line and column 0
    /// unless [`ExtractorBuilder::line_numbers`] was set.
    pub fn find_in<R, F>(&self, reader: R, mut f: F) -> io::Result<Summary>
    where
        R: Read,
        F: FnMut(&Hit) -> bool,
    {
        struct Call<F>(F, Option<io::Error>);
        impl<F: FnMut(&Hit) -> bool> Sink for Call<F> {
            fn hit(&mut self, _: &InputInfo, hit: &Hit) -> io::Result<bool> {
                Ok((self.0)(hit))
            }
            fn error(
                &mut self,
                _: &InputInfo,
                e: &io::Error,
            ) -> io::Result<()> {
                self.1 = Some(io::Error::new(e.kind(), e.to_string()));
                Ok(())
            }
        }
        let mut sink = Call(&mut f, None);
        let mut reader = Some(reader);
        let input = Input::new("", move || {
            reader.take().ok_or_else(|| io::Error::other("reader reused"))
        });
        let summary = self.search(std::iter::once(input), &mut sink)?;
        match sink.1 {
            Some(e) => Err(e),
            None => Ok(summary),
        }
    }

    /// Scan many inputs in order, in parallel, in bounded memory, and
    /// give every hit to `sink` in input order. Errors on one input are
    /// reported to the sink and the search goes on; an error from the
    /// sink itself ends the search and is returned.
    pub fn search<'a, I>(
        &self,
        inputs: I,
        sink: &mut dyn Sink,
    ) -> io::Result<Summary>
    where
        I: IntoIterator<Item = Input<'a>>,
        I::IntoIter: 'a,
    {
        let cfg = &self.config;
        let mut feeder = Feeder::new(
            inputs,
            FeedConfig {
                lookahead: cfg.lookahead(),
                binary: cfg.binary,
                format: cfg.format,
                decompress: cfg.decompress,
                line_buffered: cfg.line_buffered,
                chunk: cfg.chunk_size,
                batch: cfg.batch_size,
                max_message: cfg.mail.max_message,
                line_numbers: cfg.line_numbers,
            },
        );
        let mut state = MergeState::default();
        if cfg.line_buffered || self.one_thread() || self.on_a_pool_thread() {
            // Read, scan, merge, one after the other (line-buffered: and
            // hand each piece over as soon as it is read). On one thread,
            // a batch of one chunk: one buffer, read and scanned while in
            // the core's cache, again and again. On a thread of the pool,
            // whole batches, whose chunks the pool shares out.
            let size = if self.one_thread() || cfg.line_buffered {
                cfg.batch_size.min(cfg.chunk_size)
            } else {
                cfg.batch_size
            };
            loop {
                let batch = feeder.batch(size, cfg.chunk_size);
                if batch.is_empty() {
                    break;
                }
                let scanned =
                    self.on_pool(|| self.scan_batch(batch, cfg.chunk_size));
                let go = self.merger().merge_batch(
                    scanned,
                    &mut feeder,
                    &mut state,
                    sink,
                )?;
                drop(state.take_spent());
                if !go {
                    break;
                }
                if cfg.line_buffered {
                    sink.flush()?;
                }
            }
            return Ok(state.summary);
        }
        // Several threads: while the pool scans one batch (two of short
        // messages), this thread merges and prints the previous one and
        // reads the next. Scanning threads for the whole search, fed
        // through channels (a thread a batch cost 64 thread starts per
        // 256 MiB). The hits given to the pool's threads to free (see
        // `overlapped`) are freed before the search returns: the rayon
        // scope waits for them.
        let search = |frees: &rayon::Scope<'_>| {
            std::thread::scope(|scope| {
                let mut lanes = Vec::new();
                let mut scanners = Vec::new();
                for _ in 0..LANES {
                    let (to_scan, jobs) =
                        std::sync::mpsc::sync_channel::<(Vec<Item>, usize)>(1);
                    let (to_merge, scanned) =
                        std::sync::mpsc::sync_channel::<ScannedBatch>(1);
                    scanners.push(scope.spawn(move || {
                        for (b, chunk) in jobs {
                            let scanned =
                                self.on_pool(|| self.scan_batch(b, chunk));
                            if to_merge.send(scanned).is_err() {
                                break;
                            }
                        }
                    }));
                    lanes.push((to_scan, scanned));
                }
                let result = self.overlapped(
                    &mut feeder,
                    &mut state,
                    sink,
                    &lanes,
                    frees,
                );
                // The channels closed: the scanning threads end.
                drop(lanes);
                // Joined here rather than by the thread scope: its end
                // waits for the closure to return, `join` for the thread
                // to exit, its thread-local destructors (the channel's
                // per-thread context) run. A caller that checks for leaks
                // as soon as the search returns (LeakSanitizer in the
                // fuzz targets) finds the search's own memory freed.
                for scanner in scanners {
                    if let Err(panic) = scanner.join() {
                        std::panic::resume_unwind(panic);
                    }
                }
                result
            })
        };
        match self.config.thread_pool {
            Some(ref pool) => pool.in_place_scope(search),
            None => rayon::in_place_scope(search),
        }
    }

    /// The loop of a search on several threads: send each batch to a
    /// scanning thread, merge the one before meanwhile, read the next.
    /// Batches of text are scanned one at a time; batches of short
    /// messages two at a time (each on a scanning thread of its own, their
    /// jobs sharing the pool), so that the pool's threads go from one to
    /// the next without waiting, at a batch's end, for its last message
    /// or for the next batch to be read and sent.
    fn overlapped(
        &self,
        feeder: &mut Feeder<'_>,
        state: &mut MergeState,
        sink: &mut dyn Sink,
        lanes: &[Lane],
        frees: &rayon::Scope<'_>,
    ) -> io::Result<Summary> {
        let cfg = &self.config;
        // The size for the next batch and for its chunks, the size
        // `batch` was read with, the batches being scanned (their lane,
        // size and whether alone), oldest first.
        let mut size = cfg.batch_size;
        let mut chunk = cfg.chunk_size;
        let mut batch = feeder.batch(size, chunk);
        let mut read_with = size;
        let mut scanning: std::collections::VecDeque<(usize, usize, bool)> =
            std::collections::VecDeque::new();
        let mut lane = 0;
        // The scanned batch to merge, its size and whether it was alone.
        let mut done: Option<(ScannedBatch, usize, bool)> = None;
        // Whether a batch's hits wait to be freed on the pool.
        let freeing = Arc::new(AtomicBool::new(false));
        let mut merge = |done: &mut Option<(ScannedBatch, usize, bool)>,
                         feeder: &mut Feeder<'_>,
                         (size, chunk): (&mut usize, &mut usize)|
         -> io::Result<bool> {
            let Some((d, with, alone)) = done.take() else { return Ok(true) };
            let before = state.summary.hits;
            let go = self.merger().merge_batch(d, feeder, state, sink)?;
            // The hits of a batch scanned with another (half a batch at
            // most) are freed on the pool, one batch's at a time: while
            // one batch's wait to be freed, the next batch's are freed
            // here. So the hits held are those of three such batches at
            // most, within the bound of one batch and one message
            // (DESIGN.md) while a batch is at most twice a message.
            let spent = state.take_spent();
            if !alone
                && !spent.is_empty()
                && cfg.batch_size <= 2 * cfg.mail.max_message
                && !freeing.swap(true, Ordering::AcqRel)
            {
                let freeing = Arc::clone(&freeing);
                frees.spawn(move |_| {
                    drop(spent);
                    freeing.store(false, Ordering::Release);
                });
            }
            if !go {
                return Ok(false);
            }
            let hits = state.summary.hits - before;
            *size = next_batch_size(cfg, with, hits);
            *chunk = next_chunk_size(cfg, with, hits);
            Ok(true)
        };
        loop {
            // A batch scanned with another (short messages, half a batch
            // at most) is merged before the next is sent: the hits held
            // are its own and its pair's. So is a batch with many hits
            // scanned alone (a message of dense URLs, which no batch size
            // can cut): the hits held are its own.
            if done.as_ref().is_some_and(|(d, _, alone)| {
                !alone || d.hits() > HEAVY_BATCH_HITS
            }) && !merge(&mut done, feeder, (&mut size, &mut chunk))?
            {
                break;
            }
            // A batch scanned alone is sent when nothing else is being
            // scanned, and nothing is sent while it is.
            while !batch.is_empty() {
                let room = at_once(&batch, cfg.batch_size / 2);
                if scanning.len() >= room
                    || scanning.iter().any(|&(_, _, alone)| alone)
                {
                    break;
                }
                let alone = room == 1;
                // Nothing else is being scanned: the first thread takes
                // it (the same thread for every batch of text).
                if alone {
                    lane = 0;
                }
                let Some((to_scan, _)) = lanes.get(lane) else { break };
                if to_scan.send((std::mem::take(&mut batch), chunk)).is_err() {
                    break; // a scanning thread panicked: the join says so
                }
                scanning.push_back((lane, read_with, alone));
                lane = (lane + 1) % lanes.len();
                // A batch scanned alone is merged while the next is
                // scanned.
                if !merge(&mut done, feeder, (&mut size, &mut chunk))? {
                    return Ok(std::mem::take(&mut state.summary));
                }
                read_with = size;
                batch = feeder.batch(size, chunk);
            }
            if !merge(&mut done, feeder, (&mut size, &mut chunk))? {
                break;
            }
            let Some((l, with, alone)) = scanning.pop_front() else { break };
            match lanes.get(l).map(|(_, scanned)| scanned.recv()) {
                Some(Ok(d)) => done = Some((d, with, alone)),
                _ => break, // it panicked: the join says so
            }
        }
        Ok(std::mem::take(&mut state.summary))
    }

    /// Scan every chunk of a batch (streamed input cut into `chunk`
    /// bytes each), every message and every file part, in parallel.
    fn scan_batch(&self, batch: Vec<Item>, chunk: usize) -> ScannedBatch {
        let mut jobs: Vec<(usize, Option<Range<usize>>)> =
            Vec::with_capacity(batch.len());
        for (i, item) in batch.iter().enumerate() {
            match item {
                Item::Data { seg, .. } => jobs.extend(
                    chunks(seg.own.clone(), chunk)
                        .into_iter()
                        .map(|r| (i, Some(r))),
                ),
                Item::Message { .. }
                | Item::Part { .. }
                | Item::Small { .. }
                | Item::SmallPath { .. } => jobs.push((i, None)),
                Item::Error { .. } | Item::End { .. } => {}
            }
        }
        let scan_job = |(i, range): &(usize, Option<Range<usize>>)| {
            match (&batch[*i], range) {
                (Item::Data { seg, .. }, Some(r)) => {
                    let (scanned, urls) = self.scan_chunk(seg, r.clone());
                    Found { scanned, urls, ..Found::default() }
                }
                (Item::Message { msg, .. }, _) => {
                    let mut out = Found::default();
                    self.message_job(msg, &mut out);
                    out
                }
                (Item::Part { part, .. }, _) => self.read_and_scan(part),
                (Item::Small { file, len, .. }, _) => {
                    self.small_file(file, *len)
                }
                (Item::SmallPath { path, len, .. }, _) => {
                    // Read as long as it was when listed: a file that
                    // grew since is read as that snapshot, in bounded
                    // memory; one that shrank, to its end. (No second
                    // stat: one syscall fewer a file, as in a Maildir.)
                    match File::open(path) {
                        Ok(file) => self.small_file(&file, *len),
                        Err(e) => {
                            Found { seg: Some(Err(e)), ..Found::default() }
                        }
                    }
                }
                _ => Found::default(),
            }
        };
        // One thread: the jobs run on this one, where the batch was read
        // and where it is merged (no hand-over to a pool thread and back).
        let results: Vec<Found> = if self.one_thread() {
            jobs.iter().map(scan_job).collect()
        } else {
            // Longest first: the jobs still running when the others are
            // done are short ones, so no thread waits long at the end of
            // the batch for one big message.
            let cost = |(i, range): &(usize, Option<Range<usize>>)| match (
                &batch[*i], range,
            ) {
                (_, Some(r)) => r.len(),
                (Item::Message { msg, .. }, _) => msg.raw.len(),
                (Item::Part { part, .. }, _) => {
                    (part.own.end - part.own.start) as usize
                }
                (Item::Small { len, .. }, _)
                | (Item::SmallPath { len, .. }, _) => *len as usize,
                _ => 0,
            };
            let mut order: Vec<usize> = (0..jobs.len()).collect();
            order.sort_by_key(|&k| std::cmp::Reverse(cost(&jobs[k])));
            let mut done: Vec<(usize, Found)> = order
                .par_iter()
                .with_max_len(1)
                .map(|&k| (k, scan_job(&jobs[k])))
                .collect();
            done.sort_unstable_by_key(|&(k, _)| k);
            done.into_iter().map(|(_, f)| f).collect()
        };
        // The merge needs a message's hits, not its bytes: let them go
        // while the next batch is scanned (the buffer they were read
        // into is read into again once no message holds it).
        let mut batch = batch;
        for item in &mut batch {
            if let Item::Message { msg, .. } = item {
                msg.raw = Default::default();
            }
        }
        ScannedBatch { batch, jobs, results }
    }

    /// Decode one message and add its hits and warnings to `out`.
    fn message_job(&self, msg: &Message, out: &mut Found) {
        out.messages += u64::from(!msg.continuation);
        out.bytes += msg.raw.len() as u64;
        let warnings = mail::message_hits(
            &self.finder,
            &self.config.mail,
            msg,
            &mut out.hits,
        );
        if !warnings.is_empty() && !msg.continuation {
            out.warnings.push((msg.number, warnings.join("; ")));
        }
    }

    /// Read a small regular file whole, decide its format and scan it,
    /// all in one job (so many small files, as in a Maildir, are opened
    /// by one thread but read and scanned by all).
    fn small_file(&self, file: &File, len: u64) -> Found {
        let mut buf = self.pool.take_file();
        let error = match read_small(file, len, &mut buf) {
            Ok(error) => error,
            Err(e) => {
                self.pool.put_file(buf);
                return Found { seg: Some(Err(e)), ..Found::default() };
            }
        };
        let format = format::decide(self.config.format, &buf);
        let Reading::Records(open) = format::reading(format) else {
            let own = 0..buf.len();
            let mut seg = Segment { buf, base: 0, own, eof: true };
            let binary_at = if self.config.binary {
                None
            } else {
                cut_at_nul(&mut seg, true)
            };
            let (scanned, urls) = self.scan_chunk(&seg, seg.own.clone());
            return Found {
                scanned,
                urls,
                seg: Some(Ok((seg, binary_at))),
                error,
                ..Found::default()
            };
        };
        let mut out = Found { error, ..Found::default() };
        let mut messages =
            open(Box::new(&buf[..]), self.config.mail.max_message);
        while let Ok(Some(msg)) = messages.next_message() {
            self.message_job(&msg, &mut out);
        }
        drop(messages);
        self.pool.put_file(buf);
        out
    }

    /// Read a part of a regular file and scan it, while it is in cache.
    fn read_and_scan(&self, part: &FilePart) -> Found {
        let lookahead = self.config.lookahead() as u64;
        let binary = self.config.binary;
        // The binary check in the scan's own pass, where the scan can.
        let by_scan = !binary && scan::scans_before_nul(&self.finder.rules);
        match part.read(lookahead, binary || by_scan) {
            Ok(PartRead { mut seg, mut binary_at, error }) => {
                let (scanned, urls) = if seg.own.is_empty() {
                    (Vec::new(), String::new())
                } else if by_scan {
                    let (mut scanned, mut urls, nul) =
                        self.scan_chunk_by(&seg, seg.own.clone(), true);
                    if let Some(at) = nul {
                        binary_at = Some(cut_at(&mut seg, at, part.first));
                        part.stop_here();
                        if seg.own.is_empty() {
                            // In the binary probe: the input is skipped.
                            scanned.clear();
                            urls.clear();
                        }
                    }
                    (scanned, urls)
                } else {
                    self.scan_chunk(&seg, seg.own.clone())
                };
                Found {
                    scanned,
                    urls,
                    seg: Some(Ok((seg, binary_at))),
                    error,
                    ..Found::default()
                }
            }
            Err(e) => Found { seg: Some(Err(e)), ..Found::default() },
        }
    }

    /// What merging needs of the extractor.
    fn merger(&self) -> Merger<'_> {
        Merger {
            finder: &self.finder,
            pool: &self.pool,
            line_numbers: self.config.line_numbers,
        }
    }

    /// Scan one chunk speculatively and validate what it finds: its
    /// results, and the buffer their hits' URLs are ranges of (pending:
    /// one allocation for the chunk instead of one per hit; the merge
    /// lends it to each hit in turn).
    fn scan_chunk(
        &self,
        seg: &Segment,
        range: Range<usize>,
    ) -> (Vec<Scanned>, String) {
        let (out, arena, _) = self.scan_chunk_by(seg, range, false);
        (out, arena)
    }

    /// [`Extractor::scan_chunk`], up to the range's first NUL byte if
    /// `before_nul` (by `scan::scan_before_nul`, which the caller has
    /// checked applies), and the NUL's offset.
    fn scan_chunk_by(
        &self,
        seg: &Segment,
        range: Range<usize>,
        before_nul: bool,
    ) -> (Vec<Scanned>, String, Option<usize>) {
        let (mut out, mut arena) = self.pool.take();
        let each = |c: crate::hit::Candidate| {
            out.push(Scanned::of(&self.finder, seg, &c, &mut arena));
        };
        let (hay, rules) = (&seg.buf, &self.finder.rules);
        let nul = if before_nul {
            scan::scan_before_nul(hay, range.start, range.end, rules, each)
        } else {
            scan(hay, range.start, range.end, rules, each);
            None
        };
        (out, arena, nul)
    }
}

/// Cut `own` into chunks of about `size` bytes (at least one chunk, even
/// when empty, so every segment passes through the merge).
fn chunks(own: Range<usize>, size: usize) -> Vec<Range<usize>> {
    let mut v = Vec::new();
    let mut s = own.start;
    loop {
        let e = own.end.min(s.saturating_add(size));
        v.push(s..e);
        if e >= own.end {
            break;
        }
        s = e;
    }
    v
}

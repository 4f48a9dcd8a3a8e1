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

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use rayon::prelude::*;

use crate::abbrev;
use crate::data::registry::SchemeSet;
use crate::delimit;
use crate::delimit::{LOOKAHEAD_SLACK, LOOKBACK, after_run};
use crate::feed::{Feeder, FilePart, Item, Names, cut_at_nul, read_at};
use crate::hit::{Candidate, Context, Hit, Rare, UrlText};
use crate::mail::mbox::{Framing, Message, Messages};
use crate::mail::{self, InputFormat, MailConfig};
use crate::refang;
use crate::resolve::{normalize_dots, resolve};
use crate::scan::ScanRules;
use crate::scan::{TriggerSearch, evaluate_any, next_trigger, scan};
use crate::stream::Segment;
use crate::validate::schemes::{self, Severity};
use crate::validate::{ErrorKind, Quick, Uri, UriError, quick_check};

/// Default for [`ExtractorBuilder::max_url_len`]: 8192 bytes.
pub const DEFAULT_MAX_URL_LEN: usize = 8192;

/// The largest [`ExtractorBuilder::max_url_len`]: 16 MiB. Each segment
/// of input is read with that many bytes after it (a URL that starts in
/// it is seen whole), so the limit bounds memory too.
pub const MAX_URL_LEN_LIMIT: usize = 16 << 20;

pub(crate) const DEFAULT_CHUNK: usize = 512 << 10;
pub(crate) const DEFAULT_BATCH: usize = 4 << 20;

/// Hits a batch should hold at most. Two batches of hits are in memory
/// at once (one merged, one scanned), at about 100 to 400 bytes a hit
/// (more for a URL wrapped across lines); 4 MiB of URL lists hold up to
/// 100,000, which took peak RSS past 64 MiB, so batches of dense input
/// are made smaller.
const BATCH_HITS: u64 = 32 << 10;

/// The size of the next batch, from the hits found in one read with
/// `read_with` bytes: small enough to hold about [`BATCH_HITS`], never
/// below two chunks (both threads busy) nor above the configured size.
fn next_batch_size(
    cfg: &ExtractorBuilder,
    read_with: usize,
    hits: u64,
) -> usize {
    let max = cfg.batch_size;
    let min = (2 * cfg.chunk_size).min(max);
    if hits <= BATCH_HITS {
        return read_with.saturating_mul(2).clamp(min, max);
    }
    let scaled = read_with as u128 * u128::from(BATCH_HITS) / u128::from(hits);
    usize::try_from(scaled).unwrap_or(max).clamp(min, max)
}

/// An error in the extractor's configuration.
#[derive(Debug, Clone)]
pub struct BuildError {
    message: String,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BuildError {}

/// Configures an [`Extractor`].
#[derive(Clone, Debug)]
pub struct ExtractorBuilder {
    max_url_len: usize,
    base: Option<String>,
    schemes: Option<SchemeSet>,
    line_numbers: bool,
    chunk_size: usize,
    batch_size: usize,
    binary: bool,
    format: InputFormat,
    mail: MailConfig,
    line_buffered: bool,
    abbrev: abbrev::Opts,
    refang: bool,
    /// Fixed trigger search for profiling; `None` measures the searches
    /// and uses the fastest.
    trigger_search: Option<TriggerSearch>,
}

impl Default for ExtractorBuilder {
    fn default() -> Self {
        ExtractorBuilder::new()
    }
}

impl ExtractorBuilder {
    /// A builder with the defaults: 8192-byte URLs, no base, every
    /// scheme, no line numbers, binary inputs skipped.
    pub fn new() -> ExtractorBuilder {
        ExtractorBuilder {
            max_url_len: DEFAULT_MAX_URL_LEN,
            base: None,
            schemes: None,
            line_numbers: false,
            chunk_size: DEFAULT_CHUNK,
            batch_size: DEFAULT_BATCH,
            binary: false,
            format: InputFormat::Text,
            mail: MailConfig::default(),
            line_buffered: false,
            abbrev: abbrev::Opts::NONE,
            refang: false,
            trigger_search: None,
        }
    }

    /// Also find abbreviated URIs without a scheme (2396bis Appendix F):
    /// `www.example.com/path` read as `http://`, `ftp.example.org` as
    /// `ftp://`. The host must end in a public suffix. The hit's
    /// [`Hit::url`] is the text as written, [`Hit::resolved`] the
    /// absolute URI, and [`Hit::abbreviated`] says which kind it is.
    pub fn abbreviated(&mut self, yes: bool) -> &mut Self {
        self.abbrev.www = yes;
        self
    }

    /// Also find e-mail addresses without `mailto:`, read as `mailto:`
    /// URIs (see [`ExtractorBuilder::abbreviated`]). The local part may
    /// hold the letters of every script (UTS #58 Link_Email, RFC 6531):
    /// `αβγ.δεζ@example.com`.
    pub fn emails(&mut self, yes: bool) -> &mut Self {
        self.abbrev.emails = yes;
        self
    }

    /// Also find bare domain names as UTS #58 (Unicode Link Detection)
    /// detects links without a scheme: `example.com`,
    /// `example.com:443`, `example.com/αβγ?δ#ε`, `普遍适用测试。我爱你`,
    /// read as `http://`. The host must end in an ICANN public suffix
    /// of the bundled list; the path, query and fragment end as UTS #58
    /// ends them. An `@` before the host makes it an address's domain
    /// (found with [`ExtractorBuilder::emails`]). As with
    /// [`ExtractorBuilder::abbreviated`], [`Hit::url`] is the text as
    /// written, [`Hit::resolved`] the `http://` URI, and
    /// [`Hit::abbreviated`] is `"domain"` (or `"www"` and `"ftp"` for
    /// such hosts when abbreviated URIs are asked for too). The rules
    /// are those of [`crate::abbrev`].
    pub fn domains(&mut self, yes: bool) -> &mut Self {
        self.abbrev.domains = yes;
        self
    }

    /// Read defanged URLs (`hxxp://example[.]com`, see [`crate::refang`])
    /// as the URLs they stand for: the hit's [`Hit::url`] stays as
    /// written, [`Hit::resolved`] is the refanged URL, validated in its
    /// place, and [`Hit::refanged`] is true.
    pub fn refang(&mut self, yes: bool) -> &mut Self {
        self.refang = yes;
        self
    }

    /// For profiling only: fix how triggers are searched for (every
    /// colon, or one of the two scheme-ending searches), instead of
    /// measuring the three and using the fastest (`None`, the default). The hits are the
    /// same; under callgrind the measured choice follows the emulator's
    /// timings, so instruction counts only compare between builds with
    /// the search fixed.
    #[doc(hidden)]
    pub fn trigger_search(
        &mut self,
        search: Option<TriggerSearch>,
    ) -> &mut Self {
        self.trigger_search = search;
        self
    }

    /// The input format: [`InputFormat::Text`] by default;
    /// [`InputFormat::Auto`] decides per input from its first bytes, as
    /// the command-line tool does. Mail formats are parsed as MIME
    /// messages and every hit gets its [`Hit::provenance`].
    ///
    /// Text by default because a program calling the library knows what
    /// it holds (a log line, a page's text, a message body it decoded
    /// itself), and guessing could read such text as mail: a body that
    /// starts with `From ` and a date, or with `Subject: `.
    pub fn format(&mut self, format: InputFormat) -> &mut Self {
        self.format = format;
        self
    }

    /// Scan non-text MIME parts (attachments) too.
    pub fn attachments(&mut self, yes: bool) -> &mut Self {
        self.mail.attachments = yes;
        self
    }

    /// Candidates longer than this many bytes of input (including
    /// whitespace removed from wrapped URLs) are dropped, and scanning
    /// resumes after them. Taken between 8 and [`MAX_URL_LEN_LIMIT`].
    pub fn max_url_len(&mut self, n: usize) -> &mut Self {
        self.max_url_len = n.clamp(8, MAX_URL_LEN_LIMIT);
        self
    }

    /// The base URI that relative references (inside `<URL:...>`) are
    /// resolved against (RFC 3986 section 5.1.4: the default base).
    pub fn base(&mut self, base: Option<&str>) -> &mut Self {
        self.base = base.map(str::to_string);
        self
    }

    /// Report only URLs with one of these schemes (any case). Besides
    /// names, the list may hold the registry groups of
    /// [`data::registry::GROUPS`](crate::data::registry::GROUPS):
    /// `registered`, `permanent`, `provisional`, `historical` (schemes of
    /// the bundled IANA registry with that status). Every scheme in the
    /// set is also recognised without `//` in text (`tag:`, `spotify:`),
    /// which by default only [`OPAQUE_SCHEMES`](crate::OPAQUE_SCHEMES)
    /// are.
    pub fn schemes<I, S>(&mut self, schemes: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.schemes = Some(SchemeSet::new(schemes));
        self
    }

    /// Compute [`Hit::line`] and [`Hit::column`] (costs a newline count
    /// over the whole input).
    pub fn line_numbers(&mut self, yes: bool) -> &mut Self {
        self.line_numbers = yes;
        self
    }

    /// Line-buffered: hand each input's lines to the sink as soon as
    /// they are read (for live streams such as `tail -f`), at the cost of
    /// throughput; a URL wrapped across a line break can then be cut
    /// where a read ended. Regular files are read as usual.
    pub fn line_buffered(&mut self, yes: bool) -> &mut Self {
        self.line_buffered = yes;
        self
    }

    /// Scan inputs that contain NUL bytes. By default an input with a NUL
    /// byte in its first 64 KiB is skipped, and one with a NUL byte later
    /// is scanned up to it; [`Sink::binary`] is told either way.
    pub fn binary(&mut self, yes: bool) -> &mut Self {
        self.binary = yes;
        self
    }

    /// Bytes scanned by one parallel task (default 512 KiB). Results do
    /// not depend on it; tests set it as low as 1.
    pub fn chunk_size(&mut self, n: usize) -> &mut Self {
        self.chunk_size = n.max(1);
        self
    }

    /// Bytes held in memory per batch (default 4 MiB); with the lookahead
    /// of each segment this bounds the extractor's memory.
    pub fn batch_size(&mut self, n: usize) -> &mut Self {
        self.batch_size = n.max(1);
        self
    }

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
        };
        Ok(Extractor { config: self.clone(), rules, pool: Arc::default() })
    }
}

/// Finds, delimits, validates and resolves URLs. Cheap to share between
/// threads; build one with [`Extractor::builder`].
#[derive(Clone, Debug)]
pub struct Extractor {
    config: ExtractorBuilder,
    rules: ScanRules,
    pool: Arc<Pool>,
}

/// Buffers of chunks already merged, for the next chunks to scan into.
#[derive(Debug, Default)]
struct Pool {
    scanned: std::sync::Mutex<Pooled<Vec<Scanned>>>,
    arenas: std::sync::Mutex<Pooled<String>>,
    /// Buffers small files were read into. They are read into spare
    /// capacity (`read_to_end`), so a buffer comes back empty. The parts
    /// of large files are read with `pread` into initialized bytes and
    /// keep their length from part to part (no zeroing): their buffers
    /// go through the feeder (`FilePart::buf`, `Feeder::recycle`).
    files: std::sync::Mutex<Pooled<Vec<u8>>>,
}

/// Buffers of one kind waiting for reuse, and their capacity in bytes.
#[derive(Debug)]
struct Pooled<T> {
    free: Vec<T>,
    bytes: usize,
}

impl<T> Default for Pooled<T> {
    fn default() -> Self {
        Pooled { free: Vec::new(), bytes: 0 }
    }
}

/// The pool keeps buffers of each kind up to [`POOL_BYTES`] in all, and
/// at least [`POOL_COUNT`] whatever their size. Two batches can be in
/// flight, each with up to 512 small files (one buffer pair each) or up
/// to eight chunks of a large input. Without reuse, each small file's
/// buffers grew from empty (94,650 `realloc` calls on 20,000 files of
/// 4 KB); the chunks of dense input need a few MiB each.
const POOL_BYTES: usize = 4 << 20;

/// See [`POOL_BYTES`]: as many buffers as chunks can be in flight.
const POOL_COUNT: usize = 16;

impl<T> Pooled<T> {
    fn pop(&mut self, bytes: impl Fn(&T) -> usize) -> Option<T> {
        let t = self.free.pop()?;
        self.bytes -= bytes(&t);
        Some(t)
    }

    fn push(&mut self, t: T, bytes: usize) {
        if bytes > 0
            && (self.free.len() < POOL_COUNT
                || self.bytes + bytes <= POOL_BYTES)
        {
            self.bytes += bytes;
            self.free.push(t);
        }
    }
}

fn scanned_bytes(v: &Vec<Scanned>) -> usize {
    v.capacity() * std::mem::size_of::<Scanned>()
}

impl Pool {
    fn take(&self) -> (Vec<Scanned>, String) {
        let scanned = self
            .scanned
            .lock()
            .ok()
            .and_then(|mut p| p.pop(scanned_bytes))
            .unwrap_or_default();
        let arena = self
            .arenas
            .lock()
            .ok()
            .and_then(|mut p| p.pop(String::capacity))
            .unwrap_or_default();
        (scanned, arena)
    }

    /// An empty buffer to read a small file into.
    fn take_file(&self) -> Vec<u8> {
        let buf =
            self.files.lock().ok().and_then(|mut p| p.pop(Vec::capacity));
        buf.unwrap_or_default()
    }

    fn put_file(&self, mut buf: Vec<u8>) {
        buf.clear();
        if let Ok(mut p) = self.files.lock() {
            let bytes = buf.capacity();
            p.push(buf, bytes);
        }
    }

    fn put(&self, mut scanned: Vec<Scanned>, arena: Option<String>) {
        scanned.clear();
        if let Ok(mut p) = self.scanned.lock() {
            let bytes = scanned_bytes(&scanned);
            p.push(scanned, bytes);
        }
        if let Some(mut a) = arena
            && let Ok(mut p) = self.arenas.lock()
        {
            a.clear();
            let bytes = a.capacity();
            p.push(a, bytes);
        }
    }
}

/// One input to [`Extractor::search`]: a name and a way to open it.
///
/// Inputs are opened in order on the thread that calls `search`. A
/// reader is read there too; a regular file given with [`Input::file`] is
/// read by the threads that scan it.
pub struct Input<'a> {
    pub(crate) name: String,
    pub(crate) open: Open<'a>,
}

/// How an [`Input`] is opened.
pub(crate) enum Open<'a> {
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
            open: Open::Reader(Box::new(move || {
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
        Input { name: name.into(), open: Open::File(path.into(), None) }
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
        Input { name: name.into(), open: Open::File(path.into(), Some(len)) }
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

/// What the extractor tells a [`Sink`] about the input a hit came from.
#[derive(Clone, Debug)]
pub struct InputInfo {
    /// Position of the input in the sequence given to `search` (0-based).
    pub index: usize,
    /// The input's name.
    pub name: String,
}

/// Receives the results of [`Extractor::search`], in input order.
pub trait Sink {
    /// Everything given so far should reach its destination now (called
    /// after each piece of input in line-buffered mode).
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// A problem met decoding message number `message` of the input
    /// (best effort was made); given once per message, before its hits.
    fn warning(
        &mut self,
        _input: &InputInfo,
        _message: u64,
        _text: &str,
    ) -> io::Result<()> {
        Ok(())
    }

    /// A hit. Return `Ok(false)` to stop the search (as `head` would).
    fn hit(&mut self, input: &InputInfo, hit: &Hit) -> io::Result<bool>;

    /// The input ended; `hits` counts the hits given for it.
    fn end(&mut self, _input: &InputInfo, _hits: u64) -> io::Result<()> {
        Ok(())
    }

    /// The input could not be opened or read; the search goes on.
    fn error(
        &mut self,
        input: &InputInfo,
        error: &io::Error,
    ) -> io::Result<()>;

    /// The input has a NUL byte at `offset` and binary scanning is off:
    /// nothing from `offset` on was scanned, and nothing at all when
    /// `skipped` (the NUL byte is in the first 64 KiB).
    fn binary(
        &mut self,
        _input: &InputInfo,
        _offset: u64,
        _skipped: bool,
    ) -> io::Result<()> {
        Ok(())
    }

    /// [`Sink::binary`] for an input skipped as binary whose first bytes
    /// are those of a compressed format (`format`): one read without
    /// decompression, such as `cat x.gz | urlx`. By default the same as
    /// [`Sink::binary`].
    fn binary_compressed(
        &mut self,
        input: &InputInfo,
        offset: u64,
        format: crate::decompress::Compression,
    ) -> io::Result<()> {
        let _ = format;
        self.binary(input, offset, true)
    }
}

/// Totals of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Hits given to the sink.
    pub hits: u64,
    /// Inputs that failed to open or read.
    pub errors: u64,
    /// Inputs searched (in whole or in part).
    pub inputs: u64,
    /// Bytes searched: of plain text as read (decompressed), of mail the
    /// messages' bytes.
    pub bytes: u64,
    /// Mail messages and news articles searched.
    pub messages: u64,
    /// Warnings given for messages ([`Sink::warning`]): problems met
    /// decoding them, after which their text was read all the same.
    pub notes: u64,
    /// The sink asked to stop before the end.
    pub stopped: bool,
}

/// A scanned candidate, validated, with what the merge needs.
#[derive(Debug)]
struct Scanned {
    trigger: usize,
    resume: usize,
    start: usize,
    hit: Option<Hit>,
}

/// Hits in one scanned batch above which it is merged before the next
/// batch is scanned (see [`Extractor::search`]): four times the hits that
/// batch sizing aims at, so only a batch it could not cut (one message)
/// passes it.
const HEAVY_BATCH_HITS: usize = 4 * BATCH_HITS as usize;

/// A batch with the speculative results of each of its chunks.
struct ScannedBatch {
    batch: Vec<Item>,
    /// Item index, and the chunk for a text segment (`None`: a message).
    jobs: Vec<(usize, Option<Range<usize>>)>,
    results: Vec<JobOut>,
}

impl ScannedBatch {
    /// How many hits (or speculative candidates) it holds.
    fn hits(&self) -> usize {
        self.results.iter().map(|r| r.scanned.len() + r.hits.len()).sum()
    }
}

/// What one parallel job produced.
#[derive(Default)]
struct JobOut {
    scanned: Vec<Scanned>,
    /// For messages: their hits, in order.
    hits: Vec<Hit>,
    /// For messages: the problems met decoding each (by number).
    warnings: Vec<(u64, String)>,
    /// For a file part: the segment read, and where a NUL byte cut it.
    seg: Option<io::Result<(Segment, Option<usize>)>>,
    /// An error to report after the hits (a file that shrank while it
    /// was read).
    error: Option<io::Error>,
    /// For messages: how many (not counting the continuations of one
    /// too long to parse), and their bytes.
    messages: u64,
    bytes: u64,
}

/// What the merge carries from batch to batch.
#[derive(Default)]
struct MergeState {
    carry: Carry,
    summary: Summary,
    /// The input whose segments are being merged, until it ends.
    active: Option<usize>,
    /// The last input that ended (parts of it read after its end, past
    /// a NUL byte or a shrunk file's end, are dropped).
    ended: Option<usize>,
}

impl MergeState {
    /// The first segment or message of an input.
    fn start(&mut self, input: usize) {
        self.carry = Carry::default();
        self.active = Some(input);
        self.summary.inputs += 1;
    }

    /// Give the warnings and hits of decoded messages to the sink;
    /// `Ok(false)` when it asked to stop.
    fn give_messages(
        &mut self,
        info: &InputInfo,
        out: JobOut,
        sink: &mut dyn Sink,
    ) -> io::Result<bool> {
        self.summary.messages += out.messages;
        self.summary.bytes += out.bytes;
        self.summary.notes += out.warnings.len() as u64;
        for (number, text) in &out.warnings {
            sink.warning(info, *number, text)?;
        }
        for hit in out.hits {
            if !self.give(info, &hit, sink)? {
                return Ok(false);
            }
        }
        Ok(true)
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
struct Carry {
    /// Absolute offset where scanning resumes.
    resume: u64,
    /// Whether scanning resumes inside the run of a candidate dropped as
    /// too long, which went on past the end of the last buffer: the rest
    /// of the run is skipped first ([`crate::delimit::after_run`]).
    in_long_run: bool,
    /// Line tracking: newlines before `cursor`, last newline before it,
    /// last newline before the current buffer.
    cursor: u64,
    newlines: u64,
    last_nl: Option<u64>,
    nl_before_buf: Option<u64>,
    hits: u64,
}

impl Extractor {
    /// A builder with the defaults.
    pub fn builder() -> ExtractorBuilder {
        ExtractorBuilder::new()
    }

    /// The base URI given to the builder.
    pub(crate) fn base(&self) -> Option<&str> {
        self.config.base.as_deref()
    }

    /// Whether every hit starts at a `scheme:` colon: no abbreviated
    /// forms, addresses or defanged URLs are looked for.
    pub(crate) fn colon_triggers_only(&self) -> bool {
        !self.rules.abbrev.any() && !self.config.refang
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
        let mut feeder = Feeder {
            inputs: Box::new(inputs.into_iter().enumerate()),
            names: Names::default(),
            current: None,
            lookahead: cfg.max_url_len + LOOKAHEAD_SLACK,
            binary: cfg.binary,
            format: cfg.format,
            line_buffered: cfg.line_buffered,
            chunk: cfg.chunk_size,
            batch: cfg.batch_size,
            max_message: cfg.mail.max_message,
            pool: Vec::new(),
        };
        let mut state = MergeState::default();
        if cfg.line_buffered || rayon::current_num_threads() <= 1 {
            // Read, scan, merge, one after the other (line-buffered: and
            // hand each piece over as soon as it is read).
            loop {
                let batch = feeder.batch(cfg.batch_size);
                if batch.is_empty() {
                    break;
                }
                let scanned = self.scan_batch(batch);
                if !self.merge_batch(scanned, &mut feeder, &mut state, sink)? {
                    break;
                }
                if cfg.line_buffered {
                    sink.flush()?;
                }
            }
            return Ok(state.summary);
        }
        // Several threads: while the pool scans one batch, this thread
        // merges and prints the previous one and reads the next.
        // One scanning thread for the whole search, fed through channels
        // (a thread a batch cost 64 thread starts per 256 MiB).
        std::thread::scope(|scope| {
            let (to_scan, jobs) =
                std::sync::mpsc::sync_channel::<Vec<Item>>(1);
            let (to_merge, scanned) =
                std::sync::mpsc::sync_channel::<ScannedBatch>(1);
            let scanner = scope.spawn(move || {
                for b in jobs {
                    if to_merge.send(self.scan_batch(b)).is_err() {
                        break;
                    }
                }
            });
            let result = self.overlapped(
                &mut feeder,
                &mut state,
                sink,
                to_scan,
                scanned,
            );
            // Joined here rather than by the scope: a scope's end waits
            // for the closure to return, `join` for the thread to exit,
            // its thread-local destructors (the channel's per-thread
            // context) run. A caller that checks for leaks as soon as the
            // search returns (LeakSanitizer in the fuzz targets) sees
            // none.
            if let Err(panic) = scanner.join() {
                std::panic::resume_unwind(panic);
            }
            result
        })
    }

    /// The loop of a search on several threads: send each batch to the
    /// scanning thread, merge the one before meanwhile, read the next.
    /// Dropping the channel ends on return lets the scanning thread end.
    fn overlapped(
        &self,
        feeder: &mut Feeder<'_>,
        state: &mut MergeState,
        sink: &mut dyn Sink,
        to_scan: std::sync::mpsc::SyncSender<Vec<Item>>,
        scanned: std::sync::mpsc::Receiver<ScannedBatch>,
    ) -> io::Result<Summary> {
        let cfg = &self.config;
        // The size for the next batch, the size `batch` was read with,
        // and the scanned batch to merge with its own size.
        let mut size = cfg.batch_size;
        let mut batch = feeder.batch(size);
        let mut read_with = size;
        let mut done: Option<(ScannedBatch, usize)> = None;
        while !batch.is_empty() || done.is_some() {
            // A batch with many hits (a message of dense URLs, which no
            // batch size can cut) is merged before the next is scanned:
            // the hits of two such batches are never held at once.
            if let Some((d, with)) =
                done.take_if(|(d, _)| d.hits() > HEAVY_BATCH_HITS)
            {
                let before = state.summary.hits;
                if !self.merge_batch(d, feeder, state, sink)? {
                    return Ok(std::mem::take(&mut state.summary));
                }
                let hits = state.summary.hits - before;
                size = next_batch_size(cfg, with, hits);
            }
            let scanning = !batch.is_empty();
            if scanning && to_scan.send(std::mem::take(&mut batch)).is_err() {
                break; // the scanning thread panicked: the join says so
            }
            let sent_with = read_with;
            if let Some((d, with)) = done.take() {
                let before = state.summary.hits;
                if !self.merge_batch(d, feeder, state, sink)? {
                    return Ok(std::mem::take(&mut state.summary));
                }
                let hits = state.summary.hits - before;
                size = next_batch_size(cfg, with, hits);
            }
            if scanning {
                read_with = size;
                batch = feeder.batch(size);
                match scanned.recv() {
                    Ok(d) => done = Some((d, sent_with)),
                    Err(_) => break, // it panicked: the join says so
                }
            }
        }
        Ok(std::mem::take(&mut state.summary))
    }

    /// Scan every chunk of a batch, every message and every file part,
    /// in parallel.
    fn scan_batch(&self, batch: Vec<Item>) -> ScannedBatch {
        let mut jobs: Vec<(usize, Option<Range<usize>>)> =
            Vec::with_capacity(batch.len());
        for (i, item) in batch.iter().enumerate() {
            match item {
                Item::Data { seg, .. } => jobs.extend(
                    chunks(seg.own.clone(), self.config.chunk_size)
                        .into_iter()
                        .map(|r| (i, Some(r))),
                ),
                Item::Message { .. }
                | Item::Lazy { .. }
                | Item::Small { .. }
                | Item::SmallPath { .. } => jobs.push((i, None)),
                Item::Error { .. } | Item::End { .. } => {}
            }
        }
        let results: Vec<JobOut> = jobs
            .par_iter()
            .map(|(i, range)| match (&batch[*i], range) {
                (Item::Data { seg, .. }, Some(r)) => JobOut {
                    scanned: self.scan_chunk(seg, r.clone()),
                    ..JobOut::default()
                },
                (Item::Message { msg, .. }, _) => {
                    let mut out = JobOut::default();
                    self.message_job(msg, &mut out);
                    out
                }
                (Item::Lazy { part, .. }, _) => self.read_and_scan(part),
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
                            JobOut { seg: Some(Err(e)), ..JobOut::default() }
                        }
                    }
                }
                _ => JobOut::default(),
            })
            .collect();
        // The merge needs a message's hits, not its bytes: free them
        // while the next batch is scanned.
        let mut batch = batch;
        for item in &mut batch {
            if let Item::Message { msg, .. } = item {
                msg.raw = Vec::new();
            }
        }
        ScannedBatch { batch, jobs, results }
    }

    /// Decode one message and add its hits and warnings to `out`.
    fn message_job(&self, msg: &Message, out: &mut JobOut) {
        out.messages += u64::from(!msg.continuation);
        out.bytes += msg.raw.len() as u64;
        let warnings =
            mail::message_hits(self, &self.config.mail, msg, &mut out.hits);
        if !warnings.is_empty() && !msg.continuation {
            out.warnings.push((msg.number, warnings.join("; ")));
        }
    }

    /// Read a small regular file whole, decide its format and scan it,
    /// all in one job (so many small files, as in a Maildir, are opened
    /// by one thread but read and scanned by all).
    fn small_file(&self, file: &File, len: u64) -> JobOut {
        // Read into spare capacity: no zeroing first (a fifth of the work
        // on a tree of 4 KB files). The file is fresh from `open`, so
        // reading from its offset reads it from the start.
        let mut buf = self.pool.take_file();
        buf.reserve_exact(len as usize);
        if let Err(e) = io::Read::take(file, len).read_to_end(&mut buf) {
            self.pool.put_file(buf);
            return JobOut { seg: Some(Err(e)), ..JobOut::default() };
        }
        let error = crate::feed::shrank(file, len, buf.len() as u64);
        let format = match self.config.format {
            InputFormat::Auto => mail::detect(&buf[..buf.len().min(8 << 10)]),
            f => f,
        };
        let framing = match format {
            InputFormat::Mbox => Framing::Mbox,
            InputFormat::Eml | InputFormat::News | InputFormat::Maildir => {
                Framing::Single
            }
            _ => {
                let own = 0..buf.len();
                let mut seg = Segment { buf, base: 0, own, eof: true };
                let binary_at = if self.config.binary {
                    None
                } else {
                    cut_at_nul(&mut seg, true)
                };
                let scanned = self.scan_chunk(&seg, seg.own.clone());
                return JobOut {
                    scanned,
                    seg: Some(Ok((seg, binary_at))),
                    error,
                    ..JobOut::default()
                };
            }
        };
        let mut out = JobOut { error, ..JobOut::default() };
        let mut messages =
            Messages::new(&buf[..], framing, self.config.mail.max_message);
        while let Ok(Some(msg)) = messages.next_message() {
            self.message_job(&msg, &mut out);
        }
        drop(messages);
        self.pool.put_file(buf);
        out
    }

    /// Read a part of a regular file and scan it, while it is in cache.
    fn read_and_scan(&self, part: &FilePart) -> JobOut {
        let lookahead = (self.config.max_url_len + LOOKAHEAD_SLACK) as u64;
        let from = part.own.start.saturating_sub(LOOKBACK as u64);
        let to = (part.own.end + lookahead).min(part.len);
        if part.own.start >= part.stop.load(Ordering::Relaxed) {
            // An earlier part ended the file at a NUL byte.
            let seg =
                Segment { buf: Vec::new(), base: from, own: 0..0, eof: true };
            return JobOut { seg: Some(Ok((seg, None))), ..JobOut::default() };
        }
        let want = (to - from) as usize;
        let mut buf = part
            .buf
            .lock()
            .map(|mut b| std::mem::take(&mut *b))
            .unwrap_or_default();
        if buf.len() < want {
            buf.resize(want, 0);
        }
        let got = match read_at(&part.file, &mut buf[..want], from) {
            Ok(n) => n,
            Err(e) => {
                return JobOut { seg: Some(Err(e)), ..JobOut::default() };
            }
        };
        buf.truncate(got);
        // A file that shrank ends where its bytes end, with an error.
        // (Only when its own bytes are cut: the next part reports a cut
        // in this one's lookahead, after the bytes this one has.)
        let error = if got < (part.own.end - from) as usize {
            crate::feed::shrank(&part.file, part.len, from + got as u64)
        } else {
            None
        };
        let own_start = ((part.own.start - from) as usize).min(got);
        let own_end = ((part.own.end - from) as usize).min(got);
        let eof =
            part.own.end >= part.len || got < (part.own.end - from) as usize;
        let mut seg =
            Segment { buf, base: from, own: own_start..own_end, eof };
        let binary_at = if self.config.binary {
            None
        } else {
            cut_at_nul(&mut seg, part.first)
        };
        if binary_at.is_some() {
            part.stop.fetch_min(part.own.start, Ordering::Relaxed);
        }
        let scanned = self.scan_chunk(&seg, seg.own.clone());
        JobOut {
            scanned,
            seg: Some(Ok((seg, binary_at))),
            error,
            ..JobOut::default()
        }
    }

    /// Merge a scanned batch in order and hand its hits to the sink;
    /// `Ok(false)` when the sink asked to stop.
    fn merge_batch(
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
                | Item::Lazy { input, .. }
                | Item::Small { input, .. }
                | Item::SmallPath { input, .. } => input,
            };
            // A whole small file is the only item of its input.
            let whole =
                matches!(item, Item::Small { .. } | Item::SmallPath { .. });
            feeder.names.release_before(input);
            let info = InputInfo {
                index: input,
                name: feeder.names.get(input, whole),
            };
            let go = match item {
                Item::Error { error, .. } => {
                    self.merge_error(&info, &error, st, sink)?;
                    true
                }
                Item::Data { seg, first, binary_at, .. } => {
                    let parts = outs
                        .by_ref()
                        .map(|(r, o)| (r.unwrap_or_default(), o.scanned));
                    let go = self.merge_segment(
                        &info, &seg, first, binary_at, parts, st, sink,
                    )?;
                    feeder.recycle(seg.buf);
                    go
                }
                Item::Lazy { part, .. } => {
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
                            ));
                            let go = self.merge_segment(
                                &info, &seg, part.first, binary_at, parts, st,
                                sink,
                            )?;
                            feeder.recycle(seg.buf);
                            if let Some(error) = out.error {
                                self.merge_error(&info, &error, st, sink)?;
                                st.ended = Some(input);
                            }
                            go
                        }
                        Some(Err(error)) => {
                            self.merge_error(&info, &error, st, sink)?;
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
                            ));
                            let go = self.merge_segment(
                                &info, &seg, true, binary_at, parts, st, sink,
                            )?;
                            self.pool.put_file(seg.buf);
                            if let Some(error) = out.error {
                                self.merge_error(&info, &error, st, sink)?;
                            }
                            go
                        }
                        Some(Err(error)) => {
                            self.merge_error(&info, &error, st, sink)?;
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
                                self.merge_error(&info, &error, st, sink)?;
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
        info: &InputInfo,
        error: &io::Error,
        st: &mut MergeState,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        st.summary.errors += 1;
        if st.active == Some(info.index) {
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
        info: &InputInfo,
        seg: &Segment,
        first: bool,
        binary_at: Option<usize>,
        parts: impl Iterator<Item = (Range<usize>, Vec<Scanned>)>,
        st: &mut MergeState,
        sink: &mut dyn Sink,
    ) -> io::Result<bool> {
        let line_numbers = self.config.line_numbers;
        if first {
            st.start(info.index);
        }
        st.summary.bytes += seg.own.len() as u64;
        for (range, spec) in parts {
            let mut keep = self.merge(seg, range, spec, &mut st.carry);
            let mut arena = None;
            for s in keep.drain(..) {
                let Some(mut hit) = s.hit else { continue };
                if line_numbers {
                    position(seg, s.start, &mut st.carry, &mut hit);
                }
                if !st.give(info, &hit, sink)? {
                    return Ok(false);
                }
                arena = Some(hit.url);
            }
            // The chunk's buffers go back to the pool for the next chunk
            // (freeing them would make the allocator hand the pages back
            // to the kernel and fault them in again, chunk after chunk).
            self.pool.put(keep, arena.and_then(UrlText::into_buffer));
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
            st.ended = Some(info.index);
        }
        Ok(true)
    }

    /// Scan one chunk speculatively and validate what it finds.
    fn scan_chunk(&self, seg: &Segment, range: Range<usize>) -> Vec<Scanned> {
        // The URLs of the chunk's hits share one buffer (one allocation
        // for the chunk instead of one per hit).
        let (mut out, mut arena) = self.pool.take();
        let base = self.config.base.as_deref();
        scan(&seg.buf, range.start, range.end, &self.rules, |c| {
            let hit = if c.too_long {
                None
            } else {
                let text = c.text(&seg.buf);
                let url = UrlText::pending(arena.len(), text.len());
                let hit = self.candidate_hit(text, &c, base, url);
                if hit.is_some() {
                    arena.push_str(text);
                }
                hit.map(|h| placed(h, seg, &c))
            };
            out.push(Scanned {
                trigger: c.trigger,
                resume: c.resume,
                start: c.start,
                hit,
            });
        });
        let arena = Arc::new(arena);
        for hit in out.iter_mut().filter_map(|s| s.hit.as_mut()) {
            hit.url.attach(&arena);
        }
        out
    }

    /// Validate and resolve a candidate.
    fn finish(&self, seg: &Segment, c: Candidate) -> Scanned {
        let hit = if c.too_long { None } else { self.to_hit(seg, &c) };
        Scanned { trigger: c.trigger, resume: c.resume, start: c.start, hit }
    }

    fn to_hit(&self, seg: &Segment, c: &Candidate) -> Option<Hit> {
        let base = self.config.base.as_deref();
        let text = c.text(&seg.buf);
        let hit = self.candidate_hit(text, c, base, UrlText::new(text))?;
        Some(placed(hit, seg, c))
    }

    /// Validate `text` (RFC 3986) and resolve it against `base` (section
    /// 5), the URL's text kept in `url`; `None` when its scheme is
    /// filtered out. Positions are left 0.
    fn build_hit_with(
        &self,
        text: &str,
        base: Option<&str>,
        context: Context,
        url: UrlText,
    ) -> Option<Hit> {
        if let Some(q) = quick_check(text)
            && scheme_rules_hold(&text[..q.scheme_len], &q, text)
        {
            // The common case, valid by the fast path: no parse needed.
            if let Some(ref allowed) = self.config.schemes {
                let scheme = &text[..q.scheme_len];
                if !allowed.contains(scheme) {
                    return None;
                }
            }
            let dots = q.dots;
            debug_assert_eq!(dots, has_dot_segment(&text[q.path.0..q.path.1]));
            let rare = dots.then(|| {
                let resolved = Some(normalize_dots(&Uri::parse(text)));
                Box::new(Rare { resolved, ..Rare::default() })
            });
            return Some(Hit {
                start: 0,
                end: 0,
                line: 0,
                column: 0,
                context,
                resolved_is_url: !dots,
                printable: true,
                rare,
                provenance: None,
                url,
            });
        }
        let uri = Uri::parse(text);
        if let Some(ref allowed) = self.config.schemes {
            // A relative reference takes the scheme of the base.
            let base = base.map(Uri::parse);
            let scheme = uri
                .scheme()
                .or_else(|| base.as_ref().and_then(Uri::scheme))
                .unwrap_or_default();
            if !allowed.contains(scheme) {
                return None;
            }
        }
        let grammar = uri.errors();
        let (errors, resolved, resolved_is_url) = check(&uri, &grammar, base);
        // A URL invalid only for characters that browsers percent-encode
        // (RFC 3986 2.1) is kept in that encoded form, if it is valid
        // then.
        let encodable = grammar.iter().any(|e| {
            matches!(
                e.kind(),
                ErrorKind::InvalidCharacter | ErrorKind::BadPercentEncoding
            )
        });
        let repaired = encodable
            .then(|| crate::validate::percent_encode_disallowed(text))
            .flatten()
            .and_then(|fixed| {
                let uri = Uri::parse(&fixed);
                let (e, resolved, _) = check(&uri, &uri.errors(), base);
                e.is_empty().then_some((fixed, resolved))
            });
        let rare = match repaired {
            Some((fixed, resolved)) => Some(Box::new(Rare {
                errors,
                resolved: resolved.or_else(|| Some(fixed.clone())),
                repaired: Some(fixed),
                ..Rare::default()
            })),
            None => (!errors.is_empty() || resolved.is_some()).then(|| {
                Box::new(Rare { errors, resolved, ..Rare::default() })
            }),
        };
        Some(Hit {
            start: 0,
            end: 0,
            line: 0,
            column: 0,
            context,
            resolved_is_url,
            printable: false,
            rare,
            provenance: None,
            url,
        })
    }

    /// The hits in a whole buffer, scanned sequentially (for the texts
    /// of mail pieces), appended to `out`. `keep` sees each hit with its
    /// candidate first: it places the hit and says whether to keep it.
    /// The URL of each hit kept is appended to `urls` and the hit's URL
    /// is that range of it, pending: the caller gives the hits `urls`
    /// ([`UrlText::attach`]) when it is complete, so that the hits of a
    /// whole message share one buffer (a message of dense URLs holds its
    /// hits until they are merged).
    pub(crate) fn find_in_buffer(
        &self,
        text: &[u8],
        base: Option<&str>,
        urls: &mut String,
        out: &mut Vec<Hit>,
        mut keep: impl FnMut(&Candidate, &mut Hit) -> bool,
    ) {
        scan(text, 0, text.len(), &self.rules, |c| {
            if c.too_long {
                return;
            }
            let url = c.text(text);
            let pending = UrlText::pending(urls.len(), url.len());
            let Some(mut hit) = self.candidate_hit(url, &c, base, pending)
            else {
                return;
            };
            if keep(&c, &mut hit) {
                urls.push_str(url);
                out.push(hit);
            }
        });
    }

    /// The hit of URL `text` (an HTML attribute's value), validated and
    /// resolved against `base`, with the URL appended to `urls` and the
    /// hit's URL pending, as in [`Extractor::find_in_buffer`].
    pub(crate) fn build_hit_in(
        &self,
        text: &str,
        base: Option<&str>,
        context: Context,
        urls: &mut String,
    ) -> Option<Hit> {
        let pending = UrlText::pending(urls.len(), text.len());
        let hit = self.build_hit_with(text, base, context, pending)?;
        urls.push_str(text);
        Some(hit)
    }

    /// The hit of a delimited candidate whose URL is `text` (kept in
    /// `url`), with its hyphen-break variant; positions are left 0.
    fn candidate_hit(
        &self,
        text: &str,
        c: &Candidate,
        base: Option<&str>,
        url: UrlText,
    ) -> Option<Hit> {
        if let Some((kind, ref absolute)) = c.abbrev {
            return self.stand_in_hit(text, absolute, c.context, url, |r| {
                r.abbrev = Some(kind);
            });
        }
        if self.config.refang
            && let Some(refanged) = refang::refang(text)
        {
            return self.stand_in_hit(text, &refanged, c.context, url, |r| {
                r.refanged = true;
            });
        }
        let mut hit = self.build_hit_with(text, base, c.context, url)?;
        if let Some(ref alt) = c.alternative {
            hit.rare.get_or_insert_with(Box::default).alternative =
                Some(alt.clone());
        }
        Some(hit)
    }

    /// The hit of a URL written in another form (abbreviated, defanged):
    /// validated and resolved as `absolute`, with `written` (kept in
    /// `url`, which may be a pending range of a shared buffer) as written
    /// and `absolute` as its resolved form; `mark` records the form.
    fn stand_in_hit(
        &self,
        written: &str,
        absolute: &str,
        context: Context,
        url: UrlText,
        mark: impl FnOnce(&mut Rare),
    ) -> Option<Hit> {
        let printable = written.bytes().all(|b| b.is_ascii_graphic());
        // Built on the written text: validated as `absolute`, which is its
        // resolved form unless dot segments made another.
        let mut hit = self.build_hit_with(absolute, None, context, url)?;
        let same = hit.resolved_is_url;
        let rare = hit.rare.get_or_insert_with(Box::default);
        if same {
            rare.resolved = Some(absolute.to_string());
        }
        mark(rare);
        hit.printable &= printable;
        hit.resolved_is_url = false;
        Some(hit)
    }

    /// Merge one chunk's speculative results given the carried state;
    /// returns the accepted hits with their buffer offsets.
    fn merge(
        &self,
        seg: &Segment,
        range: Range<usize>,
        spec: Vec<Scanned>,
        carry: &mut Carry,
    ) -> Vec<Scanned> {
        let base = seg.base;
        let from = base + range.start as u64;
        let mut accepted: Vec<Scanned> = Vec::new();
        if carry.resume <= from {
            accepted = spec;
        } else {
            let mut p = (carry.resume - base) as usize;
            if carry.in_long_run {
                p = after_run(&seg.buf, p);
            }
            let mut spec = Some(spec);
            while p < range.end {
                let s = spec.as_deref().unwrap_or_default();
                let before = s.partition_point(|x| x.trigger < p);
                let free = before == 0 || s[before - 1].resume <= p;
                if free {
                    let rest = spec.take().unwrap_or_default();
                    accepted
                        .extend(rest.into_iter().filter(|x| x.trigger >= p));
                    break;
                }
                let Some(t) =
                    next_trigger(&seg.buf, p, range.end, &self.rules)
                else {
                    break;
                };
                match evaluate_any(&seg.buf, t, &self.rules) {
                    Some(c) => {
                        p = c.resume;
                        accepted.push(self.finish(seg, c));
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
        accepted
    }
}

/// The errors of a parsed URI (its `grammar` errors, RFC 3986, then its
/// scheme's own rules) and its resolved form: the URI without dot segments, or the
/// reference resolved against `base` (RFC 3986 5.2); the last is true
/// when the resolved form is the URI as written.
fn check(
    uri: &Uri,
    grammar: &[UriError],
    base: Option<&str>,
) -> (Vec<String>, Option<String>, bool) {
    let mut errors: Vec<String> =
        grammar.iter().map(|e| e.to_string()).collect();
    if uri.authority() == Some("")
        && uri.path().is_empty()
        && uri.query().is_none()
        && uri.fragment().is_none()
    {
        // `file://` in "file://<host>/<path>": a scheme and nothing.
        errors.push("nothing after the scheme and `//`".to_string());
    }
    if errors.is_empty() && uri.is_absolute() {
        // The scheme's own rules (RFC 1738 and the schemes' RFCs).
        errors.extend(
            schemes::check(uri)
                .into_iter()
                .filter(|f| f.severity == Severity::Error)
                .map(|f| format!("{}: {}", f.code, f.message)),
        );
    }
    let mut resolved = None;
    let mut resolved_is_url = false;
    if uri.is_absolute() {
        if !errors.is_empty() {
        } else if has_dot_segment(uri.path()) {
            resolved = Some(normalize_dots(uri));
        } else {
            resolved_is_url = true;
        }
    } else if let Some(b) = base {
        let base = Uri::parse(b);
        if errors.is_empty() {
            match resolve(&base, uri) {
                Ok(r) => resolved = Some(r),
                Err(e) => errors.push(e.to_string()),
            }
        }
    } else {
        errors.push("relative reference and no base URI".to_string());
    }
    (errors, resolved, resolved_is_url)
}

/// `hit` with the input offsets of candidate `c` of `seg`.
fn placed(mut hit: Hit, seg: &Segment, c: &Candidate) -> Hit {
    hit.start = seg.base + c.start as u64;
    hit.end = seg.base + c.end as u64;
    hit
}

/// Whether `text`, accepted by validation's fast path with scheme
/// `scheme`, also follows its scheme's own rules. http and https are
/// not checked: their only rules (a host, RFC 9110 4.2.1; userinfo is
/// deprecated, 4.2.4: a warning) hold for whatever the fast path takes.
fn scheme_rules_hold(scheme: &str, q: &Quick, text: &str) -> bool {
    if scheme.eq_ignore_ascii_case("http")
        || scheme.eq_ignore_ascii_case("https")
    {
        return true;
    }
    if scheme.eq_ignore_ascii_case("ftp")
        && let Some(ok) = schemes::ftp_quick(text, q.path.0)
    {
        return ok;
    }
    if scheme.eq_ignore_ascii_case("mailto")
        && let Some(ok) = schemes::mailto_quick(text)
    {
        return ok;
    }
    schemes::check(&Uri::parse(text))
        .iter()
        .all(|f| f.severity != Severity::Error)
}

/// Whether a path has a `.` or `..` segment (RFC 3986 5.2.4 would
/// change it).
fn has_dot_segment(path: &str) -> bool {
    let b = path.as_bytes();
    let bound = |i: usize| i == b.len() || b[i] == b'/';
    memchr::memchr_iter(b'.', b).any(|i| {
        (i == 0 || b[i - 1] == b'/')
            && (bound(i + 1) || (b[i + 1] == b'.' && bound(i + 2)))
    })
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

#[cfg(test)]
mod tests {
    use super::has_dot_segment;

    #[test]
    fn dot_segments() {
        for p in [".", "..", "/.", "/..", "/a/./b", "/a/../b", "a/..", "./a"] {
            assert!(has_dot_segment(p), "{p}");
        }
        for p in
            ["", "/", "/a.b", "/.a", "/a.", "/...", "/a/..b", "a..", "/.x/"]
        {
            assert!(!has_dot_segment(p), "{p}");
        }
    }
}

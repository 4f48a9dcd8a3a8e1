//! Configuration of an [`Extractor`](super::Extractor): the builder, its
//! defaults and limits, and the batch sizing they decide.

use std::fmt;

use crate::abbrev;
use crate::data::registry::SchemeSet;
use crate::decompress::Decompress;
use crate::mail::{InputFormat, MailConfig};
use crate::scan::TriggerSearch;

/// Default for [`ExtractorBuilder::max_url_len`]: 8192 bytes.
pub const DEFAULT_MAX_URL_LEN: usize = 8192;

/// The largest [`ExtractorBuilder::max_url_len`]: 16 MiB. Each segment
/// of input is read with that many bytes after it (a URL that starts in
/// it is seen whole), so the limit bounds memory too.
pub const MAX_URL_LEN_LIMIT: usize = 16 << 20;

pub(crate) const DEFAULT_CHUNK: usize = 512 << 10;
pub(crate) const DEFAULT_BATCH: usize = 4 << 20;

/// Hits a batch should hold at most. Two batches of hits are in memory
/// at once (one merged, one scanned; three for batches of short
/// messages, two of them scanned), at about 100 to 400 bytes a hit
/// (more for a URL wrapped across lines); 4 MiB of URL lists can hold
/// 100,000, so batches of dense input are made smaller.
pub(super) const BATCH_HITS: u64 = 32 << 10;

/// The size of the next batch, from the hits found in one read with
/// `read_with` bytes: small enough to hold about [`BATCH_HITS`], never
/// below two chunks (both threads busy) nor above the configured size.
pub(super) fn next_batch_size(
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

/// Hits per MiB above which a batch is cut into chunks smaller than the
/// configured size: between what prose holds and what lists of URLs
/// hold (the bench inputs' densities and the choice:
/// `benches/results/2026-11-26-dense-parts-db3d08b.md`).
const DENSE_HITS_PER_MIB: u128 = 2048;

/// The size of the parts of a batch read after one with `hits` hits in
/// `read_with` bytes was merged: the configured chunk size, or where URLs
/// are denser than [`DENSE_HITS_PER_MIB`], smaller in proportion, down to
/// a quarter of it, and never below eight times the bytes read past each
/// part ([`ExtractorBuilder::lookahead`]),
/// so that those bytes stay an eighth of a batch at most. A thread that
/// ends its last part of a batch waits for the others to end theirs; a
/// part of dense URLs takes far longer than one of logs, and a thread of
/// the pool also loses time to the merge of the batch before, so the
/// wait is shortened by cutting it finer. Logs keep their large parts:
/// each part costs a start and the reading of its lookahead.
pub(super) fn next_chunk_size(
    cfg: &ExtractorBuilder,
    read_with: usize,
    hits: u64,
) -> usize {
    let (max, lookahead) = (cfg.chunk_size, cfg.lookahead());
    let dense = (read_with as u128 * DENSE_HITS_PER_MIB) >> 20;
    if u128::from(hits) <= dense {
        return max;
    }
    let floor = (max / 4).max(lookahead.saturating_mul(8)).clamp(1, max);
    let scaled = max as u128 * dense / u128::from(hits);
    usize::try_from(scaled).unwrap_or(max).clamp(floor, max)
}

/// An error in the extractor's configuration.
#[derive(Debug, Clone)]
pub struct BuildError {
    pub(super) message: String,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BuildError {}

/// Configures an [`Extractor`](super::Extractor).
#[derive(Clone, Debug)]
pub struct ExtractorBuilder {
    pub(super) max_url_len: usize,
    pub(super) base: Option<String>,
    pub(super) schemes: Option<SchemeSet>,
    pub(super) line_numbers: bool,
    pub(super) chunk_size: usize,
    pub(super) batch_size: usize,
    pub(super) binary: bool,
    pub(super) format: InputFormat,
    pub(super) decompress: Decompress,
    pub(super) mail: MailConfig,
    pub(super) line_buffered: bool,
    pub(super) abbrev: abbrev::Opts,
    pub(super) refang: bool,
    pub(super) encoded: bool,
    /// Fixed trigger search for profiling; `None` measures the searches
    /// and uses the fastest.
    pub(super) trigger_search: Option<TriggerSearch>,
    pub(super) single_thread: bool,
    pub(super) thread_pool: Option<std::sync::Arc<rayon::ThreadPool>>,
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
            decompress: Decompress::Never,
            mail: MailConfig::default(),
            line_buffered: false,
            abbrev: abbrev::Opts::NONE,
            refang: false,
            encoded: false,
            trigger_search: None,
            single_thread: false,
            thread_pool: None,
        }
    }

    /// Also find abbreviated URIs without a scheme (2396bis Appendix F):
    /// `www.example.com/path` read as `http://`, `ftp.example.org` as
    /// `ftp://`. The host must end in a public suffix. The hit's
    /// [`Hit::url`](crate::Hit::url) is the text as written, [`Hit::resolved`](crate::Hit::resolved) the
    /// absolute URI, and [`Hit::abbreviated`](crate::Hit::abbreviated) says which kind it is.
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
    /// [`ExtractorBuilder::abbreviated`], [`Hit::url`](crate::Hit::url) is the text as
    /// written, [`Hit::resolved`](crate::Hit::resolved) the `http://` URI, and
    /// [`Hit::abbreviated`](crate::Hit::abbreviated) is `"domain"` (or `"www"` and `"ftp"` for
    /// such hosts when abbreviated URIs are asked for too). The rules
    /// are those of [`crate::abbrev`].
    pub fn domains(&mut self, yes: bool) -> &mut Self {
        self.abbrev.domains = yes;
        self
    }

    /// Read defanged URLs (`hxxp://example[.]com`, see [`crate::refang`])
    /// as the URLs they stand for: the hit's [`Hit::url`](crate::Hit::url) stays as
    /// written, [`Hit::resolved`](crate::Hit::resolved) is the refanged URL, validated in its
    /// place, and [`Hit::refanged`](crate::Hit::refanged) is true.
    pub fn refang(&mut self, yes: bool) -> &mut Self {
        self.refang = yes;
        self
    }

    /// Also find URLs written encoded (see [`crate::encoded`]): the
    /// whole URL percent-encoded (`http%3A%2F%2Fexample.com%2F`, as in
    /// another URL's query), in base64 (`aHR0cDovL2V4YW1wbGUuY29t`) or
    /// in hex (`687474703a2f2f...`). The hit's [`Hit::url`](crate::Hit::url)
    /// is the decoded URL, its offsets those of the encoded text,
    /// [`Hit::encoded`](crate::Hit::encoded) names the encoding, and it
    /// has the warning `encoded-url`. Found beside the plain URLs: a
    /// tracker's link holding an encoded target gives both.
    pub fn encoded(&mut self, yes: bool) -> &mut Self {
        self.encoded = yes;
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
    /// messages and every hit gets its [`Hit::provenance`](crate::Hit::provenance).
    ///
    /// Text by default because a program calling the library knows what
    /// it holds (a log line, a page's text, a message body it decoded
    /// itself), and guessing could read such text as mail: a body that
    /// starts with `From ` and a date, or with `Subject: `.
    pub fn format(&mut self, format: InputFormat) -> &mut Self {
        self.format = format;
        self
    }

    /// Which inputs are decompressed while read: none by default; files
    /// by their name (`.gz`, `.bz2`, `.xz`, `.zst`), as the command-line
    /// tool does; or every input whose first bytes say so (its `-z`).
    /// A file read decompressed is read in order by one thread, not in
    /// parts.
    pub fn decompress(&mut self, which: Decompress) -> &mut Self {
        self.decompress = which;
        self
    }

    /// Scan non-text MIME parts (attachments) too.
    pub fn attachments(&mut self, yes: bool) -> &mut Self {
        self.mail.attachments = yes;
        self
    }

    /// Give each `a href` hit of HTML mail its anchor's visible text
    /// ([`Provenance::anchor_text`](crate::Provenance::anchor_text)),
    /// from which the `deceptive-link` warning comes (default: yes). Off,
    /// mail decoding saves a string and a provenance per link.
    pub fn anchor_texts(&mut self, yes: bool) -> &mut Self {
        self.mail.anchor_texts = yes;
        self
    }

    /// Candidates longer than this many bytes of input (including
    /// whitespace removed from wrapped URLs) are dropped, and scanning
    /// resumes after them. Taken between 8 and [`MAX_URL_LEN_LIMIT`].
    pub fn max_url_len(&mut self, n: usize) -> &mut Self {
        self.max_url_len = n.clamp(8, MAX_URL_LEN_LIMIT);
        self
    }

    /// Bytes read past each segment: the longest URL and the slack that
    /// delimiting reads after it.
    pub(super) fn lookahead(&self) -> usize {
        self.max_url_len + crate::delimit::LOOKAHEAD_SLACK
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

    /// Compute [`Hit::line`](crate::Hit::line) and [`Hit::column`](crate::Hit::column) (costs a newline count
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
    /// is scanned up to it; [`Sink::binary`](crate::Sink::binary) is told either way.
    pub fn binary(&mut self, yes: bool) -> &mut Self {
        self.binary = yes;
        self
    }

    /// Bytes scanned by one parallel task (default 512 KiB; on several
    /// threads, batches dense with URLs are cut finer, down to a quarter
    /// of it while that is at least eight times the URL length limit).
    /// Results do not depend on it; tests set it as low as 1.
    pub fn chunk_size(&mut self, n: usize) -> &mut Self {
        self.chunk_size = n.max(1);
        self
    }

    /// Do all the work of a search on the thread that calls it (read,
    /// scan, merge, call the sink), whatever rayon pool it runs in. For
    /// callers that run one search per core themselves (a framework
    /// calling a function per record); by default a search scans on
    /// rayon's global pool, or on [`ExtractorBuilder::thread_pool`].
    pub fn single_thread(&mut self, yes: bool) -> &mut Self {
        self.single_thread = yes;
        self
    }

    /// Scan on `pool`'s threads instead of rayon's global pool (one
    /// thread per CPU unless the program configured it): a search's
    /// parallel work runs there, wherever the search is called from.
    ///
    /// A search called on a thread of the pool it scans on (`pool` or,
    /// without one, any rayon pool: inside `par_iter`, `join` or
    /// `install`) reads and merges on that thread and has its batches
    /// scanned by the pool through rayon's work stealing, with no thread
    /// of its own waiting for the pool (whose threads may all be running
    /// searches): reading and scanning then take turns instead of
    /// overlapping. Without a pool given here, such a search scans on
    /// the pool it is called in.
    pub fn thread_pool(
        &mut self,
        pool: std::sync::Arc<rayon::ThreadPool>,
    ) -> &mut Self {
        self.thread_pool = Some(pool);
        self
    }

    /// Bytes held in memory per batch (default 4 MiB); with the lookahead
    /// of each segment this bounds the extractor's memory. A search on
    /// one thread reads batches of one chunk at most (see
    /// [`ExtractorBuilder::chunk_size`]).
    pub fn batch_size(&mut self, n: usize) -> &mut Self {
        self.batch_size = n.max(1);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delimit::LOOKAHEAD_SLACK;

    #[test]
    fn chunks_shrink_with_url_density_to_a_quarter() {
        let mut cfg = ExtractorBuilder::new();
        cfg.chunk_size(512 << 10);
        let mib = 1 << 20;
        let next = next_chunk_size;
        // Logs and prose: the configured size.
        assert_eq!(next(&cfg, 4 * mib, 0), 512 << 10);
        assert_eq!(next(&cfg, 4 * mib, 4 * 1300), 512 << 10);
        assert_eq!(next(&cfg, 4 * mib, 4 * 2048), 512 << 10);
        // Twice the threshold density: half the size.
        assert_eq!(next(&cfg, 4 * mib, 4 * 4096), 256 << 10);
        // URL lists, and a batch of nothing but hits: a quarter.
        assert_eq!(next(&cfg, 2 * mib, 2 * 20_000), 128 << 10);
        assert_eq!(next(&cfg, 100, u64::MAX), 128 << 10);
        // Never below one byte, whatever the configuration.
        cfg.chunk_size(1);
        assert_eq!(next(&cfg, 1, 1000), 1);
    }

    #[test]
    fn parts_stay_eight_times_their_lookahead() {
        let (read, hits) = (2 << 20, 40_000);
        let part = |max_url_len| {
            let mut cfg = ExtractorBuilder::new();
            cfg.chunk_size(512 << 10).max_url_len(max_url_len);
            next_chunk_size(&cfg, read, hits)
        };
        // The default limit, 8 KiB: a quarter of the chunk.
        assert_eq!(part(8 << 10), 128 << 10);
        assert_eq!(part(32 << 10), 8 * (32 << 10) + 8 * LOOKAHEAD_SLACK);
        // A lookahead of an eighth of the chunk or more: no finer parts.
        assert_eq!(part(64 << 10), 512 << 10);
        assert_eq!(part(16 << 20), 512 << 10);
    }
}

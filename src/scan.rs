//! Scanning: finds the trigger bytes (every `:`, with SIMD `memchr`, or
//! only the colons that can end a scheme, with a SIMD multi-pattern
//! search where most colons cannot) in a range of a buffer and hands
//! each to `delimit`, resuming after each candidate it accepts. It owns
//! the hot loop and makes no judgement of its own beyond a two-byte
//! early reject.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use aho_corasick::packed::{self, Searcher};

use crate::abbrev::{self, Abbrev};
use crate::delimit::{self, delimit};
use crate::hit::{Candidate, Context};
use crate::scheme::colon_words;
use crate::sieve::{Sieve, sieve};

/// Bytes scanned with one method before the choice is made again.
const BLOCK: usize = 32 << 10;

/// Blocks (per thread) between the starts of two measurements.
const PERIOD: u32 = 256;

/// Blocks measured at the start of each period, four with each method,
/// in the order of [`PROBE_ORDER`] (neighbouring blocks are alike, so
/// the sums compare the methods, not the text).
const PROBES: u32 = 12;

/// The method of each measured block: each method as often early as
/// late in the measurement.
const PROBE_ORDER: [TriggerSearch; PROBES as usize] = {
    use TriggerSearch::{Colons as C, Letters as L, Pairs as P};
    [C, L, P, P, L, C, C, L, P, P, L, C]
};

/// The methods measured where the CPU has no [`crate::sieve`] (which
/// needs AVX2 and, where it runs, was faster than each of them on every
/// input measured, or as fast), in the order of [`Costs::ns`].
const MEASURED: [TriggerSearch; 3] =
    [TriggerSearch::Colons, TriggerSearch::Letters, TriggerSearch::Pairs];

/// Which method this thread uses, and its measurement in progress
/// (without the sieve).
///
/// Which method is fastest depends on the input (how many colons, how
/// many of them after letters, how often the Teddy fingerprints collide)
/// and on the CPU, so it is measured, not predicted: on most logs the
/// scheme-ending searches are several times as fast as the colon
/// search, on some logs, on prose and on URL lists slower; of the two
/// ending searches, each is the faster on some logs ([`letters`]).
/// (Figures: `benches/results/2026-11-22-design-figures-50f13b9.md`.) All three find the same
/// candidates, so the choice changes only the speed. Each thread
/// measures on its own blocks, every `PERIOD` blocks (8 MiB), so that a
/// change in the input is followed, and leaves out the time spent on
/// the candidates found (the caller's validation), which all methods
/// share and which varies more from block to block than the methods
/// differ.
struct Costs {
    /// Nanoseconds spent by each of [`MEASURED`] in this period's
    /// measurement: the sum and the largest.
    ns: Cell<[(u64, u64); 3]>,
    /// Whole blocks scanned by this thread.
    blocks: Cell<u32>,
    /// The fastest method at the last measurement.
    choice: Cell<TriggerSearch>,
}

/// Where block `n` of a thread lies in its period: measured when below
/// `PROBES`. The first periods are shorter (1 MiB), the first
/// measurement being made on cold caches.
fn phase(n: u32) -> u32 {
    if n < PERIOD { n % (PERIOD / 8) } else { n % PERIOD }
}

thread_local! {
    static COSTS: Costs = const {
        Costs {
            ns: Cell::new([(0, 0); 3]),
            blocks: Cell::new(0),
            choice: Cell::new(TriggerSearch::Colons),
        }
    };
}

impl Costs {
    /// The method for the next block, and whether to time it. A short
    /// block (the end of a range) costs mostly the call: it is not
    /// measured.
    fn pick(&self, whole: bool) -> (TriggerSearch, bool) {
        let phase = phase(self.blocks.get());
        if !whole || phase >= PROBES {
            self.blocks.set(self.blocks.get().wrapping_add(u32::from(whole)));
            return (self.choice.get(), false);
        }
        (PROBE_ORDER[phase as usize], true)
    }

    /// Record what a block picked for measurement took, and at the end
    /// of the measurement choose.
    fn record(&self, method: TriggerSearch, took: Duration) {
        let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        let mut sums = self.ns.get();
        let i = MEASURED.iter().position(|&m| m == method).unwrap_or(0);
        let (sum, max) = &mut sums[i];
        *sum = sum.saturating_add(ns);
        *max = ns.max(*max);
        let n = self.blocks.get().wrapping_add(1);
        self.blocks.set(n);
        if phase(n) == PROBES {
            // The slowest block of each is left out: a thread preempted
            // or a page fault in the middle of a block says nothing of
            // the method.
            let costs = sums.map(|(sum, max)| sum - max);
            let best = (0..MEASURED.len()).min_by_key(|&i| costs[i]);
            self.choice.set(MEASURED[best.unwrap_or(0)]);
            sums = [(0, 0); 3];
        }
        self.ns.set(sums);
    }
}

/// How the colons of a block are found: fixed (for profiling and tests,
/// see `ExtractorBuilder::trigger_search`) or, by default, the sieve
/// where the CPU has AVX2, otherwise the method `Costs` measures to be
/// the fastest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TriggerSearch {
    /// Every `:` (`memchr`), then the early reject.
    Colons,
    /// Only `://` and the last letter of a scheme recognised without
    /// `//` followed by `:` (`letters`, slim Teddy).
    Letters,
    /// Only `://` and the last two letters of a scheme recognised
    /// without `//` followed by `:` (`pairs`, fat Teddy).
    Pairs,
    /// Only `:/` and the colons after the last two letters of a scheme
    /// recognised without `//`, kept by a SIMD sieve (AVX-512 or AVX2;
    /// where the CPU has neither, every colon).
    Sieve,
}

/// What scanning needs besides the bytes.
#[derive(Clone, Debug)]
pub(crate) struct ScanRules {
    /// How a candidate is delimited (length limit, schemes without `//`,
    /// defanged URLs).
    pub delimit: delimit::Rules,
    /// Abbreviated URIs (`www.`, `ftp.`) and e-mail addresses to find
    /// too ([`crate::abbrev`]).
    pub abbrev: abbrev::Opts,
    /// How triggers are searched for: fixed, or chosen by measurement
    /// for `None`, the default.
    pub search: Option<TriggerSearch>,
    /// URLs written encoded are found too ([`crate::encoded`]).
    pub encoded: bool,
}

/// Find the candidates whose trigger lies in `hay[from..to]`, in order,
/// and give each to `found`.
///
/// Candidates may extend past `to` (and their scheme may start before
/// `from`): the caller provides enough bytes around the range (see
/// `delimit::LOOKBACK` and `delimit::LOOKAHEAD_SLACK`).
///
/// Scanning is sequential: a trigger inside an accepted candidate (before
/// its `resume`) is skipped. `pipeline` relies on that being the only
/// state carried from one trigger to the next.
pub(crate) fn scan(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    found: impl FnMut(Candidate),
) {
    scan_with(hay, from, to, rules, rules.search, found);
}

/// [`scan`] with the search given, or chosen by measurement for `None`
/// (tests compare them).
pub(crate) fn scan_with(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    search: Option<TriggerSearch>,
    mut found: impl FnMut(Candidate),
) {
    if rules.encoded {
        // Encoded URLs, found apart, go in among the others in the order
        // of their triggers.
        let mut encoded =
            crate::encoded::candidates(hay, from, to, &rules.delimit)
                .into_iter();
        let mut next = encoded.next();
        scan_plain(hay, from, to, rules, search, |c| {
            while let Some(e) = next.take_if(|e| e.trigger < c.trigger) {
                found(e);
                next = encoded.next();
            }
            found(c);
        });
        next.into_iter().chain(encoded).for_each(found);
        return;
    }
    scan_plain(hay, from, to, rules, search, found);
}

/// [`scan_with`] without the encoded URLs.
fn scan_plain(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    search: Option<TriggerSearch>,
    mut found: impl FnMut(Candidate),
) {
    if rules.abbrev.any() {
        return scan_abbrev(hay, from, to, rules, found);
    }
    let mut pos = from;
    // Endings stand for colons only while the only schemes recognised
    // without `//` are the built-in ones.
    let builtin = rules.delimit.opaque.is_none() && !rules.delimit.refang;
    // The default where the CPU has the sieve: the Teddy searchers are
    // not even built.
    if builtin
        && search.is_none()
        && let Some(sieve) = sieve()
    {
        by_sieve(hay, from, to, rules, sieve, &mut pos, &mut found);
        return;
    }
    let finders = if builtin {
        Finders { letters: letters(), pairs: pairs(), sieve: sieve() }
    } else {
        Finders::default()
    };
    if let Some(fixed) = search {
        run_block(
            (hay, from, to),
            rules,
            fixed,
            finders,
            &mut pos,
            &mut found,
        );
        return;
    }
    if finders.is_empty() {
        colons(hay, from, to, rules, &mut pos, &mut found);
        return;
    }
    let mut block = from;
    while block < to {
        let end = block.saturating_add(BLOCK).min(to);
        let (method, timed) = COSTS.with(|c| c.pick(end - block == BLOCK));
        let b = (hay, block, end);
        if timed {
            // What the caller does with a candidate (validation, in the
            // pipeline) is the same for every method and varies from
            // block to block with the number of URLs: it is left out.
            let mut theirs = Duration::ZERO;
            let started = Instant::now();
            let mut timed_found = |c| {
                let t = Instant::now();
                found(c);
                theirs += t.elapsed();
            };
            run_block(b, rules, method, finders, &mut pos, &mut timed_found);
            let ours = started.elapsed().saturating_sub(theirs);
            COSTS.with(|c| c.record(method, ours));
        } else {
            run_block(b, rules, method, finders, &mut pos, &mut found);
        }
        block = end;
    }
}

/// Scan `hay[from..to]` with `method` ([`letters`], [`pairs`]), or
/// every colon where its searcher is missing.
fn run_block(
    (hay, from, to): (&[u8], usize, usize),
    rules: &ScanRules,
    method: TriggerSearch,
    finders: Finders,
    pos: &mut usize,
    found: &mut impl FnMut(Candidate),
) {
    let finder = match method {
        TriggerSearch::Letters => finders.letters,
        TriggerSearch::Pairs => finders.pairs,
        TriggerSearch::Sieve => {
            if let Some(sieve) = finders.sieve {
                return by_sieve(hay, from, to, rules, sieve, pos, found);
            }
            None
        }
        TriggerSearch::Colons => None,
    };
    match finder {
        Some(f) => by_endings(hay, from, to, rules, f, pos, found),
        None => colons(hay, from, to, rules, pos, found),
    }
}

/// The searches for scheme-ending colons, where available.
#[derive(Clone, Copy, Default)]
struct Finders {
    letters: Option<&'static Searcher>,
    pairs: Option<&'static Searcher>,
    sieve: Option<&'static Sieve>,
}

impl Finders {
    fn is_empty(&self) -> bool {
        self.letters.is_none() && self.pairs.is_none() && self.sieve.is_none()
    }
}

/// The same as [`colons`], but only for the colons the [`Sieve`] keeps:
/// every colon that `delimit` can accept with the built-in schemes.
fn by_sieve(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    sieve: &Sieve,
    pos: &mut usize,
    found: &mut impl FnMut(Candidate),
) {
    sieve.for_each(hay, from, to, sieved(hay, rules, pos, found));
}

/// What [`by_sieve`] does with each colon the sieve keeps.
fn sieved<'a>(
    hay: &'a [u8],
    rules: &'a ScanRules,
    pos: &'a mut usize,
    found: &'a mut impl FnMut(Candidate),
) -> impl FnMut(usize) + 'a {
    move |colon| {
        if colon < *pos {
            return;
        }
        if let Some(c) = evaluate(hay, colon, rules) {
            *pos = c.resume;
            found(c);
        }
    }
}

/// Whether [`scan_before_nul`] scans with `rules`: where [`scan`] would
/// use the sieve alone (built-in schemes, no abbreviated, defanged or
/// encoded forms, no fixed search, a CPU with the sieve).
pub(crate) fn scans_before_nul(rules: &ScanRules) -> bool {
    rules.delimit.opaque.is_none()
        && !rules.delimit.refang
        && !rules.encoded
        && !rules.abbrev.any()
        && rules.search.is_none()
        && sieve().is_some()
}

/// [`scan`] of `hay[from..to]` up to its first NUL byte, found in the
/// same pass as the triggers (the binary check without a pass of its
/// own); returns the NUL's offset. Only where [`scans_before_nul`] says
/// so: otherwise it scans nothing and returns `None`.
pub(crate) fn scan_before_nul(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    mut found: impl FnMut(Candidate),
) -> Option<usize> {
    let sieve = sieve().filter(|_| scans_before_nul(rules))?;
    let mut pos = from;
    let each = sieved(hay, rules, &mut pos, &mut found);
    sieve.for_each_before_nul(hay, from, to, each)
}

/// Give `found` the candidates of every `:` in `hay[from..to]` at or
/// after `*pos`.
fn colons(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    pos: &mut usize,
    found: &mut impl FnMut(Candidate),
) {
    for off in memchr::memchr_iter(b':', &hay[from..to]) {
        let colon = from + off;
        // The early reject stays in this loop (most colons end here).
        if colon < *pos || !plausible_for(hay, colon, rules) {
            continue;
        }
        if let Some(c) = delimit(hay, colon, &rules.delimit) {
            *pos = c.resume;
            found(c);
        }
    }
}

/// The same as [`colons`], but only for the colons that `finder`
/// ([`letters`] or [`pairs`]) finds: every colon that `delimit` can
/// accept with the built-in schemes (after `//`-less schemes, only
/// [`crate::scheme::OPAQUE_SCHEMES`], `URL:` and `data:,` are recognised; all of them
/// end in a letter).
fn by_endings(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    finder: &Searcher,
    pos: &mut usize,
    found: &mut impl FnMut(Candidate),
) {
    // A colon in `from..to` may be found by a match that starts two
    // bytes before it or ends two bytes after it.
    let lo = from.saturating_sub(2);
    let hi = to.saturating_add(2).min(hay.len());
    for m in finder.find_iter(&hay[lo..hi]) {
        let start = lo + m.start();
        // `://` starts at its colon, the other patterns end at theirs.
        let colon = if hay[start] == b':' { start } else { lo + m.end() - 1 };
        if colon >= to {
            break;
        }
        if colon < from || colon < *pos {
            continue;
        }
        if let Some(c) = evaluate(hay, colon, rules) {
            *pos = c.resume;
            found(c);
        }
    }
}

/// The multi-pattern (Teddy) searcher for `://` and for the last letter
/// of each of [`crate::scheme::OPAQUE_SCHEMES`] and `URL`, in both cases, followed by
/// `:`: 19 patterns. `None` where the CPU has no SIMD for it.
///
/// 19 patterns fit slim Teddy (at most 32), which takes twice as many
/// bytes a step as the fat Teddy that the 57 patterns of [`pairs`] need,
/// but `x:` matches more often than `xy:`, so which is faster depends
/// on the input (a log with `sshd:` on every line favours [`pairs`]);
/// both are kept and measured (figures:
/// `benches/results/2026-11-22-design-figures-50f13b9.md`).
///
/// Matches never hide one another's colon: a match of `x:` ends at its
/// colon, and one of `://` starts at it.
pub(crate) fn letters() -> Option<&'static Searcher> {
    static FINDER: OnceLock<Option<Searcher>> = OnceLock::new();
    FINDER.get_or_init(|| ending_searcher(1)).as_ref()
}

/// The multi-pattern (Teddy) searcher for `://` and for the last two
/// letters of each of [`crate::scheme::OPAQUE_SCHEMES`] and `URL`, in all four cases,
/// followed by `:`: 57 patterns. `None` where the CPU has no SIMD for
/// it (fat Teddy needs AVX2).
///
/// Matches never hide one another's colon: a match of `xy:` overlaps a
/// later one only at its colon, where only `://` can start.
pub(crate) fn pairs() -> Option<&'static Searcher> {
    static FINDER: OnceLock<Option<Searcher>> = OnceLock::new();
    FINDER.get_or_init(|| ending_searcher(2)).as_ref()
}

/// A searcher for `://` and the last `n` letters of each scheme used
/// without `//`, in every case, followed by `:`. A scheme shorter than
/// `n` would have no such ending: then there is none, and every colon
/// is tried.
fn ending_searcher(n: usize) -> Option<Searcher> {
    let mut pats: Vec<Vec<u8>> = vec![b"://".to_vec()];
    for name in colon_words() {
        let b = name.as_bytes();
        let tail = b.get(b.len().checked_sub(n)?..)?.to_ascii_lowercase();
        // Each subset of the letters upper-cased.
        for case in 0..1u32 << n {
            let mut p = tail.clone();
            for (i, c) in p.iter_mut().enumerate() {
                if case >> i & 1 != 0 {
                    c.make_ascii_uppercase();
                }
            }
            p.push(b':');
            if !pats.contains(&p) {
                pats.push(p);
            }
        }
    }
    packed::Config::new()
        .match_kind(packed::MatchKind::LeftmostFirst)
        .builder()
        .extend(&pats)
        .build()
}

/// [`scan`] with abbreviated URIs, bare domain names and e-mail
/// addresses: the triggers are `:`, the `.` of `www.` or `ftp.` or
/// every full stop (`.`, `。`, `．`, `｡`), and `@` (2396bis Appendix F,
/// UTS #58; see [`crate::abbrev`]).
fn scan_abbrev(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &ScanRules,
    mut found: impl FnMut(Candidate),
) {
    let mut next = from;
    while let Some(t) = next_trigger(hay, next, to, rules) {
        next = t + 1;
        if let Some(c) = evaluate_any(hay, t, rules) {
            next = next.max(c.resume);
            found(c);
        }
    }
}

/// The position of the next trigger at or after `pos` (before `to`) for
/// `rules`: a `:`; also `.` and `@` when abbreviated forms are on; and
/// with bare domains the lead byte (`E3` or `EF`) of the ideographic,
/// fullwidth and halfwidth full stops, searched for only up to the
/// next ASCII trigger (so that a scan from trigger to trigger reads each
/// byte once).
pub(crate) fn next_trigger(
    hay: &[u8],
    pos: usize,
    to: usize,
    rules: &ScanRules,
) -> Option<usize> {
    let area = hay.get(pos..to)?;
    let opts = rules.abbrev;
    if !opts.any() {
        return memchr::memchr(b':', area).map(|o| pos + o);
    }
    let ascii = memchr::memchr3(b':', b'.', b'@', area);
    if !opts.domains {
        return ascii.map(|o| pos + o);
    }
    let before = area.get(..ascii.unwrap_or(area.len())).unwrap_or_default();
    memchr::memchr2(0xE3, 0xEF, before).or(ascii).map(|o| pos + o)
}

/// Evaluate the trigger at `t` of any kind. Like a scheme, the local
/// part of an address and the labels of a domain lie before their
/// trigger; whether the trigger lies inside an earlier candidate is all
/// that decides (so that a chunk scanned on its own agrees with the
/// whole input scanned in one go). The text of `<URL:...>` that is an
/// abbreviated form (`<URL:joe@example.com>`) is read as one.
pub(crate) fn evaluate_any(
    hay: &[u8],
    t: usize,
    rules: &ScanRules,
) -> Option<Candidate> {
    let max_len = rules.delimit.max_len;
    let opts = rules.abbrev;
    let found = match hay.get(t)? {
        b':' => {
            let c = evaluate(hay, t, rules)?;
            if !opts.any()
                || c.context != Context::UrlPrefix
                || c.cleaned.is_some()
                || c.too_long
            {
                return Some(c);
            }
            let Some(a) = abbrev::whole(hay, c.start, c.end, max_len, opts)
            else {
                return Some(c);
            };
            let resume = c.resume;
            return Some(Candidate { resume, ..abbreviated(a, t, c.context) });
        }
        b'.' if opts.domains => abbrev::domain_at(hay, t, max_len, opts.www),
        b'.' if opts.www => {
            abbrev::abbreviated_at(hay, t.checked_sub(3)?, max_len)
        }
        b'@' if opts.emails => abbrev::email_at(hay, t, max_len),
        0xE3 | 0xEF if opts.domains => {
            abbrev::domain_at(hay, t, max_len, opts.www)
        }
        _ => None,
    }?;
    Some(abbreviated(found, t, Context::Bare))
}

/// The candidate of an abbreviated URI or address found from trigger `t`.
fn abbreviated(a: Abbrev, t: usize, context: Context) -> Candidate {
    Candidate {
        trigger: t,
        start: a.start,
        end: a.end,
        resume: a.end,
        context,
        cleaned: None,
        alternative: None,
        abbrev: Some((a.kind, a.url)),
        encoded: None,
        quick: crate::validate::Known::Unknown,
        too_long: false,
    }
}

/// Evaluate one trigger: a cheap test of the bytes around the colon,
/// then `delimit`.
#[inline]
pub(crate) fn evaluate(
    hay: &[u8],
    colon: usize,
    rules: &ScanRules,
) -> Option<Candidate> {
    if !plausible_for(hay, colon, rules) {
        return None;
    }
    delimit(hay, colon, &rules.delimit)
}

/// [`plausible`], and with [`delimit::Rules::refang`] a colon after `[` too (a
/// defanged `[:]` or `[://]`).
#[inline]
fn plausible_for(hay: &[u8], colon: usize, rules: &ScanRules) -> bool {
    plausible(hay, colon)
        || (rules.delimit.refang && colon > 0 && hay[colon - 1] == b'[')
}

/// The two-byte early reject: whether the `:` at `colon` can end a
/// scheme. Every scheme ends with a letter or digit; a scheme without
/// `//` (the opaque ones and the `URL:` prefix) ends with a letter.
#[inline]
pub(crate) fn plausible(hay: &[u8], colon: usize) -> bool {
    let Some(&prev) = colon.checked_sub(1).and_then(|p| hay.get(p)) else {
        return false;
    };
    let slash = hay.get(colon + 1) == Some(&b'/');
    prev.is_ascii_alphabetic() || (slash && prev.is_ascii_digit())
}

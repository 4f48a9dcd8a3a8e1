//! urlx finds URLs in mail, news, plain text and logs: fast, streaming,
//! in bounded memory, and delimited, validated and resolved the way the
//! URL specifications say.
//!
//! # The pipeline
//!
//! ```text
//!  bytes ──scan──> triggers ──delimit──> candidates ──validate──> URIs
//!        (memchr)   (`:`)    (App. E)    (spans)    (RFC 3986)    │
//!                                                                  │
//!   Sink <──────────── hits, in input order <────────resolve───────┘
//!                                                  (RFC 3986 §5)
//! ```
//!
//! * **scan** finds every `:` with SIMD `memchr` and rejects most of
//!   them from the two bytes around it.
//! * **delimit** decides whether a URL starts there, and where it begins
//!   and ends in its context: `<...>`, `<URL:...>`, quotes, brackets,
//!   whitespace inserted to break it across lines, a hyphen at a line
//!   break, trailing punctuation (Appendix E of the drafts).
//! * **validate** parses it into RFC 3986 components and checks them.
//! * **resolve** gives every hit its absolute form (RFC 3986 section 5).
//! * Optional, off by default: [`abbrev`] finds `www.` hosts, bare
//!   domain names (UTS #58) and e-mail
//!   addresses without a scheme, [`refang`] reads defanged URLs,
//!   [`encoded`] URLs written percent-encoded, in base64 or in hex; on
//!   request a hit gives its warnings ([`validate::lint`]), its normal
//!   and URI forms ([`normalize`]) and a redirector's target ([`unwrap`]).
//! * **pipeline** runs the stages over many inputs in parallel, in
//!   chunks, and hands hits to a [`Sink`] in input order.
//!
//! # Glossary
//!
//! * *trigger*: the `:` after a scheme (or after the `URL:` prefix).
//! * *candidate*: a delimited span of input that may be a URL.
//! * *hit*: a candidate that was validated and resolved: a [`Hit`].
//! * *base*: the URI relative references are resolved against.
//!
//! # Example
//!
//! ```
//! use urlx::Extractor;
//!
//! let text = b"Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",
//! but you can probably pick it up from <ftp://ds.internic.
//! net/rfc/>.  Note the warning in <URL:http://www.ics.uci.edu/pub/
//! ietf/uri/historical.html#WARNING>.";
//!
//! let extractor = Extractor::builder().build().unwrap();
//! let urls: Vec<String> = extractor
//!     .find(text)
//!     .iter()
//!     .filter(|hit| hit.is_valid())
//!     .map(|hit| hit.url().to_string())
//!     .collect();
//! assert_eq!(urls, [
//!     "http://www.w3.org/Addressing/",
//!     "ftp://ds.internic.net/rfc/",
//!     "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
//! ]);
//! ```
//!
//! # Conformance
//!
//! Where the drafts in the specification set disagree, RFC 3986 decides;
//! DESIGN.md lists each place where urlx differs from an older draft.

#![deny(missing_docs)]
// The one exception, `sieve` (SIMD loads), allows it for itself.
#![deny(unsafe_code)]

// The modules, in pipeline order.
// Lexical facts every stage shares: character classes, percent-encoding.
mod lex;
// The table of facts about well-known schemes.
mod scheme;
// Terminal safety: what input text a message or a printed URL repeats.
mod sanitize;
// Shared vocabulary: contexts, candidates, hits.
mod hit;
// Input formats: detection and how each is read.
mod format;
// Opening inputs and cutting them into batches.
mod feed;
// tar and zip archives: their members, read one by one.
pub mod archive;
// Deceptive links: anchor text showing another site than the href's.
mod deceptive;
// Compressed inputs, decompressed while read.
pub mod decompress;
// Input cut into segments with a roll buffer.
mod stream;
// Mail and news: formats, message framing, MIME, HTML.
pub mod mail;
// Stage 1: trigger search.
mod scan;
// The SIMD sieve that keeps the colons a scheme can end at.
mod sieve;
#[cfg(test)]
mod testing;
// Stage 2: URL extent in context (Appendix E).
mod delimit;
// Stages 1-2 for URLs without a scheme: www., ftp., e-mail addresses
// (2396bis Appendix F), with --abbreviated and --emails.
pub mod abbrev;
// Defanged URLs (hxxp://, [.]) made usable again, with --refang.
pub mod refang;
// URLs written percent-encoded, in base64 or in hex, with --encoded.
pub mod encoded;
// Stage 3: RFC 3986 grammar, the schemes' own rules, security lint.
pub mod validate;
// Bundled data: IANA scheme registry, public suffix list.
pub mod data;
// Stage 4: RFC 3986 section 5 reference resolution.
pub mod resolve;
// Normal forms (RFC 3986 section 6) and IRI to URI (RFC 3987).
pub mod normalize;
// The targets of redirector links (Google, safelinks, urldefense).
pub mod unwrap;
// Candidates of a buffer turned into hits: validated and resolved.
mod finder;
// Builder, extractor, parallel scan and ordered merge.
mod pipeline;
// Printers: plain, JSON Lines, counts.
pub mod print;

pub use crate::feed::Input;
pub use crate::hit::{
    Context, Decoded, Hit, HitError, Provenance, Record, Source,
};
pub use crate::mail::InputFormat;
pub use crate::pipeline::{
    BuildError, DEFAULT_MAX_URL_LEN, Extractor, ExtractorBuilder, InputInfo,
    MAX_URL_LEN_LIMIT, Sink, Summary,
};
pub use crate::print::{OutputFormat, PrintOptions, Printer};
pub use crate::scheme::OPAQUE_SCHEMES;
pub use crate::validate::Uri;

/// Single stages, for the benchmarks in `benches/` only: not a stable
/// API.
#[doc(hidden)]
pub mod stages {
    /// Stage 1 alone: the triggers in `hay` that pass the early reject.
    pub fn count_triggers(hay: &[u8]) -> usize {
        memchr::memchr_iter(b':', hay)
            .filter(|&c| crate::scan::plausible(hay, c))
            .count()
    }

    /// Whether the validation fast path accepts `s` (it must accept only
    /// what the full check accepts; the property tests check that).
    pub fn quick_valid(s: &str) -> bool {
        crate::validate::quick_check(s).is_some()
    }

    pub use crate::scan::TriggerSearch;

    /// The candidates of `hay` as (trigger, start, end, resume), found
    /// with the trigger search fixed (`Some`) or adaptively (`None`, the
    /// default); all must agree (tests/props.rs).
    pub fn candidate_spans(
        hay: &[u8],
        search: Option<TriggerSearch>,
    ) -> Vec<(usize, usize, usize, usize)> {
        let rules = text_rules(2048);
        let mut v = Vec::new();
        crate::scan::scan_with(hay, 0, hay.len(), &rules, search, |c| {
            v.push((c.trigger, c.start, c.end, c.resume));
        });
        v
    }

    /// Whether `search` has its own searcher on this CPU (otherwise it
    /// tries every colon).
    pub fn search_available(search: TriggerSearch) -> bool {
        match search {
            TriggerSearch::Colons => true,
            TriggerSearch::Letters => crate::scan::letters().is_some(),
            TriggerSearch::Pairs => crate::scan::pairs().is_some(),
            TriggerSearch::Sieve => crate::sieve::sieve().is_some(),
        }
    }

    /// The default rules: schemes only, no abbreviated forms.
    fn text_rules(max_len: usize) -> crate::scan::ScanRules {
        crate::scan::ScanRules {
            delimit: crate::delimit::Rules {
                max_len,
                opaque: None,
                refang: false,
            },
            abbrev: crate::abbrev::Opts::NONE,
            search: None,
            encoded: false,
        }
    }

    /// One message of a mail or news input and the text urlx scans in
    /// it (for the accuracy harness in `tests/accuracy/`).
    pub struct MessageText {
        /// 1-based number of the message in its input.
        pub number: u64,
        /// Offsets in the input of its first byte (after an mbox `From `
        /// line) and one past its last.
        pub range: std::ops::Range<u64>,
        /// The decoded pieces (empty for the tail of a message too long
        /// to parse and for bytes of a web archive that are not a
        /// record, which are scanned as plain text); their offset maps
        /// give offsets in the message: see [`MessageText::input_offset`].
        pub pieces: Vec<crate::mail::mime::Piece>,
        /// Where mboxrd `>From ` quoting was undone.
        removed: Vec<usize>,
    }

    impl MessageText {
        /// The offset in the input of byte `p` of the message.
        pub fn input_offset(&self, p: usize) -> u64 {
            let shift = self.removed.partition_point(|&r| r <= p);
            self.range.start + (p + shift) as u64
        }
    }

    /// The messages of `input` as urlx reads them with
    /// `InputFormat::Auto`, each with its decoded pieces; `None` when the
    /// input is read as plain text.
    pub fn messages(input: &[u8]) -> Option<Vec<MessageText>> {
        use crate::format::{self, Reading};
        use crate::mail::{self, InputFormat};
        let format = format::decide(InputFormat::Auto, input);
        let Reading::Records(open) = format::reading(format) else {
            return None;
        };
        let max = mail::MailConfig::default().max_message;
        let mut reader = open(Box::new(input), max);
        let mut out = Vec::new();
        while let Ok(Some(msg)) = reader.next_message() {
            let start = msg.input_offset(0);
            let end = msg.input_offset(msg.raw.len());
            let opts = mail::mime::MimeOptions {
                web: msg.record,
                ..mail::mime::MimeOptions::default()
            };
            let pieces = if msg.continuation || msg.junk {
                Vec::new()
            } else {
                mail::mime::parse_message(&msg.raw, &opts).pieces
            };
            out.push(MessageText {
                number: msg.number,
                range: start..end,
                pieces,
                removed: msg.removed,
            });
        }
        Some(out)
    }

    /// Stages 1 and 2: the candidates delimited in `hay` (no validation).
    pub fn count_candidates(hay: &[u8], max_len: usize) -> usize {
        let mut n = 0;
        let rules = text_rules(max_len);
        crate::scan::scan(hay, 0, hay.len(), &rules, |c| {
            n += usize::from(!c.too_long);
        });
        n
    }
}

// The README's Rust examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

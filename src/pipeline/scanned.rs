//! What the parallel step of a search produces for the merge: each
//! chunk's speculative candidates and each job's hits, warnings and
//! reads.

use std::io;
use std::ops::Range;

use crate::feed::Item;
use crate::finder::Finder;
use crate::hit::{Candidate, Context, Extras, Hit, UrlText};
use crate::stream::Segment;

/// A scanned candidate, validated, with what the merge needs. Millions
/// pass from the scanning threads to the merge: 64 bytes, the hit's
/// offsets and URL kept as buffer offsets until it is placed.
#[derive(Debug)]
pub(super) struct Scanned {
    pub(super) trigger: usize,
    pub(super) resume: usize,
    /// The candidate's URL text, as buffer offsets.
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) hit: Option<Pending>,
    /// An encoded URL's candidate: it neither shadows nor is shadowed.
    pub(super) independent: bool,
    /// A candidate dropped as too long: the skip over the rest of its
    /// run started at `end` (`resume` is `delimit::after_run` from
    /// there).
    pub(super) too_long: bool,
}

// What the doc of `Scanned` says; a field more is a cost per candidate.
const _: () = assert!(std::mem::size_of::<Scanned>() <= 64);

/// A hit as validation made it, before the merge places it: its URL a
/// range of its chunk's buffer of URLs.
#[derive(Debug)]
pub(super) struct Pending {
    url: (u32, u32),
    context: Context,
    resolved_is_url: bool,
    printable: bool,
    extras: Option<Box<Extras>>,
}

impl Scanned {
    /// Candidate `c` of `seg`, validated by `finder`: a hit's URL is
    /// appended to `urls` (one buffer for a chunk's hits, not one
    /// allocation each). Inlined: built in place in the list of the
    /// scan's results, not moved there.
    #[inline(always)]
    pub(super) fn of(
        finder: &Finder,
        seg: &Segment,
        c: &Candidate,
        urls: &mut String,
    ) -> Scanned {
        let hit = if c.too_long {
            None
        } else {
            let text = c.text(&seg.buf);
            finder.candidate_verdict(text, c, finder.base()).map(|v| {
                let at = urls.len();
                urls.push_str(text);
                Pending {
                    // As `UrlText` keeps them.
                    url: (at as u32, text.len() as u32),
                    context: c.context,
                    resolved_is_url: v.resolved_is_url,
                    printable: v.printable,
                    extras: v.extras,
                }
            })
        };
        Scanned {
            trigger: c.trigger,
            resume: c.resume,
            start: c.start,
            end: c.end,
            hit,
            independent: c.encoded.is_some(),
            too_long: c.too_long,
        }
    }

    /// Its hit, at its input offsets in `seg`, its URL pending in the
    /// chunk's buffer, written over `hit` (a hit of the same segment
    /// placed before, its URL given back: the fields a hit of text has
    /// and the others, line, column and provenance, left as they are);
    /// `false` when it has none.
    pub(super) fn place(self, seg: &Segment, hit: &mut Hit) -> bool {
        let Some(p) = self.hit else { return false };
        debug_assert!(hit.url.is_pending() && hit.provenance.is_none());
        hit.url = UrlText::pending(p.url.0 as usize, p.url.1 as usize);
        hit.start = seg.base + self.start as u64;
        hit.end = seg.base + self.end as u64;
        hit.context = p.context;
        hit.resolved_is_url = p.resolved_is_url;
        hit.printable = p.printable;
        hit.extras = p.extras;
        true
    }
}

/// A batch with the speculative results of each of its chunks.
pub(super) struct ScannedBatch {
    pub(super) batch: Vec<Item>,
    /// Item index, and the chunk for a text segment (`None`: a message).
    pub(super) jobs: Vec<(usize, Option<Range<usize>>)>,
    pub(super) results: Vec<Found>,
}

impl ScannedBatch {
    /// How many hits (or speculative candidates) it holds.
    pub(super) fn hits(&self) -> usize {
        self.results.iter().map(|r| r.scanned.len() + r.hits.len()).sum()
    }
}

/// What one parallel job found.
#[derive(Default)]
pub(super) struct Found {
    pub(super) scanned: Vec<Scanned>,
    /// For a text chunk: the URLs of the hits of `scanned`, which hold
    /// ranges of it (pending until the merge lends it to them).
    pub(super) urls: String,
    /// For messages: their hits, in order.
    pub(super) hits: Vec<Hit>,
    /// For messages: the problems met decoding each (by number).
    pub(super) warnings: Vec<(u64, String)>,
    /// For a file part: the segment read, and where a NUL byte cut it.
    pub(super) seg: Option<io::Result<(Segment, Option<usize>)>>,
    /// An error to report after the hits (a file that shrank while it
    /// was read).
    pub(super) error: Option<io::Error>,
    /// For messages: how many (not counting the continuations of one
    /// too long to parse), and their bytes.
    pub(super) messages: u64,
    pub(super) bytes: u64,
}

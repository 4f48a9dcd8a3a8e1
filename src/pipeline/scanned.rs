//! What the parallel step of a search produces for the merge: each
//! chunk's speculative candidates and each job's hits, warnings and
//! reads.

use std::io;
use std::ops::Range;

use crate::feed::Item;
use crate::hit::Hit;
use crate::stream::Segment;

/// A scanned candidate, validated, with what the merge needs.
#[derive(Debug)]
pub(super) struct Scanned {
    pub(super) trigger: usize,
    pub(super) resume: usize,
    pub(super) start: usize,
    pub(super) hit: Option<Hit>,
    /// An encoded URL's candidate: it neither shadows nor is shadowed.
    pub(super) independent: bool,
    /// A candidate dropped as too long: where the skip over the rest of
    /// its run started (`resume` is `delimit::after_run` from there).
    pub(super) run_from: Option<usize>,
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

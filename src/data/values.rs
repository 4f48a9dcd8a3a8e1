//! Owns the value types of the generated tables, which the tables and
//! their lookups both use: a scheme's registration status (RFC 7595
//! section 3) and UTS #58's Link_Term, with the packing of a run of
//! code points that share a Link_Term.

/// Registration status of a URI scheme (RFC 7595 section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Permanent registration, reviewed by the designated expert.
    Permanent,
    /// Provisional registration (first come, first served).
    Provisional,
    /// Historical: registered once, no longer recommended or in use.
    Historical,
}

/// A value of the Link_Term property (UTS #58 section "Property Data",
/// LinkTerm.txt): what a character does to a link that runs into it.
///
/// The link detection of UTS #58 reads a link's characters one by one
/// and stops at the first that cannot be part of it; these values say
/// which can. Every code point that LinkTerm.txt does not list is Hard
/// (its `@missing` line), so unassigned code points end links too. A
/// later version of UTS #58 may add values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum LinkTerm {
    /// Part of the link wherever it occurs: letters, digits, marks,
    /// symbols, emoji, format characters such as U+200D ZERO WIDTH
    /// JOINER, and in ASCII also ``# $ % & * + - / = @ \ ^ _ ` | ~``.
    Include,
    /// Ends the link before it: controls, spaces (U+0020, U+00A0,
    /// U+3000, ...), line and paragraph separators, unassigned,
    /// surrogate and private-use code points.
    Hard,
    /// Part of the link only when something that belongs to the link
    /// follows; a run of Soft characters at the end is left out, as the
    /// full stop of `see example.com.` is. Sentence punctuation: `! " '
    /// , . : ; ?`, U+3002 IDEOGRAPHIC FULL STOP, quotation marks.
    Soft,
    /// An opening bracket: noted, so that a later Close can pair with
    /// it, and, like Soft, left out when nothing that belongs to the
    /// link follows it.
    Open,
    /// A closing bracket: part of the link when it pairs (by
    /// [`link_bracket`](super::uts58::link_bracket)) with the innermost bracket still open in the
    /// link, otherwise the link ends before it, as in
    /// `(see example.com)`.
    Close,
}

/// Where the first code point sits in an entry of `MARKS`.
pub(super) const MARK_START_SHIFT: u32 = 7;

/// One entry of `MARKS`: `len` (1 to 16) code points from `first` on
/// have Link_Term `value`, packed as `first << 7 | (len - 1) << 3 |
/// value` so that entries sort by `first`. Evaluated at compile time, so
/// a run that does not fit fails the build.
pub(super) const fn mark(first: u32, len: u32, value: LinkTerm) -> u32 {
    assert!(first <= 0x10FFFF && len >= 1 && len <= 16);
    (first << MARK_START_SHIFT) | ((len - 1) << 3) | value as u32
}

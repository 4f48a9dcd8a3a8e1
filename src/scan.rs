//! Scanning: finds the trigger bytes (every `:`, with SIMD `memchr`) in
//! a range of a buffer and hands each to `delimit`, resuming after each
//! candidate it accepts. It owns the hot loop and makes no judgement of
//! its own beyond a two-byte early reject.

use crate::delimit::{Rules, delimit};
use crate::hit::Candidate;

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
    rules: &Rules,
    mut found: impl FnMut(Candidate),
) {
    let mut pos = from;
    for off in memchr::memchr_iter(b':', &hay[from..to]) {
        let colon = from + off;
        if colon < pos {
            continue;
        }
        if let Some(c) = evaluate(hay, colon, rules) {
            pos = c.resume;
            found(c);
        }
    }
}

/// Evaluate one trigger: a cheap test of the bytes around the colon,
/// then `delimit`.
#[inline]
pub(crate) fn evaluate(
    hay: &[u8],
    colon: usize,
    rules: &Rules,
) -> Option<Candidate> {
    if !plausible(hay, colon) {
        return None;
    }
    delimit(hay, colon, rules)
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

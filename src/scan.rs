//! Scanning: finds the trigger bytes (every `:`, with SIMD `memchr`) in
//! a range of a buffer and hands each to `delimit`, resuming after each
//! candidate it accepts. It owns the hot loop and makes no judgement of
//! its own beyond a two-byte early reject.

use crate::abbrev::{self, Abbrev};
use crate::delimit::{Rules, delimit};
use crate::hit::{Candidate, Context};

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
    if rules.abbrev.www || rules.abbrev.emails {
        return scan_abbrev(hay, from, to, rules, found);
    }
    let mut pos = from;
    for off in memchr::memchr_iter(b':', &hay[from..to]) {
        let colon = from + off;
        // The early reject stays in this loop (most colons end here).
        if colon < pos || !plausible(hay, colon) {
            continue;
        }
        if let Some(c) = delimit(hay, colon, rules) {
            pos = c.resume;
            found(c);
        }
    }
}

/// [`scan`] with abbreviated URIs and e-mail addresses: the triggers
/// are `:`, the `.` of `www.` or `ftp.`, and `@` (2396bis Appendix F).
fn scan_abbrev(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &Rules,
    mut found: impl FnMut(Candidate),
) {
    let mut pos = from;
    for off in memchr::memchr3_iter(b':', b'.', b'@', &hay[from..to]) {
        let t = from + off;
        if t < pos {
            continue;
        }
        if let Some(c) = evaluate_any(hay, t, rules) {
            pos = c.resume;
            found(c);
        }
    }
}

/// The position of the next trigger at or after `pos` (before `to`) for
/// `rules`: a `:`, or also `.` and `@` when abbreviated forms are on.
pub(crate) fn next_trigger(
    hay: &[u8],
    pos: usize,
    to: usize,
    rules: &Rules,
) -> Option<usize> {
    let area = hay.get(pos..to)?;
    let off = if rules.abbrev.www || rules.abbrev.emails {
        memchr::memchr3(b':', b'.', b'@', area)
    } else {
        memchr::memchr(b':', area)
    };
    off.map(|o| pos + o)
}

/// Evaluate the trigger at `t` of any kind. Like a scheme, the local
/// part of an address lies before its trigger; whether the trigger lies
/// inside an earlier candidate is all that decides (so that a chunk
/// scanned on its own agrees with the whole input scanned in one go).
pub(crate) fn evaluate_any(
    hay: &[u8],
    t: usize,
    rules: &Rules,
) -> Option<Candidate> {
    let max_len = rules.max_len;
    let found = match hay.get(t)? {
        b':' => return evaluate(hay, t, rules),
        b'.' if rules.abbrev.www => {
            abbrev::abbreviated_at(hay, t.checked_sub(3)?, max_len)
        }
        b'@' if rules.abbrev.emails => abbrev::email_at(hay, t, max_len),
        _ => None,
    }?;
    Some(abbreviated(found, t))
}

/// The candidate of an abbreviated URI or address found from trigger `t`.
fn abbreviated(a: Abbrev, t: usize) -> Candidate {
    Candidate {
        trigger: t,
        start: a.start,
        end: a.end,
        resume: a.end,
        context: Context::Bare,
        cleaned: None,
        alternative: None,
        abbrev: Some((a.kind, a.url)),
        too_long: false,
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

//! Delimiting: given the `:` the scanner found, decide whether a URL
//! starts there and where it begins and ends in its context, following
//! the recommendations for delimiting URLs in context (Appendix E of
//! draft-fielding-url-syntax-05 and of 2396bis, the appendix of RFC 1738).
//!
//! This stage makes no judgement about validity: that is `validate`'s.
//! It never reads more than [`LOOKBACK`] bytes before the trigger nor
//! more than the maximum URL length plus [`LOOKAHEAD_SLACK`] after it,
//! which is what lets the stream stage cut input into chunks.
//!
//! # Rules, in the order they are applied
//!
//! 1. The scheme is the run of scheme characters (RFC 3986 section 3.1:
//!    `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`) ending at the colon;
//!    leading `+ - .` are punctuation, not part of it. It must start with
//!    a letter, so a scheme never starts inside an ASCII word (`xhttp:`
//!    is the scheme `xhttp`, `1http:` is nothing), while a letter of
//!    another script may precede it (`在URL:http://a/`).
//! 2. A URL starts there when `//` follows the colon, or when the scheme
//!    is one of [`OPAQUE_SCHEMES`] and a URL character follows. The
//!    prefix `URL:` (any case) is a wrapper, not a scheme.
//! 3. The context is read from what precedes the scheme: `<`, `<URL:`,
//!    `URL:`, quotes, brackets, `](` (Markdown), `href=` / `src=`.
//! 4. In `<...>` (and `<URL:...>`) all whitespace is removed and the URL
//!    ends at `>` (Appendix E: "the whitespace should be ignored when
//!    extracting the URL"). No `>` before a blank line, `<` or `"` means
//!    the `<` was not a wrapper.
//! 5. Elsewhere the URL ends at whitespace, at a character that cannot
//!    be in a URI (controls, `<>"{}|\^` and backquote; RFC 3986 section 2
//!    and RFC 1738 section 2.2 "unsafe"), at non-ASCII punctuation, or at
//!    the closing character of its wrapper; then trailing `. , ; : ! ?`
//!    and quotes are dropped, and a closing `)`, `]` or `}` is dropped
//!    unless it balances an opener inside the URL.
//! 6. In every context, a line break directly after `-` is joined with
//!    the whitespace around it ignored (Appendix E: "the hyphen may or
//!    may not actually be part of the URL"); the hit keeps the hyphen and
//!    carries the variant without it.

use crate::abbrev;
use crate::data::registry::SchemeSet;
use crate::hit::{Candidate, Context};
use crate::validate::{is_sub_delim, is_unreserved};

/// Bytes before a trigger that delimiting may read.
pub(crate) const LOOKBACK: usize = 256;

/// Bytes past the maximum URL length after a trigger that delimiting may
/// read (the scheme and wrapper before the trigger count in the length).
pub(crate) const LOOKAHEAD_SLACK: usize = LOOKBACK + 16;

/// Longest scheme recognised in text.
const MAX_SCHEME: usize = 32;

/// Schemes without `//` that are recognised in bare text: `mailto:x@y`.
///
/// A scheme not in this list is only recognised when `//` follows its
/// colon, so that `Note: 10:30`, `Re: subject` and `std::vec` give
/// nothing.
pub const OPAQUE_SCHEMES: &[&str] = &[
    "mailto", "news", "urn", "tel", "fax", "sip", "sips", "xmpp", "magnet",
    "data", "geo", "cid", "mid", "sms",
];

/// What delimiting needs besides the bytes.
#[derive(Clone, Debug)]
pub(crate) struct Rules {
    /// Candidates longer than this many bytes of input are too long.
    pub max_len: usize,
    /// Schemes recognised without `//` besides [`OPAQUE_SCHEMES`] (those
    /// the user asked for with `--scheme`, by name or registry status).
    pub opaque: Option<SchemeSet>,
    /// Abbreviated URIs (`www.`, `ftp.`) and e-mail addresses to find
    /// too ([`crate::abbrev`]).
    pub abbrev: abbrev::Opts,
    /// How triggers are searched for: fixed, or chosen by measurement
    /// for `None`, the default ([`crate::scan`]).
    pub search: Option<crate::scan::TriggerSearch>,
}

/// Delimit the candidate whose trigger is the `:` at `colon`, if any.
pub(crate) fn delimit(
    hay: &[u8],
    colon: usize,
    rules: &Rules,
) -> Option<Candidate> {
    let max_len = rules.max_len;
    let after = hay.get(colon + 1..).unwrap_or_default();
    let hierarchical = after.starts_with(b"//");
    let url_char_after = after.first().is_some_and(|&b| starts_url_text(b));
    let url_prefix = colon >= 3 && ends_with_url(&hay[colon - 3..colon]);
    // RFC 2397 3: `data:,text` (the media type left out) starts with `,`.
    let data_comma = after.first() == Some(&b',')
        && colon >= 4
        && hay[colon - 4..colon].eq_ignore_ascii_case(b"data");
    if !hierarchical && !url_char_after && !url_prefix && !data_comma {
        // `Note: x`, `INFO: x`: only `URL:` may be followed by a space.
        return None;
    }
    let s = scheme_start(hay, colon)?;
    let scheme = &hay[s..colon];
    // (The three bytes before the colon spell `URL`: the scheme is
    // `URL` when it starts there.)
    if url_prefix && s == colon - 3 {
        return url_prefix_angle(hay, s, colon, max_len);
    }
    if !hierarchical {
        let opaque = OPAQUE_SCHEMES
            .iter()
            .any(|o| o.as_bytes().eq_ignore_ascii_case(scheme))
            || rules.opaque.as_ref().is_some_and(|set| {
                std::str::from_utf8(scheme).is_ok_and(|s| set.contains(s))
            });
        let data = data_comma && scheme.len() == 4;
        if !opaque || !(url_char_after || data) {
            return None;
        }
    }
    let (context, open) = context_before(hay, s);
    if context == Context::Angle {
        if let Some(c) = angle(hay, s, colon, max_len, context) {
            return Some(c);
        }
        return bare(hay, s, colon, max_len, Context::Bare, Open::None);
    }
    bare(hay, s, colon, max_len, context, open)
}

/// Whether three bytes spell `URL` in any case (a byte ORed with 0x20
/// is a lowercase letter only if it was that letter in either case).
#[inline]
fn ends_with_url(three: &[u8]) -> bool {
    matches!(three, [u, r, l] if u | 0x20 == b'u' && r | 0x20 == b'r' && l | 0x20 == b'l')
}

/// What opened the wrapper of a bare-delimited URL, which decides the
/// character that closes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Open {
    None,
    Paren,
    Square,
    Brace,
    Single,
}

fn is_scheme_byte(b: u8) -> bool {
    SCHEME_BYTE[b as usize]
}

/// RFC 3986 3.1: the bytes of a scheme, ALPHA DIGIT `+` `-` `.`.
static SCHEME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.');
        i += 1;
    }
    t
};

/// Rule 1: the start of the scheme that ends at `colon`.
fn scheme_start(hay: &[u8], colon: usize) -> Option<usize> {
    let floor = colon.saturating_sub(MAX_SCHEME + 1);
    let before = &hay[floor..colon];
    let run = before.iter().rev().take_while(|&&b| is_scheme_byte(b)).count();
    let mut s = colon - run;
    if s == floor && s > 0 && is_scheme_byte(hay[s - 1]) {
        return None; // a run longer than any scheme: a word, not a URL
    }
    while s < colon && matches!(hay[s], b'+' | b'-' | b'.') {
        s += 1;
    }
    if s < colon && hay[s].is_ascii_alphabetic() { Some(s) } else { None }
}

pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// ASCII bytes that may appear in a URI (RFC 3986 section 2: unreserved,
/// reserved and `%`).
#[inline]
pub(crate) fn is_uri_ascii(b: u8) -> bool {
    URI_ASCII[b as usize]
}

/// URI bytes that need no bookkeeping in [`bare`]: all but brackets and
/// the single quote.
static PLAIN: [bool; 256] = {
    let mut t = URI_ASCII;
    t[b'(' as usize] = false;
    t[b')' as usize] = false;
    t[b'[' as usize] = false;
    t[b']' as usize] = false;
    t[b'\'' as usize] = false;
    t
};

/// The end of the run of [`PLAIN`] bytes at `hay[i..limit]`. Eight bytes
/// are tested at a time with one branch: URLs are long runs of them.
pub(crate) fn plain_run(hay: &[u8], mut i: usize, limit: usize) -> usize {
    while let Some(w) = hay.get(i..i + 8).filter(|_| i + 8 <= limit) {
        if !w.iter().fold(true, |all, &b| all & PLAIN[b as usize]) {
            break;
        }
        i += 8;
    }
    while i < limit && PLAIN[hay[i] as usize] {
        i += 1;
    }
    i
}

static URI_ASCII: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = is_unreserved(b)
            || is_sub_delim(b)
            || matches!(b, b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@')
            || b == b'%';
        i += 1;
    }
    t
};

/// Whether `b` can be the first byte after `scheme:` of an opaque URL.
fn starts_url_text(b: u8) -> bool {
    (is_uri_ascii(b) && !matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?'))
        || b >= 0x80
}

/// Non-ASCII characters that end a bare URL: punctuation, symbols,
/// spaces, controls and format characters of the blocks where they live.
/// (Letters of every script stay in the URL: RFC 3987 IRIs.)
pub(crate) fn is_unicode_stop(c: char) -> bool {
    matches!(c as u32,
        0x80..=0xBF // C1 controls, NBSP, Latin-1 punctuation and symbols
        | 0xD7 | 0xF7
        | 0x2000..=0x206F // general punctuation, spaces, bidi controls
        | 0x2190..=0x2BFF // arrows, math, technical, box drawing, dingbats
        | 0x2E00..=0x2E7F // supplemental punctuation
        | 0x3000..=0x303F // CJK symbols and punctuation: 、。「」
        | 0xFE10..=0xFE1F // vertical forms
        | 0xFE30..=0xFE6F // CJK compatibility and small forms
        | 0xFEFF // byte order mark
        | 0xFF00..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40
        | 0xFF5B..=0xFF65 // fullwidth punctuation
        | 0xFFF0..=0xFFFF // specials
        | 0x1F000..=0x1FAFF // emoji and pictographs
    )
}

/// Decode the UTF-8 character at `hay[i..]`: `None` when invalid.
pub(crate) fn char_at(hay: &[u8], i: usize) -> Option<(char, usize)> {
    let b = hay[i];
    let len = match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let bytes = hay.get(i..i + len)?;
    let s = std::str::from_utf8(bytes).ok()?;
    s.chars().next().map(|c| (c, len))
}

/// The character that ends just before `hay[end]`, if valid UTF-8.
pub(crate) fn char_before(hay: &[u8], end: usize) -> Option<char> {
    let mut i = end;
    while i > 0 && end - i < 4 {
        i -= 1;
        if hay[i] & 0xC0 != 0x80 {
            return std::str::from_utf8(&hay[i..end]).ok()?.chars().next();
        }
    }
    None
}

/// Skip whitespace backwards from `i`, at most `max` bytes; returns the
/// new position and whether a line break was crossed.
fn skip_ws_back(hay: &[u8], mut i: usize, max: usize) -> (usize, bool) {
    let floor = i.saturating_sub(max);
    let mut newline = false;
    while i > floor && is_ws(hay[i - 1]) {
        newline |= hay[i - 1] == b'\n';
        i -= 1;
    }
    (i, newline)
}

/// Rule 3: the context that precedes a scheme starting at `s`.
fn context_before(hay: &[u8], s: usize) -> (Context, Open) {
    // `URL:` with or without a space (Appendix E).
    let mut j = s;
    while j > 0 && s - j < 8 && matches!(hay[j - 1], b' ' | b'\t') {
        j -= 1;
    }
    if j >= 4 && hay[j - 4..j].eq_ignore_ascii_case(b"URL:") {
        return (Context::UrlPrefix, Open::None);
    }
    let Some(&prev) = s.checked_sub(1).and_then(|p| hay.get(p)) else {
        return (Context::Bare, Open::None);
    };
    match prev {
        b'<' => (Context::Angle, Open::None),
        b if is_ws(b) => {
            // `<` then a line break, as RFC 1738's own `< URL:...>`.
            let (k, newline) = skip_ws_back(hay, s, 64);
            if newline && k > 0 && hay[k - 1] == b'<' {
                (Context::Angle, Open::None)
            } else {
                (Context::Bare, Open::None)
            }
        }
        b'"' | b'\'' => {
            let open = if prev == b'\'' { Open::Single } else { Open::None };
            if is_attribute(hay, s - 1) {
                (Context::Href, open)
            } else {
                (Context::Quote, open)
            }
        }
        b'=' if is_attribute(hay, s) => (Context::Href, Open::None),
        b'(' if s >= 2 && hay[s - 2] == b']' => {
            (Context::Markdown, Open::Paren)
        }
        b'(' => (Context::Bracket, Open::Paren),
        b'[' => (Context::Bracket, Open::Square),
        b'{' => (Context::Bracket, Open::Brace),
        b if b >= 0x80 => match char_before(hay, s) {
            Some(
                '\u{201C}' | '\u{2018}' | '\u{201E}' | '\u{00AB}' | '\u{2039}'
                | '\u{300C}' | '\u{300E}',
            ) => (Context::Quote, Open::None),
            Some('\u{FF08}' | '\u{3010}') => (Context::Bracket, Open::None),
            _ => (Context::Bare, Open::None),
        },
        _ => (Context::Bare, Open::None),
    }
}

/// Whether `hay[..i]` ends with `href=` or `src=` (any case, spaces
/// allowed around `=`), as in an HTML attribute.
fn is_attribute(hay: &[u8], i: usize) -> bool {
    let mut j = i;
    while j > 0 && i - j < 4 && matches!(hay[j - 1], b' ' | b'\t') {
        j -= 1;
    }
    if j == 0 || hay[j - 1] != b'=' {
        return false;
    }
    j -= 1;
    let k = j;
    while j > 0 && k - j < 4 && matches!(hay[j - 1], b' ' | b'\t') {
        j -= 1;
    }
    let ends = |name: &[u8]| {
        j >= name.len() && hay[j - name.len()..j].eq_ignore_ascii_case(name)
    };
    ends(b"href") || ends(b"src")
}

/// `<URL:...>`: the trigger is the colon of the `URL:` prefix. The
/// content may be a relative reference (RFC 1738 appendix, Appendix E).
fn url_prefix_angle(
    hay: &[u8],
    s: usize,
    colon: usize,
    max_len: usize,
) -> Option<Candidate> {
    let (k, _) = skip_ws_back(hay, s, 64);
    if k == 0 || hay[k - 1] != b'<' {
        return None; // a bare `URL:` prefix; the URL after it triggers
    }
    let mut content = colon + 1;
    while content < hay.len() && content - colon <= 64 && is_ws(hay[content]) {
        content += 1;
    }
    // A doubled prefix (`<URL:URL:news:a.b>`, seen when text is quoted
    // twice) is one prefix.
    if hay
        .get(content..content + 4)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"URL:"))
    {
        content += 4;
    }
    angle(hay, content, colon, max_len, Context::UrlPrefix)
}

/// Rule 4: delimit inside angle brackets from `start` to the next `>`.
fn angle(
    hay: &[u8],
    start: usize,
    trigger: usize,
    max_len: usize,
    context: Context,
) -> Option<Candidate> {
    // The closing `>` may sit just past a URL of exactly `max_len`.
    let limit = hay.len().min(start.saturating_add(max_len + 1));
    let mut spaced = false; // whitespace before the last non-ws byte
    let mut pending_ws = false; // whitespace since the last non-ws byte
    let mut end_of_text = start; // one past the last non-whitespace byte
    let mut newline_run = false; // a line break since the last non-ws
    // The quote depth of the trigger's line, once a line break needs it
    // (looking back for the line start costs more than most wrappers).
    let mut depth = None;
    let mut depth_of =
        || *depth.get_or_insert_with(|| quote_depth(hay, trigger));
    let mut i = start;
    while i < limit {
        let b = hay[i];
        if PLAIN[b as usize] {
            // A run of plain URI bytes.
            i = plain_run(hay, i + 1, limit);
        } else {
            match b {
                b'>' => break,
                b'<' | b'"' => return None,
                _ if is_ws(b) => {
                    pending_ws = true;
                    i += 1;
                    if b == b'\n' {
                        if newline_run {
                            return None; // a blank line: not one URL
                        }
                        newline_run = true;
                        // A reply's quote prefix is not part of the URL.
                        if let Some(k) = skip_quote(hay, i, depth_of()) {
                            i = k;
                        }
                    }
                    continue;
                }
                0x00..=0x1F | 0x7F => return None,
                0x80.. => {
                    let (c, len) = char_at(hay, i)?;
                    if is_unicode_stop(c) {
                        return None;
                    }
                    i += len;
                }
                _ => i += 1,
            }
        }
        end_of_text = i;
        newline_run = false;
        spaced |= pending_ws;
        pending_ws = false;
    }
    if i >= limit && start.saturating_add(max_len + 1) <= hay.len() {
        // Still inside what looks like a wrapper at the length limit:
        // too long, dropped (a bare reading would cut it at a line end).
        return Some(Candidate {
            trigger,
            start,
            end: limit,
            resume: limit,
            context,
            cleaned: None,
            alternative: None,
            too_long: true,
            abbrev: None,
        });
    }
    if i >= limit || end_of_text == start {
        return None; // no closing `>` before the end: not a wrapper
    }
    let (cleaned, alternative) = if spaced {
        remove_whitespace(hay, start, end_of_text, depth_of())
    } else {
        (None, None)
    };
    Some(Candidate {
        trigger,
        start,
        end: end_of_text,
        resume: i + 1,
        context,
        cleaned,
        alternative,
        too_long: false,
        abbrev: None,
    })
}

/// The text of a wrapped URL with its whitespace (and the quote prefix
/// of `depth` levels after each line break) removed, and, when a line
/// break came right after a `-`, the variant without that hyphen.
fn remove_whitespace(
    hay: &[u8],
    start: usize,
    end: usize,
    depth: usize,
) -> (Option<String>, Option<String>) {
    let mut text = Vec::with_capacity(end - start);
    let mut breaks = Vec::new(); // offsets in `text` of a `-` at a break
    let mut i = start;
    while i < end {
        // Copy the run of bytes up to the next whitespace in one go.
        let run =
            hay[i..end].iter().position(|&b| is_ws(b)).map_or(end, |p| i + p);
        text.extend_from_slice(&hay[i..run]);
        if run >= end {
            break;
        }
        let b = hay[run];
        i = run + 1;
        if b == b'\n' {
            if text.last() == Some(&b'-') {
                breaks.push(text.len() - 1);
            }
            if let Some(k) = skip_quote(hay, i, depth) {
                i = k.min(end);
            }
        }
    }
    breaks.dedup();
    let alternative = (!breaks.is_empty()).then(|| {
        let mut alt = text.clone();
        for &p in breaks.iter().rev() {
            alt.remove(p);
        }
        String::from_utf8(alt).unwrap_or_default()
    });
    (Some(String::from_utf8(text).unwrap_or_default()), alternative)
}

/// Brackets opened inside a URL (rule 5), so that a closing one is kept
/// when it balances and ends the URL when it closes the wrapper.
#[derive(Default)]
pub(crate) struct Brackets {
    paren: i32,
    square: i32,
}

/// What [`Brackets::step`] found at a byte.
pub(crate) enum Step {
    /// A URI byte or a non-ASCII letter: the URL goes on at this offset.
    Next(usize),
    /// The URL ends before it (a wrapper's closer, Unicode punctuation,
    /// invalid UTF-8).
    End,
    /// Another ASCII byte: the caller decides.
    Other,
}

impl Brackets {
    /// Rule 5 at `hay[i]`, a byte that is not [`PLAIN`].
    #[inline(always)]
    pub(crate) fn step(&mut self, hay: &[u8], i: usize, open: Open) -> Step {
        let Some(&b) = hay.get(i) else { return Step::End };
        if is_uri_ascii(b) {
            if self.closes(b, open) { Step::End } else { Step::Next(i + 1) }
        } else if b >= 0x80 {
            match char_at(hay, i) {
                Some((c, len)) if !is_unicode_stop(c) => Step::Next(i + len),
                _ => Step::End,
            }
        } else {
            Step::Other
        }
    }

    /// Count `b` (a URI byte that is not [`PLAIN`]); true when it closes
    /// the wrapper `open`, which ends the URL before it.
    pub(crate) fn closes(&mut self, b: u8, open: Open) -> bool {
        match b {
            b'\'' => return open == Open::Single,
            b'(' => self.paren += 1,
            b')' if self.paren == 0 && open == Open::Paren => return true,
            b')' => self.paren -= 1,
            b'[' => self.square += 1,
            b']' if self.square == 0 && open == Open::Square => return true,
            b']' => self.square -= 1,
            _ => {}
        }
        false
    }
}

/// Rule 5 and 6: delimit a URL in bare text (or a wrapper closed by a
/// character that cannot be in a URI), starting at the scheme at `s`.
fn bare(
    hay: &[u8],
    s: usize,
    colon: usize,
    max_len: usize,
    context: Context,
    open: Open,
) -> Option<Candidate> {
    let limit = hay.len().min(s.saturating_add(max_len + 1));
    let mut joins: Vec<(usize, usize)> = Vec::new(); // removed ranges
    let mut brackets = Brackets::default();
    // The quote depth of the URL's first line, once there is a join.
    let mut depth = None;
    let mut i = s;
    while i < limit {
        // The common case first: a run of URI bytes with no bracket or
        // quote.
        i = plain_run(hay, i, limit);
        if i >= limit {
            break;
        }
        match brackets.step(hay, i, open) {
            Step::Next(next) => i = next,
            Step::End => break,
            Step::Other if is_ws(hay[i]) && i > s && hay[i - 1] == b'-' => {
                // Rule 6: a hyphen at the end of the line.
                let depth =
                    *depth.get_or_insert_with(|| quote_depth(hay, colon));
                match hyphen_join(hay, i, depth) {
                    Some(next) => {
                        joins.push((i, next));
                        i = next;
                    }
                    None => break,
                }
            }
            Step::Other => break,
        }
    }
    let too_long = i - s > max_len;
    let mut end = i;
    if !too_long {
        end = trim_trailing(hay, s, end);
        joins.retain(|&(a, _)| a < end);
    }
    if end <= colon + 1 {
        return None;
    }
    // A candidate too long is never reported: its text is not needed.
    let (cleaned, alternative) = if joins.is_empty() || too_long {
        (None, None)
    } else {
        let mut text = Vec::with_capacity(end - s);
        let mut alt = Vec::with_capacity(end - s);
        let mut from = s;
        for &(a, b) in &joins {
            text.extend_from_slice(&hay[from..a]);
            alt.extend_from_slice(&hay[from..a - 1]);
            from = b;
        }
        text.extend_from_slice(&hay[from..end]);
        alt.extend_from_slice(&hay[from..end]);
        (
            Some(String::from_utf8(text).unwrap_or_default()),
            Some(String::from_utf8(alt).unwrap_or_default()),
        )
    };
    Some(Candidate {
        trigger: colon,
        start: s,
        end,
        resume: end.max(colon + 1),
        context,
        cleaned,
        alternative,
        too_long,
        abbrev: None,
    })
}

/// Rule 6: at whitespace `hay[i]` after a `-`, return where the URL goes
/// on if the whitespace is one line break (with spaces around it) and
/// the next line starts with URL text.
fn hyphen_join(hay: &[u8], i: usize, depth: usize) -> Option<usize> {
    let mut j = i;
    while j < hay.len() && matches!(hay[j], b' ' | b'\t') {
        j += 1;
    }
    if j < hay.len() && hay[j] == b'\r' {
        j += 1;
    }
    if j >= hay.len() || hay[j] != b'\n' {
        return None;
    }
    j += 1;
    while j < hay.len() && matches!(hay[j], b' ' | b'\t') {
        j += 1;
    }
    if let Some(k) = skip_quote(hay, j, depth) {
        j = k;
    }
    let b = *hay.get(j)?;
    if starts_hierarchical_url(hay, j) {
        // A list of URLs, one a line: the next line is a URL of its own.
        return None;
    }
    if (is_uri_ascii(b) || b >= 0x80) && j - i <= 64 { Some(j) } else { None }
}

/// Whether `hay[j..]` starts with `scheme://` (RFC 3986 3.1: a letter,
/// then letters, digits, `+`, `-`, `.`; at most 32 of them here).
fn starts_hierarchical_url(hay: &[u8], j: usize) -> bool {
    if !hay.get(j).is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let word = &hay[j + 1..hay.len().min(j + 33)];
    let k = j
        + 1
        + word.iter().position(|&b| !is_scheme_byte(b)).unwrap_or(word.len());
    hay.get(k..k + 3) == Some(b"://")
}

/// How far back from a trigger [`quote_depth`] looks for the start of
/// the line (a fixed distance, so the answer never depends on where the
/// input was cut into chunks).
const QUOTE_LOOKBACK: usize = 200;

/// The quote depth of the line holding `trigger`, as in mail replies:
/// the number of `>` or `|` at the start of the line, each optionally
/// followed by spaces. A line starting more than [`QUOTE_LOOKBACK`]
/// bytes back counts as unquoted.
fn quote_depth(hay: &[u8], trigger: usize) -> usize {
    let floor = trigger.saturating_sub(QUOTE_LOOKBACK);
    let line = match memchr::memrchr(b'\n', &hay[floor..trigger]) {
        Some(p) => floor + p + 1,
        None if floor == 0 => 0,
        None => return 0,
    };
    let mut depth = 0;
    let mut i = line;
    while i < trigger {
        match hay[i] {
            b'>' | b'|' => depth += 1,
            b' ' | b'\t' if depth > 0 => {}
            _ => break,
        }
        i += 1;
    }
    depth
}

/// At the start of a continuation line (`j`, after its indentation was
/// skipped or not), skip exactly `depth` quote marks, each with the
/// spaces after it; `None` when the line has no such prefix.
fn skip_quote(hay: &[u8], mut j: usize, depth: usize) -> Option<usize> {
    if depth == 0 {
        return None;
    }
    while j < hay.len() && matches!(hay[j], b' ' | b'\t') {
        j += 1;
    }
    for _ in 0..depth {
        if !matches!(hay.get(j), Some(b'>' | b'|')) {
            return None;
        }
        j += 1;
        while j < hay.len() && matches!(hay[j], b' ' | b'\t') {
            j += 1;
        }
    }
    Some(j)
}

/// Rule 5: drop trailing sentence punctuation and unbalanced closers.
pub(crate) fn trim_trailing(hay: &[u8], s: usize, mut end: usize) -> usize {
    while end > s {
        let b = hay[end - 1];
        let drop = match b {
            b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' => true,
            b')' => unbalanced(&hay[s..end], b'(', b')'),
            b']' => unbalanced(&hay[s..end], b'[', b']'),
            _ => false,
        };
        if !drop {
            break;
        }
        end -= 1;
    }
    end
}

fn unbalanced(text: &[u8], open: u8, close: u8) -> bool {
    let opens = text.iter().filter(|&&b| b == open).count();
    let closes = text.iter().filter(|&&b| b == close).count();
    closes > opens
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ends_with_url` agrees with `eq_ignore_ascii_case` for every byte
    /// at each position, the other two spelling `URL` or `url`.
    #[test]
    fn url_prefix_test_is_case_folding() {
        for base in [*b"URL", *b"url", *b"uRl"] {
            for pos in 0..3 {
                for b in 0..=255u8 {
                    let mut three = base;
                    three[pos] = b;
                    assert_eq!(
                        ends_with_url(&three),
                        three.eq_ignore_ascii_case(b"URL"),
                        "{three:?}"
                    );
                }
            }
        }
    }
}

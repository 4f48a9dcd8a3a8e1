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
//!    a letter, so `xhttp:` is the scheme `xhttp`, while a letter of
//!    another script may precede it (`在URL:http://a/`). A well-known
//!    scheme glued to the text before it starts on its own
//!    (`season.http://`, `1.http://`, `comhttp://`, `=3Dhttp://`; see
//!    [`GLUED`]), and so does a scheme after a backslash escape
//!    (`\nhttp://`, `\u003cgopher://`; see [`escape_before`]) unless the
//!    escape's letters and the scheme together are a registered scheme
//!    (`\ftp://`, `\news:`). A line of uuencoded data is not text.
//! 2. A URL starts there when `//` follows the colon, or when the scheme
//!    is one of [`OPAQUE_SCHEMES`] and a URL character follows. The
//!    prefix `URL:` (any case) is a wrapper, not a scheme.
//! 3. The context is read from what precedes the scheme: `<`, `<URL:`,
//!    `URL:`, quotes, brackets, `](` (Markdown), `href=` / `src=`. A
//!    quoted attribute value runs to its closing quote on the line.
//! 4. In `<...>` (and `<URL:...>`) all whitespace is removed and the URL
//!    ends at `>` (Appendix E: "the whitespace should be ignored when
//!    extracting the URL"). No `>` before a blank line, `<` or `"`, or a
//!    character that ends every link (UTS #58 Link_Term Hard), means the
//!    `<` was not a wrapper.
//! 5. Elsewhere the URL ends, following UTS #58 (Unicode Link Detection)
//!    with Appendix E's wrappers on top: at whitespace and controls, at
//!    `<`, `>`, `\` and backquote (not URI characters, RFC 3986 section
//!    2; in text they start tags and escapes; but a byte escape `\xHH`
//!    of a byte of 0x80 or more is that byte, see [`byte_escape`]), at a
//!    `"` before anything but a letter or digit, at a non-ASCII
//!    character of Link_Term Hard, at a closer that pairs with no opener
//!    inside the URL (Link_Bracket; this includes its wrapper's closer),
//!    or at the end of its authority if that is not `/`, `?` or `#`.
//!    `|`, `^`, `{`...`}` and non-ASCII Soft characters stay inside it
//!    (printed percent-encoded where RFC 3986 requires it). Then what
//!    cannot end a URL is dropped: Soft characters (`. , ; : ! ? ' "`
//!    and their non-ASCII kin), an opener or a footnote marker (`[2]`)
//!    at the end, a `-` ending a host, the `*`, `_` or `~` closing
//!    emphasis opened before the URL; a `mailto:` URL ends with its
//!    domain unless header fields follow.
//! 6. In every context, a line break directly after `-` is joined with
//!    the whitespace around it ignored (Appendix E: "the hyphen may or
//!    may not actually be part of the URL"); the hit keeps the hyphen and
//!    carries the variant without it. A line break inside a
//!    percent-escape (`%` then the line end, the hex digits on the next
//!    line) is joined too.

use crate::data::psl::has_public_suffix;
use crate::data::registry::{self, SchemeSet};
use crate::data::uts58::{LinkTerm, link_bracket, link_term};
use crate::hit::{Candidate, Context};
use crate::lex::{
    char_at, char_before, is_sub_delim, is_unicode_stop, is_unreserved,
};
use crate::sieve::ByteTables;
use crate::validate::{Known, Quick};

/// Bytes before a trigger that delimiting may read.
pub(crate) const LOOKBACK: usize = 256;

/// Bytes past the maximum URL length after a trigger that delimiting may
/// read (the scheme and wrapper before the trigger count in the length).
pub(crate) const LOOKAHEAD_SLACK: usize = LOOKBACK + 16;

/// Longest scheme recognised in text.
const MAX_SCHEME: usize = 32;

pub use crate::scheme::OPAQUE_SCHEMES;

/// What delimiting needs besides the bytes.
#[derive(Clone, Debug)]
pub(crate) struct Rules {
    /// Candidates longer than this many bytes of input are too long.
    pub max_len: usize,
    /// Schemes recognised without `//` besides [`OPAQUE_SCHEMES`] (those
    /// the user asked for with `--scheme`, by name or registry status).
    pub opaque: Option<SchemeSet>,
    /// Defanged URLs are read too ([`crate::refang`]): a colon written
    /// `[:]` or `[://]` is a trigger, and `\.` stands for a dot.
    pub refang: bool,
}

/// Delimit the candidate whose trigger is the `:` at `colon`, if any.
#[inline]
pub(crate) fn delimit(
    hay: &[u8],
    colon: usize,
    rules: &Rules,
) -> Option<Candidate> {
    delimit_by(hay, colon, rules, true)
}

/// [`delimit`], with the walk of the most common shape of URL
/// ([`common_shape`]) tried first where `common` says so (tests compare
/// the candidates with and without it).
fn delimit_by(
    hay: &[u8],
    colon: usize,
    rules: &Rules,
    common: bool,
) -> Option<Candidate> {
    let max_len = rules.max_len;
    let url_prefix = colon >= 3 && ends_with_url(&hay[colon - 3..colon]);
    // The colon of a `URL:` prefix (`URL` after no scheme byte): its URL
    // is the one after it inside `<URL:...>` (a bare prefix's URL
    // triggers itself). Told before the refang, `data:,` and scheme tests,
    // which it needs none of.
    if url_prefix && (colon == 3 || !is_scheme_byte(hay[colon - 4])) {
        return url_prefix_angle(hay, colon - 3, colon, max_len);
    }
    if rules.refang
        && colon > 0
        && hay[colon - 1] == b'['
        && let Some(c) = defanged_colon(hay, colon, max_len)
    {
        return Some(c);
    }
    let after = hay.get(colon + 1..).unwrap_or_default();
    let hierarchical = after.starts_with(b"//");
    let url_char_after = after.first().is_some_and(|&b| starts_url_text(b))
        || byte_escape(hay, colon + 1);
    // RFC 2397 3: `data:,text` (the media type left out) starts with `,`.
    let data_comma = after.first() == Some(&b',')
        && colon >= 4
        && hay[colon - 4..colon].eq_ignore_ascii_case(b"data");
    if !hierarchical && !url_char_after && !data_comma {
        // `Note: x`, `INFO: x`: only `URL:` may be followed by a space,
        // and a bare `URL:` prefix has no URL of its own.
        return None;
    }
    let s = scheme_start(hay, colon)?;
    if url_prefix && s == colon - 3 {
        // `URL` after scheme bytes that do not start the scheme (`-URL:`,
        // `=3DURL:`): not after `<`, so a bare prefix, whose URL triggers
        // itself.
        return None;
    }
    let scheme = &hay[s..colon];
    if !hierarchical {
        // `mailto:http://a/x` (a link written into the wrong field) is not
        // an address: the URL after it is the URL.
        if starts_hierarchical_url(hay, colon + 1) {
            return None;
        }
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
    if uuencoded_line(hay, s, colon) {
        return None;
    }
    let (context, open) = context_before(hay, s);
    if context == Context::Href
        && let Some(c) = quoted_value(hay, s, colon, max_len)
    {
        return Some(c);
    }
    if context == Context::Angle {
        if common
            && hierarchical
            && let Some(c) =
                common_shape(hay, s, colon, max_len, context, open, true)
        {
            return Some(c);
        }
        if let Some(c) = angle(hay, s, colon, max_len, context) {
            return Some(c);
        }
        return bare(
            hay,
            s,
            colon,
            max_len,
            Context::Bare,
            Open::None,
            rules.refang,
        );
    }
    if common
        && hierarchical
        && let Some(c) =
            common_shape(hay, s, colon, max_len, context, open, false)
    {
        return Some(c);
    }
    bare(hay, s, colon, max_len, context, open, rules.refang)
}

/// A colon defanged as `[:]` (before `//`) or `[://]`, as security
/// reports write URLs so that nobody follows them (`http[:]//x[.]y/`,
/// `hxxps[://]x[.]y/`): the URL starts at the scheme before the `[`
/// and is delimited as in bare text; `refang` reads it.
fn defanged_colon(
    hay: &[u8],
    colon: usize,
    max_len: usize,
) -> Option<Candidate> {
    let after = hay.get(colon + 1..)?;
    if !(after.starts_with(b"]//") || after.starts_with(b"//]")) {
        return None;
    }
    let s = scheme_start(hay, colon - 1)?;
    let (context, open) = context_before(hay, s);
    let open = if context == Context::Angle { Open::None } else { open };
    bare(hay, s, colon, max_len, context, open, true)
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

/// [`crate::scheme::is_scheme_byte`], by one lookup in a table.
fn is_scheme_byte(b: u8) -> bool {
    SCHEME_BYTE[b as usize]
}

/// RFC 3986 3.1: the bytes of a scheme, ALPHA DIGIT `+` `-` `.`.
static SCHEME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = crate::scheme::is_scheme_byte(b);
        i += 1;
    }
    t
};

/// Rule 1: the start of the scheme that ends at `colon`.
fn scheme_start(hay: &[u8], colon: usize) -> Option<usize> {
    if let Some(first) = glued_alone_at(hay, colon) {
        return Some(first);
    }
    let floor = colon.saturating_sub(MAX_SCHEME + 1);
    let before = &hay[floor..colon];
    let run = before.iter().rev().take_while(|&&b| is_scheme_byte(b)).count();
    scheme_start_by_rules(hay, colon, floor, colon - run)
}

/// [`scheme_start`] by each of its rules, for the run of scheme bytes
/// `hay[first..colon]` (at most `MAX_SCHEME + 1` of them, from `floor`).
fn scheme_start_by_rules(
    hay: &[u8],
    colon: usize,
    floor: usize,
    first: usize,
) -> Option<usize> {
    // A run longer than any scheme is a word, not a scheme.
    let word = first == floor && first > 0 && is_scheme_byte(hay[first - 1]);
    let registered =
        |b: &[u8]| std::str::from_utf8(b).is_ok_and(registry::is_registered);
    // A backslash escape before the scheme is not part of it, unless
    // the whole run is a registered scheme (`\ftp://` in a Windows path,
    // `x\tel:+1555`).
    let escape = escape_before(hay, first, colon);
    let mut first = if escape > 0 && !registered(&hay[first..colon]) {
        first + escape
    } else {
        first
    };
    // A quoted-printable escape before a scheme is text (`href=3Dhttp:`,
    // read undecoded; `dhttp` is a registered scheme too).
    if first > 0
        && hay[first - 1] == b'='
        && colon - first > 2
        && hay[first..first + 2]
            .iter()
            .all(|&b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
    {
        first += 2;
    }
    let mut s = first;
    while s < colon && matches!(hay[s], b'+' | b'-' | b'.') {
        s += 1;
    }
    // Digits before a registered scheme are text when the scheme is
    // followed by `//` or the digits end a percent escape (`%22file://`,
    // `%22mailto:`, a percent-encoded quote before it). Other digits
    // glued to a scheme without `//` make a word, not a URL (an HTML id
    // `m_-1561055cid:70A3E5A1`).
    if s < colon && hay[s].is_ascii_digit() {
        let t = s + hay[s..colon]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let slashes = hay[colon + 1..].starts_with(b"//");
        // `%22`, or `%2522` encoded twice.
        let escape = matches!(t - s, 2 | 4) && s > 0 && hay[s - 1] == b'%';
        if (slashes || escape) && registered(&hay[t..colon]) {
            s = t;
        }
    }
    let whole =
        (!word && s < colon && hay[s].is_ascii_alphabetic()).then_some(s);
    match glued(hay, first, colon) {
        Some(w) if whole.is_none_or(|s| !registered(&hay[s..colon])) => {
            Some(w)
        }
        _ => whole,
    }
}

/// The length of the letters of a backslash escape at the start of the
/// run `hay[first..end]` (a scheme, a host, an address), 0 if there is
/// none or it would leave the run empty: a JSON, C or Python string's
/// `\n`, `\t`, `\r` and their kin (length 1), `\xHH`, `\uHHHH`,
/// `\UHHHHHHHH` (`"line\nhttp://a.example/"` is a line break, then the
/// URL). The backslash must not be escaped itself: after `\\` the letter
/// is text (the backslashes are counted back 32 at most, within
/// [`LOOKBACK`]).
#[inline]
pub(crate) fn escape_before(hay: &[u8], first: usize, end: usize) -> usize {
    if first == 0 || hay[first - 1] != b'\\' {
        return 0;
    }
    escape_after_backslash(hay, first, end)
}

/// [`escape_before`] where `hay[first - 1]` is a backslash: out of line,
/// as few runs follow one.
#[cold]
#[inline(never)]
fn escape_after_backslash(hay: &[u8], first: usize, end: usize) -> usize {
    let run = &hay[first.saturating_sub(32)..first];
    let backslashes = run.iter().rev().take_while(|&&b| b == b'\\');
    if backslashes.count() % 2 == 0 {
        return 0;
    }
    let hex = |n: usize| {
        hay.get(first + 1..first + 1 + n)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    };
    let len = match hay[first] {
        b'a' | b'b' | b'e' | b'f' | b'n' | b'r' | b't' | b'v' => 1,
        b'x' if hex(2) => 3,
        b'u' if hex(4) => 5,
        b'U' if hex(8) => 9,
        _ => 0,
    };
    if first + len < end { len } else { 0 }
}

/// Whether a backslash escape (see [`escape_before`]) ends right before
/// `s`.
pub(crate) fn escape_ends_at(hay: &[u8], s: usize) -> bool {
    [1, 3, 5, 9].into_iter().any(|k| {
        s.checked_sub(k)
            .is_some_and(|f| f > 0 && escape_before(hay, f, s + 1) == k)
    })
}

/// Schemes that text is often glued to, longest first where one ends
/// another.
const GLUED: &[&[u8]] = &[b"https", b"http", b"mailto", b"news", b"ftp"];

/// The start of the scheme ending at `colon` when the whole run of
/// scheme bytes before it is one of [`GLUED`] (in any case) after no `\`
/// or `=`: the common case, where no rule of [`scheme_start`] moves the
/// start (the escapes, which might, are left to them).
#[inline]
fn glued_alone_at(hay: &[u8], colon: usize) -> Option<usize> {
    GLUED.iter().find_map(|w| {
        let first = colon.checked_sub(w.len())?;
        let alone = first == 0
            || !(is_scheme_byte(hay[first - 1])
                || matches!(hay[first - 1], b'\\' | b'='));
        (alone && is_word(&hay[first..colon], w)).then_some(first)
    })
}

/// Whether `b` spells `w`, a word of lowercase letters ([`GLUED`]), in
/// any case: a byte ORed with 0x20 is a lowercase letter only if it was
/// that letter in either case, so only `b` needs folding.
#[inline]
fn is_word(b: &[u8], w: &[u8]) -> bool {
    b.len() == w.len() && b.iter().zip(w).all(|(&x, &y)| x | 0x20 == y)
}

/// Rule 1 for a scheme glued to the text before it (`the season.http://`,
/// `lists.example.comhttp://`, `GUARANTEEDhttp://`, `1.http://`, `=3D`
/// of quoted-printable): where the run `hay[first..colon]` ends with
/// one of [`GLUED`] after a prefix that cannot be part of a scheme name
/// or is a word of its own (a `.` in it, a digit first, two or more
/// letters), directly after a letter, digit or `.` (so `git+https` and
/// `svn+ssh` stay whole), the start of that scheme.
fn glued(hay: &[u8], first: usize, colon: usize) -> Option<usize> {
    let run = colon - first;
    let ends =
        |w: &[u8]| run >= w.len() && is_word(&hay[colon - w.len()..colon], w);
    let w = *GLUED.iter().find(|w| ends(w))?;
    if run == w.len() {
        return None; // the scheme alone
    }
    let p = colon - w.len();
    let prefix = &hay[first..p];
    let joined =
        matches!(hay[p - 1], b'.') || hay[p - 1].is_ascii_alphanumeric();
    let text = prefix.contains(&b'.')
        || prefix[0].is_ascii_digit()
        || prefix.len() >= 2;
    (joined && text).then_some(p)
}

pub(crate) const fn is_ws(b: u8) -> bool {
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

/// The end of the run of [`PLAIN`] bytes at `hay[i..limit]`. URLs are
/// long runs of them: eight bytes are tested at a time with one branch,
/// and past 16, 64 at a time where the CPU has AVX-512 or AVX2 (with
/// AVX2 alone, while 32 or more remain; a short run, as between brackets
/// or line breaks, would pay more for the vector step's latency than it
/// saves).
#[inline]
pub(crate) fn plain_run(hay: &[u8], i: usize, limit: usize) -> usize {
    let short = limit.min(i.saturating_add(16));
    let j = table_run(hay, i, short);
    if j < short || short == limit {
        return j;
    }
    long_plain_run(hay, j, limit)
}

#[inline(never)]
fn long_plain_run(hay: &[u8], mut i: usize, limit: usize) -> usize {
    while let Some(w) = hay.get(i..limit) {
        let Some(run) = crate::sieve::ascii_run(w, &PLAIN_SET) else {
            break;
        };
        i += run;
        if run < 64 || i >= limit {
            return i;
        }
    }
    table_run(hay, i, limit)
}

/// [`plain_run`] with the table alone.
#[inline]
fn table_run(hay: &[u8], mut i: usize, limit: usize) -> usize {
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

/// [`PLAIN`] for [`crate::sieve::ascii_run`].
static PLAIN_SET: ByteTables<1> = ByteTables::set({
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = PLAIN[i] as u8;
        i += 1;
    }
    t
});

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
    let Some(&prev) = s.checked_sub(1).and_then(|p| hay.get(p)) else {
        return (Context::Bare, Open::None);
    };
    // `URL:` with or without a space (Appendix E), looked for after a
    // colon, space or tab only.
    if matches!(prev, b':' | b' ' | b'\t') {
        let mut j = s;
        while j > 0 && s - j < 8 && matches!(hay[j - 1], b' ' | b'\t') {
            j -= 1;
        }
        if j >= 4 && hay[j - 4..j].eq_ignore_ascii_case(b"URL:") {
            return (Context::UrlPrefix, Open::None);
        }
    }
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

/// Rule 3 for a quoted HTML attribute value (`href="..."`): the quote
/// fixes the URL's extent, so it runs to the closing quote on the same
/// line, spaces and all (the URL Standard strips the spaces at either
/// end; what RFC 3986 does not allow inside is percent-encoded when the
/// hit is built). `None` when no closing quote comes first, for bare
/// delimiting to decide.
fn quoted_value(
    hay: &[u8],
    s: usize,
    colon: usize,
    max_len: usize,
) -> Option<Candidate> {
    let quote = hay[s - 1];
    if !matches!(quote, b'"' | b'\'') {
        return None;
    }
    let limit = hay.len().min(s.saturating_add(max_len + 1));
    let other = if quote == b'"' { b'\'' } else { b'"' };
    // One pass to the closing quote, noting whether the other quote
    // comes before it (most values hold no other quote, so the
    // concatenation check below is skipped).
    let mut has_other = false;
    let close = s + hay[s..limit].iter().position(|&b| {
        has_other |= b == other;
        b == quote || matches!(b, b'\n' | b'<' | b'>')
    })?;
    if hay[close] != quote {
        return None;
    }
    // Code that builds the value (`SRC="http://a/x?t=' + t + '"` in a
    // script) is not one value: its other quote next to a `+` ends the
    // URL as in bare text.
    let value = &hay[s..close];
    let concatenated = has_other
        && value.iter().enumerate().any(|(k, &b)| {
            b == other
                && (value[k + 1..].iter().find(|&&c| c != b' ') == Some(&b'+')
                    || value[..k].iter().rev().find(|&&c| c != b' ')
                        == Some(&b'+'))
        });
    if concatenated {
        return None;
    }
    let mut end = close;
    while end > colon + 1 && is_ws(hay[end - 1]) {
        end -= 1;
    }
    if end <= colon + 1 || std::str::from_utf8(&hay[s..end]).is_err() {
        return None;
    }
    Some(Candidate {
        trigger: colon,
        start: s,
        end,
        resume: close + 1,
        context: Context::Href,
        cleaned: None,
        alternative: None,
        too_long: false,
        abbrev: None,
        encoded: None,
        quick: Known::Unknown,
    })
}

/// Rule 1: whether `hay[s..e]` (a scheme, or a host without a scheme),
/// which holds no lowercase letter, lies on a line of uuencoded data
/// (POSIX uuencode: a length character, then four characters from space
/// to `` ` `` for every three bytes), whose characters can spell
/// `D://J#(` but never a lowercase letter.
#[inline]
pub(crate) fn uuencoded_line(hay: &[u8], s: usize, e: usize) -> bool {
    // Most schemes are written in lower case: told here, without a call.
    if hay.get(s..e).is_none_or(|h| h.iter().any(u8::is_ascii_lowercase)) {
        return false;
    }
    uuencoded_line_at(hay, s, e)
}

/// [`uuencoded_line`] for a run without a lowercase letter: the line
/// around it read as uuencoded data.
#[inline(never)]
fn uuencoded_line_at(hay: &[u8], s: usize, e: usize) -> bool {
    let floor = s.saturating_sub(62);
    let Some(nl) =
        memchr::memrchr(b'\n', hay.get(floor..s).unwrap_or_default())
    else {
        return false;
    };
    let line_start = floor + nl + 1;
    let ceil = hay.len().min(line_start + 64);
    let rest = hay.get(e..ceil).unwrap_or_default();
    let Some(mut line_end) = memchr::memchr(b'\n', rest).map(|p| e + p) else {
        return false;
    };
    if hay.get(line_end.wrapping_sub(1)) == Some(&b'\r') {
        line_end -= 1;
    }
    let line = hay.get(line_start..line_end).unwrap_or_default();
    let Some(&len_char) = line.first() else { return false };
    let n = usize::from(len_char.wrapping_sub(b' ') & 63);
    let want = 1 + n.div_ceil(3) * 4;
    n > 0
        && (line.len() == want || line.len() == want + 1)
        && line.iter().all(|&b| (b' '..=b'`').contains(&b))
}

/// `<URL:...>`: the trigger is the colon of the `URL:` prefix. The
/// content may be a relative reference (RFC 1738 appendix, Appendix E).
fn url_prefix_angle(
    hay: &[u8],
    s: usize,
    colon: usize,
    max_len: usize,
) -> Option<Candidate> {
    let mut content = colon + 1;
    while content < hay.len() && content - colon <= 64 && is_ws(hay[content]) {
        content += 1;
    }
    // What `angle` would stop at before anything else: looked at first,
    // so that `<URL:<URL:` repeated costs one look a prefix.
    if matches!(hay.get(content), Some(b'<' | b'"')) {
        return None;
    }
    let (k, _) = skip_ws_back(hay, s, 64);
    if k == 0 || hay[k - 1] != b'<' {
        return None; // a bare `URL:` prefix; the URL after it triggers
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
                    // The wrapper fixes the extent: only what ends every
                    // link (UTS #58 Hard: spaces, controls) says that the
                    // `<` was not a wrapper.
                    let (c, len) = char_at(hay, i)?;
                    if link_term(c) == LinkTerm::Hard {
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
            resume: after_run(hay, limit),
            context,
            cleaned: None,
            alternative: None,
            too_long: true,
            abbrev: None,
            encoded: None,
            quick: Known::Unknown,
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
        encoded: None,
        quick: Known::Unknown,
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

/// Most brackets open at once inside a URL: one more ends it.
const MAX_NESTING: usize = 16;

/// The brackets opened inside a URL (rule 5, UTS #58 Link_Bracket), so
/// that a closing one is kept when it pairs with the innermost one open
/// and ends the URL otherwise.
#[derive(Default)]
pub(crate) struct Brackets {
    open: [char; MAX_NESTING],
    depth: usize,
    /// `\.` is a defanged dot, part of the URL ([`crate::refang`]).
    pub refang: bool,
    /// A byte escape ([`byte_escape`]) is part of the URL.
    pub byte_escapes: bool,
    /// A byte escape was stepped over.
    pub escaped: bool,
}

/// What [`Brackets::step`] found at a byte.
pub(crate) enum Step {
    /// A character that belongs to the URL (or may, if more follows):
    /// the URL goes on at this offset.
    Next(usize),
    /// The URL ends before it (a closer that pairs with nothing, its
    /// wrapper's closing quote, a character that ends links, invalid
    /// UTF-8).
    End,
    /// Another ASCII byte (whitespace, `<`, `>`, `\`, backquote, a
    /// control): the caller decides.
    Other,
}

impl Brackets {
    /// Rule 5 at `hay[i]`, a byte that is not [`PLAIN`]. `quote` says
    /// whether `"` may be inside the URL (in bare text, where UTS #58
    /// counts it as Soft; elsewhere it closes the wrapper).
    #[inline(always)]
    pub(crate) fn step(
        &mut self,
        hay: &[u8],
        i: usize,
        open: Open,
        quote: bool,
    ) -> Step {
        let Some(&b) = hay.get(i) else { return Step::End };
        match b {
            // A bracket that opens another URL is that URL's wrapper
            // (`a.gif[http://a.example/a.gif]`, as HTML-to-text writes).
            b'(' | b'[' | b'{' if starts_hierarchical_url(hay, i + 1) => {
                Step::End
            }
            b'(' | b'[' | b'{' => self.push(char::from(b), i + 1),
            b')' | b']' | b'}' => self.close(char::from(b), i + 1),
            b'\'' if open == Open::Single => Step::End,
            // Soft (UTS #58): inside the URL when more of it follows.
            b'\'' => Step::Next(i + 1),
            // Soft (UTS #58) in bare text, but only before a letter or
            // digit: a quote before a delimiter closes a JSON or CSV
            // string that the URL ends (`"...PUT http://a/x","next"`).
            b'"' if quote
                && hay.get(i + 1).is_some_and(|&n| {
                    n.is_ascii_alphanumeric() || n >= 0x80
                }) =>
            {
                Step::Next(i + 1)
            }
            // Include (UTS #58); percent-encoded when printed.
            b'|' | b'^' => Step::Next(i + 1),
            b'\\' if self.refang && hay.get(i + 1) == Some(&b'.') => {
                Step::Next(i + 2)
            }
            b'\\' if self.byte_escapes && byte_escape(hay, i) => {
                self.escaped = true;
                Step::Next(i + 4)
            }
            0x80.. => match char_at(hay, i) {
                Some((c, len)) => match link_term(c) {
                    LinkTerm::Include | LinkTerm::Soft => Step::Next(i + len),
                    LinkTerm::Open => self.push(c, i + len),
                    LinkTerm::Close => self.close(c, i + len),
                    LinkTerm::Hard => Step::End,
                },
                None => Step::End,
            },
            _ if is_uri_ascii(b) => Step::Next(i + 1),
            _ => Step::Other,
        }
    }

    fn push(&mut self, c: char, next: usize) -> Step {
        match self.open.get_mut(self.depth) {
            Some(slot) => {
                *slot = c;
                self.depth += 1;
                Step::Next(next)
            }
            None => Step::End,
        }
    }

    /// A closer pairs with the innermost opener still open, or ends the
    /// URL (UTS #58: Close with an empty stack or another opener on top).
    fn close(&mut self, c: char, next: usize) -> Step {
        let opener = match c {
            ')' => '(',
            ']' => '[',
            '}' => '{',
            _ => match link_bracket(c) {
                Some(o) => o,
                None => return Step::End,
            },
        };
        match self.depth.checked_sub(1) {
            Some(top) if self.open[top] == opener => {
                self.depth = top;
                Step::Next(next)
            }
            _ => Step::End,
        }
    }
}

/// Rule 5 and 6: delimit a URL in bare text (or a wrapper closed by a
/// character that cannot be in a URI), starting at the scheme at `s`.
#[allow(clippy::too_many_arguments)]
fn bare(
    hay: &[u8],
    s: usize,
    colon: usize,
    max_len: usize,
    context: Context,
    open: Open,
    refang: bool,
) -> Option<Candidate> {
    let limit = hay.len().min(s.saturating_add(max_len + 1));
    let mut joins: Vec<(usize, usize)> = Vec::new(); // removed ranges
    let mut brackets =
        Brackets { refang, byte_escapes: true, ..Brackets::default() };
    let quote = context == Context::Bare;
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
        match brackets.step(hay, i, open, quote) {
            Step::Next(next) => i = next,
            Step::End => break,
            Step::Other if is_ws(hay[i]) && open_escape(hay, s, i) > 0 => {
                // Rule 6: a line break inside a percent-escape.
                match escape_join(hay, i, open_escape(hay, s, i)) {
                    Some(next) => {
                        joins.push((i, next));
                        i = next;
                    }
                    None => break,
                }
            }
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
        end = authority_end(hay, colon, end, &joins, refang);
        loop {
            end = trim_trailing(hay, s, end);
            end = host_end(hay, colon, end);
            end = mailto_end(hay, s, colon, end);
            joins.retain(|&(a, _)| a < end);
            // A line break joined for nothing: the URL ends before it.
            match joins.last() {
                Some(&(a, b)) if b >= end => {
                    end = a;
                    joins.pop();
                }
                _ => break,
            }
        }
    }
    if end <= colon + 1 {
        return None;
    }
    // A candidate too long is never reported: its text is not needed.
    let escaped = brackets.escaped;
    let (cleaned, alternative) = if (joins.is_empty() && !escaped) || too_long
    {
        (None, None)
    } else {
        let mut text = Vec::with_capacity(end - s);
        let mut alt = Vec::with_capacity(end - s);
        let mut from = s;
        // The variant leaves out the hyphens of hyphen breaks (a break
        // inside a percent-escape has no such variant).
        let mut hyphens = false;
        for &(a, b) in &joins {
            let hyphen = hay[a - 1] == b'-';
            hyphens |= hyphen;
            text.extend_from_slice(&hay[from..a]);
            alt.extend_from_slice(&hay[from..a - usize::from(hyphen)]);
            from = b;
        }
        text.extend_from_slice(&hay[from..end]);
        alt.extend_from_slice(&hay[from..end]);
        if escaped {
            percent_encode_escapes(&mut text);
            percent_encode_escapes(&mut alt);
        }
        (
            Some(String::from_utf8(text).unwrap_or_default()),
            hyphens.then(|| String::from_utf8(alt).unwrap_or_default()),
        )
    };
    let resume =
        if too_long { after_run(hay, end) } else { end.max(colon + 1) };
    Some(Candidate {
        trigger: colon,
        start: s,
        end,
        resume,
        context,
        cleaned,
        alternative,
        too_long,
        abbrev: None,
        encoded: None,
        quick: Known::Unknown,
    })
}

/// Rules 4 to 6 and validation's fast path at once, for the most common
/// shape of URL in text: `scheme://`, a host name (labels of letters,
/// digits and `- _ ~` between dots) and a decimal port, then a path,
/// query and fragment of bytes that need no bookkeeping (no bracket,
/// quote, backslash or non-ASCII character, no escape but `%` and two
/// hex digits, no `.` after a `/` in the path, one `#` at most). In
/// `<...>` (`wrapped`) it ends at `>`, as [`angle`] ends it; elsewhere
/// at a byte that ends it in [`bare`] there and then (whitespace, `<`,
/// `>`, a backquote, a control, a closer with no opener before it, the
/// quote that closes the wrapper), with sentence punctuation before it
/// trimmed, after a letter, digit or `/`, which no other trimming
/// removes and no line break after joins (rule 6). [`bare`] and
/// [`angle`] give that extent too (nothing they join, trim or cut at the
/// host is there), and the text is valid by
/// [`crate::validate::quick_check`] with the path told here, which the
/// candidate carries. Anything else, or a URL of more than 254 bytes
/// (or past the length limit or the text), is left to them: `None`. A
/// test compares both on random text.
fn common_shape(
    hay: &[u8],
    s: usize,
    colon: usize,
    max_len: usize,
    context: Context,
    open: Open,
    wrapped: bool,
) -> Option<Candidate> {
    let limit = hay
        .len()
        .min(s.saturating_add(max_len + 1))
        .min(s + usize::from(u8::MAX));
    // The caller saw `//` after the colon. `mailto://` would end with
    // its address's domain (`mailto_end`).
    debug_assert_eq!(hay.get(colon + 1..colon + 3), Some(&b"//"[..]));
    if is_word(&hay[s..colon], b"mailto") {
        return None;
    }
    let host = colon + 3;
    if limit <= host {
        return None;
    }
    let ends = Ends { wrapped, context, open };
    let Extent { stop, path_start, path_end, plain } =
        match common_extent_by_masks(hay, host, limit, ends) {
            Some(known) => known?,
            None => common_extent(hay, host, limit, ends)?,
        };
    let mut end = stop;
    if !wrapped {
        // Sentence punctuation after the URL (`trim_trailing`).
        while matches!(hay[end - 1], b'.' | b',' | b';' | b':' | b'!' | b'?') {
            end -= 1;
        }
        let last = hay[end - 1];
        if !(last.is_ascii_alphanumeric() || last == b'/') {
            return None;
        }
    }
    // What trimming left of the path (a host's final `.` and a `?` or
    // `#` at the end may be gone).
    let path_start = path_start.min(end);
    let path_end = path_end.unwrap_or(end).min(end);
    let quick = Quick {
        scheme_len: colon - s,
        path: (path_start - s, path_end - s),
        dots: false,
        plain,
    };
    Some(Candidate {
        trigger: colon,
        start: s,
        end,
        resume: if wrapped { end + 1 } else { end },
        context,
        cleaned: None,
        alternative: None,
        too_long: false,
        abbrev: None,
        encoded: None,
        quick: Known::accepted(quick),
    })
}

/// What [`common_shape`] finds before trimming: the byte that ends the
/// URL (not part of it), where the path starts, where the path ends at
/// a `?` or `#` (`None`: at `stop`), and whether the host has no `_` or
/// `~` and nothing after it a `;` ([`Quick::plain`]).
#[derive(Debug, PartialEq, Eq)]
struct Extent {
    stop: usize,
    path_start: usize,
    path_end: Option<usize>,
    plain: bool,
}

/// [`common_shape`]'s walk from the host at `hay[host]` (`host <
/// limit`), a byte or a run at a time: the reference that
/// [`common_extent_by_masks`] must agree with, and the walk of URLs
/// longer than its window.
fn common_extent(
    hay: &[u8],
    host: usize,
    limit: usize,
    ends: Ends,
) -> Option<Extent> {
    // The host: labels of at most 63 bytes, none empty or starting or
    // ending with `-` (an empty last one, after a final `.`, is the
    // root).
    let mut i = host;
    let mut label = host; // where the label starts
    // RFC 1738 5 hostname: no `_` or `~` (nor `;` after the host).
    let mut plain = true;
    loop {
        // Letters and digits, eight at a time where they run on.
        i = run_of(hay, i, limit, &ALNUM);
        match hay[..limit].get(i) {
            Some(b'-') if i == label => return None,
            Some(b'-') => i += 1,
            Some(b'_' | b'~') => {
                plain = false;
                i += 1;
            }
            Some(b'.') if i == label || hay[i - 1] == b'-' => return None,
            Some(b'.') if i - label > 63 => return None,
            Some(b'.') => {
                i += 1;
                label = i;
            }
            _ => break,
        }
    }
    if i == host || i - label > 63 || i > label && hay[i - 1] == b'-' {
        return None;
    }
    let path_start = after_host(hay, i, limit)?;
    let mut i = path_start;
    let mut path_end = None;
    let mut fragment = false;
    let stop = loop {
        i = run_of(hay, i, limit, &COMMON_RUN);
        if i >= limit {
            return None;
        }
        match hay[i] {
            b';' => {
                plain = false;
                i += 1;
            }
            // A `.` after `/` in the path may make a dot segment.
            b'.' if path_end.is_none() && hay[i - 1] == b'/' => return None,
            b'.' => i += 1,
            b'%' if hay.get(i + 1..i + 3).is_some_and(|h| {
                i + 3 <= limit && h.iter().all(u8::is_ascii_hexdigit)
            }) =>
            {
                i += 3;
            }
            b'?' => {
                path_end.get_or_insert(i);
                i += 1;
            }
            b'#' if !fragment => {
                fragment = true;
                path_end.get_or_insert(i);
                i += 1;
            }
            _ if ends.at(hay, i) => break i,
            _ => return None,
        }
    };
    Some(Extent { stop, path_start, path_end, plain })
}

/// After a host ending at `hay[i]`: a port of one to five digits, at
/// most 65535, then `/ ? #` or the URL's end (not userinfo, an escape);
/// where the path starts.
#[inline(always)]
fn after_host(hay: &[u8], mut i: usize, limit: usize) -> Option<usize> {
    if hay[..limit].get(i) == Some(&b':') {
        let digits = run_of(hay, i + 1, limit, &DIGIT);
        let port = &hay[i + 1..digits];
        if !(1..=5).contains(&port.len())
            || port.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
                > 65535
        {
            return None;
        }
        i = digits;
    }
    if let Some(&b) = hay.get(i)
        && !matches!(b, b'/' | b'?' | b'#')
        && (COMMON_PATH[usize::from(b)] || b == b'%' || b == b'.')
    {
        return None;
    }
    Some(i)
}

/// What ends a URL of [`common_shape`]: its wrapper (`<...>`), its
/// context and the opener before it.
#[derive(Clone, Copy, Debug)]
struct Ends {
    wrapped: bool,
    context: Context,
    open: Open,
}

impl Ends {
    /// Whether the byte at `hay[i]`, met in the path (no `.`, `?`,
    /// escape or first `#`), ends the URL: in `<...>` the `>`;
    /// elsewhere what ends a URL in [`bare`] there and then: whitespace
    /// (after no `-` or open escape, which the last byte rules out),
    /// `<`, `>`, a backquote, controls; a closer, no opener being open;
    /// the quote that closes the wrapper, and in bare text a `"` before
    /// no letter or digit.
    #[inline]
    fn at(self, hay: &[u8], i: usize) -> bool {
        match hay[i] {
            b'>' if self.wrapped => true,
            _ if self.wrapped => false,
            0x00..=0x20 | 0x7F | b'<' | b'>' | b'`' | b')' | b']' | b'}' => {
                true
            }
            b'\'' => self.open == Open::Single,
            b'"' => {
                self.context != Context::Bare
                    || !hay.get(i + 1).is_some_and(|&n| {
                        n.is_ascii_alphanumeric() || n >= 0x80
                    })
            }
            _ => false,
        }
    }
}

/// [`common_extent`] by the byte classes of the 64 bytes from the host
/// ([`crate::sieve::byte_classes_wide`], [`SHAPE_TABLES`]): each rule of
/// the walk as a test of bit masks, so that a URL costs the same few
/// steps whatever its bytes. `None` where the classes cost more than the
/// walk (no AVX-512) or the URL does not end inside the window: the walk
/// decides.
#[inline]
fn common_extent_by_masks(
    hay: &[u8],
    host: usize,
    limit: usize,
    ends: Ends,
) -> Option<Option<Extent>> {
    let window = &hay[host..limit.min(host + 64)];
    let (m, high) = crate::sieve::byte_classes_wide(window, &SHAPE_TABLES)?;
    let n = window.len();
    // The host: its run of label bytes and dots, no label starting with
    // `-` or `.` (empty), none ending with `-`. Bytes of 0x80 or more
    // (`high`, whose classes are those of their low seven bits) are in
    // no run: after the host or in the path they leave the URL to the
    // general delimiting, as they do in the walk.
    let host_len = (m[SHAPE_HOST] & !high).trailing_ones() as usize;
    if host_len >= n {
        return None;
    }
    let in_host = (1u64 << host_len) - 1;
    let (dash, dot) = (m[SHAPE_DASH] & in_host, m[SHAPE_DOT] & in_host);
    let label_start = (dot << 1 | 1) & in_host;
    if host_len == 0
        || (dash | dot) & label_start != 0
        || dot & dash << 1 != 0
        || dash >> (host_len - 1) & 1 != 0
    {
        return Some(None);
    }
    let Some(path_start) = after_host(hay, host + host_len, limit) else {
        return Some(None);
    };
    let p = path_start - host;
    if p >= n {
        return None;
    }
    // The path, query and fragment: the run of path bytes, `.`, `%`, `?`
    // and `#` up to the byte that must end the URL, inside the window.
    let run = (m[SHAPE_PATH]
        | m[SHAPE_DOT]
        | m[SHAPE_PERCENT]
        | m[SHAPE_QUESTION]
        | m[SHAPE_HASH])
        & !high;
    let stop = p + (run >> p).trailing_ones() as usize;
    if stop >= n {
        return None;
    }
    let span = (1u64 << stop) - (1u64 << p);
    let marks = (m[SHAPE_QUESTION] | m[SHAPE_HASH]) & span;
    let path_end =
        if marks != 0 { marks.trailing_zeros() as usize } else { stop };
    let in_path = (1u64 << path_end) - (1u64 << p);
    let hex = m[SHAPE_HEX] & !high;
    if m[SHAPE_DOT] & m[SHAPE_SLASH] << 1 & in_path != 0
        || m[SHAPE_PERCENT] & span & !(hex >> 1 & hex >> 2) != 0
        || (m[SHAPE_HASH] & span).count_ones() > 1
        || !ends.at(hay, host + stop)
    {
        return Some(None);
    }
    // RFC 1738 5 hostname: no `_` or `~`; and no `;` after the host.
    let plain = m[SHAPE_ODD] & in_host == 0 && m[SHAPE_SEMI] & span == 0;
    Some(Some(Extent {
        stop: host + stop,
        path_start,
        path_end: (marks != 0).then_some(host + path_end),
        plain,
    }))
}

// Classes of ASCII bytes for [`common_extent_by_masks`], bit `j` of byte
// `b` in `SHAPE_TABLES[j / 8][b]`: those of many bytes first, then
// those of one (see [`ByteTables::new`]).
/// A host name's bytes: letters, digits, `- _ ~` and `.`.
const SHAPE_HOST: usize = 0;
/// Hex digits, of an escape.
const SHAPE_HEX: usize = 1;
/// [`COMMON_PATH`].
const SHAPE_PATH: usize = 2;
/// `_` and `~`: host bytes that RFC 1738's hostname has not.
const SHAPE_ODD: usize = 3;
const SHAPE_DASH: usize = 4;
const SHAPE_DOT: usize = 5;
const SHAPE_PERCENT: usize = 6;
const SHAPE_QUESTION: usize = 7;
const SHAPE_HASH: usize = 8;
const SHAPE_SLASH: usize = 9;
const SHAPE_SEMI: usize = 10;

static SHAPE_TABLES: ByteTables<16> = ByteTables::new({
    let mut t = [[0u8; 128]; 2];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        let classes = [
            (ALNUM[i] || matches!(b, b'-' | b'_' | b'~' | b'.'), SHAPE_HOST),
            (b.is_ascii_hexdigit(), SHAPE_HEX),
            (COMMON_PATH[i], SHAPE_PATH),
            (matches!(b, b'_' | b'~'), SHAPE_ODD),
            (b == b'-', SHAPE_DASH),
            (b == b'.', SHAPE_DOT),
            (b == b'%', SHAPE_PERCENT),
            (b == b'?', SHAPE_QUESTION),
            (b == b'#', SHAPE_HASH),
            (b == b'/', SHAPE_SLASH),
            (b == b';', SHAPE_SEMI),
        ];
        let mut k = 0;
        while k < classes.len() {
            let (yes, j) = classes[k];
            if yes {
                t[j / 8][i] |= 1 << (j % 8);
            }
            k += 1;
        }
        i += 1;
    }
    t
});

/// The end of the run of bytes of `set` at `hay[i..limit]`: eight
/// looked up at a time into a mask of those not in it, whose first is
/// the end (one branch a step, and none that depends on where in the
/// step the run ends), then one by one in the last seven.
#[inline(always)]
fn run_of(hay: &[u8], mut i: usize, limit: usize, set: &[bool; 256]) -> usize {
    while let Some(w) = hay.get(i..i + 8).filter(|_| i + 8 <= limit) {
        let outside = w
            .iter()
            .enumerate()
            .fold(0u32, |m, (k, &b)| m | u32::from(!set[usize::from(b)]) << k);
        if outside != 0 {
            return i + outside.trailing_zeros() as usize;
        }
        i += 8;
    }
    while i < limit && set[usize::from(hay[i])] {
        i += 1;
    }
    i
}

/// ASCII digits: a port's.
static DIGIT: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = b'0';
    while i <= b'9' {
        t[i as usize] = true;
        i += 1;
    }
    t
};

/// ASCII letters and digits: most of a host name's bytes.
static ALNUM: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        t[i] = (i as u8).is_ascii_alphanumeric();
        i += 1;
    }
    t
};

/// The bytes of a path, query or fragment that [`common_shape`] passes
/// over without a look: [`PLAIN`] bytes (which RFC 3986 allows there)
/// but `. % ? #`.
static COMMON_PATH: [bool; 256] = {
    let mut t = PLAIN;
    t[b'.' as usize] = false;
    t[b'%' as usize] = false;
    t[b'?' as usize] = false;
    t[b'#' as usize] = false;
    t
};

/// The run of [`common_extent`]'s path: [`COMMON_PATH`] but `;`, which
/// it notes ([`Quick::plain`]).
static COMMON_RUN: [bool; 256] = {
    let mut t = COMMON_PATH;
    t[b';' as usize] = false;
    t
};

/// Rule 5: whether `hay[i..]` starts with `\x` and two hex digits that
/// stand for a byte of 0x80 or more, as Apache httpd and nginx escape
/// the bytes of a logged request line, `Referer` and `User-Agent`, and
/// as C, Python and JSON-ish dumps write a string's UTF-8 or Latin-1
/// bytes. Such a byte is part of a URL (RFC 3987 3.1 maps it to `%HH`),
/// whatever wrote it; a lower byte escaped so (`\x22`, a quote; a
/// control) is none, and `\` ends the URL there as elsewhere.
#[inline]
pub(crate) fn byte_escape(hay: &[u8], i: usize) -> bool {
    matches!(
        hay.get(i..i + 4),
        Some([b'\\', b'x', hi, lo])
            if matches!(hi, b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
                && lo.is_ascii_hexdigit()
    )
}

/// The byte escapes ([`byte_escape`]) of a URL's text written as RFC 3986
/// percent-escapes (section 2.1: upper-case hex digits), in place. The
/// text holds no other `\x`: a backslash inside a URL is a byte escape
/// or a defanged dot (`\.`).
fn percent_encode_escapes(text: &mut Vec<u8>) {
    let mut w = 0;
    let mut r = 0;
    while r < text.len() {
        if byte_escape(text, r) {
            text[w] = b'%';
            text[w + 1] = text[r + 2].to_ascii_uppercase();
            text[w + 2] = text[r + 3].to_ascii_uppercase();
            w += 3;
            r += 4;
        } else {
            text[w] = text[r];
            w += 1;
            r += 1;
        }
    }
    text.truncate(w);
}

/// Where scanning resumes after a candidate dropped as longer than
/// `max_len`, from `i` on (the candidate's end): past the rest of its run
/// of bytes that are no whitespace, `<`, `>` or `"`, so that no piece of
/// an over-long URL (`http://` repeated, a long path holding
/// `http://evil.example/`) is reported as a URL of its own. A hyphen at
/// the end of a line carries the run on to the next line, as rule 6
/// joins such lines into a URL (whitespace holding one line break, at
/// most [`MAX_BREAK`] bytes, then a byte of the run), unless that line
/// starts with `scheme://` (a list of URLs, one a line): lines joined
/// that way are one over-long URL, and none of them starts a URL of its
/// own (a reply's quote marks, `>`, end the run, as they end runs
/// everywhere). Never before `i`.
///
/// The run may go on past `hay`; then `hay.len()` is returned and the
/// caller goes on skipping in the text that follows (the pipeline's
/// merge does) with [`after_run_resumed`].
pub(crate) fn after_run(hay: &[u8], i: usize) -> usize {
    after_run_by(hay, i, None, crate::sieve::run_ends)
}

/// [`after_run`] from `floor`, resumed at `i`, where a call on the text
/// before a cut stopped at the end of what it had (`hay` holds the bytes
/// before `i` too): inside a hyphen break after `floor`, or in the first
/// word of the line after one, it finds its place by looking back, so
/// the answer is the one a call on the whole text gives, wherever the
/// text was cut. It may lie before `i`: at a hyphen break that turns out
/// not to join (the line after it starts with `scheme://`, or the break
/// goes on with a second line break). From any place a run passes after
/// `floor`, it gives the end of that run.
pub(crate) fn after_run_resumed(hay: &[u8], i: usize, floor: usize) -> usize {
    after_run_by(hay, i, Some(floor), crate::sieve::run_ends)
}

/// [`after_run`] (`floor` `None`) or [`after_run_resumed`], with
/// `run_ends` finding the bytes that end the run 64 at a time (or not:
/// `None`, as where the CPU cannot; tests use both).
fn after_run_by(
    hay: &[u8],
    i: usize,
    floor: Option<usize>,
    run_ends: impl Fn(&[u8]) -> Option<u64>,
) -> usize {
    let mut i = i.min(hay.len());
    let Some(floor) = floor else {
        // A candidate's end: inside its run.
        return run_on(hay, i, run_ends);
    };
    if hay.get(i).copied().is_some_and(is_ws) {
        // Inside a hyphen break?
        let (g, _) = skip_ws_back(hay, i, MAX_BREAK);
        if g == 0 || g < floor || i - g == MAX_BREAK || hay[g - 1] != b'-' {
            return i;
        }
        let newlines = memchr::memchr_iter(b'\n', &hay[g..i]).count();
        match cross_break(hay, g, i, newlines) {
            Break::Into(next) => i = next,
            Break::Ends => return g,
            Break::Open => return hay.len(),
        }
    } else if i > 0 {
        // In the first word of a line after a hyphen break (or at its
        // start), whose `scheme://` ends the run before the break?
        let word = hay[i.saturating_sub(HIERARCHICAL_WINDOW)..i]
            .iter()
            .rev()
            .take_while(|&&b| !ENDS_RUN[b as usize])
            .count();
        let a = i - word;
        let (g, _) = skip_ws_back(hay, a, MAX_BREAK + 1);
        if word < HIERARCHICAL_WINDOW
            && g < a
            && a - g <= MAX_BREAK
            && g > 0
            && g >= floor
            && hay[g - 1] == b'-'
        {
            match cross_break(hay, g, g, 0) {
                Break::Into(_) => {}
                Break::Ends => return g,
                Break::Open => return hay.len(),
            }
        }
    }
    run_on(hay, i, run_ends)
}

/// [`after_run`] from `i`, inside the run or at the byte that ends it.
fn run_on(
    hay: &[u8],
    mut i: usize,
    run_ends: impl Fn(&[u8]) -> Option<u64>,
) -> usize {
    // The bytes that end the run found 64 at a time where the CPU can
    // (lines joined after hyphens may be short), a byte loop otherwise.
    let mut block = i;
    let mut ends = run_ends(&hay[i..]);
    loop {
        let e = match ends.as_mut() {
            Some(mask) => {
                while *mask == 0 {
                    block += 64;
                    if block >= hay.len() {
                        return hay.len();
                    }
                    *mask = run_ends(&hay[block..]).unwrap_or(0);
                }
                let e = block + mask.trailing_zeros() as usize;
                *mask &= *mask - 1;
                if e < i {
                    // In the hyphen break just crossed.
                    continue;
                }
                e
            }
            None => {
                let rest = &hay[i..];
                i + rest
                    .iter()
                    .position(|&b| ENDS_RUN[b as usize])
                    .unwrap_or(rest.len())
            }
        };
        if e == hay.len() {
            return e;
        }
        if e == 0 || !is_ws(hay[e]) || hay[e - 1] != b'-' {
            return e;
        }
        match cross_break(hay, e, e, 0) {
            Break::Into(next) => {
                i = next;
                if let Some(mask) = ends.as_mut()
                    && next >= block + 64
                {
                    block = next;
                    *mask = run_ends(&hay[block..]).unwrap_or(0);
                }
            }
            Break::Ends => return e,
            Break::Open => return hay.len(),
        }
    }
}

/// The longest line break that joins two lines of a URL after a hyphen
/// (rule 6): its indentation and a reply's quote marks fit in it.
const MAX_BREAK: usize = 64;

/// How far [`starts_hierarchical_url`] looks: a letter, 32 more scheme
/// bytes and `://`.
const HIERARCHICAL_WINDOW: usize = MAX_SCHEME + 4;

/// Bytes that end an over-long candidate's run ([`after_run`]).
static ENDS_RUN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = is_ws(b as u8) || matches!(b as u8, b'<' | b'>' | b'"');
        b += 1;
    }
    t
};

/// What [`cross_break`] found.
enum Break {
    /// The run goes on at this offset, the first byte after the break.
    Into(usize),
    /// The run ends at the break.
    Ends,
    /// `hay` ends before the answer.
    Open,
}

/// [`after_run`] in the hyphen break that starts at `g` (after the
/// hyphen), from its byte `i` on, with `newlines` line breaks between
/// `g` and `i`: the run goes on past it when it holds one line break,
/// is at most [`MAX_BREAK`] bytes long and is followed by a byte of the
/// run that does not start `scheme://`.
fn cross_break(
    hay: &[u8],
    g: usize,
    mut i: usize,
    mut newlines: usize,
) -> Break {
    while let Some(&b) = hay.get(i) {
        if !is_ws(b) {
            if newlines != 1 || ENDS_RUN[b as usize] {
                return Break::Ends;
            }
            return match hierarchical_at(hay, i) {
                Some(false) => Break::Into(i),
                Some(true) => Break::Ends,
                None => Break::Open,
            };
        }
        newlines += usize::from(b == b'\n');
        if newlines > 1 || i + 1 - g > MAX_BREAK {
            return Break::Ends;
        }
        i += 1;
    }
    Break::Open
}

/// [`starts_hierarchical_url`] at `hay[j]`, or `None` where `hay` ends
/// before the answer.
fn hierarchical_at(hay: &[u8], j: usize) -> Option<bool> {
    if !hay.get(j)?.is_ascii_alphabetic() {
        return Some(false);
    }
    let word = &hay[j + 1..hay.len().min(j + 1 + MAX_SCHEME)];
    let k = j
        + 1
        + word.iter().position(|&b| !is_scheme_byte(b)).unwrap_or(word.len());
    match hay.get(k..k + 3) {
        Some(w) => Some(w == b"://"),
        // Cut short: unless the bytes there already say no.
        None => (!b"://".starts_with(&hay[k..])).then_some(false),
    }
}

/// Rule 5 for the authority of a `scheme://` URL (RFC 3986 3.2): it
/// ends at the first character that cannot be in it, and unless that is
/// `/`, `?` or `#` the URL ends there too (as UTS #58 ends the host):
/// `http://localhost:8086|/|x` is `http://localhost:8086`, and the
/// Latin-1 symbols that 8-bit text read in the wrong charset leaves
/// after a host do not join it. The host's characters: ASCII letters,
/// digits, `-._~`, sub-delims, `%`, and `:@[]` of the port, userinfo
/// and IP literals; non-ASCII letters (UTS #58 Include, not the Latin-1
/// symbols U+0080 to U+00BF, `×` and `÷`), a fullwidth form only where
/// the ASCII character it stands for may be (UTS 46 maps U+FF01 to
/// U+FF5E to U+0021 to U+007E, so `｜` is `|` in a host name and ends
/// it: `｜http://google.com｜bar`). Line breaks joined after a hyphen
/// are skipped.
fn authority_end(
    hay: &[u8],
    colon: usize,
    end: usize,
    joins: &[(usize, usize)],
    refang: bool,
) -> usize {
    let mut i = colon + 3;
    if hay.get(colon + 1..i) != Some(b"//") {
        return end;
    }
    let mut joins = joins.iter().peekable();
    while i < end {
        // The common case first: a run of ASCII host bytes, eight at a
        // time.
        while let Some(w) = hay.get(i..i + 8).filter(|_| i + 8 <= end) {
            if !w.iter().fold(true, |all, &b| all & AUTHORITY[b as usize]) {
                break;
            }
            i += 8;
        }
        while i < end && AUTHORITY[hay[i] as usize] {
            i += 1;
        }
        if i >= end {
            break;
        }
        if let Some(&&(a, b)) = joins.peek()
            && a == i
        {
            i = b;
            joins.next();
            continue;
        }
        if refang && hay[i] == b'\\' && hay.get(i + 1) == Some(&b'.') {
            i += 2; // `\.`, a defanged dot
            continue;
        }
        if byte_escape(hay, i) {
            i += 4; // `\xHH`, a byte of a non-ASCII host name
            continue;
        }
        let next = match hay[i] {
            b'\'' => host_after_userinfo(hay, i, end),
            0x80.. => non_ascii_host_char(hay, colon + 3, i, end),
            _ => None,
        };
        match next {
            Some(next) => i = next,
            None => break,
        }
    }
    if i < end && !matches!(hay[i], b'/' | b'?' | b'#') { i } else { end }
}

/// Rule 5: where the scan of the authority that starts at `auth` goes on
/// after the non-ASCII character at `hay[i]`, or `None` when the host
/// ends there (see [`authority_end`]).
#[inline(never)]
fn non_ascii_host_char(
    hay: &[u8],
    auth: usize,
    i: usize,
    end: usize,
) -> Option<usize> {
    if let Some(next) = label_separator(hay, auth, i, end) {
        return Some(next);
    }
    match char_at(hay, i) {
        Some((ch, len))
            if !is_unicode_stop(ch)
                && !matches!(ch, '\u{80}'..='\u{BF}' | '×' | '÷')
                && fullwidth_ascii(ch)
                    .is_none_or(|b| AUTHORITY[usize::from(b)]) =>
        {
            Some(i + len)
        }
        _ => None,
    }
}

/// Rule 5: a full stop that UTS 46 maps to `.` (U+3002 IDEOGRAPHIC FULL
/// STOP, U+FF0E FULLWIDTH FULL STOP, U+FF61 HALFWIDTH IDEOGRAPHIC FULL
/// STOP; RFC 3490 3.1 calls them label separators) at `hay[i]` inside
/// the authority that starts at `auth` separates labels of the host when
/// the host before it does not end in one (nor is an IPv4 address) and
/// the host it makes does, as for a bare domain
/// (`http://ｇｏｏｇｌｅ．com/x`, `http://普遍适用测试。我爱你/`); otherwise
/// it is punctuation after the URL (`http://example.com。下一句`,
/// `http://example.com。Google`, UTS #58 Link_Term Soft). Returns where
/// the scan goes on.
fn label_separator(
    hay: &[u8],
    auth: usize,
    i: usize,
    end: usize,
) -> Option<usize> {
    let (c, len) = char_at(hay, i)?;
    if !matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}') {
        return None;
    }
    let start =
        memchr::memrchr(b'@', &hay[auth..i]).map_or(auth, |p| auth + p + 1);
    // A host that is complete before the stop (`http://example.com。Google
    // 也支持`), or an IPv4 address, ends there.
    let before = std::str::from_utf8(&hay[start..i]).ok()?;
    if has_public_suffix(before)
        || before.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    let mut j = i + len;
    while j < end {
        match hay[j] {
            b if b.is_ascii_alphanumeric()
                || matches!(b, b'-' | b'_' | b'.') =>
            {
                j += 1;
            }
            b if b >= 0x80 => match char_at(hay, j) {
                Some((ch, n))
                    if matches!(ch, '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
                        || !is_unicode_stop(ch)
                            && fullwidth_ascii(ch).is_none_or(|b| {
                                b.is_ascii_alphanumeric() || b == b'-'
                            }) =>
                {
                    j += n;
                }
                _ => break,
            },
            _ => break,
        }
    }
    let host = std::str::from_utf8(&hay[start..j]).ok()?;
    (j > i + len && has_public_suffix(host)).then_some(i + len)
}

/// The ASCII character that a fullwidth form (U+FF01 to U+FF5E) stands
/// for: UTS 46 and NFKC map each to U+0021 to U+007E.
fn fullwidth_ascii(c: char) -> Option<u8> {
    let c = u32::from(c);
    (0xFF01..=0xFF5E).contains(&c).then(|| (c - 0xFEE0) as u8)
}

/// Rule 5: a `'` in the userinfo (RFC 3986 3.2.1 allows sub-delims
/// there) does not end the authority when an `@` and a host follow it
/// in the authority's bytes: `http://bank.example'@evil.example/` is a
/// URL of the host `evil.example`, as browsers read it, not the URL
/// `http://bank.example`. Returns where the host starts. Inside single
/// quotes the quote ends the URL before this is asked.
#[inline(never)]
fn host_after_userinfo(hay: &[u8], i: usize, end: usize) -> Option<usize> {
    let run = hay.get(i..end)?;
    let len = run
        .iter()
        .position(|&b| !AUTHORITY[b as usize] && b != b'\'')
        .unwrap_or(run.len());
    let at = memchr::memrchr(b'@', &run[..len])?;
    // A host, not trailing punctuation (`bank.example'@.` and
    // `bank.example'@*[` end at the quote, as `bank.example'@` does): a
    // name with a letter or digit, or an IP literal (`[::]`).
    // The host runs to the next `'` (which ends it, as after any host):
    // so `1.2.3.4'@_'x` reads as `1.2.3.4'@_` does, up to the quote.
    let host = &run[at + 1..len];
    let host = &host[..memchr::memchr(b'\'', host).unwrap_or(host.len())];
    let literal = host.first() == Some(&b'[') && host.contains(&b']');
    (literal || host.iter().any(u8::is_ascii_alphanumeric))
        .then_some(i + at + 1)
}

/// The ASCII bytes of an authority (RFC 3986 3.2): unreserved, `%`,
/// sub-delims but `'` (which closes quotes in text), and `:@[]`.
static AUTHORITY: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = (is_unreserved(b) || is_sub_delim(b) && b != b'\'')
            || matches!(b, b'%' | b':' | b'@' | b'[' | b']');
        i += 1;
    }
    t
};

/// Rule 5 for a URL that ends in its authority (`scheme://host`): a
/// host name never ends with `-` (RFC 1123 2.1), so a final `-` is the
/// text's dash (`http://host.example- and more`), and what it leaves is
/// trimmed again.
fn host_end(hay: &[u8], colon: usize, mut end: usize) -> usize {
    let authority = colon + 3;
    if hay[end - 1] != b'-'
        || hay.get(colon + 1..authority) != Some(b"//")
        || end <= authority
    {
        return end;
    }
    if hay[authority..end].iter().any(|&b| matches!(b, b'/' | b'?' | b'#')) {
        return end;
    }
    while end > authority && hay[end - 1] == b'-' {
        while end > authority && hay[end - 1] == b'-' {
            end -= 1;
        }
        end = trim_trailing(hay, colon + 1, end);
    }
    end
}

/// Rule 5 for `mailto:` (RFC 6068 2): the addresses end with their
/// domain, a host name (RFC 5321 4.1.2), unless header fields (`?`) or
/// another address (`,`) follow; so `mailto:a@example.com/foo` is
/// `mailto:a@example.com` (as UTS #58 ends an e-mail address). Without
/// an `@` the text is left as it is, for validation to judge.
fn mailto_end(hay: &[u8], s: usize, colon: usize, end: usize) -> usize {
    if end <= colon + 1 || !hay[s..colon].eq_ignore_ascii_case(b"mailto") {
        return end;
    }
    let mut i = colon + 1;
    loop {
        // The local part, up to its `@`.
        let Some(at) = hay[i..end].iter().position(|&b| b == b'@') else {
            return end;
        };
        if hay[i..i + at].iter().any(|&b| matches!(b, b'?' | b',')) {
            return end;
        }
        // The domain: letters, digits, `-`, `.`, escapes, non-ASCII
        // letters, or an address literal.
        let mut d = i + at + 1;
        if hay.get(d) == Some(&b'[') {
            match hay[d..end].iter().position(|&b| b == b']') {
                Some(p) => d += p + 1,
                None => return end,
            }
        } else {
            d = domain_end(hay, d, end, true);
        }
        // A scheme glued to the domain (`a@b.comhttp://`) is not part
        // of it.
        if hay.get(d) == Some(&b':')
            && let Some(p) = glued(hay, i + at + 1, d)
        {
            d = p;
        }
        match hay.get(d) {
            _ if d >= end => return end,
            Some(b'?') => return end,
            Some(b',') if d + 1 < end => i = d + 1,
            _ => return trim_trailing(hay, s, d),
        }
    }
}

/// How many hex digits the percent-escape that `hay[s..i]` ends in still
/// lacks (RFC 3986 2.1: `%` and two hex digits): 2 after `%`, 1 after
/// `%` and a digit, 0 otherwise.
fn open_escape(hay: &[u8], s: usize, i: usize) -> usize {
    if i > s && hay[i - 1] == b'%' {
        2
    } else if i > s + 1 && hay[i - 2] == b'%' && hay[i - 1].is_ascii_hexdigit()
    {
        1
    } else {
        0
    }
}

/// Rule 6 for a URL broken inside a percent-escape: no URL ends in an
/// incomplete escape, so when the next line (after its indentation and
/// a reply's quote marks) starts with the `missing` hex digits, the URL
/// goes on there; where it goes on, or `None`.
fn escape_join(hay: &[u8], i: usize, missing: usize) -> Option<usize> {
    let mut j = i;
    while j < hay.len() && matches!(hay[j], b' ' | b'\t' | b'\r') {
        j += 1;
    }
    if hay.get(j) != Some(&b'\n') {
        return None;
    }
    j += 1;
    while j < hay.len() && matches!(hay[j], b' ' | b'\t' | b'>' | b'|') {
        j += 1;
    }
    let digits = hay.get(j..j + missing)?;
    (digits.iter().all(u8::is_ascii_hexdigit) && j - i <= MAX_BREAK)
        .then_some(j)
}

/// The end of the domain name that starts at `hay[d]` (before `limit`):
/// ASCII letters, digits, `-`, `.` and `_`, non-ASCII letters (UTS #58
/// Include), and `%` and byte escapes ([`byte_escape`]) when `escapes`
/// (in a URI, RFC 3986 2.1).
pub(crate) fn domain_end(
    hay: &[u8],
    mut d: usize,
    limit: usize,
    escapes: bool,
) -> usize {
    while d < limit {
        let b = hay[d];
        if b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_')
            || (escapes && b == b'%')
        {
            d += 1;
        } else if escapes && byte_escape(hay, d) {
            d += 4;
        } else if b >= 0x80 {
            match char_at(hay, d) {
                Some((c, len)) if !is_unicode_stop(c) => d += len,
                _ => break,
            }
        } else {
            break;
        }
    }
    d
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
    if (is_uri_ascii(b) || b >= 0x80 || byte_escape(hay, j))
        && j - i <= MAX_BREAK
    {
        Some(j)
    } else {
        None
    }
}

/// Whether `hay[j..]` starts with `scheme://` (RFC 3986 3.1: a letter,
/// then letters, digits, `+`, `-`, `.`; at most 32 of them here).
fn starts_hierarchical_url(hay: &[u8], j: usize) -> bool {
    hierarchical_at(hay, j) == Some(true)
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

/// Rule 5: drop what ends a URL's text but is not part of the URL:
/// sentence punctuation and quotes (UTS #58 Link_Term Soft: part of a
/// link only when more of it follows), closers that pair with nothing,
/// an opener with nothing after it, a footnote marker (`[2]`, as mail
/// readers show it apart from the link), and the `*`, `_` or `~` that
/// close Markdown emphasis opened before the URL on its line.
#[inline]
pub(crate) fn trim_trailing(hay: &[u8], s: usize, mut end: usize) -> usize {
    // Most URLs end with a letter, digit or `/`, none of which is ever
    // dropped, or with sentence punctuation before one: told here,
    // without a call.
    while end > s {
        let b = hay[end - 1];
        if b.is_ascii_alphanumeric() || b == b'/' {
            return end;
        }
        if !is_soft_ascii(b) {
            return trim_trailing_from(hay, s, end);
        }
        end -= 1;
    }
    end
}

/// ASCII sentence punctuation and quotes (UTS #58 Link_Term Soft),
/// dropped at a URL's end.
#[inline]
fn is_soft_ascii(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'"')
}

/// [`trim_trailing`] byte by byte from the end.
#[inline(never)]
fn trim_trailing_from(hay: &[u8], s: usize, mut end: usize) -> usize {
    while end > s {
        let b = hay[end - 1];
        let cut = match b {
            _ if is_soft_ascii(b) => 1,
            b'(' | b'[' | b'{' => 1,
            b')' => usize::from(unbalanced(&hay[s..end], b'(', b')')),
            b']' if unbalanced(&hay[s..end], b'[', b']') => 1,
            b']' => footnote(&hay[s..end]),
            b'}' => usize::from(unbalanced(&hay[s..end], b'{', b'}')),
            b'*' | b'_' | b'~' => emphasis(hay, s, end, b),
            0x80.. => match char_before(hay, end) {
                Some(c)
                    if matches!(
                        link_term(c),
                        LinkTerm::Soft | LinkTerm::Open
                    ) =>
                {
                    c.len_utf8()
                }
                _ => 0,
            },
            _ => 0,
        };
        if cut == 0 {
            break;
        }
        end -= cut;
    }
    end
}

fn unbalanced(text: &[u8], open: u8, close: u8) -> bool {
    let opens = text.iter().filter(|&&b| b == open).count();
    let closes = text.iter().filter(|&&b| b == close).count();
    closes > opens
}

/// The length of a footnote marker, `[` one to three digits `]`, at the
/// end of `text` after something else (0 when there is none).
fn footnote(text: &[u8]) -> usize {
    let Some(open) = text.iter().rposition(|&b| b == b'[') else {
        return 0;
    };
    let digits = &text[open + 1..text.len() - 1];
    let is_marker = open > 0
        && (1..=3).contains(&digits.len())
        && digits.iter().all(u8::is_ascii_digit);
    if is_marker { text.len() - open } else { 0 }
}

/// The run of `mark` (`*`, `_` or `~`) at the end of `hay[s..end]`, when
/// at least as many of it stand before `s` on the line (emphasis that
/// the URL's end closes, as `*see http://a.example/*`); 0 otherwise.
fn emphasis(hay: &[u8], s: usize, end: usize, mark: u8) -> usize {
    let run = hay[s..end].iter().rev().take_while(|&&b| b == mark).count();
    let floor = s.saturating_sub(LOOKBACK);
    let line = memchr::memrchr(b'\n', &hay[floor..s])
        .map_or(floor, |p| floor + p + 1);
    let before = hay[line..s].iter().filter(|&&b| b == mark).count();
    if run < end - s && before >= run { run } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::schemes;

    /// The run found 64 bytes at a time (where the CPU can) ends where
    /// the table finds it, for every start and limit: runs of every
    /// length up to 200 bytes, ended by each kind of byte.
    #[test]
    fn plain_runs_agree_with_the_table() {
        let mut next = crate::testing::xorshift(0x0bad_5eed_1234_5678);
        let enders =
            [b' ', b'<', b'>', b'"', b'(', b'[', b'\'', 0x80, 0xff, 0];
        for len in 0..200 {
            let mut hay: Vec<u8> =
                (0..len).map(|k| b"a/.:%?#=&~-"[k % 11]).collect();
            hay.push(enders[len % enders.len()]);
            hay.extend((0..70).map(|_| next() as u8));
            for from in [0, 1, len / 2] {
                for limit in [hay.len(), len, len / 2 + 3] {
                    let (from, limit) =
                        (from.min(limit), limit.min(hay.len()));
                    assert_eq!(
                        plain_run(&hay, from, limit),
                        table_run(&hay, from, limit),
                        "{len} {from} {limit}"
                    );
                }
            }
        }
    }

    /// Where `glued_alone_at` finds a scheme's start, the rules find the
    /// same: runs of scheme bytes, `\` and `=` around the glued words.
    #[test]
    fn glued_alone_agrees_with_the_rules() {
        let pieces: [&[u8]; 14] = [
            b"http", b"HTTPS", b"mailTo", b"news", b"ftp", b"ttp", b"x", b"1",
            b"+", b".", b"\\", b"=", b" ", b"=3D",
        ];
        let mut next = crate::testing::xorshift(0x91ed_a10e);
        let mut found = 0;
        for _ in 0..100_000 {
            let mut hay: Vec<u8> = (0..next() % 5)
                .flat_map(|_| {
                    pieces[next() as usize % pieces.len()].iter().copied()
                })
                .collect();
            let colon = hay.len();
            hay.extend_from_slice(b"://a.example/");
            let run = hay[..colon].iter().rev();
            let first =
                colon - run.take_while(|&&b| is_scheme_byte(b)).count();
            if let Some(at) = glued_alone_at(&hay, colon) {
                found += 1;
                assert_eq!(at, first, "{:?}", String::from_utf8_lossy(&hay));
                assert_eq!(
                    scheme_start_by_rules(&hay, colon, 0, first),
                    Some(first),
                    "{:?}",
                    String::from_utf8_lossy(&hay)
                );
            }
        }
        assert!(found > 8_000, "{found}");
    }

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

    /// `is_word` agrees with `eq_ignore_ascii_case` for each word of
    /// `GLUED` (all lowercase letters) and every byte at each position.
    #[test]
    fn glued_word_test_is_case_folding() {
        for w in GLUED {
            assert!(w.iter().all(u8::is_ascii_lowercase), "{w:?}");
            for pos in 0..w.len() {
                for b in 0..=255u8 {
                    let mut run = w.to_vec();
                    run[pos] = b;
                    assert_eq!(
                        is_word(&run, w),
                        run.eq_ignore_ascii_case(w),
                        "{run:?}"
                    );
                }
            }
        }
    }

    /// An over-long run goes on across hyphen line breaks and stops
    /// where rule 6 would not join: no line break, two, a break longer
    /// than `MAX_BREAK`, `<` after it, or a line starting `scheme://`.
    #[test]
    fn over_long_runs_cross_hyphen_breaks() {
        for wide in [true, false] {
            let end = |text: &str| run_by(text.as_bytes(), 0, None, wide);
            assert_eq!(end("aa-\nbb-\r\n  cc d"), 13);
            assert_eq!(end("aa-\nbb"), 6);
            assert_eq!(end("aa- bb"), 3);
            assert_eq!(end("aa-\n\nbb"), 3);
            assert_eq!(end("aa-\n<bb>"), 3);
            assert_eq!(end("aa-\nhttp://b.example/"), 3);
            assert_eq!(end("aa-\nhttp:b.example/ x"), 19);
            assert_eq!(end("aa-\nh://x"), 3);
            assert_eq!(end("aa\nbb"), 2);
            let long = format!("aa-\n{}bb c", " ".repeat(MAX_BREAK - 1));
            assert_eq!(end(&long), long.len() - 2);
            let longer = format!("aa-\n{}bb c", " ".repeat(MAX_BREAK));
            assert_eq!(end(&longer), 3);
        }
    }

    /// Texts of up to 40 pieces of runs, hyphen breaks and the bytes
    /// that end runs, drawn from `seed`.
    fn run_texts(seed: u64) -> Vec<Vec<u8>> {
        let pieces: &[&[u8]] = &[
            b"a",
            b"-",
            b"-\n",
            b"-\r\n",
            b"\n",
            b" ",
            b"\t",
            b"<",
            b"\"",
            b"http://x/",
            b"ftp:",
            b"x-\n  ",
            b"-\n\n",
            b"-\n h://",
            b"mailto:",
            b"\xc3\xa9",
        ];
        let mut next = crate::testing::xorshift(seed);
        (0..3000)
            .map(|_| {
                let n = (next() % 40) as usize;
                (0..n)
                    .flat_map(|_| {
                        pieces[next() as usize % pieces.len()].to_vec()
                    })
                    .collect()
            })
            .collect()
    }

    /// From every place a run passes, the run ends where it ends from
    /// its start: the pipeline's merge takes the end a chunk's scan found
    /// for a run it resumes inside.
    #[test]
    fn over_long_runs_end_the_same_from_every_place_they_pass() {
        for hay in run_texts(0x0dd_ba11_5eed) {
            for start in 0..hay.len().min(8) {
                let end = after_run(&hay, start);
                assert!(end >= start);
                for p in start + 1..end {
                    assert_eq!(
                        after_run_resumed(&hay, p, start),
                        end,
                        "{:?} from {start} and {p}",
                        String::from_utf8_lossy(&hay)
                    );
                }
            }
        }
    }

    /// [`after_run`] with the vector search (where the CPU has it) or the
    /// byte loop.
    fn run_by(
        hay: &[u8],
        i: usize,
        floor: Option<usize>,
        wide: bool,
    ) -> usize {
        if wide {
            after_run_by(hay, i, floor, crate::sieve::run_ends)
        } else {
            after_run_by(hay, i, floor, |_| None)
        }
    }

    /// Cut anywhere, the answer is the same: where the first call runs
    /// to the end of the text it has, a second one on the whole text
    /// from there (with `LOOKBACK` bytes before it) gives the answer of
    /// one call on the whole text. The vector search and the byte loop
    /// agree.
    #[test]
    fn over_long_runs_same_wherever_cut() {
        for hay in run_texts(0x5eed_0fa1_1c0d) {
            let n = hay.len();
            for (start, wide) in [(0, true), (n / 3, false), (n / 2, true)] {
                let whole = run_by(&hay, start, None, wide);
                assert_eq!(whole, run_by(&hay, start, None, !wide));
                assert!(whole >= start);
                for cut in start + 1..hay.len() {
                    let first = run_by(&hay[..cut], start, None, wide);
                    let got = if first == cut {
                        let from = cut.saturating_sub(LOOKBACK);
                        let floor = Some(start.saturating_sub(from));
                        from + run_by(&hay[from..], cut - from, floor, wide)
                    } else {
                        first
                    };
                    assert_eq!(
                        got,
                        whole,
                        "{:?} from {start} cut at {cut}",
                        String::from_utf8_lossy(&hay)
                    );
                }
            }
        }
    }

    /// The walk of the most common shape ([`common_shape`]) gives the
    /// candidate that [`bare`] and [`angle`] give, and the fast path's
    /// answer ([`crate::validate::quick_check`]) of its text: every
    /// colon of random texts of URL pieces, wrappers, punctuation,
    /// whitespace and stray bytes, whole and cut short, with the default
    /// length limit and a short one, defanged URLs read or not.
    #[test]
    fn common_shape_is_the_full_delimiting() {
        let pieces: [&str; 85] = [
            "http://",
            "https://",
            "HTTP://",
            "ftp://",
            "x+y://",
            "mailto://",
            "mailto:",
            "news:",
            "gopher://",
            "www",
            "a",
            "Z9",
            "example",
            "com",
            "-",
            ".",
            "..",
            "_",
            "~",
            ":",
            ":80",
            ":8080",
            ":65535",
            ":65536",
            ":123456",
            ":0",
            "@",
            "u@",
            "/",
            "//",
            "/.",
            "/..",
            "/./",
            "./",
            "x.html",
            "%41",
            "%4",
            "%zz",
            "%",
            "?",
            "?q=1&r=2",
            "#",
            "#f",
            "!",
            ",",
            ";",
            "'",
            "\"",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "<",
            ">",
            "<URL:",
            "](",
            "href=\"",
            "*",
            "`",
            "|",
            "^",
            " ",
            "\n",
            "\t",
            "\r\n",
            "-\n",
            "-\n  ",
            "%\n4",
            "\x01",
            "\x7f",
            "é",
            "。",
            // Bytes of 0x80 or more whose low seven bits are URL bytes.
            "\u{feff}",
            "ï",
            "ë",
            "\\",
            "\\x8f",
            "\\.",
            "[.]",
            "[:]",
            "=",
            "$&+",
            "*x*",
        ];
        let mut next = crate::testing::xorshift(0x00c0_ffee_5eed_f00d);
        let pick = |next: &mut dyn FnMut() -> u64, from: &[&'static str]| {
            from[next() as usize % from.len()]
        };
        let mut accepted = 0;
        let mut masked = 0;
        // Candidates known plain (`Quick::plain`) and not.
        let mut plain = [0; 2];
        let opens =
            ["", "", " ", "<", "(", "[", "\"", "'", "](", "href=\"", "*"];
        let schemes =
            ["http://", "https://", "ftp://", "HTTP://", "mailto://"];
        let labels =
            ["a", "example", "www", "x-y", "-a", "a-", "_", "9", "", "ï", "ð"];
        let ports = ["", "", "", ":80", ":65535", ":65536", ":", ":123456"];
        let path = [
            "/", "/a", "/x.html", "/.", "/..", "/.x", "?", "?q=1&r=2", "#",
            "#f", "%41", "%4", ":@", "!$&+,;=", "~_-", ".", "", "\u{feff}",
            "/ë", "%ð",
        ];
        let closes = [
            "", "", "", ".", ",", "!", "?", ":", ";", ")", "]", "}", ">",
            "\"", "'", "*", "-", "`", "\x01", "\x7f", "é", "。", "|",
        ];
        // The same without what the walk leaves to the others, for URLs
        // made clean.
        let good_labels = ["a", "example", "www", "x-y", "9", "_", "a~"];
        let good_ports = ["", "", ":80", ":65535"];
        let good_path =
            ["/", "/a", "/x.html", "?", "?q=1&r=2", "#f", "%41", ":@", "~_-"];
        let good_closes = ["", "", ".", ")", ">", "'", "\"", "!"];
        let seps = [" ", "\n", "\t", "\r\n", "-\n", "-\n  ", "", "%\n4"];
        for round in 0..150_000 {
            let mut text = String::new();
            let target = (next() % 160) as usize;
            while text.len() < target {
                // A URL of the common shape, mostly, then something that
                // may end it.
                let clean = next().is_multiple_of(2);
                let (labels, ports, path, closes) = if clean {
                    (
                        &good_labels[..],
                        &good_ports[..],
                        &good_path[..],
                        &good_closes[..],
                    )
                } else {
                    (&labels[..], &ports[..], &path[..], &closes[..])
                };
                let mut url = String::new();
                url.push_str(pick(&mut next, &opens));
                url.push_str(pick(&mut next, &schemes));
                for k in 0..1 + next() % 3 {
                    if k > 0 {
                        url.push('.');
                    }
                    url.push_str(pick(&mut next, labels));
                }
                url.push_str(pick(&mut next, ports));
                for _ in 0..next() % 5 {
                    url.push_str(pick(&mut next, path));
                }
                if !clean && next().is_multiple_of(4) {
                    url.push_str(pick(&mut next, &pieces));
                }
                url.push_str(pick(&mut next, closes));
                if !clean && next().is_multiple_of(4) {
                    url.push_str(pick(&mut next, &pieces));
                }
                url.push_str(pick(&mut next, &seps));
                text.push_str(&url);
            }
            let hay = text.as_bytes();
            // Cut short too: a URL that runs to the end of the text.
            let hay = &hay[..hay.len() - (next() as usize % 4).min(hay.len())];
            let rules = Rules {
                max_len: if round % 4 == 0 { 24 } else { 2048 },
                opaque: None,
                refang: round % 3 == 0,
            };
            for colon in memchr::memchr_iter(b':', hay) {
                if hay[colon + 1..].starts_with(b"//") {
                    masks_agree(hay, colon + 3, rules.max_len, &mut masked);
                }
                let fast = delimit_by(hay, colon, &rules, true);
                let slow = delimit_by(hay, colon, &rules, false);
                let judged = fast.as_ref().and_then(|c| c.quick.get());
                if let (Some(c), Some(q)) = (&fast, judged) {
                    accepted += 1;
                    let url = c.text(hay);
                    let want = crate::validate::quick_check(url);
                    assert_eq!(Some(Quick { plain: false, ..q }), want);
                    // `plain` is what the text holds (a `;` trimmed off
                    // the end is the one thing the walk does not know
                    // of), and FTP's check of it needs only the rest.
                    let (host, rest) = (q.scheme_len + 3, q.path.0);
                    let odd = url[host..rest].contains(['_', '~'])
                        || url[rest..].contains(';');
                    let trimmed = hay[c.end..]
                        .iter()
                        .take_while(|b| b".,;:!?".contains(b))
                        .any(|&b| b == b';');
                    assert!(q.plain != odd || trimmed, "{url:?} {q:?}");
                    if q.plain {
                        let ftp = format!("ftp{}", &url[q.scheme_len..]);
                        let at = rest + 3 - q.scheme_len;
                        assert_eq!(
                            schemes::ftp_quick(&ftp, at),
                            schemes::ftp_plain_quick(&ftp, at),
                            "{url:?}"
                        );
                    }
                    plain[usize::from(q.plain)] += 1;
                }
                let plain = |c: Option<Candidate>| {
                    c.map(|c| Candidate { quick: Known::Unknown, ..c })
                };
                assert_eq!(plain(fast), plain(slow), "{text:?} at {colon}");
            }
        }
        // Enough of the walk's own answers to mean something.
        assert!(accepted > 50_000, "{accepted}");
        assert!(plain.iter().all(|&n| n > 10_000), "{plain:?}");
        if crate::sieve::byte_classes_wide(b"", &SHAPE_TABLES).is_some() {
            assert!(masked > 50_000, "{masked}");
        }
    }

    /// Where [`common_extent_by_masks`] decides, it decides as the walk
    /// ([`common_extent`]) does, for the host at `hay[host]`, with each
    /// limit (the text's end, a URL length limit) and each wrapper and
    /// quote that changes what ends the URL. Counts its decisions.
    fn masks_agree(hay: &[u8], host: usize, max_len: usize, masked: &mut u64) {
        let limits = [hay.len(), hay.len().min(host + max_len)];
        let ends = [
            (false, Context::Bare, Open::None),
            (true, Context::Angle, Open::None),
            (false, Context::Quote, Open::Single),
            (false, Context::Bracket, Open::Paren),
        ]
        .map(|(wrapped, context, open)| Ends {
            wrapped,
            context,
            open,
        });
        for limit in limits {
            if limit <= host {
                continue;
            }
            for ends in ends {
                let by_masks = common_extent_by_masks(hay, host, limit, ends);
                if let Some(by_masks) = by_masks {
                    *masked += 1;
                    let walked = common_extent(hay, host, limit, ends);
                    assert_eq!(
                        by_masks,
                        walked,
                        "{:?} from {host} to {limit} {ends:?}",
                        String::from_utf8_lossy(hay),
                    );
                }
            }
        }
    }
}

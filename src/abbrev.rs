//! Owns abbreviated URIs (`www.example.com/path`, `ftp.example.org`) and
//! bare e-mail addresses (`joe@example.com`) in text: where they start
//! and end, and the absolute URI each stands for.
//!
//! Appendix F of draft-fielding-uri-rfc2396bis-00 ("Abbreviated URIs")
//! describes references "consisting of only the authority and path
//! portions of the identified resource, such as www.w3.org/Addressing/",
//! completed by "context-based heuristics" ("most hostnames beginning
//! with "www" are likely to have a URI prefix of "http://""); it names no
//! standard set of heuristics. draft-fielding-url-syntax-05 has no such
//! section. The heuristics used here are the rules below.
//!
//! # Abbreviated URIs (`Opts::www`)
//!
//! 1. The text starts with `www.` (giving `http://`, [`Kind::Www`]) or
//!    `ftp.` (giving `ftp://`, [`Kind::Ftp`]), in any case (Appendix F:
//!    "hostnames beginning with "www"").
//! 2. It starts a word: the byte before it is none of an ASCII letter or
//!    digit, `.`, `-`, `_`, `/`, `\`, `@` or `:`, so `xwww.a.com`,
//!    `//www.a.com` and `http://www.a.com` (a full URL, which urlx
//!    already reports) give nothing, nor does `joe@www.a.com` (an
//!    address) or `\\www.a.com\share` (a UNC path). `URL:` before it is
//!    the Appendix E prefix, not a scheme: `<URL:www.a.com>` is found.
//! 3. It is delimited like a URL in bare text by urlx (Appendix E of both
//!    drafts; urlx `delimit` rule 5): it ends at whitespace, a byte that
//!    cannot be in a URI, or non-ASCII punctuation; trailing `.,;:!?'`
//!    and unbalanced `)` `]` are dropped; after `(`, `[` or `'` the
//!    matching closer ends it. So `<www.a.com>` ends at the `>`. Line
//!    breaks are not joined.
//! 4. The host is the run of letters, digits, `-`, `_`, `.` and non-ASCII
//!    characters; it must end in an ICANN public suffix
//!    ([`has_public_suffix`]), so `www.x`, `www.node.js` give nothing. A
//!    host followed by a CJK character is retried without it
//!    (`www.a.com是` gives `www.a.com`).
//! 5. An optional `:port` (1 to 5 digits, RFC 3986 section 3.2.3)
//!    follows; then a `/`, `?` or `#` starts the path, query or fragment
//!    (RFC 3986 section 3), which run to the end found in rule 3. Any
//!    other byte ends the URI after the host (or port), except `@`,
//!    which makes the whole thing an e-mail address rather than a URI.
//!
//! # E-mail addresses (`Opts::emails`)
//!
//! 6. `local@domain` with the local part an RFC 5322 section 3.4.1
//!    `dot-atom-text`: `atext` (section 3.2.3) and dots, not starting or
//!    ending with a dot, no `..`, at most 64 bytes (RFC 5321 section
//!    4.5.3.1.1). `/` and `?` (legal `atext`) are taken as the end of a
//!    URL path or query before the local part instead. The local part
//!    starts at the word start: a `key=` of ASCII letters at its start
//!    or after a `&` ends the part before it (an attribute or parameter
//!    name: `title=joe@a.com`, `a=1&to=joe@a.com`; VERP and SRS local
//!    parts such as `list-bounces+x=a.com` or `SRS0=h=t=a.com=joe` are
//!    kept), then leading bytes that are neither letters, digits nor `_`
//!    are dropped (`'joe@a.com'`).
//! 7. Not an address when what precedes the local part is `:` (as in
//!    `mailto:` or a URL's `scheme://user@host`), `/`, `?` or `@`, a
//!    non-ASCII letter or digit other than CJK (`müller@`, read as
//!    `ller@` otherwise; RFC 6531 addresses are not recognized), or
//!    invalid UTF-8. Nor is it one in a message identifier, which looks
//!    like an address (RFC 5322 section 3.6.4): on a `Message-ID:`,
//!    `In-Reply-To:`, `References:`, `Content-ID:` or
//!    `Resent-Message-ID:` header line, or on a line starting with `<`
//!    that continues one (a folded header, RFC 5322 section 2.2.3), or
//!    in Usenet's attribution `In article <id>`, or after `id <` (an
//!    SMTP identifier in a Received field); quote marks (`>`, `|`)
//!    and blanks at the start of a line are skipped. Only lines starting
//!    less than 180 bytes before the local part are looked at.
//! 8. The domain is the run of letters, digits, `-`, `_`, `.` and
//!    non-ASCII characters after `@`, trailing dots dropped; it must end
//!    in an ICANN public suffix, so `a@b`, `user@localhost`, `x@y.z` give
//!    nothing. A domain followed by `@`, by `/`, or by `:` and a letter,
//!    digit or `/` (`git@github.com:org/repo`, `user@host:22`) is not an
//!    address.
//! 9. The URI is `mailto:` and the address (RFC 6068 section 2), which
//!    percent-encodes what cannot appear in a URI, `%`, and the
//!    gen-delims but `@` and `:`; of those only `%`, `#`, `^`, `` ` ``,
//!    `{`, `|` and `}` can occur in a local part read by rule 6.
//!
//! # Chunking
//!
//! [`scan`] reports the items whose first byte lies in `from..to`. Each
//! start is judged on its own, from at most [`LOOKBACK`] bytes before it
//! and `max_len` + [`LOOKAHEAD_SLACK`] bytes after `to`, so the output is
//! the same however a text is cut into windows, as with urlx's chunks.
//!
//! Delimiting uses the helpers of urlx's `delimit` module (the byte tables,
//! trailing punctuation, Unicode stop characters), so that abbreviated
//! URIs end where urlx ends a URL.

use crate::data::psl::has_public_suffix;
use crate::delimit::{
    Brackets, Open, Step, char_before, domain_end, plain_run, trim_trailing,
};

/// Bytes before `from` that [`scan`] may read.
pub const LOOKBACK: usize = 256;

/// Bytes past `to + max_len` that [`scan`] may read.
pub const LOOKAHEAD_SLACK: usize = LOOKBACK + 16;

/// Longest local part (RFC 5321 section 4.5.3.1.1).
const MAX_LOCAL: usize = 64;

/// How far back the header-line test of rule 7 looks for a line start.
/// (With the local part's 64 bytes, this stays within the 256 bytes of
/// look-behind urlx gives every trigger, `@` included.)
const HEADER_LOOKBACK: usize = 180;

/// What [`scan`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opts {
    /// Abbreviated URIs starting with `www.` or `ftp.`.
    pub www: bool,
    /// Bare e-mail addresses.
    pub emails: bool,
}

impl Default for Opts {
    /// Both kinds.
    fn default() -> Self {
        Opts { www: true, emails: true }
    }
}

/// What an [`Abbrev`] was recognized as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `www.` host: completed with `http://`.
    Www,
    /// `ftp.` host: completed with `ftp://`.
    Ftp,
    /// An e-mail address: completed with `mailto:`.
    Email,
}

/// An abbreviated URI or e-mail address found by [`scan`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Abbrev {
    /// Offset of its first byte in the buffer searched.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// The absolute URI it stands for (`http://www.example.com/path`,
    /// `mailto:joe@example.com`).
    pub url: String,
    /// What it was recognized as.
    pub kind: Kind,
}

/// Report, in order of `start`, every abbreviated URI and e-mail address
/// whose first byte lies in `hay[from..to]`.
///
/// `hay` should hold [`LOOKBACK`] bytes before `from` (or the start of
/// the text) and `max_len` + [`LOOKAHEAD_SLACK`] bytes after `to` (or
/// the end of the text); then the result does not depend on where the
/// text was cut. Items longer than `max_len` bytes are not reported.
pub fn scan(
    hay: &[u8],
    from: usize,
    to: usize,
    max_len: usize,
    opts: Opts,
    mut f: impl FnMut(Abbrev),
) {
    let to = to.min(hay.len());
    let Some(window) = hay.get(from..to) else {
        return;
    };
    if window.is_empty() {
        return;
    }
    let mut found = Vec::new();
    if opts.www {
        // Rule 1 (2396bis Appendix F): the trigger is the dot of `www.`
        // or `ftp.`.
        let end = to.saturating_add(3).min(hay.len());
        let area = hay.get(from..end).unwrap_or_default();
        for off in memchr::memchr_iter(b'.', area) {
            let Some(s) = (from + off).checked_sub(3) else {
                continue;
            };
            if (from..to).contains(&s) {
                if let Some(a) = abbreviated_at(hay, s, max_len) {
                    found.push(a);
                }
            }
        }
    }
    if opts.emails {
        // Rule 6: the trigger is the `@`, up to a local part's length
        // after the window.
        let end = to.saturating_add(MAX_LOCAL + 1).min(hay.len());
        let area = hay.get(from..end).unwrap_or_default();
        for off in memchr::memchr_iter(b'@', area) {
            if let Some(a) = email_at(hay, from + off, max_len) {
                if (from..to).contains(&a.start) {
                    found.push(a);
                }
            }
        }
    }
    found.sort_by_key(|a| a.start);
    found.into_iter().for_each(&mut f);
}

/// Rules 1 to 5: the abbreviated URI (2396bis Appendix F: authority and
/// path without the scheme) starting at `s`, if any.
pub(crate) fn abbreviated_at(
    hay: &[u8],
    s: usize,
    max_len: usize,
) -> Option<Abbrev> {
    let head = hay.get(s..s.checked_add(4)?)?;
    let (kind, scheme) = if head.eq_ignore_ascii_case(b"www.") {
        (Kind::Www, "http")
    } else if head.eq_ignore_ascii_case(b"ftp.") {
        (Kind::Ftp, "ftp")
    } else {
        return None;
    };
    if !word_start(hay, s) {
        return None;
    }
    // Rule 3: delimited as in Appendix E (urlx `delimit` rule 5).
    let mut end = bare(hay, s, max_len, opener(hay, s))?;
    // Rule 4: the host (RFC 3986 section 3.2.2 reg-name, as DNS name).
    let mut i = s;
    while i < end && hay.get(i).is_some_and(|&b| is_host_byte(b)) {
        i += 1;
    }
    let host_end = i;
    // Rule 5: `:port` (RFC 3986 section 3.2.3), then path, query or
    // fragment (sections 3.3 to 3.5).
    if hay.get(i) == Some(&b':') && i < end {
        let digits = i + 1;
        let mut j = digits;
        while j < end && hay.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        let port_ok = (1..=5).contains(&(j - digits))
            && (j == end || matches!(hay.get(j), Some(b'/' | b'?' | b'#')));
        if port_ok {
            i = j;
        } else {
            end = host_end;
        }
    }
    if i < end {
        match hay.get(i) {
            Some(b'/' | b'?' | b'#') => {}
            Some(b'@') => return None,
            _ => end = i,
        }
    }
    end = trim_trailing(hay, s, end);
    let host = std::str::from_utf8(hay.get(s..host_end.min(end))?).ok()?;
    let host_len = accepted_host(host)?;
    if host_len < host.len() {
        end = s + host_len; // rule 4: a CJK character after the host
    }
    let text = std::str::from_utf8(hay.get(s..end)?).ok()?;
    Some(Abbrev { start: s, end, url: format!("{scheme}://{text}"), kind })
}

/// Rule 2: whether an abbreviated URI may start at `s`.
fn word_start(hay: &[u8], s: usize) -> bool {
    let Some(&prev) = s.checked_sub(1).and_then(|p| hay.get(p)) else {
        return true;
    };
    match prev {
        b':' => {
            // The Appendix E prefix `URL:` (not inside a word).
            let Some(p) = s.checked_sub(4) else {
                return false;
            };
            let prefix =
                hay.get(p..s).is_some_and(|w| w.eq_ignore_ascii_case(b"URL:"));
            let before = p.checked_sub(1).and_then(|q| hay.get(q));
            prefix && !before.is_some_and(u8::is_ascii_alphanumeric)
        }
        b'.' | b'-' | b'_' | b'/' | b'\\' | b'@' => false,
        b => !b.is_ascii_alphanumeric(),
    }
}

/// Rule 4: a byte of a host name (non-ASCII bytes belong to characters
/// that [`bare`] already accepted).
fn is_host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') || b >= 0x80
}

/// Rules 4 and 8: the length of `host` (or of its part before a CJK
/// character) when it ends in a public suffix.
fn accepted_host(host: &str) -> Option<usize> {
    if has_public_suffix(host) {
        return Some(host.len());
    }
    let (cut, c) = host.char_indices().find(|&(_, c)| !c.is_ascii())?;
    let head = host.get(..cut)?;
    (is_cjk(c) && has_public_suffix(head)).then_some(cut)
}

/// Characters of scripts written without spaces between words (CJK,
/// kana, hangul and what follows them in the BMP), after which a host
/// name may end with no space.
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0xD7FF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

/// The wrapper that precedes `s`, which decides the closer that ends a
/// bare URL (urlx `delimit` rule 3, reduced to what [`bare`] uses).
fn opener(hay: &[u8], s: usize) -> Open {
    match s.checked_sub(1).and_then(|p| hay.get(p)) {
        Some(b'(') => Open::Paren,
        Some(b'[') => Open::Square,
        Some(b'\'') => Open::Single,
        _ => Open::None,
    }
}

/// Rules 6 to 9: the e-mail address whose `@` is at `at`, if any.
pub(crate) fn email_at(
    hay: &[u8],
    at: usize,
    max_len: usize,
) -> Option<Abbrev> {
    // Rule 6: the local part, an RFC 5322 section 3.4.1 dot-atom-text
    // of at most 64 bytes (RFC 5321 section 4.5.3.1.1); one byte more
    // than the longest is looked at.
    let floor = at.saturating_sub(MAX_LOCAL + 1);
    let mut run = at;
    while run > floor && hay.get(run - 1).is_some_and(|&b| is_local_byte(b)) {
        run -= 1;
    }
    if at - run > MAX_LOCAL {
        return None;
    }
    // Rule 7: what precedes it (a URL's `userinfo@`, RFC 3986 section
    // 3.2.1, or `mailto:`, RFC 6068).
    if let Some(&prev) = run.checked_sub(1).and_then(|p| hay.get(p)) {
        if matches!(prev, b':' | b'/' | b'?' | b'@') {
            return None;
        }
        if prev >= 0x80
            && char_before(hay, run)
                .is_none_or(|c| c.is_alphanumeric() && !is_cjk(c))
        {
            return None;
        }
    }
    let mut s = after_key(hay, run, at);
    while s < at
        && !hay.get(s).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    {
        s += 1;
    }
    let local = hay.get(s..at)?;
    if local.is_empty()
        || local.ends_with(b".")
        || local.windows(2).any(|w| w == b"..")
    {
        return None;
    }
    if on_id_header_line(hay, s) || after_smtp_id(hay, s) {
        return None;
    }
    // Rule 8: the domain (RFC 5322 section 3.4.1), ending in an ICANN
    // public suffix.
    let limit = hay.len().min(s.saturating_add(max_len.saturating_add(1)));
    let d = domain_end(hay, at + 1, limit, false);
    if d - s > max_len {
        return None;
    }
    match hay.get(d) {
        Some(b'@' | b'/') => return None,
        Some(b':') => {
            let next = hay.get(d + 1);
            if next.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'/') {
                return None;
            }
        }
        _ => {}
    }
    let mut end = d;
    while end > at + 1 && hay.get(end - 1) == Some(&b'.') {
        end -= 1;
    }
    let domain = std::str::from_utf8(hay.get(at + 1..end)?).ok()?;
    let domain_len = accepted_host(domain)?;
    let domain = domain.get(..domain_len)?;
    let end = at + 1 + domain_len;
    // Rule 9: the `mailto:` URI (RFC 6068 section 2), percent-encoding
    // what RFC 3986 section 2 does not allow in a URI, `%` and `#`
    // (`/ ? [ ]`, the other gen-delims to encode, cannot occur).
    let mut url = String::with_capacity(8 + end - s);
    url.push_str("mailto:");
    for &b in local {
        if matches!(b, b'%' | b'#' | b'^' | b'`' | b'{' | b'|' | b'}') {
            url.push_str(&format!("%{b:02X}"));
        } else {
            url.push(char::from(b));
        }
    }
    url.push('@');
    url.push_str(domain);
    Some(Abbrev { start: s, end, url, kind: Kind::Email })
}

/// Rule 6: where the local part in `hay[run..at]` starts after its last
/// `key=` (ASCII letters and `=`, at `run` or after a `&`).
fn after_key(hay: &[u8], run: usize, at: usize) -> usize {
    let mut start = run;
    let mut i = run;
    while i < at {
        let key_start = i == run || hay.get(i - 1) == Some(&b'&');
        // A key: a letter, then letters, digits, `.`, `-`, `_`
        // (`smtp.mailfrom=`, `header.i=` of Authentication-Results).
        let mut j = i;
        if hay.get(j).is_some_and(u8::is_ascii_alphabetic) {
            j += 1;
            while j < at
                && hay.get(j).is_some_and(|&b| {
                    b.is_ascii_alphanumeric()
                        || matches!(b, b'.' | b'-' | b'_')
                })
            {
                j += 1;
            }
        }
        // SRS addresses (`SRS0=hash=tt=domain=local@`) keep their `=`.
        let srs = hay.get(i..j).is_some_and(|k| {
            k.eq_ignore_ascii_case(b"SRS0") || k.eq_ignore_ascii_case(b"SRS1")
        });
        if key_start && j > i && j < at && hay.get(j) == Some(&b'=') && !srs {
            start = j + 1;
            i = j + 1;
        } else {
            i = j.max(i + 1);
        }
    }
    start
}

/// Rule 7: an SMTP queue or message identifier in angle brackets after
/// `id` (`with ESMTP id <0GZ1@mail.example>` in a Received field, RFC
/// 5321 section 4.4), which looks like an address but is none.
fn after_smtp_id(hay: &[u8], s: usize) -> bool {
    let Some(before) = s.checked_sub(4).and_then(|b| hay.get(b..s)) else {
        return false;
    };
    before.eq_ignore_ascii_case(b"id <")
}

/// Rule 6: RFC 5322 section 3.2.3 `atext` without `/` and `?`, and `.`.
fn is_local_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'='
                | b'^'
                | b'_'
                | b'`'
                | b'{'
                | b'|'
                | b'}'
                | b'~'
                | b'.'
        )
}

/// Rule 7: whether the local part starting at `s` is that of a message
/// identifier: on an identifier header line (RFC 5322 section 3.6.4), a
/// continuation of one (section 2.2.3), or after `In article <`. Lines
/// starting more than [`HEADER_LOOKBACK`] bytes back are not looked at,
/// so the answer never depends on where the input was cut.
fn on_id_header_line(hay: &[u8], s: usize) -> bool {
    const HEADERS: [&[u8]; 5] = [
        b"message-id:",
        b"in-reply-to:",
        b"references:",
        b"content-id:",
        b"resent-message-id:",
    ];
    let floor = s.saturating_sub(HEADER_LOOKBACK);
    let starts = |text: &[u8], h: &[u8]| {
        text.get(..h.len()).is_some_and(|t| t.eq_ignore_ascii_case(h))
    };
    let mut end = s;
    let mut first = true;
    loop {
        let before = hay.get(floor..end).unwrap_or_default();
        let line = match memchr::memrchr(b'\n', before) {
            Some(p) => floor + p + 1,
            None if floor == 0 => 0,
            None => return false,
        };
        let mut t = line;
        while hay.get(t).is_some_and(|b| b" \t>|".contains(b)) && t < end {
            t += 1;
        }
        let text = hay.get(t..end).unwrap_or_default();
        if HEADERS.iter().any(|h| starts(text, h)) {
            return true;
        }
        if first && starts(text, b"in article <") && t + 12 == s {
            return true;
        }
        // Only a line starting with `<` may continue a folded header.
        if line == 0 || !text.starts_with(b"<") {
            return false;
        }
        end = line - 1;
        first = false;
    }
}

/// urlx `delimit` rule 5 for a URL starting at `s` (urlx's `bare`
/// without the candidate bookkeeping and the rule 6 line joining): the
/// end of the URL after trailing punctuation is trimmed, or `None` when
/// it is longer than `max_len`.
fn bare(hay: &[u8], s: usize, max_len: usize, open: Open) -> Option<usize> {
    let limit = hay.len().min(s.saturating_add(max_len.saturating_add(1)));
    let mut brackets = Brackets::default();
    let mut i = s;
    while i < limit {
        // The common case first: a run of URI bytes with no bracket or
        // quote.
        i = plain_run(hay, i, limit);
        if i >= limit {
            break;
        }
        match brackets.step(hay, i, open, false) {
            Step::Next(next) => i = next,
            Step::End | Step::Other => break,
        }
    }
    if i - s > max_len {
        return None;
    }
    Some(trim_trailing(hay, s, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(text: &str) -> Vec<(String, String, Kind)> {
        let mut out = Vec::new();
        scan(text.as_bytes(), 0, text.len(), 2048, Opts::default(), |a| {
            out.push((text[a.start..a.end].to_string(), a.url, a.kind));
        });
        out
    }

    fn urls(text: &str) -> Vec<String> {
        find(text).into_iter().map(|(_, u, _)| u).collect()
    }

    fn one(text: &str, want: &str) {
        assert_eq!(urls(text), vec![want.to_string()], "in {text:?}");
    }

    fn none(text: &str) {
        assert_eq!(urls(text), Vec::<String>::new(), "in {text:?}");
    }

    #[test]
    fn www_and_ftp() {
        one("see www.example.com/path", "http://www.example.com/path");
        one("ftp.example.org/pub", "ftp://ftp.example.org/pub");
        one("ftp.funet.fi", "ftp://ftp.funet.fi");
        one("WWW.Example.COM", "http://WWW.Example.COM");
        one("www.w3.org/Addressing/", "http://www.w3.org/Addressing/");
        let all = find("at www.example.com.");
        assert_eq!(all[0].0, "www.example.com");
    }

    #[test]
    fn trailing_punctuation() {
        one("www.example.com.", "http://www.example.com");
        one("(www.example.com)", "http://www.example.com");
        one("visit www.example.com, or", "http://www.example.com");
        one("www.example.com/a?b=c!", "http://www.example.com/a?b=c");
        one("'www.example.com/x'", "http://www.example.com/x");
        one("[www.example.com]", "http://www.example.com");
        one("www.example.com's page", "http://www.example.com");
        one("www.example.com:", "http://www.example.com");
    }

    #[test]
    fn balanced_parentheses() {
        one("(see www.example.com/a_(b))", "http://www.example.com/a_(b)");
        one("(www.example.com/a_(b))", "http://www.example.com/a_(b)");
        one(
            "www.example.org/wiki/Foo_(bar)",
            "http://www.example.org/wiki/Foo_(bar)",
        );
    }

    #[test]
    fn port_query_fragment() {
        one(
            "www.example.co.uk:8080/x?y#z",
            "http://www.example.co.uk:8080/x?y#z",
        );
        one("www.example.com:8080", "http://www.example.com:8080");
        one("www.example.com?q=1", "http://www.example.com?q=1");
        one("www.example.com#top", "http://www.example.com#top");
        one("www.example.com:http", "http://www.example.com");
        one("www.example.com:123456/x", "http://www.example.com");
    }

    #[test]
    fn non_ascii() {
        one("www.example.de/Straße", "http://www.example.de/Straße");
        one("www.bücher.de", "http://www.bücher.de");
        one("请访问www.example.com。", "http://www.example.com");
        one("网址：www.example.cn是官网", "http://www.example.cn");
        one("«www.example.fr»", "http://www.example.fr");
    }

    #[test]
    fn angle_and_url_prefix() {
        one("<www.example.com>", "http://www.example.com");
        one("<URL:www.example.com/x>", "http://www.example.com/x");
        one("URL: www.example.com", "http://www.example.com");
        let all = find("<www.example.com>");
        assert_eq!(all[0].0, "www.example.com");
    }

    #[test]
    fn not_at_word_start() {
        none("http://www.example.com");
        none("https://www.example.com/path");
        none("xwww.a.com");
        none("//www.example.com");
        none("a.www.example.com");
        none("foo-www.example.com");
        none("\\\\www.example.com\\share");
        none("myURL:www.example.com");
        none("x:www.example.com");
    }

    #[test]
    fn host_needs_public_suffix() {
        none("node.js");
        none("1,420.00.zip");
        none("foo.bar");
        none("www.x");
        none("www.node.js");
        none("www.1,420.00.zip");
        none("www.example");
        none("ftp.internal/pub");
        one("www.example.zip", "http://www.example.zip");
    }

    #[test]
    fn www_followed_by_at_is_an_address() {
        one(
            "www.example.com@example.org",
            "mailto:www.example.com@example.org",
        );
    }

    #[test]
    fn emails() {
        one("joe@example.com", "mailto:joe@example.com");
        one(
            "joe.bloggs+tag@example.org,",
            "mailto:joe.bloggs+tag@example.org",
        );
        one("Mail <joe@example.com>.", "mailto:joe@example.com");
        one("'joe@example.com'", "mailto:joe@example.com");
        one("(joe@example.co.uk)", "mailto:joe@example.co.uk");
        one("joe@example.com.", "mailto:joe@example.com");
        one("joe@www.example.com", "mailto:joe@www.example.com");
        one("o'brien@example.ie", "mailto:o'brien@example.ie");
        one(
            "bounces+123-abc=example.com@example.net",
            "mailto:bounces+123-abc=example.com@example.net",
        );
        one("a#b{c}@example.com", "mailto:a%23b%7Bc%7D@example.com");
        one("jo%e@example.com", "mailto:jo%25e@example.com");
        one("user@пример.рф", "mailto:user@пример.рф");
        one("联系joe@example.cn。", "mailto:joe@example.cn");
        one("email: joe@example.com: ok", "mailto:joe@example.com");
        one("joe@example.com是", "mailto:joe@example.com");
    }

    #[test]
    fn email_false_positives() {
        one("title=dhiggins@example.net", "mailto:dhiggins@example.net");
        one("a=1&to=joe@example.com", "mailto:joe@example.com");
        one("realm=myhost@example.com", "mailto:myhost@example.com");
        one(
            "list-bounces+joe=example.com@example.org",
            "mailto:list-bounces+joe=example.com@example.org",
        );
        one(
            "SRS0=HHH=TT=example.com=joe@example.org",
            "mailto:SRS0=HHH=TT=example.com=joe@example.org",
        );
        none("title=@example.com");
        none("a@b");
        none("user@localhost");
        none("x@y.z");
        none("mailto:joe@example.com");
        none("http://user@example.com/");
        none("http://example.com/u/joe@example.org");
        none("http://example.com/?to=joe@example.org");
        none("git@github.com:org/repo.git");
        none("user@example.com:22");
        none("joe@example.com/path");
        none("a@b.com@c.com");
        none(".@example.com");
        none("joe.@example.com");
        none("jo..e@example.com");
        none("müller@example.de");
        none("icon@2x.png");
        none("lodash@4.17.21");
        none("@joe");
        none("Message-ID: <1234.5678@mail.example.com>");
        none("In-Reply-To: <abc@example.com>");
        none("references: <abc@example.com> <def@example.org>");
        none("> Message-ID: <20020710092545.D20950@example.com>");
        none("References:\n <a@example.com>\n <b@example.com>");
        none("> In-Reply-To:\n> <2D00AD0E@Denntex021.example.net>;");
        none("In article <1qms3c$37t@news.example.de>, x writes:");
        // Received: ... with ESMTP id <...> (spamassassin nice/005).
        none("with ESMTP id <0GZ100BMXH2CP5@mails.rz.rwth-aachen.de> for");
        // Authentication-Results keys (kasan-dev list).
        one(
            "smtp.mailfrom=juntong.deng@outlook.com;",
            "mailto:juntong.deng@outlook.com",
        );
        none("dkim=pass header.i=@google.com");
        one(
            "SRS0=h=t=a.com=joe@example.org",
            "mailto:SRS0=h=t=a.com=joe@example.org",
        );
        one(
            "In article <1qms3c$37t@news.example.de>, wong@example.de writes",
            "mailto:wong@example.de",
        );
        one("To: a\n <joe@example.com>", "mailto:joe@example.com");
        one(
            "Message-ID: <x@example.com>\n\n<joe@example.com>",
            "mailto:joe@example.com",
        );
        let long = format!("{}@example.com", "a".repeat(65));
        none(&long);
        let ok = format!("{}@example.com", "a".repeat(64));
        assert_eq!(urls(&ok).len(), 1);
    }

    #[test]
    fn opts_select_kinds() {
        let text = b"www.example.com joe@example.com";
        let mut kinds = Vec::new();
        let opts = Opts { www: false, emails: true };
        scan(text, 0, text.len(), 2048, opts, |a| kinds.push(a.kind));
        assert_eq!(kinds, [Kind::Email]);
        kinds.clear();
        let opts = Opts { www: true, emails: false };
        scan(text, 0, text.len(), 2048, opts, |a| kinds.push(a.kind));
        assert_eq!(kinds, [Kind::Www]);
    }

    #[test]
    fn offsets_and_order() {
        let text = "x joe@example.com y www.example.com/a ftp.example.org";
        let mut got = Vec::new();
        scan(text.as_bytes(), 0, text.len(), 2048, Opts::default(), |a| {
            got.push((a.start, a.end, a.kind));
        });
        assert_eq!(
            got,
            [(2, 17, Kind::Email), (20, 37, Kind::Www), (38, 53, Kind::Ftp)]
        );
    }

    #[test]
    fn max_len() {
        let text = b"www.example.com/abcdef";
        let mut n = 0;
        scan(text, 0, text.len(), 21, Opts::default(), |_| n += 1);
        assert_eq!(n, 0);
        scan(text, 0, text.len(), 22, Opts::default(), |_| n += 1);
        assert_eq!(n, 1);
    }

    #[test]
    fn window_selects_by_first_byte() {
        let text = b"joe@example.com www.example.com";
        let mut got = Vec::new();
        // The `@` and the rest lie past `to`: still reported.
        scan(text, 0, 1, 2048, Opts::default(), |a| got.push(a.start));
        scan(text, 1, 16, 2048, Opts::default(), |a| got.push(a.start));
        scan(text, 16, 17, 2048, Opts::default(), |a| got.push(a.start));
        scan(text, 17, text.len(), 2048, Opts::default(), |a| {
            got.push(a.start)
        });
        assert_eq!(got, [0, 16]);
    }

    #[test]
    fn odd_ranges_do_not_panic() {
        let text = b"www.example.com";
        scan(text, 10, 5, 2048, Opts::default(), |_| {});
        scan(text, 0, 100, 2048, Opts::default(), |_| {});
        scan(text, 100, 200, 2048, Opts::default(), |_| {});
        scan(text, 0, text.len(), 0, Opts::default(), |_| {});
        scan(text, 0, text.len(), usize::MAX, Opts::default(), |_| {});
    }
}

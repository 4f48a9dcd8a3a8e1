//! Owns the forms of URIs written without their scheme: abbreviated URIs
//! (`www.example.com/path`, `ftp.example.org`), bare domain names
//! (`example.com/path`) and bare e-mail addresses (`joe@example.com`):
//! where they start and end in text, and the absolute URI each stands
//! for.
//!
//! Appendix F of draft-fielding-uri-rfc2396bis-00 ("Abbreviated URIs")
//! describes references "consisting of only the authority and path
//! portions of the identified resource, such as www.w3.org/Addressing/",
//! completed by "context-based heuristics" ("most hostnames beginning
//! with "www" are likely to have a URI prefix of "http://""); it names no
//! standard set of heuristics. draft-fielding-url-syntax-05 has no such
//! section. UTS #58 (Unicode Link Detection and Formatting: URLs and
//! Email Addresses, 17.0) does specify the detection of links "where
//! those Schemes are missing but implied": a domain name ending in a
//! top-level domain, with its path, query and fragment ended by the
//! properties Link_Term and Link_Bracket, and e-mail addresses whose
//! local part is made of characters with the property Link_Email. The
//! rules below are urlx's; rules 6 to 14 follow UTS #58 where it speaks,
//! and say so where they part from it. Its conformance test,
//! LinkDetectionTest.txt, runs in `tests/uts58_detection.rs`, which
//! lists and argues each line urlx treats otherwise.
//!
//! Every form is printed as written (the text of the hit), and
//! completed to an absolute URI ([`Abbrev::url`], urlx's
//! `Hit::resolved`): `http://`, `ftp://` or `mailto:` and the text.
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
//!    the Appendix E prefix, not a scheme: `<URL:www.a.com>` is found,
//!    and so is `"\nwww.a.com"`: a backslash escape of a JSON, C or
//!    Python string (`\n`, `\t`, `\xHH`, `\u003c`, ...) is not text
//!    glued to the name. Before an address or a domain name only the
//!    hexadecimal escapes (`\xHH`, `\uHHHH`) count: after a backslash a
//!    letter more often starts a name in a Windows path
//!    (`C:\docs\readme.md`) or a user in `DOMAIN\user`. An escape that
//!    stands for a letter (`\u0041`) is read as a separator too.
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
//! 6. `local@domain`, the local part being the run of characters with
//!    the UTS #58 property Link_Email before the `@`: the `atext` of RFC
//!    5322 section 3.2.3, `.`, and the letters, marks and digits of every
//!    script (RFC 6531 section 3.3 extends `atext` to UTF-8), so
//!    `αβγ.δεζ@example.com` and `müller@example.de` are addresses. `/`
//!    and `?` (Link_Email, and legal `atext`) are taken as the end of a
//!    URL path or query before the local part instead. At most 64 bytes
//!    (RFC 5321 section 4.5.3.1.1; RFC 6531 section 3.3 keeps the limit
//!    in octets). The local part starts at the word start: a `key=` of
//!    ASCII letters at its start or after a `&` ends the part before it
//!    (an attribute or parameter name: `title=joe@a.com`,
//!    `a=1&to=joe@a.com`; VERP and SRS local parts such as
//!    `list-bounces+x=a.com` or `SRS0=h=t=a.com=joe` are kept); CJK
//!    characters directly followed by an ASCII letter or digit are the
//!    text that the address is glued to (`联系joe@a.cn` gives
//!    `joe@a.cn`, as Chinese and Japanese write no space there, while
//!    `アルベルト.アルベルト@a.com` is one local part); then leading ASCII
//!    punctuation other than `.` is dropped (`'joe@a.com'`). What is
//!    left must be an RFC 5322 section 3.4.1 `dot-atom-text`, as UTS #58
//!    also requires: not empty, not starting or ending with a dot, no
//!    `..` (`.john@a.com`, `john.@a.com`, `john..smith@a.com` are no
//!    addresses, and their domain is no bare domain either, rule 11).
//! 7. Not an address when what precedes the local part is `/`, `?` or
//!    `@`, or invalid UTF-8 (text in a legacy charset, where `müller@`
//!    would be read as `ller@`), or `:` (as in `mailto:` or
//!    `sip:joe@a.com`, URLs that urlx reports as such, or an ident
//!    `IDENT:root@host` in a Received field) unless the word before the
//!    colon labels an address: `URL` (the Appendix E prefix:
//!    `<url:joe@a.com>`), the address fields of RFC 5322 section 3.6
//!    (`From`, `Sender`, `Reply-To`, `To`, `Cc`, `Bcc`), or `Email`,
//!    `E-mail`, `Mail`, `Contact` and `SMTP` (the address type of
//!    Exchange proxy addresses), in any case. Nor is it one in a
//!    message identifier, which looks like an address (RFC 5322 section
//!    3.6.4): on a `Message-ID:`, `In-Reply-To:`, `References:`,
//!    `Content-ID:` or `Resent-Message-ID:` header line, or on a line
//!    starting with `<` that continues one (a folded header, RFC 5322
//!    section 2.2.3), or in Usenet's attribution `In article <id>`, or
//!    after `id <` (an SMTP identifier in a Received field); quote marks
//!    (`>`, `|`) and blanks at the start of a line are skipped. Only
//!    lines starting less than 180 bytes before the local part are
//!    looked at.
//! 8. The domain is read as a bare domain's host (rule 12) starting
//!    right after the `@`: a host name ending in an ICANN public suffix,
//!    so `a@b`, `user@localhost`, `x@y.z` and `joe@-x.a.com` (a label
//!    starting with `-`, RFC 1123 section 2.1) give nothing, while
//!    `joe@a.com-` and `joe@a.com--the team` give `joe@a.com`. The
//!    address ends with its domain (UTS #58): `joe@a.com/path` gives
//!    `joe@a.com`. A domain followed by `@`, or by `:` and a letter,
//!    digit or `/`, is not an address: `git@github.com:org/repo`,
//!    `user@host:22` and `anonymous@cvs.example.org:/cvsroot` are SSH,
//!    scp, git and CVS locations (a user at a host, RFC 3986 section
//!    3.2.1 without the scheme), which mail and logs hold far more often
//!    than an address followed by a port and path. UTS #58 links the
//!    address there (LinkDetectionTest.txt:
//!    `john.doe@example.com:1234/forum/...`); urlx keeps the rule.
//! 9. The URI is `mailto:` and the address (RFC 6068 section 2), which
//!    percent-encodes what cannot appear in a URI, `%`, and the
//!    gen-delims but `@` and `:`; of those only `%`, `#`, `^`, `` ` ``,
//!    `{`, `|` and `}` can occur in a local part read by rule 6. Other
//!    characters stay as written (an IRI, RFC 3987; urlx's `--ascii`
//!    gives the URI form).
//!
//! # Bare domain names (`Opts::domains`)
//!
//! 10. The trigger is a full stop between two host characters (rule 11):
//!     `.`, or U+3002 IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP
//!     or U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP, which UTS 46 maps to
//!     `.` and UTS #58 reads as one (`普遍适用测试。我爱你`).
//! 11. The host is the run of host characters around it: ASCII letters,
//!     digits, `-`, `_`, full stops, and non-ASCII characters of
//!     Link_Term Include. It is no domain when preceded by `@` (an
//!     address's domain, rule 8, or nothing when the address is none:
//!     `@example.com`, `.john@example.com`), by `/` or `\` (a path or
//!     a URL's host: `src/main.rs`, `\\host.example.com\share`; but a
//!     hexadecimal escape `\xHH` or `\uHHHH` before it is not part of
//!     it: `\u003cexample.com` is `example.com`), by `:`
//!     other than the `URL:` prefix, by `%` (percent-encoded text, as
//!     in `%28example.com`), or by invalid UTF-8; nor on a line of
//!     uuencoded data (as urlx's `delimit` rule 1). Symbols without
//!     Link_Email at its start are text (`©example.net`). CJK characters
//!     directly followed by an ASCII letter or digit in its first label
//!     are the text it is glued to (`请访问example.com`, as in rule 6).
//! 12. It must be a host name ending in an ICANN public suffix (rule 4),
//!     with no empty label and no label starting or ending with `-`
//!     (RFC 1123 section 2.1, RFC 1034 section 3.5; UTS #58 checks the
//!     same). Trailing full stops, hyphens and underscores are not part of
//!     it (`see example.com.`, a dash after `example.com-`, emphasis
//!     after `example.com_`: rule 15). When the run is no
//!     such host, it is tried up to a `--` (a dash written with two
//!     hyphens: `example.com--the team`; `--` in the third and fourth
//!     position of a label, as in `xn--`, is kept), and then between the
//!     non-ASCII characters without Link_Email around the trigger
//!     (dashes, bullets, symbols: `site—example.com—here`). Names that
//!     text holds more often than domain names are left out (the list
//!     and the reasons are at `like_a_host`): a decimal number first
//!     (`1,420.00.zip`), `_` inside a label (`usrp_hwd.py`), a name in
//!     reverse order (`com.android.phone`), a top-level label in title
//!     case (`them.My`, `R.Hughes`), a newsgroup (`sci.space`), and two
//!     labels ending in a file-name extension such as `py` or `zip`
//!     (`setup.py`); and a name directly followed by `(`, a call in
//!     code (`logging.info('x')`). UTS #58 links them all.
//! 13. An optional `:port` follows (1 to 5 digits, at most 65535, not
//!     followed by a letter or digit; otherwise the link ends with the
//!     host: `example.com:http`); then `/`, `?` or `#` starts a
//!     path, query or fragment, which ends as UTS #58 ends them: a
//!     Link_Term Hard character ends the link, a Soft one (`. , : ; ! ?
//!     ' "` and their non-ASCII kin) belongs to it only when an Include
//!     character follows, an Open bracket is pushed on a stack and a
//!     Close one must pair with the top of the stack (Link_Bracket) or
//!     the link ends before it. The stack is emptied at each `/` of the
//!     path, at each `=` and `&` of the query, and at each `:~:` (a
//!     fragment directive) of the fragment, so brackets pair only within
//!     a segment (`example.com/αβ(γ/δ)` ends before the `)`); `?` starts
//!     the query and `#` the fragment. At most 16 brackets are open at
//!     once. As urlx ends every URL in bare text (`delimit` rule 5),
//!     `<`, `>`, `\` and `` ` `` also end it (RFC 3986 Appendix C: the
//!     delimiters of URIs in text), and `"` is part of it only before a
//!     letter or digit (`"example.com/x","next"` in JSON or CSV).
//! 14. A host followed by local-part characters (rule 6) up to an `@`
//!     is the start of an address, not a domain (`foo.bar+tag@a.com`,
//!     `www.a.com@b.org`). The URI is `http://` and the text
//!     ([`Kind::Domain`]; UTS #58 completes such links with http or
//!     https); with `Opts::www` too, a host starting with `www.` or
//!     `ftp.` is [`Kind::Www`] or [`Kind::Ftp`] as in rule 1, with the
//!     end of rules 12 and 13.
//!
//! # Emphasis
//!
//! 15. `_` around an item marks emphasis (Markdown, and plain-text mail
//!     before it: `_example.com_`, `_www.example.com_`,
//!     `_joe@example.com_`), as `*` does (`delimit` rule 5): a run of
//!     one to three `_` at a word start before the item, which starts
//!     with a letter, digit or non-ASCII character, is no part of it
//!     when a `_` directly follows the item's end, which rule 12 leaves
//!     out of a host name. A name that starts with `_` and is not so
//!     closed keeps it (`_dmarc.example.com`, RFC 8552); a label of `_`
//!     alone or `_` before `-` is no service label and no host name.
//!
//! # Chunking
//!
//! [`scan`] reports the items whose first byte lies in `from..to`. Each
//! start is judged on its own, from at most [`LOOKBACK`] bytes before it
//! and `max_len` + [`LOOKAHEAD_SLACK`] bytes after `to`, so the output is
//! the same however a text is cut into windows, as with urlx's chunks.
//! Each trigger (a full stop or `@`) is judged from at most 256 bytes
//! before it, which is what urlx gives every trigger.
//!
//! Delimiting uses the helpers of urlx's `delimit` module (the byte tables,
//! trailing punctuation, Unicode stop characters), so that abbreviated
//! URIs end where urlx ends a URL.

use crate::data::psl::has_public_suffix;
use crate::data::uts58::{LinkTerm, link_bracket, link_email, link_term};
use crate::delimit::{
    Brackets, Open, Step, escape_before, escape_ends_at, plain_run,
    trim_trailing, uuencoded_line,
};
use crate::lex::{char_at, char_before, is_unicode_stop};

/// Bytes before `from` that [`scan`] may read: the window delimiting
/// reads, which every chunk of the pipeline provides.
pub const LOOKBACK: usize = crate::delimit::LOOKBACK;

/// Bytes past `to + max_len` that [`scan`] may read: as delimiting.
pub const LOOKAHEAD_SLACK: usize = crate::delimit::LOOKAHEAD_SLACK;

/// Longest local part (RFC 5321 section 4.5.3.1.1).
const MAX_LOCAL: usize = 64;

/// How far back the header-line test of rule 7 looks for a line start.
/// (With the local part's 64 bytes, this stays within the 256 bytes of
/// look-behind urlx gives every trigger, `@` included.)
const HEADER_LOOKBACK: usize = 180;

/// How far back from its trigger a bare domain's host may start (rule
/// 11): its first label, at most 63 octets in its ASCII form, always
/// fits; with the `URL:` prefix and the character before it, what is
/// read stays within the 256 bytes urlx gives every trigger.
const HOST_BACK: usize = 200;

/// Most brackets open at once in a bare domain's path, query or
/// fragment (rule 13); one more ends it.
const MAX_NESTING: usize = 16;

/// What [`scan`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opts {
    /// Abbreviated URIs starting with `www.` or `ftp.` (rules 1 to 5).
    pub www: bool,
    /// Bare e-mail addresses (rules 6 to 9).
    pub emails: bool,
    /// Bare domain names, as UTS #58 detects them (rules 10 to 14).
    pub domains: bool,
}

impl Opts {
    /// Nothing: the default of urlx, which finds URLs by their scheme.
    pub const NONE: Opts = Opts { www: false, emails: false, domains: false };

    /// Whether any form is looked for.
    pub fn any(self) -> bool {
        self.www || self.emails || self.domains
    }
}

impl Default for Opts {
    /// Abbreviated URIs and e-mail addresses; bare domain names, the
    /// form most often met in text that is no link (file names, code),
    /// are asked for on their own.
    fn default() -> Self {
        Opts { www: true, emails: true, domains: false }
    }
}

/// What an [`Abbrev`] was recognized as.
pub use crate::hit::AbbrevKind as Kind;

/// An abbreviated URI, bare domain name or e-mail address found by
/// [`scan`].
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

/// Report, in order of `start`, every abbreviated URI, bare domain name
/// and e-mail address whose first byte lies in `hay[from..to]`.
///
/// `hay` should hold [`LOOKBACK`] bytes before `from` (or the start of
/// the text) and `max_len` + [`LOOKAHEAD_SLACK`] bytes after `to` (or
/// the end of the text); then the result does not depend on where the
/// text was cut. Items longer than `max_len` bytes are not reported.
/// Each trigger is judged on its own: an item inside another (an
/// address in a URL's path) is reported too, as is one that overlaps
/// another; urlx's scanner skips the triggers inside an item it took.
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
    if opts.domains {
        // Rule 10: the trigger is a full stop, at most `HOST_BACK` bytes
        // after the start of the host (plus the stop's own bytes).
        let end = to.saturating_add(HOST_BACK + 3).min(hay.len());
        let area = hay.get(from..end).unwrap_or_default();
        let ascii = memchr::memchr_iter(b'.', area);
        let wide = memchr::memchr2_iter(0xE3, 0xEF, area);
        for off in ascii.chain(wide) {
            if let Some(a) = domain_at(hay, from + off, max_len, opts.www)
                && (from..to).contains(&a.start)
            {
                found.push(a);
            }
        }
    } else if opts.www {
        // Rule 1 (2396bis Appendix F): the trigger is the dot of `www.`
        // or `ftp.`.
        let end = to.saturating_add(3).min(hay.len());
        let area = hay.get(from..end).unwrap_or_default();
        for off in memchr::memchr_iter(b'.', area) {
            let Some(s) = (from + off).checked_sub(3) else {
                continue;
            };
            if (from..to).contains(&s)
                && let Some(a) = abbreviated_at(hay, s, max_len)
            {
                found.push(a);
            }
        }
    }
    if opts.emails {
        // Rule 6: the trigger is the `@`, up to a local part's length
        // after the window.
        let end = to.saturating_add(MAX_LOCAL + 1).min(hay.len());
        let area = hay.get(from..end).unwrap_or_default();
        for off in memchr::memchr_iter(b'@', area) {
            if let Some(a) = email_at(hay, from + off, max_len)
                && (from..to).contains(&a.start)
            {
                found.push(a);
            }
        }
    }
    // The full stops of one host all give the same item.
    found.sort_by_key(|a| (a.start, a.end));
    found.dedup();
    found.into_iter().for_each(&mut f);
}

/// The abbreviated URI, domain or address that is all of `hay[s..e]`,
/// if any: the text of `<URL:...>` (Appendix E), which urlx reads as a
/// relative reference otherwise.
pub(crate) fn whole(
    hay: &[u8],
    s: usize,
    e: usize,
    max_len: usize,
    opts: Opts,
) -> Option<Abbrev> {
    let text = hay.get(s..e)?;
    let all = |a: &Abbrev| a.start == s && a.end == e;
    if opts.emails
        && let Some(at) = memchr::memchr(b'@', text)
        && let Some(a) = email_at(hay, s + at, max_len).filter(all)
    {
        return Some(a);
    }
    if opts.domains {
        let mut i = s;
        while i < e {
            if full_stop_at(hay, i).is_some() {
                return domain_at(hay, i, max_len, opts.www).filter(all);
            }
            i += 1;
        }
        return None;
    }
    if opts.www {
        return abbreviated_at(hay, s, max_len).filter(all);
    }
    None
}

/// Rule 1: the kind and scheme of an abbreviated URI starting `text`
/// (`www.` or `ftp.`, in any case).
fn abbreviated_kind(text: &[u8]) -> Option<(Kind, &'static str)> {
    let head = text.get(..4)?;
    if head.eq_ignore_ascii_case(b"www.") {
        Some((Kind::Www, "http"))
    } else if head.eq_ignore_ascii_case(b"ftp.") {
        Some((Kind::Ftp, "ftp"))
    } else {
        None
    }
}

/// Rules 1 to 5: the abbreviated URI (2396bis Appendix F: authority and
/// path without the scheme) starting at `s`, if any.
pub(crate) fn abbreviated_at(
    hay: &[u8],
    s: usize,
    max_len: usize,
) -> Option<Abbrev> {
    let (kind, scheme) = abbreviated_kind(hay.get(s..)?)?;
    // Rule 15: `_www.example.com_`, a run of `_` at a word start.
    let open = hay[s.saturating_sub(MAX_EMPHASIS + 1)..s]
        .iter()
        .rev()
        .take_while(|&&b| b == b'_')
        .count();
    let open = if open > MAX_EMPHASIS { 0 } else { open };
    if !word_start(hay, s) && (open == 0 || !word_start(hay, s - open)) {
        return None;
    }
    // Rule 3: delimited as in Appendix E (urlx `delimit` rule 5).
    let mut end = bare(hay, s, max_len, opener(hay, s - open))?;
    if open > 0 {
        let close =
            hay[s..end].iter().rev().take_while(|&&b| b == b'_').count();
        end -= close;
        // `bare` may have left the closing `_` out itself (`delimit`
        // rule 5, emphasis).
        if end == s || hay.get(end) != Some(&b'_') {
            return None;
        }
    }
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

/// Rule 15: the longest run of `_` that marks emphasis (`___` is bold
/// italics in Markdown); a longer run is a line or a form field.
const MAX_EMPHASIS: usize = 3;

/// Rule 15: the number of `_` that open emphasis before an item whose
/// end is `end`: the run of `_` starting at `s`, when a word starts there
/// (rule 2) and a `_` follows `end`; 0 otherwise.
fn emphasis_open(hay: &[u8], s: usize, end: usize) -> usize {
    let lead = hay
        .get(s..end)
        .unwrap_or_default()
        .iter()
        .take_while(|&&b| b == b'_')
        .count();
    let closed = hay.get(end) == Some(&b'_');
    // The item itself starts with a letter, digit or non-ASCII
    // character, never with `.` or `-`.
    let item = hay
        .get(s + lead)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b >= 0x80);
    if (1..=MAX_EMPHASIS).contains(&lead)
        && s + lead < end
        && closed
        && item
        && word_start(hay, s)
    {
        lead
    } else {
        0
    }
}

/// Rule 2: whether an abbreviated URI may start at `s`.
fn word_start(hay: &[u8], s: usize) -> bool {
    let Some(&prev) = s.checked_sub(1).and_then(|p| hay.get(p)) else {
        return true;
    };
    if escape_ends_at(hay, s) {
        return true;
    }
    match prev {
        b':' => label_before(hay, s - 1, &[b"url"]),
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
    // Rule 6: the local part, characters of Link_Email (UTS #58) but `/`
    // and `?`, at most 64 bytes (RFC 5321 section 4.5.3.1.1); one
    // character more than the longest is looked at.
    let mut run = at;
    while let Some(c) = char_before(hay, run).filter(|&c| is_local_char(c)) {
        run -= c.len_utf8();
        if at - run > MAX_LOCAL {
            return None;
        }
    }
    // Rule 7: what precedes it (a URL's `userinfo@`, RFC 3986 section
    // 3.2.1, or `mailto:`, RFC 6068).
    if run > 0 {
        match char_before(hay, run) {
            None => return None,
            Some(':') if !label_before(hay, run - 1, ADDRESS_LABELS) => {
                return None;
            }
            Some('/' | '?' | '@') => return None,
            Some(_) => {}
        }
    }
    // A string's hexadecimal escape before the address
    // (`\u003cjoe@a.example`) is not part of it; `\t` is kept, as in
    // `CORP\tjones@example.com` (a user of a Windows domain).
    let escape = escape_before(hay, run, at);
    let run = if escape > 1 { run + escape } else { run };
    let mut s = after_key(hay, run, at);
    s = after_cjk(hay, s, at);
    while s < at
        && hay.get(s).is_some_and(|&b| {
            b.is_ascii_punctuation() && !matches!(b, b'.' | b'_')
        })
    {
        s += 1;
    }
    let local = std::str::from_utf8(hay.get(s..at)?).ok()?;
    // RFC 5322 section 3.4.1 `dot-atom-text` (and UTS #58).
    if local.is_empty()
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
    {
        return None;
    }
    if on_id_header_line(hay, s) || after_smtp_id(hay, s) {
        return None;
    }
    // Rule 8: the domain (RFC 5322 section 3.4.1), a host name ending in
    // an ICANN public suffix, read as in rule 12.
    let limit = hay.len().min(s.saturating_add(max_len.saturating_add(1)));
    let d = host_run_end(hay, at + 1, limit);
    if d - s > max_len {
        return None;
    }
    match hay.get(d) {
        Some(b'@') => return None,
        Some(b':') => {
            let next = hay.get(d + 1);
            if next.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'/') {
                return None;
            }
        }
        _ => {}
    }
    let (hs, end) = settle(hay, at + 1, d, at + 1)?;
    if hs != at + 1 {
        return None;
    }
    // Rule 15: `_joe@example.com_`.
    let open = emphasis_open(hay, s, end);
    let (s, local) = (s + open, &local[open..]);
    if local.is_empty() || local.starts_with('.') {
        return None;
    }
    let domain = std::str::from_utf8(hay.get(hs..end)?).ok()?;
    // Rule 9: the `mailto:` URI (RFC 6068 section 2), percent-encoding
    // what RFC 3986 section 2 does not allow in a URI, `%` and `#`
    // (`/ ? [ ]`, the other gen-delims to encode, cannot occur).
    let mut url = String::with_capacity(8 + end - s);
    url.push_str("mailto:");
    for c in local.chars() {
        if matches!(c, '%' | '#' | '^' | '`' | '{' | '|' | '}') {
            url.push_str(&format!("%{:02X}", c as u32));
        } else {
            url.push(c);
        }
    }
    url.push('@');
    url.push_str(domain);
    Some(Abbrev { start: s, end, url, kind: Kind::Email })
}

/// Rule 7: the words that, followed by `:`, label an address (the
/// Appendix E prefix `URL`, the address fields of RFC 5322 section 3.6,
/// and contact labels), in lower case.
const ADDRESS_LABELS: &[&[u8]] = &[
    b"url",
    b"from",
    b"sender",
    b"reply-to",
    b"to",
    b"cc",
    b"bcc",
    b"email",
    b"e-mail",
    b"mail",
    b"contact",
    b"smtp",
];

/// Rules 2, 7 and 11: whether the `:` at `colon` ends one of `labels`
/// (lower case; compared in any case) that starts a word: no ASCII
/// letter or digit before it.
fn label_before(hay: &[u8], colon: usize, labels: &[&[u8]]) -> bool {
    labels.iter().any(|label| {
        let Some(p) = colon.checked_sub(label.len()) else {
            return false;
        };
        let word = hay.get(p..colon).unwrap_or_default();
        let before = p.checked_sub(1).and_then(|q| hay.get(q));
        word.eq_ignore_ascii_case(label)
            && !before.is_some_and(u8::is_ascii_alphanumeric)
    })
}

/// Rules 6 and 11: where a local part or host label in `hay[s..end]`
/// starts after the CJK text it is glued to: after the last CJK
/// character directly followed by an ASCII letter or digit (CJK writing
/// puts no space before a Latin word), or at `s`.
fn after_cjk(hay: &[u8], s: usize, end: usize) -> usize {
    let mut start = s;
    let mut i = s;
    let mut cjk_before = false;
    while i < end {
        let Some((c, len)) = char_at_any(hay, i) else {
            break;
        };
        if cjk_before && c.is_ascii_alphanumeric() {
            start = i;
        }
        cjk_before = is_cjk(c) && !is_full_stop(c);
        i += len;
    }
    start
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
/// 5321 section 4.4), which looks like an address but is none. The
/// space may be a folded line's whitespace (`id` at a line end, the
/// identifier on the next line).
fn after_smtp_id(hay: &[u8], s: usize) -> bool {
    let Some(lt) = s.checked_sub(1).filter(|&i| hay[i] == b'<') else {
        return false;
    };
    let word_end = hay[..lt]
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    word_end < lt
        && word_end >= 2
        && hay[word_end - 2..word_end].eq_ignore_ascii_case(b"id")
        && (word_end == 2 || !hay[word_end - 3].is_ascii_alphanumeric())
}

/// Rule 6: a character of a local part: Link_Email (UTS #58: the ASCII
/// `atext` of RFC 5322 section 3.2.3, `.`, and the letters, marks and
/// digits of every script) but `/` and `?`.
fn is_local_char(c: char) -> bool {
    link_email(c) && !matches!(c, '/' | '?')
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

/// Rules 10 to 14: the bare domain name (with its port, path, query and
/// fragment) whose host holds the full stop at `t`, if any. With `www`,
/// a host starting with `www.` or `ftp.` is [`Kind::Www`] or
/// [`Kind::Ftp`] (rule 14).
pub(crate) fn domain_at(
    hay: &[u8],
    t: usize,
    max_len: usize,
    www: bool,
) -> Option<Abbrev> {
    // Rule 10: a full stop between two characters that may end and
    // start a label.
    let stop = full_stop_at(hay, t)?;
    let edge = |c: char| host_char(c) && !is_full_stop(c) && c != '-';
    if !char_before(hay, t).is_some_and(edge)
        || !char_at_any(hay, t + stop).is_some_and(|(c, _)| edge(c))
    {
        return None;
    }
    // Rule 11: the run of host characters around it.
    let floor = t.saturating_sub(HOST_BACK);
    let mut s = t;
    while s > floor
        && let Some(c) = char_before(hay, s).filter(|&c| host_char(c))
    {
        s -= c.len_utf8();
    }
    if s <= floor && floor > 0 {
        return None; // the start lies too far back to be seen
    }
    // A string's hexadecimal escape before the name (`\u003cexample.com`)
    // is not part of it, nor is `\n` or `\t` before a `www.` or `ftp.`
    // name (rule 2).
    let escape = escape_before(hay, s, t);
    if escape > 1 || (www && abbreviated_kind(&hay[s + escape..]).is_some()) {
        s += escape;
    }
    if s > 0 {
        match char_before(hay, s) {
            None | Some('@' | '/' | '\\' | '%') => return None,
            Some(':') if !label_before(hay, s - 1, &[b"url"]) => return None,
            Some(_) => {}
        }
    }
    // A label starts with a letter or digit: symbols before it
    // (`©example.net`, `•example.com`) are text.
    while s < t
        && let Some((_, len)) = char_at_any(hay, s).filter(|&(c, _)| {
            !c.is_ascii() && !is_full_stop(c) && !link_email(c)
        })
    {
        s += len;
    }
    let first_stop = (s..t).find(|&i| full_stop_at(hay, i).is_some());
    s = after_cjk(hay, s, first_stop.unwrap_or(t));
    let limit = hay.len().min(s.saturating_add(max_len.saturating_add(1)));
    let run_end = host_run_end(hay, t, limit);
    if run_end - s > max_len {
        return None;
    }
    // Rule 12: a host name ending in a public suffix, and none of the
    // names that text holds more often.
    let (s, host_end) = settle(hay, s, run_end, t)?;
    // Rule 15: `_example.com_`.
    let open = emphasis_open(hay, s, host_end);
    let mut s = s + open;
    // The host holds its trigger: a name that ends before it (cut at a
    // CJK character, rule 4: `example.comてすとtwitter.みんな`) is the
    // item of an earlier full stop, not of this one.
    if host_end <= t {
        return None;
    }
    if !like_a_host(hay.get(s..host_end)?)
        || hay.get(host_end) == Some(&b'(')
        || uuencoded_line(hay, s, host_end)
    {
        return None;
    }
    // Rule 14: the local part of an address.
    if local_continues(hay, host_end) {
        return None;
    }
    // Rule 13: port, then path, query or fragment.
    let mut end = port_end(hay, host_end);
    if matches!(hay.get(end), Some(b'/' | b'?' | b'#')) {
        let (safe, read) = tail_end(hay, end, limit);
        if read - s > max_len {
            return None;
        }
        end = safe;
        // Rule 15: `_example.com/x_`.
        let close = hay[host_end..end]
            .iter()
            .rev()
            .take_while(|&&b| b == b'_')
            .count();
        let lead = emphasis_open(hay, s, end - close);
        if open == 0 && close > 0 && lead > 0 {
            s += lead;
            end -= close;
        }
    }
    let text = std::str::from_utf8(hay.get(s..end)?).ok()?;
    let (kind, scheme) = abbreviated_kind(text.as_bytes())
        .filter(|_| www)
        .unwrap_or((Kind::Domain, "http"));
    Some(Abbrev { start: s, end, url: format!("{scheme}://{text}"), kind })
}

/// Rule 10: the length of the full stop at `hay[i]` (`.`, or U+3002,
/// U+FF0E or U+FF61 in UTF-8), if one is there.
fn full_stop_at(hay: &[u8], i: usize) -> Option<usize> {
    match hay.get(i)? {
        b'.' => Some(1),
        0xE3 | 0xEF => {
            let (c, len) = char_at(hay, i)?;
            is_full_stop(c).then_some(len)
        }
        _ => None,
    }
}

/// Rule 10: `.` and the full stops that UTS 46 maps to it.
fn is_full_stop(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// Rules 8 and 11: a character of a host name run: ASCII letters,
/// digits, `-`, `_`, full stops, and non-ASCII characters of Link_Term
/// Include (UTS #58), which are letters, marks, digits and symbols.
fn host_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
    } else {
        is_full_stop(c) || !is_unicode_stop(c)
    }
}

/// The character at `hay[i]`, ASCII or UTF-8, and its length.
fn char_at_any(hay: &[u8], i: usize) -> Option<(char, usize)> {
    match *hay.get(i)? {
        b @ 0..0x80 => Some((char::from(b), 1)),
        _ => char_at(hay, i),
    }
}

/// Rules 8 and 11: the end of the run of host characters from `i`.
fn host_run_end(hay: &[u8], mut i: usize, limit: usize) -> usize {
    while i < limit
        && let Some((_, len)) =
            char_at_any(hay, i).filter(|&(c, _)| host_char(c))
    {
        i += len;
    }
    i.min(limit)
}

/// Rule 12: the host name in the run of host characters `hay[s..e]`
/// that holds `anchor` (the trigger, or the first byte of an address's
/// domain), as its start and end: the whole run; or the run up to a
/// `--` after the anchor; or the part around the anchor between
/// non-ASCII characters without Link_Email (dashes, bullets, symbols),
/// whole or up to a `--`.
fn settle(
    hay: &[u8],
    s: usize,
    e: usize,
    anchor: usize,
) -> Option<(usize, usize)> {
    let whole_or_dash = |s: usize, e: usize| {
        host_in(hay, s, e).or_else(|| {
            let cut = double_hyphen(hay, s, anchor.max(s), e)?;
            host_in(hay, s, cut)
        })
    };
    if let Some(h) = whole_or_dash(s, e) {
        return Some(h);
    }
    let breaks = |c: char| !c.is_ascii() && !is_full_stop(c) && !link_email(c);
    let mut a = anchor;
    while a > s
        && let Some(c) = char_before(hay, a).filter(|&c| !breaks(c))
    {
        a -= c.len_utf8();
    }
    let mut b = anchor;
    while b < e
        && let Some((_, len)) =
            char_at_any(hay, b).filter(|&(c, _)| !breaks(c))
    {
        b += len;
    }
    if (a, b) == (s, e) {
        return None;
    }
    whole_or_dash(a, b)
}

/// Rule 12: `hay[s..e]` without its trailing full stops and hyphens, as
/// its start and end, when it is a host name ending in an ICANN public
/// suffix whose labels neither are empty nor start or end with `-` (RFC
/// 1123 section 2.1); a CJK character after such a name ends it (rule
/// 4).
fn host_in(hay: &[u8], s: usize, mut e: usize) -> Option<(usize, usize)> {
    while e > s
        && let Some(c) = char_before(hay, e)
        && (is_full_stop(c) || c == '-' || c == '_')
    {
        e -= c.len_utf8();
    }
    let text = std::str::from_utf8(hay.get(s..e)?).ok()?;
    let len = accepted_host(text)?;
    let labels = text.get(..len)?.split(is_full_stop);
    // A service label (RFC 8552 2) is `_` and then a letter or digit
    // (more `_` before it are emphasis, rule 15).
    let ldh = |l: &str| {
        !l.is_empty()
            && !l.starts_with('-')
            && !l.ends_with('-')
            && (!l.starts_with('_')
                || l.trim_start_matches('_')
                    .starts_with(|c: char| c.is_ascii_alphanumeric()))
    };
    labels.into_iter().all(ldh).then_some((s, s + len))
}

/// Rule 12: whether a host name that ends in a public suffix is not one
/// of the dotted names that text holds more often than domain names:
/// - a decimal number first (two labels of digits: `1,420.00.zip`,
///   `3.14.zip`, a version); a host name's labels may be digits
///   (`163.com`), its top-level label is not (RFC 1123 section 2.1);
/// - a label with `_` but at its start (`usrp_hwd.py`,
///   `ch_def.lo_inputs.name`): host names are letters, digits and `-`
///   (RFC 952, RFC 1123 section 2.1); only the service labels of RFC
///   8552 start with `_` (`_dmarc.example.com`);
/// - three or more labels starting with a generic top-level domain of
///   RFC 920 (`com.android.phone`, `org.apache.tools`): an identifier
///   in reverse domain order (Java packages, application ids), never a
///   host, as no host name has a top-level label first;
/// - a top-level label in title case (`them.My`, `3.Energy`,
///   `R.Hughes`, `M.Sc`): a sentence joined to the next without a
///   space, or an initial; domain names are written in one case or
///   with a capital only at the start of their labels before the last
///   (`CareerBuilder.com`, `TEST.COM`);
/// - two labels, the first a Usenet hierarchy (RFC 5536 section 3.1.4:
///   `comp`, `humanities`, `misc`, `rec`, `sci`, `soc`, `alt`):
///   a newsgroup (`sci.space`, `comp.graphics`);
/// - two labels, the last a file-name extension of programs, archives
///   or documents whose top-level domain sees little use at the second
///   level (`py`, where Paraguay registers under `com.py` and the like;
///   `pm`, `ps`, `sh`; `zip` and `mov`, whose likeness to file names
///   is what they are known for; `man`, a brand's; `inc`): a file name
///   (`setup.py`, `Conf.pm`, `install.sh`, `backdesk.zip`).
fn like_a_host(host: &[u8]) -> bool {
    const GENERIC: [&str; 7] =
        ["com", "org", "net", "edu", "gov", "mil", "int"];
    const USENET: [&str; 7] =
        ["comp", "humanities", "misc", "rec", "sci", "soc", "alt"];
    const FILES: [&str; 8] =
        ["py", "pm", "ps", "sh", "zip", "mov", "man", "inc"];
    let host = std::str::from_utf8(host).unwrap_or_default();
    let labels: Vec<&str> = host.split(is_full_stop).collect();
    let [first, .., last] = labels[..] else {
        return false;
    };
    let first = first.to_ascii_lowercase();
    let two = labels.len() == 2;
    let digits =
        |l: &str| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit());
    let number =
        digits(first.as_str()) && labels.get(1).is_some_and(|l| digits(l));
    let underscore =
        labels.iter().any(|l| l.get(1..).is_some_and(|t| t.contains('_')));
    let reverse = labels.len() >= 3 && GENERIC.contains(&first.as_str());
    let title = last.len() > 1
        && last.starts_with(|c: char| c.is_ascii_uppercase())
        && last.bytes().skip(1).all(|b| b.is_ascii_lowercase());
    let newsgroup = two && USENET.contains(&first.as_str());
    let file = two && FILES.contains(&last.to_ascii_lowercase().as_str());
    !(number || underscore || reverse || title || newsgroup || file)
}

/// Rule 12: the first `--` in `hay[from..e]` that is not the third and
/// fourth character of its label (as in `xn--`), for a host run that
/// starts at `s`.
fn double_hyphen(
    hay: &[u8],
    s: usize,
    from: usize,
    e: usize,
) -> Option<usize> {
    let mut label = s;
    let mut i = s;
    while i + 1 < e {
        if let Some(len) = full_stop_at(hay, i) {
            i += len;
            label = i;
            continue;
        }
        if i >= from && hay[i] == b'-' && hay[i + 1] == b'-' && i - label != 2
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Rule 14: whether local-part characters (rule 6, but `#`, the start
/// of a fragment) from `i` lead to an `@` within a local part's length.
fn local_continues(hay: &[u8], mut i: usize) -> bool {
    let start = i;
    while i - start <= MAX_LOCAL {
        match char_at_any(hay, i) {
            Some(('@', _)) => return true,
            Some((c, len)) if is_local_char(c) && c != '#' => i += len,
            _ => return false,
        }
    }
    false
}

/// Rule 13: the end of the port after the host ending at `i`: `:` and
/// 1 to 5 digits, at most 65535 (RFC 3986 section 3.2.3, RFC 6335),
/// not followed by a letter or digit; `i` when there is none.
fn port_end(hay: &[u8], i: usize) -> usize {
    if hay.get(i) != Some(&b':') {
        return i;
    }
    let digits = hay.get(i + 1..).unwrap_or_default();
    let n = digits.iter().take(6).take_while(|b| b.is_ascii_digit()).count();
    let value = digits
        .get(..n)
        .and_then(|d| std::str::from_utf8(d).ok())
        .and_then(|d| d.parse::<u32>().ok());
    let after = digits.get(n);
    let ok = (1..=5).contains(&n)
        && value.is_some_and(|v| v <= 65535)
        && !after.is_some_and(u8::is_ascii_alphanumeric);
    if ok { i + 1 + n } else { i }
}

/// The parts after a host (RFC 3986 section 3), as UTS #58 reads them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Path,
    Query,
    Fragment,
}

/// Rule 13: where the path, query or fragment starting with the `/`,
/// `?` or `#` at `hay[i]` ends (UTS #58 Link_Term and Link_Bracket,
/// the bracket stack emptied at the start of each segment), reading no
/// further than `limit`; and how far it read.
fn tail_end(hay: &[u8], i: usize, limit: usize) -> (usize, usize) {
    let mut part = match hay.get(i) {
        Some(b'/') => Part::Path,
        Some(b'?') => Part::Query,
        Some(b'#') => Part::Fragment,
        _ => return (i, i),
    };
    // `/` and `#` are Include, `?` is Soft.
    let mut safe = if part == Part::Query { i } else { i + 1 };
    let mut open = ['\0'; MAX_NESTING];
    let mut depth = 0;
    let mut j = i + 1;
    while j < limit {
        let Some((c, len)) = char_at_any(hay, j) else {
            break;
        };
        match (part, c) {
            (Part::Path, '/') | (Part::Query, '=' | '&') => depth = 0,
            (Part::Fragment, ':') if hay[j..].starts_with(b":~:") => {
                depth = 0;
            }
            (Part::Path, '?') => part = Part::Query,
            (Part::Path | Part::Query, '#') => part = Part::Fragment,
            _ => {}
        }
        let term = match c {
            // urlx `delimit` rule 5 (RFC 3986 Appendix C).
            '<' | '>' | '\\' | '`' => LinkTerm::Hard,
            '"' => match hay.get(j + 1) {
                Some(&n) if n.is_ascii_alphanumeric() || n >= 0x80 => {
                    LinkTerm::Soft
                }
                _ => LinkTerm::Hard,
            },
            _ => link_term(c),
        };
        match term {
            LinkTerm::Soft => {}
            LinkTerm::Open if depth < MAX_NESTING => {
                open[depth] = c;
                depth += 1;
                safe = j + len;
            }
            LinkTerm::Close
                if depth > 0 && link_bracket(c) == Some(open[depth - 1]) =>
            {
                depth -= 1;
                safe = j + len;
            }
            LinkTerm::Include => safe = j + len,
            _ => break,
        }
        j += len;
    }
    (safe, j)
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

    /// A backslash escape of a JSON, C or Python string before the name
    /// or the address is not part of it.
    #[test]
    fn after_a_string_escape() {
        one("{\"m\":\"a\\nwww.example.com/x\"}", "http://www.example.com/x");
        one("\"\\u003cwww.example.com\\u003e\"", "http://www.example.com");
        one("\"\\x22ftp.example.org\"", "ftp://ftp.example.org");
        one("\"\\u003cjoe@example.com\\u003e\"", "mailto:joe@example.com");
        // An escaped backslash: the letter after it is text.
        none("x\\\\nwww.example.com");
        marked("\"\\u003c⸠example.org⸡\\u003e\"");
        marked("\"\\x22⸠example.org⸡\"");
        // A letter after a backslash starts a name in a Windows path, or
        // a user in `DOMAIN\user`, more often than it ends an escape:
        // before a domain or an address only hexadecimal escapes count.
        marked("src\\build.rs C:\\docs\\readme.md \\\\srv\\share\\notes.io");
        marked("\"a\\nexample.com\"");
        one("CORP\\tjones@example.com", "mailto:tjones@example.com");
        // With bare domain names on, a `www.` name after `\n` still is
        // one.
        let text = "\"Web:\\nwww.example.com\\nC:\\\\docs\\\\readme.md\"";
        let mut got = Vec::new();
        let opts = Opts { www: true, domains: true, ..Opts::NONE };
        scan(text.as_bytes(), 0, text.len(), 2048, opts, |a| got.push(a.url));
        assert_eq!(got, ["http://www.example.com"]);
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
        // The address ends with its domain (UTS #58).
        one("joe@example.com/path", "mailto:joe@example.com");
    }

    /// Rule 6: local parts of Link_Email characters (UTS #58,
    /// LinkDetectionTest.txt), a dot-atom.
    #[test]
    fn emails_in_every_script() {
        one("See αβγ.δεζ@example.com on", "mailto:αβγ.δεζ@example.com");
        one(
            "See アルベルト.アルベルト@example.com",
            "mailto:アルベルト.アルベルト@example.com",
        );
        one("müller@example.de", "mailto:müller@example.de");
        one("«müller@example.de»", "mailto:müller@example.de");
        one("See x.abcd@example.com.", "mailto:x.abcd@example.com");
        one("联系joe@example.cn", "mailto:joe@example.cn");
        none("See @example.com");
        none("See john.@example.com");
        none("See .john@example.com");
        none("See ..john.doe@example.com");
        none("See \"john\\ doe\"@example.com");
        none("john..smith@example.com/foo/bar");
        // Latin-1 text read as UTF-8: not `ller@`.
        let latin1 = b"m\xfcller@example.de";
        let mut n = 0;
        scan(latin1, 0, latin1.len(), 64, Opts::default(), |_| n += 1);
        assert_eq!(n, 0);
    }

    /// Rule 7: a label before the colon (Appendix E `URL:`, RFC 5322
    /// address fields, contact labels); a scheme or ident is none.
    #[test]
    fn emails_after_a_label() {
        one("<url:joe@example.com>", "mailto:joe@example.com");
        one("<URL:joe@example.com>", "mailto:joe@example.com");
        one("Email:joe@example.com", "mailto:joe@example.com");
        one("Contact:joe@example.com", "mailto:joe@example.com");
        one("E-mail:joe@example.com", "mailto:joe@example.com");
        one("(reply-to:joe@example.com)", "mailto:joe@example.com");
        one("SMTP:JOE@EXAMPLE.COM", "mailto:JOE@EXAMPLE.COM");
        none("mailto:joe@example.com");
        none("sip:joe@example.com");
        none("xmpp:joe@example.com");
        none("(IDENT:root@host.example.com)");
        none("myemail:joe@example.com");
        none("user:secret@example.com");
    }

    /// Rules 8 and 12: the domain's hyphens (RFC 1123 section 2.1).
    #[test]
    fn email_domains_and_hyphens() {
        one("joe@example.com-", "mailto:joe@example.com");
        one("joe@example.com--the team", "mailto:joe@example.com");
        one(
            "bjw@example.com-----------------Attention",
            "mailto:bjw@example.com",
        );
        one("joe@example.com—the team", "mailto:joe@example.com");
        one("joe@xn--bcher-kva.de", "mailto:joe@xn--bcher-kva.de");
        one("joe@a-b.example.com", "mailto:joe@a-b.example.com");
        none("joe@-x.example.com");
        none("joe@x-.example.com");
        none("joe@example.com--x@example.org");
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
        none("a@b.com@c.com");
        none(".@example.com");
        none("joe.@example.com");
        none("jo..e@example.com");
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
        // The identifier on the next line of a folded Received field.
        none("with ESMTP id\n    <0H3900BC9ANJDV@mta7.example.net> for");
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

    /// Rules 10 to 14 alone, marked as the UTS #58 test file marks
    /// links (`⸠example.com⸡`).
    fn domains(text: &str) -> String {
        let opts = Opts { domains: true, ..Opts::NONE };
        let mut out = String::new();
        let mut at = 0;
        scan(text.as_bytes(), 0, text.len(), 2048, opts, |a| {
            assert_eq!(a.url, format!("http://{}", &text[a.start..a.end]));
            assert_eq!(a.kind, Kind::Domain);
            out.push_str(&text[at..a.start]);
            out.push('⸠');
            out.push_str(&text[a.start..a.end]);
            out.push('⸡');
            at = a.end;
        });
        out.push_str(&text[at..]);
        out
    }

    fn marked(line: &str) {
        let text = line.replace(['⸠', '⸡'], "");
        assert_eq!(domains(&text), line);
    }

    #[test]
    fn domain_hosts() {
        marked("⸠abc.com⸡ ⸠deΩ.uk⸡ ⸠foo.accountants⸡ ⸠foo.香港⸡");
        marked("See ⸠TEST.COM⸡ on… ⸠abc.XN--11B4C3D⸡");
        marked("Lorem ⸠普遍适用测试。我爱你⸡ dolor ⸠普遍适用测试.我爱你⸡");
        marked("⸠www.example.com⸡, ⸠ftp.example.org⸡. ⸠a.b.c.example.co.uk⸡!");
        marked("See example.😎 on… See .fr on… a com b");
        marked("node.js 1,420.00.zip foo.bar.baz 3.14 e.g. i.e. v1.2.3");
        marked("请访问⸠example.com⸡。 网址：⸠example.cn⸡是官网");
        marked("see ⸠example.com⸡-- or ⸠example.org⸡--the rest");
        marked("site—⸠example.com⸡—here ©⸠example.net⸡ •⸠example.com⸡™");
        marked("⸠_dmarc.example.com⸡ ⸠a-b.example.com⸡ -x.example.com");
        marked("a..b.com .example.com example..com");
    }

    #[test]
    fn domain_starts() {
        marked("src/main.rs path/to/example.com \\\\host.example.com\\x");
        marked("joe@example.com @example.com .john@example.com");
        marked("x:example.com <URL:⸠example.com/x⸡> URL:⸠example.org⸡");
        marked("title=⸠example.com⸡ (⸠example.com⸡) '⸠example.com⸡'");
        marked("foo.bar+tag@example.com www.example.com@example.org");
        marked("⸠foo.bar⸡ +tag ⸠example.com⸡'s page");
    }

    /// Each full stop gives at most the host that holds it: the second
    /// full stop of `example.comてすとですtwitter.みんなです` lies after
    /// the name read from the first (`example.com`, cut at the CJK text)
    /// and gives nothing, so urlx, which tries every full stop on its
    /// own, reports that name once.
    #[test]
    fn a_host_holds_its_trigger() {
        let text = "example.comてすとですtwitter.みんなです".as_bytes();
        let stops: Vec<usize> = memchr::memchr_iter(b'.', text).collect();
        let first = domain_at(text, stops[0], 2048, false).unwrap();
        assert_eq!((first.start, first.end), (0, 11));
        assert!(domain_at(text, stops[1], 2048, false).is_none());
    }

    /// Rule 12: dotted names that text holds more often than domains.
    #[test]
    fn domain_false_positives() {
        marked("setup.py Conf.pm install.sh backdesk.zip x.mov lynx.man");
        marked("usrp_hwd.py ch_def.lo_inputs.name ⸠_spf.example.com⸡");
        marked("com.android.phone org.apache.tools ⸠comcast.net⸡");
        marked(
            "them.My 3.Energy R.Hughes M.Sc ⸠TEST.COM⸡ ⸠CareerBuilder.com⸡",
        );
        marked("sci.space comp.graphics ⸠news.com⸡ ⸠sci.example.edu⸡");
        marked("logging.info('x') ⸠example.info⸡ (⸠example.com⸡)");
        marked("%28example.com ⸠163.com⸡ 1.2.example.com");
        // A line of uuencoded data (61 characters, `M` for 45 bytes).
        let uu = format!("x\nM{}8.LK*RMC8V,K*+\n", "*".repeat(46));
        assert_eq!(uu.len(), 2 + 61 + 1);
        marked(&uu);
        marked("⸠setup.py.example.com⸡ ⸠example.zip.example.org⸡");
    }

    #[test]
    fn domain_ports() {
        marked(
            "a ⸠example.com:443⸡ b ⸠example.com:8080/x⸡ ⸠example.com⸡:http",
        );
        marked("⸠example.com⸡:65536 ⸠example.com⸡:123456/x ⸠example.com⸡:80a");
        marked("⸠example.com:1234/forum/questions/?tag=new&order=newest#top⸡");
    }

    /// Rule 13: UTS #58 termination, with the stack emptied per
    /// segment (LinkDetectionTest.txt).
    #[test]
    fn domain_paths() {
        marked("See ⸠example.com/αβγ/δεζ?θικ#λμν⸡ on…");
        marked("See ⸠example.com/αβγ/δεζ?δ⸡. εφ#λμν on…");
        marked("See ⸠example.com/αβ⸡) on… (⸠example.com/123?123#(123)⸡) b");
        marked("See ⸠example.com/α[(β⸡])γ/δρς?α=[(θ)] on…");
        marked("See ⸠example.com/αβ(γ/δ⸡)ρς?α=θ&β=κ on…");
        marked("See ⸠example.com/αβγ/δρς?α(=⸡)θ&β=κ on…");
        marked("See ⸠example.com/αβγ/δρς?α=θ(&⸡)β=κ on…");
        marked("See ⸠example.com/αβγ/δρς?α=θ&β=κ#λμ(ν:~:text=φχ⸡)ψ on…");
        marked("See ⸠example.com/α(β)γ/δρς?α=(θ)&(β)=κ#λ:~:text=(φ)⸡ on…");
        marked("a ⸠example.com/123⸡... HTML is so great ⸠example.com/⸡ x");
        marked("Is it ⸠example.com⸡? Yes: ⸠example.com?q⸡, ⸠example.com#f⸡.");
        marked("<⸠example.com/a⸡> ⸠example.com/a⸡<b>c ⸠example.com/a⸡\\b");
        marked("\"⸠example.com/x⸡\",\"next\" ⸠example.com/a\"b⸡");
        marked("⸠example.com/?foo[1]=a&amp;foo[2]=b⸡ blah");
        let deep =
            format!("example.com/{}x{}", "(".repeat(16), ")".repeat(16));
        assert_eq!(domains(&deep), format!("⸠{deep}⸡"));
        let deeper = format!("example.com/{}x", "(".repeat(17));
        assert_eq!(
            domains(&deeper),
            format!("⸠example.com/{}⸡{}x", "(".repeat(16), "(")
        );
    }

    #[test]
    fn underscores_around_an_item_are_emphasis() {
        one("_www.example.com_", "http://www.example.com");
        one("(_www.example.com/a_b_)", "http://www.example.com/a_b");
        one("say _joe@example.com_ now", "mailto:joe@example.com");
        one("joe@example.com_", "mailto:joe@example.com");
        none("foo_www.example.com_");
        marked("_⸠example.com⸡_ _⸠example.com/x⸡_ ⸠_dmarc.example.com⸡");
        marked("__⸠example.org⸡__ x_example.com_");
        // The item starts with a letter or digit; `_` alone or before `-`
        // is no service label.
        marked("_.example.com_ _-example.com_ ⸠_sip._tcp.example.com⸡");
    }

    /// Rule 15 looks back at most `MAX_EMPHASIS` + 1 bytes for the
    /// opening `_` of `_www.`, so a window that starts `LOOKBACK` bytes
    /// before the item sees the same as the whole text.
    #[test]
    fn emphasis_look_back_is_bounded() {
        let opts = Opts { www: true, ..Opts::NONE };
        for (n, want) in [(300, &[][..]), (3, &["http://www.example.com"][..])]
        {
            let text = format!("x {}www.example.com_ y", "_".repeat(n));
            let www = text.find("www.").unwrap();
            let run = |from: usize| {
                let mut out = Vec::new();
                let hay = &text.as_bytes()[from..];
                let at = www - from;
                scan(hay, at, hay.len(), 2048, opts, |a| out.push(a.url));
                out
            };
            assert_eq!(run(0), want, "{n}");
            assert_eq!(run(www.saturating_sub(LOOKBACK)), want, "{n}");
        }
    }

    #[test]
    fn domains_with_www() {
        let text = "www.example.com/a ftp.example.org example.net";
        let mut got = Vec::new();
        let opts = Opts { www: true, domains: true, ..Opts::NONE };
        scan(text.as_bytes(), 0, text.len(), 2048, opts, |a| {
            got.push((a.url, a.kind));
        });
        assert_eq!(
            got,
            [
                ("http://www.example.com/a".to_string(), Kind::Www),
                ("ftp://ftp.example.org".to_string(), Kind::Ftp),
                ("http://example.net".to_string(), Kind::Domain),
            ]
        );
    }

    #[test]
    fn opts_select_kinds() {
        let text = b"www.example.com joe@example.com";
        let mut kinds = Vec::new();
        let opts = Opts { emails: true, ..Opts::NONE };
        scan(text, 0, text.len(), 2048, opts, |a| kinds.push(a.kind));
        assert_eq!(kinds, [Kind::Email]);
        kinds.clear();
        let opts = Opts { www: true, ..Opts::NONE };
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

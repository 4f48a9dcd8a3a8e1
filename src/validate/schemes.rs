//! Owns the scheme-specific rules: what each known scheme adds on top of
//! the generic RFC 3986 syntax checked by [`Uri::errors`].
//!
//! [`check`] is meant for URIs that already pass the generic check; it
//! never panics on other input but its findings may then overlap the
//! generic errors. Schemes compare case-insensitively (RFC 3986 section
//! 3.1). Covered: `ftp`, `http`, `https`, `gopher`, `mailto`, `news`,
//! `nntp`, `telnet`, `wais`, `file`, `prospero` (RFC 1738 sections 3 and 5
//! and their successors), `ws`, `wss` (RFC 6455), `urn` (RFC 8141), `tel`
//! (RFC 3966) and `data` (RFC 2397). Other schemes yield no findings.

use super::uri::{Component, HostKind, Uri};
use crate::lex::pct_decode;
use crate::scheme::{self, Rule};

/// How serious a [`Finding`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The URI violates a MUST of the scheme's specification.
    Error,
    /// The URI is allowed but deprecated, risky or unusual.
    Warning,
}

/// One rule of a scheme (or of the security lint) that a URI breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// How serious it is.
    pub severity: Severity,
    /// A stable kebab-case identifier of the rule, e.g. `"ftp-type"`.
    pub code: &'static str,
    /// A human-readable explanation naming the specification.
    pub message: String,
}

impl Finding {
    /// A finding of [`Severity::Error`].
    pub fn error(code: &'static str, message: impl Into<String>) -> Finding {
        Finding { severity: Severity::Error, code, message: message.into() }
    }

    /// A finding of [`Severity::Warning`].
    pub fn warning(code: &'static str, message: impl Into<String>) -> Finding {
        Finding { severity: Severity::Warning, code, message: message.into() }
    }
}

/// The findings of the rules of `uri`'s scheme; empty for unknown schemes,
/// for relative references and for URIs that follow their scheme's rules.
pub fn check(uri: &Uri) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(facts) = uri.scheme().and_then(scheme::facts) else {
        return out;
    };
    let out_ref = &mut out;
    match facts.rule {
        Rule::Ftp => ftp(uri, out_ref),
        Rule::Http => http(uri, out_ref),
        Rule::Gopher => gopher(uri, out_ref),
        Rule::Mailto => mailto(uri, out_ref),
        Rule::News => news(uri, out_ref),
        Rule::Nntp => nntp(uri, out_ref),
        Rule::Telnet => telnet(uri, out_ref),
        Rule::Wais => wais(uri, out_ref),
        Rule::File => file(uri, out_ref),
        Rule::Prospero => prospero(uri, out_ref),
        Rule::Ws => ws(uri, out_ref),
        Rule::Urn => urn(uri, out_ref),
        Rule::Tel => tel(uri, out_ref),
        Rule::Fax => fax(uri, out_ref),
        Rule::Data => data(uri, out_ref),
        Rule::None => {}
    }
    out
}

// ---------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------

fn err(out: &mut Vec<Finding>, code: &'static str, msg: impl Into<String>) {
    out.push(Finding::error(code, msg));
}

fn warn(out: &mut Vec<Finding>, code: &'static str, msg: impl Into<String>) {
    out.push(Finding::warning(code, msg));
}

/// Everything after `scheme:` up to the fragment (the RFC 3986
/// hier-part or opaque part plus `?query`).
fn after_scheme<'a>(uri: &Uri<'a>) -> &'a str {
    let s = uri.as_str();
    let start = uri.range(Component::Scheme).map_or(0, |r| r.end + 1);
    let end = uri.range(Component::Fragment).map_or(s.len(), |r| r.start - 1);
    s.get(start..end).unwrap_or("")
}

/// The path and `?query` (up to the fragment): for the RFC 1738 schemes
/// whose BNF allows a literal `?` inside the path (ftp, gopher, prospero).
fn path_and_query<'a>(uri: &Uri<'a>) -> &'a str {
    let s = uri.as_str();
    let start = uri.range(Component::Path).map_or(0, |r| r.start);
    let end = uri.range(Component::Fragment).map_or(s.len(), |r| r.start - 1);
    s.get(start..end).unwrap_or("")
}

/// A DNS host name: labels of letters, digits and `-` (not at either
/// end), the last label starting with a letter (RFC 1738 section 5
/// hostname / toplabel, RFC 1123 section 2.1 for a leading digit in other
/// labels); one trailing `.` is allowed. With `iri`, non-ASCII characters
/// count as letters (RFC 3987 internationalized host names).
fn is_dns_name(host: &str, iri: bool) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host).as_bytes();
    // Bytes of a UTF-8 character count as letters in an IRI host.
    let letter = |c: u8| c.is_ascii_alphabetic() || (iri && c >= 0x80);
    let mut label_start = 0;
    for (i, &c) in host.iter().enumerate() {
        if c == b'.' {
            // An empty label, or one ending with '-'.
            if i == label_start || host[i - 1] == b'-' {
                return false;
            }
            label_start = i + 1;
        } else if c == b'-' {
            if i == label_start {
                return false;
            }
        } else if !(letter(c) || c.is_ascii_digit()) {
            return false;
        }
    }
    // The last label: not empty, no '-' at its end, starts with a letter.
    label_start < host.len()
        && host.last() != Some(&b'-')
        && host.get(label_start).is_some_and(|&c| letter(c))
}

/// The labels of a registered name that DNS resolves (RFC 1034 3.5, RFC
/// 1123 2.1, and UTS #58 section 3, which does not link such hosts):
/// none empty but for the root label after a final `.`, none starting
/// or ending with `-`. Percent-escapes are decoded first; what the
/// labels hold is left to IDNA and the resolver (`_` occurs in real
/// names, a name of digits is read as an IPv4 address by browsers).
fn dns_labels(host: &str) -> Result<(), &'static str> {
    let decoded = pct_decode(host);
    let name = decoded.strip_suffix(b".").unwrap_or(&decoded);
    for label in name.split(|&b| b == b'.') {
        if label.is_empty() {
            return Err("has an empty label");
        }
        if label.starts_with(b"-") || label.ends_with(b"-") {
            return Err("has a label that starts or ends with '-'");
        }
    }
    Ok(())
}

/// [`dns_labels`] for the host of a scheme whose hosts are DNS names.
fn host_labels(uri: &Uri, scheme: &str, out: &mut Vec<Finding>) {
    let Some(host) = uri.host().filter(|h| !h.is_empty()) else {
        return;
    };
    if uri.host_kind() != Some(HostKind::RegName) {
        return;
    }
    if let Err(why) = dns_labels(host) {
        err(
            out,
            "host-label",
            format!(
                "the {scheme} host '{host}' {why} (RFC 1034 3.5, RFC 1123 \
                 2.1)"
            ),
        );
    }
}

/// What an RFC 1738 server-based scheme allows before the host.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Login {
    /// `login = [ user [ ":" password ] "@" ] hostport` (ftp, telnet).
    UserPassword,
    /// `hostport` only (gopher, nntp, wais, prospero).
    HostPortOnly,
}

/// RFC 1738 section 3.1 (common Internet scheme syntax) and section 5
/// (`ip-schemepart`, `login`, `hostport`) for a legacy server scheme.
fn server(uri: &Uri, scheme: &str, login: Login, out: &mut Vec<Finding>) {
    // RFC 1738 section 5: ip-schemepart = "//" login [ "/" urlpath ].
    if uri.authority().is_none() {
        err(
            out,
            "authority-required",
            format!("{scheme} URLs start with '//' and a host (RFC 1738 5)"),
        );
        return;
    }
    let host = uri.host().unwrap_or("");
    if host.is_empty() {
        err(
            out,
            "host-required",
            format!("{scheme} URLs need a host (RFC 1738 3.1)"),
        );
    } else if uri.host_kind() == Some(HostKind::RegName)
        && !is_dns_name(host, true)
    {
        // RFC 1738 section 3.1: "fully qualified domain name ... (RFC
        // 1034 3.5, RFC 1123 2.1)" or a dotted-decimal IP address.
        err(
            out,
            "host-syntax",
            format!(
                "'{host}' is neither a domain name nor an IP address \
                     (RFC 1738 3.1)"
            ),
        );
    }
    if let Some(ui) = uri.userinfo() {
        match login {
            Login::HostPortOnly => err(
                out,
                "userinfo-not-allowed",
                format!(
                    "{scheme} URLs have no user name or password \
                         (RFC 1738 5: hostport only)"
                ),
            ),
            // RFC 1738 section 5: user and password are *[ uchar | ";" |
            // "?" | "&" | "=" ], so only one ':' separates them.
            Login::UserPassword
                if ui.bytes().filter(|&b| b == b':').count() > 1 =>
            {
                err(
                    out,
                    "login-userinfo",
                    "':' within the user name or password must be \
                     encoded as %3A (RFC 1738 3.1)",
                )
            }
            Login::UserPassword => {}
        }
    }
    // RFC 1738 section 5: port = digits (a ':' needs a port number).
    if uri.port() == Some("") {
        err(
            out,
            "port-empty",
            format!(
                "':' after the host needs a port number in {scheme} URLs \
                     (RFC 1738 5)"
            ),
        );
    }
}

/// RFC 3986 section 3.2.2 as required by RFC 9110 4.2.1 and RFC 6455 3:
/// an authority with a non-empty host.
fn need_host(uri: &Uri, scheme: &str, spec: &str, out: &mut Vec<Finding>) {
    if uri.authority().is_none() {
        err(
            out,
            "authority-required",
            format!("{scheme} URIs start with '//' and a host ({spec})"),
        );
    } else if uri.host().unwrap_or("").is_empty() {
        err(
            out,
            "host-required",
            format!("{scheme} URIs need a non-empty host ({spec})"),
        );
    }
}

// ---------------------------------------------------------------------
// RFC 1738 schemes
// ---------------------------------------------------------------------

/// RFC 1738 section 3.2 and section 5 `ftpurl`.
fn ftp(uri: &Uri, out: &mut Vec<Finding>) {
    server(uri, "ftp", Login::UserPassword, out);
    // RFC 1738 section 5: ftpurl = "ftp://" login [ "/" fpath
    // [ ";type=" ftptype ]]; fsegment excludes ";" (section 3.2.2: ";" is
    // reserved in name and CWD components and must be encoded).
    let tail = path_and_query(uri);
    if !tail.contains(';') {
        return;
    }
    let fpath = tail.strip_prefix('/').unwrap_or(tail);
    let mut segments = fpath.split('/').peekable();
    while let Some(seg) = segments.next() {
        let last = segments.peek().is_none();
        let Some((_, param)) = seg.split_once(';') else { continue };
        if !last {
            err(
                out,
                "ftp-param",
                format!(
                    "';' in FTP path segment '{seg}' must be encoded as \
                         %3B; only the last segment may end in ';type=' \
                         (RFC 1738 3.2.2)"
                ),
            );
            continue;
        }
        let Some(code) = param.strip_prefix("type=") else {
            err(
                out,
                "ftp-param",
                format!(
                    "unknown FTP parameter ';{param}': only ';type=' is \
                         defined (RFC 1738 3.2.2)"
                ),
            );
            continue;
        };
        // RFC 1738 section 5: ftptype = "A" | "I" | "D" | "a" | "i" | "d".
        if !matches!(code, "a" | "i" | "d" | "A" | "I" | "D") {
            err(
                out,
                "ftp-type",
                format!(
                    "FTP type code '{code}' is not one of a, i, d \
                         (RFC 1738 3.2.2)"
                ),
            );
        }
    }
}

/// [`ftp`] for the common shape that validation's fast path accepts
/// (`ftp://host[:port]/path`, no userinfo, path from `path_start`):
/// `Some(true)` when the host is a domain name and the path has no `;`,
/// so there is nothing to report; `None` when [`check`] must decide.
pub(crate) fn ftp_quick(text: &str, path_start: usize) -> Option<bool> {
    let authority = text.get(6..path_start)?; // after "ftp://"
    // Short strings: a byte loop costs less than a searcher's set-up.
    let port = authority.bytes().position(|b| b == b':');
    let host = authority.get(..port.unwrap_or(authority.len()))?;
    let path = text.get(path_start..)?;
    let typecode = path.bytes().any(|b| b == b';');
    (is_dns_name(host, false) && !typecode).then_some(true)
}

/// [`ftp_quick`] for a text that validation's fast path accepted and
/// whose host is known to hold no `_` or `~` and to have no `;` after
/// it ([`crate::validate::Quick::plain`]): the host is labels of
/// letters, digits and inner `-`, a DNS name when its last label (before
/// the root's empty one) starts with a letter (RFC 1738 section 5
/// toplabel).
pub(crate) fn ftp_plain_quick(text: &str, path_start: usize) -> Option<bool> {
    let authority = text.as_bytes().get(6..path_start)?;
    // The host: before the `:` of a port, looked for from the end.
    let host = match authority.iter().rposition(|b| !b.is_ascii_digit()) {
        Some(i) if authority[i] == b':' => &authority[..i],
        _ => authority,
    };
    let host = host.strip_suffix(b".").unwrap_or(host);
    let top = host.iter().rposition(|&b| b == b'.').map_or(0, |i| i + 1);
    host.get(top).is_some_and(u8::is_ascii_alphabetic).then_some(true)
}

/// [`news`] for the common shape `news:group.name` (no authority, query,
/// fragment, escape or `@`; RFC 5538 2.2): whether it is a newsgroup
/// name or `*`, or `None` when [`check`] must decide.
pub(crate) fn news_quick(text: &str) -> Option<bool> {
    let sel = text.get(5..)?; // after "news:"
    if sel.is_empty() || sel.bytes().any(|b| b"/?#@%".contains(&b)) {
        return None;
    }
    Some(sel == "*" || is_newsgroup(sel, true))
}

/// [`mailto`] for the common shapes `mailto:local@domain` and
/// `mailto:local@domain?name=value&...` (one address; no escapes,
/// fragment, quotes, or `/` in the address): whether the address is an
/// addr-spec and the header fields are well formed, or `None` when
/// [`check`] must decide. mailto's warnings are not errors: they do not
/// change the answer.
pub(crate) fn mailto_quick(text: &str) -> Option<bool> {
    let rest = text.get(7..)?; // after "mailto:"
    let b = rest.as_bytes();
    // One pass over the address: where it ends, and whether it is an
    // addr-spec ([`addr_parts`] of the parts about its first `@`).
    let mut i = 0;
    // The local part: a dot-atom (RFC 5322 3.2.3, [`is_dot_atom`]); a
    // leading dot is an empty atom.
    let mut prev = b'.';
    let mut valid = true;
    let at = loop {
        let Some(&c) = b.get(i) else { break None };
        match ADDRESS[usize::from(c)] {
            A_LABEL | A_TEXT | A_DASH => {}
            A_DOT => valid &= prev != b'.',
            A_AT => break Some(i),
            A_END => break None,
            A_ESCAPE => return None,
            _ => valid = false,
        }
        prev = c;
        i += 1;
    };
    valid &= prev != b'.'; // not empty, no trailing dot
    if let Some(at) = at {
        // The domain: a host name ([`is_host_name`]) or a literal,
        // which [`domain_ok`] judges once its end is known.
        i = at + 1;
        prev = b'.';
        let mut host = true;
        while let Some(&c) = b.get(i) {
            match ADDRESS[usize::from(c)] {
                A_LABEL => {}
                A_DOT => host &= prev != b'.' && prev != b'-',
                A_DASH => host &= prev != b'.',
                A_END => break,
                A_ESCAPE => return None,
                _ => host = false,
            }
            prev = c;
            i += 1;
        }
        let domain = &rest[at + 1..i];
        // A final `.` (the root) and a literal are left to the slow
        // path's own rules, as are names that fail here.
        if !host || prev == b'.' || domain.starts_with('[') {
            host = domain_ok(domain).is_ok();
        } else {
            host = prev != b'-';
        }
        valid &= host;
    }
    let end = i;
    let (to, hfields) = (&rest[..end], rest.get(end + 1..));
    if to.is_empty() {
        return None;
    }
    if let Some(h) = hfields.filter(|h| !h.is_empty()) {
        // RFC 6068 2: hfield = hfname "=" hfvalue; with no escape, a name
        // of printable ASCII but `:` (RFC 5322 3.6.8) and no `=` in the
        // value is what `mailto` accepts.
        let simple = |field: &str| {
            field.split_once('=').is_some_and(|(name, value)| {
                !name.is_empty()
                    && name.bytes().all(|b| matches!(b, 33..=57 | 59..=126))
                    && !value.contains('=')
            })
        };
        if h.bytes().any(|b| matches!(b, b'%' | b'#'))
            || !h.split('&').all(simple)
        {
            return None;
        }
    }
    // No quote: the local part is a dot-atom or nothing valid.
    Some(at.is_some() && valid)
}

// Classes of the bytes of a `mailto:` address for [`mailto_quick`]:
/// A label's byte in a host name and atext (letters, digits, `_`, the
/// bytes of non-ASCII characters; [`LABEL_BYTE`]).
const A_LABEL: u8 = 0;
/// Other atext (RFC 5322 3.2.3) but `-` and the bytes below.
const A_TEXT: u8 = 1;
const A_DASH: u8 = 2;
const A_DOT: u8 = 3;
const A_AT: u8 = 4;
/// `?`: the address ends.
const A_END: u8 = 5;
/// What [`mailto_quick`] leaves to the full check: an escape, a list of
/// addresses, a fragment, a quoted local part, a `/`.
const A_ESCAPE: u8 = 6;
/// Neither atext nor a host name's byte.
const A_OTHER: u8 = 7;

/// The class of each byte in a `mailto:` address.
static ADDRESS: [u8; 256] = {
    let mut t = [A_OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = match c {
            b'-' => A_DASH,
            b'.' => A_DOT,
            b'@' => A_AT,
            b'?' => A_END,
            b'%' | b',' | b'#' | b'"' | b'/' => A_ESCAPE,
            _ if LABEL_BYTE[i] => A_LABEL,
            _ if c < 0x80 && is_atext(c as char) => A_TEXT,
            _ => A_OTHER,
        };
        i += 1;
    }
    t
};

/// RFC 9110 section 4.2.1 (http) and 4.2.2 (https); RFC 1738 section 3.3.
fn http(uri: &Uri, out: &mut Vec<Finding>) {
    let scheme = uri.scheme().unwrap_or("http");
    // RFC 9110 4.2.1: "A sender MUST NOT generate an "http" URI with an
    // empty host identifier"; the authority is required.
    need_host(uri, scheme, "RFC 9110 4.2.1", out);
    host_labels(uri, scheme, out);
    // RFC 9110 4.2.4: the userinfo subcomponent is deprecated (RFC 1738
    // 3.3: "No user name or password is allowed").
    if uri.userinfo().is_some() {
        warn(
            out,
            "http-userinfo",
            format!(
                "userinfo in {scheme} URIs is deprecated (RFC 9110 \
                     4.2.4) and is a common phishing device"
            ),
        );
    }
    // The search part (RFC 1738 3.3 "?" searchpart) is the RFC 3986 query
    // in RFC 9110 4.1; the generic check already covers its characters.
}

/// RFC 1738 section 3.4 and section 5 `gopherurl` (RFC 4266).
fn gopher(uri: &Uri, out: &mut Vec<Finding>) {
    server(uri, "gopher", Login::HostPortOnly, out);
    // RFC 1738 section 5: gopherurl = "gopher://" hostport [ / [ gtype
    // [ selector [ "%09" search [ "%09" gopher+_string ] ] ] ] ].
    let tail = path_and_query(uri);
    let Some(gpath) = tail.strip_prefix('/') else { return };
    let bytes = pct_decode(gpath);
    let Some((&gtype, rest)) = bytes.split_first() else { return };
    // RFC 1738 3.4: <gophertype> is a single-character field (a gopher
    // item type, a printable ASCII character, RFC 1436 section 3.8).
    if !(0x21..=0x7e).contains(&gtype) {
        err(
            out,
            "gopher-type",
            format!(
                "gopher type 0x{gtype:02X} is not a printable character \
                     (RFC 1738 3.4)"
            ),
        );
    }
    // RFC 1436 Appendix (Selector ::= {UNASCII}, UNASCII = ASCII minus
    // TAB, CR-LF, NUL): no CR, LF or NUL in selector, search or gopher+.
    if rest.iter().any(|&b| matches!(b, b'\r' | b'\n' | 0)) {
        err(
            out,
            "gopher-crlf",
            "gopher selector or search contains an encoded CR, LF or NUL \
             (RFC 1436 Appendix)",
        );
    }
    // RFC 1738 3.4: the gopher+ string after the second %09 starts with
    // "+" (an item view), "!" or "$" (attributes).
    let mut parts = rest.splitn(3, |&b| b == b'\t');
    let _selector = parts.next();
    let _search = parts.next();
    if let Some(plus) = parts.next()
        && !matches!(plus.first(), Some(b'+' | b'!' | b'$'))
    {
        err(
            out,
            "gopher-plus",
            "a gopher+ string (after the second %09) must start with '+', \
             '!' or '$' (RFC 1738 3.4)",
        );
    }
}

/// RFC 5322 section 3.2.3 atext, plus non-ASCII (RFC 6532).
const fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '!' | '#'
                | '$'
                | '%'
                | '&'
                | '\''
                | '*'
                | '+'
                | '-'
                | '/'
                | '='
                | '?'
                | '^'
                | '_'
                | '`'
                | '{'
                | '|'
                | '}'
                | '~'
        )
        || !c.is_ascii()
}

/// RFC 5322 section 3.2.3: dot-atom-text = 1*atext *("." 1*atext).
fn is_dot_atom(s: &str) -> bool {
    // Byte by byte: the bytes of a UTF-8 character (RFC 6532) are all
    // >= 0x80, as `is_atext` allows.
    let b = s.as_bytes();
    let mut prev = b'.'; // a leading dot is an empty atom
    for &c in b {
        if c == b'.' {
            if prev == b'.' {
                return false; // empty atom: `..` or a leading dot
            }
        } else if c < 0x80 && !is_atext(char::from(c)) {
            return false;
        }
        prev = c;
    }
    prev != b'.' // not empty, no trailing dot
}

/// RFC 5322 section 3.2.4 quoted-string (without CFWS); returns the rest
/// of `s` after the closing quote.
fn quoted_string(s: &str) -> Option<&str> {
    let mut chars = s.strip_prefix('"')?.char_indices();
    let inner = s.get(1..)?;
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return inner.get(i + 1..),
            // quoted-pair = "\" (VCHAR / WSP)
            '\\' => match chars.next() {
                Some((_, p))
                    if p == ' ' || p == '\t' || p.is_ascii_graphic() => {}
                Some((_, p)) if !p.is_ascii() => {}
                _ => return None,
            },
            // qtext = %d33 / %d35-91 / %d93-126, FWS; UTF-8 (RFC 6532).
            c if c == ' ' || c == '\t' || c.is_ascii_graphic() => {}
            c if !c.is_ascii() => {}
            _ => return None,
        }
    }
    None
}

/// RFC 6068 section 2: addr-spec = local-part "@" domain, local-part =
/// dot-atom-text / quoted-string, domain = dot-atom-text /
/// "[" *dtext-no-obs "]". Returns a reason on failure.
fn addr_spec(a: &str) -> Result<(), &'static str> {
    if a.starts_with('"') {
        let Some(rest) = quoted_string(a) else {
            return Err("unterminated or invalid quoted local part");
        };
        let Some(domain) = rest.strip_prefix('@') else {
            return Err("no '@' between local part and domain");
        };
        return domain_ok(domain);
    }
    match a.split_once('@') {
        Some((local, domain)) => addr_parts(local, domain),
        None => Err("no '@' between local part and domain"),
    }
}

/// [`addr_spec`] for an unquoted local part and the domain after its
/// first `@`.
fn addr_parts(local: &str, domain: &str) -> Result<(), &'static str> {
    if !is_dot_atom(local) {
        return Err("local part is not a dot-atom or quoted string");
    }
    domain_ok(domain)
}

/// The domain of an addr-spec (RFC 5322 3.4.1).
fn domain_ok(domain: &str) -> Result<(), &'static str> {
    // dtext-no-obs = %d33-90 / %d94-126 in a literal. Otherwise the
    // domain of a mailbox is a host name (RFC 5321 4.1.2: Domain =
    // sub-domain *("." sub-domain), letters, digits and inner hyphens;
    // RFC 6531 3.3 adds U-labels), a dot-atom of its own: `/`, `=` or `?`
    // may be atext, but not in a domain that mail can reach.
    let ok = match domain.strip_prefix('[') {
        Some(lit) => lit.strip_suffix(']').is_some_and(|d| {
            d.bytes().all(|b| matches!(b, 33..=90 | 94..=126))
        }),
        None => is_host_name(domain.as_bytes()),
    };
    if ok { Ok(()) } else { Err("domain is not a host name or [literal]") }
}

/// A host name as mail domains are written (RFC 5321 4.1.2, RFC 6531
/// 3.3): labels of letters, digits, `-` (not first or last), `_` and
/// non-ASCII characters (U-labels), a `.` between labels and one at the
/// end (the root).
fn is_host_name(name: &[u8]) -> bool {
    let name = name.strip_suffix(b".").unwrap_or(name);
    let mut prev = b'.';
    for &b in name {
        let ok = match b {
            b'.' => prev != b'.' && prev != b'-',
            b'-' => prev != b'.',
            _ => LABEL_BYTE[b as usize],
        };
        if !ok {
            return false;
        }
        prev = b;
    }
    !name.is_empty() && prev != b'-'
}

/// The bytes of a label of [`is_host_name`] but `-`: letters, digits,
/// `_` and the bytes of non-ASCII characters, by one lookup.
static LABEL_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
        i += 1;
    }
    t
};

/// RFC 6068 section 2: `mailtoURI = "mailto:" [ to ] [ hfields ]`.
fn mailto(uri: &Uri, out: &mut Vec<Finding>) {
    let rest = after_scheme(uri);
    let (to, hfields) = match rest.split_once('?') {
        Some((to, h)) => (to, Some(h)),
        None => (rest, None),
    };
    if to.starts_with("//") {
        warn(
            out,
            "mailto-authority",
            "mailto URIs have no '//' authority; 'mailto://' is a common \
             mistake (RFC 6068 2)",
        );
    }
    // RFC 6068 section 2 and 3: a mailto URI names at least one recipient
    // or header; without <to> it must carry hfields (e.g. "?to=").
    if to.is_empty() && hfields.is_none_or(str::is_empty) {
        err(
            out,
            "mailto-empty",
            "mailto URI without an address needs header fields such as \
             '?to=' (RFC 6068 2)",
        );
    }
    // RFC 6068 section 2: to = addr-spec *("," addr-spec).
    if !to.is_empty() {
        for raw in to.split(',') {
            let bytes = pct_decode(raw);
            let Ok(addr) = std::str::from_utf8(&bytes) else {
                err(
                    out,
                    "mailto-address",
                    format!(
                        "address '{raw}' is not valid UTF-8 once \
                             decoded (RFC 6068 2)"
                    ),
                );
                continue;
            };
            if let Err(why) = addr_spec(addr) {
                err(
                    out,
                    "mailto-address",
                    format!(
                        "'{raw}' is not an addr-spec: {why} (RFC 6068 \
                             2)"
                    ),
                );
            }
        }
    }
    let Some(hfields) = hfields else { return };
    if hfields.is_empty() {
        return;
    }
    // RFC 6068 section 2: hfields = "?" hfield *( "&" hfield ), hfield =
    // hfname "=" hfvalue, both *qchar; qchar = unreserved / pct-encoded /
    // some-delims ("!$'()*+,;:@").
    let mut unencoded = false;
    for field in hfields.split('&') {
        let Some((name, value)) = field.split_once('=') else {
            err(
                out,
                "mailto-hfield",
                format!("header field '{field}' has no '=' (RFC 6068 2)"),
            );
            continue;
        };
        // RFC 5322 section 3.6.8: field-name = 1*ftext (printable ASCII
        // except ':').
        let decoded = pct_decode(name);
        if decoded.is_empty()
            || !decoded.iter().all(|&b| matches!(b, 33..=57 | 59..=126))
        {
            err(
                out,
                "mailto-hfield",
                format!(
                    "'{name}' is not a header field name (RFC 6068 2, \
                         RFC 5322 3.6.8)"
                ),
            );
        }
        if value.contains('=') {
            err(
                out,
                "mailto-hfield",
                format!(
                    "'=' in the value of header '{name}' must be \
                         encoded as %3D (RFC 6068 2)"
                ),
            );
        }
        unencoded |= field.contains(['/', '?']);
    }
    if unencoded {
        warn(
            out,
            "mailto-hfield-char",
            "'/' and '?' in mailto header fields should be percent-encoded \
             (RFC 6068 2: qchar)",
        );
    }
}

/// RFC 5536 section 3.1.4 newsgroup-name (components of letters, digits,
/// `+ - _`), with the wildmat `*` of RFC 5538 section 2.2 when allowed.
/// One pass over the bytes: each `.` ends a component, which must not be
/// empty, nor may the last one.
fn is_newsgroup(g: &str, wildmat: bool) -> bool {
    let mut empty = true; // the component so far
    for b in g.bytes() {
        if b == b'.' {
            if empty {
                return false;
            }
            empty = true;
        } else if b.is_ascii_alphanumeric()
            || matches!(b, b'+' | b'-' | b'_')
            || (wildmat && b == b'*')
        {
            empty = false;
        } else {
            return false;
        }
    }
    !empty
}

/// RFC 5536 section 3.1.3 msg-id without its angle brackets (RFC 5538
/// section 2.2): id-left "@" id-right.
fn message_id(id: &str, out: &mut Vec<Finding>) {
    let bytes = pct_decode(id);
    let text = String::from_utf8_lossy(&bytes);
    let mut inner: &str = &text;
    if let Some(i) = inner.strip_prefix('<').and_then(|s| s.strip_suffix('>'))
    {
        warn(
            out,
            "news-message-id",
            "the angle brackets of a message-id are omitted in news URIs \
             (RFC 5538 2.2)",
        );
        inner = i;
    }
    let ok = match inner.rsplit_once('@') {
        // id-left = dot-atom-text / no-fold-quote; id-right =
        // dot-atom-text / no-fold-literal (RFC 5536 3.1.3).
        Some((left, right)) => {
            let left_ok = is_dot_atom(left)
                || (left.starts_with('"') && quoted_string(left) == Some(""));
            let right_ok = is_dot_atom(right)
                || (right.starts_with('[') && right.ends_with(']'));
            left_ok && right_ok
        }
        None => false,
    };
    if !ok {
        err(
            out,
            "news-message-id",
            format!(
                "'{id}' is not a message-id (id-left@id-right, RFC 5536 \
                     3.1.3, RFC 1738 5 article)"
            ),
        );
    }
}

/// RFC 1738 section 3.6 / 5 `newsurl` and RFC 5538 section 2.1/2.2.
fn news(uri: &Uri, out: &mut Vec<Finding>) {
    // RFC 5538 section 2.2: "news:" [ "//" authority "/" ] then a
    // newsgroup, a wildmat or an article (message-id).
    let sel = if uri.authority().is_some() {
        if uri.host().unwrap_or("").is_empty() {
            err(
                out,
                "host-required",
                "news://server/ needs a server name \
                                       (RFC 5538 2.2)",
            );
        }
        match uri.path().strip_prefix('/') {
            Some(p) => p,
            None if uri.path().is_empty() && uri.query().is_none() => "",
            None => uri.path(),
        }
    } else {
        if uri.path().is_empty() {
            err(
                out,
                "news-empty",
                "news URI without a newsgroup, '*' or message-id (RFC 1738 \
                 3.6)",
            );
        }
        uri.path()
    };
    if uri.query().is_some() {
        err(out, "news-query", "news URIs have no query (RFC 5538 2.2)");
    }
    if sel.is_empty() {
        return;
    }
    if sel.contains('@') || sel.contains("%40") {
        // RFC 1738 section 5: article = 1*[ uchar | ";" | "/" | "?" | ":"
        // | "&" | "=" ] "@" host.
        message_id(sel, out);
    } else if sel != "*" && !is_newsgroup(sel, true) {
        // RFC 1738 section 5: grouppart = "*" | group | article.
        err(
            out,
            "news-group",
            format!(
                "'{sel}' is not a newsgroup name (dot-separated \
                     components of letters, digits, '+', '-', '_'; RFC 5536 \
                     3.1.4, RFC 5538 2.2)"
            ),
        );
    }
}

/// RFC 1738 section 3.7 / 5 `nntpurl` and RFC 5538 section 2.3.
fn nntp(uri: &Uri, out: &mut Vec<Finding>) {
    server(uri, "nntp", Login::HostPortOnly, out);
    if uri.query().is_some() {
        err(out, "nntp-query", "nntp URLs have no query (RFC 5538 2.3)");
    }
    // nntpurl = "nntp://" hostport "/" group [ "/" digits ].
    let path = uri.path();
    let rest = path.strip_prefix('/').unwrap_or(path);
    let mut parts = rest.split('/');
    let group = parts.next().unwrap_or("");
    if !is_newsgroup(group, false) {
        err(
            out,
            "nntp-group",
            format!(
                "nntp URLs need '/newsgroup' after the host, got \
                     '{group}' (RFC 1738 3.7)"
            ),
        );
    }
    if let Some(article) = parts.next() {
        // RFC 5538 section 2.3: article-number = 1*16DIGIT.
        if article.is_empty()
            || article.len() > 16
            || !article.bytes().all(|b| b.is_ascii_digit())
        {
            err(
                out,
                "nntp-article",
                format!(
                    "article number '{article}' is not 1 to 16 digits \
                         (RFC 5538 2.3)"
                ),
            );
        }
    }
    if parts.next().is_some() {
        err(
            out,
            "nntp-path",
            "nntp URLs end after the article number (RFC 1738 5)",
        );
    }
}

/// RFC 1738 section 3.8 / 5 `telneturl` (RFC 4248).
fn telnet(uri: &Uri, out: &mut Vec<Finding>) {
    server(uri, "telnet", Login::UserPassword, out);
    // telneturl = "telnet://" login [ "/" ].
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        err(
            out,
            "telnet-path",
            "telnet URLs end after the host, port and an optional '/' \
             (RFC 1738 3.8)",
        );
    }
}

/// RFC 1738 section 5 `uchar` = unreserved | escape: no reserved
/// characters `; / ? : @ & =`.
fn is_uchar_str(s: &str) -> bool {
    !s.contains([';', '/', '?', ':', '@', '&', '='])
}

/// RFC 1738 section 3.9 / 5 `waisurl` (RFC 4156).
fn wais(uri: &Uri, out: &mut Vec<Finding>) {
    server(uri, "wais", Login::HostPortOnly, out);
    // waisdatabase = "wais://" hostport "/" database
    // waisindex    = "wais://" hostport "/" database "?" search
    // waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
    let Some(rest) = uri.path().strip_prefix('/') else {
        err(out, "wais-path", "wais URLs need '/database' (RFC 1738 3.9)");
        return;
    };
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.len() {
        1 => {}
        3 if uri.query().is_none() => {}
        3 => err(
            out,
            "wais-search",
            "a wais document URL (database/wtype/wpath) has no search part \
             (RFC 1738 3.9)",
        ),
        _ => err(
            out,
            "wais-path",
            "wais path is '/database' or '/database/wtype/wpath' \
             (RFC 1738 3.9)",
        ),
    }
    // database, wtype, wpath = *uchar.
    if !parts.iter().all(|p| is_uchar_str(p)) {
        err(
            out,
            "wais-char",
            "reserved characters in a wais database, type or path must be \
             encoded (RFC 1738 5: *uchar)",
        );
    }
    // search = *[ uchar | ";" | ":" | "@" | "&" | "=" ].
    if uri.query().is_some_and(|q| q.contains(['/', '?'])) {
        err(
            out,
            "wais-search",
            "'/' and '?' in a wais search must be encoded (RFC 1738 5)",
        );
    }
}

/// RFC 8089 section 2 and Appendix E (RFC 1738 section 3.10).
fn file(uri: &Uri, out: &mut Vec<Finding>) {
    // file-hier-part = ( "//" auth-path ) / local-path; auth-path =
    // [ file-auth ] path-absolute; file-auth = "localhost" / host.
    if uri.authority().is_some() {
        if uri.userinfo().is_some() || uri.port().is_some() {
            err(
                out,
                "file-auth",
                "file URIs have no userinfo or port: file-auth = \
                 \"localhost\" / host (RFC 8089 2)",
            );
        }
        // path-absolute; Appendix E.3.2 also allows "//" (UNC) here.
        if !uri.path().starts_with('/') {
            err(
                out,
                "file-path",
                "file URI with an authority needs an absolute path \
                 (RFC 8089 2)",
            );
        }
    } else {
        // local-path = path-absolute, or a DOS drive letter (Appendix
        // E.2: "file:c:/path/to/file", E.2.2 "c|").
        let p = uri.path().as_bytes();
        let drive = matches!(p, [l, b':' | b'|', ..] if l.is_ascii_alphabetic())
            && matches!(p.get(2), None | Some(b'/'));
        if !p.starts_with(b"/") && !drive {
            err(
                out,
                "file-path",
                "file URI path must be absolute or start with a drive \
                 letter (RFC 8089 2, E.2)",
            );
        }
    }
    // The file-URI ABNF of RFC 8089 section 2 has no query component.
    if uri.query().is_some() {
        warn(out, "file-query", "file URIs have no query (RFC 8089 2)");
    }
}

/// RFC 1738 section 3.11 / 5 `prosperourl` (RFC 4157).
fn prospero(uri: &Uri, out: &mut Vec<Finding>) {
    server(uri, "prospero", Login::HostPortOnly, out);
    // prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ];
    // psegment excludes ";"; fieldspec = ";" fieldname "=" fieldvalue,
    // fieldname and fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ].
    let tail = path_and_query(uri);
    if !tail.starts_with('/') {
        err(
            out,
            "prospero-path",
            "prospero URLs need '/' and a path after the host \
             (RFC 1738 3.11)",
        );
        return;
    }
    let mut fields = tail.split(';');
    let _ppath = fields.next();
    for field in fields {
        let ok = field.split_once('=').is_some_and(|(name, value)| {
            !name.contains(['=', '/']) && !value.contains(['=', '/'])
        });
        if !ok {
            err(
                out,
                "prospero-field",
                format!(
                    "';{field}' is not a field=value pair at the end of \
                         the path (RFC 1738 3.11)"
                ),
            );
        }
    }
}

// ---------------------------------------------------------------------
// Later schemes
// ---------------------------------------------------------------------

/// RFC 6455 section 3: ws-URI = "ws:" "//" host [ ":" port ] path
/// [ "?" query ] (and wss-URI likewise).
fn ws(uri: &Uri, out: &mut Vec<Finding>) {
    let scheme = uri.scheme().unwrap_or("ws");
    need_host(uri, scheme, "RFC 6455 3", out);
    host_labels(uri, scheme, out);
    if uri.userinfo().is_some() {
        err(
            out,
            "ws-userinfo",
            format!("{scheme} URIs have no userinfo (RFC 6455 3)"),
        );
    }
    // RFC 6455 section 3: "Fragment identifiers are meaningless in the
    // context of WebSocket URIs and MUST NOT be used on these URIs."
    if uri.fragment().is_some() {
        err(
            out,
            "ws-fragment",
            format!(
                "{scheme} URIs must not have a fragment; encode '#' as \
                     %23 (RFC 6455 3)"
            ),
        );
    }
}

/// RFC 8141 section 2: NID = (alphanum) 0*30(ldh) (alphanum).
fn is_nid(nid: &str) -> bool {
    let b = nid.as_bytes();
    (2..=32).contains(&b.len())
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        && b.first() != Some(&b'-')
        && b.last() != Some(&b'-')
}

/// RFC 8141 section 2: `assigned-name [ rq-components ] [ "#"
/// f-component ]`.
fn urn(uri: &Uri, out: &mut Vec<Finding>) {
    if uri.authority().is_some() {
        err(out, "urn-syntax", "URNs have no '//' authority (RFC 8141 2)");
        return;
    }
    // assigned-name = "urn" ":" NID ":" NSS
    let Some((nid, nss)) = uri.path().split_once(':') else {
        err(
            out,
            "urn-nss",
            "URN without ':' and a namespace-specific string (RFC 8141 2)",
        );
        return;
    };
    if !is_nid(nid) {
        err(
            out,
            "urn-nid",
            format!(
                "NID '{nid}' must be 2-32 letters, digits or '-', not \
                     starting or ending with '-' (RFC 8141 2)"
            ),
        );
    }
    // NSS = pchar *(pchar / "/"): non-empty and not starting with "/".
    if nss.is_empty() || nss.starts_with('/') {
        err(
            out,
            "urn-nss",
            "the NSS must be non-empty and not start with '/' (RFC 8141 2)",
        );
    }
    // rq-components = [ "?+" r-component ] [ "?=" q-component ], each
    // component = pchar *( pchar / "/" / "?" ).
    let Some(q) = uri.query() else { return };
    let (r, qc) = if let Some(r) = q.strip_prefix('+') {
        match r.split_once("?=") {
            Some((r, qc)) => (Some(r), Some(qc)),
            None => (Some(r), None),
        }
    } else if let Some(qc) = q.strip_prefix('=') {
        (None, Some(qc))
    } else {
        err(
            out,
            "urn-rq",
            "a URN query must be '?+' r-component and/or '?=' q-component \
             (RFC 8141 2)",
        );
        return;
    };
    let bad = |c: &str| c.is_empty() || c.starts_with(['/', '?']);
    if r.is_some_and(bad) || qc.is_some_and(bad) {
        err(
            out,
            "urn-rq",
            "r- and q-components must be non-empty and start with a pchar \
             (RFC 8141 2)",
        );
    }
}

/// RFC 3966 section 3 visual-separator.
fn is_visual(b: u8) -> bool {
    matches!(b, b'-' | b'.' | b'(' | b')')
}

/// RFC 3966 section 3: global-number-digits = "+" *phonedigit DIGIT
/// *phonedigit.
fn is_global_digits(s: &str) -> bool {
    s.strip_prefix('+').is_some_and(|d| {
        d.bytes().all(|b| b.is_ascii_digit() || is_visual(b))
            && d.bytes().any(|b| b.is_ascii_digit())
    })
}

/// RFC 3966 section 3: local-number-digits = *phonedigit-hex (HEXDIG /
/// "*" / "#") *phonedigit-hex; "#" appears percent-encoded (%23) in a
/// URI since it starts a fragment (RFC 3986 2.2).
fn is_local_digits(s: &str) -> bool {
    let decoded = pct_decode(s);
    decoded.iter().all(|&b| {
        b.is_ascii_hexdigit() || matches!(b, b'*' | b'#') || is_visual(b)
    }) && decoded
        .iter()
        .any(|&b| b.is_ascii_hexdigit() || matches!(b, b'*' | b'#'))
}

/// RFC 3966 section 3: paramchar = param-unreserved / unreserved /
/// pct-encoded; param-unreserved = "[" / "]" / "/" / ":" / "&" / "+" /
/// "$".
fn is_paramchar_str(s: &str) -> bool {
    s.bytes().all(|b| {
        b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~' | b'%')
            || matches!(b, b'[' | b']' | b'/' | b':' | b'&' | b'+' | b'$')
    })
}

/// RFC 2806 sections 2.2 and 2.3: `fax:` and `modem:` URLs name a
/// global number (`+` and digits) or a local number, which needs an
/// `area-specifier` (`;phone-context=`). A form label such as
/// `Fax:755-8742` or `Fax:________` is not one.
fn fax(uri: &Uri, out: &mut Vec<Finding>) {
    let scheme = uri.scheme().unwrap_or("fax");
    if uri.authority().is_some() || uri.query().is_some() {
        err(
            out,
            "fax-syntax",
            format!(
                "{scheme} URLs have no '//' authority and no '?' query \
                 (RFC 2806 2)"
            ),
        );
    }
    let mut items = uri.path().split(';');
    let number = items.next().unwrap_or("");
    let global = number.starts_with('+');
    // phonedigit = DIGIT / visual-separator; dtmf-digit, pause-character
    // and the post-dial letters of local numbers (RFC 2806 2.2).
    let digits = number.strip_prefix('+').unwrap_or(number);
    let chars_ok = digits.bytes().all(|b| {
        b.is_ascii_digit()
            || matches!(
                b,
                b'-' | b'.' | b'(' | b')' | b'*' | b'#' | b'p' | b'w'
            )
            || (!global && matches!(b, b'A'..=b'D'))
    });
    if !chars_ok || !digits.bytes().any(|b| b.is_ascii_digit()) {
        err(
            out,
            "fax-number",
            format!("'{number}' is not a telephone number (RFC 2806 2.2)"),
        );
        return;
    }
    let context = items.any(|i| {
        i.get(..14).is_some_and(|p| p.eq_ignore_ascii_case("phone-context="))
    });
    if !global && !context {
        err(
            out,
            "fax-context",
            "a local number needs ';phone-context=' (RFC 2806 2.2: \
             area-specifier)",
        );
    }
}

/// RFC 3966 section 3 telephone-uri.
fn tel(uri: &Uri, out: &mut Vec<Finding>) {
    if uri.authority().is_some() || uri.query().is_some() {
        err(
            out,
            "tel-syntax",
            "tel URIs have no '//' authority and no '?' query (RFC 3966 3)",
        );
    }
    let mut items = uri.path().split(';');
    let number = items.next().unwrap_or("");
    // telephone-subscriber = global-number / local-number
    let global = number.starts_with('+');
    if global && !is_global_digits(number) {
        err(
            out,
            "tel-number",
            format!(
                "'{number}' is not '+' and digits with optional visual \
                     separators - . ( ) (RFC 3966 3)"
            ),
        );
    } else if !global && !is_local_digits(number) {
        err(
            out,
            "tel-number",
            format!(
                "'{number}' is neither a global number ('+' digits) nor \
                     a local number (hex digits, '*', '#'; RFC 3966 3)"
            ),
        );
    }
    let mut seen: Vec<String> = Vec::new();
    let mut context = false;
    // Order (RFC 3966 section 3): isub or ext, then phone-context, then
    // the other parameters in lexicographic order.
    let mut rank_prev = 0u8;
    let mut prev_other = String::new();
    let mut order_ok = true;
    for item in items {
        let (name, value) = match item.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (item, None),
        };
        let lname = name.to_ascii_lowercase();
        // pname = 1*( alphanum / "-" ); pvalue = 1*paramchar.
        if lname.is_empty()
            || !lname.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            || value.is_some_and(|v| v.is_empty() || !is_paramchar_str(v))
        {
            err(
                out,
                "tel-param",
                format!("';{item}' is not a tel parameter (RFC 3966 3)"),
            );
            continue;
        }
        // "each parameter name ... MUST NOT appear more than once".
        if seen.contains(&lname) {
            err(
                out,
                "tel-param",
                format!(
                    "parameter '{name}' appears more than once \
                         (RFC 3966 3)"
                ),
            );
        }
        seen.push(lname.clone());
        let v = value.unwrap_or("");
        let rank = match lname.as_str() {
            // extension = ";ext=" 1*phonedigit
            "ext" => {
                let ok = !v.is_empty()
                    && v.bytes().all(|b| b.is_ascii_digit() || is_visual(b))
                    && v.bytes().any(|b| b.is_ascii_digit());
                if !ok {
                    err(
                        out,
                        "tel-param",
                        format!(
                            "extension '{v}' is not phone digits \
                                 (RFC 3966 3)"
                        ),
                    );
                }
                1
            }
            // isdn-subaddress = ";isub=" 1*uric
            "isub" => {
                if v.is_empty() {
                    err(out, "tel-param", "empty ;isub= (RFC 3966 3)");
                }
                1
            }
            // context = ";phone-context=" descriptor; descriptor =
            // domainname / global-number-digits.
            "phone-context" => {
                context = true;
                if global {
                    err(
                        out,
                        "tel-context",
                        "phone-context is only for local numbers \
                         (RFC 3966 3, 5.1.5)",
                    );
                }
                if !is_global_digits(v) && !is_dns_name(v, false) {
                    err(
                        out,
                        "tel-context",
                        format!(
                            "phone-context '{v}' is neither a domain \
                                 name nor a global number (RFC 3966 3)"
                        ),
                    );
                }
                2
            }
            _ => 3,
        };
        if rank < rank_prev
            || (rank == 3 && rank_prev == 3 && lname < prev_other)
        {
            order_ok = false;
        }
        if rank == 3 {
            prev_other = lname;
        }
        rank_prev = rank;
    }
    // RFC 3966 section 5.1.5: local numbers MUST have a phone-context.
    if !global && !context {
        err(
            out,
            "tel-context",
            "a local number needs ';phone-context=' (RFC 3966 3, 5.1.5)",
        );
    }
    if !order_ok {
        warn(
            out,
            "tel-param-order",
            "tel parameters go isub/ext, then phone-context, then the rest \
             in lexicographic order (RFC 3966 3)",
        );
    }
}

/// RFC 2045 section 5.1 token (after percent-decoding).
fn is_token(b: &[u8]) -> bool {
    !b.is_empty()
        && b.iter().all(|&c| {
            c.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?=".contains(&c)
        })
}

/// RFC 2397 section 3: `dataurl := "data:" [ mediatype ] [ ";base64" ]
/// "," data`.
fn data(uri: &Uri, out: &mut Vec<Finding>) {
    let rest = after_scheme(uri);
    let Some((meta, payload)) = rest.split_once(',') else {
        err(
            out,
            "data-comma",
            "data URI without ',' before the data (RFC 2397 3)",
        );
        return;
    };
    let mut items: Vec<&str> = meta.split(';').collect();
    let base64 = items.len() > 1
        && items.last().is_some_and(|l| l.eq_ignore_ascii_case("base64"));
    if base64 {
        items.pop();
    }
    let mut items = items.into_iter();
    // mediatype := [ type "/" subtype ] *( ";" parameter )
    let media = items.next().unwrap_or("");
    if !media.is_empty() {
        let decoded = pct_decode(media);
        let ok = match decoded.iter().position(|&b| b == b'/') {
            Some(i) => {
                let (t, s) = decoded.split_at(i);
                is_token(t) && s.get(1..).is_some_and(is_token)
            }
            None => false,
        };
        if !ok {
            err(
                out,
                "data-mediatype",
                format!(
                    "'{media}' is not a type/subtype media type \
                         (RFC 2397 3, RFC 2045 5.1)"
                ),
            );
        }
    }
    // parameter := attribute "=" value
    for p in items {
        let ok = p
            .split_once('=')
            .is_some_and(|(a, v)| is_token(&pct_decode(a)) && !v.is_empty());
        if !ok {
            err(
                out,
                "data-param",
                format!(
                    "';{p}' is not an attribute=value parameter \
                         (RFC 2397 3)"
                ),
            );
        }
    }
    if base64 {
        check_base64(&pct_decode(payload), out);
    }
}

/// RFC 2397 section 3 (";base64": the data is base64, RFC 2045 6.8):
/// alphabet `A-Z a-z 0-9 + /`, at most two `=` of padding at the end.
fn check_base64(b: &[u8], out: &mut Vec<Finding>) {
    let body_len = b.iter().rposition(|&c| c != b'=').map_or(0, |i| i + 1);
    let (body, pad) = b.split_at(body_len);
    if let Some(bad) = body
        .iter()
        .find(|&&c| !(c.is_ascii_alphanumeric() || c == b'+' || c == b'/'))
    {
        err(
            out,
            "data-base64",
            format!(
                "byte 0x{bad:02X} is not in the base64 alphabet \
                     (RFC 2397 3, RFC 2045 6.8)"
            ),
        );
        return;
    }
    let bad_len = if pad.is_empty() {
        body.len() % 4 == 1
    } else {
        pad.len() > 2 || !b.len().is_multiple_of(4)
    };
    if bad_len {
        err(
            out,
            "data-base64",
            "base64 data has an impossible length or padding \
             (RFC 2045 6.8)",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes of the findings for `s`, asserting it passes the generic
    /// RFC 3986 check first (the precondition of `check`).
    fn codes(s: &str) -> Vec<&'static str> {
        let u = Uri::parse(s);
        assert!(u.is_valid(), "not RFC 3986 valid: {s} {:?}", u.errors());
        check(&u).iter().map(|f| f.code).collect()
    }

    fn accepts(vectors: &[&str]) {
        for s in vectors {
            assert_eq!(codes(s), Vec::<&str>::new(), "{s}");
        }
    }

    fn rejects(vectors: &[(&str, &str)]) {
        for (s, code) in vectors {
            let got = codes(s);
            assert!(got.contains(code), "{s}: want {code}, got {got:?}");
        }
    }

    /// Like `rejects` for inputs the generic check already refuses.
    fn rejects_raw(vectors: &[(&str, &str)]) {
        for (s, code) in vectors {
            let got: Vec<_> =
                check(&Uri::parse(s)).iter().map(|f| f.code).collect();
            assert!(got.contains(code), "{s}: want {code}, got {got:?}");
        }
    }

    #[test]
    fn ftp_vectors() {
        accepts(&[
            // RFC 1738 3.2.2 examples.
            "ftp://myname@host.dom/%2Fetc/motd",
            "ftp://myname@host.dom/etc/motd",
            "ftp://myname@host.dom//etc/motd",
            // RFC 1738 Appendix.
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "ftp://ds.internic.net/rfc",
            // RFC 1738 References [1].
            "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
            // RFC 1738 3.1: empty user name, and user "foo", no password.
            "ftp://@host.com/",
            "ftp://foo:@host.com/",
            // RFC 3986 1.1.2.
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        ]);
        rejects(&[
            ("ftp://h.example/a;type=x", "ftp-type"),
            ("ftp://h.example/a;type=", "ftp-type"),
            ("ftp://h.example/a;type=i/b", "ftp-param"),
            ("ftp://h.example/a;mode=i", "ftp-param"),
            ("ftp://u:p:q@h.example/", "login-userinfo"),
            ("ftp://h_x.example/", "host-syntax"),
            ("ftp://h.example:/", "port-empty"),
            ("ftp://1.2.3.999/", "host-syntax"),
        ]);
        rejects_raw(&[("ftp:/x", "authority-required")]);
    }

    #[test]
    fn http_vectors() {
        accepts(&[
            // RFC 3986 1.1.2.
            "http://www.ietf.org/rfc/rfc2396.txt",
            // RFC 9110 4.2.3 (equivalent forms).
            "http://example.com:80/~smith/home.html",
            "http://EXAMPLE.com/%7Esmith/home.html",
            "http://EXAMPLE.com:/%7esmith/home.html",
            // RFC 1738 Appendix.
            "http://ds.internic.net/instructions/overview.html#WARNING",
            "HTTPS://example.com/?q=1",
            "http://[::1]/",
        ]);
        rejects(&[
            // RFC 9110 4.2.4: userinfo deprecated.
            ("http://user@example.com/", "http-userinfo"),
            ("https://user:pw@example.com/", "http-userinfo"),
            ("http://trusted.example@evil.example/", "http-userinfo"),
        ]);
        rejects_raw(&[
            ("http:foo", "authority-required"),
            ("http://", "host-required"),
            ("https:///x", "host-required"),
        ]);
    }

    #[test]
    fn gopher_vectors() {
        accepts(&[
            "gopher://gopher.example/",
            "gopher://gopher.example",
            "gopher://gopher.example:70/1/pub",
            // RFC 1738 3.4: search after %09, gopher+ attributes.
            "gopher://gopher.example/7search%09query%20words",
            "gopher://gopher.example/1sel%09%09!+ABSTRACT%20+SMELL",
            "gopher://gopher.example/9sel%09%09+application/postscript%20Es_ES",
            // RFC 1738 3.4: the gopher+ string "+" TAB "1".
            "gopher://gopher.example/1sel%09%09+%091",
        ]);
        rejects(&[
            ("gopher://gopher.example/%0Asel", "gopher-type"),
            ("gopher://gopher.example/%09x", "gopher-type"),
            ("gopher://gopher.example/1a%0D%0Ab", "gopher-crlf"),
            ("gopher://gopher.example/1a%00", "gopher-crlf"),
            ("gopher://gopher.example/1a%09b%09x", "gopher-plus"),
            ("gopher://u@gopher.example/", "userinfo-not-allowed"),
        ]);
    }

    #[test]
    fn mailto_vectors() {
        accepts(&[
            // RFC 6068 6.1.
            "mailto:chris@example.com",
            "mailto:infobot@example.com?subject=current-issue",
            "mailto:infobot@example.com?body=send%20current-issue",
            "mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
            "mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
            "mailto:majordomo@example.com?body=subscribe%20bamboo-l",
            "mailto:joe@example.com?cc=bob@example.com&body=hello",
            "mailto:gorby%25kremvax@example.com",
            "mailto:unlikely%3Faddress@example.com?blat=foop",
            "mailto:Mike%26family@example.org",
            "mailto:?to=addr1@an.example,addr2@an.example",
            "mailto:addr1@an.example,addr2@an.example",
            "mailto:addr1@an.example?to=addr2@an.example",
            // RFC 6068 6.2.
            "mailto:%22not%40me%22@example.org",
            "mailto:%22oh%5C%5Cno%22@example.org",
            "mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
            "mailto:user@example.org?subject=caf%C3%A9",
            // RFC 6068 6.3.
            "mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
        ]);
        rejects(&[
            ("mailto:", "mailto-empty"),
            ("mailto:?", "mailto-empty"),
            ("mailto:joe", "mailto-address"),
            ("mailto:joe@", "mailto-address"),
            ("mailto:a..b@example.com", "mailto-address"),
            ("mailto:a@example.com,,b@example.com", "mailto-address"),
            ("mailto:a@example.com?subject", "mailto-hfield"),
            ("mailto:a@example.com?=x", "mailto-hfield"),
            ("mailto:a@example.com?body=a=b", "mailto-hfield"),
            ("mailto:a@example.com?body=http://x/", "mailto-hfield-char"),
            ("mailto://a@example.com", "mailto-authority"),
        ]);
    }

    #[test]
    fn news_vectors() {
        accepts(&[
            // RFC 1738 3.6.
            "news:*",
            "news:comp.infosystems.www.misc",
            "news:comp.lang.c",
            // RFC 1738 3.6 / RFC 5538 2.2: message-id without brackets.
            "news:12345@example.com",
            "news:p0f5n9$ab1$1@news.example.com",
            // RFC 5538 2.2: server form.
            "news://news.server.example/example.group.this",
            "news://news.server.example/*",
            "news://news.server.example/",
            "news:comp.*",
        ]);
        rejects(&[
            ("news:", "news-empty"),
            ("news:comp..lang", "news-group"),
            ("news:.comp", "news-group"),
            ("news:comp.lang/c", "news-group"),
            ("news:@example.com", "news-message-id"),
            ("news:abc@", "news-message-id"),
            ("news:a@b@c", "news-message-id"),
            ("news:%3Cabc@example.com%3E", "news-message-id"),
            ("news:comp.lang.c?x", "news-query"),
        ]);
    }

    #[test]
    fn nntp_vectors() {
        accepts(&[
            // RFC 1738 3.7 form nntp://<host>:<port>/<group>/<article>.
            "nntp://news.example.com/comp.lang.c",
            "nntp://news.example.com:119/comp.lang.c/12345",
            // RFC 5538 2.3.
            "nntp://news.server.example/example.group.this",
            "nntp://news.server.example/example.group.this/12345",
        ]);
        rejects(&[
            ("nntp://news.example.com", "nntp-group"),
            ("nntp://news.example.com/", "nntp-group"),
            ("nntp://news.example.com/comp.lang.c/12a", "nntp-article"),
            ("nntp://news.example.com/comp.lang.c/", "nntp-article"),
            (
                "nntp://news.example.com/comp.lang.c/12345678901234567",
                "nntp-article",
            ),
            ("nntp://news.example.com/a/1/2", "nntp-path"),
            ("nntp://news.example.com/a?b", "nntp-query"),
            ("nntp://u@news.example.com/a", "userinfo-not-allowed"),
        ]);
    }

    #[test]
    fn telnet_vectors() {
        accepts(&[
            // RFC 1738 3.8: telnet://<user>:<password>@<host>:<port>/
            "telnet://user:password@host.example:23/",
            "telnet://host.example",
            "telnet://host.example/",
            "telnet://guest@host.example:2323",
            "telnet://192.0.2.1/",
        ]);
        rejects(&[
            ("telnet://host.example/x", "telnet-path"),
            ("telnet://host.example//", "telnet-path"),
            ("telnet://host.example/?x", "telnet-path"),
            ("telnet://a:b:c@host.example/", "login-userinfo"),
            ("telnet://host.example:/", "port-empty"),
        ]);
    }

    #[test]
    fn wais_vectors() {
        accepts(&[
            // RFC 1738 3.9 forms.
            "wais://wais.example:210/database",
            "wais://wais.example/database?search%20words",
            "wais://wais.example/database/TEXT/doc%2F1",
            "wais://wais.example/",
        ]);
        rejects(&[
            ("wais://wais.example", "wais-path"),
            ("wais://wais.example/db/TEXT", "wais-path"),
            ("wais://wais.example/a/b/c/d", "wais-path"),
            ("wais://wais.example/db/TEXT/x?q", "wais-search"),
            ("wais://wais.example/db;x", "wais-char"),
            ("wais://wais.example/db?a/b", "wais-search"),
        ]);
    }

    #[test]
    fn file_vectors() {
        accepts(&[
            // RFC 8089 Appendix B.
            "file:///path/to/file",
            "file:/path/to/file",
            "file://host.example.com/path/to/file",
            // RFC 8089 Appendix E.2.
            "file:c:/path/to/file",
            "file:///c:/path/to/file",
            // RFC 8089 Appendix E.3.
            "file://host.example.com/Share/path/to/file.txt",
            "file:////host.example.com/Share/path/to/file.txt",
            // RFC 8089 2: file-auth = "localhost" / host.
            "file://localhost/etc/fstab",
            // RFC 1738 3.10.
            "file://vms.host.edu/disk$user/my/notes/note12345.txt",
        ]);
        rejects(&[
            ("file:path/to/file", "file-path"),
            ("file://host.example", "file-path"),
            ("file:", "file-path"),
            ("file://user@host.example/x", "file-auth"),
            ("file://host.example:21/x", "file-auth"),
            ("file:///x?y", "file-query"),
        ]);
    }

    #[test]
    fn prospero_vectors() {
        accepts(&[
            // RFC 1738 3.11.
            "prospero://host.dom//pros/name",
            "prospero://host.dom:1525/pros/name;OBJECT-VERSION=3",
            "prospero://host.dom/a/b;f1=v1;f2=v2",
        ]);
        rejects(&[
            ("prospero://host.dom", "prospero-path"),
            ("prospero://host.dom/a;field", "prospero-field"),
            ("prospero://host.dom/a;x=y=z", "prospero-field"),
            ("prospero://host.dom/a;x=y/b", "prospero-field"),
            ("prospero://u@host.dom/a", "userinfo-not-allowed"),
        ]);
    }

    #[test]
    fn ws_vectors() {
        accepts(&[
            // RFC 6455 3 ws-URI / wss-URI forms (constructed).
            "ws://example.com/chat",
            "wss://example.com/chat?token=1",
            "WS://example.com:8080",
            "wss://[::1]:443/",
        ]);
        rejects(&[
            ("ws://example.com/chat#x", "ws-fragment"),
            ("wss://example.com/#", "ws-fragment"),
            ("ws://u@example.com/", "ws-userinfo"),
        ]);
        rejects_raw(&[
            ("ws:/chat", "authority-required"),
            ("wss://", "host-required"),
        ]);
    }

    #[test]
    fn urn_vectors() {
        accepts(&[
            // RFC 8141 3.2.
            "urn:example:a123,z456",
            "URN:example:a123,z456",
            "urn:EXAMPLE:a123,z456",
            "urn:example:a123,z456?+abc",
            "urn:example:a123,z456?=xyz",
            "urn:example:a123,z456#789",
            "urn:example:a123,z456/foo",
            "urn:example:a123%2Cz456",
            // RFC 8141 2.3.2.
            "urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z",
            // RFC 8141 2.3.1.
            "urn:example:foo-bar-baz-qux?+CCResolve:cc=uk",
            // Both components, in the RFC 8141 2 order (constructed).
            "urn:example:foo?+CCResolve:cc=uk?=x",
            // RFC 2141 era example, still valid.
            "urn:isbn:0451450523",
        ]);
        rejects(&[
            ("urn:a:b", "urn-nid"),
            ("urn:-ab:x", "urn-nid"),
            ("urn:ab-:x", "urn-nid"),
            ("urn:a_b:x", "urn-nid"),
            ("urn:example:", "urn-nss"),
            ("urn:example", "urn-nss"),
            ("urn:example:/x", "urn-nss"),
            ("urn:example:x?foo", "urn-rq"),
            ("urn:example:x?+", "urn-rq"),
            ("urn://example/x", "urn-syntax"),
        ]);
        let nid32 = format!("urn:{}:x", "a".repeat(32));
        let nid33 = format!("urn:{}:x", "a".repeat(33));
        assert!(codes(&nid32).is_empty());
        assert_eq!(codes(&nid33), vec!["urn-nid"]);
    }

    #[test]
    fn tel_vectors() {
        accepts(&[
            // RFC 3966 6.
            "tel:+1-201-555-0123",
            "tel:7042;phone-context=example.com",
            "tel:863-1234;phone-context=+1-914-555",
            // Constructed from the RFC 3966 3 grammar (ext, isub, "%23").
            "tel:+1-201-555-0123;ext=1234",
            "tel:+358-555-1234567;isub=1411",
            "tel:*123%23;phone-context=example.com",
            "tel:+1(800)555.0199;foo=bar",
        ]);
        rejects(&[
            ("tel:7042", "tel-context"),
            ("tel:+", "tel-number"),
            ("tel:+-", "tel-number"),
            ("tel:+1x", "tel-number"),
            ("tel:xyz;phone-context=example.com", "tel-number"),
            ("tel:+1-201-555-0123;phone-context=example.com", "tel-context"),
            ("tel:7042;phone-context=-bad", "tel-context"),
            ("tel:+1-201-555-0123;ext=abc", "tel-param"),
            ("tel:+12;ext=1;ext=2", "tel-param"),
            ("tel:+12;=x", "tel-param"),
            ("tel:+12;foo=", "tel-param"),
            ("tel:+12;b=1;a=2", "tel-param-order"),
            ("tel:+12?x", "tel-syntax"),
        ]);
    }

    #[test]
    fn data_vectors() {
        accepts(&[
            // RFC 2397 4.
            "data:,A%20brief%20note",
            "data:image/gif;base64,R0lGODdhMAAwAPAAAAAAAP///ywAAAAAMAAwAAAC8IyPqcvt3wCcDkiLc7C0qwyGHhSWpjQu5yqmCYsapyuvUUlvONmOZtfzgFzByTB10QgxOR0TqBQejhRNzOfkVJ+5YiUqrXF5Y5lKh/DeuNcP5yLWGsEbtLiOSpa/TPg7JpJHxyendzWTBfX0cxOnKPjgBzi4diinWGdkF8kjdfnycQZXZeYGejmJlZeGl9i2icVqaNVailT6F5iJ90m6mvuTS4OK05M0vDk0Q4XUtwvKOzrcd3iq9uisF81M1OIcR7lEewwcLp7tuNNkM3uNna3F2JQFo97Vriy/Xl4/f1cf5VWzXyym7PHhhx4dbgYKAAA7",
            "data:application/vnd-xxx-query,select_vcount,fcol_from_fieldtable/local",
            // RFC 2397 2 (defaults, charset only).
            "data:;charset=US-ASCII,hi",
            "data:text/plain;charset=utf-8;base64,SGk=",
            "data:;base64,SGVsbG8=",
            "data:,",
        ]);
        rejects(&[
            ("data:text/plain", "data-comma"),
            ("data:", "data-comma"),
            ("data:text,hi", "data-mediatype"),
            ("data:text/,hi", "data-mediatype"),
            ("data:text/plain;charset,x", "data-param"),
            ("data:;base64,SGk*", "data-base64"),
            ("data:;base64,S=Gk", "data-base64"),
            ("data:;base64,SGk===", "data-base64"),
            ("data:;base64,SGVsb", "data-base64"),
        ]);
        // RFC 2397 4's "%be%fg%be" example is not RFC 3986 valid ("%fg").
        assert!(
            !Uri::parse("data:text/plain;charset=iso-8859-7,%be%fg%be")
                .is_valid()
        );
    }

    #[test]
    fn unknown_and_relative() {
        for s in ["foo:bar", "x-y://h/p", "/just/a/path", "", "about:blank"] {
            assert!(check(&Uri::parse(s)).is_empty(), "{s}");
        }
    }

    #[test]
    fn severities() {
        let u = Uri::parse("http://u@example.com/");
        let f = check(&u);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        let u = Uri::parse("ws://example.com/#x");
        assert_eq!(check(&u)[0].severity, Severity::Error);
    }

    #[test]
    fn no_panic_on_combinations() {
        let schemes = [
            "ftp:",
            "http:",
            "gopher:",
            "mailto:",
            "news:",
            "nntp:",
            "telnet:",
            "wais:",
            "file:",
            "prospero:",
            "ws:",
            "urn:",
            "tel:",
            "data:",
            "x:",
        ];
        let pieces = [
            "", "//", "/", "@", ":", ";", "=", ",", "?", "#", "%", "%0",
            "%zz", "%40", "%09", "%0d%0a", "é", "+", "-", ".", "*", "xn--",
            "0x", "\"", "\\", "[", "]", "a", "1", ";type=", "?+", "?=",
            "base64",
        ];
        for sch in schemes {
            for a in pieces {
                for b in pieces {
                    for c in ["", "h", "/p", "?q", ";x=y"] {
                        let s = format!("{sch}{a}{b}{c}");
                        let u = Uri::parse(&s);
                        let _ = check(&u);
                        let _ = crate::validate::lint::lint(&u);
                    }
                }
            }
        }
    }

    #[test]
    fn no_panic_on_odd_input() {
        for s in [
            "ftp:",
            "ftp://",
            "ftp://;",
            "gopher://h/%",
            "gopher://h/%e9",
            "mailto:%",
            "mailto:\"",
            "mailto:\"\\",
            "mailto:@",
            "mailto:?&&",
            "news:%40",
            "news://",
            "nntp://h//",
            "tel:",
            "tel:;",
            "tel:+;=",
            "data:,%",
            "data:;base64,=",
            "data:;base64,%",
            "urn:",
            "urn::",
            "file:c",
            "file:c:",
            "wais://h//",
            "prospero://h/;",
            "mailto:\"é",
            "news:é@é",
            "tel:é",
            "data:é/é,é",
            "urn:é:é",
        ] {
            let _ = check(&Uri::parse(s));
        }
    }

    /// The fast paths agree with the full check.
    #[test]
    fn quick_paths_agree_with_check() {
        let errors = |s: &str| {
            check(&Uri::parse(s)).iter().all(|f| f.severity != Severity::Error)
        };
        for s in [
            "mailto:joe@example.com",
            "mailto:a.b@c",
            "mailto:.a@b",
            "mailto:a..b@c",
            "mailto:a@b@c",
            "mailto:ab",
            "mailto:a@",
            "mailto:@b",
            "mailto:a@[1.2.3.4]",
            "mailto:\u{e9}@b.example",
        ] {
            if let Some(ok) = mailto_quick(s) {
                assert_eq!(ok, errors(s), "{s}");
            }
        }
        // Addresses with header fields, from pieces: wherever the quick
        // path answers, the full check says the same.
        let addrs =
            ["a@b.example", "a..b@c", "a@b@c", "ab", "a@", "x.y@[1.2]"];
        let pieces =
            ["", "?", "&", "=", "subject", "body", "a:b", "x=y", "%3D", "#f"];
        let (mut next, mut answered) = (crate::testing::xorshift(7), 0);
        for _ in 0..20_000 {
            let mut s = String::from("mailto:");
            s.push_str(addrs[(next() % addrs.len() as u64) as usize]);
            for _ in 0..next() % 8 {
                s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            if Uri::parse(&s).errors().is_empty()
                && let Some(ok) = mailto_quick(&s)
            {
                answered += 1;
                assert_eq!(ok, errors(&s), "{s}");
            }
        }
        assert!(answered > 5_000, "{answered}");
        // Addresses from pieces of local parts and domains, and what
        // ends or spoils them: the same.
        let local = [
            "a", "a", "Z9", "x.y", "_", "-", ".", "!", "~", "{", "'", "(",
            ":", ";", "é", "&", "=",
        ];
        let domain = [
            "a", "a", "b-c", "x.y", "Z9", ".", "-", "_", "é", "[1.2]", "[",
            "]", "..", "-.", ".-", "@", "!", "~", "\\",
        ];
        let tail = ["", "", "?", "?a=b", "&", "#f", "%41", ",", "\"", "/"];
        let mut verdicts = [0; 2];
        for _ in 0..50_000 {
            let mut s = String::from("mailto:");
            let at = if next() % 8 == 0 { "" } else { "@" };
            for (pieces, then) in [(&local[..], at), (&domain[..], "")] {
                for _ in 0..1 + next() % 3 {
                    s.push_str(
                        pieces[(next() % pieces.len() as u64) as usize],
                    );
                }
                s.push_str(then);
            }
            s.push_str(tail[(next() % tail.len() as u64) as usize]);
            if Uri::parse(&s).errors().is_empty()
                && let Some(ok) = mailto_quick(&s)
            {
                verdicts[usize::from(ok)] += 1;
                assert_eq!(ok, errors(&s), "{s}");
            }
        }
        assert!(verdicts.iter().all(|&n| n > 1_000), "{verdicts:?}");
        for s in [
            "mailto:a@b.example?subject=help",
            "mailto:a@b.example?subject=x&body=y",
            "mailto:a@b.example?",
        ] {
            assert_eq!(mailto_quick(s), Some(true), "{s}");
        }
        // news: the quick path answers for a group name or `*` alone, as
        // the full check does, and leaves the rest to it.
        let groups = [
            ("comp.lang.rust", true),
            ("*", true),
            ("comp.*", true),
            ("a+b-c_d.e1", true),
            ("comp..x", false),
            (".comp", false),
            ("comp.", false),
            ("comp.lang!x", false),
        ];
        for (group, valid) in groups {
            let s = format!("news:{group}");
            assert_eq!((news_quick(&s), errors(&s)), (Some(valid), valid));
        }
        let others = [
            "news:a@b.example",
            "news:comp.lang?x",
            "news:%63omp",
            "news:",
            "news://server/comp.x",
        ];
        assert!(others.iter().all(|s| news_quick(s).is_none()));
        for s in [
            "ftp://ftp.example.org/pub/x",
            "ftp://ftp.example.org:21/pub/x;type=i",
            "ftp://ftp_x.example.org/",
            "ftp://a-.example/",
            "ftp://1.2.3.4/",
            "ftp://x.example./",
        ] {
            let start = Uri::parse(s).range(Component::Path).unwrap().start;
            if let Some(ok) = ftp_quick(s, start) {
                assert_eq!(ok, errors(s), "{s}");
            }
            let plain = crate::validate::quick_check(s).is_some()
                && !s[6..start].contains(['_', '~'])
                && !s[start..].contains(';');
            if plain {
                assert_eq!(ftp_plain_quick(s, start), ftp_quick(s, start));
            }
        }
    }
}

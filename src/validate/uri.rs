//! URI-reference parsing (RFC 3986 Appendix B, zero-copy) and the
//! checks of each component against the ABNF of RFC 3986 Appendix A,
//! with percent-encoding of what RFC 3986 forbids for a repair.

use std::ops::Range;

use super::chars::{
    CLASS, CLASS_BASE, DOT, check_chars, check_iri_chars, class_bit, is_hex,
    is_iri_char,
};
use super::error::{ErrorKind, Span, UriError};
use super::host::{check_host, is_ipv4};
use crate::scheme::scheme_requires_host;

/// A parsed URI reference: the input string plus the byte ranges of its
/// components. Parsing never copies and never fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uri<'a> {
    s: &'a str,
    scheme: Option<Span>,
    authority: Option<Span>,
    userinfo: Option<Span>,
    host: Option<Span>,
    port: Option<Span>,
    path: Span,
    query: Option<Span>,
    fragment: Option<Span>,
}

/// A component (or sub-component) of a URI reference, for [`Uri::range`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// `scheme` (RFC 3986 section 3.1), without the `:`.
    Scheme,
    /// `authority` (section 3.2), without the leading `//`.
    Authority,
    /// `userinfo` (section 3.2.1), without the `@`.
    Userinfo,
    /// `host` (section 3.2.2), including the brackets of an IP-literal.
    Host,
    /// `port` (section 3.2.3), without the `:`.
    Port,
    /// `path` (section 3.3); always present, possibly empty.
    Path,
    /// `query` (section 3.4), without the `?`.
    Query,
    /// `fragment` (section 3.5), without the `#`.
    Fragment,
}

/// The syntactic kind of a host (RFC 3986 section 3.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// A registered name (anything that is neither an IP-literal nor a
    /// valid `IPv4address`, including the empty host).
    RegName,
    /// A dotted-decimal `IPv4address` (four dec-octets 0-255 without
    /// leading zeros).
    Ipv4,
    /// An IP-literal in brackets that does not start with `v`: an
    /// `IPv6address` (validity is reported by [`Uri::errors`]).
    Ipv6,
    /// An IP-literal in brackets starting with `v` or `V`: `IPvFuture`.
    IpvFuture,
}

/// First index in `s[from..to]` of a byte in `set`, or `to`.
fn find_any(s: &str, from: usize, to: usize, set: &[u8]) -> usize {
    let Some(hay) = s.as_bytes().get(from..to) else { return to };
    let found = match *set {
        [a] => memchr::memchr(a, hay),
        [a, b] => memchr::memchr2(a, b, hay),
        [a, b, c] => memchr::memchr3(a, b, c, hay),
        _ => hay.iter().position(|c| set.contains(c)),
    };
    found.map_or(to, |i| from + i)
}

impl<'a> Uri<'a> {
    /// Splits `s` into its components like the regular expression of
    /// RFC 3986 Appendix B:
    /// `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`.
    ///
    /// The authority is further split at its last `@` (userinfo) and, for
    /// a host that does not start with `[`, at its last `:` (port); an
    /// IP-literal host runs up to the first `]`. Never fails; use
    /// [`Uri::errors`] to validate.
    pub fn parse(s: &'a str) -> Uri<'a> {
        let len = s.len();
        // Appendix B: scheme = [^:/?#]+ followed by ":".
        let first = find_any(s, 0, len, b":/?#");
        let (scheme, mut pos) =
            if first > 0 && s.as_bytes().get(first) == Some(&b':') {
                (Some(Span::new(0, first)), first + 1)
            } else {
                (None, 0)
            };
        let mut authority = None;
        let mut userinfo = None;
        let mut host = None;
        let mut port = None;
        if s.as_bytes().get(pos..pos + 2) == Some(b"//") {
            let a_start = pos + 2;
            let a_end = find_any(s, a_start, len, b"/?#");
            authority = Some(Span::new(a_start, a_end));
            let bytes = s.as_bytes();
            let at = bytes
                .get(a_start..a_end)
                .and_then(|b| b.iter().rposition(|&c| c == b'@'));
            let h_start = match at {
                Some(i) => {
                    userinfo = Some(Span::new(a_start, a_start + i));
                    a_start + i + 1
                }
                None => a_start,
            };
            if bytes.get(h_start) == Some(&b'[') {
                // IP-literal: up to and including the first "]".
                let close = find_any(s, h_start, a_end, b"]");
                let h_end = if close < a_end { close + 1 } else { a_end };
                host = Some(Span::new(h_start, h_end));
                if bytes.get(h_end) == Some(&b':') && h_end < a_end {
                    port = Some(Span::new(h_end + 1, a_end));
                }
            } else {
                let colon = bytes
                    .get(h_start..a_end)
                    .and_then(|b| b.iter().rposition(|&c| c == b':'));
                match colon {
                    Some(i) => {
                        host = Some(Span::new(h_start, h_start + i));
                        port = Some(Span::new(h_start + i + 1, a_end));
                    }
                    None => host = Some(Span::new(h_start, a_end)),
                }
            }
            pos = a_end;
        }
        let p_end = find_any(s, pos, len, b"?#");
        let path = Span::new(pos, p_end);
        pos = p_end;
        let mut query = None;
        if s.as_bytes().get(pos) == Some(&b'?') {
            let q_end = find_any(s, pos + 1, len, b"#");
            query = Some(Span::new(pos + 1, q_end));
            pos = q_end;
        }
        let fragment = if s.as_bytes().get(pos) == Some(&b'#') {
            Some(Span::new(pos + 1, len))
        } else {
            None
        };
        Uri {
            s,
            scheme,
            authority,
            userinfo,
            host,
            port,
            path,
            query,
            fragment,
        }
    }

    fn get(&self, span: Option<Span>) -> Option<&'a str> {
        span.and_then(|sp| self.s.get(sp.range()))
    }

    /// The whole parsed string.
    pub fn as_str(&self) -> &'a str {
        self.s
    }

    /// The scheme as written (no case change), without the `:`.
    pub fn scheme(&self) -> Option<&'a str> {
        self.get(self.scheme)
    }

    /// The authority without the leading `//`; `Some("")` for `file:///x`.
    pub fn authority(&self) -> Option<&'a str> {
        self.get(self.authority)
    }

    /// The userinfo without the `@`, if the authority contains an `@`.
    pub fn userinfo(&self) -> Option<&'a str> {
        self.get(self.userinfo)
    }

    /// The host (including the `[` `]` of an IP-literal); `Some` whenever
    /// there is an authority, possibly empty.
    pub fn host(&self) -> Option<&'a str> {
        self.get(self.host)
    }

    /// The port without the `:`; `Some("")` for `http://h:/`.
    pub fn port(&self) -> Option<&'a str> {
        self.get(self.port)
    }

    /// The path; always present, possibly empty.
    pub fn path(&self) -> &'a str {
        self.s.get(self.path.range()).unwrap_or("")
    }

    /// The query without the `?`.
    pub fn query(&self) -> Option<&'a str> {
        self.get(self.query)
    }

    /// The fragment without the `#`.
    pub fn fragment(&self) -> Option<&'a str> {
        self.get(self.fragment)
    }

    /// Byte range of component `c` in [`Uri::as_str`], if present (the
    /// path is always present).
    pub fn range(&self, c: Component) -> Option<Range<usize>> {
        let span = match c {
            Component::Scheme => self.scheme,
            Component::Authority => self.authority,
            Component::Userinfo => self.userinfo,
            Component::Host => self.host,
            Component::Port => self.port,
            Component::Path => Some(self.path),
            Component::Query => self.query,
            Component::Fragment => self.fragment,
        };
        span.map(Span::range)
    }

    /// Whether the reference has a scheme (RFC 3986 section 4.3; a
    /// fragment is allowed).
    pub fn is_absolute(&self) -> bool {
        self.scheme.is_some()
    }

    /// The syntactic kind of the host; `None` when there is no authority.
    /// An IP-literal is classified by its first character after `[`, so
    /// an invalid literal still reports `Ipv6` / `IpvFuture`.
    pub fn host_kind(&self) -> Option<HostKind> {
        let host = self.host()?;
        Some(match host.strip_prefix('[') {
            Some(rest) if rest.starts_with(['v', 'V']) => HostKind::IpvFuture,
            Some(_) => HostKind::Ipv6,
            None if is_ipv4(host) => HostKind::Ipv4,
            None => HostKind::RegName,
        })
    }

    /// Whether [`Uri::errors`] is empty.
    pub fn is_valid(&self) -> bool {
        self.errors().is_empty()
    }

    /// Every grammar or scheme violation found, sorted by offset; empty
    /// means valid. At most one character-level error is reported per
    /// component.
    ///
    /// Besides the ASCII characters of the RFC 3986 ABNF, userinfo,
    /// reg-name, path, query and fragment accept the non-ASCII characters
    /// of RFC 3987 IRIs (`ucschar`, and `iprivate` in the query), except
    /// the bidi formatting controls U+200E, U+200F, U+202A..=U+202E and
    /// U+2066..=U+2069 (RFC 3987 4.1).
    pub fn errors(&self) -> Vec<UriError> {
        let mut errs = Vec::new();
        if let Some(sp) = self.scheme {
            check_scheme(self.s, sp, &mut errs);
        }
        if let Some(sp) = self.userinfo {
            // RFC 3986 3.2.1: userinfo = *( unreserved / pct-encoded /
            // sub-delims / ":" )
            check_chars(self.s, sp, b":", &mut errs);
        }
        if let Some(sp) = self.host {
            // Anything between a literal's "]" and the port's ":" (or
            // the end of the authority) is not allowed: see check_host.
            let auth_end = self.authority.map_or(sp.end, |a| a.end);
            let next = self.port.map_or(auth_end, |p| p.start - 1);
            check_host(self.s, sp, next, &mut errs);
        }
        if let Some(sp) = self.port {
            check_port(self.s, sp, &mut errs);
        }
        self.check_host_required(&mut errs);
        self.check_path(&mut errs);
        if let Some(sp) = self.query {
            // RFC 3986 3.4: query = *( pchar / "/" / "?" ); RFC 3987
            // adds iprivate.
            check_iri_chars(self.s, sp, b":@/?", true, &mut errs);
        }
        if let Some(sp) = self.fragment {
            // RFC 3986 3.5: fragment = *( pchar / "/" / "?" )
            check_chars(self.s, sp, b":@/?", &mut errs);
        }
        errs.sort_by_key(|e| e.offset());
        errs
    }

    fn check_host_required(&self, errs: &mut Vec<UriError>) {
        // RFC 3986 3.2.2: "the http scheme considers a missing authority
        // or empty host invalid"; likewise for the other schemes of
        // scheme_requires_host.
        let Some(scheme) = self.scheme() else { return };
        if !scheme_requires_host(scheme) {
            return;
        }
        match self.host {
            Some(h) if h.end > h.start => {}
            Some(h) => {
                errs.push(UriError::new(ErrorKind::MissingHost, h.start))
            }
            None => errs
                .push(UriError::new(ErrorKind::MissingHost, self.path.start)),
        }
    }

    fn check_path(&self, errs: &mut Vec<UriError>) {
        // RFC 3986 3.3: with an authority the path is empty or starts
        // with "/", and without one it cannot start with "//"; both hold
        // by construction of the Appendix B split (the authority ends at
        // the first "/", and a leading "//" always starts an authority).
        let sp = self.path;
        // RFC 3986 3.3: path segments are *pchar, separated by "/".
        check_chars(self.s, sp, b":@/", errs);
        // RFC 3986 4.2: in a relative-path reference the first segment
        // must not contain ":" (path-noscheme).
        if self.scheme.is_none() && self.authority.is_none() {
            let path = self.path();
            let seg_end = path.find('/').unwrap_or(path.len());
            if let Some(i) = path.get(..seg_end).and_then(|s| s.find(':')) {
                errs.push(UriError::new(
                    ErrorKind::RelativeFirstSegmentColon,
                    sp.start + i,
                ));
            }
        }
    }
}

/// `s` with the characters RFC 3986 does not allow in its path, query
/// and fragment percent-encoded as UTF-8 (RFC 3986 2.1), as browsers
/// encode them before a request: space and the other ASCII characters
/// outside the URI grammar (`"` `<` `>` `\` `^` `` ` `` `{` `|` `}`,
/// controls), `[` and `]` (allowed only around an IP literal, RFC 3986
/// 3.2.2), a `%` not followed by two hex digits, `#` inside the fragment,
/// and the non-ASCII characters RFC 3987 2.2 does not allow in an IRI
/// (bidi formatting characters, noncharacters). Letters of every script
/// are kept (RFC 3987).
///
/// `None` when there is nothing to encode, or when the scheme or the
/// authority is invalid: a host is never repaired, since no encoding
/// makes a wrong host name right.
pub fn percent_encode_disallowed(s: &str) -> Option<String> {
    let uri = Uri::parse(s);
    let tail = uri.path.start;
    if uri.errors().iter().all(|e| e.offset() < tail) {
        return None; // nothing to encode, or an error before the path
    }
    let head_ok = uri.errors().iter().all(|e| e.offset() >= tail);
    if !head_ok {
        return None;
    }
    let mut out = String::with_capacity(s.len() + 16);
    out.push_str(&s[..tail]);
    let query = uri.query.map(|q| q.start - 1);
    let fragment = uri.fragment.map(|f| f.start - 1);
    let bytes = s.as_bytes();
    let mask_of = |extra: &[u8]| {
        extra.iter().fold(CLASS_BASE | DOT, |m, &x| m | class_bit(x))
    };
    let (path_mask, tail_mask) = (mask_of(b":@/"), mask_of(b":@/?"));
    let mut i = tail;
    while i < s.len() {
        let b = bytes[i];
        // The delimiters that start the query and the fragment.
        if Some(i) == query || Some(i) == fragment {
            out.push(b as char);
            i += 1;
            continue;
        }
        let in_query =
            query.is_some_and(|q| i > q) && fragment.is_none_or(|f| i < f);
        let in_fragment = fragment.is_some_and(|f| i > f);
        let mask = if in_query || in_fragment { tail_mask } else { path_mask };
        if b < 0x80 && CLASS[b as usize] & mask != 0 {
            out.push(b as char);
            i += 1;
            continue;
        }
        if b == b'%' && is_hex(bytes.get(i + 1)) && is_hex(bytes.get(i + 2)) {
            out.push_str(&s[i..i + 3]);
            i += 3;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
        if b >= 0x80 && is_iri_char(c, in_query) {
            out.push(c);
        } else {
            let mut utf8 = [0; 4];
            for &u in c.encode_utf8(&mut utf8).as_bytes() {
                out.push('%');
                out.push(char::from(HEX_UPPER[usize::from(u >> 4)]));
                out.push(char::from(HEX_UPPER[usize::from(u & 15)]));
            }
        }
        i += c.len_utf8();
    }
    (out != s).then_some(out)
}

/// Upper-case hex digits (RFC 3986 2.1: producers should use them).
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
fn check_scheme(s: &str, sp: Span, errs: &mut Vec<UriError>) {
    let scheme = s.get(sp.range()).unwrap_or("");
    for (i, c) in scheme.char_indices() {
        let ok = if i == 0 {
            c.is_ascii_alphabetic()
        } else {
            c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
        };
        if !ok {
            errs.push(UriError::new(ErrorKind::InvalidScheme, sp.start + i));
            return;
        }
    }
}

/// RFC 3986 3.2.3: port = *DIGIT; its value must fit TCP/UDP (<= 65535).
fn check_port(s: &str, sp: Span, errs: &mut Vec<UriError>) {
    let port = s.get(sp.range()).unwrap_or("");
    if let Some(i) = port.find(|c: char| !c.is_ascii_digit()) {
        errs.push(UriError::new(ErrorKind::InvalidPort, sp.start + i));
        return;
    }
    let value = port.bytes().fold(0u32, |v, b| {
        v.saturating_mul(10).saturating_add(u32::from(b - b'0'))
    });
    if value > 65535 {
        errs.push(UriError::new(ErrorKind::PortTooLarge, sp.start));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::fast::quick_check;
    use crate::validate::host::{is_dec_octet, is_ipv6};

    fn kinds(s: &str) -> Vec<ErrorKind> {
        Uri::parse(s).errors().iter().map(UriError::kind).collect()
    }

    fn first(s: &str) -> Option<(ErrorKind, usize)> {
        Uri::parse(s).errors().first().map(|e| (e.kind(), e.offset()))
    }

    #[test]
    fn components_basic() {
        let u =
            Uri::parse("foo://user:pw@example.com:8042/over/there?n=1#nose");
        assert_eq!(u.scheme(), Some("foo"));
        assert_eq!(u.authority(), Some("user:pw@example.com:8042"));
        assert_eq!(u.userinfo(), Some("user:pw"));
        assert_eq!(u.host(), Some("example.com"));
        assert_eq!(u.port(), Some("8042"));
        assert_eq!(u.path(), "/over/there");
        assert_eq!(u.query(), Some("n=1"));
        assert_eq!(u.fragment(), Some("nose"));
        assert_eq!(u.range(Component::Host), Some(14..25));
        assert_eq!(u.range(Component::Port), Some(26..30));
        assert_eq!(u.host_kind(), Some(HostKind::RegName));
        assert!(u.is_absolute());
        assert!(u.is_valid());
    }

    #[test]
    fn components_edge() {
        let u = Uri::parse("file:///x");
        assert_eq!(u.authority(), Some(""));
        assert_eq!(u.host(), Some(""));
        assert_eq!(u.port(), None);
        assert_eq!(u.path(), "/x");
        assert!(u.is_valid());
        let u = Uri::parse("http://h:/");
        assert_eq!(u.port(), Some(""));
        assert!(u.is_valid());
        let u = Uri::parse("http://[::1]:80/");
        assert_eq!(u.host(), Some("[::1]"));
        assert_eq!(u.port(), Some("80"));
        assert_eq!(u.host_kind(), Some(HostKind::Ipv6));
        let u = Uri::parse("mailto:a@b");
        assert_eq!(u.authority(), None);
        assert_eq!(u.host_kind(), None);
        assert_eq!(u.path(), "a@b");
        let u = Uri::parse("");
        assert_eq!(u.path(), "");
        assert_eq!(u.scheme(), None);
        assert!(u.is_valid());
        let u = Uri::parse("?#");
        assert_eq!(u.query(), Some(""));
        assert_eq!(u.fragment(), Some(""));
        let u = Uri::parse("a@b@c:1:2");
        assert_eq!(u.scheme(), Some("a@b@c"));
        let u = Uri::parse("//u@v@h/p");
        assert_eq!(u.userinfo(), Some("u@v"));
        assert_eq!(u.host(), Some("h"));
    }

    #[test]
    fn ipv6_valid_forms() {
        for a in [
            "::",
            "::1",
            "1::",
            "1::2",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "1::8",
            "1:2:3::6:7:8",
            "::ffff:1.2.3.4",
            "::1.2.3.4",
            "1:2:3:4:5:6:1.2.3.4",
            "1::5:6:1.2.3.4",
            "1:2:3:4:5::1.2.3.4",
            "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210",
            "abcd:ef01::",
        ] {
            assert!(is_ipv6(a), "{a}");
            let s = format!("http://[{a}]/");
            assert!(Uri::parse(&s).is_valid(), "{s}");
        }
    }

    #[test]
    fn ipv6_invalid_forms() {
        for a in [
            "",
            ":",
            ":::",
            "1:::2",
            "1::2::3",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7::8",
            "12345::",
            "g::",
            ":1::",
            "1::2:",
            "1:2:3:4:5:6:7:1.2.3.4",
            "::1.2.3.4:5",
            "1.2.3.4::",
            "::01.2.3.4",
            "::256.2.3.4",
            "::1.2.3",
            "1:2:3:4:5:6:7:8:1.2.3.4",
            "xyz",
        ] {
            assert!(!is_ipv6(a), "{a}");
        }
        assert_eq!(first("http://[xyz]/"), Some((ErrorKind::InvalidIpv6, 8)));
        assert_eq!(
            first("http://[fe80::1%25eth0]/"),
            Some((ErrorKind::Ipv6ZoneId, 15))
        );
        assert_eq!(
            first("http://[::1/"),
            Some((ErrorKind::UnclosedIpLiteral, 7))
        );
        assert_eq!(
            first("http://[::1]x/"),
            Some((ErrorKind::InvalidCharacter, 12))
        );
        assert_eq!(
            first("http://[::1]:x/"),
            Some((ErrorKind::InvalidPort, 13))
        );
    }

    #[test]
    fn ipvfuture() {
        assert!(Uri::parse("http://[v1.fe80::a+en1]/").is_valid());
        assert!(Uri::parse("http://[V7.x]/").is_valid());
        let u = Uri::parse("http://[v1.x]/");
        assert_eq!(u.host_kind(), Some(HostKind::IpvFuture));
        for bad in ["[v1]", "[v.x]", "[v1.]", "[vg.x]", "[v1.x^]", "[v1.%20]"]
        {
            let s = format!("//{bad}");
            assert_eq!(kinds(&s), vec![ErrorKind::InvalidIpvFuture], "{s}");
        }
    }

    #[test]
    fn dec_octet_and_ipv4() {
        for ok in ["0", "9", "10", "99", "100", "199", "200", "249", "255"] {
            assert!(is_dec_octet(ok), "{ok}");
        }
        for bad in ["", "00", "01", "256", "300", "1000", "-1", "a"] {
            assert!(!is_dec_octet(bad), "{bad}");
        }
        assert_eq!(
            Uri::parse("http://1.2.3.4/").host_kind(),
            Some(HostKind::Ipv4)
        );
        assert_eq!(
            Uri::parse("http://0.0.0.0/").host_kind(),
            Some(HostKind::Ipv4)
        );
        // Failing dec-octet makes it a (valid) reg-name.
        for reg in ["1.2.3.999", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1.2.3.4."]
        {
            let s = format!("http://{reg}/");
            let u = Uri::parse(&s);
            assert_eq!(u.host_kind(), Some(HostKind::RegName), "{s}");
            assert!(u.is_valid(), "{s}");
        }
    }

    #[test]
    fn label_and_host_lengths() {
        let l63 = "a".repeat(63);
        let l64 = "a".repeat(64);
        assert!(Uri::parse(&format!("http://{l63}.com/")).is_valid());
        assert_eq!(
            first(&format!("http://x.{l64}.com/")),
            Some((ErrorKind::LabelTooLong, 9))
        );
        // 4 * 63 + 3 dots = 255 is fine; 256 is not.
        let h255 = [l63.as_str(); 4].join(".");
        assert_eq!(h255.len(), 255);
        assert!(Uri::parse(&format!("http://{h255}")).is_valid());
        assert_eq!(
            kinds(&format!("http://{h255}.a")),
            vec![ErrorKind::HostTooLong]
        );
        // Names with sub-delims are not DNS names: no length limits.
        assert!(Uri::parse(&format!("foo://{l64}!x/")).is_valid());
        // A label is measured in octets: 22 `%61` are 22 octets, and 12
        // Cyrillic letters percent-encoded are 24 (helper-found cases).
        let enc = "%61".repeat(22);
        assert!(Uri::parse(&format!("http://{enc}.com/")).is_valid());
        // The fast path leaves escapes in a host to the full check (the
        // schemes' label rules decode them).
        assert!(quick_check(&format!("http://{enc}.com/")).is_none());
        let cyr = "%D0%BF".repeat(12);
        assert!(Uri::parse(&format!("http://{cyr}.example/")).is_valid());
        // A label with non-ASCII letters (an IRI) is measured as its
        // A-label (RFC 5890 2.3.2.1): 20 `é` make `xn--9caaaaa...` of 27
        // octets, 257 `あ` one of far more than 63, and 60 distinct CJK
        // characters one over 63 too.
        let e20 = "é".repeat(20);
        assert!(Uri::parse(&format!("http://{e20}.example/")).is_valid());
        let a257 = "あ".repeat(257);
        assert_eq!(
            first(&format!("http://x.{a257}.com/")),
            Some((ErrorKind::LabelTooLong, 9))
        );
        let cjk: String = ('\u{4E00}'..).take(60).collect();
        assert_eq!(
            kinds(&format!("http://{cjk}.cn/")),
            vec![ErrorKind::LabelTooLong]
        );
        // Five labels of 50 `é` make A-labels of 4 + 52 octets: a name of
        // 284 octets in the DNS.
        let e50 = "é".repeat(50);
        let long = [e50.as_str(); 5].join(".");
        assert_eq!(
            kinds(&format!("http://{long}/")),
            [ErrorKind::HostTooLong]
        );
        // The fast path measures labels as the full check does.
        let l63 = "a".repeat(63);
        assert!(quick_check(&format!("http://x.{l63}.com/")).is_some());
        assert!(quick_check(&format!("http://x.{l64}.com/")).is_none());
        let e64 = "%61".repeat(64);
        assert_eq!(
            first(&format!("http://{e64}.com/")),
            Some((ErrorKind::LabelTooLong, 7))
        );
        // Underscores and empty labels are allowed by RFC 3986 (http's
        // own rules refuse the empty label); the fast path leaves empty
        // labels and labels with `-` at either end to those rules.
        assert!(Uri::parse("http://_dmarc..example_/").is_valid());
        for host in ["a..b", ".a", "-a.b", "a-.b", "a.b-", "a.-b"] {
            assert!(
                quick_check(&format!("http://{host}/")).is_none(),
                "{host}"
            );
        }
        assert!(quick_check("http://a-b.example./x").is_some());
    }

    #[test]
    fn port_limits() {
        assert!(Uri::parse("http://h:65535/").is_valid());
        assert!(Uri::parse("http://h:0/").is_valid());
        assert!(Uri::parse("http://h:00080/").is_valid());
        assert!(Uri::parse("http://h:/").is_valid());
        assert_eq!(
            first("http://h:65536/"),
            Some((ErrorKind::PortTooLarge, 9))
        );
        assert_eq!(
            first("http://h:99999999999999999999999/"),
            Some((ErrorKind::PortTooLarge, 9))
        );
        assert_eq!(first("http://h:8a/"), Some((ErrorKind::InvalidPort, 10)));
        assert_eq!(
            first("http://w3c.org:80path1/path2"),
            Some((ErrorKind::InvalidPort, 17))
        );
        assert_eq!(first("http://h:-1/"), Some((ErrorKind::InvalidPort, 9)));
    }

    #[test]
    fn percent_encoding() {
        assert!(Uri::parse("http://h/%41%2f%7E?%00#%ff").is_valid());
        assert!(Uri::parse("http://www.yaho%6f.com").is_valid());
        assert!(Uri::parse("//%7e@h").is_valid());
        for (s, off) in [
            ("%", 0),
            ("A%Z", 1),
            ("%ZZ", 0),
            ("%AZ", 0),
            ("a%4", 1),
            ("/a?%g0", 3),
            ("#%", 1),
            ("//h%2/", 3),
            ("//u%@h/", 3),
        ] {
            assert_eq!(
                first(s),
                Some((ErrorKind::BadPercentEncoding, off)),
                "{s}"
            );
        }
        // A multi-byte char right after '%' must not panic.
        assert_eq!(first("%é"), Some((ErrorKind::BadPercentEncoding, 0)));
        assert_eq!(first("%aé"), Some((ErrorKind::BadPercentEncoding, 0)));
    }

    #[test]
    fn scheme_rules() {
        assert!(Uri::parse("a+b-c.d:x").is_valid());
        assert_eq!(first("1a:x"), Some((ErrorKind::InvalidScheme, 0)));
        assert_eq!(first("a_b:x"), Some((ErrorKind::InvalidScheme, 1)));
        assert_eq!(first("a b:x"), Some((ErrorKind::InvalidScheme, 1)));
        assert_eq!(first("é:x"), Some((ErrorKind::InvalidScheme, 0)));
        assert_eq!(Uri::parse("HTTP://x").scheme(), Some("HTTP"));
    }

    #[test]
    fn path_rules() {
        assert_eq!(
            first("::"),
            Some((ErrorKind::RelativeFirstSegmentColon, 0))
        );
        assert_eq!(
            first(":a/b"),
            Some((ErrorKind::RelativeFirstSegmentColon, 0))
        );
        // Colons after the first segment, or after a scheme, are fine.
        assert!(Uri::parse("./a:b").is_valid());
        assert!(Uri::parse("a/b:c").is_valid());
        assert!(Uri::parse("urn:a:b:c").is_valid());
        assert!(Uri::parse("/a:b").is_valid());
        // No authority and "//": impossible by construction - it parses
        // as an authority.
        let u = Uri::parse("foo:////x");
        assert_eq!(u.authority(), Some(""));
        assert_eq!(u.path(), "//x");
        assert!(u.is_valid());
        assert_eq!(first("A[C"), Some((ErrorKind::InvalidCharacter, 1)));
        assert_eq!(
            first("http://example.org/[::1]"),
            Some((ErrorKind::InvalidCharacter, 19))
        );
    }

    #[test]
    fn host_required() {
        for s in ["http://", "http:///x", "http:foo", "HTTPS:", "ftp://u@:21/"]
        {
            assert!(kinds(s).contains(&ErrorKind::MissingHost), "{s}");
        }
        assert_eq!(first("http:foo"), Some((ErrorKind::MissingHost, 5)));
        assert_eq!(first("http:///x"), Some((ErrorKind::MissingHost, 7)));
        for s in ["file:///x", "ldap:///o=x", "mailto:a@b", "urn:x", "foo://"]
        {
            assert!(Uri::parse(s).is_valid(), "{s}");
        }
        assert!(scheme_requires_host("WsS"));
        assert!(!scheme_requires_host("file"));
    }

    #[test]
    fn characters_and_iri() {
        assert!(Uri::parse("https://de.wikipedia.org/wiki/Straße").is_valid());
        assert!(Uri::parse("http://例え.テスト/パス?q=値#断片").is_valid());
        assert!(Uri::parse("http://ü@h/").is_valid());
        assert!(Uri::parse("http://h/\u{A0}").is_valid());
        for (s, off) in [
            ("http://h/a b", 10),
            ("http://h/\"", 9),
            ("http://h/<", 9),
            ("http://h/?a>", 11),
            ("http://h/#\\", 10),
            ("http://h/^", 9),
            ("http://h/`", 9),
            ("http://h/{", 9),
            ("http://h/|", 9),
            ("http://h/}", 9),
            ("http://h/\u{7f}", 9),
            ("http://h/\u{85}", 9),
            ("http://h/a\u{200E}", 10),
            ("http://h/\u{202A}", 9),
            ("http://h/\u{2069}", 9),
            ("http://h/\u{FFFD}", 9),
            ("http://h/#a#b", 11),
            ("http://h h/", 8),
            ("http://u[@h/", 8),
            ("http://]/", 7),
            ("beepbeep\u{7}", 8),
        ] {
            assert_eq!(
                first(s),
                Some((ErrorKind::InvalidCharacter, off)),
                "{s:?}"
            );
        }
    }

    #[test]
    fn one_error_per_component() {
        let errs = Uri::parse("1x://a b:9x/c d?e f#g h").errors();
        let k: Vec<_> = errs.iter().map(|e| (e.kind(), e.offset())).collect();
        assert_eq!(
            k,
            vec![
                (ErrorKind::InvalidScheme, 0),
                (ErrorKind::InvalidCharacter, 6),
                (ErrorKind::InvalidPort, 10),
                (ErrorKind::InvalidCharacter, 13),
                (ErrorKind::InvalidCharacter, 17),
                (ErrorKind::InvalidCharacter, 21),
            ]
        );
    }

    #[test]
    fn error_display() {
        let e = Uri::parse("http://h:99999/").errors()[0];
        assert_eq!(e.to_string(), "port number larger than 65535 at byte 9");
        assert_eq!(e.kind().to_string(), ErrorKind::PortTooLarge.message());
    }

    #[test]
    fn no_panic_on_odd_input() {
        for s in [
            "é:",
            ":é",
            "//é",
            "//[é",
            "//[é]",
            "//[::é]:é",
            "é@é:é",
            "[",
            "]",
            "//@",
            "//:",
            "//[]",
            "//[]:",
            "%",
            "%%",
            "?%",
            "#%é",
            "//a:%",
            "\u{10FFFF}://\u{10FFFF}",
        ] {
            let u = Uri::parse(s);
            let _ = u.errors();
            let _ = u.host_kind();
            for c in [Component::Scheme, Component::Host, Component::Port] {
                if let Some(r) = u.range(c) {
                    assert!(s.get(r).is_some(), "{s:?}");
                }
            }
        }
    }
}

//! Owns URI normalization: RFC 3986 section 6.2.2 (syntax-based) and
//! section 6.2.3 (scheme-based).
//!
//! [`normalize`] maps equivalent URI references to one string. It never
//! fails; an input that is not a valid URI reference gets only the steps
//! that cannot change how it splits into components (see [`normalize`]).
//!
//! # The url-syntax draft
//!
//! Section 6 of draft-fielding-url-syntax-05 ("URL Normalization and
//! Equivalence") names only two common equivalences: the host name is
//! case-independent, and an explicit default port equals an elided one;
//! its section 4.1 adds the case of the scheme and its section 2.4.2 the
//! unescaping of unreserved characters. Where it differs, RFC 3986
//! decides:
//!
//! * The draft's `unreserved` (section 2.3) includes the marks `$ ! * '
//!   ( ) ,`, so `%24`, `%21`, `%2A`, `%27`, `%28`, `%29` and `%2C` would
//!   be safe to unescape. RFC 3986 (2.2) makes them sub-delims, which may
//!   mean something in a component, so they stay encoded here: only
//!   `ALPHA DIGIT - . _ ~` are decoded (RFC 3986 2.3, 6.2.2.2).
//! * The draft has no rule for the case of the hex digits of an escape,
//!   for dot-segments outside relative resolution, for an empty port, or
//!   for an empty path; RFC 3986 6.2.2.1, 6.2.2.3 and 6.2.3 add them.

use std::borrow::Cow;

pub mod iri;

use crate::lex::{hex_val, is_unreserved};
use crate::resolve::remove_dot_segments;
use crate::scheme;
use crate::validate::{Component, Uri};

/// Which steps [`render`] performs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every rule of RFC 3986 6.2.2 and 6.2.3 (for a valid reference).
    Full,
    /// Only the case of the scheme and of the hex digits of escapes.
    Safe,
}

pub use crate::scheme::default_port;

/// Normalizes the URI reference `s` (RFC 3986 sections 6.2.2 and 6.2.3).
///
/// For a valid reference ([`Uri::is_valid`]):
///
/// * the scheme and the host are lowercased (6.2.2.1); only ASCII
///   letters change, so a non-ASCII (IRI) host keeps its case, and an
///   IPv6 or IPvFuture literal gets lowercase hex digits;
/// * the hex digits of every percent-escape are uppercased (6.2.2.1),
///   and escapes of unreserved characters are decoded (6.2.2.2), in
///   every component; userinfo, path, query and fragment keep their case;
/// * dot-segments are removed from a hierarchical path, one with an
///   authority or starting with `/` (6.2.2.3, with
///   [`remove_dot_segments`]); a rootless path (`mailto:a/../b`, or a
///   relative-path reference) is left alone, as 5.2.4 would turn it into
///   an absolute one. When the result would start with `//` without an
///   authority, `/.` is put in front so that it is not read as one;
/// * an empty port, or the scheme's [`default_port`] (compared by value,
///   so `:080` counts as 80), is removed with its `:` (6.2.3);
/// * an empty path with an authority becomes `/` for http, https, ws,
///   wss and ftp (6.2.3);
/// * the host `localhost` of a `file` URI becomes empty (3.2.2: both
///   mean the local machine; 6.2.3).
///
/// For an invalid reference only the scheme (when it is made of scheme
/// characters) is lowercased and hex digits are uppercased: neither can
/// change how the string splits into components, and both are
/// equivalences in any context (6.2.2.1).
///
/// The result is borrowed when nothing changes (also when the result is a
/// prefix of `s`); checking costs one parse and one comparing pass.
pub fn normalize(s: &str) -> Cow<'_, str> {
    normalize_parsed(&Uri::parse(s))
}

/// [`normalize`] of a reference already parsed.
pub(crate) fn normalize_parsed<'a>(uri: &Uri<'a>) -> Cow<'a, str> {
    let s = uri.as_str();
    let out = render(uri, Mode::Full);
    let same = matches!(&out, Cow::Borrowed(b) if b.len() == s.len());
    if same || uri.is_valid() {
        return out;
    }
    render(uri, Mode::Safe)
}

/// Writes the normalized form of `uri`, copying from the input until the
/// first change.
fn render<'a>(uri: &Uri<'a>, mode: Mode) -> Cow<'a, str> {
    let s = uri.as_str();
    let full = mode == Mode::Full;
    let mut w = Out::new(s);
    // Source bytes before `at` have been written (or dropped).
    let mut at = 0;
    let scheme = uri.scheme();
    if let (Some(sc), Some(r)) = (scheme, uri.range(Component::Scheme)) {
        // RFC 3986 6.2.2.1: the scheme is case-insensitive; lowercase.
        if scheme::is_scheme(sc) {
            sc.bytes().for_each(|b| w.push_ascii(b.to_ascii_lowercase()));
        } else {
            w.push(sc);
        }
        at = r.end;
    }
    if let Some(r) = uri.range(Component::Userinfo) {
        w.push(gap(s, at, r.start));
        pct(&mut w, s.get(r.clone()).unwrap_or(""), full, false);
        at = r.end;
    }
    if let Some(r) = uri.range(Component::Host) {
        w.push(gap(s, at, r.start));
        let host = s.get(r.clone()).unwrap_or("");
        let file = scheme.is_some_and(|sc| sc.eq_ignore_ascii_case("file"));
        if full
            && file
            && host.eq_ignore_ascii_case("localhost")
            && uri.range(Component::Userinfo).is_none()
            && uri.range(Component::Port).is_none()
        {
            // RFC 3986 3.2.2 (and RFC 8089 2): in a file URI, an empty
            // host and "localhost" both mean the local machine; 6.2.3
            // normalizes a scheme's default authority to empty.
        } else {
            // RFC 3986 6.2.2.1: the host is case-insensitive (3.2.2);
            // that covers the hex digits of an IP-literal too.
            pct(&mut w, host, full, full);
        }
        at = r.end;
    }
    if let Some(r) = uri.range(Component::Port) {
        let port = s.get(r.clone()).unwrap_or("");
        if full && drops_port(scheme, port) {
            // RFC 3986 6.2.3: an empty or default port is removed with
            // its ":" delimiter.
            w.push(gap(s, at, r.start.saturating_sub(1)));
            at = r.end;
        }
    }
    let pr = uri.range(Component::Path).unwrap_or(at..at);
    w.push(gap(s, at, pr.start));
    at = pr.end;
    let path = s.get(pr).unwrap_or("");
    let mut p = Out::new(path);
    pct(&mut p, path, full, false);
    let path = p.finish();
    let has_authority = uri.authority().is_some();
    if full && (has_authority || path.starts_with('/')) && has_dots(&path) {
        // RFC 3986 6.2.2.3: remove_dot_segments on a hierarchical path.
        let clean = remove_dot_segments(&path);
        if !has_authority && clean.starts_with("//") {
            // RFC 3986 3.3: without an authority the path cannot start
            // with "//"; "/." keeps it a path (a dot-segment, so the
            // identified resource is the same).
            w.push("/.");
        }
        w.push(&clean);
    } else if full
        && path.is_empty()
        && has_authority
        && scheme.and_then(scheme::facts).is_some_and(|f| f.slash_path)
    {
        // RFC 3986 6.2.3: an empty path with an authority is "/" for
        // http-like schemes.
        w.push("/");
    } else {
        w.push(&path);
    }
    for c in [Component::Query, Component::Fragment] {
        if let Some(r) = uri.range(c) {
            w.push(gap(s, at, r.start));
            pct(&mut w, s.get(r.clone()).unwrap_or(""), full, false);
            at = r.end;
        }
    }
    w.push(gap(s, at, s.len()));
    w.finish()
}

/// The input between two components (delimiters such as `://`, `@`,
/// `?`, or whatever an invalid reference has there).
fn gap(s: &str, from: usize, to: usize) -> &str {
    s.get(from..to).unwrap_or("")
}

/// Whether RFC 3986 6.2.3 removes `port` from a URI of `scheme`: it is
/// empty, or all digits with the value of the scheme's default port.
fn drops_port(scheme: Option<&str>, port: &str) -> bool {
    if port.is_empty() {
        return true;
    }
    if !port.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let value = port.bytes().fold(0u32, |v, b| {
        v.saturating_mul(10).saturating_add(u32::from(b - b'0'))
    });
    scheme.and_then(default_port).is_some_and(|d| u32::from(d) == value)
}

/// Whether some segment of `path` is `.` or `..` (RFC 3986 3.3).
fn has_dots(path: &str) -> bool {
    memchr::memchr(b'.', path.as_bytes()).is_some()
        && path.split('/').any(|seg| seg == "." || seg == "..")
}

/// Value of an ASCII hex digit.
fn hex_value(b: Option<&u8>) -> Option<u8> {
    hex_val(*b?)
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Writes `part` to `w`, uppercasing the hex digits of each escape
/// (RFC 3986 6.2.2.1), decoding escaped unreserved characters when
/// `decode` (6.2.2.2), and lowercasing ASCII letters outside escapes when
/// `lower` (6.2.2.1, for the host). A `%` that does not start an escape
/// is copied as is.
fn pct(w: &mut Out<'_>, part: &str, decode: bool, lower: bool) {
    let b = part.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hi = hex_value(b.get(i + 1));
            let lo = hex_value(b.get(i + 2));
            if let (Some(hi), Some(lo)) = (hi, lo) {
                w.push(gap(part, run, i));
                let v = hi * 16 + lo;
                if decode && is_unreserved(v) {
                    // 6.2.2.2; a decoded letter in the host is lowercased
                    // like any other (6.2.2.1).
                    let v = if lower { v.to_ascii_lowercase() } else { v };
                    w.push_ascii(v);
                } else {
                    w.push_ascii(b'%');
                    for d in [hi, lo] {
                        w.push_ascii(HEX_UPPER[usize::from(d & 15)]);
                    }
                }
                i += 3;
                run = i;
                continue;
            }
        } else if lower && c.is_ascii_uppercase() {
            w.push(gap(part, run, i));
            w.push_ascii(c.to_ascii_lowercase());
            i += 1;
            run = i;
            continue;
        }
        i += 1;
    }
    w.push(gap(part, run, b.len()));
}

/// An output that stays a borrowed prefix of its source for as long as
/// what is written equals the source, and allocates at the first
/// difference.
struct Out<'a> {
    src: &'a str,
    /// Length of the source prefix written, while `buf` is `None`.
    len: usize,
    buf: Option<String>,
}

impl<'a> Out<'a> {
    fn new(src: &'a str) -> Out<'a> {
        Out { src, len: 0, buf: None }
    }

    /// Switches to an owned buffer holding what was written so far.
    fn diverge(&mut self) -> &mut String {
        // `len` only ever advances over whole `str`s equal to the source,
        // so it is a char boundary.
        let done = self.src.get(..self.len).unwrap_or_default();
        let mut b = String::with_capacity(self.src.len() + 8);
        b.push_str(done);
        self.buf.insert(b)
    }

    fn push(&mut self, t: &str) {
        if let Some(b) = &mut self.buf {
            b.push_str(t);
            return;
        }
        let end = self.len + t.len();
        if self.src.as_bytes().get(self.len..end) == Some(t.as_bytes()) {
            self.len = end;
        } else {
            self.diverge().push_str(t);
        }
    }

    /// Writes one ASCII byte (`b < 0x80`).
    fn push_ascii(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        if let Some(buf) = &mut self.buf {
            buf.push(char::from(b));
        } else if self.src.as_bytes().get(self.len) == Some(&b) {
            self.len += 1;
        } else {
            self.diverge().push(char::from(b));
        }
    }

    fn finish(self) -> Cow<'a, str> {
        match self.buf {
            Some(b) => Cow::Owned(b),
            None => {
                Cow::Borrowed(self.src.get(..self.len).unwrap_or_default())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> String {
        normalize(s).into_owned()
    }

    #[test]
    fn rfc3986_6_2_2_examples() {
        // 6.2.2.1 case normalization.
        assert_eq!(n("HTTP://www.EXAMPLE.com/"), "http://www.example.com/");
        assert_eq!(n("http://example.com/%7ea"), "http://example.com/~a");
        assert_eq!(n("http://h/%3a%2f"), "http://h/%3A%2F");
        // 6.2.2: the two URIs of the section's example.
        assert_eq!(
            n("eXAMPLE://a/./b/../b/%63/%7bfoo%7d"),
            "example://a/b/c/%7Bfoo%7D"
        );
        assert_eq!(
            n("example://a/b/c/%7Bfoo%7D"),
            "example://a/b/c/%7Bfoo%7D"
        );
    }

    #[test]
    fn rfc3986_6_2_3_examples() {
        for s in [
            "http://example.com",
            "http://example.com/",
            "http://example.com:/",
            "http://example.com:80/",
            "HTTP://EXAMPLE.COM:080",
        ] {
            assert_eq!(n(s), "http://example.com/", "{s}");
        }
        assert_eq!(n("https://h:443/x"), "https://h/x");
        assert_eq!(n("https://h:80/x"), "https://h:80/x");
        assert_eq!(n("ws://h:80"), "ws://h/");
        assert_eq!(n("ftp://h:21"), "ftp://h/");
        assert_eq!(n("foo://h:/x"), "foo://h/x");
        assert_eq!(n("foo://h:80"), "foo://h:80");
        assert_eq!(n("foo://h"), "foo://h");
        assert_eq!(n("http://h?q"), "http://h/?q");
        assert_eq!(n("http://h#f"), "http://h/#f");
        assert_eq!(n("http://[::1]:/"), "http://[::1]/");
        assert_eq!(default_port("HTTPS"), Some(443));
        assert_eq!(default_port("x"), None);
    }

    #[test]
    fn case_rules() {
        // Userinfo, path, query and fragment keep their case.
        assert_eq!(
            n("HTTP://User:PW@Example.ORG/P?Q=A#F"),
            "http://User:PW@example.org/P?Q=A#F"
        );
        assert_eq!(n("http://[2001:DB8::A]/"), "http://[2001:db8::a]/");
        assert_eq!(n("http://[V1.AB]/"), "http://[v1.ab]/");
        assert_eq!(n("http://%4A%4b.com/"), "http://jk.com/");
        assert_eq!(n("http://R%c3%a9.COM/"), "http://r%C3%A9.com/");
        // Non-ASCII letters are not case-folded here (that is IDNA's).
        assert_eq!(n("http://ÉCOLE.FR/"), "http://École.fr/");
    }

    #[test]
    fn percent_decoding_rules() {
        assert_eq!(n("http://h/%41%2d%2E%5f%7E%30"), "http://h/A-._~0");
        // Sub-delims and gen-delims stay encoded (the draft's marks too).
        assert_eq!(
            n("http://h/%24%21%2a%27%28%29%2c%2f%3f%23%25"),
            "http://h/%24%21%2A%27%28%29%2C%2F%3F%23%25"
        );
        assert_eq!(n("http://%7Eu@h/?%7e#%7e"), "http://~u@h/?~#~");
        // A decoded dot takes part in dot-segment removal.
        assert_eq!(n("http://h/a/%2E%2e/b"), "http://h/b");
        assert_eq!(n("http://h/a/%2E%2e%2Fb"), "http://h/a/..%2Fb");
    }

    #[test]
    fn file_localhost_is_the_empty_host() {
        assert_eq!(n("file://localhost/etc/x"), "file:///etc/x");
        assert_eq!(n("FILE://LocalHost/x"), "file:///x");
        assert_eq!(n("file://localhost:1/x"), "file://localhost:1/x");
        assert_eq!(n("http://localhost/x"), "http://localhost/x");
        assert_eq!(n("file://server/x"), "file://server/x");
    }

    #[test]
    fn dot_segments() {
        assert_eq!(n("http://h/a/b/c/./../../g"), "http://h/a/g");
        assert_eq!(n("http://h/.."), "http://h/");
        assert_eq!(n("/a/./b"), "/a/b");
        assert_eq!(n("//H/a/../b"), "//h/b");
        // Rootless paths are opaque here.
        assert_eq!(n("mailto:a/../b"), "mailto:a/../b");
        assert_eq!(n("a/../b"), "a/../b");
        // A leading "//" without authority is protected.
        assert_eq!(n("foo:/a/..//x"), "foo:/.//x");
        assert_eq!(n("foo:/.//x"), "foo:/.//x");
        assert_eq!(n("/..//x"), "/.//x");
        // Dots in the query and fragment are data.
        assert_eq!(n("http://h/?a/../b#./c"), "http://h/?a/../b#./c");
    }

    #[test]
    fn fast_path_borrows() {
        for s in ["http://example.com/a?b#c", "urn:isbn:0", "", "x y", "%"] {
            assert!(matches!(normalize(s), Cow::Borrowed(b) if b == s), "{s}");
        }
        // A pure truncation is borrowed as well.
        assert!(matches!(normalize("foo://h:"), Cow::Borrowed("foo://h")));
    }

    #[test]
    fn invalid_input_gets_safe_steps_only() {
        assert_eq!(n("HTTP://A B/%7e/./x:80"), "http://A B/%7E/./x:80");
        assert_eq!(n("HTTP://H:99999/./%7e"), "http://H:99999/./%7E");
        assert_eq!(n("%%7e1"), "%%7E1");
        assert_eq!(n("1HTTP://X/"), "1HTTP://X/");
        assert_eq!(n("http://[::1]x:80/."), "http://[::1]x:80/.");
        assert_eq!(n("Http:foo"), "http:foo");
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        for s in [
            "é:",
            "//é",
            "//[é",
            "//[é]:é",
            "%",
            "%é",
            "%aé",
            "//:",
            "//@",
            "//[]:",
            "a:%",
            "\u{10FFFF}://\u{10FFFF}",
            "http://h:%41/",
            "HTTP://[",
            "//h:/",
            "/./",
            ".",
            "..",
        ] {
            let once = n(s);
            assert_eq!(n(&once), once, "{s:?}");
        }
    }
}

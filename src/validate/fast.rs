//! The validation fast path: one pass over a URL that is plainly valid
//! (the common case), which the full check must agree with.

use super::chars::{CLASS, CLASS_BASE, class_bit, is_hex};
use crate::scheme::scheme_requires_host;

/// Whether the `.` at `b[i]` (in the path, which starts at `start`) is a
/// whole `.` or `..` segment (RFC 3986 3.3, 5.2.4). Out of line: most
/// dots in a path are in file names.
#[cold]
#[inline(never)]
pub(super) fn dot_segment_at(b: &[u8], start: usize, i: usize) -> bool {
    let bound = |j: usize| b.get(j).is_none_or(|c| b"/?#".contains(c));
    (i == start || b.get(i.wrapping_sub(1)) == Some(&b'/'))
        && (bound(i + 1) || (b.get(i + 1) == Some(&b'.') && bound(i + 2)))
}

/// Classes of host bytes for [`quick_check`]: a label character
/// (ALPHA, DIGIT, `-`, `_`, `~`), `.`, `%`, the end of the host
/// (`:` `/` `?` `#`), anything else.
pub(super) const HOST_OTHER: u8 = 0;
pub(super) const HOST_LABEL: u8 = 1;
pub(super) const HOST_DOT: u8 = 2;
pub(super) const HOST_PCT: u8 = 3;
pub(super) const HOST_END: u8 = 4;

pub(super) static HOST: [u8; 256] = {
    let mut t = [HOST_OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b'.' => HOST_DOT,
            b'%' => HOST_PCT,
            b':' | b'/' | b'?' | b'#' => HOST_END,
            _ if b.is_ascii_alphanumeric() => HOST_LABEL,
            b'-' | b'_' | b'~' => HOST_LABEL,
            _ => HOST_OTHER,
        };
        i += 1;
    }
    t
};

/// What [`quick_check`] learned about a URI it accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Quick {
    /// Length of the scheme.
    pub scheme_len: usize,
    /// Byte range of the path.
    pub path: (usize, usize),
    /// The path has a `.` or `..` segment (RFC 3986 5.2.4 would change
    /// it).
    pub dots: bool,
}

/// The fast path of validation, for the common shape of URL found in
/// text: ASCII, `scheme:` then either `//` and an authority without
/// userinfo or IP literal (a DNS-like host, an optional decimal port), or
/// no authority; then path, query and fragment. `Some` means `s` is a
/// valid absolute URI by RFC 3986 and the host rule of its scheme, with
/// something after `scheme://` (exactly what the full check would say);
/// `None` means the full parse must decide. It reads each byte once.
/// Everything it accepts is printable ASCII (the printer relies on it).
pub(crate) fn quick_check(s: &str) -> Option<Quick> {
    let b = s.as_bytes();
    // RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let mut i = 1;
    while i < b.len()
        && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'+' | b'-' | b'.'))
    {
        i += 1;
    }
    if b.get(i) != Some(&b':') {
        return None;
    }
    let scheme_len = i;
    i += 1;
    if b[i..].starts_with(b"//") {
        // RFC 3986 3.2.2: host; here only a reg-name of unreserved and
        // pct-encoded characters (labels <= 63, name <= 255), 3.2.3 port.
        i += 2;
        // Labels that are empty or start or end with `-` are left to the
        // schemes' own rules (RFC 1123 2.1 for http), and so are escapes.
        let host_start = i;
        let mut label = 0usize;
        // A label's first and last bytes are looked at where it ends.
        let bad_label = |end: usize, len: usize| {
            len == 0 || b[end - len] == b'-' || b[end - 1] == b'-'
        };
        while let Some(&c) = b.get(i) {
            match HOST[c as usize] {
                HOST_LABEL => {
                    label += 1;
                    if label > 63 {
                        return None;
                    }
                }
                HOST_DOT if bad_label(i, label) => return None,
                HOST_DOT => label = 0,
                HOST_END => break,
                _ => return None, // escapes, userinfo, IP literal, ...
            }
            i += 1;
        }
        // The last label (empty after a final `.`: the root).
        if label > 0 && bad_label(i, label) {
            return None;
        }
        let host_len = i - host_start;
        if host_len == 0 || host_len > 255 {
            return None;
        }
        if b.get(i) == Some(&b':') {
            i += 1;
            let mut port = 0u32;
            while i < b.len() && b[i].is_ascii_digit() {
                port = port * 10 + u32::from(b[i] - b'0');
                if port > 65535 {
                    return None;
                }
                i += 1;
            }
            if i < b.len() && !matches!(b[i], b'/' | b'?' | b'#') {
                return None;
            }
        }
    } else if scheme_requires_host(&s[..scheme_len]) {
        return None;
    }
    // RFC 3986 3.3-3.5: path = *( pchar / "/" ), then "?" query and
    // "#" fragment of *( pchar / "/" / "?" ).
    let path_start = i;
    let mut path_end = b.len();
    // `.` is left out of the mask: it may be a dot segment.
    let mut mask =
        CLASS_BASE | class_bit(b':') | class_bit(b'@') | class_bit(b'/');
    let mut fragment = false;
    let mut dots = false;
    while i < b.len() {
        let c = b[i];
        if CLASS[c as usize] & mask != 0 {
            i += 1;
        } else if c == b'.' {
            if path_end == b.len() {
                dots |= dot_segment_at(b, path_start, i);
            }
            i += 1;
        } else if c == b'%' && is_hex(b.get(i + 1)) && is_hex(b.get(i + 2)) {
            i += 3;
        } else if c == b'?' || (c == b'#' && !fragment) {
            if path_end == b.len() {
                path_end = i;
            }
            fragment |= c == b'#';
            mask |= class_bit(b'?');
            i += 1;
        } else {
            return None;
        }
    }
    Some(Quick { scheme_len, path: (path_start, path_end), dots })
}

#[cfg(test)]
mod quick_tests {
    use super::*;
    use crate::validate::Uri;

    #[test]
    fn accepts_common_urls() {
        for s in [
            "http://a.example/x?y=1#z",
            "https://www.example.com:8080/a/b;c=d/e.html?q=a+b&r=%41#frag/x?",
            "mailto:joe@example.com",
            "news:comp.lang.c",
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            "urn:isbn:0451450523",
            "http://h:/",
        ] {
            let q = quick_check(s).unwrap_or_else(|| panic!("{s}"));
            assert!(Uri::parse(s).errors().is_empty(), "{s}");
            assert_eq!(&s[q.path.0..q.path.1], Uri::parse(s).path(), "{s}");
        }
    }

    #[test]
    fn finds_dot_segments_at_every_alignment() {
        let naive = |path: &str| {
            path.split('/').enumerate().any(|(k, seg)| {
                (seg == "." || seg == "..") && (k > 0 || path.starts_with('.'))
            })
        };
        for pad in 0..20 {
            let name = "n".repeat(pad);
            for tail in
                ["/./x", "/../x", "/.", "/..", "/.x", "/x.", "/...", "/a.b"]
            {
                for s in [
                    format!("http://h/{name}{tail}"),
                    format!("http://h/{name}{tail}?q=/./#/../"),
                    format!("urn:{name}{tail}"),
                    format!("x:.{name}{tail}"),
                ] {
                    let q = quick_check(&s).unwrap_or_else(|| panic!("{s}"));
                    let path = &s[q.path.0..q.path.1];
                    assert_eq!(path, Uri::parse(&s).path(), "{s}");
                    assert_eq!(q.dots, naive(path), "{s}");
                }
            }
        }
    }

    #[test]
    fn leaves_the_rest_to_the_full_check() {
        for s in [
            "http://",
            "http:foo",
            "http://a b/",
            "http://[::1]/",
            "http://u@h/",
            "http://h:99999/",
            "http://h:1a/",
            "http://h/%zz",
            "http://h/#a#b",
            "1http://a/",
            "http://h/é",
            "x/y",
            "http://h/|",
            "http://h/abcdefgh|ijklmnop",
            "http://h/abcdefg%zzhijklmnop",
            "http://h/abcdefghijklmno\x7f",
            "http://h/abcdefgh?ijklmnop#qrstuvwx#y",
        ] {
            assert_eq!(quick_check(s), None, "{s}");
        }
    }
}

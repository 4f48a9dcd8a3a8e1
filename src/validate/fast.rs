//! The validation fast path: one pass over a URL that is plainly valid
//! (the common case), which the full check must agree with.

use super::chars::{CLASS, CLASS_BASE, class_bit, is_hex};
use crate::scheme::scheme_requires_host;
use crate::sieve::ByteTables;

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
    /// Known to hold none of the bytes that RFC 1738's rules for a
    /// server and an FTP path look for: no `_` or `~` in the host
    /// (section 5 hostname) and no `;` after it (section 3.2.2).
    /// `false` when not known.
    pub plain: bool,
}

/// What [`quick_check`] says of a text of at most 255 bytes, in a few
/// bytes: what a delimited candidate carries when delimiting learned it
/// (`crate::delimit`'s walk of the most common shape of URL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Known {
    /// Not known: [`quick_check`] must be asked.
    #[default]
    Unknown,
    /// [`quick_check`] says `Some` of this [`Quick`].
    Accepted { scheme_len: u8, path: (u8, u8), dots: bool, plain: bool },
}

impl Known {
    /// The [`Quick`] of a text of at most 255 bytes.
    pub(crate) fn accepted(q: Quick) -> Known {
        debug_assert!(q.path.1 <= usize::from(u8::MAX));
        Known::Accepted {
            scheme_len: q.scheme_len as u8,
            path: (q.path.0 as u8, q.path.1 as u8),
            dots: q.dots,
            plain: q.plain,
        }
    }

    /// The [`Quick`] the fast path gives, when known.
    #[inline]
    pub(crate) fn get(self) -> Option<Quick> {
        match self {
            Known::Unknown => None,
            Known::Accepted { scheme_len, path, dots, plain } => Some(Quick {
                scheme_len: usize::from(scheme_len),
                path: (usize::from(path.0), usize::from(path.1)),
                dots,
                plain,
            }),
        }
    }
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
    match crate::sieve::byte_classes(s.as_bytes(), &TABLES) {
        Some((classes, non_ascii)) => quick_by_masks(s, &classes, non_ascii),
        None => quick_check_scalar(s),
    }
}

/// [`quick_check`] a byte at a time: for URLs longer than 64 bytes, and
/// CPUs without AVX2; the reference the masks must agree with.
fn quick_check_scalar(s: &str) -> Option<Quick> {
    let b = s.as_bytes();
    // RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let mut i = 1;
    while i < b.len() && crate::scheme::is_scheme_byte(b[i]) {
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
    Some(Quick {
        scheme_len,
        path: (path_start, path_end),
        dots,
        plain: false,
    })
}

// Classes of ASCII bytes for [`quick_by_masks`], bit `j` of byte `b` in
// `TABLES[j / 8][b]`.
/// ALPHA, DIGIT and `+ - .`: the bytes of a scheme after its first.
const SCHEME: usize = 0;
/// A host's label bytes and `.` ([`HOST_LABEL`], [`HOST_DOT`]).
const HOST_NAME: usize = 1;
/// The bytes that stand for themselves in a path ([`PATH_BYTE`]).
const PATH: usize = 2;
const COLON: usize = 3;
const SLASH: usize = 4;
const QUESTION: usize = 5;
const HASH: usize = 6;
const PERCENT: usize = 7;
const DOT: usize = 8;
const DASH: usize = 9;

static TABLES: ByteTables<16> = ByteTables::new({
    let mut t = [[0u8; 128]; 2];
    let mut i = 0;
    while i < 128 {
        let c = classes_of(i as u8);
        t[0][i] = c as u8;
        t[1][i] = (c >> 8) as u8;
        i += 1;
    }
    t
});

/// The classes of an ASCII byte, bit `j` for class `j`.
const fn classes_of(b: u8) -> u16 {
    class(crate::scheme::is_scheme_byte(b), SCHEME)
        | class(matches!(HOST[b as usize], HOST_LABEL | HOST_DOT), HOST_NAME)
        | class(PATH_BYTE[b as usize], PATH)
        | class(b == b':', COLON)
        | class(b == b'/', SLASH)
        | class(b == b'?', QUESTION)
        | class(b == b'#', HASH)
        | class(b == b'%', PERCENT)
        | class(b == b'.', DOT)
        | class(b == b'-', DASH)
}

const fn class(yes: bool, j: usize) -> u16 {
    (yes as u16) << j
}

/// Bytes that stand for themselves in a path (`pchar` and `/`, RFC 3986
/// 3.3).
static PATH_BYTE: [bool; 128] = {
    let mask = CLASS_BASE
        | class_bit(b':')
        | class_bit(b'@')
        | class_bit(b'/')
        | class_bit(b'.');
    let mut t = [false; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = CLASS[i] & mask != 0;
        i += 1;
    }
    t
};

/// [`quick_check`] from the classes of the bytes of `s` (at most 64) as
/// bit masks: the same rules as [`quick_check_scalar`], each applied to
/// all the bytes at once (the port's digits, dot segments and escapes
/// looked at one by one).
fn quick_by_masks(s: &str, m: &[u64; 16], non_ascii: u64) -> Option<Quick> {
    let b = s.as_bytes();
    let n = b.len();
    debug_assert!(n <= 64);
    // Positions below `k`, and the bit of position `k` (none past 63).
    let below =
        |k: usize| 1u64.checked_shl(k as u32).map_or(u64::MAX, |x| x - 1);
    let bit = |k: usize| 1u64.checked_shl(k as u32).unwrap_or(0);
    let all = below(n);
    if non_ascii != 0 || !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    // RFC 3986 3.1: the scheme runs to the first byte that cannot be in
    // it, which must be the colon.
    let not_scheme = all & !m[SCHEME];
    let scheme_len = not_scheme.trailing_zeros() as usize;
    if not_scheme == 0 || m[COLON] & bit(scheme_len) == 0 {
        return None;
    }
    let mut i = scheme_len + 1;
    if i + 2 <= n && (m[SLASH] >> i) & 3 == 3 {
        // The host: label bytes and dots up to `:` `/` `?` `#` or the end
        // (at most 60 bytes here: no label can be over 63).
        let host_start = i + 2;
        let stop = all & !below(host_start) & !m[HOST_NAME];
        let host_end =
            if stop == 0 { n } else { stop.trailing_zeros() as usize };
        let ends = m[COLON] | m[SLASH] | m[QUESTION] | m[HASH];
        if host_end == host_start
            || (host_end < n && ends & bit(host_end) == 0)
        {
            return None;
        }
        let host = below(host_end) & !below(host_start);
        let (dots, dashes) = (m[DOT] & host, m[DASH] & host);
        // Where a label starts; an empty one, or one that starts or ends
        // with `-`, is left to the schemes' own rules.
        let label_starts = dots << 1 | bit(host_start);
        if (dots | dashes) & label_starts != 0
            || dashes << 1 & dots != 0
            || dashes & bit(host_end - 1) != 0
        {
            return None;
        }
        i = host_end;
        if b.get(i) == Some(&b':') {
            i += 1;
            let mut port = 0u32;
            while i < n && b[i].is_ascii_digit() {
                port = port * 10 + u32::from(b[i] - b'0');
                if port > 65535 {
                    return None;
                }
                i += 1;
            }
            if i < n && !matches!(b[i], b'/' | b'?' | b'#') {
                return None;
            }
        }
    } else if scheme_requires_host(&s[..scheme_len]) {
        return None;
    }
    // RFC 3986 3.3-3.5: path, query and fragment bytes, `%` and two hex
    // digits, one `#` at most.
    let path_start = i;
    let rest = all & !below(path_start);
    let pct = m[PERCENT] & rest;
    if rest & !(m[PATH] | m[QUESTION] | m[HASH] | m[PERCENT]) != 0
        || (m[HASH] & rest).count_ones() > 1
    {
        return None;
    }
    // Each `%` followed by two hex digits (one `%` at a time: few URLs
    // hold escapes).
    let mut escapes = pct;
    while escapes != 0 {
        let k = escapes.trailing_zeros() as usize;
        escapes &= escapes - 1;
        if !(is_hex(b.get(k + 1)) && is_hex(b.get(k + 2))) {
            return None;
        }
    }
    let ends = (m[QUESTION] | m[HASH]) & rest;
    let path_end = if ends == 0 { n } else { ends.trailing_zeros() as usize };
    let path = below(path_end) & !below(path_start);
    // A `.` that starts a segment may make a dot segment: looked at
    // byte by byte then (few paths have one).
    let dots = m[DOT] & path & (m[SLASH] << 1 | bit(path_start)) != 0
        && memchr::memchr_iter(b'.', &b[path_start..path_end])
            .any(|k| dot_segment_at(b, path_start, path_start + k));
    Some(Quick {
        scheme_len,
        path: (path_start, path_end),
        dots,
        plain: false,
    })
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

    /// The masks and the byte loop agree on every string (where the CPU
    /// has the masks' instructions; elsewhere both are the byte loop):
    /// random strings of URL pieces and stray bytes, up to 70 bytes.
    #[test]
    fn masks_agree_with_the_byte_loop() {
        let pieces: [&str; 39] = [
            "http",
            "h",
            "x+y",
            "1",
            ":",
            "//",
            "/",
            "a",
            "Z",
            "9",
            "-",
            ".",
            "..",
            "_",
            "~",
            "%",
            "%4",
            "%41",
            "%Af",
            "%zz",
            "?",
            "#",
            "@",
            "!",
            "[",
            "]",
            " ",
            "é",
            "\u{7f}",
            "\t",
            "|",
            "\"",
            ":80",
            ":99999",
            "www.example.com",
            "/./",
            "/../",
            "mailto:",
            "news:",
        ];
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d_u64);
        let prefixes = ["http://", "https://a.b", "ftp://", "urn:", "x:", ""];
        let mut accepted = 0;
        for _ in 0..200_000 {
            let mut s = prefixes[next() as usize % prefixes.len()].to_string();
            let target = (next() % 72) as usize;
            while s.len() < target {
                s.push_str(pieces[next() as usize % pieces.len()]);
            }
            let want = quick_check_scalar(&s);
            accepted += usize::from(want.is_some());
            assert_eq!(quick_check(&s), want, "{s:?}");
        }
        // Enough of both answers to mean something.
        assert!(accepted > 5_000, "{accepted}");
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
        // A `%` without its two hex digits at the end, at every length
        // around the masks' 64 bytes.
        for len in 56..=72 {
            for tail in ["%", "%4", "%4g"] {
                let pad = len - "http://h/".len() - tail.len();
                let s = format!("http://h/{}{tail}", "p".repeat(pad));
                assert_eq!(s.len(), len);
                assert_eq!(quick_check(&s), None, "{s}");
                let s = format!("{}41", &s[..s.len() - tail.len() + 1]);
                assert!(quick_check(&s).is_some(), "{s}");
            }
        }
    }

    /// The classes of many bytes come first, then those of one byte
    /// each, which the AVX2 lookup finds by one compare, not two
    /// shuffles.
    #[test]
    fn single_byte_classes_come_after_the_others() {
        assert_eq!(TABLES.shape(), (COLON, DASH + 1));
    }
}

//! Hosts (RFC 3986 3.2.2): IP literals (IPv6, IPvFuture), IPv4
//! addresses, reg-names and their DNS length limits, and the schemes
//! that require a host.

use super::chars::check_chars;
use super::error::{ErrorKind, Span, UriError};
use crate::lex::{is_sub_delim, is_unreserved};

/// Checks the host at `sp` of `s` (RFC 3986 3.2.2); `next` is where
/// what follows it starts: the port's `:` or the end of the authority.
pub(super) fn check_host(
    s: &str,
    sp: Span,
    next: usize,
    errs: &mut Vec<UriError>,
) {
    let host = s.get(sp.range()).unwrap_or("");
    if let Some(inner) = host.strip_prefix('[') {
        // RFC 3986 3.2.2: IP-literal = "[" ( IPv6address / IPvFuture )
        // "]"
        let Some(inner) = inner.strip_suffix(']') else {
            errs.push(UriError::new(ErrorKind::UnclosedIpLiteral, sp.start));
            return;
        };
        let at = sp.start + 1;
        if inner.starts_with(['v', 'V']) {
            if !is_ipvfuture(inner) {
                errs.push(UriError::new(ErrorKind::InvalidIpvFuture, at));
            }
        } else if let Some(i) = inner.find('%') {
            // RFC 3986 has no zone identifiers (added by RFC 6874).
            errs.push(UriError::new(ErrorKind::Ipv6ZoneId, at + i));
        } else if !is_ipv6(inner) {
            errs.push(UriError::new(ErrorKind::InvalidIpv6, at));
        }
        // Anything between "]" and the port's ":" (or the end of the
        // authority) is not allowed by RFC 3986 3.2 authority.
        if next > sp.end {
            errs.push(UriError::new(ErrorKind::InvalidCharacter, sp.end));
        }
        return;
    }
    if is_ipv4(host) {
        // RFC 3986 3.2.2: IPv4address = dec-octet "." dec-octet "."
        // dec-octet "." dec-octet
        return;
    }
    // RFC 3986 3.2.2: reg-name = *( unreserved / pct-encoded /
    // sub-delims ); a dotted quad that fails dec-octet (1.2.3.999) is
    // a valid reg-name.
    let before = errs.len();
    check_chars(s, sp, b"", errs);
    if errs.len() > before {
        return;
    }
    // Length limits (RFC 3986 3.2.2: "no more than 255 characters";
    // RFC 2396bis-00 Appendix A hostname: domainlabel of at most 63
    // characters), only for names made of unreserved / pct-encoded
    // characters and the letters of IRIs, i.e. names meant for DNS.
    let dns_like =
        host.bytes().all(|b| is_unreserved(b) || b == b'%' || !b.is_ascii());
    if !dns_like {
        return;
    }
    let mut label_start = 0;
    let mut dns_len = 0;
    for label in host.split('.') {
        let octets = dns_octets(label);
        if octets > 63 {
            errs.push(UriError::new(
                ErrorKind::LabelTooLong,
                sp.start + label_start,
            ));
            break;
        }
        label_start += label.len() + 1;
        dns_len += octets + 1;
    }
    // An IRI's name in the DNS: its labels' A-labels and their dots
    // (measured when each label fits).
    let name_len = if host.is_ascii() {
        host.len()
    } else if errs.len() > before {
        0
    } else {
        dns_len - 1
    };
    if name_len > 255 {
        errs.push(UriError::new(ErrorKind::HostTooLong, sp.start));
    }
}

/// The octets a reg-name label takes in the DNS, whose limits RFC 3986
/// 3.2.2 asks names to keep (RFC 1034 3.1: 63 a label): `%XX` is one; a
/// label with non-ASCII characters (an IRI, RFC 3987 3.1) goes there as
/// its A-label, `xn--` and the Punycode of its lower-case form (RFC 5890
/// 2.3.2.1, RFC 3492), which ToASCII refuses above 63 (RFC 3490 4.1
/// step 8).
pub(super) fn dns_octets(label: &str) -> usize {
    if label.is_ascii() {
        let escapes = label.bytes().filter(|&b| b == b'%').count();
        return label.len() - 2 * escapes;
    }
    let punycode = idna::punycode::encode_str(&label.to_lowercase());
    punycode.map_or(usize::MAX, |p| "xn--".len() + p.len())
}

/// RFC 3986 3.2.2: dec-octet = 0-255 written without leading zeros.
pub(super) fn is_dec_octet(s: &str) -> bool {
    let b = s.as_bytes();
    match b.len() {
        1 => b[0].is_ascii_digit(),
        2 | 3 => {
            b.iter().all(u8::is_ascii_digit)
                && b[0] != b'0'
                && s.parse::<u16>().is_ok_and(|v| v <= 255)
        }
        _ => false,
    }
}

/// RFC 3986 3.2.2: IPv4address = dec-octet "." dec-octet "." dec-octet
/// "." dec-octet.
pub(super) fn is_ipv4(s: &str) -> bool {
    if !s.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false; // the common case: a name
    }
    let mut n = 0;
    for part in s.split('.') {
        n += 1;
        if n > 4 || !is_dec_octet(part) {
            return false;
        }
    }
    n == 4
}

/// RFC 3986 3.2.2: h16 = 1*4HEXDIG.
pub(super) fn is_h16(s: &str) -> bool {
    (1..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Counts the 16-bit pieces of a ":"-separated run of h16 (the last one
/// may be an IPv4address worth two pieces when `v4_last`); `None` if the
/// run is malformed. The empty run has zero pieces.
pub(super) fn ipv6_pieces(s: &str, v4_last: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let mut count = 0;
    let mut parts = s.split(':').peekable();
    while let Some(p) = parts.next() {
        let last = parts.peek().is_none();
        if is_h16(p) {
            count += 1;
        } else if last && v4_last && is_ipv4(p) {
            count += 2;
        } else {
            return None;
        }
    }
    Some(count)
}

/// RFC 3986 3.2.2 IPv6address (all nine ABNF alternatives): without "::"
/// exactly 8 pieces (an IPv4address at the end counts as two); with one
/// "::" at most 7 explicit pieces, i.e. "::" stands for at least one
/// zero piece; an IPv4address only at the very end.
pub(super) fn is_ipv6(s: &str) -> bool {
    match s.find("::") {
        Some(i) => {
            let (left, right) = (&s[..i], &s[i + 2..]);
            if right.contains("::") {
                return false;
            }
            match (ipv6_pieces(left, false), ipv6_pieces(right, true)) {
                (Some(l), Some(r)) => l + r <= 7,
                _ => false,
            }
        }
        None => ipv6_pieces(s, true) == Some(8),
    }
}

/// RFC 3986 3.2.2: IPvFuture = "v" 1*HEXDIG "." 1*( unreserved /
/// sub-delims / ":" ).
pub(super) fn is_ipvfuture(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['v', 'V']) else { return false };
    let Some((ver, addr)) = rest.split_once('.') else { return false };
    !ver.is_empty()
        && ver.bytes().all(|b| b.is_ascii_hexdigit())
        && !addr.is_empty()
        && addr
            .bytes()
            .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
}

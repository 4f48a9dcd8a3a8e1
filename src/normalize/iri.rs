//! Owns the mapping of IRIs to URIs (RFC 3987 section 3.1), with IDNA
//! for non-ASCII host names (RFC 3987 3.1, RFC 3986 3.2.2).

use std::borrow::Cow;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use crate::lex::pct_decode;
use crate::validate::{Component, Uri};

/// Maps the IRI reference `iri` to a URI reference (RFC 3987 3.1).
///
/// * Every non-ASCII character outside the host is replaced by the
///   percent-encoded octets of its UTF-8 form, with uppercase hex digits
///   (3.1 step 2: `Straße` becomes `Stra%C3%9Fe`). This is applied to
///   all non-ASCII characters, also those RFC 3987 does not allow in an
///   IRI (such as the bidi controls), so the result is ASCII.
/// * A host (reg-name, not an IP-literal) with non-ASCII characters is
///   converted to an IDNA A-label name (`例え.jp` becomes
///   `xn--r8jz45g.jp`), as 3.1 allows "for schemes known to use domain
///   names" and RFC 3986 3.2.2 recommends: the server-based schemes
///   whose host must not be empty ([`crate::validate::scheme_requires_host`]),
///   `file`, `ldap`, `ldaps`, `imap`, `pop`, `nfs`, `rsync`, `smb`, and a
///   reference without a scheme (whose base is most often `http`). For
///   any other scheme the host is percent-encoded as the rest is
///   (`sc://ñ` gives `sc://%C3%B1`). Percent-escapes in a host to
///   convert are
///   decoded first when they form UTF-8. The conversion is UTS 46
///   ToASCII (non-transitional, so `ß` stays `ß` and gives `xn--zca`,
///   where IDNA 2003 gave `ss`) with the checks RFC 3987 asks of RFC 3490
///   ToASCII: UseSTD3ASCIIRules (only letters, digits and `-` in labels,
///   no `-` first or last) and labels of 1 to 63 octets (a trailing `.`
///   is allowed).
/// * Everything else, including an existing percent-escape (`%E9`
///   stays), is copied.
///
/// Returns `Ok` with the URI, borrowed when `iri` is already ASCII.
/// When the host has non-ASCII characters and the IDNA conversion
/// fails (or the host is an IP-literal), returns `Err` with the URI
/// whose host is percent-encoded as RFC 3986 3.2.2 says instead
/// (`http://a_b.ü/` gives `Err("http://a_b.%C3%BC/")`): a usable URI
/// reference, but one that DNS resolvers will not find.
pub fn to_uri(iri: &str) -> Result<Cow<'_, str>, Cow<'_, str>> {
    if iri.is_ascii() {
        return Ok(Cow::Borrowed(iri));
    }
    let uri = Uri::parse(iri);
    let mut out = String::with_capacity(iri.len() * 2);
    let mut ok = true;
    let host = uri.range(Component::Host);
    let (before, rest) = match &host {
        Some(r) => (iri.get(..r.start), iri.get(r.end..)),
        None => (Some(iri), None),
    };
    encode_into(&mut out, before.unwrap_or(""));
    if let Some(h) = host.and_then(|r| iri.get(r)) {
        let dns = uri
            .range(Component::Scheme)
            .and_then(|r| iri.get(r))
            .is_none_or(|s| {
                crate::validate::scheme_requires_host(s)
                    || DNS_SCHEMES.iter().any(|d| d.eq_ignore_ascii_case(s))
            });
        if h.is_ascii() {
            out.push_str(h);
        } else if !dns {
            encode_into(&mut out, h);
        } else if let Some(a) = host_to_ascii(h) {
            out.push_str(&a);
        } else {
            // RFC 3986 3.2.2: non-ASCII in a reg-name is UTF-8, then
            // percent-encoded.
            ok = false;
            encode_into(&mut out, h);
        }
    }
    encode_into(&mut out, rest.unwrap_or(""));
    if ok { Ok(Cow::Owned(out)) } else { Err(Cow::Owned(out)) }
}

/// Schemes whose reg-name is a DNS name, besides those that require a
/// host (see [`to_uri`]).
const DNS_SCHEMES: &[&str] =
    &["file", "ldap", "ldaps", "imap", "pop", "nfs", "rsync", "smb"];

/// RFC 3987 3.1 step 2: appends `s` with each non-ASCII character
/// replaced by `%HH` triplets of its UTF-8 octets (2.1, 2.2; uppercase
/// hex "to reduce variability").
fn encode_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
}

/// The IDNA A-label form of a non-ASCII reg-name (RFC 3987 3.1, the
/// ireg-name conversion), or `None` if it is an IP-literal or ToASCII
/// fails.
fn host_to_ascii(host: &str) -> Option<String> {
    if host.starts_with('[') {
        return None;
    }
    let decoded = pct_decode(host);
    std::str::from_utf8(&decoded).ok()?;
    Uts46::new()
        .to_ascii(
            &decoded,
            AsciiDenyList::STD3,
            Hyphens::CheckFirstLast,
            DnsLength::VerifyAllowRootDot,
        )
        .ok()
        .map(Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> String {
        match to_uri(s) {
            Ok(u) => u.into_owned(),
            Err(u) => panic!("{s}: IDNA failed: {u}"),
        }
    }

    #[test]
    fn brief_examples() {
        assert_eq!(
            ok("https://de.wikipedia.org/wiki/Straße"),
            "https://de.wikipedia.org/wiki/Stra%C3%9Fe"
        );
        assert_eq!(ok("http://例え.jp/"), "http://xn--r8jz45g.jp/");
        assert_eq!(
            ok("http://résumé.example.org"),
            "http://xn--rsum-bpad.example.org"
        );
    }

    #[test]
    fn rfc3987_examples() {
        // 3.1: an existing escape of a non-UTF-8 octet stays.
        let s = "http://www.example.org/r%E9sum%E9.html";
        assert!(matches!(to_uri(s), Ok(Cow::Borrowed(b)) if b == s));
        // 3.1 / 3.2: D&#xFC;rst.
        assert_eq!(
            ok("http://www.example.org/Dürst"),
            "http://www.example.org/D%C3%BCrst"
        );
        // 3.1: red%09ros&#xE9;#red.
        assert_eq!(
            ok("http://www.example.org/red%09rosé#red"),
            "http://www.example.org/red%09ros%C3%A9#red"
        );
        // 3.2.1: the host of http://xn--99zt52a.example.org/%e2%80%ae.
        assert_eq!(
            ok("http://納豆.example.org/%E2%80%AE"),
            "http://xn--99zt52a.example.org/%E2%80%AE"
        );
    }

    #[test]
    fn components_outside_the_host() {
        assert_eq!(
            ok("http://ü:ß@例え.jp:8080/パス?q=値#断片"),
            "http://%C3%BC:%C3%9F@xn--r8jz45g.jp:8080/%E3%83%91%E3%82%B9\
             ?q=%E5%80%A4#%E6%96%AD%E7%89%87"
        );
        assert_eq!(ok("/ä?ö#ü"), "/%C3%A4?%C3%B6#%C3%BC");
        assert_eq!(
            ok("mailto:jürgen@example.org"),
            "mailto:j%C3%BCrgen@example.org"
        );
        assert_eq!(ok("urn:x:\u{10FFFF}"), "urn:x:%F4%8F%BF%BF");
        // ASCII hosts are not touched, not even lowercased.
        assert_eq!(ok("http://EXAMPLE.org/é"), "http://EXAMPLE.org/%C3%A9");
    }

    #[test]
    fn idna_details() {
        assert_eq!(
            ok("http://RÉSUMÉ.example.org/"),
            "http://xn--rsum-bpad.example.org/"
        );
        assert_eq!(ok("http://faß.de/"), "http://xn--fa-hia.de/");
        assert_eq!(ok("http://例え.jp./"), "http://xn--r8jz45g.jp./");
        // An escaped UTF-8 host next to a raw one is decoded first.
        assert_eq!(ok("http://r%C3%A9sumé.org/"), "http://xn--rsum-bpad.org/");
    }

    #[test]
    fn idna_only_for_schemes_with_dns_hosts() {
        assert_eq!(ok("sc://ñ.test/"), "sc://%C3%B1.test/");
        assert_eq!(ok("ftp://ñ.test/"), "ftp://xn--ida.test/");
        assert_eq!(ok("file://ñ.test/x"), "file://xn--ida.test/x");
        assert_eq!(ok("//ñ.test/"), "//xn--ida.test/");
    }

    #[test]
    fn idna_failure_percent_encodes_the_host() {
        for (iri, uri) in [
            ("http://a_b.ü/", "http://a_b.%C3%BC/"),
            ("http://-ü.de/", "http://-%C3%BC.de/"),
            ("http://ü..de/", "http://%C3%BC..de/"),
            ("http://[::ü]/x", "http://[::%C3%BC]/x"),
            ("http://%FFü/", "http://%FF%C3%BC/"),
        ] {
            assert_eq!(to_uri(iri), Err(Cow::Owned(uri.to_string())), "{iri}");
        }
        let long = format!("http://{}ü.de/", "a".repeat(70));
        assert!(to_uri(&long).is_err());
    }

    #[test]
    fn result_is_ascii() {
        for s in ["é", "//é", "//[é", "é:é@é:é/é?é#é", "%é", "\u{202E}"]
        {
            let u = match to_uri(s) {
                Ok(u) | Err(u) => u,
            };
            assert!(u.is_ascii(), "{s:?} -> {u}");
        }
    }
}

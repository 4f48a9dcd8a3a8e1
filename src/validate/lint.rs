//! Owns the security lint: warnings about URIs that are valid but risky,
//! after RFC 3986 section 7 and section 7 (Security Considerations) of
//! draft-fielding-url-syntax-05 (RFC 1738 section 6 before it).
//!
//! Every finding of [`lint`] is a [`Severity::Warning`](super::schemes::Severity).
//! Rules: a password in the userinfo, a port other than the scheme's
//! default (stronger below 1024), percent-encoded CR, LF or NUL, a
//! userinfo that looks like a host name, punycode host labels, host labels
//! mixing Latin with Cyrillic or Greek letters, and numeric hosts written
//! other than in dotted decimal.

use super::schemes::Finding;
use super::uri::{HostKind, Uri};
use crate::lex::pct_decode;
use crate::scheme::default_port;

/// The service usually listening on a well-known `port`, for messages.
fn service_on(port: u32) -> Option<&'static str> {
    Some(match port {
        21 => "FTP",
        22 => "SSH",
        23 => "Telnet",
        25 => "SMTP",
        53 => "DNS",
        70 => "Gopher",
        79 => "Finger",
        80 => "HTTP",
        110 => "POP3",
        119 => "NNTP",
        143 => "IMAP",
        389 => "LDAP",
        443 => "HTTPS",
        445 => "SMB",
        465 | 587 => "SMTP submission",
        993 => "IMAPS",
        995 => "POP3S",
        _ => return None,
    })
}

/// The security findings for `uri`, all of severity warning.
pub fn lint(uri: &Uri) -> Vec<Finding> {
    let mut out = Vec::new();
    userinfo_rules(uri, &mut out);
    port_rule(uri, &mut out);
    control_rule(uri, &mut out);
    host_rules(uri, &mut out);
    out
}

fn userinfo_rules(uri: &Uri, out: &mut Vec<Finding>) {
    let Some(ui) = uri.userinfo() else { return };
    let (user, password) = match ui.split_once(':') {
        Some((u, p)) => (u, Some(p)),
        None => (ui, None),
    };
    // RFC 3986 3.2.1: "user:password" is deprecated; draft-fielding-url-
    // syntax-05 section 7: "It is clearly unwise to use a URL that
    // contains a password which is intended to be secret."
    if password.is_some_and(|p| !p.is_empty()) {
        out.push(Finding::warning(
            "userinfo-password",
            "the URI carries a password in clear text ('user:password@'; \
             RFC 3986 3.2.1 and 7.5, url-syntax draft section 7)",
        ));
    }
    // RFC 3986 7.6 (semantic attacks): a userinfo that reads like a
    // trusted host name, as in http://trusted.example@evil.example/.
    let decoded = pct_decode(user);
    if decoded.contains(&b'.') {
        out.push(Finding::warning(
            "userinfo-hostlike",
            format!(
                "the userinfo '{user}' looks like a host name, but the URI \
                 leads to '{}' (RFC 3986 7.6)",
                uri.host().unwrap_or("")
            ),
        ));
    }
}

fn port_rule(uri: &Uri, out: &mut Vec<Finding>) {
    let Some(port) = uri.port().filter(|p| !p.is_empty()) else { return };
    let Ok(port) = port.parse::<u32>() else { return };
    let Some(scheme) = uri.scheme() else { return };
    let Some(default) = default_port(scheme) else { return };
    if port == u32::from(default) {
        return;
    }
    // RFC 3986 7.2 and url-syntax draft section 7: "Caution should be used
    // when using any URL which specifies a port number other than the
    // default for the protocol, especially when it is a number within the
    // reserved space." The reserved (system) range is 0-1023 (RFC 6335
    // section 6).
    if port < 1024 {
        let other = service_on(port)
            .map(|s| format!(", normally {s}"))
            .unwrap_or_default();
        out.push(Finding::warning(
            "reserved-port",
            format!(
                "port {port} is in the reserved range 0-1023{other}: the \
                 {scheme} client may be made to speak to another \
                 protocol's server (RFC 3986 7.2, url-syntax draft \
                 section 7)"
            ),
        ));
    } else {
        out.push(Finding::warning(
            "non-default-port",
            format!(
                "port {port} is not the {scheme} default {default} (RFC 3986 \
                 7.2, url-syntax draft section 7)"
            ),
        ));
    }
}

fn control_rule(uri: &Uri, out: &mut Vec<Finding>) {
    // url-syntax draft section 7 / RFC 3986 7.3: escaped protocol
    // delimiters (CR and LF for telnet, NUL for C strings) must not be
    // unescaped before transmission.
    let b = uri.as_str().as_bytes();
    let mut found: Vec<&str> = Vec::new();
    let mut first = None;
    for i in memchr::memchr_iter(b'%', b) {
        let name = match (b.get(i + 1), b.get(i + 2)) {
            (Some(b'0'), Some(b'd' | b'D')) => "CR (%0D)",
            (Some(b'0'), Some(b'a' | b'A')) => "LF (%0A)",
            (Some(b'0'), Some(b'0')) => "NUL (%00)",
            _ => continue,
        };
        first.get_or_insert(i);
        if !found.contains(&name) {
            found.push(name);
        }
    }
    if let Some(at) = first {
        out.push(Finding::warning(
            "encoded-control",
            format!(
                "percent-encoded {} (first at byte {at}) can inject \
                 protocol lines or truncate strings if decoded (RFC 3986 \
                 7.3, url-syntax draft section 7)",
                found.join(", ")
            ),
        ));
    }
}

fn host_rules(uri: &Uri, out: &mut Vec<Finding>) {
    if uri.host_kind() != Some(HostKind::RegName) {
        return;
    }
    let Some(host) = uri.host().filter(|h| !h.is_empty()) else { return };
    numeric_host(host, out);
    let decoded = pct_decode(host);
    let text = String::from_utf8_lossy(&decoded);
    let mut mixed: Vec<String> = Vec::new();
    for label in text.split('.') {
        let unicode = match label.get(..4) {
            Some(p) if p.eq_ignore_ascii_case("xn--") => {
                let rest = label.get(4..).unwrap_or("");
                let u = punycode_decode(rest);
                // RFC 3986 7.6 / RFC 3490 section 10: IDN labels can
                // imitate other names (homographs).
                out.push(Finding::warning(
                    "punycode-host",
                    match &u {
                        Some(u) => format!(
                            "host label '{label}' is punycode for '{u}' \
                             (RFC 3492; homograph risk, RFC 3986 7.6)"
                        ),
                        None => format!(
                            "host label '{label}' is not valid punycode \
                             (RFC 3492)"
                        ),
                    },
                ));
                u
            }
            _ => None,
        };
        let shown = unicode.as_deref().unwrap_or(label);
        if is_mixed_script(shown) {
            mixed.push(shown.to_string());
        }
    }
    if !mixed.is_empty() {
        // RFC 3986 7.6 (semantic attacks); Unicode TR 39 "mixed-script
        // confusables": one label mixing Latin with Cyrillic or Greek.
        out.push(Finding::warning(
            "mixed-script-host",
            format!(
                "host label(s) {} mix Latin, Cyrillic or Greek letters \
                 (homograph risk, RFC 3986 7.6)",
                mixed.join(", ")
            ),
        ));
    }
}

/// A letter's script, for the mixed-script rule.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
}

/// The script of `c` among Latin, Greek and Cyrillic (Unicode blocks);
/// `None` for digits, punctuation and every other script.
fn script_of(c: char) -> Option<Script> {
    match c {
        'A'..='Z'
        | 'a'..='z'
        | '\u{00C0}'..='\u{00D6}'
        | '\u{00D8}'..='\u{00F6}'
        | '\u{00F8}'..='\u{024F}'
        | '\u{1E00}'..='\u{1EFF}'
        | '\u{2C60}'..='\u{2C7F}'
        | '\u{A720}'..='\u{A7FF}'
        | '\u{FF21}'..='\u{FF3A}'
        | '\u{FF41}'..='\u{FF5A}' => Some(Script::Latin),
        '\u{0370}'..='\u{03FF}' | '\u{1F00}'..='\u{1FFF}' => {
            Some(Script::Greek)
        }
        '\u{0400}'..='\u{052F}'
        | '\u{1C80}'..='\u{1C8F}'
        | '\u{2DE0}'..='\u{2DFF}'
        | '\u{A640}'..='\u{A69F}' => Some(Script::Cyrillic),
        _ => None,
    }
}

/// Whether `label` has letters of at least two of Latin, Greek, Cyrillic.
fn is_mixed_script(label: &str) -> bool {
    let mut first = None;
    for s in label.chars().filter_map(script_of) {
        match first {
            None => first = Some(s),
            Some(f) if f != s => return true,
            Some(_) => {}
        }
    }
    false
}

/// RFC 3492 section 6.2 decoding of the part after `xn--` (the `idna`
/// crate's decoder); `None` on malformed input or overflow.
fn punycode_decode(input: &str) -> Option<String> {
    idna::punycode::decode_to_string(input)
}

/// One part of a numeric host as the BSD `inet_aton` and WHATWG URL
/// parsers read it: `0x` hex, leading-`0` octal, or decimal.
fn numeric_part(p: &str) -> Option<u64> {
    if p.len() > 20 {
        return None;
    }
    if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
        return if h.is_empty() {
            Some(0)
        } else {
            u64::from_str_radix(h, 16).ok()
        };
    }
    if p.len() > 1
        && let Some(o) = p.strip_prefix('0')
    {
        return u64::from_str_radix(o, 8).ok();
    }
    if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    p.parse().ok()
}

/// RFC 3986 7.4 (rare IP address formats): a reg-name that many
/// resolvers read as an IPv4 address (`0x7f.1`, `2130706433`,
/// `0177.0.0.1`).
fn numeric_host(host: &str, out: &mut Vec<Finding>) {
    let host = host.strip_suffix('.').unwrap_or(host);
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return;
    }
    let Some(values) =
        parts.iter().map(|p| numeric_part(p)).collect::<Option<Vec<u64>>>()
    else {
        return;
    };
    // inet_aton: a.b.c.d, a.b.c (c 16 bits), a.b (b 24 bits), a (32).
    let (last, init) = match values.split_last() {
        Some(x) => x,
        None => return,
    };
    // The last part fills the 5 - n low bytes left by the n - 1 others.
    let bits = 8 * (5 - values.len().min(4) as u32);
    let fits = init.iter().all(|&v| v <= 255) && *last < (1u64 << bits);
    let address = fits.then(|| {
        let mut v = *last;
        for (i, &p) in init.iter().enumerate() {
            v |= p << (24 - 8 * i as u32);
        }
        format!(
            "{}.{}.{}.{}",
            (v >> 24) & 255,
            (v >> 16) & 255,
            (v >> 8) & 255,
            v & 255
        )
    });
    out.push(Finding::warning(
        "numeric-host",
        match address {
            Some(a) => format!(
                "host '{host}' is the IPv4 address {a} written in a \
                 non-dotted-decimal form that hides the destination \
                 (RFC 3986 7.4)"
            ),
            None => format!(
                "host '{host}' is numeric but not a valid IPv4 address \
                 (RFC 3986 7.4)"
            ),
        },
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::schemes::Severity;

    fn codes(s: &str) -> Vec<&'static str> {
        let u = Uri::parse(s);
        assert!(u.is_valid(), "not RFC 3986 valid: {s}");
        let f = lint(&u);
        assert!(f.iter().all(|f| f.severity == Severity::Warning));
        f.iter().map(|f| f.code).collect()
    }

    fn message(s: &str, code: &str) -> String {
        lint(&Uri::parse(s))
            .into_iter()
            .find(|f| f.code == code)
            .map(|f| f.message)
            .unwrap_or_default()
    }

    #[test]
    fn clean_uris() {
        for s in [
            "http://example.com/",
            "https://example.com:443/a?b#c",
            "http://example.com:80/",
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            "mailto:joe@example.com",
            "http://192.0.2.1/",
            "http://[::1]:80/",
            "foo://h:1/",
            "http://user@example.com/",
            "ftp://anonymous:@example.com/",
            "http://example.com/%0b%41",
            "http://straße.example/",
            "http://пример.испытание/",
            "http://ελληνικά.example/",
            "http://1.example/",
            "http://0.0.0.0/",
        ] {
            assert_eq!(codes(s), Vec::<&str>::new(), "{s}");
        }
    }

    #[test]
    fn password() {
        assert_eq!(
            codes("ftp://user:secret@example.com/"),
            vec!["userinfo-password"]
        );
        assert_eq!(
            codes("telnet://u:p@h.example/"),
            vec!["userinfo-password"]
        );
        assert!(codes("http://a:b:c@h/").contains(&"userinfo-password"));
    }

    #[test]
    fn ports() {
        assert_eq!(
            codes("http://example.com:8080/"),
            vec!["non-default-port"]
        );
        assert_eq!(codes("HTTPS://example.com:80/"), vec!["reserved-port"]);
        // The draft's gopher-to-SMTP example, and RFC 3986 7.2.
        assert_eq!(codes("gopher://example.com:25/"), vec!["reserved-port"]);
        assert_eq!(codes("http://host:25/"), vec!["reserved-port"]);
        assert!(message("http://host:25/", "reserved-port").contains("SMTP"));
        assert_eq!(codes("http://host:0/"), vec!["reserved-port"]);
        assert_eq!(codes("ws://h:1023/"), vec!["reserved-port"]);
        assert_eq!(codes("ws://h:1024/"), vec!["non-default-port"]);
        // Unknown default: nothing to compare with.
        assert!(codes("foo://h:25/").is_empty());
        assert!(codes("http://h:/").is_empty());
        assert!(codes("http://h:00080/").is_empty());
        assert_eq!(default_port("HTTP"), Some(80));
        assert_eq!(default_port("wss"), Some(443));
        assert_eq!(default_port("prospero"), Some(1525));
        assert_eq!(default_port("wais"), Some(210));
        assert_eq!(default_port("news"), Some(119));
        assert_eq!(default_port("ldap"), Some(389));
        assert_eq!(default_port("nope"), None);
    }

    #[test]
    fn encoded_controls() {
        for s in [
            "telnet://h.example/%0D%0A",
            "http://h/a%0db",
            "http://h/?q=%0A",
            "http://h/#%00",
            "http://u%00@h/",
        ] {
            assert_eq!(codes(s), vec!["encoded-control"], "{s}");
        }
        let m = message("http://h/%0d%0a%0D%00", "encoded-control");
        assert!(m.contains("CR") && m.contains("LF") && m.contains("NUL"));
        assert!(m.contains("byte 9"), "{m}");
        assert!(codes("http://h/%0b%1d%a0%20").is_empty());
    }

    #[test]
    fn userinfo_like_host() {
        assert_eq!(
            codes("http://trusted.example@evil.example/"),
            vec!["userinfo-hostlike"]
        );
        // RFC 3986 7.6's example.
        assert_eq!(
            codes(
                "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm"
            ),
            vec!["userinfo-hostlike"]
        );
        assert_eq!(
            codes("http://www%2Ebank%2Eexample@evil.example/"),
            vec!["userinfo-hostlike"]
        );
        let both = codes("http://bank.example:pw@evil.example/");
        assert!(both.contains(&"userinfo-password"));
        assert!(both.contains(&"userinfo-hostlike"));
    }

    #[test]
    fn punycode() {
        assert_eq!(codes("http://xn--80ak6aa92e.com/"), vec!["punycode-host"]);
        let m = message("http://xn--80ak6aa92e.com/", "punycode-host");
        assert!(m.contains("аррӏе"), "{m}");
        assert_eq!(
            codes("http://XN--bcher-kva.example/"),
            vec!["punycode-host"]
        );
        // Mixed script hidden behind punycode ("раypal").
        assert_eq!(
            codes("http://xn--ypal-43d9g.com/"),
            vec!["punycode-host", "mixed-script-host"]
        );
        let all = lint(&Uri::parse("http://xn--a-ecp.xn--ab-!!.com/"));
        assert!(all.iter().any(|f| f.message.contains("not valid punycode")));
        // RFC 3492 7.1 sample strings (A) and (L).
        assert_eq!(
            punycode_decode("egbpdaj6bu4bxfgehfvwxn").as_deref(),
            Some("ليهمابتكلموشعربي؟")
        );
        assert_eq!(
            punycode_decode("3B-ww4c5e180e575a65lsy2b").as_deref(),
            Some("3年B組金八先生")
        );
        assert_eq!(punycode_decode("bcher-kva").as_deref(), Some("bücher"));
        for bad in ["99999999999", "a-!", "zzzzzzzzzzzzzzzz", "é"] {
            let _ = punycode_decode(bad);
        }
    }

    #[test]
    fn mixed_script() {
        // Cyrillic "р" and "а" among Latin letters.
        assert_eq!(codes("http://раypal.com/"), vec!["mixed-script-host"]);
        // Greek alpha with Latin.
        assert_eq!(codes("https://αpple.com/"), vec!["mixed-script-host"]);
        // Percent-encoded UTF-8 (Cyrillic "а" = %D0%B0).
        assert_eq!(
            codes("http://p%D0%B0ypal.com/"),
            vec!["mixed-script-host"]
        );
        assert!(is_mixed_script("ѕсhool"));
        assert!(is_mixed_script("αб"));
        assert!(!is_mixed_script("école"));
        assert!(!is_mixed_script("пример"));
        assert!(!is_mixed_script("例え123"));
        assert!(!is_mixed_script("a例"));
    }

    #[test]
    fn numeric_hosts() {
        for (s, ip) in [
            ("http://0x7f.1/", "127.0.0.1"),
            ("http://2130706433/", "127.0.0.1"),
            ("http://0177.0.0.1/", "127.0.0.1"),
            ("http://127.1/", "127.0.0.1"),
            ("http://10.1.2/", "10.1.0.2"),
            ("http://0xC0.0xA8.0.1/", "192.168.0.1"),
            ("http://0x/", "0.0.0.0"),
            ("http://1.2.3.4./", "1.2.3.4"),
        ] {
            assert_eq!(codes(s), vec!["numeric-host"], "{s}");
            assert!(message(s, "numeric-host").contains(ip), "{s}");
        }
        for s in
            ["http://1.2.3.999/", "http://4294967296/", "http://1.2.3.4.5/"]
        {
            let m = message(s, "numeric-host");
            if s.ends_with("4.5/") {
                assert!(m.is_empty(), "{s}");
            } else {
                assert!(m.contains("not a valid"), "{s}: {m}");
            }
        }
        for s in
            ["http://0x7g.1/", "http://08.1/", "http://1e3/", "http://a.1/"]
        {
            assert!(!codes(s).contains(&"numeric-host"), "{s}");
        }
    }

    #[test]
    fn no_panic_on_odd_input() {
        for s in [
            "http://%/",
            "http://xn--/",
            "http://xn--é/",
            "http://:99999/",
            "http://@/",
            "%",
            "http://h:1%0",
            "//xn--zzzzzzzzzzzzzzzzzzzzzz",
            "http://99999999999999999999999.1/",
            "http://0x.0x.0x.0x.0x/",
            "http://0xffffffffffffffffffff/",
            "http://.../",
            "x://u.:p@",
        ] {
            let _ = lint(&Uri::parse(s));
        }
    }
}

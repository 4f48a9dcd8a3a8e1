//! Owns public suffix lookup: whether a host ends in a suffix of the
//! ICANN section of the public suffix list (data in `public_suffix.rs`).

use std::borrow::Cow;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use super::public_suffix::{EXCEPTION, RULE, RULES, WILDCARD};

/// Date of the public suffix list in use (YYYY-MM-DD).
pub const PSL_DATE: &str = super::public_suffix::DATE;

/// Version of the Debian `publicsuffix` package the list was taken from.
pub const PSL_VERSION: &str = super::public_suffix::VERSION;

/// Whether `host` ends in a public suffix of the ICANN section of the
/// public suffix list and has at least one label before it.
///
/// `www.example.com` and `example.co.uk` do; `co.uk` (only a suffix),
/// `node.js` (no `js` rule) and `localhost` do not. Unlike the list's
/// own algorithm there is no implicit `*` rule: a host whose suffix is in
/// no rule gets `false`. Rules are applied as the list's format says: the
/// rule matching the most labels prevails, a `*.` wildcard matches one
/// label, and an `!` exception rule prevails over every other rule, its
/// suffix being the rule without its first label (`www.ck` has the
/// suffix `ck`).
///
/// The match is case-insensitive; one trailing `.` (a fully qualified
/// name) is ignored. A host with non-ASCII characters is first converted
/// with UTS 46 ToASCII (the IDNA mapping, so `ＥＸＡＭＰＬＥ.日本` works).
/// The host must then be a DNS name: labels of 1 to 63 ASCII letters,
/// digits, `-` or `_`, at most 253 characters in all; anything else
/// (`1,420.00.zip`, `a..com`, `[::1]`, a percent-escape) gets `false`.
pub fn has_public_suffix(host: &str) -> bool {
    suffixed(host, |_, _| ()).is_some()
}

/// The registrable domain of `host`: its public suffix and one label
/// before it (`www.bank.example.co.uk` gives `example.co.uk`), lower
/// case, in ASCII (UTS 46 ToASCII, as [`has_public_suffix`]); `None`
/// when [`has_public_suffix`] is false.
pub fn registrable_domain(host: &str) -> Option<String> {
    suffixed(host, |name, k| {
        let name = name.to_ascii_lowercase();
        let labels: Vec<&str> = name.split('.').collect();
        labels[labels.len() - k - 1..].join(".")
    })
}

/// `then` of `host` in ASCII without a final `.` and the labels of its
/// public suffix, when [`has_public_suffix`] holds.
fn suffixed<T>(host: &str, then: impl FnOnce(&str, usize) -> T) -> Option<T> {
    let ascii: Cow<'_, str> = if host.is_ascii() {
        Cow::Borrowed(host)
    } else {
        Uts46::new()
            .to_ascii(
                host.as_bytes(),
                AsciiDenyList::EMPTY,
                Hyphens::Allow,
                DnsLength::Ignore,
            )
            .ok()?
    };
    let name = ascii.strip_suffix('.').unwrap_or(&ascii);
    if !is_dns_name(name) {
        return None;
    }
    let labels = name.split('.').count();
    let k = public_suffix_labels(name).filter(|&k| k < labels)?;
    Some(then(name, k))
}

/// A host name of labels of `A-Z a-z 0-9 - _`, 1 to 63 long (RFC 1034
/// 3.1, with `_` as used in service names), at most 253 characters.
fn is_dns_name(name: &str) -> bool {
    name.len() <= 253
        && name.split('.').all(|l| {
            (1..=63).contains(&l.len())
                && l.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
                })
        })
}

/// The number of labels of the public suffix of `name` (a valid DNS
/// name) by the prevailing ICANN rule, or `None` when no rule matches.
///
/// Implements the "Algorithm" of the list's format description
/// (publicsuffix.org/list): a rule matches when its labels equal the
/// rightmost labels of the name, `*` matching any one label; an
/// exception rule prevails, and its public suffix is the rule without
/// its leftmost label; otherwise the matching rule with the most labels
/// prevails. Step 2 ("if no rules match, the prevailing rule is `*`") is
/// left out on purpose.
fn public_suffix_labels(name: &str) -> Option<usize> {
    let mut best = None;
    let mut exception = None;
    // Suffixes from the last label leftwards: `j` labels from `start`.
    let mut end_of_prev = name.len();
    let mut j = 0;
    loop {
        let start = name.get(..end_of_prev).and_then(|s| s.rfind('.'));
        let from = start.map_or(0, |i| i + 1);
        j += 1;
        let suffix = name.get(from..).unwrap_or("");
        let Some(f) = flags(suffix) else {
            // No rule has this suffix, so none has a longer one.
            break;
        };
        if f & RULE != 0 {
            // Format: a normal rule matching `j` labels.
            best = Some(j);
        }
        if f & EXCEPTION != 0 {
            // Format: an exception prevails; drop its leftmost label.
            exception = Some(j - 1);
        }
        if f & WILDCARD != 0 && start.is_some() {
            // "*." + suffix matches one more label.
            best = Some(j + 1);
        }
        match start {
            Some(i) => end_of_prev = i,
            None => break,
        }
    }
    exception.or(best)
}

/// The flags of `name` in [`RULES`] (compared ASCII-case-insensitively).
fn flags(name: &str) -> Option<u8> {
    let key = name.bytes().map(|b| b.to_ascii_lowercase());
    let i =
        RULES.binary_search_by(|(k, _)| k.bytes().cmp(key.clone())).ok()?;
    RULES.get(i).map(|&(_, f)| f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registrable_domains() {
        assert_eq!(
            registrable_domain("www.Bank.example.co.uk").as_deref(),
            Some("example.co.uk")
        );
        assert_eq!(
            registrable_domain("example.com.").as_deref(),
            Some("example.com")
        );
        assert_eq!(registrable_domain("co.uk"), None);
        assert_eq!(registrable_domain("10.0.0.1"), None);
    }

    #[test]
    fn brief_examples() {
        assert!(has_public_suffix("www.example.com"));
        assert!(!has_public_suffix("node.js"));
        assert!(!has_public_suffix("1,420.00.zip"));
        assert!(has_public_suffix("example.co.uk"));
        assert!(!has_public_suffix("co.uk"));
    }

    #[test]
    fn simple_and_case() {
        assert!(has_public_suffix("EXAMPLE.COM"));
        assert!(has_public_suffix("WwW.Example.Com"));
        assert!(has_public_suffix("example.com."));
        assert!(!has_public_suffix("com"));
        assert!(!has_public_suffix("com."));
        assert!(!has_public_suffix(""));
        assert!(!has_public_suffix("."));
        assert!(!has_public_suffix("example"));
        assert!(!has_public_suffix("example.example"));
        assert!(!has_public_suffix("localhost"));
        assert!(has_public_suffix("a.b.c.d.biz"));
        assert!(has_public_suffix("x.zip"));
    }

    #[test]
    fn invalid_hosts() {
        for h in [
            ".com",
            "a..com",
            "example.com..",
            "[::1]",
            "1.2.3.4",
            "a b.com",
            "a%41.com",
            "example.com:80",
            "a/b.com",
        ] {
            assert!(!has_public_suffix(h), "{h}");
        }
        let long = format!("{}.com", "a".repeat(64));
        assert!(!has_public_suffix(&long));
        let ok = format!("{}.com", "a".repeat(63));
        assert!(has_public_suffix(&ok));
        assert!(has_public_suffix("_dmarc.example.com"));
    }

    #[test]
    fn wildcard_and_exception() {
        // *.ck and !www.ck
        assert!(!has_public_suffix("ck"));
        assert!(!has_public_suffix("test.ck"));
        assert!(has_public_suffix("b.test.ck"));
        assert!(has_public_suffix("www.ck"));
        assert!(has_public_suffix("www.www.ck"));
        // *.kawasaki.jp and !city.kawasaki.jp
        assert!(!has_public_suffix("test.kawasaki.jp"));
        assert!(has_public_suffix("b.test.kawasaki.jp"));
        assert!(has_public_suffix("city.kawasaki.jp"));
        assert!(has_public_suffix("www.city.kawasaki.jp"));
        // "za" is no rule (only co.za, ...): no implicit "*" rule.
        assert!(!has_public_suffix("example.za"));
        assert!(!has_public_suffix("co.za"));
        assert!(has_public_suffix("x.co.za"));
    }

    #[test]
    fn deeper_rules() {
        assert!(!has_public_suffix("ac.jp"));
        assert!(has_public_suffix("test.ac.jp"));
        assert!(!has_public_suffix("kyoto.jp"));
        assert!(!has_public_suffix("ide.kyoto.jp"));
        assert!(has_public_suffix("b.ide.kyoto.jp"));
        assert!(!has_public_suffix("us"));
        assert!(!has_public_suffix("ak.us"));
        assert!(!has_public_suffix("k12.ak.us"));
        assert!(has_public_suffix("test.k12.ak.us"));
    }

    #[test]
    fn idn() {
        assert!(has_public_suffix("食狮.com.cn"));
        assert!(!has_public_suffix("公司.cn"));
        assert!(has_public_suffix("食狮.公司.cn"));
        assert!(has_public_suffix("xn--85x722f.xn--55qx5d.cn"));
        assert!(!has_public_suffix("xn--55qx5d.cn"));
        assert!(has_public_suffix("shishi.中国"));
        assert!(!has_public_suffix("中国"));
        assert!(has_public_suffix("ＥＸＡＭＰＬＥ.ＣＯＭ"));
        assert!(has_public_suffix("пример.рф"));
    }

    #[test]
    fn changes_since_2023_are_in() {
        // Added to the ICANN section after 2023-02-09 (the list bundled
        // before): Brazil's api.br and bet.br, India's bank.in.
        assert!(!has_public_suffix("api.br"));
        assert!(has_public_suffix("example.api.br"));
        assert!(!has_public_suffix("bet.br"));
        assert!(!has_public_suffix("bank.in"));
        assert!(has_public_suffix("example.bank.in"));
        // TLDs retired since (their registries gave them up).
        assert!(!has_public_suffix("example.abarth"));
        assert!(!has_public_suffix("example.alfaromeo"));
    }

    #[test]
    fn private_section_not_used() {
        // blogspot.com is a private-section rule.
        assert!(has_public_suffix("blogspot.com"));
        assert!(has_public_suffix("github.io"));
    }

    #[test]
    fn data_is_sorted_and_dated() {
        assert!(RULES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(RULES.iter().all(|(k, _)| k.is_ascii()
            && !k.bytes().any(|b| b.is_ascii_uppercase())));
        assert_eq!(PSL_DATE.len(), 10);
        assert!(PSL_VERSION.contains(&PSL_DATE.replace('-', "")));
    }
}

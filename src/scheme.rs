//! Owns what urlx knows about each well-known scheme, in one table:
//! whether it is found in text without `//`, whether it needs a host, its
//! default port, whether its empty path is written `/`, which of its own
//! rules (`validate::schemes`) apply and how validation's fast path
//! treats it. Adding a scheme is one entry here (and, for new rules, their
//! function in `validate::schemes`).
//!
//! Schemes compare case-insensitively (RFC 3986 3.1).

/// RFC 3986 3.1: a byte of a scheme after its first (which is ALPHA):
/// ALPHA / DIGIT / "+" / "-" / ".".
pub(crate) const fn is_scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// Whether `s` has a scheme's syntax, RFC 3986 3.1:
/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
pub(crate) fn is_scheme(s: &str) -> bool {
    let mut b = s.bytes();
    b.next().is_some_and(|c| c.is_ascii_alphabetic()) && b.all(is_scheme_byte)
}

/// The scheme's own rules, checked by `validate::schemes::check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// None beyond RFC 3986.
    None,
    /// RFC 1738 3.2.
    Ftp,
    /// RFC 9110 4.2.1 and 4.2.2.
    Http,
    /// RFC 4266.
    Gopher,
    /// RFC 6068.
    Mailto,
    /// RFC 5538 2.2.
    News,
    /// RFC 5538 2.3.
    Nntp,
    /// RFC 4248.
    Telnet,
    /// RFC 4156.
    Wais,
    /// RFC 8089.
    File,
    /// RFC 4157.
    Prospero,
    /// RFC 6455 3.
    Ws,
    /// RFC 8141.
    Urn,
    /// RFC 3966.
    Tel,
    /// RFC 2806 (fax and modem).
    Fax,
    /// RFC 2397.
    Data,
}

/// How validation's fast path treats a URL of the scheme that it accepts:
/// whether the scheme's rules still need checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fast {
    /// Its rules hold for whatever the fast path accepts (http and https:
    /// a host, RFC 9110 4.2.1; userinfo is only a warning, 4.2.4).
    Holds,
    /// `validate::schemes::ftp_quick`, then the full check.
    Ftp,
    /// `validate::schemes::mailto_quick`, then the full check.
    Mailto,
    /// `validate::schemes::news_quick`, then the full check.
    News,
    /// The full check of its rules.
    Check,
}

/// The facts about one scheme.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facts {
    /// The scheme's name, lower case.
    pub name: &'static str,
    /// Found in text without `//` after its colon (`mailto:joe@x`): see
    /// [`OPAQUE_SCHEMES`].
    pub opaque: bool,
    /// A URI of the scheme must have a non-empty host (RFC 3986 3.2.2:
    /// "the http scheme considers a missing authority or empty host
    /// invalid").
    pub needs_host: bool,
    /// The default port, for RFC 3986 6.2.3 and the port lint.
    pub default_port: Option<u16>,
    /// An empty path with an authority is normalized to `/` (RFC 3986
    /// 6.2.3; for http and https also RFC 9110 4.2.3).
    pub slash_path: bool,
    /// Its own rules.
    pub rule: Rule,
    /// How the fast path treats it.
    pub fast: Fast,
}

/// A scheme with no facts but its name (the entries below say what
/// differs).
const fn scheme(name: &'static str) -> Facts {
    Facts {
        name,
        opaque: false,
        needs_host: false,
        default_port: None,
        slash_path: false,
        rule: Rule::None,
        fast: Fast::Check,
    }
}

/// A scheme found in text without `//`.
const fn opaque(name: &'static str, rule: Rule) -> Facts {
    Facts { opaque: true, rule, ..scheme(name) }
}

/// A server-based scheme: a host is required (the RFC 1738 schemes and
/// their successors).
const fn server(name: &'static str, port: Option<u16>, rule: Rule) -> Facts {
    Facts { needs_host: true, default_port: port, rule, ..scheme(name) }
}

/// The table, the most frequent schemes first (lookups scan it).
///
/// `ldap` needs no host (RFC 4516 allows `ldap:///`, the client's default
/// server), nor does `file` (`file:///x` has an empty host by design, RFC
/// 8089). The opaque schemes are those of `mailto:x@y`-like forms that
/// text commonly holds; any other scheme is recognised only with `//`
/// after its colon, so that `Note: 10:30` and `std::vec` give nothing.
const TABLE: [Facts; 34] = [
    Facts {
        slash_path: true,
        fast: Fast::Holds,
        ..server("http", Some(80), Rule::Http)
    },
    Facts {
        slash_path: true,
        fast: Fast::Holds,
        ..server("https", Some(443), Rule::Http)
    },
    Facts { fast: Fast::Mailto, ..opaque("mailto", Rule::Mailto) },
    Facts {
        default_port: Some(119),
        fast: Fast::News,
        ..opaque("news", Rule::News)
    },
    opaque("urn", Rule::Urn),
    opaque("tel", Rule::Tel),
    opaque("fax", Rule::Fax),
    opaque("sip", Rule::None),
    opaque("sips", Rule::None),
    opaque("xmpp", Rule::None),
    opaque("magnet", Rule::None),
    opaque("data", Rule::Data),
    opaque("geo", Rule::None),
    opaque("cid", Rule::None),
    opaque("mid", Rule::None),
    opaque("sms", Rule::None),
    Facts {
        slash_path: true,
        fast: Fast::Ftp,
        ..server("ftp", Some(21), Rule::Ftp)
    },
    server("gopher", Some(70), Rule::Gopher),
    server("telnet", Some(23), Rule::Telnet),
    server("nntp", Some(119), Rule::Nntp),
    server("wais", Some(210), Rule::Wais),
    server("prospero", Some(1525), Rule::Prospero),
    Facts { slash_path: true, ..server("ws", Some(80), Rule::Ws) },
    Facts { slash_path: true, ..server("wss", Some(443), Rule::Ws) },
    server("sftp", None, Rule::None),
    server("ssh", None, Rule::None),
    server("rtsp", Some(554), Rule::None),
    server("irc", None, Rule::None),
    server("git", None, Rule::None),
    Facts { default_port: Some(143), ..scheme("imap") },
    Facts { default_port: Some(389), ..scheme("ldap") },
    Facts { default_port: Some(110), ..scheme("pop") },
    Facts { rule: Rule::File, ..scheme("file") },
    Facts { rule: Rule::Fax, ..scheme("modem") },
];

/// A scheme of at most 8 bytes as a number: its bytes, little-endian,
/// each with bit 5 set (`| 0x20`), which folds ASCII upper-case letters to
/// lower case and leaves every other byte a scheme may hold (lower-case
/// letters, digits, `+`, `-`, `.`) as it is; no other byte becomes a
/// letter. Two schemes have the same key exactly when they are equal
/// ignoring case (the table's names are lower-case letters).
const fn key(b: &[u8]) -> u64 {
    let mut k = 0u64;
    let mut i = 0;
    while i < b.len() {
        k |= ((b[i] | 0x20) as u64) << (8 * i);
        i += 1;
    }
    k
}

/// [`key`] at run time for 1 to 8 bytes: read as two words that overlap
/// (their shared bytes are the same bytes) rather than byte by byte, and
/// bit 5 set in each byte with one mask.
#[inline]
fn key_of(b: &[u8]) -> u64 {
    let n = b.len();
    debug_assert!((1..=8).contains(&n));
    let word = |w: &[u8]| match *w {
        [w0, w1] => u64::from(u16::from_le_bytes([w0, w1])),
        [w0, w1, w2, w3] => u64::from(u32::from_le_bytes([w0, w1, w2, w3])),
        _ => 0,
    };
    let bytes = match n {
        1 => u64::from(b[0]),
        2..=3 => word(&b[..2]) | word(&b[n - 2..]) << (8 * (n - 2)),
        _ => word(&b[..4]) | word(&b[n - 4..]) << (8 * (n - 4)),
    };
    bytes | 0x2020_2020_2020_2020 >> (8 * (8 - n))
}

/// Slots of [`INDEX`]: a power of two, several times the table's size so
/// that a lookup almost always compares one key.
const SLOTS: usize = 128;

/// Where the search for `key` starts in [`INDEX`] (Fibonacci hashing).
const fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 57) as usize
}

/// The key of each entry of the table.
const KEYS: [u64; TABLE.len()] = {
    let mut keys = [0; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        assert!(TABLE[i].name.len() <= 8);
        keys[i] = key(TABLE[i].name.as_bytes());
        i += 1;
    }
    keys
};

/// An open-addressed hash of the table: the index of each entry at (or
/// after, probing linearly) the [`slot`] of its key; `u8::MAX` for an
/// empty slot.
static INDEX: [u8; SLOTS] = {
    let mut index = [u8::MAX; SLOTS];
    let mut i = 0;
    while i < TABLE.len() {
        let mut s = slot(KEYS[i]);
        while index[s] != u8::MAX {
            s = (s + 1) % SLOTS;
        }
        index[s] = i as u8;
        i += 1;
    }
    index
};

/// The facts about `scheme` (any case), if it is in the table.
#[inline]
pub(crate) fn facts(scheme: &str) -> Option<&'static Facts> {
    let b = scheme.as_bytes();
    if b.is_empty() || b.len() > 8 {
        return None;
    }
    let k = key_of(b);
    let mut s = slot(k);
    loop {
        let i = usize::from(INDEX[s]);
        if *KEYS.get(i)? == k {
            return TABLE.get(i);
        }
        s = (s + 1) % SLOTS;
    }
}

/// How many schemes of the table are opaque.
const OPAQUE_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < TABLE.len() {
        n += TABLE[i].opaque as usize;
        i += 1;
    }
    n
};

/// Schemes without `//` that are recognised in bare text: `mailto:x@y`.
///
/// A scheme not in this list is only recognised when `//` follows its
/// colon, so that `Note: 10:30`, `Re: subject` and `std::vec` give
/// nothing.
pub const OPAQUE_SCHEMES: &[&str] = &{
    let mut out = [""; OPAQUE_COUNT];
    let (mut i, mut n) = (0, 0);
    while i < TABLE.len() {
        if TABLE[i].opaque {
            out[n] = TABLE[i].name;
            n += 1;
        }
        i += 1;
    }
    out
};

/// The words a colon not followed by `//` can end (in any case): the
/// schemes recognised without `//` and the `URL:` prefix of Appendix E.
/// Scanning searches for their endings.
pub(crate) fn colon_words() -> impl Iterator<Item = &'static str> {
    OPAQUE_SCHEMES.iter().copied().chain(["url"])
}

/// Whether URIs of `scheme` (compared case-insensitively) must have a
/// non-empty host: `http`, `https`, `ftp`, `gopher`, `telnet`, `nntp`,
/// `wais`, `prospero`, `ws`, `wss`, `sftp`, `ssh`, `rtsp`, `irc`, `git`.
///
/// `ldap` (RFC 4516 allows `ldap:///`) and `file` (RFC 8089 allows
/// `file:///path`) are deliberately not in the list.
pub fn scheme_requires_host(scheme: &str) -> bool {
    facts(scheme).is_some_and(|f| f.needs_host)
}

/// The default port of `scheme` (case-insensitive), if known.
pub fn default_port(scheme: &str) -> Option<u16> {
    facts(scheme)?.default_port
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run-time key is the table's, for every length and each byte
    /// at each position.
    #[test]
    fn keys_agree() {
        for n in 1..=8 {
            for pos in 0..n {
                for b in 0..=255u8 {
                    let mut s: Vec<u8> =
                        (0..n as u8).map(|i| b'a' + i).collect();
                    s[pos] = b;
                    assert_eq!(key_of(&s), key(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn names_are_lower_case_and_distinct() {
        for (i, f) in TABLE.iter().enumerate() {
            assert_eq!(f.name, f.name.to_ascii_lowercase());
            assert!(TABLE[..i].iter().all(|g| g.name != f.name), "{}", f.name);
        }
    }

    #[test]
    fn opaque_schemes_come_from_the_table() {
        assert_eq!(
            OPAQUE_SCHEMES,
            [
                "mailto", "news", "urn", "tel", "fax", "sip", "sips", "xmpp",
                "magnet", "data", "geo", "cid", "mid", "sms"
            ]
        );
    }

    #[test]
    fn every_entry_is_found_in_any_case() {
        for f in &TABLE {
            assert_eq!(facts(f.name).map(|g| g.name), Some(f.name));
            let upper = f.name.to_ascii_uppercase();
            assert_eq!(facts(&upper).map(|g| g.name), Some(f.name));
            // Bytes next to the letters in ASCII are not folded into them.
            let near: String = f
                .name
                .chars()
                .map(|c| (c as u8 - 0x20 + 0x1f) as char)
                .collect();
            assert!(facts(&near).is_none(), "{near}");
        }
        for s in [
            "",
            "h",
            "htt",
            "httpx",
            "xhttp",
            "é",
            "mailt0",
            "HTTP\0",
            "prosperos",
        ] {
            assert!(facts(s).is_none(), "{s}");
        }
    }

    #[test]
    fn lookups_ignore_case() {
        assert!(scheme_requires_host("WsS"));
        assert!(!scheme_requires_host("file"));
        assert!(!scheme_requires_host("ldap"));
        assert_eq!(default_port("HTTPS"), Some(443));
        assert_eq!(default_port("x"), None);
        assert_eq!(facts("MAILTO").map(|f| f.rule), Some(Rule::Mailto));
    }
}

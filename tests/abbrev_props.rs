//! Owns the property tests: no panic on arbitrary input in any module,
//! and `abbrev::scan` output independent of how a text is cut into
//! windows.

use proptest::prelude::*;
use urlx::abbrev::{self, Abbrev, LOOKAHEAD_SLACK, LOOKBACK, Opts};
use urlx::{refang, unwrap};

/// Pieces that make texts with many hits and near misses.
const PIECES: &[&str] = &[
    "www.example.com",
    "joe@example.org",
    "ftp.funet.fi",
    "example.co.uk",
    "www.",
    "WWW.",
    "ftp.",
    "example",
    ".com",
    ".co.uk",
    ".js",
    ".",
    ".",
    "@",
    "@",
    "joe",
    "a",
    "x",
    " ",
    " ",
    "\n",
    "(",
    ")",
    "[",
    "]",
    "'",
    "<",
    ">",
    ",",
    ":",
    "8080",
    "/",
    "/path",
    "?q=1",
    "#f",
    "URL:",
    "http://",
    "mailto:",
    "é",
    "是",
    "。",
    "ß",
    "-",
    "_",
    "+tag",
    "Message-ID: ",
    "\u{a0}",
    "\"",
    "..",
    "example.com",
    "deΩ.uk",
    "普遍适用测试",
    "。",
    "．",
    "我爱你",
    "αβγ",
    "—",
    "--",
    "=",
    "&",
    ":~:",
    "{",
    "}",
    "Email:",
    "url:",
    "setup.py",
];

/// Every form at once.
const ALL: Opts = Opts { www: true, emails: true, domains: true };

fn text() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(prop::sample::select(PIECES), 0..80)
            .prop_map(|v| v.concat().into_bytes()),
        1 => prop::collection::vec(any::<u8>(), 0..300),
    ]
}

/// The option sets checked: the default (`www.` hosts by rules 1 to 5)
/// and every form (`www.` hosts by the bare domain rules).
const SETS: [Opts; 2] =
    [Opts { www: true, emails: true, domains: false }, ALL];

fn whole(hay: &[u8], max_len: usize, opts: Opts) -> Vec<Abbrev> {
    let mut out = Vec::new();
    abbrev::scan(hay, 0, hay.len(), max_len, opts, |a| out.push(a));
    out
}

/// Scan `hay` window by window, each given only the context urlx's
/// chunks give (`LOOKBACK` before, `max_len + LOOKAHEAD_SLACK` after),
/// with offsets mapped back.
fn windowed(
    hay: &[u8],
    cuts: &[usize],
    max_len: usize,
    opts: Opts,
) -> Vec<Abbrev> {
    let mut bounds: Vec<usize> =
        cuts.iter().map(|&c| c % (hay.len() + 1)).collect();
    bounds.push(0);
    bounds.push(hay.len());
    bounds.sort_unstable();
    bounds.dedup();
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let (a, b) = (w[0], w[1]);
        let lo = a.saturating_sub(LOOKBACK);
        let hi = hay.len().min(b + max_len + LOOKAHEAD_SLACK);
        let chunk = &hay[lo..hi];
        abbrev::scan(chunk, a - lo, b - lo, max_len, opts, |x| {
            out.push(Abbrev { start: x.start + lo, end: x.end + lo, ..x });
        });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn scan_never_panics(
        hay in prop::collection::vec(any::<u8>(), 0..400),
        from in 0usize..450,
        to in 0usize..450,
        max_len in 0usize..300,
        www in any::<bool>(),
        emails in any::<bool>(),
        domains in any::<bool>(),
    ) {
        let opts = Opts { www, emails, domains };
        abbrev::scan(&hay, from, to, max_len, opts, |a| {
            assert!(a.start < a.end && a.end <= hay.len());
        });
    }

    #[test]
    fn scan_is_cut_invariant(
        hay in text(),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
        max_len in prop_oneof![Just(2048usize), 0usize..64],
    ) {
        for opts in SETS {
            let one = whole(&hay, max_len, opts);
            let many = windowed(&hay, &cuts, max_len, opts);
            prop_assert_eq!(one, many);
        }
    }

    #[test]
    fn hits_are_well_formed(hay in text()) {
        for a in whole(&hay, 2048, ALL) {
            let s = std::str::from_utf8(&hay[a.start..a.end]);
            prop_assert!(s.is_ok());
            let prefix = match a.kind {
                abbrev::Kind::Www => "http://",
                abbrev::Kind::Ftp => "ftp://",
                abbrev::Kind::Email => "mailto:",
                abbrev::Kind::Domain => "http://",
            };
            prop_assert!(a.url.starts_with(prefix));
        }
    }

    #[test]
    fn refang_never_panics(s in any::<String>()) {
        let _ = refang::refang(&s);
        let _ = refang::is_defanged_scheme(&s);
    }

    #[test]
    fn refang_pieces_never_panic(
        v in prop::collection::vec(prop::sample::select(&[
            "hxxp", "[", "]", "(", ")", "{", "}", ".", "dot", "at", ":", "/",
            "é", "[.", "[:", "://", "x",
        ][..]), 0..30)
    ) {
        let s = v.concat();
        if let Some(r) = refang::refang(&s) {
            prop_assert!(r.len() <= s.len());
        }
    }

    #[test]
    fn unwrap_never_panics(s in any::<String>()) {
        let _ = unwrap::unwrap(&s);
    }

    #[test]
    fn unwrap_wrappers_never_panic(
        host in prop::sample::select(&[
            "https://www.google.com/url?q=",
            "https://x.safelinks.protection.outlook.com/?url=",
            "https://urldefense.proofpoint.com/v1/url?u=",
            "https://urldefense.proofpoint.com/v2/url?u=",
            "https://urldefense.com/v3/__",
            "https://linkprotect.cudasvc.com/url?a=",
        ][..]),
        tail in "[a-zA-Z0-9%*_;!:/?#&=.é-]{0,60}",
    ) {
        if let Some(t) = unwrap::unwrap(&format!("{host}{tail}")) {
            prop_assert!(t.contains(':'));
        }
    }
}

/// Every single cut point of texts whose hits depend on context far
/// back (a header line, a long local part, a long line before a URI).
#[test]
fn every_cut_of_tricky_texts() {
    let long_line = format!(
        "Message-ID: <{}@example.com>\nReferences: {} <b@example.org>\n",
        "m".repeat(60),
        "<r@example.net> ".repeat(20),
    );
    let texts = [
        long_line,
        format!("{} {}@example.com x", "y".repeat(300), "a".repeat(64)),
        format!(
            "{}www.example.com/{} joe@example.com",
            "-".repeat(255),
            "p".repeat(40)
        ),
        "(see www.example.com/a_(b)) <URL:ftp.example.org/x> 'x@example.de'"
            .to_string(),
        // Hosts whose start lies far before a later full stop.
        format!(
            "{}.example.com {}.b.example.org",
            "a".repeat(63),
            "x".repeat(199)
        ),
        format!("{}.b.c.d.e.example.com/p", "é".repeat(60)),
        "αβγ.δεζ@example.com example.com/α(β)γ/δ?α=(θ)#x:~:text=(y) \
         普遍适用测试。我爱你 foo.bar+tag@example.com joe@example.com--x"
            .to_string(),
    ];
    for t in &texts {
        let hay = t.as_bytes();
        for max_len in [2048, 30] {
            for opts in SETS {
                let one = whole(hay, max_len, opts);
                for cut in 0..=hay.len() {
                    let many = windowed(hay, &[cut], max_len, opts);
                    assert_eq!(one, many, "cut {cut}");
                }
            }
        }
    }
}

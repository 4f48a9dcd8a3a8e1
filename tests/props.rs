//! Property tests: dot-segment removal is idempotent, resolution of valid
//! references against valid bases yields valid absolute URIs, nothing
//! panics on arbitrary input, components split as RFC 3986 Appendix B's
//! regular expression does and recompose to the input, and every URL
//! printed extracts to itself again. (Output for every chunk size and
//! thread count: tests/chunking.rs.)

use proptest::prelude::*;
use urlx::resolve::{normalize_dots, remove_dot_segments, resolve};
use urlx::stages::{TriggerSearch, candidate_spans, search_available};
use urlx::validate::{Component, ErrorKind, Uri};

const BASES: &[&str] = &[
    "http://a/b/c/d;p?q",
    "http://a",
    "https://[::1]:8080/x/y/?q#f",
    "foo:a/b",
    "f:/a",
    "mailto:x@y",
    "file:///x/y/",
    "s://h",
    "urn:a:b",
    "z:",
];

/// References made of a small alphabet that exercises every rule.
fn reference() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "a", "b", ".", "..", "/", "//", ":", "?", "#", "%41", "@", ";", "=",
        "x:", "ß",
    ]);
    prop::collection::vec(piece, 0..10).prop_map(|v| v.concat())
}

fn path() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec!["a", "b", ".", "..", "/", "é"]);
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn remove_dot_segments_is_idempotent(p in path()) {
        let once = remove_dot_segments(&p);
        prop_assert_eq!(remove_dot_segments(&once), once.clone());
        // No complete dot-segment survives.
        prop_assert!(!once.split('/').any(|s| s == "." || s == ".."));
    }

    #[test]
    fn resolution_yields_valid_absolute_uri(
        base in prop::sample::select(BASES),
        r in reference(),
    ) {
        let reference = Uri::parse(&r);
        prop_assume!(reference.is_valid());
        let out = resolve(&Uri::parse(base), &reference).unwrap();
        let t = Uri::parse(&out);
        prop_assert!(t.is_absolute(), "{} + {:?} = {}", base, r, out);
        for e in t.errors() {
            // The only way to an invalid target: an empty authority
            // ("//" or "//:") given to a scheme that requires a host.
            prop_assert_eq!(e.kind(), ErrorKind::MissingHost);
            prop_assert_eq!(reference.host(), Some(""));
        }
        // Resolving the result against anything gives it back (it is
        // absolute and already free of dot-segments).
        prop_assert_eq!(resolve(&Uri::parse(base), &t).unwrap(), out.clone());
        prop_assert_eq!(normalize_dots(&t), out);
    }

    #[test]
    fn no_panic_on_arbitrary_input(s in any::<String>()) {
        let u = Uri::parse(&s);
        let _ = u.errors();
        let _ = u.host_kind();
        let _ = normalize_dots(&u);
        for c in [
            Component::Scheme, Component::Authority, Component::Userinfo,
            Component::Host, Component::Port, Component::Path,
            Component::Query, Component::Fragment,
        ] {
            if let Some(r) = u.range(c) {
                prop_assert!(s.get(r).is_some());
            }
        }
        let _ = resolve(&Uri::parse("http://a/b/c"), &u);
    }

    #[test]
    fn no_panic_on_uri_like_input(
        s in "[a-z]{0,3}:?(//)?[\\[\\]:@%a-f0-9./?#é ]{0,30}"
    ) {
        let u = Uri::parse(&s);
        let _ = u.errors();
        let _ = u.host_kind();
        let _ = normalize_dots(&u);
    }
}

fn urlish() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "http", "https", "mailto", "news", "x+y", "1a", ":", "//", "/", "?",
        "#", "@", "[", "]", ":80", ":99999", "%41", "%4", "%zz", "a", "b.c",
        "-", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=",
        ".", "..", " ", "é", "|", "{", "\\", "xn--a", "0", "255",
    ]);
    prop::collection::vec(pieces, 0..14).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    /// The validation fast path never accepts what the full RFC 3986
    /// check rejects (it may leave valid URIs to the full check), and
    /// what it accepts is printable ASCII.
    #[test]
    fn quick_validation_is_sound(s in urlish()) {
        if urlx::stages::quick_valid(&s) {
            let uri = Uri::parse(&s);
            prop_assert!(uri.is_absolute(), "{}", s);
            prop_assert!(uri.errors().is_empty(), "{} {:?}", s, uri.errors());
            // The printer relies on this to skip terminal escaping.
            prop_assert!(s.bytes().all(|b| b.is_ascii_graphic()), "{}", s);
        }
    }
}

/// URLs whose host labels are near the 63-octet limit of RFC 1034 3.1,
/// written with letters, `-` and percent-escapes (each `%XX` one octet).
fn long_label_url() -> impl Strategy<Value = String> {
    let unit =
        prop::sample::select(vec!["a", "Z", "0", "-", "%41", "%2D", "%c3%a9"]);
    let label = prop::collection::vec(unit, 20..70).prop_map(|v| v.concat());
    (
        prop::collection::vec(label, 1..4),
        prop::sample::select(vec!["com", "example", "%41"]),
    )
        .prop_map(|(labels, tld)| {
            format!("http://{}.{tld}/p", labels.join("."))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]
    /// The fast path agrees with the full check on hosts whose labels
    /// are measured in octets, percent-escapes counted as one.
    #[test]
    fn quick_validation_is_sound_on_long_labels(s in long_label_url()) {
        if urlx::stages::quick_valid(&s) {
            let uri = Uri::parse(&s);
            prop_assert!(uri.errors().is_empty(), "{} {:?}", s, uri.errors());
        }
    }
}

#[test]
fn quick_validation_counts_escaped_label_octets() {
    let s = format!("http://{}.com/", "%41".repeat(64));
    assert!(!urlx::stages::quick_valid(&s));
    assert!(!Uri::parse(&s).errors().is_empty());
    // 63 octets: valid; the fast path leaves escaped hosts to the full
    // check, and takes a label of 63 letters (so the property test above
    // sees accepted cases at the limit), not of 64.
    let s = format!("http://{}.com/", "%41".repeat(63));
    assert!(Uri::parse(&s).errors().is_empty());
    assert!(urlx::stages::quick_valid(&format!(
        "http://{}.com/",
        "a".repeat(63)
    )));
    assert!(!urlx::stages::quick_valid(&format!(
        "http://{}.com/",
        "a".repeat(64)
    )));
}

/// RFC 3986 Appendix B, with `(?s)` so that `.` also matches a line
/// break (the regular expression is meant for the whole string).
fn appendix_b() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"(?s)^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?",
        )
        .unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 5000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// `Uri::parse` splits like Appendix B's regular expression, and the
    /// components recomposed as in RFC 3986 5.3 give back the input.
    #[test]
    fn components_match_appendix_b_and_recompose(
        s in prop_oneof![any::<String>(), urlish(), "[a-z:/?#@\\[\\]\n]{0,16}"],
    ) {
        let caps = appendix_b().captures(&s).unwrap();
        prop_assert_eq!(caps.get(0).unwrap().len(), s.len());
        let group = |i: usize| caps.get(i).map(|m| m.as_str());
        let u = Uri::parse(&s);
        prop_assert_eq!(u.scheme(), group(2));
        prop_assert_eq!(u.authority(), group(4));
        prop_assert_eq!(Some(u.path()), group(5));
        prop_assert_eq!(u.query(), group(7));
        prop_assert_eq!(u.fragment(), group(9));
        // RFC 3986 5.3, Component Recomposition.
        let mut r = String::new();
        if let Some(scheme) = u.scheme() {
            r = r + scheme + ":";
        }
        if let Some(authority) = u.authority() {
            r = r + "//" + authority;
            // And the authority from its parts (3.2).
            let mut a = String::new();
            if let Some(userinfo) = u.userinfo() {
                a = a + userinfo + "@";
            }
            a += u.host().unwrap();
            if let Some(port) = u.port() {
                a = a + ":" + port;
            }
            if a != authority {
                // Text between an IP-literal's "]" and the port's ":"
                // (or the end) belongs to no part; it is an error.
                prop_assert!(u.host().unwrap().starts_with('['), "{:?}", s);
                prop_assert!(!u.errors().is_empty(), "{:?}", s);
            }
        } else {
            prop_assert_eq!((u.userinfo(), u.host(), u.port()), (None, None, None));
        }
        r += u.path();
        if let Some(query) = u.query() {
            r = r + "?" + query;
        }
        if let Some(fragment) = u.fragment() {
            r = r + "#" + fragment;
        }
        prop_assert_eq!(r, s);
    }
}

#[test]
fn text_after_an_ip_literal_is_in_no_part_and_an_error() {
    // Found by components_match_appendix_b_and_recompose ("//[]]").
    for s in ["//[]]", "http://[::1]x/", "http://[::1]]:80/"] {
        let u = Uri::parse(s);
        assert_junk_after_literal(&u);
        assert!(!u.errors().is_empty(), "{s:?}");
    }
}

fn assert_junk_after_literal(u: &Uri<'_>) {
    let host = u.host().unwrap();
    assert!(host.starts_with('[') && host.ends_with(']'), "{host:?}");
    assert!(u.authority().unwrap().len() > host.len());
}

/// A URL as it may appear in text.
fn url() -> impl Strategy<Value = String> {
    let scheme = prop::sample::select(vec![
        "http://",
        "https://",
        "HTTP://",
        "ftp://",
        "file://",
        "foo+bar://",
        "mailto:",
        "news:",
        "urn:",
    ]);
    let host = prop::sample::select(vec![
        "a.example",
        "b.c",
        "[::1]",
        "1.2.3.4",
        "é.example",
        "xn--x",
        "h:8080",
        "u@h",
    ]);
    let piece = prop::sample::select(vec![
        "/", "a", "b.c", "-", "_", "~", "%41", "(x)", "(", ")", ".", ",", ";",
        ":", "!", "'", "*", "+", "=", "@", "?", "&", "#", "é", "[", "]",
        "/a/", "x-",
    ]);
    (scheme, host, prop::collection::vec(piece, 0..8)).prop_map(|(s, h, p)| {
        let h = if s.ends_with("//") { h } else { "j@x.example" };
        format!("{s}{h}{}", p.concat())
    })
}

/// Text with URLs among wrappers, punctuation and line breaks.
fn text_with_urls() -> impl Strategy<Value = String> {
    let sep = prop::sample::select(vec![
        " ", "\n", "\r\n", "<", ">", "(", ")", "\"", "'", ".", ",", "URL:",
        "[", "]", "-\n ", "é", "\u{3002}", "x", ":", "<URL:", "\t", "«", "»",
        "\u{201c}", "\u{201d}", "[t](", "href=\"", "\n\n",
    ]);
    prop::collection::vec(
        prop_oneof![url(), sep.prop_map(str::to_string)],
        0..16,
    )
    .prop_map(|v| v.concat())
}

/// The valid absolute URLs found in `text`, with their contexts.
fn printed(text: &str) -> Vec<(String, urlx::Context)> {
    urlx::Extractor::builder()
        .build()
        .unwrap()
        .find(text.as_bytes())
        .iter()
        .filter(|h| h.is_valid() && h.uri().is_absolute())
        .map(|h| (h.url().to_string(), h.context()))
        .collect()
}

fn urls(text: &str) -> Vec<String> {
    printed(text).into_iter().map(|(u, _)| u).collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every URL urlx prints comes back unchanged when extracted again:
    /// from `<URL:...>` (Appendix E's recommended wrapper) whatever its
    /// context; alone and on a line of its own when it was found bare;
    /// and the printed list, one URL a line, gives itself back.
    #[test]
    fn printed_urls_extract_to_themselves(text in text_with_urls()) {
        let hits = printed(&text);
        for (u, context) in &hits {
            prop_assert_eq!(urls(&format!("<URL:{u}>")), [u.clone()]);
            if *context == urlx::Context::Bare {
                prop_assert_eq!(urls(u), [u.clone()]);
            }
            // (A "-" at a line end is a hyphen line break: the URL goes
            // on on the next line.)
            if *context == urlx::Context::Bare && !u.ends_with('-') {
                prop_assert_eq!(
                    urls(&format!("see\n{u}\nor\r\n{u} .")),
                    [u.clone(), u.clone()]
                );
            }
        }
        // The printed list is a fixed point when each URL alone is, and
        // none ends with "-": a "-" at a line end is a hyphen line break
        // (Appendix E), which joins the next line's URL.
        let list: Vec<String> = hits.into_iter().map(|(u, _)| u).collect();
        if list.iter().all(|u| urls(u) == [u.clone()] && !u.ends_with('-')) {
            prop_assert_eq!(urls(&list.join("\n")), list);
        }
    }
}

/// Pieces of text around colons: schemes in mixed case (built-in opaque
/// ones, `URL:`, `data:,` and others), near misses and log noise.
const SCAN_PIECES: &[&str] = &[
    "http",
    "HTTP",
    "ftp",
    "x-y.z+1",
    "mailto",
    "MaIlTo",
    "news",
    "NEWS",
    "urn",
    "uRn",
    "tel",
    "sip",
    "sips",
    "xmpp",
    "magnet",
    "data",
    "geo",
    "cid",
    "mid",
    "sms",
    "fax",
    "URL",
    "url",
    "Url",
    "to",
    "ws",
    "rl",
    ":",
    ":",
    "://",
    "//",
    "/",
    ":,",
    ",",
    "a",
    "Z",
    "9",
    "12:30:01",
    "x@y.z",
    " ",
    " ",
    "\n",
    "-\n",
    "<",
    ">",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "'",
    "ab:",
    "host:8080",
    "é",
    "\t",
];

fn scan_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SCAN_PIECES), 0..40)
        .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 4000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Searching only for scheme endings (`://`, and the last letter or
    /// the last two letters of each opaque scheme and `URL`, then `:`,
    /// by Teddy or by the sieve) finds exactly the candidates that
    /// trying every colon finds, and so does the adaptive mix.
    #[test]
    fn scheme_endings_find_what_colons_find(text in scan_text()) {
        let hay = text.as_bytes();
        let colons = candidate_spans(hay, Some(TriggerSearch::Colons));
        for search in
            [TriggerSearch::Letters, TriggerSearch::Pairs, TriggerSearch::Sieve]
        {
            if search_available(search) {
                prop_assert_eq!(
                    &candidate_spans(hay, Some(search)),
                    &colons,
                    "{:?}",
                    search
                );
            }
        }
        prop_assert_eq!(&candidate_spans(hay, None), &colons);
    }
}

/// On text alternating log lines and URLs across many block boundaries,
/// each method alone and the adaptive scan (which measures both and
/// switches between them) find the same candidates.
#[test]
fn adaptive_scan_agrees_on_mixed_input() {
    let log = "Jan  1 00:00:01 host sshd[1]: 10.0.0.1:22 up 00:01:02\n";
    let urls = "see <URL:http://a.example/x-\n  y> and mailto:j@e.org, \
                news:comp.x (http://b.example/(p)) DATA:,hi urn:a:b\n";
    let mut text = String::new();
    for round in 0..40 {
        let lines = if round % 3 == 0 { 900 } else { 40 };
        for i in 0..lines {
            text.push_str(if i % 7 == 0 { urls } else { log });
        }
        for _ in 0..200 {
            text.push_str(urls);
        }
    }
    let hay = text.as_bytes();
    let colons = candidate_spans(hay, Some(TriggerSearch::Colons));
    assert!(colons.len() > 10_000, "{}", colons.len());
    assert_eq!(candidate_spans(hay, None), colons);
    // Where a search has no SIMD searcher it tries every colon.
    for search in
        [TriggerSearch::Letters, TriggerSearch::Pairs, TriggerSearch::Sieve]
    {
        assert_eq!(candidate_spans(hay, Some(search)), colons, "{search:?}");
    }
}

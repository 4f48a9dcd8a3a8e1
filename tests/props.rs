//! Property tests: dot-segment removal is idempotent, resolution of valid
//! references against valid bases yields valid absolute URIs, and nothing
//! panics on arbitrary input.

use proptest::prelude::*;
use urlx::resolve::{normalize_dots, remove_dot_segments, resolve};
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

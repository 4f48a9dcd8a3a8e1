//! RFC 3986 section 5.4 examples, the Appendix C examples of the two
//! drafts, and the Appendix B component split.

use urlx::resolve::resolve_str;
use urlx::validate::{Component, Uri};

const BASE: &str = "http://a/b/c/d;p?q";

/// Data lines of a test table: comments start with "# ".
fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with("# ") && !l.is_empty())
        .map(|l| l.split('\t').collect())
}

#[test]
fn rfc3986_section_5_4() {
    let text = include_str!("data/rfc3986-5.4.txt");
    assert!(text.starts_with("# source: RFC 3986 section 5.4 ("));
    let mut n = 0;
    let mut bad = Vec::new();
    for row in rows(text) {
        let [reference, expected] = row[..] else {
            panic!("malformed row {row:?}");
        };
        n += 1;
        let got = resolve_str(BASE, reference).unwrap();
        if got != expected {
            bad.push(format!("{reference:?}: got {got}, want {expected}"));
        }
    }
    assert_eq!(n, 42, "RFC 3986 5.4 has 23 normal + 19 abnormal examples");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn appendix_c_of_the_drafts() {
    let text = include_str!("data/appendix-c-drafts.txt");
    let mut per_draft = std::collections::BTreeMap::new();
    let mut differs = 0;
    let mut bad = Vec::new();
    for row in rows(text) {
        let [draft, reference, draft_answer, rfc_answer, mark] = row[..]
        else {
            panic!("malformed row {row:?}");
        };
        *per_draft.entry(draft).or_insert(0) += 1;
        // The mark must agree with the two answers.
        let want_mark = if draft_answer.starts_with("(current document)") {
            "equivalent"
        } else if draft_answer == rfc_answer {
            "same"
        } else {
            "DIFFERS"
        };
        assert_eq!(mark, want_mark, "{draft} {reference:?}");
        if mark == "DIFFERS" {
            differs += 1;
        }
        let got = resolve_str(BASE, reference).unwrap();
        if got != rfc_answer {
            bad.push(format!("{draft} {reference:?}: got {got}"));
        }
        if mark == "equivalent" {
            // "(current document)" is the base without its fragment.
            let frag = draft_answer.strip_prefix("(current document)");
            assert_eq!(Some(&got[BASE.len()..]), frag);
        }
    }
    assert_eq!(per_draft.get("url-syntax-05"), Some(&44));
    assert_eq!(per_draft.get("rfc2396bis-00"), Some(&42));
    assert_eq!(differs, 11);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Expected Appendix B split: scheme, authority, path, query, fragment.
type Split = (
    Option<&'static str>,
    Option<&'static str>,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
);

#[test]
fn appendix_b_regex_split() {
    // Hand-applied ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
    // ($2, $4, $5, $7, $9).
    let cases: &[(&str, Split)] = &[
        (
            "http://www.ics.uci.edu/pub/ietf/uri/#Related",
            (
                Some("http"),
                Some("www.ics.uci.edu"),
                "/pub/ietf/uri/",
                None,
                Some("Related"),
            ),
        ),
        (
            "foo://example.com:8042/over/there?name=ferret#nose",
            (
                Some("foo"),
                Some("example.com:8042"),
                "/over/there",
                Some("name=ferret"),
                Some("nose"),
            ),
        ),
        (
            "urn:example:animal:ferret:nose",
            (Some("urn"), None, "example:animal:ferret:nose", None, None),
        ),
        ("", (None, None, "", None, None)),
        ("//", (None, Some(""), "", None, None)),
        ("file:///etc", (Some("file"), Some(""), "/etc", None, None)),
        ("?#", (None, None, "", Some(""), Some(""))),
        ("a/b:c", (None, None, "a/b:c", None, None)),
        ("::", (None, None, "::", None, None)),
        ("/a:b?c:d", (None, None, "/a:b", Some("c:d"), None)),
        ("x?a#b?c#d", (None, None, "x", Some("a"), Some("b?c#d"))),
        ("x:#?", (Some("x"), None, "", None, Some("?"))),
        ("a b:c d", (Some("a b"), None, "c d", None, None)),
        ("//a?b/c", (None, Some("a"), "", Some("b/c"), None)),
        ("//a#b?c", (None, Some("a"), "", None, Some("b?c"))),
        (
            "mailto:John.Doe@example.com",
            (Some("mailto"), None, "John.Doe@example.com", None, None),
        ),
        (
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
            (
                Some("ldap"),
                Some("[2001:db8::7]"),
                "/c=GB",
                Some("objectClass?one"),
                None,
            ),
        ),
        (
            "https://de.wikipedia.org/wiki/Straße",
            (
                Some("https"),
                Some("de.wikipedia.org"),
                "/wiki/Straße",
                None,
                None,
            ),
        ),
    ];
    for (s, want) in cases {
        let u = Uri::parse(s);
        let got =
            (u.scheme(), u.authority(), u.path(), u.query(), u.fragment());
        assert_eq!(&got, want, "{s:?}");
        // Ranges agree with the accessors.
        for (c, v) in [
            (Component::Scheme, u.scheme()),
            (Component::Authority, u.authority()),
            (Component::Path, Some(u.path())),
            (Component::Query, u.query()),
            (Component::Fragment, u.fragment()),
        ] {
            assert_eq!(u.range(c).map(|r| &s[r]), v, "{s:?} {c:?}");
        }
    }
}

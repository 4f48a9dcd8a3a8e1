//! UTS #58 conformance: every line of `LinkDetectionTest.txt` (17.0.0)
//! run through urlx, the links it prints marked and compared with the
//! line. Lines with a scheme must pass in the default mode, but for the
//! rows of `SCHEME_EXPECTED`, which argue each difference; a row that
//! starts to pass fails the test, so the table stays true.

use std::ops::Range;

use urlx::Extractor;

use crate::uts58_props::{Case, cases, marked};

/// A line of the test where urlx deliberately differs: its input, and
/// why.
struct Expected {
    input: &'static str,
    reason: &'static str,
}

const USERINFO: &str = "urlx reports an http URL with userinfo: RFC 3986 \
    3.2.1 allows it and mail holds it (`http://bank.example@evil.example/` \
    is the phishing form e-mail security teams look for); it carries the \
    warning `http-userinfo` (RFC 9110 4.2.4: deprecated, a phishing \
    device). UTS #58 leaves such text unlinked";

const SCHEME_EXPECTED: &[Expected] = &[
    Expected { input: "http://john.smith@example.com", reason: USERINFO },
    Expected {
        input: "http://john.smith@example.com/foo/bar",
        reason: USERINFO,
    },
    Expected { input: "http://john..smith@example.com", reason: USERINFO },
    Expected {
        input: "http://john..smith@example.com/foo/bar",
        reason: USERINFO,
    },
];

/// Whether a test line is about links with a scheme.
fn has_scheme(case: &Case) -> bool {
    case.input.contains("://") || case.input.contains("mailto:")
}

/// The byte ranges of the links urlx prints for `input`.
fn links(ex: &Extractor, input: &str) -> Vec<Range<usize>> {
    ex.find(input.as_bytes())
        .iter()
        .filter(|h| h.usable().is_some())
        .map(|h| h.start() as usize..h.end() as usize)
        .collect()
}

#[test]
fn lines_with_a_scheme_pass_in_the_default_mode() {
    let ex = Extractor::builder().build().unwrap();
    let mut failed = Vec::new();
    let mut stale = Vec::new();
    let mut checked = 0;
    for case in cases().iter().filter(|c| has_scheme(c)) {
        checked += 1;
        let got = links(&ex, &case.input);
        let expected = SCHEME_EXPECTED.iter().find(|e| e.input == case.input);
        match (got == case.links, expected) {
            (true, Some(e)) => stale.push(e.input),
            (false, None) => failed.push(format!(
                "line {}:\n  want {}\n  got  {}",
                case.line,
                marked(&case.input, &case.links),
                marked(&case.input, &got)
            )),
            _ => {}
        }
    }
    assert_eq!(checked, 231, "lines with a scheme");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(stale.is_empty(), "these pass now: {stale:?}");
}

#[test]
fn expected_differences_are_argued_and_present() {
    let inputs: Vec<String> = cases().into_iter().map(|c| c.input).collect();
    for e in SCHEME_EXPECTED {
        assert!(inputs.iter().any(|i| i == e.input), "{}", e.input);
        assert!(e.reason.len() > 40);
    }
}

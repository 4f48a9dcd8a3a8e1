//! UTS #58 conformance: every line of `LinkDetectionTest.txt` (17.0.0)
//! run through urlx, the links it prints marked and compared with the
//! line. Lines with a scheme must pass in the default mode, but for the
//! rows of `SCHEME_EXPECTED`; lines without one (bare domain names and
//! e-mail addresses) must pass with `domains` and `emails` on, but for
//! the rows of `NO_SCHEME_EXPECTED`. Each row argues its difference; a
//! row that starts to pass fails the test, so the tables stay true.

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

const SCP_LOCATION: &str = "urlx reads `user@host:` followed by a letter, \
    digit or `/` as an SSH, scp, git or CVS location (`git@github.com:org/\
    repo`, `user@host:22`, `anonymous@cvs.example.org:/cvsroot`: a user at \
    a host, RFC 3986 3.2.1 without a scheme), not as an e-mail address; \
    mail and logs hold that form far more often than an address followed \
    by a port and a path (src/abbrev.rs rule 8). UTS #58 links the address \
    and leaves the rest";

const NO_SCHEME_EXPECTED: &[Expected] = &[Expected {
    input: "See john.doe@example.com:1234/forum/questions/?tag=new&order=\
        newest#top on…",
    reason: SCP_LOCATION,
}];

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
    let (checked, failed, stale) = run(&ex, has_scheme, SCHEME_EXPECTED);
    assert_eq!(checked, 231, "lines with a scheme");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(stale.is_empty(), "these pass now: {stale:?}");
}

/// Run `ex` on the lines that `which` selects; the lines that differ
/// from the test file and are not in `expected`, and the rows of
/// `expected` whose line passes.
fn run(
    ex: &Extractor,
    which: impl Fn(&Case) -> bool,
    expected: &[Expected],
) -> (usize, Vec<String>, Vec<&'static str>) {
    let mut failed = Vec::new();
    let mut stale = Vec::new();
    let mut checked = 0;
    for case in cases().iter().filter(|c| which(c)) {
        checked += 1;
        let got = links(ex, &case.input);
        let row = expected.iter().find(|e| e.input == case.input);
        match (got == case.links, row) {
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
    (checked, failed, stale)
}

/// The lines without a scheme: bare domain names (`example.com`,
/// `deΩ.uk`, `普遍适用测试。我爱你`, with ports, paths, queries and
/// fragments) and e-mail addresses (`αβγ.δεζ@example.com`), found
/// with `domains` and `emails` (src/abbrev.rs rules 6 to 14).
#[test]
fn lines_without_a_scheme_pass_with_domains_and_emails() {
    let ex = Extractor::builder().domains(true).emails(true).build().unwrap();
    let (checked, failed, stale) =
        run(&ex, |c| !has_scheme(c), NO_SCHEME_EXPECTED);
    assert_eq!(checked, 113, "lines without a scheme");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(stale.is_empty(), "these pass now: {stale:?}");
}

/// Without the options, no line without a scheme gives a link.
#[test]
fn lines_without_a_scheme_give_nothing_by_default() {
    let ex = Extractor::builder().build().unwrap();
    for case in cases().iter().filter(|c| !has_scheme(c)) {
        assert!(links(&ex, &case.input).is_empty(), "line {}", case.line);
    }
}

#[test]
fn expected_differences_are_argued_and_present() {
    let inputs: Vec<String> = cases().into_iter().map(|c| c.input).collect();
    for e in SCHEME_EXPECTED.iter().chain(NO_SCHEME_EXPECTED) {
        assert!(inputs.iter().any(|i| i == e.input), "{}", e.input);
        assert!(e.reason.len() > 40);
    }
}

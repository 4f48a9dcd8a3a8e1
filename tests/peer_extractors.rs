//! Other URL finders' test suites run through urlx's library API:
//! twitter-text's conformance files, robinst/linkify's tests and
//! URLExtract's tests (copies in tests/data/peer/, provenance in
//! tests/data/README.md). Each case is compared with what urlx prints
//! (the hits with a `Hit::usable` form, at their offsets in the input);
//! where urlx
//! deliberately differs, a row of the suite's table below gives the
//! input and the rule that decides it. A case that differs without a
//! row fails the test, and so does a row whose case passes (or that
//! names no case), so the tables stay true. Each suite's total of
//! cases is asserted, so that a parsing slip that drops cases fails too;
//! `cargo test peer_extractors -- --nocapture` prints the counts (cases,
//! passes, expected differences by reason).
//!
//! Which urlx mode runs what:
//!
//! * **twitter-text** `extract.yml`: the URL groups (`urls`,
//!   `urls_with_indices`, `urls_with_directional_markers`,
//!   `tco_urls_with_params`) with `domains`, since Twitter links bare
//!   domain names with known TLDs; indices count code points. Mentions,
//!   replies, hashtags and cashtags are Twitter's own entities, not
//!   URLs, and are not run. `validate.yml`: `urls` in the default mode,
//!   `urls_without_protocol` with `domains`; a text is a valid URL for
//!   urlx when it finds one hit that covers the whole text and is
//!   valid as written (RFC 3986 and the scheme's rules). Its other
//!   groups count tweet lengths and check usernames, lists and
//!   hashtags. `tlds.yml`: in the default mode, as every case is
//!   `https://twitter.<tld>`: a check that hosts in every script
//!   (`twitter.한국`, `twitter.ελ`, `twitter.भारत`) are delimited whole;
//!   with the scheme written, urlx's public suffix list plays no part.
//!   `autolink.yml` tests Twitter's HTML markup around the same links
//!   and is not used.
//! * **robinst/linkify**: `url.rs`'s default `LinkFinder` finds URLs
//!   with a scheme and e-mail addresses: urlx with `emails`;
//!   `url_must_have_scheme(false)` with only URLs: `domains`; with
//!   e-mail addresses too (`domains.rs`): `domains` and `emails`;
//!   `email.rs` (e-mail addresses only): `emails`. `url_can_be_iri` and
//!   `email_domain_must_have_dot` have no urlx counterpart: those cases
//!   run in the mode their other options give and differ where the
//!   option matters. The expected text marks links with `|...|`, and
//!   urlx's links are marked the same way.
//! * **URLExtract** finds bare domain names by its TLD list:
//!   `find_urls` runs with `domains`, `with_schema_only=True` in the
//!   default mode, `extract_email = True` adds `emails`. Its host
//!   filters (`permit_list`, `ignore_list`, `extract_localhost = False`,
//!   `allow_mixed_case_hostname = False`), which drop a found URL by
//!   its host, are applied to urlx's hits the same way, and
//!   `only_unique=True` keeps the first of equal strings. Cases that
//!   need DNS, test a private helper or a limit of URLs per text, or
//!   set an option that changes where URLExtract looks for a scheme are
//!   not run, each counted under its reason (`NEEDS_DNS`,
//!   `PRIVATE_HELPER`, `URL_LIMIT`, `SCHEME_STOP_CHARS`).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use serde_json::Value;
use urlx::validate::Uri;
use urlx::{Extractor, Hit};
use yaml_rust2::{Yaml, YamlLoader};

/// Why urlx differs from a peer on some cases.
struct Reason {
    /// A short name for the counts printed.
    name: &'static str,
    /// The argument, with the rule or section that decides it.
    text: &'static str,
}

/// A case where urlx deliberately differs: its group (the test
/// function or YAML group), its input, and why.
struct Differ {
    group: &'static str,
    input: &'static str,
    reason: &'static Reason,
}

/// The options a case runs with.
#[derive(Clone, Copy, Debug)]
struct Mode {
    domains: bool,
    emails: bool,
}

const DEFAULT: Mode = Mode { domains: false, emails: false };
const DOMAINS: Mode = Mode { domains: true, emails: false };
const EMAILS: Mode = Mode { domains: false, emails: true };
const BOTH: Mode = Mode { domains: true, emails: true };

/// One extractor per mode, built once per test.
struct Extractors([Extractor; 4]);

impl Extractors {
    fn new() -> Extractors {
        let build = |m: Mode| {
            Extractor::builder()
                .domains(m.domains)
                .emails(m.emails)
                .build()
                .unwrap()
        };
        Extractors([
            build(DEFAULT),
            build(DOMAINS),
            build(EMAILS),
            build(BOTH),
        ])
    }

    fn get(&self, m: Mode) -> &Extractor {
        &self.0[usize::from(m.domains) + 2 * usize::from(m.emails)]
    }

    /// The hits urlx prints for `input`.
    fn hits(&self, m: Mode, input: &str) -> Vec<Hit> {
        let mut hits = self.get(m).find(input.as_bytes());
        hits.retain(|h| h.usable().is_some());
        hits
    }
}

fn span(h: &Hit) -> Range<usize> {
    h.start() as usize..h.end() as usize
}

/// The code point offsets of a byte range, as twitter-text's
/// conformance files and Python's strings count.
fn char_span(input: &str, r: &Range<usize>) -> [usize; 2] {
    let count = |b: usize| input[..b].chars().count();
    [count(r.start), count(r.end)]
}

/// A case run: where it differs from the peer's expectation, what urlx
/// gave.
struct Outcome {
    group: String,
    input: String,
    diff: Option<String>,
}

impl Outcome {
    fn new<T: PartialEq + std::fmt::Debug>(
        group: &str,
        input: &str,
        want: T,
        got: T,
    ) -> Outcome {
        let diff = (want != got)
            .then(|| format!("\n    want {want:?}\n    got  {got:?}"));
        Outcome { group: group.to_string(), input: input.to_string(), diff }
    }
}

/// Compare the outcomes of one suite with its table: print the counts,
/// and fail on a difference without a row, a row whose case passes, and
/// a row that names no case.
fn judge(suite: &str, outcomes: &[Outcome], table: &[Differ]) {
    let mut problems = Vec::new();
    let mut by_reason: BTreeMap<&str, usize> = BTreeMap::new();
    let mut used = vec![false; table.len()];
    let mut pass = 0;
    for o in outcomes {
        let row = table
            .iter()
            .position(|d| d.group == o.group && d.input == o.input);
        if let Some(i) = row {
            used[i] = true;
        }
        match (&o.diff, row) {
            (None, None) => pass += 1,
            (Some(_), Some(i)) => {
                *by_reason.entry(table[i].reason.name).or_default() += 1
            }
            (None, Some(_)) => problems
                .push(format!("UNEXPECTED PASS [{}] {:?}", o.group, o.input)),
            (Some(d), None) => problems.push(format!(
                "UNEXPECTED DIFFERENCE [{}] {:?}{d}",
                o.group, o.input
            )),
        }
    }
    for (d, used) in table.iter().zip(used) {
        if !used {
            problems.push(format!(
                "ROW NAMES NO CASE [{}] {:?}",
                d.group, d.input
            ));
        }
    }
    let expected: usize = by_reason.values().sum();
    eprintln!(
        "{suite}: {} cases, {pass} pass, {expected} expected differences \
         {by_reason:?}",
        outcomes.len()
    );
    assert!(problems.is_empty(), "{suite}:\n{}", problems.join("\n"));
}

// ---------------------------------------------------------------------
// twitter-text

fn yaml_tests(text: &str) -> Yaml {
    let mut docs = YamlLoader::load_from_str(text).expect("valid YAML");
    docs.remove(0)["tests"].clone()
}

/// The group names of a conformance file, in order.
fn groups(tests: &Yaml) -> Vec<&str> {
    let hash = tests.as_hash().expect("tests is a mapping");
    hash.keys().map(|k| k.as_str().expect("group name")).collect()
}

fn cases<'y>(tests: &'y Yaml, group: &str) -> &'y [Yaml] {
    tests[group].as_vec().expect("a group is a list")
}

fn text(case: &Yaml) -> &str {
    case["text"].as_str().expect("text")
}

/// The URL strings of an `expected` list (`~` or empty for none).
fn strings(expected: &Yaml) -> Vec<String> {
    match expected {
        Yaml::Null => Vec::new(),
        Yaml::Array(a) => a
            .iter()
            .map(|u| u.as_str().expect("URL string").to_string())
            .collect(),
        other => panic!("expected a list: {other:?}"),
    }
}

const EXTRACT_URL_GROUPS: &[&str] = &[
    "urls",
    "urls_with_indices",
    "urls_with_directional_markers",
    "tco_urls_with_params",
];

const EXTRACT_OTHER_GROUPS: &[&str] = &[
    "mentions",
    "mentions_with_indices",
    "mentions_or_lists_with_indices",
    "replies",
    "hashtags",
    "hashtags_from_astral",
    "hashtags_with_indices",
    "cashtags",
    "cashtags_with_indices",
];

#[test]
fn twitter_text_extract() {
    let tests = yaml_tests(include_str!("data/peer/twitter-text/extract.yml"));
    let all: BTreeSet<&str> = EXTRACT_URL_GROUPS
        .iter()
        .chain(EXTRACT_OTHER_GROUPS)
        .copied()
        .collect();
    assert_eq!(groups(&tests).into_iter().collect::<BTreeSet<_>>(), all);
    let ex = Extractors::new();
    let mut outcomes = Vec::new();
    for &group in EXTRACT_URL_GROUPS {
        for case in cases(&tests, group) {
            let input = text(case);
            let links: Vec<Range<usize>> =
                ex.hits(DOMAINS, input).iter().map(span).collect();
            let expected = &case["expected"];
            let with_indices = expected
                .as_vec()
                .is_some_and(|a| a.iter().any(|e| e.as_hash().is_some()));
            let outcome = if with_indices {
                let want: Vec<(String, [usize; 2])> = expected
                    .as_vec()
                    .unwrap()
                    .iter()
                    .map(|e| {
                        let i = e["indices"].as_vec().expect("indices");
                        let n = |k: usize| i[k].as_i64().unwrap() as usize;
                        (e["url"].as_str().unwrap().to_string(), [n(0), n(1)])
                    })
                    .collect();
                let got = links
                    .iter()
                    .map(|r| {
                        (input[r.clone()].to_string(), char_span(input, r))
                    })
                    .collect();
                Outcome::new(group, input, want, got)
            } else {
                let got = links
                    .iter()
                    .map(|r| input[r.clone()].to_string())
                    .collect();
                Outcome::new(group, input, strings(expected), got)
            };
            outcomes.push(outcome);
        }
    }
    assert_eq!(outcomes.len(), 108, "URL cases of extract.yml");
    judge("twitter-text extract.yml", &outcomes, TWITTER_EXTRACT);
}

const VALIDATE_OTHER_GROUPS: &[&str] = &[
    "tweets",
    "usernames",
    "lists",
    "hashtags",
    "WeightedTweetsCounterTest",
    "WeightedTweetsWithDiscountedEmojiCounterTest",
    "UnicodeDirectionalMarkerCounterTest",
];

#[test]
fn twitter_text_validate() {
    let tests =
        yaml_tests(include_str!("data/peer/twitter-text/validate.yml"));
    let url_groups = [("urls", DEFAULT), ("urls_without_protocol", DOMAINS)];
    let all: BTreeSet<&str> = url_groups
        .iter()
        .map(|g| g.0)
        .chain(VALIDATE_OTHER_GROUPS.iter().copied())
        .collect();
    assert_eq!(groups(&tests).into_iter().collect::<BTreeSet<_>>(), all);
    let ex = Extractors::new();
    let mut outcomes = Vec::new();
    for (group, mode) in url_groups {
        for case in cases(&tests, group) {
            let input = text(case);
            let want = case["expected"].as_bool().expect("true or false");
            // All hits, printed or not: one that covers the text and is
            // valid as written.
            let hits = ex.get(mode).find(input.as_bytes());
            let got = matches!(&hits[..], [h] if span(h) == (0..input.len())
                && h.is_valid());
            outcomes.push(Outcome::new(group, input, want, got));
        }
    }
    assert_eq!(outcomes.len(), 29, "URL cases of validate.yml");
    judge("twitter-text validate.yml", &outcomes, TWITTER_VALIDATE);
}

#[test]
fn twitter_text_tlds() {
    let tests = yaml_tests(include_str!("data/peer/twitter-text/tlds.yml"));
    assert_eq!(groups(&tests), ["country", "generic"]);
    let ex = Extractors::new();
    let mut outcomes = Vec::new();
    for group in ["country", "generic"] {
        for case in cases(&tests, group) {
            let input = text(case);
            let got: Vec<String> = ex
                .hits(DEFAULT, input)
                .iter()
                .map(|h| input[span(h)].to_string())
                .collect();
            outcomes.push(Outcome::new(
                group,
                input,
                strings(&case["expected"]),
                got,
            ));
        }
    }
    assert_eq!(outcomes.len(), 1574, "cases of tlds.yml");
    judge("twitter-text tlds.yml", &outcomes, TWITTER_TLDS);
}

// ---------------------------------------------------------------------
// robinst/linkify

/// The urlx mode for a linkify test helper and its finder options.
fn linkify_mode(file: &str, helper: &str, config: Option<&Value>) -> Mode {
    match (file, helper) {
        ("url", "assert_linked" | "assert_not_linked") => EMAILS,
        (
            "url",
            "assert_urls_without_protocol"
            | "assert_not_linked_without_protocol",
        ) => DOMAINS,
        ("email", "assert_linked" | "assert_not_linked") => EMAILS,
        ("domains", "assert_linked" | "assert_not_linked") => BOTH,
        (_, "assert_linked_with") => {
            // LinkFinder::new(): a scheme required, URLs and e-mail
            // addresses; then the options listed.
            let mut mode = EMAILS;
            let options = config.and_then(Value::as_array).expect("options");
            for option in options {
                match option.as_str().expect("option") {
                    "url_must_have_scheme(false)" => mode.domains = true,
                    "url_must_have_scheme(true)" => mode.domains = false,
                    "kinds(&[LinkKind::Url])" => mode.emails = false,
                    // urlx finds URLs with a scheme in every mode; the
                    // inputs of `email.rs` hold none (checked below).
                    "kinds(&[LinkKind::Email])" => mode.emails = true,
                    // No urlx counterpart: see the table's rows.
                    "url_can_be_iri(false)"
                    | "email_domain_must_have_dot(false)" => {}
                    other => panic!("unknown linkify option {other}"),
                }
            }
            mode
        }
        _ => panic!("unknown linkify helper {file} {helper}"),
    }
}

/// `input` with each link between `|` (linkify's `show_links`).
fn show_links(input: &str, links: &[Range<usize>]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for r in links {
        out.push_str(&input[at..r.start]);
        out.push('|');
        out.push_str(&input[r.clone()]);
        out.push('|');
        at = r.end;
    }
    out.push_str(&input[at..]);
    out
}

#[test]
fn robinst_linkify() {
    let ex = Extractors::new();
    let mut outcomes = Vec::new();
    for line in
        include_str!("data/peer/robinst-linkify/linkify_cases.jsonl").lines()
    {
        let v: Value = serde_json::from_str(line).expect("JSON line");
        let field = |k: &str| v[k].as_str().expect(k);
        let file = field("file")
            .strip_prefix("tests/")
            .and_then(|f| f.strip_suffix(".rs"))
            .expect("tests/NAME.rs");
        let mode = linkify_mode(file, field("helper"), v.get("finder_config"));
        let input = field("input");
        if file == "email" {
            assert!(!input.contains("://") && !input.contains("mailto:"));
        }
        let links: Vec<Range<usize>> =
            ex.hits(mode, input).iter().map(span).collect();
        let group = format!("{file}::{}", field("test_fn"));
        outcomes.push(Outcome::new(
            &group,
            input,
            field("expected").to_string(),
            show_links(input, &links),
        ));
    }
    assert_eq!(outcomes.len(), 333, "linkify cases");
    judge("robinst/linkify", &outcomes, LINKIFY);
}

// ---------------------------------------------------------------------
// URLExtract

/// What a URLExtract case asserts.
enum Call {
    /// `find_urls`, with `only_unique` or not.
    Find { unique: bool },
    /// `find_urls(text, get_indices=True)`.
    FindIndices,
    /// `has_urls(text, with_schema_only=...)`.
    HasUrls,
}

/// A URLExtract option that drops a URL by its host after it was found
/// (`_is_domain_valid`).
enum HostFilter {
    Permit(Vec<String>),
    Ignore(Vec<String>),
    NoLocalhost,
    NoMixedCase,
}

/// The items of a Python set literal of strings: `{'a', 'b'}`.
fn python_set(s: &str) -> Vec<String> {
    let inner = s.trim().strip_prefix('{').and_then(|s| s.strip_suffix('}'));
    inner
        .expect("a set literal")
        .split(',')
        .map(|item| item.trim().trim_matches('\'').to_string())
        .collect()
}

/// The host of a hit as URLExtract sees it: of the URL, of its
/// `http://` form for a bare domain, after the `@` of an address.
fn host_as_written(h: &Hit) -> String {
    let url = h.resolved().unwrap_or(h.url());
    match url.strip_prefix("mailto:") {
        Some(addr) => addr.rsplit('@').next().unwrap_or("").to_string(),
        None => Uri::parse(url).host().unwrap_or("").to_string(),
    }
}

impl HostFilter {
    fn keeps(&self, h: &Hit) -> bool {
        let host = host_as_written(h);
        let lower = host.to_lowercase();
        match self {
            HostFilter::Permit(list) => list.contains(&lower),
            HostFilter::Ignore(list) => !list.contains(&lower),
            HostFilter::NoLocalhost => lower != "localhost",
            HostFilter::NoMixedCase => {
                let letters = || host.chars().filter(|c| c.is_alphabetic());
                letters().all(char::is_lowercase)
                    || letters().all(char::is_uppercase)
            }
        }
    }
}

/// Why a URLExtract case is not run.
const NEEDS_DNS: Reason = Reason {
    name: "needs DNS",
    text: "checks that the host resolves in the DNS; urlx does no network \
        I/O, and the expected result is what a resolver answered",
};

const PRIVATE_HELPER: Reason = Reason {
    name: "private helper",
    text: "tests `_get_tld_pos`, a private helper of URLExtract's TLD \
        matching, not what it extracts",
};

const URL_LIMIT: Reason = Reason {
    name: "limit of URLs",
    text: "a row holding a value of the `limit` parameter and no text, or \
        the error raised above a limit of URLs per text, which urlx does \
        not have",
};

const SCHEME_STOP_CHARS: Reason = Reason {
    name: "scheme stop characters",
    text: "sets the characters at which URLExtract stops looking left for a \
        scheme (`+`, so that `svn+ssh` gives `ssh`); urlx reads a scheme \
        as RFC 3986 3.1 writes it, `+` included, and has no such option",
};

/// How a URLExtract case runs: what it asserts, in which mode, with
/// which host filters, and whether it sets a limit of URLs per text.
struct Plan {
    call: Call,
    mode: Mode,
    filters: Vec<HostFilter>,
    limited: bool,
}

/// The plan of a URLExtract case from its assert and setup lines, or
/// why it is not run.
fn plan(v: &Value) -> Result<Plan, &'static Reason> {
    let [assert] = v["asserts"].as_array().unwrap().as_slice() else {
        panic!("one assert per case: {v}");
    };
    let mut mode = DOMAINS;
    let call = match assert.as_str().unwrap() {
        "assert urlextract.find_urls(text) == expected" => {
            Call::Find { unique: false }
        }
        "assert urlextract.find_urls(text, only_unique=True) == expected" => {
            Call::Find { unique: true }
        }
        "assert urlextract.find_urls(text, get_indices=True) == expected" => {
            Call::FindIndices
        }
        "assert urlextract.find_urls(text, with_schema_only=True) == \
         expected" => {
            mode = DEFAULT;
            Call::Find { unique: false }
        }
        "assert urlextract.has_urls(text, with_schema_only=with_schema) \
         is expected" => {
            if v["params"]["with_schema"].as_bool().unwrap() {
                mode = DEFAULT;
            }
            Call::HasUrls
        }
        "assert urlextract.find_urls(text, check_dns=True) == expected" => {
            return Err(&NEEDS_DNS);
        }
        "assert urlextract._get_tld_pos(url, tld) == expected" => {
            return Err(&PRIVATE_HELPER);
        }
        "assert e.data == expected" => return Err(&URL_LIMIT),
        other => panic!("unknown assert {other}"),
    };
    let mut filters = Vec::new();
    let mut limited = false;
    for setup in v["setup"].as_array().unwrap() {
        let setup = setup.as_str().unwrap();
        if let Some(set) = setup.strip_prefix("urlextract.permit_list = ") {
            filters.push(HostFilter::Permit(python_set(set)));
            continue;
        }
        if let Some(set) = setup.strip_prefix("urlextract.ignore_list = ") {
            filters.push(HostFilter::Ignore(python_set(set)));
            continue;
        }
        match setup {
            "urlextract.extract_email = True" => mode.emails = true,
            "urlextract.extract_localhost = False" => {
                filters.push(HostFilter::NoLocalhost)
            }
            "urlextract.allow_mixed_case_hostname = False" => {
                filters.push(HostFilter::NoMixedCase)
            }
            // A limit of 2 URLs or none; no text of these holds more
            // than two (checked by the caller).
            "urlextract._limit = limit" | "urlextract._limit = 2" => {
                limited = true
            }
            "stop_chars = urlextract.get_stop_chars_left_from_scheme() | \
             {'+'}" => return Err(&SCHEME_STOP_CHARS),
            other => panic!("unknown setup {other}"),
        }
    }
    // A row without text holds a value of the `limit` parameter.
    if v["params"]["text"].as_str().is_none() {
        return Err(&URL_LIMIT);
    }
    Ok(Plan { call, mode, filters, limited })
}

#[test]
fn urlextract() {
    let ex = Extractors::new();
    let mut outcomes = Vec::new();
    let mut not_run: BTreeMap<&str, usize> = BTreeMap::new();
    for line in
        include_str!("data/peer/urlextract/urlextract_cases.jsonl").lines()
    {
        let v: Value = serde_json::from_str(line).expect("JSON line");
        let file = v["file"].as_str().expect("file");
        let file = file
            .strip_prefix("tests/unit/")
            .and_then(|f| f.strip_suffix(".py"))
            .expect("tests/unit/NAME.py");
        let group = format!("{file}::{}", v["test_fn"].as_str().unwrap());
        let plan = match plan(&v) {
            Ok(plan) => plan,
            Err(reason) => {
                assert!(reason.text.len() > 60, "argue {}", reason.name);
                *not_run.entry(reason.name).or_default() += 1;
                continue;
            }
        };
        let input = v["params"]["text"].as_str().unwrap();
        let expected = &v["params"]["expected"];
        let mut hits = ex.hits(plan.mode, input);
        hits.retain(|h| plan.filters.iter().all(|f| f.keeps(h)));
        let found = |h: &Hit| input[span(h)].to_string();
        let outcome = match plan.call {
            Call::Find { unique } => {
                let want: Vec<String> =
                    serde_json::from_value(expected.clone())
                        .expect("a list of URLs");
                assert!(!plan.limited || want.len() <= 2, "{input}");
                let mut got: Vec<String> = hits.iter().map(found).collect();
                if unique {
                    let mut seen = BTreeSet::new();
                    got.retain(|s| seen.insert(s.clone()));
                }
                Outcome::new(&group, input, want, got)
            }
            Call::FindIndices => {
                let want: Vec<(String, [usize; 2])> =
                    serde_json::from_value(expected.clone())
                        .expect("a list of URLs with indices");
                let got = hits
                    .iter()
                    .map(|h| (found(h), char_span(input, &span(h))))
                    .collect();
                Outcome::new(&group, input, want, got)
            }
            Call::HasUrls => Outcome::new(
                &group,
                input,
                expected.as_bool().expect("true or false"),
                !hits.is_empty(),
            ),
        };
        outcomes.push(outcome);
    }
    eprintln!("URLExtract: not run {not_run:?}");
    let not_run_total: usize = not_run.values().sum();
    assert_eq!(outcomes.len() + not_run_total, 172, "URLExtract cases");
    let expected_not_run = [
        (NEEDS_DNS.name, 3),
        (PRIVATE_HELPER.name, 4),
        (URL_LIMIT.name, 3),
        (SCHEME_STOP_CHARS.name, 3),
    ];
    assert_eq!(not_run, BTreeMap::from(expected_not_run));
    judge("URLExtract", &outcomes, URLEXTRACT);
}

// ---------------------------------------------------------------------
// The expected differences

// Delimiting: where a URL ends in text.

const BINARY: Reason = Reason {
    name: "binary input",
    text: "a NUL byte makes the input binary, and `Extractor::find` skips \
        binary input as the command-line tool skips binary files (README \
        \"Using it\"; DESIGN.md \"What counts as a URL\" item 6); with `binary(true)` (`-a`) urlx \
        gives linkify's answer, the URL ending at the control character",
};

const PIPE: Reason = Reason {
    name: "| stays inside",
    text: "`|` is Link_Term Include in UTS #58 and stays inside a URL \
        (DESIGN.md 'What counts as a URL' item 4); RFC 3986 excludes it, so urlx prints it \
        percent-encoded, `%7C`, as browsers send it (policy item 8)",
};

const APOSTROPHE_SOFT: Reason = Reason {
    name: "' is Soft",
    text: "`'` is Link_Term Soft in UTS #58: inside a URL when an Include \
        character follows (`it's`, `'_(foo)`), dropped at its end however \
        it pairs (`a'b'` gives `a'b`); UTS #58 pairs brackets \
        (Link_Bracket), not quotes, and urlx follows it (DESIGN.md \
        \"What counts as a URL\" item 4); linkify pairs quotes",
};

const QUOTE_BEFORE_LETTER: Reason = Reason {
    name: "\" before a letter",
    text: "a `\"` followed by a letter or digit stays inside the URL (UTS #58 \
        Link_Term Soft), one followed by anything else ends it, as a JSON \
        or CSV string closes there (DESIGN.md 'What counts as a URL' item 4, abbrev rule 13); \
        RFC 3986 excludes `\"`, so urlx prints it as `%22` (policy item 8)",
};

const STAR: Reason = Reason {
    name: "* stays inside",
    text: "`*` is a sub-delim, allowed in a reg-name and a path (RFC 3986 \
        3.2.2, 3.3), and Link_Term Include in UTS #58, so it may end a URL; \
        urlx drops a final `*` only as the Markdown emphasis opened before \
        the URL (DESIGN.md 'What counts as a URL' item 4: `*http://a.example/x*`)",
};

const OPENER_KEPT: Reason = Reason {
    name: "bare domain keeps a final opener",
    text: "in a bare domain's path urlx follows abbrev rule 13 (UTS #58 \
        Link_Bracket): an Open bracket is pushed and kept, only a Close \
        bracket without its opener ends the link, so a final `(` stays; \
        with a scheme the final opener is trimmed (DESIGN.md 'What counts as a URL' item 4)",
};

const BRACKETS: Reason = Reason {
    name: "brackets pair",
    text: "brackets pair inside a URL and a closing one without its opener \
        ends it (UTS #58 Link_Bracket, DESIGN.md 'What counts as a URL' item 4): \
        `/{file.pdf}` keeps its pair, `/blah)o(blah` ends before the `)`; \
        URLExtract strips its enclosures by position instead",
};

const APOSTROPHE_ENDS_HOST: Reason = Reason {
    name: "' ends the host",
    text: "a `'` ends a URL's host (delimit rule 5: it closes quotes in text \
        and starts a possessive, `http://example.com's page`) unless an `@` \
        and a host follow it in the authority (userinfo, RFC 3986 3.2.1); \
        so `test://123'456` is `test://123`, and in `https://a.com'https:\
        //b.com` both URLs are found, the second starting on its own \
        (DESIGN.md 'What counts as a URL' item 1), where linkify drops the first",
};

const CJK_RUN: Reason = Reason {
    name: "CJK text without spaces",
    text: "urlx reads a bare domain as the whole run of host characters \
        around its full stops (abbrev rules 10 and 11: letters of every \
        script are UTS #58 Include, `。` is a full stop, UTS #46), cut only \
        where CJK text directly follows a name with a public suffix (rule \
        4) or is glued before an ASCII first label (rule 11); and a path goes on \
        through letters and Soft punctuation followed by letters (UTS #58, \
        DESIGN.md \"Where UTS #58 and urlx part\"). Twitter ends a name where \
        the script changes after a TLD it knows, which urlx has no way to \
        tell in `twitter.みんなです`",
};

const IRI_HOST_LETTERS: Reason = Reason {
    name: "letters stay in a host",
    text: "letters of every script are part of a host (RFC 3987 2.2 \
        ireg-name, UTS #58 Include, DESIGN.md \"IRIs\"), so \
        `example.comだよね.comtest` is one host; Twitter ends a host after \
        an ASCII top-level domain it knows",
};

const BIDI: Reason = Reason {
    name: "bidi controls",
    text: "UTS #58 gives U+202A..U+202E and U+2066..U+2069 (the bidi \
        embeddings and isolates) Link_Term Include (LinkTerm.txt 17.0), so \
        they stay inside a URL, and urlx prints them percent-encoded \
        (DESIGN.md 'What counts as a URL' item 8); Twitter strips them",
};

const TWITTER_ENTITY: Reason = Reason {
    name: "Twitter entities",
    text: "`#`, `@` and `$` start Twitter's hashtags, mentions and cashtags, \
        which a tweet's text gives a meaning that mail and plain text do \
        not: urlx finds the URL after them (DESIGN.md 'What counts as a URL' item 1), and a \
        domain after `#` or `$` (abbrev rule 11 excludes only `@ / \\ : %` \
        before a name); after `@` a name is an address's domain (rule 8)",
};

const T_CO: Reason = Reason {
    name: "t.co slugs",
    text: "Twitter knows its shortener's slugs (ASCII letters and digits, \
        at most 40) and cuts there; urlx has no rule for one host: by UTS \
        #58 `'s` continues a path (Soft before a letter), `-` and `+c` are \
        Include, and RFC 3986 sets no length for a path",
};

// Validity: what counts as a URL.

const IRI_ALWAYS: Reason = Reason {
    name: "IRIs always read",
    text: "linkify's `url_can_be_iri(false)` reads only ASCII URIs; urlx \
        always reads IRIs, letters and symbols of every script in the \
        host, path, query and fragment (RFC 3987 2.2, DESIGN.md \"IRIs\"), and \
        has no ASCII-only mode (`--ascii` converts what it prints, RFC \
        3987 3.1)",
};

const FILE_NEEDS_PATH: Reason = Reason {
    name: "file URI without path",
    text: "RFC 8089 section 2: file-hier-part = \"//\" auth-path, auth-path \
        = [ file-auth ] path-absolute, so a file URI with an authority \
        needs an absolute path; `file://somefile` has none, which the file \
        scheme's rules refuse (DESIGN.md \"The schemes' own rules\")",
};

const NO_TLD_LIST: Reason = Reason {
    name: "no TLD list with a scheme",
    text: "with a scheme, urlx checks the host by RFC 3986 3.2.2 and RFC \
        1123 2.1 (DESIGN.md 'What counts as a URL' item 7) and keeps no list of top-level \
        domains: `http://no-tld` is as valid as `http://localhost/`, and \
        `com-that-you-should-have-put-a-space-after` is a valid label",
};

const UNDERSCORE: Reason = Reason {
    name: "_ in a host",
    text: "`_` is unreserved (RFC 3986 2.3) and allowed in a reg-name \
        (3.2.2), and DNS labels may hold it (RFC 2181 section 11, \
        `_dmarc.example.com` of RFC 8552); urlx's http host rule refuses \
        only empty labels and `-` at a label's ends (RFC 1123 2.1, DESIGN.md \
        \"What counts as a URL\" item 7) and keeps no list of top-level domains; Twitter \
        refuses `_` outside subdomains",
};

const PUNYCODE_HOST: Reason = Reason {
    name: "bad xn-- label warned",
    text: "`xn--はじめよう` fits RFC 3987's ireg-name, so the URL is valid \
        and printed, with the warning `punycode-host` (DESIGN.md \
        \"Warnings\": not valid Punycode, RFC 3492), as urlx reports \
        suspicious hosts rather than hiding them from whoever reads mail",
};

const PCT_HOST: Reason = Reason {
    name: "percent-encoded host",
    text: "RFC 3986 3.2.2 allows pct-encoded octets in a reg-name and names \
        UTF-8 as their encoding for non-ASCII names: `%e2%98%83.net` is \
        `☃.net` written as a URI, valid",
};

const NUMERIC_REG_NAME: Reason = Reason {
    name: "dotted numbers as reg-name",
    text: "a dotted name of digits that is no IPv4address (`256.1.2.3`, \
        `192.1.1`, `12-7.0.0.1`) is a reg-name by RFC 3986 3.2.2 (a host \
        is an IPv4 address literal only when it matches IPv4address), \
        which is valid; urlx flags the all-numeric ones with the warning \
        `numeric-host` (DESIGN.md \"Warnings\"), as browsers read `192.1.1` as \
        192.1.0.1",
};

const IP_LITERAL: Reason = Reason {
    name: "IPv4 in brackets",
    text: "RFC 3986 3.2.2: IP-literal = \"[\" ( IPv6address / IPvFuture ) \
        \"]\"; `[192.168.1.1]` is neither, the URL is invalid, and urlx \
        never repairs a host (DESIGN.md 'What counts as a URL' item 8) where URLExtract \
        reports the address alone",
};

const HOST_NOT_REPAIRED: Reason = Reason {
    name: "host not repaired",
    text: "`https://example.com-/` has the host `example.com-`, whose last \
        label ends with `-` (RFC 1123 2.1, RFC 1034 3.5): invalid, and \
        urlx never repairs a host by cutting it (DESIGN.md 'What counts as a URL' items 7, 8 \
        and 10); a `-` after a host is trimmed only where the URL ends \
        there (delimit rule 5)",
};

const OTHER_SCHEMES: Reason = Reason {
    name: "every scheme",
    text: "Twitter's validator accepts only http and https; for urlx any \
        scheme is valid by RFC 3986 3.1, and `ftp://www.example.com/` \
        also meets the ftp rules (RFC 1738 3.2, DESIGN.md \"The schemes' own \
        rules\")",
};

const NETWORK_PATH: Reason = Reason {
    name: "network-path reference",
    text: "`//www.example.com/somejsfile.js` is a network-path reference \
        (RFC 3986 4.2), a relative reference that is no URL without a \
        base (DESIGN.md 'What counts as a URL' item 9), and a name after `/` is a path, not a \
        bare domain (abbrev rule 11)",
};

const GLUED_SCHEME: Reason = Reason {
    name: "scheme after ^",
    text: "`^` cannot be part of a scheme (RFC 3986 3.1), so \
        `^https://gitlab.com`, a URL after a regular expression's anchor, \
        holds the URL `https://gitlab.com` as any text would (DESIGN.md \
        \"What counts as a URL\" item 1); URLExtract drops a URL after `^`",
};

// Forms without a scheme: bare domains and e-mail addresses.

const BARE_IPV4: Reason = Reason {
    name: "no bare IP address",
    text: "a bare domain must be a host name ending in an ICANN public \
        suffix (abbrev rule 12, DESIGN.md `--domains`), so a bare IPv4 \
        address (`1.0.0.0`) gives no link: dotted numbers in text are \
        versions, OIDs and addresses more often than links",
};

const TITLE_CASE_TLD: Reason = Reason {
    name: "title-case TLD",
    text: "a top-level label in title case is no domain (abbrev rule 12): \
        `outside.In`, `nowhere.My` are sentences joined without a space, \
        and domain names are written in one case or with a capital only \
        at the start of their labels before the last",
};

const AFTER_BACKSLASH: Reason = Reason {
    name: "name after \\",
    text: "a name after `\\` is no bare domain (abbrev rule 11): it is a \
        UNC path (`\\\\host.example.com\\share`) or an escape, and urlx \
        ends every URL at `\\` (DESIGN.md 'What counts as a URL' item 4)",
};

const HOST_SYMBOLS: Reason = Reason {
    name: "symbols in a host",
    text: "a bare domain's host is the run of ASCII letters, digits, `-`, \
        `_`, full stops and non-ASCII characters of Link_Term Include \
        (abbrev rule 11); U+2027 HYPHENATION POINT is Include, so \
        `some‧domain.example.com` is one host; URLExtract stops at it",
};

const EMAIL_ENDS_AT_DOMAIN: Reason = Reason {
    name: "address ends at its domain",
    text: "an address ends with its domain (UTS #58, abbrev rule 8): \
        `jan@example.com/asdasd`, `?not` and `#not` give \
        `jan@example.com`, while `jan@example.com:1234` is an scp-style \
        location and no address (rule 8); URLExtract refuses an address \
        that anything but a delimiter follows",
};

const EMAIL_LEADING_PUNCT: Reason = Reason {
    name: "leading punctuation dropped",
    text: "urlx drops ASCII punctuation other than `.` at the start of a \
        local part (abbrev rule 6: quotes, brackets and emphasis around \
        an address, `'joe@a.com'`), and `/` and `?` end a URL's path or \
        query before it, so `#!$%&'*+-/=?^_`{}|~@example.org` leaves an \
        empty local part and no address, though RFC 5322 atext allows it",
};

const EMAIL_AFTER_COLON: Reason = Reason {
    name: "address after :",
    text: "no address follows `:` but after a label that names one (abbrev \
        rule 7: `mailto:`, `sip:joe@a.com` and `IDENT:root@host` are URLs \
        or idents; `Email:`, `To:`, `URL:` are labels)",
};

const EMAIL_DOT_ATOM: Reason = Reason {
    name: "local part is a dot-atom",
    text: "a local part must be an RFC 5322 3.4.1 dot-atom-text, as UTS #58 \
        also requires (abbrev rule 6): `.foo@`, `a..b@` are no addresses, \
        and urlx does not cut the text to make one, where linkify links \
        what follows the dots",
};

const EMAIL_PUBLIC_SUFFIX: Reason = Reason {
    name: "address domain has a public suffix",
    text: "an address's domain must end in an ICANN public suffix (abbrev \
        rule 8): `a@b`, `user@localhost` and `a@a.xyϸ` give nothing; \
        linkify's `email_domain_must_have_dot(false)` has no urlx \
        counterpart",
};

const LINKIFY: &[Differ] = &[
    Differ {
        group: "url::authority",
        input: "file://somefile",
        reason: &FILE_NEEDS_PATH,
    },
    Differ {
        group: "url::illegal_characters_stop_url",
        input: "http://example.org/\0",
        reason: &BINARY,
    },
    Differ {
        group: "url::illegal_characters_stop_url",
        input: "http://example.org/foo|bar",
        reason: &PIPE,
    },
    Differ {
        group: "url::illegal_characters_stop_url_without_protocol",
        input: "example.org/\0",
        reason: &BINARY,
    },
    Differ {
        group: "url::matching_punctuation",
        input: "http://example.org/a'b'",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::matching_punctuation_without_protocol",
        input: "example.org/a'b'",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::matching_punctuation_tricky_without_protocol",
        input: "example.org/(",
        reason: &OPENER_KEPT,
    },
    Differ {
        group: "url::matching_punctuation_tricky_without_protocol",
        input: "example.org/(.",
        reason: &OPENER_KEPT,
    },
    Differ {
        group: "url::single_quote",
        input: "http://example.org/'_(foo)'",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::single_quote",
        input: "http://example.org/''",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::single_quote",
        input: "http://example.org/'''",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::single_quote_without_protocol",
        input: "example.org/'_(foo)'",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::single_quote_without_protocol",
        input: "example.org/''",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::single_quote_without_protocol",
        input: "example.org/'''",
        reason: &APOSTROPHE_SOFT,
    },
    Differ {
        group: "url::double_quote",
        input: "http://example.org/\"a",
        reason: &QUOTE_BEFORE_LETTER,
    },
    Differ {
        group: "url::double_quote",
        input: "http://example.org/\"a\"",
        reason: &QUOTE_BEFORE_LETTER,
    },
    Differ {
        group: "url::asterisk",
        input: "https://example.org*",
        reason: &STAR,
    },
    Differ {
        group: "url::asterisk",
        input: "https://example.org/*",
        reason: &STAR,
    },
    Differ {
        group: "url::asterisk",
        input: "https://example.org/**",
        reason: &STAR,
    },
    Differ {
        group: "url::international_not_allowed",
        input: "http://üñîçøðé.com",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed",
        input: "http://üñîçøðé.com/ä",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed",
        input: "http://example.org/¡",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed",
        input: "http://example.org/¢",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed",
        input: "http://example.org/😀",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed",
        input: "http://example.org/¢/",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed_without_protocol",
        input: "üñîçøðé.com",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed_without_protocol",
        input: "üñîçøðé.com/ä",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed_without_protocol",
        input: "example.org/¡",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed_without_protocol",
        input: "example.org/¢",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed_without_protocol",
        input: "example.org/😀",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "url::international_not_allowed_without_protocol",
        input: "example.org/¢/",
        reason: &IRI_ALWAYS,
    },
    Differ {
        group: "email::allowed_text",
        input: "#!$%&'*+-/=?^_`{}|~@example.org",
        reason: &EMAIL_LEADING_PUNCT,
    },
    Differ {
        group: "email::special_separation",
        input: ":a@example.com:",
        reason: &EMAIL_AFTER_COLON,
    },
    Differ {
        group: "email::dots",
        input: ".foo@example.com",
        reason: &EMAIL_DOT_ATOM,
    },
    Differ {
        group: "email::dots",
        input: "a..b@example.com",
        reason: &EMAIL_DOT_ATOM,
    },
    Differ {
        group: "email::domain_must_have_dot_false",
        input: "a@b",
        reason: &EMAIL_PUBLIC_SUFFIX,
    },
    Differ {
        group: "email::domain_must_have_dot_false",
        input: "a@b.",
        reason: &EMAIL_PUBLIC_SUFFIX,
    },
    Differ {
        group: "email::fuzz",
        input: "a@a.xyϸ",
        reason: &EMAIL_PUBLIC_SUFFIX,
    },
    Differ {
        group: "domains::domain_invalid_tld",
        input: "https://12-7.0.0.1/",
        reason: &NUMERIC_REG_NAME,
    },
    Differ {
        group: "domains::domain_ipv4",
        input: "1.0.0.0",
        reason: &BARE_IPV4,
    },
    Differ {
        group: "domains::domain_ipv4",
        input: "1.0.0.0/foo/bar",
        reason: &BARE_IPV4,
    },
    Differ {
        group: "domains::domain_delimited_multiple",
        input: "https://a.com'https://b.com",
        reason: &APOSTROPHE_ENDS_HOST,
    },
    Differ {
        group: "domains::domain_labels_cant_end_with_hyphen",
        input: "https://example.com-/",
        reason: &HOST_NOT_REPAIRED,
    },
    Differ {
        group: "domains::authority_without_slash_should_stop_at_delimiters",
        input: "test://123'456!!!",
        reason: &APOSTROPHE_ENDS_HOST,
    },
    Differ {
        group: "domains::authority_without_slash_should_stop_at_delimiters",
        input: "test://123'456...",
        reason: &APOSTROPHE_ENDS_HOST,
    },
    Differ {
        group: "domains::authority_without_slash_should_stop_at_delimiters",
        input: "test://123'456!!!/",
        reason: &APOSTROPHE_ENDS_HOST,
    },
    Differ {
        group: "domains::authority_without_slash_should_stop_at_delimiters",
        input: "test://123'456.../",
        reason: &APOSTROPHE_ENDS_HOST,
    },
];

const TWITTER_EXTRACT: &[Differ] = &[
    Differ {
        group: "urls",
        input: "test http://example.comだよね.comtest/hogehoge",
        reason: &IRI_HOST_LETTERS,
    },
    Differ {
        group: "urls",
        input: "text http://no-tld",
        reason: &NO_TLD_LIST,
    },
    Differ {
        group: "urls",
        input: "text http://tld-too-short.x",
        reason: &NO_TLD_LIST,
    },
    Differ {
        group: "urls",
        input: "text http://domain.com-that-you-should-have-put-a-sp\
            ace-after",
        reason: &NO_TLD_LIST,
    },
    Differ {
        group: "urls",
        input: "これは日本語です。example.com/path/index.html中国語example.com/p\
            ath한국",
        reason: &CJK_RUN,
    },
    Differ {
        group: "urls",
        input: "twitter.comこれは日本語です。example.com中国語t.co/abcde한국twitte\
            r.com example2.comテストtwitter.com/abcde",
        reason: &CJK_RUN,
    },
    Differ {
        group: "urls",
        input: "http://twitter.com/これは日本語です。example.com中国語http://t.c\
            o/abcde한국twitter.comテストexample2.comテストhttp://twitter\
            .com/abcde",
        reason: &CJK_RUN,
    },
    Differ {
        group: "urls",
        input: "twitter.jp日本語it.so中国語foo.jp it.so foo.jp",
        reason: &CJK_RUN,
    },
    Differ {
        group: "urls",
        input: "Hello http://xn--はじめよう.com/index.html",
        reason: &PUNYCODE_HOST,
    },
    Differ {
        group: "urls",
        input: "text http://domain-dash_2314352345_dfasd.foo-cow_435\
            2.com",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "test http://_leadingunderscore.twitter.com",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "test http://leadingunderscore._twitter.com",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "test http://trailingunderscore_.twitter.com",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "test http://trailingunderscore.twitter_.com",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "test http://twitter_underscore.com",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "test http://twitter.c_o_m",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "#test.com @test.com #http://test.com @http://test.co\
            m #t.co/abcde @t.co/abcde",
        reason: &TWITTER_ENTITY,
    },
    Differ {
        group: "urls",
        input: "I really like http://t.co/pbY2NfTZ's website",
        reason: &T_CO,
    },
    Differ {
        group: "urls",
        input: "Check this site out http://t.co/FNkPfmii- it's great",
        reason: &T_CO,
    },
    Differ {
        group: "urls",
        input: "I really like http://t.co/abcdefghijklmnopqrstuvwxyz\
            012345678901234",
        reason: &T_CO,
    },
    Differ {
        group: "urls",
        input: "example.comてすとですtwitter.みんなです",
        reason: &CJK_RUN,
    },
    Differ {
        group: "urls",
        input: "$http://twitter.com $twitter.com $http://t.co/abcde $\
            t.co/abcde $t.co $TVI.CA $RBS.CA",
        reason: &TWITTER_ENTITY,
    },
    Differ {
        group: "urls_with_indices",
        input: "twitter.comこれは日本語です。example.com中国語t.co/abcde한국twitte\
            r.com example2.comテストtwitter.com/abcde",
        reason: &CJK_RUN,
    },
    Differ {
        group: "urls_with_indices",
        input: "http://twitter.com/これは日本語です。example.com中国語http://t.c\
            o/abcde한국twitter.comテストexample2.comテストhttp://twitter\
            .com/abcde",
        reason: &CJK_RUN,
    },
    Differ {
        group: "urls_with_indices",
        input: "http://t.co/pbY2NfTZ's http://t.co/2vYHpAc5; http://\
            t.co/ulYGBYSo: http://t.co/8MkmHU0k+c http://t.co/TK\
            Lp64dY.x http://t.co/8t7G3ddS#a http://t.co/FNkPfmii\
            -",
        reason: &T_CO,
    },
    Differ {
        group: "urls_with_directional_markers",
        input: "\u{2066}\u{202a}test abcdef.com پاکستان http://twitt\
            er.com/\u{202c}\u{2069}",
        reason: &BIDI,
    },
    Differ {
        group: "urls_with_directional_markers",
        input: "This is a test \u{2066}\u{202a}twitter.com\u{202c}\u{2069} \u{2066}\
            \u{202a}http://foobar.پاکستان/\u{202c}\u{2069}\u{2069} ق\
            طر فلسطين عمان",
        reason: &BIDI,
    },
];

const TWITTER_VALIDATE: &[Differ] = &[
    Differ {
        group: "urls",
        input: "ftp://www.example.com/",
        reason: &OTHER_SCHEMES,
    },
    Differ {
        group: "urls",
        input: "http://domain-dash_2314352345_dfasd.foo-cow_4352.com",
        reason: &UNDERSCORE,
    },
    Differ {
        group: "urls",
        input: "http://%e2%98%83.net/",
        reason: &PCT_HOST,
    },
    Differ {
        group: "urls",
        input: "http://256.1.2.3/",
        reason: &NUMERIC_REG_NAME,
    },
];

const TWITTER_TLDS: &[Differ] = &[];

const URLEXTRACT: &[Differ] = &[
    Differ {
        group: "test_enclosure::test_find_urls",
        input: "{\\url{http://www.google.com/{file.pdf}}",
        reason: &BRACKETS,
    },
    Differ {
        group: "test_enclosure::test_find_urls",
        input: "a(sa\"enclosure.net/bracketext\"as)asd",
        reason: &QUOTE_BEFORE_LETTER,
    },
    Differ {
        group: "test_enclosure::test_find_urls",
        input: "enclosure.net/blah)o(blah",
        reason: &BRACKETS,
    },
    Differ {
        group: "test_enclosure::test_find_urls",
        input: "\\enclosure.net/slash\\",
        reason: &AFTER_BACKSLASH,
    },
    Differ {
        group: "test_enclosure::test_find_urls",
        input: "\"some string with urls example.com/somepa)th)\"",
        reason: &BRACKETS,
    },
    Differ {
        group: "test_extract_email::test_extract_email_enabled",
        input: "Given URIs are not mail jan@example.com/asdasd jan@e\
            xample.com:1234",
        reason: &EMAIL_ENDS_AT_DOMAIN,
    },
    Differ {
        group: "test_extract_email::test_extract_email_enabled",
        input: "Given URIs are not mail jan@example.com?not jan@exam\
            ple.com#not",
        reason: &EMAIL_ENDS_AT_DOMAIN,
    },
    Differ {
        group: "test_find_urls::test_find_urls",
        input: "some‧domain.example.com",
        reason: &HOST_SYMBOLS,
    },
    Differ {
        group: "test_find_urls::test_find_urls",
        input: "<script src='//www.example.com/somejsfile.js'>",
        reason: &NETWORK_PATH,
    },
    Differ {
        group: "test_find_urls::test_find_urls",
        input: "[[ \"$(giturl)\" =~ ^https://gitlab.com ]] echo \"fo\
            und\" || echo \"didnt",
        reason: &GLUED_SCHEME,
    },
    Differ {
        group: "test_ipv4::test_find_urls",
        input: "http://[192.168.1.1]/",
        reason: &IP_LITERAL,
    },
    Differ {
        group: "test_ipv4::test_find_urls",
        input: "http://192.1.1/",
        reason: &NUMERIC_REG_NAME,
    },
    Differ {
        group: "test_mixed_case::test_mixed_case_defaults",
        input: "example.Net",
        reason: &TITLE_CASE_TLD,
    },
    Differ {
        group: "test_mixed_case::test_mixed_case_defaults",
        input: "I am sitting outside.In the middle of nowhere.My min\
            d is lost in thoughts!",
        reason: &TITLE_CASE_TLD,
    },
];

/// Every row is unique, argued, and its reason named once.
#[test]
fn expected_differences_are_argued() {
    let tables =
        [TWITTER_EXTRACT, TWITTER_VALIDATE, TWITTER_TLDS, LINKIFY, URLEXTRACT];
    let mut names: BTreeMap<&str, &str> = BTreeMap::new();
    for table in tables {
        let mut keys = BTreeSet::new();
        for d in table {
            assert!(keys.insert((d.group, d.input)), "twice: {}", d.input);
            assert!(d.reason.text.len() > 60, "argue {}", d.reason.name);
            let text = names.entry(d.reason.name).or_insert(d.reason.text);
            assert_eq!(*text, d.reason.text, "{} names two", d.reason.name);
        }
    }
}

//! Owns the WHATWG URL web-platform-tests vectors (`urltestdata.json`
//! and `setters_tests.json`, as vendored by rust-url; see
//! `tests/data/README.md`) run through urlx's validate, resolve and
//! normalize API, with every disagreement argued in
//! `tests/data/peer/whatwg-url/expected.tsv`.
//!
//! The WHATWG URL Standard is not RFC 3986. Its parser repairs what RFC
//! 3986 calls invalid (it strips tabs and newlines, reads `\` as `/`,
//! percent-encodes disallowed characters) and normalises what it keeps
//! (lower-case hosts, IDNA, IPv4 number forms, default ports, IPv6
//! compression); urlx validates by RFC 3986 (with RFC 3987 characters and
//! each scheme's own rules) and changes nothing unless asked. So the two
//! answers are compared as follows.
//!
//! * **urlx's answer** for a case (`input`, `base`): `input` must be a
//!   valid URI reference ([`Uri::errors`]); with a base it is resolved
//!   ([`resolve_str`], RFC 3986 5.2, which refuses an invalid base),
//!   without one it must be absolute and has its dot-segments removed
//!   ([`normalize_dots`], as the extractor does). The target must be a
//!   valid URI and break no rule of its scheme of [`Severity::Error`]
//!   ([`schemes::check`]). Anything else is an error.
//! * **Verdict**: WHATWG's `failure` against urlx's error. Both failing
//!   is agreement, whatever the reasons.
//! * **Value**, when both succeed: urlx's target and WHATWG's `href`,
//!   each mapped to a URI ([`to_uri`]: IDNA for non-ASCII host names,
//!   percent-encoded UTF-8 elsewhere, RFC 3987 3.1) and normalised
//!   ([`normalize`]: RFC 3986 6.2.2 case, percent-encoding and
//!   dot-segments, 6.2.3 default port and empty path), must be equal.
//!   That absorbs the normalisations the two standards share; what is
//!   left is a real difference.
//!
//! Every case that disagrees must be a row of `expected.tsv`, under a
//! class that says which rule of each standard decides (a row that
//! starts to agree fails the test too, so the table stays true), and
//! each class has a check here that its rows really are of its kind
//! ([`class_applies`]). The row records urlx's answer, so a change in
//! that answer fails the test as well.
//!
//! Also checked: urlx's split of every WHATWG `href` into components
//! (RFC 3986 Appendix B) gives WHATWG's own component getters
//! (`protocol`, `username`, `password`, `host`, `hostname`, `port`,
//! `pathname`, `search`, `hash`). `setters_tests.json` tests the setters
//! of the `URL` object, which urlx does not have (it parses and never
//! edits a URL), so the setters themselves are not run; what can be run
//! is that same split of each test's expected `href`, against the
//! expected components. (Its starting `href` comes without components,
//! so there is nothing to compare it with.)
//!
//! Inputs urlx cannot take: JSON text is Unicode, so every input is a
//! `&str` except a lone surrogate (`\uD800` unpaired), which serde_json
//! rejects and a Rust string cannot hold. rust-url's copy of the file has
//! none (WPT's `http://example.com/\uD800\uD801\uDFFE...` case is not in
//! it); they are counted before parsing, and the test fails if a new
//! copy brings any.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;
use urlx::normalize::{iri::to_uri, normalize};
use urlx::resolve::{normalize_dots, resolve_str};
use urlx::validate::schemes::{self, Severity};
use urlx::validate::{ErrorKind, Uri, UriError};

const URLTESTDATA: &str =
    include_str!("data/peer/whatwg-url/urltestdata.json");
const SETTERS: &str = include_str!("data/peer/whatwg-url/setters_tests.json");
const EXPECTED: &str = include_str!("data/peer/whatwg-url/expected.tsv");

/// The special schemes of the URL Standard (4.2): the only ones its
/// parser gives rules of their own.
const SPECIAL: &[&str] = &["ftp", "file", "http", "https", "ws", "wss"];

/// One case of `urltestdata.json`.
struct Case {
    input: String,
    base: Option<String>,
    /// WHATWG's `href`; `None` for `failure: true`.
    href: Option<String>,
    /// The whole JSON object (for the component getters).
    json: Value,
}

/// urlx's answer for a case.
enum Urlx {
    /// The target: as resolved, and in the compared form ([`canon`]).
    Ok { target: String, canon: String },
    /// A grammar error in the reference, the base or the target, and
    /// the character at its offset.
    Grammar { part: &'static str, err: UriError, at: Option<char> },
    /// A rule of the target's scheme.
    Scheme { code: &'static str, message: String },
    /// A relative reference without a base.
    NoBase,
}

impl fmt::Display for Urlx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Urlx::Ok { canon, .. } => f.write_str(canon),
            Urlx::Grammar { part, err, at } => {
                write!(f, "error: {part}: {err}")?;
                // The character, when the error is about one.
                let about_char = matches!(
                    err.kind(),
                    ErrorKind::InvalidCharacter | ErrorKind::InvalidScheme
                );
                match at {
                    Some(c) if about_char => {
                        write!(f, " (U+{:04X})", u32::from(*c))
                    }
                    _ => Ok(()),
                }
            }
            Urlx::Scheme { code, message } => {
                write!(f, "error: {code}: {message}")
            }
            Urlx::NoBase => f.write_str("error: relative reference, no base"),
        }
    }
}

/// `s` as a URI ([`to_uri`]), normalised ([`normalize`]): the form in
/// which urlx's and WHATWG's answers are compared.
fn canon(s: &str) -> String {
    let uri = to_uri(s).unwrap_or_else(|e| e);
    normalize(&uri).into_owned()
}

fn grammar(part: &'static str, s: &str, err: UriError) -> Urlx {
    let at = s.get(err.offset()..).and_then(|t| t.chars().next());
    Urlx::Grammar { part, err, at }
}

/// urlx's answer for `input` against `base` (see the module docs).
fn urlx(input: &str, base: Option<&str>) -> Urlx {
    let reference = Uri::parse(input);
    if let Some(e) = reference.errors().first() {
        return grammar("reference", input, *e);
    }
    let target = match base {
        None if !reference.is_absolute() => return Urlx::NoBase,
        None => normalize_dots(&reference),
        Some(b) => match resolve_str(b, input) {
            Ok(t) => t,
            Err(e) => {
                let err = e.uri_error().expect("every base has a scheme");
                return grammar("base", b, err);
            }
        },
    };
    let uri = Uri::parse(&target);
    if let Some(e) = uri.errors().first() {
        return grammar("target", &target, *e);
    }
    let rule = schemes::check(&uri)
        .into_iter()
        .find(|f| f.severity == Severity::Error);
    if let Some(f) = rule {
        return Urlx::Scheme { code: f.code, message: f.message };
    }
    Urlx::Ok { canon: canon(&target), target }
}

/// How a case comes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    BothFail,
    BothEqual,
    /// WHATWG parses, urlx reports an error.
    UrlxRejects,
    /// WHATWG fails, urlx accepts.
    UrlxAccepts,
    /// Both succeed, with different URIs.
    Differ,
}

fn outcome(u: &Urlx, whatwg: Option<&str>) -> Outcome {
    match (u, whatwg) {
        (Urlx::Ok { .. }, None) => Outcome::UrlxAccepts,
        (_, None) => Outcome::BothFail,
        (Urlx::Ok { canon: c, .. }, Some(w)) if *c == canon(w) => {
            Outcome::BothEqual
        }
        (Urlx::Ok { .. }, Some(_)) => Outcome::Differ,
        (_, Some(_)) => Outcome::UrlxRejects,
    }
}

/// Number of `\uXXXX` escapes in `json` that are lone surrogates.
fn lone_surrogates(json: &str) -> usize {
    let unit = |i: usize| {
        let hex = json.get(i + 2..i + 6)?;
        let ok = json.get(i..i + 2) == Some("\\u");
        ok.then(|| u16::from_str_radix(hex, 16).ok()).flatten()
    };
    let (mut count, mut i) = (0, 0);
    while let Some(at) = json.get(i..).and_then(|t| t.find("\\u")) {
        let at = i + at;
        // An escaped backslash followed by "u" is no escape.
        let slashes =
            json[..at].bytes().rev().take_while(|&b| b == b'\\').count();
        if slashes % 2 == 1 {
            i = at + 2;
            continue;
        }
        match unit(at) {
            Some(0xD800..=0xDBFF)
                if matches!(unit(at + 6), Some(0xDC00..=0xDFFF)) =>
            {
                i = at + 12;
            }
            Some(0xD800..=0xDFFF) => {
                count += 1;
                i = at + 6;
            }
            _ => i = at + 2,
        }
    }
    count
}

/// The cases of `urltestdata.json`, and the number of comment strings.
fn cases() -> (Vec<Case>, usize) {
    let v: Value = serde_json::from_str(URLTESTDATA).expect("valid JSON");
    let mut cases = Vec::new();
    let mut comments = 0;
    for item in v.as_array().expect("an array") {
        if item.is_string() {
            comments += 1;
            continue;
        }
        let s = |k: &str| item.get(k).and_then(Value::as_str);
        let failure = item.get("failure").and_then(Value::as_bool);
        let href = s("href").map(str::to_string);
        assert!(
            href.is_some() != (failure == Some(true)),
            "a case has either href or failure: {item}"
        );
        cases.push(Case {
            input: s("input").expect("input").to_string(),
            base: s("base").map(str::to_string),
            href,
            json: item.clone(),
        });
    }
    (cases, comments)
}

/// The rows of `expected.tsv` by (input, base).
type Rows = BTreeMap<(String, Option<String>), Row>;

/// A row of `expected.tsv`.
struct Row {
    class: String,
    urlx: String,
    whatwg: Option<String>,
    line: usize,
}

/// `expected.tsv`: class name → reason, and the rows.
fn expected() -> (BTreeMap<String, String>, Rows) {
    let mut classes = BTreeMap::new();
    let mut rows = BTreeMap::new();
    let mut class: Option<String> = None;
    for (i, line) in EXPECTED.lines().enumerate() {
        let line_no = i + 1;
        if line.starts_with("# ") || line == "#" || line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix("## ") {
            let (name, reason) =
                head.split_once('\t').expect("## class<TAB>reason");
            assert!(!reason.trim().is_empty(), "line {line_no}: no reason");
            let fresh = classes.insert(name.to_string(), reason.to_string());
            assert!(fresh.is_none(), "line {line_no}: class {name} twice");
            class = Some(name.to_string());
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(
            (4..=5).contains(&fields.len()),
            "line {line_no}: input, base, urlx, whatwg[, note]: {line:?}"
        );
        let json = |k: usize| -> Value {
            serde_json::from_str(fields[k]).unwrap_or_else(|e| {
                panic!("line {line_no}, field {}: {e}", k + 1)
            })
        };
        let text = |v: Value| v.as_str().map(str::to_string);
        let input = text(json(0)).expect("input is a JSON string");
        let base = text(json(1));
        let row = Row {
            class: class.clone().expect("a row under a ## class line"),
            urlx: text(json(2)).expect("urlx is a JSON string"),
            whatwg: text(json(3)),
            line: line_no,
        };
        let key = (input, base);
        assert!(!rows.contains_key(&key), "line {line_no}: case twice");
        rows.insert(key, row);
    }
    (classes, rows)
}

/// The scheme of `s` (RFC 3986 3.1), lower case, if it has one.
fn scheme_of(s: &str) -> Option<String> {
    let end = s.find(':')?;
    let name = &s[..end];
    let mut b = name.bytes();
    let ok = b.next().is_some_and(|c| c.is_ascii_alphabetic())
        && b.all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c));
    ok.then(|| name.to_ascii_lowercase())
}

fn is_special(scheme: Option<&str>) -> bool {
    scheme.is_some_and(|s| SPECIAL.contains(&s))
}

/// Whether `s` holds a Windows drive letter (URL Standard 4.2: a letter
/// and `:` or `|`) as a path segment of its own or before `/`, `\`, `?`
/// or `#`.
fn has_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| {
        let before = if i == 0 { None } else { b.get(i - 1) };
        b[i].is_ascii_alphabetic()
            && matches!(b.get(i + 1), Some(b':' | b'|'))
            && before.is_none_or(|c| b"/\\:".contains(c))
            && b.get(i + 2).is_none_or(|c| b"/\\?#".contains(c))
    })
}

/// Whether the host `h` ends in a number (URL Standard 3.5, "ends in a
/// number checker"): its last label, after one trailing dot, is all
/// digits or `0x` and hex digits.
fn ends_in_number(h: &str) -> bool {
    let h = h.strip_suffix('.').unwrap_or(h);
    let last = h.rsplit('.').next().unwrap_or("");
    let hex = last
        .strip_prefix("0x")
        .or_else(|| last.strip_prefix("0X"))
        .is_some_and(|x| x.bytes().all(|c| c.is_ascii_hexdigit()));
    hex || (!last.is_empty() && last.bytes().all(|c| c.is_ascii_digit()))
}

/// Whether the disagreement of `case` (urlx's answer `u`) is of the kind
/// class `name` explains: a necessary condition, so that a row cannot
/// sit under the wrong class. `None` for an unknown class.
fn class_applies(name: &str, case: &Case, u: &Urlx) -> Option<bool> {
    let input = case.input.as_str();
    let base = case.base.as_deref();
    let whatwg_file =
        case.href.as_deref().is_some_and(|h| h.starts_with("file:"));
    let kind = match u {
        Urlx::Grammar { err, .. } => Some(err.kind()),
        _ => None,
    };
    // The character urlx's (first) error points at.
    let at = match u {
        Urlx::Grammar { at, .. } => *at,
        _ => None,
    };
    let target = match u {
        Urlx::Ok { target, .. } => Some(Uri::parse(target)),
        _ => None,
    };
    let canon_host = match u {
        Urlx::Ok { canon, .. } => Uri::parse(canon).host().map(str::to_string),
        _ => None,
    };
    let host = target.as_ref().and_then(|t| t.host());
    Some(match name {
        "c0-space-trim" => {
            // The first error is in what WHATWG trims.
            let c0 = |c: char| c <= ' ';
            let kept = input.trim_start_matches(c0).len();
            let end = input.trim_end_matches(c0).len();
            let start = input.len() - kept;
            matches!(u, Urlx::Grammar { part: "reference", err, .. }
                if err.offset() < start
                    || (end < input.len() && err.offset() >= end))
        }
        "tab-newline" => matches!(at, Some('\t' | '\n' | '\r')),
        "backslash" => {
            at == Some('\\')
                || (kind == Some(ErrorKind::MissingHost)
                    && input.contains('\\'))
        }
        "drive-letter" => {
            // As WHATWG reads it: without tabs and newlines.
            let read: String =
                input.chars().filter(|c| !"\t\n\r".contains(*c)).collect();
            whatwg_file
                && (has_drive_letter(&read)
                    || base.is_some_and(has_drive_letter))
        }
        "file" => {
            whatwg_file
                && match u {
                    Urlx::Scheme { code, .. } => code.starts_with("file-"),
                    Urlx::Ok { .. } => {
                        target.as_ref().is_some_and(|t| t.host().is_none())
                            || canon_host.as_deref() == Some("localhost")
                    }
                    _ => false,
                }
        }
        "special-slashes" => {
            let sc = scheme_of(input);
            kind == Some(ErrorKind::MissingHost)
                && match sc.as_deref() {
                    Some(s) => {
                        is_special(Some(s))
                            && !input[s.len() + 1..].starts_with("//")
                    }
                    None => {
                        is_special(base.and_then(scheme_of).as_deref())
                            && input.starts_with("///")
                    }
                }
        }
        "hash-in-fragment" => at == Some('#'),
        "lone-percent" => kind == Some(ErrorKind::BadPercentEncoding),
        "colon-not-scheme" => matches!(
            kind,
            Some(
                ErrorKind::RelativeFirstSegmentColon
                    | ErrorKind::InvalidScheme
            )
        ),
        "scheme-rules" => match u {
            Urlx::Scheme { .. } => true,
            Urlx::Grammar { err, .. } => {
                err.kind() == ErrorKind::MissingHost
                    && !is_special(scheme_of(input).as_deref())
            }
            _ => false,
        },
        "ascii-not-allowed" => {
            kind == Some(ErrorKind::InvalidCharacter)
                && at.is_some_and(|c| c.is_ascii())
        }
        "non-ascii-not-allowed" => {
            kind == Some(ErrorKind::InvalidCharacter)
                && at.is_some_and(|c| !c.is_ascii())
        }
        "opaque-path-base" => {
            let b = Uri::parse(base.unwrap_or(""));
            b.is_absolute()
                && b.authority().is_none()
                && !b.path().starts_with('/')
                && scheme_of(input).is_none()
        }
        "empty-host" => target.as_ref().is_some_and(|t| {
            t.host() == Some("")
                && (t.userinfo().is_some() || t.port().is_some())
        }),
        "ipv4-number-forms" => canon_host
            .as_deref()
            .is_some_and(|h| !h.starts_with('[') && ends_in_number(h)),
        "host-percent-decoding" => host.is_some_and(|h| h.contains('%')),
        "idna" => host.is_some_and(|h| {
            !h.is_ascii()
                || h.split('.').any(|l| {
                    l.len() >= 4 && l[..4].eq_ignore_ascii_case("xn--")
                })
        }),
        "empty-credentials" => target
            .as_ref()
            .and_then(|t| t.userinfo())
            .is_some_and(|ui| ui.is_empty() || ui.ends_with(':')),
        "ipv6-serialization" => host.is_some_and(|h| h.starts_with('[')),
        "port-number" => target
            .as_ref()
            .and_then(|t| t.port())
            .is_some_and(|p| p.len() > 1 && p.starts_with('0')),
        "query-apostrophe" => target
            .as_ref()
            .and_then(|t| t.query())
            .is_some_and(|q| q.contains('\'')),
        _ => return None,
    })
}

/// The class a new disagreement most likely belongs to (the first that
/// applies), for the message that lists rows to add.
fn suggest(
    case: &Case,
    u: &Urlx,
    classes: &BTreeMap<String, String>,
) -> String {
    const ORDER: &[&str] = &[
        "c0-space-trim",
        "tab-newline",
        "backslash",
        "drive-letter",
        "file",
        "special-slashes",
        "hash-in-fragment",
        "lone-percent",
        "colon-not-scheme",
        "scheme-rules",
        "ascii-not-allowed",
        "non-ascii-not-allowed",
        "opaque-path-base",
        "empty-host",
        "ipv4-number-forms",
        "host-percent-decoding",
        "idna",
        "empty-credentials",
        "ipv6-serialization",
        "port-number",
        "query-apostrophe",
    ];
    ORDER
        .iter()
        .find(|c| {
            classes.contains_key(**c)
                && class_applies(c, case, u) == Some(true)
        })
        .map_or_else(|| "?".to_string(), |c| c.to_string())
}

/// A JSON string (or null) for a cell of `expected.tsv`, in ASCII:
/// every character outside printable ASCII as `\uXXXX` (UTF-16), so
/// that the table shows controls, bidi characters and noncharacters
/// for what they are.
fn cell(s: Option<&str>) -> String {
    let Some(s) = s else { return "null".to_string() };
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

#[test]
fn urltestdata_cases() {
    let lone = lone_surrogates(URLTESTDATA);
    assert_eq!(lone, 0, "lone surrogates: see the module docs");
    let (cases, comments) = cases();
    let (classes, rows) = expected();
    let mut tally: BTreeMap<Outcome, usize> = BTreeMap::new();
    let mut per_class: BTreeMap<&str, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    for case in &cases {
        let u = urlx(&case.input, case.base.as_deref());
        let whatwg = case.href.as_deref().map(canon);
        let out = outcome(&u, case.href.as_deref());
        *tally.entry(out).or_default() += 1;
        let key = (case.input.clone(), case.base.clone());
        let row = rows.get(&key);
        let line = format!(
            "{}\t{}\t{}\t{}",
            cell(Some(&case.input)),
            cell(case.base.as_deref()),
            cell(Some(&u.to_string())),
            cell(whatwg.as_deref()),
        );
        let agree = matches!(out, Outcome::BothFail | Outcome::BothEqual);
        match (agree, row) {
            (true, None) => {}
            (true, Some(r)) => problems.push(format!(
                "UNEXPECTED AGREEMENT ({out:?}), remove line {}: {line}",
                r.line
            )),
            (false, None) => problems.push(format!(
                "UNEXPECTED {out:?}, add under ## {}:\n{line}",
                suggest(case, &u, &classes)
            )),
            (false, Some(r)) => {
                *per_class.entry(r.class.as_str()).or_default() += 1;
                if r.urlx != u.to_string() || r.whatwg != whatwg {
                    problems.push(format!(
                        "CHANGED ANSWER, line {}:\nnow {line}",
                        r.line
                    ));
                }
                match class_applies(&r.class, case, &u) {
                    Some(true) => {}
                    Some(false) => problems.push(format!(
                        "line {}: not a case of class {}",
                        r.line, r.class
                    )),
                    None => problems.push(format!(
                        "line {}: no check for class {}",
                        r.line, r.class
                    )),
                }
            }
        }
    }
    let keys: BTreeSet<_> =
        cases.iter().map(|c| (c.input.clone(), c.base.clone())).collect();
    for (key, r) in &rows {
        if !keys.contains(key) {
            problems.push(format!("line {}: no such case {key:?}", r.line));
        }
    }
    for name in classes.keys() {
        if !per_class.contains_key(name.as_str()) {
            problems.push(format!("class {name} has no rows"));
        }
    }
    let count = |o| tally.get(&o).copied().unwrap_or(0);
    eprintln!(
        "WHATWG urltestdata: {} cases ({comments} comments; {lone} lone \
         surrogates); agree {} (both fail {}, same URI {}); expected \
         differences {} (urlx rejects {}, urlx accepts {}, different URI \
         {})",
        cases.len(),
        count(Outcome::BothFail) + count(Outcome::BothEqual),
        count(Outcome::BothFail),
        count(Outcome::BothEqual),
        rows.len(),
        count(Outcome::UrlxRejects),
        count(Outcome::UrlxAccepts),
        count(Outcome::Differ),
    );
    for (name, n) in &per_class {
        eprintln!("  {n:4} {name}");
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    assert_eq!(cases.len(), 869);
    assert_eq!(comments, 111);
    assert_eq!(cases.iter().filter(|c| c.href.is_none()).count(), 273);
    assert_eq!(count(Outcome::BothFail), 152);
    assert_eq!(count(Outcome::BothEqual), 312);
    assert_eq!(count(Outcome::UrlxRejects), 244);
    assert_eq!(count(Outcome::UrlxAccepts), 121);
    assert_eq!(count(Outcome::Differ), 40);
}

/// WHATWG's component getters (but `href`) for `href`, computed from
/// urlx's split of it ([`Uri::parse`], RFC 3986 Appendix B): `search` and `hash` are
/// empty when the query or fragment is; `username` is the userinfo up
/// to its first `:`, `password` the rest; `pathname` leaves out the
/// `/.` that the URL serializer (URL Standard 4.5) puts before a path
/// starting with `//` when there is no host.
fn getters(href: &str) -> BTreeMap<&'static str, String> {
    let u = Uri::parse(href);
    let ui = u.userinfo().unwrap_or("");
    let (user, pass) = ui.split_once(':').unwrap_or((ui, ""));
    let hostname = u.host().unwrap_or("").to_string();
    let port = u.port().unwrap_or("").to_string();
    let host = match port.as_str() {
        "" => hostname.clone(),
        p => format!("{hostname}:{p}"),
    };
    let path = match (u.authority(), u.path().strip_prefix("/.")) {
        (None, Some(rest)) if rest.starts_with("//") => rest,
        _ => u.path(),
    };
    let prefixed = |p: &str, s: Option<&str>| match s {
        Some(s) if !s.is_empty() => format!("{p}{s}"),
        _ => String::new(),
    };
    BTreeMap::from([
        ("protocol", format!("{}:", u.scheme().unwrap_or(""))),
        ("username", user.to_string()),
        ("password", pass.to_string()),
        ("host", host),
        ("hostname", hostname),
        ("port", port),
        ("pathname", path.to_string()),
        ("search", prefixed("?", u.query())),
        ("hash", prefixed("#", u.fragment())),
    ])
}

/// Compares the component getters of `expected` (a JSON object with an
/// `href`) with urlx's split of its `href`: adds what differs to `out`,
/// and returns how many components were compared.
fn compare_split(expected: &Value, out: &mut Vec<String>) -> usize {
    let href = expected["href"].as_str().expect("href");
    let mine = getters(href);
    let mut compared = 0;
    for (name, value) in expected.as_object().expect("an object") {
        let Some(want) = value.as_str() else { continue };
        let Some(got) = mine.get(name.as_str()) else { continue };
        compared += 1;
        if got != want {
            out.push(format!("{href:?}: {name} {got:?}, WHATWG {want:?}"));
        }
    }
    compared
}

#[test]
fn urltestdata_component_split() {
    let (cases, _) = cases();
    let (mut hrefs, mut components) = (0, 0);
    let mut problems = Vec::new();
    for case in cases.iter().filter(|c| c.href.is_some()) {
        hrefs += 1;
        components += compare_split(&case.json, &mut problems);
    }
    eprintln!(
        "WHATWG urltestdata: {hrefs} hrefs split as WHATWG does \
         ({components} components)"
    );
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    assert_eq!((hrefs, components), (596, 596 * 9));
}

#[test]
fn setters_component_split() {
    assert_eq!(lone_surrogates(SETTERS), 0, "see the module docs");
    let v: Value = serde_json::from_str(SETTERS).expect("valid JSON");
    let (mut tests, mut port_only, mut components) = (0, 0, 0);
    let mut problems = Vec::new();
    for (attr, list) in v.as_object().expect("an object") {
        if attr == "comment" {
            continue;
        }
        for t in list.as_array().expect("an array") {
            tests += 1;
            // Five tests of the port setter give only the port.
            if t["expected"].get("href").is_some() {
                components += compare_split(&t["expected"], &mut problems);
            } else {
                port_only += 1;
            }
        }
    }
    eprintln!(
        "WHATWG setters: {tests} tests, the hrefs they expect split as \
         WHATWG does ({components} components; the setters are not run, \
         urlx has none)"
    );
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    assert_eq!((tests, port_only, components), (274, 5, 462));
}

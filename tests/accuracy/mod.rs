//! The accuracy harness (`harness.rs`) on the bundled samples in
//! `corpora/`: every URL the baseline regex finds is printed by urlx or
//! explained by a row of `harness::EXPECTED`, no printed URL holds a
//! character browsers do not keep, and the number of differences each
//! chain of rows explains is the one recorded in
//! `tests/data/accuracy/corpora.tsv`, so that a change in what urlx
//! prints on real text is seen and argued. `URLX_BLESS=1 cargo test
//! accuracy` rewrites that file.

mod harness;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use harness::{Difference, Kind};

const RECORD: &str = "tests/data/accuracy/corpora.tsv";

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for e in entries {
        // Archives have their own tests (tests/archive.rs), and so have
        // TNEF and Outlook files (tests/mail.rs): their text is decoded
        // out of binary properties, where a regex over the raw bytes sees
        // HTML's `&amp;` undecoded, compressed RTF and the URLs of binary
        // attachments.
        if e.ends_with("archive") || e.ends_with("tnef") || e.ends_with("msg")
        {
            continue;
        }
        if e.is_dir() {
            files(&e, out);
        } else {
            out.push(e);
        }
    }
}

/// Every difference on the files of `corpora/`.
fn differences() -> Vec<Difference> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("corpora"), &mut paths);
    let ex = urlx::Extractor::builder()
        .format(urlx::mail::InputFormat::Auto)
        .build()
        .unwrap();
    let re = harness::baseline_regex();
    let mut out = Vec::new();
    for path in paths {
        let mut bytes = Vec::new();
        urlx::decompress::sniffed(std::fs::File::open(&path).unwrap())
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        let name = path.strip_prefix(root).unwrap().display().to_string();
        out.extend(harness::check(&name, &bytes, &ex, &re).differences);
    }
    out
}

/// `kind<TAB>rules<TAB>count` lines, sorted.
fn tally(diffs: &[Difference]) -> String {
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    for d in diffs {
        let rules = if d.rule.is_empty() {
            "UNEXPLAINED".to_string()
        } else {
            d.rule.join("+")
        };
        *counts.entry((format!("{:?}", d.kind), rules)).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|((kind, rules), n)| format!("{kind}\t{rules}\t{n}\n"))
        .collect()
}

#[test]
fn corpora_have_no_unexplained_difference() {
    let diffs = differences();
    let unexplained: Vec<String> = diffs
        .iter()
        .filter(|d| d.rule.is_empty() || d.kind == Kind::BadChar)
        .map(|d| {
            format!(
                "{} {:?} {} ({:?}, {})\n  closest {:?}\n  context {}",
                d.unit, d.kind, d.url, d.src, d.place, d.closest, d.context
            )
        })
        .collect();
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
    let got = tally(&diffs);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(RECORD);
    if std::env::var_os("URLX_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        got, want,
        "the differences on corpora/ changed: check them with \
         `cargo run --example accuracy -- --show all corpora`, then \
         record them with URLX_BLESS=1"
    );
}

#[test]
fn every_row_has_a_unique_name_and_a_reason() {
    let mut names = std::collections::HashSet::new();
    for e in harness::EXPECTED {
        assert!(names.insert(e.name), "duplicate row {}", e.name);
        assert!(e.reason.len() > 40, "row {} needs its reason", e.name);
    }
}

#[test]
fn bad_characters_are_those_browsers_do_not_keep() {
    assert_eq!(harness::bad_char("http://a.example/x y"), Some(' '));
    assert_eq!(harness::bad_char("http://a.example/x|y"), Some('|'));
    assert_eq!(
        harness::bad_char("http://a.example/\u{202e}x"),
        Some('\u{202e}')
    );
    assert_eq!(harness::bad_char("http://a.example/%7C/straße"), None);
}

#[test]
fn baseline_trims_as_the_issue_says() {
    let re = harness::baseline_regex();
    let found = |t: &str| -> Vec<String> {
        harness::baseline(&re, t.as_bytes(), harness::Src::Raw)
            .into_iter()
            .map(|b| b.url)
            .collect()
    };
    assert_eq!(found("see (http://a.example/x)."), ["http://a.example/x"]);
    assert_eq!(
        found("<http://a.example/x> 'ftp://b.example/'"),
        ["http://a.example/x", "ftp://b.example/"]
    );
    assert!(found("http:// and mailto:x@y").is_empty());
}

//! 4Suite test vectors (via uriparser's FourSuite.cpp; see
//! tests/data/README.md): resolution, good and bad URI references, and
//! path-segment normalization. Known disagreements are listed in
//! tests/data/expected_failures.txt; both unexpected failures and
//! unexpected passes fail the test.

use std::collections::BTreeMap;

use serde_json::Value;
use urlx::resolve::{remove_dot_segments, resolve_str};
use urlx::validate::Uri;

/// expected_failures.txt: `suite<TAB>args as compact JSON<TAB>reason`.
fn expected_failures() -> BTreeMap<(String, String), String> {
    let text = include_str!("data/expected_failures.txt");
    let mut map = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut it = line.splitn(3, '\t');
        let (Some(suite), Some(args), Some(reason)) =
            (it.next(), it.next(), it.next())
        else {
            panic!("malformed line in expected_failures.txt: {line:?}");
        };
        assert!(!reason.trim().is_empty(), "no reason: {line:?}");
        let key = (suite.to_string(), args.to_string());
        assert!(map.insert(key, reason.to_string()).is_none(), "dup {line}");
    }
    map
}

fn arg(args: &[Value], i: usize) -> &str {
    args.get(i).and_then(Value::as_str).expect("string argument")
}

#[test]
fn foursuite_vectors() {
    let expected = expected_failures();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut failed = BTreeMap::new();
    let mut offset_matches = 0;
    let mut bad_total = 0;
    for line in include_str!("data/foursuite_cases.jsonl").lines() {
        let v: Value = serde_json::from_str(line).expect("valid JSON line");
        let suite = v["suite"].as_str().expect("suite").to_string();
        let args = v["args"].as_array().expect("args").clone();
        let key = (suite.clone(), serde_json::to_string(&args).unwrap());
        let outcome: Option<String> = match suite.as_str() {
            "AbsolutizeTestCases" => {
                let (r, base, want) =
                    (arg(&args, 0), arg(&args, 1), arg(&args, 2));
                match resolve_str(base, r) {
                    Ok(got) if got == want => None,
                    Ok(got) => Some(format!("got {got}")),
                    Err(e) => Some(format!("error: {e}")),
                }
            }
            "GoodUriReferences" => {
                let errs = Uri::parse(arg(&args, 0)).errors();
                errs.first().map(|e| format!("reported invalid: {e}"))
            }
            "BadUriReferences" => {
                bad_total += 1;
                let errs = Uri::parse(arg(&args, 0)).errors();
                match errs.first() {
                    None => Some("reported valid".to_string()),
                    Some(e) => {
                        if Some(e.offset() as u64) == args[1].as_u64() {
                            offset_matches += 1;
                        }
                        None
                    }
                }
            }
            "PathSegmentNormalizationTests" => {
                let (p, want) = (arg(&args, 0), arg(&args, 1));
                let got = remove_dot_segments(p);
                (got != want).then(|| format!("got {got}"))
            }
            // Relativization and case / percent-encoding normalization
            // are not implemented by this crate.
            _ => continue,
        };
        *counts.entry(suite).or_default() += 1;
        if let Some(msg) = outcome {
            failed.insert(key, msg);
        }
    }
    eprintln!("4Suite cases checked: {counts:?}");
    eprintln!(
        "bad URIs whose first error offset equals uriparser's: \
         {offset_matches}/{bad_total}"
    );
    assert_eq!(counts.get("AbsolutizeTestCases"), Some(&186));
    assert_eq!(counts.get("GoodUriReferences"), Some(&66));
    assert_eq!(counts.get("BadUriReferences"), Some(&31));
    let mut problems = Vec::new();
    for (key, msg) in &failed {
        if !expected.contains_key(key) {
            problems.push(format!("UNEXPECTED FAILURE {key:?}: {msg}"));
        }
    }
    for key in expected.keys() {
        if !failed.contains_key(key) {
            problems.push(format!("UNEXPECTED PASS {key:?}"));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

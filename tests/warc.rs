//! Web archives: the WARC samples of `corpora/web/` (written by
//! `corpora/web/make_samples.py` with warcio) through the binary, and
//! hand-made records for framing, codings, offsets and damage.

use serde_json::Value;

use crate::common::{urlx_at, urlx_in};

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn field<'v>(v: &'v Value, k: &str) -> &'v Value {
    v.get(k).unwrap_or_else(|| panic!("no {k} in {v}"))
}

fn s<'v>(v: &'v Value, k: &str) -> &'v str {
    field(v, k).as_str().unwrap_or_else(|| panic!("{k} of {v}"))
}

/// (resolved URL, record type, source, header or attribute) of each hit.
fn summary(hits: &[Value]) -> Vec<(String, String, String, String)> {
    hits.iter()
        .map(|h| {
            let place = field(h, "header")
                .as_str()
                .or(field(h, "attribute").as_str())
                .unwrap_or("");
            (
                s(h, "resolved").to_string(),
                s(h, "record_type").to_string(),
                s(h, "source").to_string(),
                place.to_string(),
            )
        })
        .collect()
}

#[test]
fn sample_records_give_their_urls_with_provenance() {
    let run = urlx_at(&root(), &["--json", "corpora/web/sample.warc"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let hits = run.json();
    let got = summary(&hits);
    let want: &[(&str, &str, &str, &str)] = &[
        ("http://urlx.example/docs/warc", "warcinfo", "text", ""),
        (
            "https://search.example.com/?q=mars+water",
            "request",
            "header",
            "Referer",
        ),
        ("https://news.example.org/feed.xml", "response", "header", "Link"),
        (
            "http://news.bbc.co.uk/1/hi/sci/tech/2147879.stm",
            "response",
            "html-attr",
            "a href",
        ),
    ];
    for (i, w) in want.iter().enumerate() {
        let g = &got[i];
        assert_eq!(
            (g.0.as_str(), g.1.as_str(), g.2.as_str(), g.3.as_str()),
            *w
        );
    }
    // The chunked, gzip-compressed page: relative links resolved against
    // its WARC-Target-URI, all placed at its body's first byte.
    let page: Vec<&Value> = hits
        .iter()
        .filter(|h| {
            field(h, "target_uri") == "http://www.example.org/dir/page.html"
        })
        .filter(|h| s(h, "record_type") == "response")
        .collect();
    let urls: Vec<&str> = page.iter().map(|h| s(h, "resolved")).collect();
    assert_eq!(
        urls,
        [
            "http://www.example.org/style/site.css",
            "http://www.example.org/about/team.html",
            "http://www.example.org/dir/next.html?p=2",
            "http://www.example.org/dir/img/logo.png",
            "http://archive.example.net/2026/",
        ]
    );
    assert!(page.iter().all(|h| s(h, "decoded") == "compressed"));
    assert_eq!(field(page[0], "url"), "../style/site.css");
    let starts: Vec<u64> =
        page.iter().map(|h| field(h, "start").as_u64().unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]));
    // Every record kind that holds text gave something.
    let kinds: std::collections::BTreeSet<&str> =
        hits.iter().map(|h| s(h, "record_type")).collect();
    for k in [
        "warcinfo",
        "request",
        "response",
        "resource",
        "metadata",
        "conversion",
        "revisit",
    ] {
        assert!(kinds.contains(k), "no hit from a {k} record");
    }
    // The revisit's Location header, the JSON body's strings.
    let all: Vec<&str> = hits.iter().map(|h| s(h, "resolved")).collect();
    assert!(all.contains(&"https://www.example.org/dir/page.html"));
    assert!(all.contains(&"https://api.example.com/v1/items?page=2"));
    // A record's own fields are not scanned: no record ID (urn:uuid:),
    // no WARC-Profile; the target is no hit of its own.
    assert!(!all.iter().any(|u| u.starts_with("urn:")));
    assert!(!all.iter().any(|u| u.contains("netpreserve.org")));
    assert!(hits.iter().all(|h| field(h, "header") != "WARC-Target-URI"));
    // Record IDs without brackets, offsets at the `WARC/` line.
    let data = std::fs::read(root().join("corpora/web/sample.warc")).unwrap();
    for h in &hits {
        assert!(s(h, "record_id").starts_with("urn:uuid:"));
        let at = field(h, "record_offset").as_u64().unwrap() as usize;
        assert!(data[at..].starts_with(b"WARC/1.1\r\n"), "{h}");
    }
}

#[test]
fn offsets_point_at_the_urls_in_the_file() {
    let data = std::fs::read(root().join("corpora/web/sample.warc")).unwrap();
    let run = urlx_at(&root(), &["--json", "corpora/web/sample.warc"]);
    for h in run.json() {
        if s(&h, "decoded") != "none" {
            continue;
        }
        let start = field(&h, "start").as_u64().unwrap() as usize;
        let url = s(&h, "url");
        // A URL wrapped across lines is joined: its first bytes are
        // where it starts.
        let run = data[start..]
            .iter()
            .take_while(|b| !b.is_ascii_whitespace())
            .count();
        let k = run.min(url.len());
        assert!(
            data[start..start + k] == url.as_bytes()[..k]
                || s(&h, "context") == "href",
            "{h}"
        );
    }
}

#[test]
fn gzip_members_give_the_same_hits() {
    let plain =
        urlx_at(&root(), &["--json", "corpora/web/sample.warc"]).json();
    let gz =
        urlx_at(&root(), &["--json", "corpora/web/sample.warc.gz"]).json();
    let strip = |v: Vec<Value>| -> Vec<Value> {
        v.into_iter()
            .map(|mut h| {
                h.as_object_mut().unwrap().remove("file");
                h
            })
            .collect()
    };
    assert_eq!(strip(plain), strip(gz));
}

fn warc(records: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (fields, block)) in records.iter().enumerate() {
        out.extend_from_slice(b"WARC/1.0\r\n");
        out.extend_from_slice(
            format!("WARC-Record-ID: <urn:uuid:{i}>\r\n{fields}Content-Length: {}\r\n\r\n", block.len())
                .as_bytes(),
        );
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
    }
    out
}

#[test]
fn chunked_bodies_map_back_into_the_file() {
    let body = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n\
        c\r\nsee http://a\r\n9\r\n.example/\r\n0\r\n\r\n";
    let input = warc(&[(
        "WARC-Type: response\r\nWARC-Target-URI: <http://t.example/>\r\nContent-Type: application/http; msgtype=response\r\n",
        body,
    )]);
    let run = urlx_in(None, &["--json", "-"], Some(&input));
    let hits = run.json();
    assert_eq!(hits.len(), 1, "{}", run.out());
    let h = &hits[0];
    assert_eq!(s(h, "url"), "http://a.example/");
    assert_eq!(s(h, "decoded"), "chunked");
    assert_eq!(s(h, "target_uri"), "http://t.example/");
    let start = field(h, "start").as_u64().unwrap() as usize;
    assert!(input[start..].starts_with(b"http://a\r\n9\r\n.example/"));
}

#[test]
fn junk_and_cut_records_are_read_as_text() {
    let mut input = b"not a record http://junk.example/\n".to_vec();
    input.extend(warc(&[(
        "WARC-Type: resource\r\nContent-Type: text/plain\r\n",
        b"x http://in.example/ y",
    )]));
    // A header without Content-Length: the rest is text.
    input.extend_from_slice(
        b"WARC/1.1\r\nWARC-Type: resource\r\n\r\nhttp://after.example/\n",
    );
    let run =
        urlx_in(None, &["--json", "--format", "warc", "-"], Some(&input));
    let urls: Vec<String> =
        run.json().iter().map(|h| s(h, "url").to_string()).collect();
    assert_eq!(
        urls,
        [
            "http://junk.example/",
            "http://in.example/",
            "http://after.example/"
        ]
    );
}

#[test]
fn warc_is_detected_by_content() {
    let input = warc(&[(
        "WARC-Type: resource\r\nContent-Type: text/html\r\nWARC-Target-URI: http://h.example/d/\r\n",
        b"<a href=\"x.html\">x</a>",
    )]);
    let run = urlx_in(None, &["-"], Some(&input));
    run.expect("http://h.example/d/x.html\n", 0);
}

#[test]
fn web_text_is_not_taken_for_quoted_printable() {
    // In mail, `=3D` and `=` at line ends make an undeclared body read as
    // quoted-printable (spam does that); a page says what it says.
    let text =
        b"see http://q.example/?a=3D1&b=3D2 and more=\nlines =3D here\n";
    let input = warc(&[(
        "WARC-Type: conversion\r\nContent-Type: text/plain\r\n",
        text,
    )]);
    let run = urlx_in(None, &["-"], Some(&input));
    run.expect("http://q.example/?a=3D1&b=3D2\n", 0);
}

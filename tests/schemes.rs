//! Schemes, normal forms, IRIs and warnings, end to end: the scheme's
//! own rules make a hit invalid, the security lint and the registry give
//! warnings, and the printing options built on normal forms
//! (`--normalize`, `-u`, `--count-unique`, `--hosts`, `--ascii`,
//! `--warnings`) print what they say.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;
use urlx::Extractor;

/// Run the binary with `args` on `stdin`; (exit code, stdout).
fn run(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlx"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

fn lines(args: &[&str], stdin: &str) -> Vec<String> {
    run(args, stdin).1.lines().map(str::to_string).collect()
}

fn json(args: &[&str], stdin: &str) -> Vec<Value> {
    run(args, stdin)
        .1
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const SAME: &str = "HTTP://Example.COM:80/%7euser and \
    http://example.com/~user and http://example.com/a/./b/../~user/.. \
    and http://EXAMPLE.com:/~user\n";
// (The third loses its trailing `..` as trailing punctuation.)

#[test]
fn normalize_prints_the_normal_form() {
    assert_eq!(
        lines(&["--normalize"], SAME),
        [
            "http://example.com/~user",
            "http://example.com/~user",
            "http://example.com/a/~user/",
            "http://example.com/~user",
        ]
    );
}

#[test]
fn unique_compares_normal_forms_and_prints_the_first_as_written() {
    assert_eq!(
        lines(&["-u"], SAME),
        [
            "HTTP://Example.COM:80/%7euser",
            "http://example.com/a/./b/../~user/"
        ]
    );
}

#[test]
fn count_unique_is_most_frequent_first() {
    let text = format!("{SAME} http://b.example/ http://B.example\n");
    assert_eq!(
        lines(&["--count-unique"], &text),
        [
            "3\thttp://example.com/~user",
            "2\thttp://b.example/",
            "1\thttp://example.com/a/~user/",
        ]
    );
    let rows = json(&["--count-unique", "--json"], &text);
    assert_eq!(
        rows[0],
        serde_json::json!({"url": "http://example.com/~user", "count": 3})
    );
}

#[test]
fn hosts_counts_hosts_and_mail_domains() {
    let text = "http://WWW.example.org/a http://www.example.org:8080/b \
        mailto:joe@Example.NET news:comp.lang.c http://例え.jp/\n";
    assert_eq!(
        lines(&["--hosts"], text),
        ["2\twww.example.org", "1\texample.net", "1\txn--r8jz45g.jp"]
    );
}

#[test]
fn ascii_prints_the_uri_form_of_iris() {
    // RFC 3987 3.1: UTF-8 percent-encoding; IDNA for the host.
    let text = "https://de.wikipedia.org/wiki/Straße, http://例え.jp/。\n";
    assert_eq!(
        lines(&["--ascii"], text),
        [
            "https://de.wikipedia.org/wiki/Stra%C3%9Fe",
            "http://xn--r8jz45g.jp/"
        ]
    );
    // Without it the IRI is printed as written, ended by `,` and `。`.
    assert_eq!(
        lines(&[], text),
        ["https://de.wikipedia.org/wiki/Straße", "http://例え.jp/"]
    );
    let hits = json(&["--json"], text);
    assert_eq!(hits[1]["url"], "http://例え.jp/");
    assert_eq!(hits[1]["uri"], "http://xn--r8jz45g.jp/");
}

#[test]
fn iri_ends_at_non_ascii_punctuation() {
    let text = "（http://example.com/パス）と «http://a.example/x»、 \
        http://b.example/y、次\n";
    assert_eq!(
        lines(&[], text),
        [
            "http://example.com/パス",
            "http://a.example/x",
            "http://b.example/y"
        ]
    );
}

/// Each rule of the security lint (url-syntax draft section 7, RFC 3986
/// section 7), by its code.
#[test]
fn warnings_of_the_security_lint() {
    let cases: &[(&str, &[&str])] = &[
        ("ftp://user:secret@ftp.example.org/", &["userinfo-password"]),
        (
            "http://trusted.example@evil.example/",
            &["http-userinfo", "userinfo-hostlike"],
        ),
        ("http://mail.example:25/", &["reserved-port"]),
        ("https://example.org:8443/", &["non-default-port"]),
        ("http://example.org/a%0d%0aSet-Cookie:x", &["encoded-control"]),
        ("http://xn--80ak6aa92e.com/", &["punycode-host"]),
        ("http://раypal.com/", &["mixed-script-host"]),
        ("http://2130706433/", &["numeric-host"]),
        ("foo://example.org/", &["unregistered-scheme"]),
        ("http://example.org/", &[]),
    ];
    for (url, want) in cases {
        let hits = json(&["--json"], &format!("{url}\n"));
        assert_eq!(hits.len(), 1, "{url}");
        let codes: Vec<&str> = hits[0]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["code"].as_str().unwrap())
            .collect();
        for code in *want {
            assert!(codes.contains(code), "{url}: {codes:?} lacks {code}");
        }
        if want.is_empty() {
            assert!(codes.is_empty(), "{url}: {codes:?}");
        }
    }
}

#[test]
fn warnings_option_prints_only_urls_with_warnings_and_their_codes() {
    let text = "ok http://example.org/ bad http://a.example@b.example/ \
        and http://h.example:25/\n";
    let (code, out) = run(&["--warnings"], text);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "http://a.example@b.example/\thttp-userinfo,userinfo-hostlike\n\
         http://h.example:25/\treserved-port\n"
    );
    let (code, out) = run(&["--warnings"], "http://example.org/\n");
    assert_eq!((code, out.as_str()), (Some(1), ""));
}

/// The schemes' own rules (RFC 1738 section 5, RFC 2397, RFC 6068, RFC
/// 3966): a URL that breaks them is not printed, and --json says why.
#[test]
fn scheme_rules_make_a_hit_invalid() {
    let bad = [
        ("ftp://ftp.example.org/f;type=x", "ftp-type"),
        ("data:text/plain", "data-comma"),
        ("tel:5551234", "tel-context"),
        ("news:comp..lang", "news-group"),
    ];
    for (url, code) in bad {
        let (exit, out) = run(&[], &format!("{url}\n"));
        assert_eq!((exit, out.as_str()), (Some(1), ""), "{url}");
        let hits = json(&["--json", "--invalid"], &format!("{url}\n"));
        assert_eq!(hits.len(), 1, "{url}");
        assert_eq!(hits[0]["valid"], false);
        let errors = hits[0]["errors"].to_string();
        assert!(errors.contains(code), "{url}: {errors}");
    }
    let good = "ftp://ftp.example.org/f;type=i data:,A%20brief%20note \
        tel:+1-201-555-0123 news:p0@example.com mailto:a@example.org\n";
    assert_eq!(lines(&[], good).len(), 5);
}

#[test]
fn library_hit_warnings() {
    let extractor = Extractor::builder().build().unwrap();
    let hits = extractor.find(b"see http://u:p@example.org:8080/ now");
    assert_eq!(hits.len(), 1);
    let codes: Vec<&str> = hits[0].warnings().iter().map(|w| w.code).collect();
    assert_eq!(
        codes,
        ["http-userinfo", "userinfo-password", "non-default-port"]
    );
}

/// Every scheme urlx recognises without `//` in bare text is in the
/// bundled IANA registry.
#[test]
fn opaque_schemes_are_registered() {
    for s in urlx::OPAQUE_SCHEMES {
        assert!(urlx::data::registry::is_registered(s), "{s}");
    }
}

#[test]
fn scheme_list_takes_registry_groups() {
    let text = "tag:example.com,2004:x spotify:track:abc http://a.example/ \
        foo:bar\n";
    assert_eq!(lines(&[], text), ["http://a.example/"]);
    // RFC 7595 statuses: tag is permanent, spotify provisional.
    assert_eq!(
        lines(&["--scheme", "permanent"], text),
        ["tag:example.com,2004:x", "http://a.example/"]
    );
    assert_eq!(
        lines(&["--scheme", "registered"], text),
        ["tag:example.com,2004:x", "spotify:track:abc", "http://a.example/"]
    );
    let out = Command::new(env!("CARGO_BIN_EXE_urlx"))
        .args(["--scheme", "foo,HTTP", "-"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("\"foo\" is not in the IANA registry"), "{err}");
    assert!(!err.contains("http"), "{err}");
    assert_eq!(lines(&["--scheme", "foo"], text), ["foo:bar"]);
}

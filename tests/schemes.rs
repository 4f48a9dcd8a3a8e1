//! Schemes, normal forms, IRIs and warnings, end to end: the scheme's
//! own rules make a hit invalid, the security lint and the registry give
//! warnings, and the printing options built on normal forms
//! (`--normalize`, `-u`, `--count-unique`, `--hosts`, `--ascii`,
//! `--warnings`) print what they say.

use serde_json::Value;
use urlx::Extractor;

use crate::common::urlx_stdin;

/// Run the binary with `args` on `stdin`; (exit code, stdout).
fn run(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let r = urlx_stdin(args, stdin);
    (r.code, r.out())
}

fn lines(args: &[&str], stdin: &str) -> Vec<String> {
    run(args, stdin).1.lines().map(str::to_string).collect()
}

fn json(args: &[&str], stdin: &str) -> Vec<Value> {
    urlx_stdin(args, stdin).json()
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
    // UTS #58: a closer that pairs with nothing, and Soft punctuation
    // with no more of the URL after it, end a URL; Soft punctuation
    // followed by letters is inside it (CJK text without a space after
    // a URL runs on, as UTS #58 says).
    let text = "（http://example.com/パス）と «http://a.example/x»、 \
        http://b.example/y、 次 http://c.example/z、次\n";
    assert_eq!(
        lines(&[], text),
        [
            "http://example.com/パス",
            "http://a.example/x",
            "http://b.example/y",
            "http://c.example/z、次"
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
    let err = urlx_stdin(&["--scheme", "foo,HTTP", "-"], "").stderr;
    assert!(err.contains("\"foo\" is not in the IANA registry"), "{err}");
    assert!(!err.contains("http"), "{err}");
    assert_eq!(lines(&["--scheme", "foo"], text), ["foo:bar"]);
}

const ABBREV: &str = "See www.example.com/path, ftp.funet.fi and \
    joe.bloggs+tag@example.org, not node.js, 1,420.00.zip or a@b.\n\
    http://www.example.org/x?u=www.a.com mailto:a@b.example \
    <www.w3.org/Addressing/> (see www.example.co.uk:8080/a_(b)).\n\
    Message-ID: <20020710092545.D20950@example.com>\n";

/// 2396bis Appendix F: abbreviated URIs and bare addresses, only when
/// asked for, with a public suffix, never inside a URL.
#[test]
fn abbreviated_uris_and_emails() {
    let full = ["http://www.example.org/x?u=www.a.com", "mailto:a@b.example"];
    assert_eq!(lines(&[], ABBREV), full);
    assert_eq!(
        lines(&["--abbreviated"], ABBREV),
        [
            "www.example.com/path",
            "ftp.funet.fi",
            full[0],
            full[1],
            "www.w3.org/Addressing/",
            "www.example.co.uk:8080/a_(b)",
        ]
    );
    assert_eq!(
        lines(&["--emails", "--resolved"], ABBREV),
        ["mailto:joe.bloggs+tag@example.org", full[0], full[1]]
    );
    let hits = json(&["--json", "--abbreviated", "--emails"], ABBREV);
    let kinds: Vec<(&str, &str, &Value)> = hits
        .iter()
        .map(|h| {
            (
                h["url"].as_str().unwrap(),
                h["resolved"].as_str().unwrap(),
                &h["abbreviated"],
            )
        })
        .collect();
    assert_eq!(
        kinds[0],
        ("www.example.com/path", "http://www.example.com/path", &"www".into())
    );
    assert_eq!(
        kinds[1],
        ("ftp.funet.fi", "ftp://ftp.funet.fi", &"ftp".into())
    );
    assert_eq!(
        kinds[2],
        (
            "joe.bloggs+tag@example.org",
            "mailto:joe.bloggs+tag@example.org",
            &"email".into()
        )
    );
    assert_eq!(kinds[3].2, &Value::Null);
    // Positions point at the text as written.
    let start = hits[0]["start"].as_u64().unwrap() as usize;
    let end = hits[0]["end"].as_u64().unwrap() as usize;
    assert_eq!(&ABBREV[start..end], "www.example.com/path");
}

/// The text of `<URL:...>` and an address after a label such as
/// `Email:` are addresses (src/abbrev.rs rule 7); a scheme or an ident
/// before the colon is not a label.
#[test]
fn emails_in_url_prefix_and_after_labels() {
    let text = "<url:joe@example.com> Email:ann@example.org \
        Contact:bob@example.net <URL:eve@example.com>\n\
        sip:sip@example.com (IDENT:root@host.example.com) x:y@example.com\n";
    assert_eq!(
        lines(&["--emails", "--resolved"], text),
        [
            "mailto:joe@example.com",
            "mailto:ann@example.org",
            "mailto:bob@example.net",
            "mailto:eve@example.com",
            "sip:sip@example.com",
        ]
    );
    let hits = json(&["--emails", "--json"], text);
    assert_eq!(hits[0]["url"], "joe@example.com");
    assert_eq!(hits[0]["context"], "url-prefix");
    assert_eq!(hits[0]["abbreviated"], "email");
    // Without --emails the text of `<url:...>` stays a relative
    // reference.
    assert_eq!(
        lines(&["--invalid"], "<url:joe@example.com>\n"),
        ["joe@example.com"]
    );
}

/// A `-` or `--` after an address is the text's dash (a host name
/// never ends with `-`, RFC 1123 section 2.1), and a label starting
/// with `-` is no host name (src/abbrev.rs rules 8 and 12).
#[test]
fn emails_before_a_dash_and_domains_starting_with_a_hyphen() {
    let text = "joe@example.com--the team, ann@example.org- and \
        bob@example.net-------Attention; not eve@-x.example.com nor \
        eve@x-.example.com, but eve@xn--bcher-kva.de\n";
    assert_eq!(
        lines(&["--emails"], text),
        [
            "joe@example.com",
            "ann@example.org",
            "bob@example.net",
            "eve@xn--bcher-kva.de"
        ]
    );
}

/// UTS #58: local parts in every script (Link_Email), and the address
/// ends with its domain.
#[test]
fn emails_follow_uts58_local_parts() {
    let text = "αβγ.δεζ@example.com müller@example.de .john@example.com \
        john..doe@example.com john.@example.com x@example.com/path\n";
    assert_eq!(
        lines(&["--emails", "--resolved"], text),
        [
            "mailto:αβγ.δεζ@example.com",
            "mailto:müller@example.de",
            "mailto:x@example.com",
        ]
    );
}

const DOMAINS: &str = "See example.com/αβγ?δ#ε, deΩ.uk and \
    example.com:443; (example.com/a_(b)) 普遍适用测试。我爱你 \
    joe@example.org, not node.js, src/main.rs, 1,420.00.zip, .fr.\n\
    http://www.example.org/x?u=example.net/y\n";

/// `--domains` (UTS #58): bare domain names, printed as written, read
/// as `http://`; an `@` before one makes it an address's domain.
#[test]
fn domains_are_found_with_the_option_only() {
    let full = "http://www.example.org/x?u=example.net/y";
    assert_eq!(lines(&[], DOMAINS), [full]);
    assert_eq!(
        lines(&["--domains"], DOMAINS),
        [
            "example.com/αβγ?δ#ε",
            "deΩ.uk",
            "example.com:443",
            "example.com/a_(b)",
            "普遍适用测试。我爱你",
            full,
        ]
    );
    assert_eq!(
        lines(&["--domains", "--emails", "--resolved"], DOMAINS),
        [
            "http://example.com/αβγ?δ#ε",
            "http://deΩ.uk",
            "http://example.com:443",
            "http://example.com/a_(b)",
            "http://普遍适用测试。我爱你",
            "mailto:joe@example.org",
            full,
        ]
    );
    let hits = json(&["--domains", "--json"], DOMAINS);
    assert_eq!(hits[0]["abbreviated"], "domain");
    assert_eq!(hits[0]["resolved"], "http://example.com/αβγ?δ#ε");
    let start = hits[0]["start"].as_u64().unwrap() as usize;
    let end = hits[0]["end"].as_u64().unwrap() as usize;
    assert_eq!(&DOMAINS[start..end], "example.com/αβγ?δ#ε");
    // With --abbreviated too, `www.` and `ftp.` hosts keep their kind.
    let hits = json(
        &["--domains", "--abbreviated", "--json"],
        "www.example.com ftp.example.org example.net\n",
    );
    let kinds: Vec<(&Value, &Value)> =
        hits.iter().map(|h| (&h["resolved"], &h["abbreviated"])).collect();
    assert_eq!(
        kinds,
        [
            (&"http://www.example.com".into(), &"www".into()),
            (&"ftp://ftp.example.org".into(), &"ftp".into()),
            (&"http://example.net".into(), &"domain".into()),
        ]
    );
}

/// The same hits however the input is cut into chunks and batches.
#[test]
fn abbreviated_forms_do_not_depend_on_chunking() {
    same_for_every_cut(&ABBREV.repeat(40), 40 * 7, |b| {
        b.abbreviated(true);
    });
    same_for_every_cut(&DOMAINS.repeat(40), 40 * 7, |b| {
        b.domains(true);
    });
}

/// `text` with e-mail addresses and `mode` gives `hits` hits, the same
/// for every chunk and batch size.
fn same_for_every_cut(
    text: &str,
    hits: usize,
    mode: impl Fn(&mut urlx::ExtractorBuilder),
) {
    let run = |chunk: usize, batch: usize| {
        let mut b = Extractor::builder();
        mode(&mut b);
        b.emails(true)
            .line_numbers(true)
            .chunk_size(chunk)
            .batch_size(batch)
            .build()
            .unwrap()
            .find(text.as_bytes())
    };
    let whole = run(1 << 20, 1 << 20);
    assert_eq!(whole.len(), hits);
    for (chunk, batch) in [(1, 1), (7, 13), (64, 64), (333, 1000)] {
        assert_eq!(run(chunk, batch), whole, "chunk {chunk} batch {batch}");
    }
}

#[test]
fn refang_reads_defanged_urls() {
    let text = "IOC: hxxps://evil[.]example[.]org/x and hxxp://bad[.]example.com/ \
        and http://ok.example/\n";
    assert_eq!(lines(&[], text), ["http://ok.example/"]);
    assert_eq!(
        lines(&["--refang"], text),
        [
            "hxxps://evil[.]example[.]org/x",
            "hxxp://bad[.]example.com/",
            "http://ok.example/"
        ]
    );
    assert_eq!(
        lines(&["--refang", "--resolved"], text),
        [
            "https://evil.example.org/x",
            "http://bad.example.com/",
            "http://ok.example/"
        ]
    );
    let hits = json(&["--json", "--refang"], text);
    assert_eq!(hits[0]["refanged"], true);
    assert_eq!(hits[0]["valid"], true);
    assert_eq!(hits[2]["refanged"], false);
}

#[test]
fn encoded_reads_percent_base64_and_hex_urls() {
    // A log line with a redirect target, a base64 configuration value,
    // a hex string and a tracker link whose target is encoded.
    let text = "GET /r?to=http%3A%2F%2Fevil.example%2Fpay%3Fid%3D7 HTTP/1.1\n\
        config: aHR0cHM6Ly9jMi5leGFtcGxlLm5ldC9nYXRlLnBocA==\n\
        hex 68747470733a2f2f6d616c776172652e6578616d706c652f782e657865 end\n\
        see https://t.example/r?u=https%3A%2F%2Fa.example%2Fx&k=2 done\n";
    assert_eq!(
        lines(&[], text),
        ["https://t.example/r?u=https%3A%2F%2Fa.example%2Fx&k=2"]
    );
    assert_eq!(
        lines(&["--encoded"], text),
        [
            "http://evil.example/pay?id=7",
            "https://c2.example.net/gate.php",
            "https://malware.example/x.exe",
            "https://t.example/r?u=https%3A%2F%2Fa.example%2Fx&k=2",
            "https://a.example/x",
        ]
    );
    let hits = json(&["--json", "--encoded"], text);
    let kinds: Vec<Option<&str>> =
        hits.iter().map(|h| h["encoded"].as_str()).collect();
    assert_eq!(
        kinds,
        [Some("percent"), Some("base64"), Some("hex"), None, Some("percent")]
    );
    // Each hit's offsets are those of its encoded text.
    let at = |h: &Value| {
        let (s, e) =
            (h["start"].as_u64().unwrap(), h["end"].as_u64().unwrap());
        &text[s as usize..e as usize]
    };
    assert_eq!(at(&hits[0]), "http%3A%2F%2Fevil.example%2Fpay%3Fid%3D7");
    // (The `=` padding holds no bit of the URL.)
    assert_eq!(at(&hits[1]), "aHR0cHM6Ly9jMi5leGFtcGxlLm5ldC9nYXRlLnBocA");
    assert_eq!(at(&hits[4]), "https%3A%2F%2Fa.example%2Fx");
    assert_eq!(
        (hits[2]["line"].as_u64(), hits[4]["line"].as_u64()),
        (Some(3), Some(4))
    );
    for h in [&hits[0], &hits[1], &hits[2], &hits[4]] {
        assert_eq!(h["warnings"][0]["code"], "encoded-url", "{h}");
    }
    assert_eq!(hits[3]["warnings"].as_array().map(Vec::len), Some(0));
}

#[test]
fn encoded_urls_in_mail_html() {
    // A click tracker in an HTML part, quoted-printable: the target is
    // found in the href as well as the href itself.
    let mail = "From: a@example.org\nSubject: x\nMIME-Version: 1.0\n\
        Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n\
        <a href=3D\"https://click.example/c?u=3Dhttps%3A%2F%2Fshop.example%2Fsale=\n\
        &amp;id=3D9\">sale</a>\n";
    let hits = json(&["--json", "--encoded"], mail);
    let got: Vec<(&str, &Value)> = hits
        .iter()
        .map(|h| (h["url"].as_str().unwrap(), &h["encoded"]))
        .collect();
    assert_eq!(
        got,
        [
            (
                "https://click.example/c?u=https%3A%2F%2Fshop.example%2Fsale&id=9",
                &Value::Null
            ),
            ("https://shop.example/sale", &Value::from("percent")),
        ]
    );
    assert_eq!(hits[1]["source"], "html-attr");
}

#[test]
fn refang_reads_defanged_colons_and_escaped_dots() {
    // `[:]` and `[://]` stand for the colon; `\.` for a dot.
    let text = "http[:]//x[.]org/p hxxps[://]x[.]net/p http://evil\\.com/a\n";
    assert_eq!(
        lines(&["--refang", "--resolved"], text),
        ["http://x.org/p", "https://x.net/p", "http://evil.com/a"]
    );
    assert_eq!(
        lines(&["--refang"], text),
        ["http[:]//x[.]org/p", "hxxps[://]x[.]net/p", "http://evil\\.com/a"]
    );
    // Without --refang the colons are not colons of URLs.
    assert_eq!(lines(&[], "http[:]//x[.]org/p\n"), Vec::<String>::new());
}

/// Redirector links: the vectors are in src/unwrap.rs; here the CLI.
#[test]
fn unwrap_prints_the_target() {
    let text = "https://urldefense.proofpoint.com/v2/url?u=http-3A__www.example.com_a&d=x \
        https://www.google.com/url?q=https%3A%2F%2Fexample.org%2Fp%3Fa%3D1&sa=D \
        http://plain.example/\n";
    assert_eq!(
        lines(&["--unwrap"], text),
        [
            "http://www.example.com/a",
            "https://example.org/p?a=1",
            "http://plain.example/"
        ]
    );
    let hits = json(&["--json"], text);
    assert_eq!(hits[0]["unwrapped"], "http://www.example.com/a");
    assert_eq!(hits[2]["unwrapped"], Value::Null);
}

mod abbrev_chunking {
    use proptest::prelude::*;
    use urlx::Extractor;

    const PIECES: &[&str] = &[
        "www.",
        "ftp.",
        "example.com",
        ".org",
        "joe",
        "@",
        ".",
        "/",
        " ",
        "\n",
        "http://a.example/",
        "mailto:",
        ":",
        "<",
        ">",
        "(",
        ")",
        "x",
        "Message-ID: <",
        "-\n ",
        "hxxp://b[.]example/",
        "。",
        "我爱你",
        "αβγ",
        "--",
        "?q=(",
        "#a:~:",
        "<URL:",
        "Email:",
        "http%3A%2F%2Fa.example%2F",
        "%3a%2F",
        "aHR0cDovL2EuZXhhbXBsZS8=",
        "aHR0cHM6Ly9",
        "687474703a2f2f612e6578616d706c652f",
        "6674703a2f2f",
    ];

    fn run(text: &[u8], chunk: usize, batch: usize) -> Vec<urlx::Hit> {
        Extractor::builder()
            .abbreviated(true)
            .emails(true)
            .domains(true)
            .refang(true)
            .encoded(true)
            .line_numbers(true)
            .max_url_len(64)
            .chunk_size(chunk)
            .batch_size(batch)
            .build()
            .unwrap()
            .find(text)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// With abbreviated forms, domains, addresses, refanging and
        /// encoded URLs on, the output still does not depend on how the
        /// input is cut.
        #[test]
        fn same_for_every_chunking(
            v in prop::collection::vec(prop::sample::select(PIECES), 0..60),
            chunk in 1usize..40,
            batch in 1usize..200,
        ) {
            let text = v.concat();
            let whole = run(text.as_bytes(), 1 << 20, 1 << 20);
            prop_assert_eq!(whole, run(text.as_bytes(), chunk, batch));
        }
    }
}

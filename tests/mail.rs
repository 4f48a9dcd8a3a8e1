//! Mail and news input: format detection, mbox framing, MIME decoding
//! (quoted-printable soft breaks inside URLs, base64, nested multipart,
//! charsets), HTML attributes and `<base href>`, the base URI layers of
//! a message, header URLs, provenance in JSON, compressed archives. The
//! expected values were read off the sample files in `corpora/mail`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::{BIN, urlx_stdin};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora").join(name)
}

/// JSON hits of `urlx --json ARGS...`.
fn json(args: &[&str]) -> Vec<Value> {
    let out = Command::new(BIN).arg("--json").args(args).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The `url` of each hit, in order.
fn urls(hits: &[Value]) -> Vec<&str> {
    hits.iter().map(|h| h["url"].as_str().unwrap()).collect()
}

/// Three string fields of each hit, in order (`""` where one is absent).
fn three<'a>(
    hits: &'a [Value],
    keys: [&str; 3],
) -> Vec<(&'a str, &'a str, &'a str)> {
    let field = |h: &'a Value, k: &str| h[k].as_str().unwrap_or_default();
    hits.iter()
        .map(|h| (field(h, keys[0]), field(h, keys[1]), field(h, keys[2])))
        .collect()
}

/// The hit whose URL is `url` (the first one).
fn find<'a>(hits: &'a [Value], url: &str) -> &'a Value {
    hits.iter()
        .find(|h| h["url"] == url)
        .unwrap_or_else(|| panic!("no hit {url}"))
}

fn usrp() -> String {
    sample("mail/usrp-users-4.mboxrd.gz").display().to_string()
}

#[test]
fn qp_soft_break_inside_url_is_joined() {
    // usrp-users-4 message 3, line 701 of the decompressed mbox:
    // `http://lists.ettus.com/pipermail/.../2018-April/056=` + `223.html`.
    let hits = json(&[&usrp()]);
    let url = "http://lists.ettus.com/pipermail/usrp-users_lists.ettus.com/2018-April/056223.html";
    let h = find(&hits, url);
    assert_eq!(h["message"], 3);
    assert_eq!(
        h["message_id"],
        "5F41CEE9-58DF-4868-89C2-5F88876803DF@k5so.com"
    );
    assert_eq!(h["part"], "1.1");
    assert_eq!(h["source"], "text");
    assert_eq!(h["decoded"], "quoted-printable");
    assert_eq!(h["line"], 701);
    assert_eq!(h["column"], 1);
    // The same URL in angle brackets two lines below.
    let angle: Vec<_> = hits
        .iter()
        .filter(|h| h["url"] == url && h["context"] == "angle")
        .collect();
    assert_eq!(angle.len(), 1);
    assert_eq!(angle[0]["line"], 703);
    assert_eq!(angle[0]["column"], 2);
}

#[test]
fn qp_html_attribute_is_decoded() {
    // Message 2, line 499: href=3D"http://lists.ettus.com/mailman/
    // listinfo/usrp-users_lists.ettus.c=" + "om".
    let hits = json(&[&usrp()]);
    let url =
        "http://lists.ettus.com/mailman/listinfo/usrp-users_lists.ettus.com";
    let attr: Vec<_> = hits
        .iter()
        .filter(|h| {
            h["url"] == url && h["source"] == "html-attr" && h["message"] == 2
        })
        .collect();
    assert_eq!(attr.len(), 1, "{hits:#?}");
    assert_eq!(attr[0]["decoded"], "quoted-printable");
    assert_eq!(attr[0]["line"], 499);
    assert_eq!(attr[0]["context"], "href");
}

#[test]
fn no_raw_qp_artifacts() {
    // Decoding leaves no `=3D` and no URL cut at a soft break.
    for h in json(&[&usrp()]) {
        let url = h["url"].as_str().unwrap();
        assert!(!url.contains("=3D"), "{url}");
        assert!(!url.ends_with('='), "{url}");
    }
}

#[test]
fn format_text_scans_raw_bytes() {
    // The same mbox as plain text: the URL is cut at the soft break.
    let hits = json(&["--format", "text", &usrp()]);
    assert!(hits.iter().all(|h| h.get("message").is_none()));
    assert!(hits.iter().any(|h| h["url"]
        == "http://lists.ettus.com/pipermail/usrp-users_lists.ettus.com/2018-April/056="));
}

#[test]
fn messages_are_numbered_in_archive_order() {
    let hits = json(&[&usrp()]);
    let numbers: Vec<u64> =
        hits.iter().map(|h| h["message"].as_u64().unwrap()).collect();
    assert!(numbers.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(numbers.first(), Some(&1));
    assert_eq!(numbers.last(), Some(&4));
    let lines: Vec<u64> =
        hits.iter().map(|h| h["line"].as_u64().unwrap()).collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
}

#[test]
fn list_headers_are_found() {
    let hits = json(&[&usrp()]);
    let headers: Vec<_> =
        hits.iter().filter(|h| h["source"] == "header").collect();
    assert!(headers.iter().any(|h| {
        h["header"] == "List-Unsubscribe"
            && h["url"]
                .as_str()
                .unwrap()
                .starts_with("mailto:usrp-users-request@lists.ettus.com")
    }));
    assert!(headers.iter().any(|h| h["header"] == "List-Archive"));
    for h in headers {
        assert_eq!(h["part"], "");
        assert_eq!(h["decoded"], "none");
    }
}

#[test]
fn gzip_and_plain_give_the_same_hits() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("u.mbox");
    let out = Command::new("gzip").arg("-dc").arg(usrp()).output().unwrap();
    std::fs::write(&plain, out.stdout).unwrap();
    let strip = |mut v: Vec<Value>| {
        for h in &mut v {
            h.as_object_mut().unwrap().remove("file");
        }
        v
    };
    assert_eq!(
        strip(json(&[&usrp()])),
        strip(json(&[plain.to_str().unwrap()]))
    );
    // -z decompresses standard input by its magic bytes.
    let z = Command::new(BIN)
        .args(["-z", "-c", "-"])
        .stdin(std::fs::File::open(usrp()).unwrap())
        .output()
        .unwrap();
    let n = json(&[&usrp()]).iter().filter(|h| h["valid"] == true).count();
    assert_eq!(String::from_utf8(z.stdout).unwrap().trim(), n.to_string());
}

#[test]
fn content_base_resolves_relative_links() {
    // sa-spam_2-00756: Content-Base "http://www.rebackee.com/cursos2/"
    // and <BASE HREF="http://www.rebackee.com/cursos2/"> in QP HTML.
    let hits = json(&[&sample(
        "mail/sa-spam_2-00756.b68f9bcfd782a01a2ece132eccdcbbe9.eml",
    )
    .display()
    .to_string()]);
    let attrs: Vec<_> =
        hits.iter().filter(|h| h["source"] == "html-attr").collect();
    assert!(!attrs.is_empty());
    for h in &attrs {
        let url = h["url"].as_str().unwrap();
        if !url.contains(':') {
            let resolved = h["resolved"].as_str().unwrap();
            assert!(
                resolved.starts_with("http://www.rebackee.com/cursos2/")
                    || resolved.starts_with("http://www.rebackee.com/"),
                "{url} -> {resolved}"
            );
            assert_eq!(h["valid"], true);
        }
    }
}

#[test]
fn relative_html_references_print_resolved() {
    // The same message as above: its relative references
    // (`../www/imagesjulio/contraloria.jpg`, `#Map`) are printed against
    // its base, so the output can go to `xargs curl`.
    let out = Command::new(BIN)
        .arg(sample(
            "mail/sa-spam_2-00756.b68f9bcfd782a01a2ece132eccdcbbe9.eml",
        ))
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(
            &"http://www.rebackee.com/www/imagesjulio/contraloria.jpg"
        )
    );
    assert!(lines.contains(&"http://www.rebackee.com/cursos2/#Map"));
    assert!(
        lines.iter().all(|l| l.contains(':')),
        "a relative reference printed as written: {out}"
    );
}

#[test]
fn nested_message_parts() {
    // spamassassin nice/mime9: multipart/mixed with message/rfc822
    // parts, one holding a multipart/mixed with a multipart/alternative.
    let hits = json(&[&sample("mail/spamassassin-nice-mime9.eml")
        .display()
        .to_string()]);
    assert!(!hits.is_empty());
    let parts: Vec<&str> =
        hits.iter().map(|h| h["part"].as_str().unwrap()).collect();
    assert!(parts.iter().any(|p| p.matches('.').count() >= 2), "{parts:?}");
}

#[test]
fn base64_parts_point_at_their_first_body_line() {
    let f = sample("mail/spamassassin-nice-cjk-big5-base64.1.eml");
    let hits = json(&[&f.display().to_string(), "--invalid"]);
    let text = std::fs::read(&f).unwrap();
    for h in hits.iter().filter(|h| h["decoded"] == "base64") {
        let start = h["start"].as_u64().unwrap() as usize;
        // A base64 hit points at the start of a line of the file.
        assert!(start == 0 || text[start - 1] == b'\n', "{h}");
    }
}

#[test]
fn news_article_is_detected() {
    let f = sample("news/inn-test-article-1.txt");
    let out = Command::new(BIN)
        .args(["--json", "--invalid"])
        .arg(&f)
        .output()
        .unwrap();
    // No URL in it, but it must parse without a warning.
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn message_id_prefix() {
    let out = Command::new(BIN)
        .args(["--message-id", "--no-filename"])
        .arg(usrp())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l
        == "5F41CEE9-58DF-4868-89C2-5F88876803DF@k5so.com http://lists.ettus.com/pipermail/usrp-users_lists.ettus.com/2018-April/056223.html"));
}

#[test]
fn thread_count_does_not_change_mail_output() {
    let run = |j: &str| {
        Command::new(BIN)
            .args(["-j", j, "--json", "-n"])
            .arg(sample("mail"))
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run("1"), run("2"));
}

/// Resolved forms of the HTML links of one message read as mail.
fn resolved_links(msg: &str, base: Option<&str>) -> Vec<String> {
    let ex = urlx::Extractor::builder()
        .format(urlx::mail::InputFormat::Eml)
        .base(base)
        .build()
        .unwrap();
    ex.find(msg.as_bytes())
        .iter()
        .filter(|h| {
            h.provenance().is_some_and(|p| p.source == urlx::Source::HtmlAttr)
        })
        .map(|h| h.resolved().unwrap_or("-").to_string())
        .collect()
}

const HTML_PART: &str =
    "Content-Type: text/html\n\n<a href=\"x/y.html\">y</a>\n";

#[test]
fn base_layer_html_base_href_wins() {
    let msg = format!(
        "Subject: a\nContent-Base: http://cb.example/c/\n{}",
        HTML_PART.replace("<a", "<base href=\"http://hb.example/h/\"><a")
    );
    assert_eq!(
        resolved_links(&msg, Some("http://cli.example/")),
        ["http://hb.example/h/", "http://hb.example/h/x/y.html"]
    );
}

#[test]
fn base_layer_html_base_counts_for_links_before_it() {
    // Relative to the part's base, the document read once and again.
    let msg = format!(
        "Subject: a\nContent-Base: http://cb.example/c/\n{}",
        HTML_PART
            .replace("\n<a", "\n<p>see http://t.example/</p><a")
            .replace("</a>", "</a><base href=\"../h/\"><a href=\"z\">z</a>")
    );
    assert_eq!(
        resolved_links(&msg, None),
        [
            "http://cb.example/h/x/y.html",
            "http://cb.example/h/",
            "http://cb.example/h/z"
        ]
    );
    let ex = urlx::Extractor::builder()
        .format(urlx::mail::InputFormat::Eml)
        .build()
        .unwrap();
    let text: Vec<String> = ex
        .find(msg.as_bytes())
        .iter()
        .filter(|h| {
            h.provenance().is_some_and(|p| p.source == urlx::Source::HtmlText)
        })
        .map(|h| h.url().to_string())
        .collect();
    assert_eq!(text, ["http://t.example/"]);
}

#[test]
fn base_layer_content_base() {
    let msg =
        format!("Subject: a\nContent-Base: http://cb.example/c/\n{HTML_PART}");
    assert_eq!(resolved_links(&msg, None), ["http://cb.example/c/x/y.html"]);
}

#[test]
fn base_layer_content_location_relative_to_enclosing_base() {
    let msg = "Subject: a\nContent-Base: http://cb.example/c/\n\
        Content-Type: multipart/related; boundary=\"B\"\n\n--B\n\
        Content-Type: text/html\nContent-Location: sub/page.html\n\n\
        <a href=\"x/y.html\">y</a>\n--B--\n";
    assert_eq!(
        resolved_links(msg, None),
        ["http://cb.example/c/sub/x/y.html"]
    );
}

#[test]
fn base_layer_inherited_from_the_enclosing_multipart() {
    let msg = "Subject: a\nContent-Base: http://cb.example/c/\n\
        Content-Type: multipart/alternative; boundary=\"B\"\n\n--B\n\
        Content-Type: text/plain\n\nplain\n--B\n\
        Content-Type: text/html\n\n<a href=\"x/y.html\">y</a>\n--B--\n";
    assert_eq!(resolved_links(msg, None), ["http://cb.example/c/x/y.html"]);
}

#[test]
fn base_layer_command_line_last() {
    let msg = format!("Subject: a\n{HTML_PART}");
    assert_eq!(
        resolved_links(&msg, Some("http://cli.example/d/")),
        ["http://cli.example/d/x/y.html"]
    );
    assert_eq!(resolved_links(&msg, None), ["-"]);
}

#[test]
fn compressed_formats_read_the_same() {
    // The same small mbox compressed four ways (tests/data/compressed,
    // made with the gzip, bzip2, xz and zstd tools).
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/compressed");
    let plain = json(&[dir.join("two.mbox").to_str().unwrap()]);
    assert_eq!(plain.len(), 3);
    for ext in ["gz", "bz2", "xz", "zst"] {
        let f = dir.join(format!("two.mbox.{ext}"));
        let mut got = json(&[f.to_str().unwrap()]);
        for h in &mut got {
            h["file"] = plain[0]["file"].clone();
        }
        assert_eq!(got, plain, "{ext}");
    }
}

#[test]
fn from_line_in_body_is_not_a_separator() {
    // An mbox whose writer did not quote a body line starting `From `
    // (SYNTHETIC: the shared corpora have none unquoted): the line is
    // text, its URL is found, and the next real separator still counts.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.mbox");
    std::fs::write(
        &f,
        "From a@b.example Thu Jan  1 00:00:00 1970\nSubject: one\n\n\
         intro\n\nFrom here on http://x.example/new is the place\n\n\
         From c@d.example  Sat Jan 19 15:26:33 EST 2002\nSubject: two\n\n\
         see http://y.example/\n",
    )
    .unwrap();
    let hits = json(&[f.to_str().unwrap()]);
    let h = find(&hits, "http://x.example/new");
    assert_eq!(h["message"], 1);
    assert_eq!(h["line"], 6);
    assert_eq!(h["column"], 14);
    let h = find(&hits, "http://y.example/");
    assert_eq!(h["message"], 2);
    assert_eq!(h["line"], 11);
    // A text file that starts with such a line is text.
    std::fs::write(&f, "From the README: http://z.example/\n").unwrap();
    let hits = json(&[f.to_str().unwrap()]);
    assert_eq!(hits.len(), 1);
    assert!(hits[0].get("message").is_none());
}

#[test]
fn content_class_urn_not_printed() {
    // notmuch lkml 1382298775.004354: `Content-class:
    // urn:content-classes:message` (Microsoft Exchange).
    let f = sample("mail/notmuch-lkml-1382298775.004354.eml");
    let hits = json(&[f.to_str().unwrap(), "--invalid"]);
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h["url"] != "urn:content-classes:message"));
}

#[test]
fn yenc_data_gives_no_url_in_news() {
    // A news article with a yEnc block (SYNTHETIC): only the URLs of
    // the text around it, at their places in the file.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("article");
    let mut article = b"Path: a!b\nNewsgroups: alt.binaries.test\n\
        Subject: x (1/1)\n\nsee http://before.example/\n\
        =ybegin line=128 size=40 name=x.bin\n"
        .to_vec();
    article.extend_from_slice(
        b"\xe9http://noise.example/\x80\xff www.no.example\n",
    );
    article.extend_from_slice(b"=yend size=40\nafter http://after.example/\n");
    std::fs::write(&f, &article).unwrap();
    let out = Command::new(BIN).arg("--json").arg(&f).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let hits: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let urls = urls(&hits);
    assert_eq!(urls, ["http://before.example/", "http://after.example/"]);
    assert_eq!(hits[1]["line"], 9);
    assert_eq!(hits[1]["column"], 7);
}

/// A file under `tests/data/`.
fn test_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Checks that `hit` points at `url` as written in `file`: its `start`,
/// `end`, `line` and `column` (1-based, in bytes).
fn assert_at(file: &[u8], hit: &Value, url: &str) {
    let start = hit["start"].as_u64().unwrap() as usize;
    let end = hit["end"].as_u64().unwrap() as usize;
    assert_eq!(&file[start..end], url.as_bytes(), "{hit}");
    let before = &file[..start];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let line_start =
        before.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
    assert_eq!(hit["line"], line as u64, "{hit}");
    assert_eq!(hit["column"], (start - line_start + 1) as u64, "{hit}");
}

#[test]
fn epilogue_footer_is_scanned() {
    // SpamAssassin easy_ham 00014: a multipart/signed message whose
    // list footer (Mailman) follows the close delimiter, in the
    // epilogue (RFC 2046 5.1.1), on line 145.
    let f = test_data("mime/sa-easyham-00014-epilogue.eml");
    let file = std::fs::read(&f).unwrap();
    let hits = json(&[f.to_str().unwrap()]);
    let url = "https://listman.redhat.com/mailman/listinfo/exmh-workers";
    let footer: Vec<&Value> = hits
        .iter()
        .filter(|h| h["url"] == url && h["source"] == "text")
        .collect();
    assert_eq!(footer.len(), 1, "{hits:#?}");
    let h = footer[0];
    assert_eq!(h["part"], "epilogue");
    assert_eq!(h["decoded"], "none");
    assert_eq!(h["line"], 145);
    assert_eq!(h["column"], 1);
    assert_at(&file, h, url);
}

/// The JSON hits of a sample in `tests/data/mime/`, with its bytes.
fn mime_sample(name: &str) -> (Vec<u8>, Vec<Value>) {
    let f = test_data(&format!("mime/{name}"));
    let hits = json(&[f.to_str().unwrap(), "--invalid"]);
    (std::fs::read(&f).unwrap(), hits)
}

/// The hits of `url` from `source` in `hits`.
fn hits_of<'a>(hits: &'a [Value], url: &str, source: &str) -> Vec<&'a Value> {
    hits.iter().filter(|h| h["url"] == url && h["source"] == source).collect()
}

#[test]
fn option_value_url_found() {
    // SpamAssassin hard_ham 00034 (a CNET newsletter): a search form's
    // `<option value="http://...">` entries, lines 50 to 52; `value` is
    // no URL attribute, but its value is scanned as text.
    let (file, hits) = mime_sample("sa-hardham-00034-option-value.eml");
    for (line, url) in [
        (50, "http://news.search.com/search?tag=ex.ne.newsletter.srch.ne"),
        (51, "http://cnet.search.com/search?tag=ex.ne.newsletter.srch.cnet"),
        (52, "http://www.search.com/search?tag=ex.ne.newsletter.srch.web"),
    ] {
        let found = hits_of(&hits, url, "html-attr");
        assert_eq!(found.len(), 1, "{url}");
        assert_eq!(found[0]["line"], line);
        assert_eq!(found[0]["column"], 33);
        assert_eq!(found[0]["context"], "bare");
        assert_eq!(found[0]["attribute"], "option value");
        assert_at(&file, found[0], url);
    }
}

#[test]
fn event_handler_and_plugin_urls_found() {
    // spam_2 00473: `<BODY onLoad="(window.open('http://...'))">`, the
    // URL in a JavaScript string inside an event handler attribute.
    let (file, hits) = mime_sample("sa-spam2-00473-onload.eml");
    let url = "http://e-investmentoptions.com/mtg/";
    let found = hits_of(&hits, url, "html-attr");
    assert_eq!(found.len(), 2, "the onLoad and the HREF: {hits:#?}");
    assert_eq!(found[0]["context"], "quote");
    assert_eq!(found[0]["line"], 33);
    assert_at(&file, found[0], url);
    assert_eq!(found[1]["context"], "href");
    // hard_ham 00201: `<param name="movie" value="...swf">` and
    // `<embed ... pluginspage="http://...">`; the `<embed src>` of the
    // same file is a link, reported once.
    let (file, hits) = mime_sample("sa-hardham-00201-pluginspage.eml");
    let plugin = "http://www.macromedia.com/shockwave/download/index.cgi\
                  ?P1_Prod_Version=ShockwaveFlash";
    let found = hits_of(&hits, plugin, "html-attr");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["line"], 52);
    assert_at(&file, found[0], plugin);
    let swf = "http://www.AshfieldOnline.com/comics/ash20020901.swf";
    let found = hits_of(&hits, swf, "html-attr");
    let places: Vec<(&Value, &Value)> =
        found.iter().map(|h| (&h["line"], &h["context"])).collect();
    assert_eq!(
        places,
        [(&50.into(), &"bare".into()), (&52.into(), &"href".into())]
    );
    for h in found {
        assert_at(&file, h, swf);
    }
}

#[test]
fn xmlns_not_reported() {
    // spam 00391 (Word HTML): `<html xmlns:v="urn:schemas-microsoft-com:
    // vml" ... xmlns="http://www.w3.org/TR/REC-html40">` on lines 30 to
    // 32. Namespace names (Namespaces in XML 1.0 section 2) identify a
    // vocabulary; they are not links, and nothing on those lines is
    // reported, not even as an invalid hit.
    let (_, hits) = mime_sample("sa-spam1-00391-xmlns.eml");
    assert!(!hits.is_empty());
    for h in &hits {
        let line = h["line"].as_u64().unwrap();
        assert!(!(30..=32).contains(&line), "{h}");
        let url = h["url"].as_str().unwrap();
        assert!(!url.contains("w3.org") && !url.starts_with("urn:"), "{h}");
    }
}

#[test]
fn style_url_found() {
    // spam_2 01042: a CSS `url(http://...)` in a `<style>` element whose
    // rules sit inside `<!-- ... -->`, which in a style sheet is text
    // (HTML 13.2.5.3, RAWTEXT state), on line 71.
    let (file, hits) = mime_sample("sa-spam2-01042-style-url.eml");
    let url = "http://www.sancristobalsa.net/letter/images/bg.gif";
    let found = hits_of(&hits, url, "html-text");
    assert_eq!(found.len(), 1, "{hits:#?}");
    assert_eq!(found[0]["line"], 71);
    assert_eq!(found[0]["column"], 5);
    assert_eq!(found[0]["context"], "bracket");
    assert_eq!(found[0]["part"], "");
    assert_at(&file, found[0], url);
}

#[test]
fn script_url_found() {
    // spam_2 00228: `<script>open("http://www.cn1688.net/girls/")
    // </script>` on line 44; the same URL is the href of three links
    // further down, each reported at its own place.
    let (file, hits) = mime_sample("sa-spam2-00228-script.eml");
    let url = "http://www.cn1688.net/girls/";
    let found = hits_of(&hits, url, "html-text");
    assert_eq!(found.len(), 1, "{hits:#?}");
    assert_eq!(found[0]["line"], 44);
    assert_eq!(found[0]["column"], 15);
    assert_eq!(found[0]["context"], "quote");
    assert_at(&file, found[0], url);
    let lines: Vec<&Value> =
        hits_of(&hits, url, "html-attr").iter().map(|h| &h["line"]).collect();
    assert_eq!(lines, [47, 49, 50]);
}

#[test]
fn pgp_signature_comment_is_scanned() {
    // An `application/pgp-signature` part is ASCII armor (RFC 3156 5):
    // its `Comment:` line is text people read.
    let (file, hits) = mime_sample("notmuch-lkml-1354585346.000323-pgp.eml");
    let url = "http://www.datenfreihafen.org/contact.html";
    let found = hits_of(&hits, url, "text");
    assert_eq!(found.len(), 1, "{hits:?}");
    assert_eq!(found[0]["part"], "2");
    assert_at(&file, found[0], url);
}

#[test]
fn base64_trailer_is_scanned() {
    // SpamAssassin nice/cjk/big5-base64.1: a base64 HTML body, then the
    // mailing list's footer as plain text after the data.
    let f = sample("mail/spamassassin-nice-cjk-big5-base64.1.eml");
    let file = std::fs::read(&f).unwrap();
    let hits = json(&[f.to_str().unwrap()]);
    let url = "http://www.softwareliberty.org/mailman/listinfo/slat-talk";
    let found: Vec<&Value> =
        hits.iter().filter(|h| h["part"] == "trailer").collect();
    assert_eq!(found.len(), 1, "{hits:?}");
    assert_eq!(found[0]["url"], url);
    assert_eq!(found[0]["decoded"], "none");
    assert_at(&file, found[0], url);
}

#[test]
fn qp_url_keeps_unencoded_equals() {
    // spam_2 00884, declared quoted-printable: `marketing_id=dcx007` and
    // `spambytes_id=100115` were written unencoded; `=dc` (lower-case
    // hex) and `=10` (a control) inside a URL are no encoder's escapes.
    let (file, hits) = mime_sample("sa-spam2-00884-qp-url.eml");
    for url in [
        "http://010@www.dvdcopyxp.com/cgi-bin/enter.cgi?marketing_id=dcx007",
        "http://011@www.spambites.com/cgi-bin/enter.cgi?spambytes_id=100115",
    ] {
        let found = hits_of(&hits, url, "text");
        assert_eq!(found.len(), 1, "{url}: {hits:?}");
        assert_eq!(found[0]["decoded"], "quoted-printable");
        assert_at(&file, found[0], url);
    }
}

#[test]
fn header_fields_give_addresses_but_not_message_ids() {
    // sa-easy_ham-00189: addresses in From, To, Cc and the Received
    // fields' `for <...>`; msg-ids in In-Reply-To and Message-Id; host
    // names in the Received fields.
    let f =
        sample("mail/sa-easy_ham-00189.b66293957540969a231d2fd09886ee0f.eml");
    let f = f.display().to_string();
    let hits = json(&["--emails", "--domains", &f]);
    let from = |field: &str| -> Vec<&str> {
        hits.iter()
            .filter(|h| h["header"] == field)
            .map(|h| h["url"].as_str().unwrap())
            .collect()
    };
    assert_eq!(from("From"), ["tony@svanstrom.com"]);
    assert_eq!(
        from("To"),
        ["rlfrank-dated-1030938274.aa158a@paradigm-omega.com"]
    );
    assert_eq!(
        from("Cc"),
        [
            "zzzz@spamassassin.taint.org",
            "SpamAssassin-talk@lists.sourceforge.net",
            "tmda-users@tmda.net"
        ]
    );
    // RFC 5322 3.6.4: a msg-id has an address's form but is none.
    assert!(from("In-Reply-To").is_empty());
    assert!(from("Message-Id").is_empty());
    // Trace fields give addresses, not their relays' host names.
    let received = from("Received");
    assert!(received.contains(&"zzzz@spamassassin.taint.org"), "{received:?}");
    assert!(
        hits.iter()
            .filter(|h| h["header"] == "Received")
            .all(|h| h["abbreviated"] == "email"),
        "{received:?}"
    );
    // Without --emails, no header field gives an address.
    let plain = json(&[&f]);
    assert!(plain.iter().all(|h| h["header"].is_null()), "{plain:?}");
}

#[test]
fn mh_folder_gives_the_messages_of_its_mbox() {
    // corpora/mail/mh-kasan-dev-2 is kasan-dev-2.mboxrd written as an MH
    // folder (one numbered file a message) by Python's mailbox module:
    // each file is read as a message, and every URL comes out with the
    // message's provenance, as from the mbox.
    let dir = sample("mail/mh-kasan-dev-2");
    let mbox = json(&[sample("mail/kasan-dev-2.mboxrd").to_str().unwrap()]);
    let mh = json(&[dir.to_str().unwrap()]);
    let key = |h: &Value| {
        (
            h["url"].as_str().unwrap().to_string(),
            h["message_id"].as_str().map(str::to_string),
            h["source"].as_str().map(str::to_string),
            h["header"].as_str().map(str::to_string),
        )
    };
    assert_eq!(mbox.len(), 26);
    assert_eq!(
        mh.iter().map(key).collect::<Vec<_>>(),
        mbox.iter().map(key).collect::<Vec<_>>()
    );
    // Each file is its own input (message 1 of each).
    assert!(mh.iter().all(|h| h["message"] == 1));
    let files: std::collections::BTreeSet<&str> =
        mh.iter().map(|h| h["file"].as_str().unwrap()).collect();
    assert_eq!(files.len(), 2);
}

/// `data` in base64 (RFC 2045 6.8), in lines of 76 characters.
fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, ch) in data.chunks(3).enumerate() {
        let mut w = [0u8; 3];
        w[..ch.len()].copy_from_slice(ch);
        let n = u32::from(w[0]) << 16 | u32::from(w[1]) << 8 | u32::from(w[2]);
        for k in 0..4 {
            out.push(if k <= ch.len() {
                A[(n >> (18 - 6 * k) & 63) as usize] as char
            } else {
                '='
            });
        }
        if i % 19 == 18 {
            out.push('\n');
        }
    }
    out
}

/// The URLs of a TNEF sample, as tnefparse's HTML body gives its `href`
/// and `src` values, and the address in its text.
fn tnef_sample_urls() -> Vec<String> {
    let x = "x=xZuho%2FToqKijg9zZ2OaZnKGY1lZ0mXKjcGaZbXPjcZ9tqlrOxpWrzJy8ncSiqq6prVJznnBjZGxgbJiq1KOonpft2dbQ2IOp3LOrpamLvM28xcGDk3uBq3mWUIy5jFmXcmika45626zaw6Kg3Zq0orFjsLqjnqL76K1SqlmUpMbQ1dTi2%2B7c3Infxc%2FT1drY1pGk3g%3D%3D";
    let mut v = vec!["mailto:serwis@thulium.pl".to_string(); 2];
    for n in 1..=3 {
        v.push(format!("http://ank.thulium.pl/?ocena={n}&{x}"));
        v.push(format!("cid:image00{n}.png@01CF8C82.F4A2A290"));
    }
    v.push("mailto:serwis@thulium.pl".to_string());
    v
}

#[test]
fn tnef_file_html_body() {
    // A winmail.dat on its own, recognised by its signature.
    let path = sample("tnef/unicode-mapi-attr-name.tnef");
    let hits = json(&[path.to_str().unwrap()]);
    let urls = urls(&hits);
    assert_eq!(urls, tnef_sample_urls());
    assert!(hits.iter().all(|h| h["decoded"] == "tnef" && h["part"] == ""));
    assert_eq!(hits[0]["source"], "html-attr");
    assert_eq!(hits[8]["source"], "html-text");
}

#[test]
fn tnef_part_of_a_message() {
    // The same file sent as Outlook sends it: a base64 attachment.
    let data =
        std::fs::read(sample("tnef/unicode-mapi-attr-name.tnef")).unwrap();
    let b64 = base64(&data);
    let mail = format!(
        "From: a@example.org\nSubject: t\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\n\
         Content-Type: text/plain\n\nsee http://text.example/\n--b\n\
         Content-Type: application/ms-tnef; name=\"winmail.dat\"\n\
         Content-Transfer-Encoding: base64\n\n{b64}\n--b--\n"
    );
    let part_start =
        mail.find("Content-Transfer-Encoding: base64\n\n").unwrap() + 35;
    let hits: Vec<Value> = urlx_stdin(&["--json"], &mail).json();
    let urls = urls(&hits);
    let mut want = vec!["http://text.example/".to_string()];
    want.extend(tnef_sample_urls());
    assert_eq!(urls, want);
    for h in &hits[1..] {
        assert_eq!(
            (&h["part"], &h["decoded"]),
            (&Value::from("2"), &Value::from("tnef"))
        );
        // Every hit points at the part's first body line.
        assert_eq!(h["start"].as_u64(), Some(part_start as u64), "{h}");
    }
}

/// The URLs of the `.msg` sample: its plain body, then its compressed
/// RTF body, which holds HTML (its `href`s, then its visible text), as
/// extract_msg reads them.
const MSG_SAMPLE_URLS: [&str; 13] = [
    "http://www.online-convert.com",
    "http://www.online-convert.com",
    "http://www.online-convert.com/file-type",
    "http://www.online-convert.com/file-type",
    "http://en.wikipedia.org/wiki/John_Doe",
    "http://creativecommons.org/licenses/by-sa/3.0/",
    "cid:filelist.xml@01D16E52.E94EE350",
    "http://www.online-convert.com",
    "http://www.online-convert.com/file-type",
    "http://en.wikipedia.org/wiki/John_Doe",
    "http://creativecommons.org/licenses/by-sa/3.0/",
    "http://www.online-convert.com",
    "http://www.online-convert.com/file-type",
];

#[test]
fn outlook_msg_file() {
    let path = sample("msg/strangeDate.msg");
    let hits = json(&[path.to_str().unwrap()]);
    let urls = urls(&hits);
    assert_eq!(urls, MSG_SAMPLE_URLS);
    let sources: Vec<&str> =
        hits.iter().map(|h| h["source"].as_str().unwrap()).collect();
    assert_eq!(&sources[5..8], ["text", "html-attr", "html-attr"]);
    assert_eq!(sources[12], "html-text");
    assert!(hits.iter().all(|h| h["decoded"] == "msg" && h["part"] == ""));
}

#[test]
fn outlook_msg_with_header_and_three_bodies() {
    // A real newsletter (SpamScope/mail-parser's mail_outlook_1): its
    // Internet header gives header hits and the Message-ID; its plain
    // and HTML bodies are read, its RTF body (the same HTML wrapped) is
    // not, so no link of the HTML comes twice.
    let path = sample("msg/spamscope-mail_outlook_1.msg");
    let hits = json(&[path.to_str().unwrap()]);
    let count =
        |source: &str| hits.iter().filter(|h| h["source"] == source).count();
    // extract_msg finds 16 href and src values in the HTML body.
    assert_eq!(
        (count("header"), count("text"), count("html-attr")),
        (2, 16, 16)
    );
    assert!(
        hits.iter()
            .all(|h| h["message_id"]
                == "20170918100018.6AE0948009C@www.w-vwa.de")
    );
    let headers: Vec<(&str, &str)> = hits
        .iter()
        .filter(|h| h["source"] == "header")
        .map(|h| (h["header"].as_str().unwrap(), h["url"].as_str().unwrap()))
        .collect();
    assert_eq!(
        headers,
        [
            ("X-purgate-Ad", "http://www.eleven.de"),
            ("X-purgate", "http://www.eleven.de")
        ]
    );
    let unsubscribe = "http://www.w-vwa.de/newsletter/index.php?action=nlchngsubscr&uuid=9a4b75a15a562f4c0da5705d86191628";
    let n = hits.iter().filter(|h| h["url"] == unsubscribe).count();
    assert_eq!(n, 2, "once in the plain body, once in the HTML");
}

#[test]
fn outlook_msg_attached() {
    // The same file attached to a message, as mail clients forward one.
    let data = std::fs::read(sample("msg/strangeDate.msg")).unwrap();
    let mail = format!(
        "From: a@example.org\nSubject: fwd\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\n\
         Content-Type: text/plain\n\nsee attached\n--b\n\
         Content-Type: application/vnd.ms-outlook; name=\"strangeDate.msg\"\n\
         Content-Transfer-Encoding: base64\n\n{}\n--b--\n",
        base64(&data)
    );
    let hits: Vec<Value> = urlx_stdin(&["--json"], &mail).json();
    let urls = urls(&hits);
    assert_eq!(urls, MSG_SAMPLE_URLS);
    assert!(hits.iter().all(|h| h["decoded"] == "msg" && h["part"] == "2"));
    // Without a type or name, the compound file's contents tell.
    let plain = mail.replace(
        "application/vnd.ms-outlook; name=\"strangeDate.msg\"",
        "application/octet-stream",
    );
    let hits: Vec<Value> = urlx_stdin(&["--json"], &plain).json();
    assert_eq!(hits.len(), MSG_SAMPLE_URLS.len());
}

#[test]
fn tnef_rtf_body() {
    // A compressed RTF body (not HTML): its text, `[mailto:...]` in a
    // quoted header.
    let path = sample("tnef/long-filename.tnef");
    let hits = json(&[path.to_str().unwrap()]);
    let urls = urls(&hits);
    assert_eq!(urls, ["mailto:msimpson@numega.com"]);
    assert_eq!(hits[0]["source"], "text");
    // Forced to text, the file is binary: nothing.
    let out = Command::new(BIN)
        .args(["--format", "text", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"");
}

#[test]
fn a_message_stored_with_status_fields_first_is_decoded() {
    // A real spam (SpamAssassin public corpus, spam_2/00716) as a mail
    // reader stored it: `X-Status:` and `X-Keywords:` before its own
    // header, a quoted-printable body with a URL across a soft line
    // break. Read as text, the URL came out as `http://www.frontl=`.
    let path = sample("mail/spamassassin-spam_2-00716-x-status-first.eml");
    let hits = json(&[path.to_str().unwrap()]);
    assert_eq!(
        three(&hits, ["url", "source", "decoded"]),
        [(
            "http://www.frontlinelearning.com/contactus1.htm",
            "text",
            "quoted-printable"
        )]
    );
}

#[test]
fn percent_encoded_urls_in_a_script() {
    // A real spam (SpamAssassin public corpus, spam_2/00515): its script
    // is written with JavaScript's escape(), quoted-printable on top.
    let path = sample("mail/spamassassin-spam_2-00515-encoded-urls.eml");
    let path = path.to_str().unwrap();
    let raw = std::fs::read(path).unwrap();
    assert!(json(&[path]).is_empty());
    let hits = json(&["--encoded", path]);
    assert_eq!(
        three(&hits, ["url", "encoded", "source"]),
        [
            (
                "http://00000365.000000000000000000000000000",
                "percent",
                "html-text"
            ),
            // `h/*...*/ttp`: the spam breaks the scheme with a comment.
            (
                "ttp://00000365.000000000000000000000000000",
                "percent",
                "html-text"
            ),
            (
                "http://326841526/index.html@00000000216.00000000000114.\
                 0000000000069.0000000000002/~cyber101/pages/';function",
                "percent",
                "html-text"
            ),
        ]
    );
    // Offsets are those of the encoded text in the file (through the
    // quoted-printable soft line breaks).
    for h in &hits {
        let (s, e) =
            (h["start"].as_u64().unwrap(), h["end"].as_u64().unwrap());
        let written = String::from_utf8_lossy(&raw[s as usize..e as usize]);
        assert!(written.contains("%3A%2F%2F"), "{written}");
        let codes: Vec<&Value> = h["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| &w["code"])
            .collect();
        assert!(codes.contains(&&Value::from("encoded-url")), "{codes:?}");
    }
}

#[test]
fn anchors_whose_text_shows_another_site_are_deceptive_links() {
    // A real spam (SpamAssassin public corpus, spam_2/00520): the anchor
    // text `http://www.tesco.ie/superstore` links to an IP address.
    let hits =
        json(&[sample("mail/spamassassin-spam_2-00520-deceptive-link.eml")
            .to_str()
            .unwrap()]);
    let deceptive: Vec<&Value> = hits
        .iter()
        .filter(|h| {
            h["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w["code"] == "deceptive-link")
        })
        .collect();
    assert_eq!(deceptive.len(), 1, "{deceptive:?}");
    let h = deceptive[0];
    assert_eq!(h["anchor_text"], "http://www.tesco.ie/superstore");
    assert_eq!(h["attribute"], "a href");
    assert!(
        h["url"].as_str().unwrap().starts_with("http://195.200.172.1/I?X=")
    );
    let w = &h["warnings"].as_array().unwrap()[0];
    assert_eq!(
        w["message"],
        "the link's text shows www.tesco.ie but the link goes to 195.200.172.1"
    );
    // Anchors with words, or showing the site they go to, are not.
    let texts: Vec<&str> =
        hits.iter().filter_map(|h| h["anchor_text"].as_str()).collect();
    assert!(texts.contains(&"Buy Now"));
    assert!(
        texts.iter().any(|t| t.starts_with("http://www.tesco.ie/register/"))
    );
    // Only `a href` hits have an anchor text.
    assert!(
        hits.iter()
            .filter(|h| !h["anchor_text"].is_null())
            .all(|h| h["attribute"] == "a href")
    );
}

/// A mailbox written from `mail/kasan-dev-2.mboxrd` in another format
/// gives the mbox's URLs with the same message numbers, Message-IDs,
/// sources and header names, and offsets into its own bytes.
fn gives_the_urls_of_the_mbox(sample_path: &str) {
    let mbox = json(&[sample("mail/kasan-dev-2.mboxrd").to_str().unwrap()]);
    let path = sample(sample_path);
    let other = json(&[path.to_str().unwrap()]);
    let key = |h: &Value| {
        (
            h["url"].as_str().unwrap().to_string(),
            h["message"].as_u64(),
            h["message_id"].as_str().map(str::to_string),
            h["source"].as_str().map(str::to_string),
            h["header"].as_str().map(str::to_string),
        )
    };
    assert_eq!(mbox.len(), 26);
    assert_eq!(
        other.iter().map(key).collect::<Vec<_>>(),
        mbox.iter().map(key).collect::<Vec<_>>()
    );
    let bytes = std::fs::read(&path).unwrap();
    for h in other.iter().filter(|h| h["decoded"] == "none") {
        let (s, e) =
            (h["start"].as_u64().unwrap(), h["end"].as_u64().unwrap());
        assert_eq!(
            &bytes[s as usize..e as usize],
            h["url"].as_str().unwrap().as_bytes()
        );
    }
}

#[test]
fn mmdf_mailbox_gives_the_messages_of_its_mbox() {
    // Written by Python's mailbox module (each message between ^A^A^A^A
    // lines, its `From ` line kept after the first): recognised by its
    // first line, cut at the markers, the `From ` lines dropped.
    gives_the_urls_of_the_mbox("mail/mmdf-kasan-dev-2.mmdf");
}

#[test]
fn babyl_file_gives_the_messages_of_its_mbox() {
    // Written by Python's mailbox module as a Babyl file (Emacs Rmail):
    // the options section skipped, each message's labels line and its
    // header as shown after `*** EOOH ***` left out (no URL twice), the
    // original header and the body read.
    gives_the_urls_of_the_mbox("mail/babyl-kasan-dev-2.babyl");
}

#[test]
fn many_header_fields_with_urls_each_name_their_field() {
    // More fields with hits than a message shares provenances among:
    // every hit still names its own field, the repeated ones too.
    let mut mail = String::from("From: a@example.org\n");
    for k in 0..40 {
        mail.push_str(&format!("X-Link-{k}: <http://h{k}.example/>\n"));
        mail.push_str(&format!("X-Again: <http://again{k}.example/>\n"));
    }
    mail.push_str("Subject: t\n\nbody\n");
    let hits: Vec<Value> = urlx_stdin(&["--json"], &mail).json();
    assert_eq!(hits.len(), 80, "{hits:?}");
    for (k, pair) in hits.chunks(2).enumerate() {
        assert_eq!(pair[0]["url"], format!("http://h{k}.example/"));
        assert_eq!(pair[0]["header"], format!("X-Link-{k}"));
        assert_eq!(pair[1]["url"], format!("http://again{k}.example/"));
        assert_eq!(pair[1]["header"], "X-Again");
    }
}

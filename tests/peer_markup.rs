//! Peer suites about links in text and Markdown, run through urlx:
//! linkify-it's `links.txt` and `not_links.txt`, markdown-it's
//! `linkify.txt` and the examples of the section "Autolinks" of
//! cmark-gfm's `extensions.txt` (copies in `tests/data/peer/`,
//! provenance in `tests/data/README.md`). Each case passes or has a row
//! in `EXPECTED` giving urlx's output and the reason; a case that fails
//! without a row, a row whose case passes, a row whose recorded output
//! is no longer urlx's and a row that matches no case all fail.
//!
//! Each suite runs in the mode its peer runs in:
//!
//! * linkify-it links bare domain names and e-mail addresses by default
//!   (`fuzzyLink`, `fuzzyEmail`; the runner of `links.txt` also sets
//!   `fuzzyIP`): both files run with `domains` and `emails`.
//!   `links.txt` is checked as linkify-it's own runner checks it: the
//!   first link found in the line (the whole line, comments after ` %`
//!   included) must be the expected text; a `not_links.txt` line must
//!   give no link at all.
//! * markdown-it's linkify is linkify-it with its defaults: `domains`
//!   and `emails`.
//! * GFM's extended autolinks are `www.` hosts, `http://` and
//!   `https://` URLs and e-mail addresses: `abbreviated` and `emails`.
//!
//! A case whose expected links all have a scheme runs in urlx's default
//! mode too and must give the same links there: the options add links
//! without a scheme and never change one with a scheme.
//!
//! In the Markdown suites each block (paragraph, list) of an example is
//! a case: the links of the matching block of the expected HTML (each
//! `<a href>` and the text of the element) against urlx's hits in the
//! Markdown source, both as pairs (URL it stands for, text), compared as
//! sets after percent-decoding: the renderers percent-encode hrefs each
//! in their own way (markdown-it escapes `[`, `]` and backquotes,
//! cmark-gfm every non-ASCII byte, even in a host), and markdown-it
//! decodes the link text it shows. A Markdown link whose text is its
//! own URL is one link to the renderer and the same URL twice to urlx.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use urlx::{Extractor, Hit};

const LINKIFY_LINKS: &str = include_str!("data/peer/linkify-it/links.txt");
const LINKIFY_NOT_LINKS: &str =
    include_str!("data/peer/linkify-it/not_links.txt");
const MARKDOWN_IT: &str = include_str!("data/peer/markdown-it/linkify.txt");
const CMARK_GFM: &str = include_str!("data/peer/cmark-gfm/extensions.txt");

/// What a peer expects of one case.
enum Want {
    /// linkify-it `links.txt`: the text of the first link.
    First(String),
    /// No link at all.
    Nothing,
    /// The links a Markdown renderer made: (URL, text), percent-decoded.
    Links(BTreeSet<(String, String)>),
    /// The peer ignores the output (cmark-gfm's `<IGNORE>`: the input
    /// only must not crash the renderer); urlx only has to return.
    Ignored,
}

impl Want {
    /// Whether every expected link is written with its scheme.
    fn only_schemes(&self) -> bool {
        let scheme = |t: &str| {
            t.contains("://") || t.to_ascii_lowercase().starts_with("mailto:")
        };
        match self {
            Want::First(text) => scheme(text),
            Want::Links(set) => {
                !set.is_empty() && set.iter().all(|(_, t)| scheme(t))
            }
            Want::Nothing | Want::Ignored => false,
        }
    }
}

/// One case of a peer suite.
struct Case {
    /// 1-based line in the data file where the input starts.
    line: usize,
    input: String,
    want: Want,
}

/// Why urlx deliberately differs from a peer, shared by the rows of
/// `EXPECTED` it explains.
struct Reason {
    /// Short name, for the counts.
    name: &'static str,
    /// The argument, with the rule or specification section deciding it.
    text: &'static str,
}

/// A case where urlx deliberately differs from the peer: the suite, the
/// case's input (exact), urlx's output in the peer's mode (the input
/// with each link between `|` and `|`), and why.
struct Expected {
    suite: &'static str,
    input: &'static str,
    urlx: &'static str,
    reason: &'static Reason,
}

const NETWORK_PATH: Reason = Reason {
    name: "network-path reference",
    text: "`//host` is a network-path reference (RFC 3986 section 4.2): \
        relative, it names a host only once a base supplies the scheme. \
        urlx takes a relative reference only where the context marks one \
        (`<URL:...>`, an HTML `href`) and prints it resolved against a \
        base (DESIGN.md 'What counts as a URL' items 3 and 9), never in bare text, where \
        `//` starts comments and paths as often. linkify-it links it as \
        a 'neutral protocol' link",
};

const IP_ADDRESS: Reason = Reason {
    name: "IPv4 address without a scheme",
    text: "linkify-it's runner turns on `fuzzyIP` for links.txt (it is \
        off by default). urlx's `domains` finds host names ending in an \
        ICANN public suffix (src/abbrev.rs rule 12, DESIGN.md 'Abbreviated \
        URIs'), as UTS #58 detects links without a scheme by their \
        top-level domain; a bare dotted quad in logs and mail is a peer, \
        resolver or netmask far more often than a web link. With a \
        scheme (`http://172.26.142.48/...`) it is found",
};

const QUOTE_AT_END: Reason = Reason {
    name: "quote at the end",
    text: "a quote mark at the end of a URL is not part of it, even when \
        the URL holds an opening one: UTS #58 gives `'` and `\"` \
        Link_Term Soft (in a link only when an Include character \
        follows), and DESIGN.md 'What counts as a URL' item 4 trims trailing quotes and \
        ends a URL at a `\"` that no letter or digit follows; `\"` is \
        no URI character at all (RFC 3986 section 2; Appendix C: quotes \
        delimit URIs in text). linkify-it pairs quotes inside a link",
};

const QUOTED_LOCAL_PART: Reason = Reason {
    name: "quoted local part",
    text: "`test.\"foo\".bar` is the obsolete local part of RFC 5322 \
        section 4.4 (obs-local-part, which must not be generated), not a \
        dot-atom; `emails` finds dot-atom addresses (src/abbrev.rs rule \
        6, DESIGN.md 'Abbreviated URIs'), as UTS #58 does (`\"` has no \
        Link_Email), and no piece of one (`bar@gmail.co.uk` would be \
        another mailbox)",
};

const SYMBOL_LABEL: Reason = Reason {
    name: "symbol as a label",
    text: "`➡` (U+27A1) is a symbol, which IDNA2008 disallows in a label \
        (RFC 5892 sections 2.1 and 3: only letters, marks and digits are \
        PVALID); without a scheme urlx wants a host whose first label \
        starts with a letter or digit, so symbols before a name are text \
        (`©example.net`, `•example.com`; src/abbrev.rs rule 11). With a \
        scheme (`http://✪df.ws/123`) the host is taken as written",
};

const FULLWIDTH_PIPE_IN_PATH: Reason = Reason {
    name: "fullwidth vertical line in a path",
    text: "in a path `｜` (U+FF5C) is UTS #58 Link_Term Include, as `|` \
        is, and both stay inside a URL (DESIGN.md 'What counts as a URL' item 4; RFC 3987 \
        allows it in an ipath as ucschar). linkify-it ends every link at \
        it, reading it as a separator of CJK text. In a host, where UTS \
        46 reads it as `|`, urlx ends the URL at it too",
};

const ANY_SCHEME: Reason = Reason {
    name: "unregistered scheme",
    text: "any RFC 3986 scheme (section 3.1) followed by `://` starts a \
        URL (DESIGN.md 'What counts as a URL' item 1): the IANA registry is no closed list \
        (RFC 7595), so `hppt://example.com` is a URL, with the warning \
        `unregistered-scheme`. linkify-it links only the schemes it \
        knows",
};

const SCHEME_AFTER_PUNCTUATION: Reason = Reason {
    name: "scheme after `_` or `\\`",
    text: "`_` and `\\` cannot be part of a scheme (RFC 3986 section \
        3.1: a letter, then letters, digits, `+`, `-`, `.`), so the \
        scheme starts after them (DESIGN.md 'What counts as a URL' item 1); in text `_` \
        before a URL opens Markdown emphasis or ends an identifier, and \
        `\\` is no URI character (RFC 3986 Appendix C). linkify-it wants \
        a word boundary before a link; markdown-it keeps text after a \
        backslash unlinked, a Markdown escape",
};

const SERVICE_LABEL: Reason = Reason {
    name: "service label",
    text: "a first label starting with `_` is an RFC 8552 service label \
        (`_dmarc.example.com`, `_spf.example.com`), a DNS name that mail \
        and logs mention, so `domains` keeps it (src/abbrev.rs rule 12 \
        leaves out only names with `_` inside a label). linkify-it wants \
        a word boundary before a link, and `_` is a word character",
};

const UNDERSCORE_IN_HOST: Reason = Reason {
    name: "`_` in a host",
    text: "RFC 3986 section 3.2.2 allows `_` in a reg-name (unreserved), \
        and DESIGN.md 'What counts as a URL' item 7 checks an http host name for empty \
        labels and `-` at a label's ends only (RFC 1123 section 2.1); a \
        final `_` is dropped only when it closes Markdown emphasis opened \
        before the URL (item 4). linkify-it wants its list of top-level \
        domains to match at the host's end",
};

const PORT_OUT_OF_RANGE: Reason = Reason {
    name: "no port after a bare domain",
    text: "a port is 1 to 5 digits up to 65535 (RFC 3986 section 3.2.3, \
        RFC 6335 section 6); after a bare domain name anything else ends \
        the link with the host (src/abbrev.rs rule 13, as \
        `example.com:http`), the name being written in full before the \
        colon. With a scheme the port is part of the URL as written, and \
        `http://a.example:99999/` gives nothing (DESIGN.md 'What counts as a URL' item 10). \
        linkify-it drops the whole",
};

const BACKQUOTE: Reason = Reason {
    name: "backquote",
    text: "a backquote ends a URL in text (DESIGN.md 'What counts as a URL' item 4): RFC 3986 \
        excludes it (section 2; Appendix C), and in text it opens inline \
        code (Markdown, reStructuredText). markdown-it links across it \
        and percent-encodes it in the href",
};

const MARKDOWN_IMAGE: Reason = Reason {
    name: "Markdown image",
    text: "Markdown rendering, not link detection: `![alt](src)` renders \
        an image (no `<a>`), and GFM does not autolink its alt text. urlx \
        reads the Markdown source as text and reports the URL written \
        twice there, as alt text and as the image's source",
};

const NO_PUBLIC_SUFFIX: Reason = Reason {
    name: "no public suffix",
    text: "`b.c` ends in no public suffix: an address without `mailto:` \
        needs a domain ending in an ICANN public suffix (src/abbrev.rs \
        rule 8: `x@y.z` gives nothing; DESIGN.md 'Abbreviated URIs'), as \
        UTS #58 wants a top-level domain. GFM's extended e-mail autolink \
        only wants a `.` in the domain",
};

const LINKS: &str = "linkify-it links.txt";
const NOT_LINKS: &str = "linkify-it not_links.txt";
const MARKDOWN: &str = "markdown-it linkify.txt";
const GFM: &str = "cmark-gfm Autolinks";

const EXPECTED: &[Expected] = &[
    Expected {
        suite: LINKS,
        input: "//localhost",
        urlx: "//localhost",
        reason: &NETWORK_PATH,
    },
    Expected {
        suite: LINKS,
        input: "//test.123",
        urlx: "//test.123",
        reason: &NETWORK_PATH,
    },
    Expected {
        suite: LINKS,
        input: "My ssl //example.com site",
        urlx: "My ssl //example.com site",
        reason: &NETWORK_PATH,
    },
    Expected {
        suite: LINKS,
        input: "4.4.4.4",
        urlx: "4.4.4.4",
        reason: &IP_ADDRESS,
    },
    Expected {
        suite: LINKS,
        input: "192.168.1.1/abc",
        urlx: "192.168.1.1/abc",
        reason: &IP_ADDRESS,
    },
    Expected {
        suite: LINKS,
        input: "http://foo.com/blah_blah_\"doublequoted\"",
        urlx: "|http://foo.com/blah_blah_\"doublequoted|\"",
        reason: &QUOTE_AT_END,
    },
    Expected {
        suite: LINKS,
        input: "http://foo.com/blah_blah_'singlequoted'",
        urlx: "|http://foo.com/blah_blah_'singlequoted|'",
        reason: &QUOTE_AT_END,
    },
    Expected {
        suite: LINKS,
        input: "test.\"foo\".bar@gmail.co.uk!",
        urlx: "test.\"foo\".bar@gmail.co.uk!",
        reason: &QUOTED_LOCAL_PART,
    },
    Expected {
        suite: LINKS,
        input: "➡.ws/䨹",
        urlx: "➡.ws/䨹",
        reason: &SYMBOL_LABEL,
    },
    Expected {
        suite: LINKS,
        input: "｜www.google.com/www.google.com/foo｜bar    % #46, asian \
            vertical pipes",
        urlx: "｜|www.google.com/www.google.com/foo｜bar|    % #46, asian \
            vertical pipes",
        reason: &FULLWIDTH_PIPE_IN_PATH,
    },
    Expected {
        suite: NOT_LINKS,
        input: "hppt://example.com",
        urlx: "|hppt://example.com|",
        reason: &ANY_SCHEME,
    },
    Expected {
        suite: NOT_LINKS,
        input: "_http://example.com",
        urlx: "_|http://example.com|",
        reason: &SCHEME_AFTER_PUNCTUATION,
    },
    Expected {
        suite: NOT_LINKS,
        input: "_example.com",
        urlx: "|_example.com|",
        reason: &SERVICE_LABEL,
    },
    Expected {
        suite: NOT_LINKS,
        input: "http://example.com_",
        urlx: "|http://example.com_|",
        reason: &UNDERSCORE_IN_HOST,
    },
    Expected {
        suite: NOT_LINKS,
        input: "google.com:500000 // invalid port",
        urlx: "|google.com|:500000 // invalid port",
        reason: &PORT_OUT_OF_RANGE,
    },
    Expected {
        suite: MARKDOWN,
        input: "https://example.com/foo`bar`baz",
        urlx: "|https://example.com/foo|`bar`baz",
        reason: &BACKQUOTE,
    },
    Expected {
        suite: MARKDOWN,
        input: "\\https://example.com",
        urlx: "\\|https://example.com|",
        reason: &SCHEME_AFTER_PUNCTUATION,
    },
    Expected {
        suite: GFM,
        input: "![http://inline.com/image](http://inline.com/image)",
        urlx: "![|http://inline.com/image|](|http://inline.com/image|)",
        reason: &MARKDOWN_IMAGE,
    },
    Expected {
        suite: GFM,
        input: "a.w@b.c",
        urlx: "a.w@b.c",
        reason: &NO_PUBLIC_SUFFIX,
    },
];

/// One link urlx finds: where it is in the input, and the URL it stands
/// for (an abbreviated form's absolute URI).
struct Link {
    range: Range<usize>,
    url: String,
}

fn links(ex: &Extractor, input: &str) -> Vec<Link> {
    ex.find(input.as_bytes())
        .iter()
        .filter_map(|h: &Hit| {
            let usable = h.usable()?;
            let url = match h.abbreviated() {
                Some(_) => h.resolved()?,
                None => usable,
            };
            Some(Link {
                range: h.start() as usize..h.end() as usize,
                url: url.to_string(),
            })
        })
        .collect()
}

/// `input` with each link between `|` and `|`.
fn marked(input: &str, links: &[Link]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for link in links {
        out.push_str(&input[at..link.range.start]);
        out.push('|');
        out.push_str(&input[link.range.clone()]);
        out.push('|');
        at = link.range.end;
    }
    out.push_str(&input[at..]);
    out
}

/// `%XX` escapes decoded (invalid UTF-8 replaced).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The character references the renderers write, decoded.
fn html_unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// `s` without its tags.
fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The links of rendered HTML: each `<a href="...">` with the text up
/// to the next `</a>` (tags removed), decoded.
fn html_links(html: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let mut rest = html;
    while let Some(at) = rest.find("<a href=\"") {
        rest = &rest[at + "<a href=\"".len()..];
        let (href, after) = rest.split_once('"').expect("closing quote");
        let body = &after[after.find('>').expect("end of tag") + 1..];
        let text = &body[..body.find("</a>").expect("</a>")];
        out.insert((
            percent_decode(&html_unescape(href)),
            percent_decode(&html_unescape(&strip_tags(text))),
        ));
    }
    out
}

/// linkify-it's `links.txt` as its runner reads it: a line starting
/// with `%` is empty; a line is a case, and the next line, when not
/// empty, is the expected link (else the whole line is); the rest of a
/// line after ` %` is part of the input.
fn linkify_links() -> Vec<Case> {
    let lines: Vec<&str> = LINKIFY_LINKS.split('\n').collect();
    let clean = |l: &str| if l.starts_with('%') { "" } else { l }.to_string();
    let mut cases = Vec::new();
    let mut skip_next = false;
    for (i, &raw) in lines.iter().enumerate() {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        let line = clean(raw);
        if line.trim().is_empty() {
            continue;
        }
        let next = clean(lines.get(i + 1).copied().unwrap_or(""));
        let want = if next.trim().is_empty() {
            line.clone()
        } else {
            skip_next = true;
            next
        };
        cases.push(Case { line: i + 1, input: line, want: Want::First(want) });
    }
    cases
}

/// linkify-it's `not_links.txt`: every line not empty and not starting
/// with `%` must give no link.
fn linkify_not_links() -> Vec<Case> {
    LINKIFY_NOT_LINKS
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.starts_with('%') && !l.trim().is_empty())
        .map(|(i, l)| Case {
            line: i + 1,
            input: l.to_string(),
            want: Want::Nothing,
        })
        .collect()
}

/// The blocks of a Markdown source: runs of lines between blank lines,
/// with the 1-based line of each block's first line (`first` is the
/// line of `md`'s own first line).
fn markdown_blocks(md: &[&str], first: usize) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (i, l) in md.iter().enumerate() {
        if l.trim().is_empty() {
            open = false;
        } else if open {
            let last = out.last_mut().unwrap();
            last.1.push('\n');
            last.1.push_str(l);
        } else {
            out.push((first + i, l.to_string()));
            open = true;
        }
    }
    out
}

/// The top-level blocks of rendered HTML: one per line, but a list
/// (`<ul>` to `</ul>`) is one block.
fn html_blocks(html: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_list = false;
    for l in html {
        if in_list {
            let last = out.last_mut().unwrap();
            last.push('\n');
            last.push_str(l);
        } else {
            out.push(l.to_string());
        }
        if l.starts_with("<ul>") {
            in_list = true;
        }
        if l.starts_with("</ul>") {
            in_list = false;
        }
    }
    out
}

/// The cases of one example: its Markdown blocks paired with the blocks
/// of the expected HTML.
fn example_cases(md: &[&str], md_line: usize, html: &[&str]) -> Vec<Case> {
    let blocks = markdown_blocks(md, md_line);
    if html == ["<IGNORE>"] {
        return blocks
            .into_iter()
            .map(|(line, input)| Case { line, input, want: Want::Ignored })
            .collect();
    }
    let rendered = html_blocks(html);
    assert_eq!(
        blocks.len(),
        rendered.len(),
        "blocks of the example at line {md_line}: {blocks:?} {rendered:?}"
    );
    blocks
        .into_iter()
        .zip(rendered)
        .map(|((line, input), html)| Case {
            line,
            input,
            want: Want::Links(html_links(&html)),
        })
        .collect()
}

/// markdown-it's fixture format: a title, then the Markdown and the HTML,
/// each closed by a line holding only `.` (the first one opened by one).
fn markdown_it() -> Vec<Case> {
    let lines: Vec<&str> = MARKDOWN_IT.lines().collect();
    let dots: Vec<usize> =
        (0..lines.len()).filter(|&i| lines[i] == ".").collect();
    assert_eq!(dots.len() % 3, 0, "fixtures come in three dot lines");
    let mut cases = Vec::new();
    for d in dots.chunks(3) {
        let md = &lines[d[0] + 1..d[1]];
        let html = &lines[d[1] + 1..d[2]];
        cases.extend(example_cases(md, d[0] + 2, html));
    }
    cases
}

/// The examples of cmark-gfm's spec format in the section "## Autolinks":
/// a fence line of backquotes ending in `example`, the Markdown, a line
/// `.`, the HTML, a closing fence.
fn cmark_gfm_autolinks_cases() -> Vec<Case> {
    let lines: Vec<&str> = CMARK_GFM.lines().collect();
    let fence = "`".repeat(32);
    let open = format!("{fence} example");
    let mut section = "";
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(title) = lines[i].strip_prefix("## ") {
            section = title;
        }
        if section == "Autolinks" && lines[i] == open {
            let dot = i + lines[i..].iter().position(|&l| l == ".").unwrap();
            let end =
                dot + lines[dot..].iter().position(|&l| l == fence).unwrap();
            cases.extend(example_cases(
                &lines[i + 1..dot],
                i + 2,
                &lines[dot + 1..end],
            ));
            i = end;
        }
        i += 1;
    }
    cases
}

/// One peer suite: its cases, and urlx in the peer's mode.
struct Suite {
    name: &'static str,
    cases: Vec<Case>,
    peer: Extractor,
}

/// The counts of one run of a suite.
#[derive(Default)]
struct Counts {
    passed: usize,
    ignored: usize,
    by_reason: BTreeMap<&'static str, usize>,
}

impl Counts {
    fn line(&self, suite: &Suite) -> String {
        let differences: usize = self.by_reason.values().sum();
        format!(
            "{}: {} cases, {} pass, {differences} expected differences \
             {:?}, {} not compared",
            suite.name,
            suite.cases.len(),
            self.passed,
            self.by_reason,
            self.ignored
        )
    }
}

/// Whether urlx's links in `input` meet `want`.
fn meets(want: &Want, input: &str, found: &[Link]) -> bool {
    match want {
        Want::First(text) => {
            found.first().is_some_and(|l| &input[l.range.clone()] == text)
        }
        Want::Nothing => found.is_empty(),
        Want::Links(want) => {
            let got: BTreeSet<(String, String)> = found
                .iter()
                .map(|l| {
                    let text = &input[l.range.clone()];
                    (percent_decode(&l.url), percent_decode(text))
                })
                .collect();
            &got == want
        }
        Want::Ignored => true,
    }
}

/// Run `suite` against `EXPECTED`: its counts, and every case or row
/// that breaks the rules of the module doc.
fn run(suite: &Suite) -> (Counts, Vec<String>) {
    let default = Extractor::builder().build().unwrap();
    let rows: Vec<&Expected> =
        EXPECTED.iter().filter(|e| e.suite == suite.name).collect();
    let mut used = vec![false; rows.len()];
    let mut counts = Counts::default();
    let mut problems = Vec::new();
    for case in &suite.cases {
        let found = links(&suite.peer, &case.input);
        let got = marked(&case.input, &found);
        if case.want.only_schemes() {
            let plain = marked(&case.input, &links(&default, &case.input));
            if plain != got {
                problems.push(format!(
                    "OPTIONS CHANGE A LINK line {}: default {plain:?}, \
                     peer's mode {got:?}",
                    case.line
                ));
            }
        }
        if matches!(case.want, Want::Ignored) {
            counts.ignored += 1;
            continue;
        }
        let pass = meets(&case.want, &case.input, &found);
        let row = rows.iter().position(|e| e.input == case.input);
        if let Some(r) = row {
            used[r] = true;
        }
        match (pass, row.map(|r| rows[r])) {
            (true, None) => counts.passed += 1,
            (true, Some(_)) => problems.push(format!(
                "UNEXPECTED PASS line {}: {:?}",
                case.line, case.input
            )),
            (false, None) => problems.push(format!(
                "UNEXPECTED FAILURE line {}: {:?}\n  want {}\n  urlx {got:?}",
                case.line,
                case.input,
                describe(&case.want)
            )),
            (false, Some(e)) if e.urlx != got => problems.push(format!(
                "CHANGED line {}: {:?}\n  recorded {:?}\n  urlx     {got:?}",
                case.line, case.input, e.urlx
            )),
            (false, Some(e)) => {
                *counts.by_reason.entry(e.reason.name).or_default() += 1;
            }
        }
    }
    for (e, used) in rows.iter().zip(used) {
        if !used {
            problems.push(format!("ROW MATCHES NO CASE: {:?}", e.input));
        }
    }
    (counts, problems)
}

/// Run `suite`, which must have `total` cases.
fn check(suite: Suite, total: usize) {
    let (counts, problems) = run(&suite);
    let line = counts.line(&suite);
    eprintln!("{line}");
    assert_eq!(suite.cases.len(), total, "parsed cases: {line}");
    assert!(problems.is_empty(), "{line}\n{}", problems.join("\n"));
}

fn describe(want: &Want) -> String {
    match want {
        Want::First(text) => format!("first link {text:?}"),
        Want::Nothing => "no link".to_string(),
        Want::Links(set) => format!("links {set:?}"),
        Want::Ignored => "anything".to_string(),
    }
}

/// linkify-it's default mode, and markdown-it's.
fn fuzzy() -> Extractor {
    Extractor::builder().domains(true).emails(true).build().unwrap()
}

#[test]
fn linkify_it_links() {
    check(Suite { name: LINKS, cases: linkify_links(), peer: fuzzy() }, 117);
}

#[test]
fn linkify_it_not_links() {
    let cases = linkify_not_links();
    check(Suite { name: NOT_LINKS, cases, peer: fuzzy() }, 38);
}

#[test]
fn markdown_it_linkify() {
    check(Suite { name: MARKDOWN, cases: markdown_it(), peer: fuzzy() }, 20);
}

/// GFM's mode: `www.` hosts and e-mail addresses.
#[test]
fn cmark_gfm_autolinks() {
    let gfm = Extractor::builder().abbreviated(true).emails(true).build();
    let cases = cmark_gfm_autolinks_cases();
    check(Suite { name: GFM, cases, peer: gfm.unwrap() }, 16);
}

#[test]
fn expected_rows_are_argued_and_unique() {
    let suites = [LINKS, NOT_LINKS, MARKDOWN, GFM];
    let mut seen = BTreeSet::new();
    for e in EXPECTED {
        assert!(suites.contains(&e.suite), "{}", e.suite);
        assert!(seen.insert((e.suite, e.input)), "two rows: {:?}", e.input);
        assert!(e.reason.text.len() > 150, "argue {:?}", e.reason.name);
    }
}

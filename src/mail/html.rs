//! HTML scanning of mail `text/html` parts: links, base, visible text,
//! the other attribute values and the contents of scripts and style
//! sheets.
//!
//! This module owns URL-valued attributes, the `<base href>`, the
//! visible text of an HTML document, the text of its other attribute
//! values and the extent of its `<script>` and `<style>` contents, all
//! mapped back to HTML offsets. Finding URLs in those texts is left to
//! the caller, which scans them as plain text.
//!
//! The tokenizer is forgiving and works in the spirit of the WHATWG HTML
//! tokenizer without being a full one. It never builds a tree, runs in time
//! linear in the input and never panics.
//!
//! # Tokens
//!
//! * `<` followed by an ASCII letter starts a start tag, `</` followed by an
//!   ASCII letter an end tag. Tag and attribute names are case-insensitive.
//!   Attributes are `name=value`, `name='value'`, `name="value"` or a bare
//!   `name`; whitespace around `=` is allowed; `/` between attributes is
//!   ignored.
//! * `<!--` starts a comment that ends at `-->`, `--!>`, or the empty forms
//!   `<!-->` and `<!--->`. Other `<!...>` (doctype, `<![if ...]>`,
//!   `<![CDATA[...]`), `<?...>` and `</` followed by a non-letter are bogus
//!   comments ending at the next `>`; `</>` is dropped. Comments are
//!   neither text nor links: a comment is not rendered (HTML 13.2.5.43
//!   to 13.2.5.52, the comment states), and what mail writers put there
//!   (Word's conditional comments, tracking notes) is not for readers.
//! * Any other `<` (followed by a space, digit, `<`, `=`, non-ASCII, or at
//!   the end of input) is text.
//! * The contents of `<script>` and `<style>` run up to the matching end
//!   tag (`</script` followed by whitespace, `/` or `>`, case-insensitive).
//!   They are not visible text, but they hold URLs as much as text does
//!   (a CSS `url(http://...)`, the `<url>` type of CSS Values and Units,
//!   fetched as a tracking image; a JavaScript string
//!   `window.location='http://...'`): their ranges are reported in
//!   [`HtmlScan::raw_texts`], taken literally as the tokenizer's RAWTEXT
//!   and script data states (HTML 13.2.5.3, 13.2.5.4) take them, so a
//!   `<!--` inside them is text, not a comment.
//!   The contents of `<title>` and `<textarea>` are text (character
//!   references decoded, no tags inside); those of `<xmp>` are text taken
//!   literally; everything after `<plaintext>` is literal text.
//!
//! # Malformed input
//!
//! * A quoted attribute value ends at the matching quote. If there is none
//!   before the end of the input, it ends at the next `>` (which also ends
//!   the tag), or at the end of the input if there is no `>` either.
//! * Recovery from a missing closing quote: if a quoted value would contain
//!   a `>` followed later by a `<` (that is, it would swallow markup, as in
//!   `<a href="http://x/>Click</a> ... <a href="y">`), the value and the
//!   tag end at that first `>` instead. Browsers would swallow the markup;
//!   this rule keeps the link and the text and makes sure a stray quote
//!   cannot hide the rest of the document.
//! * A tag cut off by the end of the input still reports its URL
//!   attributes (a truncated mail part keeps its last link); it produces
//!   no text.
//! * An unclosed comment (`<!--` without `-->`) or bogus comment (`<!`,
//!   `<?` without `>`) hides the rest of the input, as in browsers; the
//!   contents of an unclosed `<script>` or `<style>` run to the end of the
//!   input (no text, no links, one raw text).
//! * Duplicate attributes are all reported (browsers use the first).
//!
//! # Text
//!
//! [`HtmlScan::text`] is the text between the tags, whitespace kept as
//! written, with character references decoded (`&nbsp;` becomes a plain
//! space). Block-level tags, start or end (`p`, `br`, `div`, `li`, `tr`,
//! `table`, `h1`–`h6`, `title`, ...), insert a newline unless the text is
//! empty or already ends with one; `td` and `th` insert a space unless the
//! text ends with whitespace. Inline tags (`b`, `a`, `font`, ...) insert
//! nothing, as a browser renders `foo<b>bar</b>` as `foobar`.
//!
//! # Other attribute values
//!
//! Every attribute value that holds a colon once its character references
//! are decoded is also given as text ([`HtmlScan::attr_texts`]), for URLs
//! written where no URL attribute is: `<option value="http://...">`,
//! `title=`, Outlook's `originalsrc=`, `pluginspage=`, event handlers
//! (`onclick="window.open('http://...')"`) and `style` (a CSS `url()`).
//! URL attributes are given too; their value stays a [`Link`], and the
//! caller reports a URL found in their text only where no link starts.
//! Not given:
//!
//! * `xmlns` and `xmlns:*` values: XML namespace names (Namespaces in
//!   XML 1.0 section 2), such as `http://www.w3.org/1999/xhtml` or
//!   `urn:schemas-microsoft-com:office:office`, identify a vocabulary;
//!   they are compared as strings and nobody follows them.
//! * A `cite` whose value is a `mid:` URL, for the reason it is not a
//!   link (see [`URL_ATTRIBUTES`]).
//! * For the mail scanner, which looks for the built-in schemes only
//!   (`scan_html_for`): a value without a character reference none of
//!   whose colons can end such a scheme (`style="color: red"`), which
//!   holds nothing it could find; nor a link's value without a character
//!   reference whose one such colon ends the `http` or `https` that
//!   starts it (`href="http://example.com/"`), in which it could find
//!   only the URL at the link's start, which the caller leaves out.

use std::sync::LazyLock;

use crate::sieve::{self, Sieve};

/// The attribute names whose values are reported as links, for any
/// element.
///
/// `srcset` values are split into their image candidates and `ping` values
/// at whitespace, one [`Link`] per URL. A `cite` whose value is a `mid:`
/// URL (RFC 2392, the quoted message's Message-ID, as mail readers write
/// on `<blockquote type="cite">`) is not reported. In addition, the
/// `content` of `<meta http-equiv="refresh" content="5; url=...">` is
/// reported (only its URL part) with `attr` `"content"`.
pub const URL_ATTRIBUTES: &[&str] = &[
    "action",
    "background",
    "cite",
    "classid",
    "codebase",
    "data",
    "dynsrc",
    "formaction",
    "href",
    "icon",
    "longdesc",
    "lowsrc",
    "manifest",
    "ping",
    "poster",
    "profile",
    "src",
    "srcset",
    "usemap",
];

/// The result of [`scan_html`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HtmlScan {
    /// The `href` of the first `<base>` element that has a non-empty one,
    /// cleaned like [`Link::value`]. Relative links resolve against it.
    pub base: Option<String>,
    /// The URL-valued attributes, in document order (the `<base href>`
    /// included).
    pub links: Vec<Link>,
    /// The visible text: tags, comments, `<script>` and `<style>` removed,
    /// character references decoded, block-level tags turned into newlines
    /// (see the module documentation). `<title>` text is kept.
    pub text: String,
    /// Anchors `(text offset, html offset)`, strictly increasing in both
    /// components: a byte offset `t` in [`HtmlScan::text`] corresponds to
    /// the HTML offset `a.1 + (t - a.0)` for the last anchor `a` with
    /// `a.0 <= t` (see [`HtmlScan::html_offset`]). An anchor is added
    /// wherever the correspondence jumps: after a tag, a comment or a
    /// character reference. A decoded reference or an inserted newline maps
    /// to the first byte of the reference or tag.
    pub text_map: Vec<(usize, usize)>,
    /// The attribute values given as text (see the module documentation),
    /// in document order.
    pub attr_texts: Vec<AttrText>,
    /// The contents of `<script>` and `<style>` elements, as HTML byte
    /// ranges (never empty), in document order.
    pub raw_texts: Vec<(usize, usize)>,
    /// The visible text of each `<a href>` element, in document order.
    pub anchors: Vec<Anchor>,
}

/// The visible text of one `<a href>` element (see [`HtmlScan::anchors`]):
/// from its start tag to its `</a>`, the next `<a` start tag or the end
/// of the input (an unclosed anchor ends where a browser would start the
/// next).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// [`Link::offset`] of the element's `href`.
    pub href_offset: usize,
    /// The text, its runs of whitespace made one space, trimmed; at most
    /// [`MAX_ANCHOR_TEXT`] bytes (cut at a character boundary).
    pub text: String,
}

/// The longest anchor text kept (see [`Anchor::text`]).
pub const MAX_ANCHOR_TEXT: usize = 256;

/// One attribute value given as text (see [`HtmlScan::attr_texts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrText {
    /// The lowercase attribute name, such as `"value"` or `"onclick"`.
    pub attr: String,
    /// The lowercase element name.
    pub element: String,
    /// The whole value with character references decoded (attribute
    /// rules, see [`decode_attr_entities`]; `&nbsp;` becomes a plain
    /// space, as in [`HtmlScan::text`]). Holds a colon.
    pub text: String,
    /// Anchors `(text offset, html offset)`, as in
    /// [`HtmlScan::text_map`]: see [`AttrText::html_offset`].
    pub map: Vec<(usize, usize)>,
}

impl AttrText {
    /// Maps a byte offset in [`AttrText::text`] to the byte offset in the
    /// HTML input it came from (exact for text copied verbatim; a decoded
    /// reference maps to its `&`).
    pub fn html_offset(&self, t: usize) -> usize {
        anchored_offset(&self.map, t)
    }
}

impl HtmlScan {
    /// Maps a byte offset in [`HtmlScan::text`] to the byte offset in the
    /// HTML input it came from (exact for text copied verbatim).
    pub fn html_offset(&self, t: usize) -> usize {
        anchored_offset(&self.text_map, t)
    }
}

/// The HTML offset of text offset `t` under the anchors `map` (see
/// [`HtmlScan::text_map`]).
fn anchored_offset(map: &[(usize, usize)], t: usize) -> usize {
    let k = map.partition_point(|a| a.0 <= t);
    match k.checked_sub(1).and_then(|k| map.get(k)) {
        Some(&(ts, hs)) => hs.saturating_add(t - ts),
        None => t,
    }
}

/// One URL-valued attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The lowercase attribute name, one of [`URL_ATTRIBUTES`] or
    /// `"content"` (meta refresh).
    pub attr: &'static str,
    /// The lowercase element name, e.g. `"a"`, `"img"`, `"form"`.
    pub element: String,
    /// The value with character references decoded (attribute rules, see
    /// [`decode_attr_entities`]), leading and trailing whitespace and
    /// control characters removed, and every tab, CR and LF inside removed
    /// (as the URL parser does). Never empty: empty values are not
    /// reported.
    pub value: String,
    /// The byte offset in the HTML input of the first character of the raw
    /// value after leading whitespace (the first byte of the URL as
    /// written, possibly of a character reference).
    pub offset: usize,
}

/// Scans one HTML document: links, `<base href>` and the visible text.
///
/// Never panics; time and memory are linear in `html.len()`.
pub fn scan_html(html: &str) -> HtmlScan {
    scan(html, None, true, None)
}

/// [`scan_html`], giving the links and attribute texts of each tag to
/// `each` as soon as the tag is read instead of collecting them (the
/// result has none): a document of a million attributes is never held
/// as a million values. [`HtmlScan::base`] is known only at the end;
/// see [`may_have_base`].
pub fn scan_html_with(html: &str, each: &mut TagSink<'_>) -> HtmlScan {
    scan(html, Some(each), true, None)
}

/// [`scan_html_with`], collecting [`HtmlScan::anchors`] only when
/// `anchors` (their texts cost a string each).
///
/// Attribute values are given to `each` only where `colons` keeps one of
/// their colons (or they hold a character reference, which may decode
/// to one), when it is given: the values a scan for the schemes of its
/// tables can find something in, other than the URL that starts a
/// link's value (see the module documentation).
pub(crate) fn scan_html_for(
    html: &str,
    each: &mut TagSink<'_>,
    anchors: bool,
    colons: Option<&'static Sieve>,
) -> HtmlScan {
    scan(html, Some(each), anchors, colons)
}

/// What [`scan_html_with`] gives each tag's links and attribute texts to.
pub type TagSink<'f> = dyn FnMut(&[Link], &[AttrText]) + 'f;

/// Whether `html` may hold a `<base>` element (a `<` and `base` in any
/// case): when it does not, [`HtmlScan::base`] is `None`.
pub fn may_have_base(html: &str) -> bool {
    let b = html.as_bytes();
    sieve::byte_positions(b, b'<').any(|i| {
        b.get(i + 1..i + 5).is_some_and(|n| n.eq_ignore_ascii_case(b"base"))
    })
}

fn scan<'f>(
    html: &str,
    each: Option<&'f mut TagSink<'f>>,
    anchors: bool,
    colons: Option<&'static Sieve>,
) -> HtmlScan {
    let mut s = Scanner {
        html,
        b: html.as_bytes(),
        // The text is at most about as long as the HTML: room for it at
        // once instead of growing it tag by tag; and for the anchors of
        // a document whose text runs are a few dozen bytes apart.
        out: HtmlScan {
            text: String::with_capacity(html.len()),
            text_map: Vec::with_capacity(html.len() / 64),
            ..HtmlScan::default()
        },
        no_gt_from: usize::MAX,
        attrs: Vec::new(),
        each,
        open_anchor: None,
        anchors,
        spent_links: Vec::new(),
        spent_texts: Vec::new(),
        colons,
    };
    s.run();
    s.close_anchor();
    s.out
}

/// Decodes character references as in HTML text: named references from a
/// table of about 160 (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
/// `&nbsp;`, all of Latin-1 such as `&copy;` `&eacute;`, and common ones
/// such as `&hellip;` `&mdash;` `&rsquo;` `&euro;` `&trade;`), decimal
/// `&#NN;` and hexadecimal `&#xNN;`.
///
/// As browsers do: the semicolon may be missing after a numeric reference
/// and after the legacy named ones (`&amp`, `&lt`, `&gt`, `&quot`, the
/// Latin-1 names); `&#0;`, surrogates and values above U+10FFFF become
/// U+FFFD; `&#128;`–`&#159;` are read as windows-1252 (`&#146;` is `’`).
/// Anything else after `&` is left as written.
pub fn decode_entities(s: &str) -> String {
    decode(s, false)
}

/// Decodes character references as in an HTML attribute value: like
/// [`decode_entities`], except that a legacy named reference without its
/// semicolon is left as written when followed by `=` or an ASCII letter or
/// digit, so `?a=1&copy=2` keeps `&copy=2` (while `&amp;` still becomes
/// `&`).
pub fn decode_attr_entities(s: &str) -> String {
    decode(s, true)
}

fn decode(s: &str, attr: bool) -> String {
    let mut out = String::with_capacity(s.len());
    decode_to(s, attr, &mut out);
    out
}

/// [`decode`], appended to `out`.
fn decode_to(s: &str, attr: bool, out: &mut String) {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(amp) = find_byte(b, i, b.len(), b'&') {
        out.push_str(s.get(i..amp).unwrap_or(""));
        match char_ref(b, amp, b.len(), attr) {
            Some((c, len)) => {
                out.push(c);
                i = amp + len;
            }
            None => {
                out.push('&');
                i = amp + 1;
            }
        }
    }
    out.push_str(s.get(i..).unwrap_or(""));
}

/// Position of the first `c` in `b[from..to]`.
#[inline]
fn find_byte(b: &[u8], from: usize, to: usize, c: u8) -> Option<usize> {
    b.get(from..to).and_then(|s| sieve::find_byte(s, c)).map(|k| from + k)
}

/// HTML's ASCII whitespace (tab, LF, FF, CR, space).
fn is_ws(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// What a start tag does to the text around and after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Content {
    /// Ordinary markup follows.
    Markup,
    /// `script`, `style`: contents are raw text, not visible.
    Script,
    /// `title`, `textarea`: contents are text, references decoded.
    Rcdata,
    /// `xmp`: contents are literal text.
    Rawtext,
    /// `plaintext`: the rest of the input is literal text.
    Plaintext,
}

/// Classifies a tag name: the separator it inserts and its content model.
fn classify(name: &[u8]) -> (Option<char>, Content) {
    let mut buf = [0u8; 10];
    let Some(lower) = lowercase_into(name, &mut buf) else {
        return (None, Content::Markup);
    };
    match lower {
        b"script" | b"style" => (None, Content::Script),
        b"title" | b"textarea" => (Some('\n'), Content::Rcdata),
        b"xmp" => (Some('\n'), Content::Rawtext),
        b"plaintext" => (Some('\n'), Content::Plaintext),
        b"td" | b"th" => (Some(' '), Content::Markup),
        b"address" | b"article" | b"aside" | b"blockquote" | b"body"
        | b"br" | b"caption" | b"center" | b"dd" | b"details" | b"dialog"
        | b"dir" | b"div" | b"dl" | b"dt" | b"fieldset" | b"figcaption"
        | b"figure" | b"footer" | b"form" | b"frame" | b"frameset" | b"h1"
        | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" | b"head" | b"header"
        | b"hgroup" | b"hr" | b"html" | b"iframe" | b"legend" | b"li"
        | b"main" | b"menu" | b"nav" | b"ol" | b"option" | b"p" | b"pre"
        | b"section" | b"summary" | b"table" | b"tbody" | b"tfoot"
        | b"thead" | b"tr" | b"ul" => (Some('\n'), Content::Markup),
        _ => (None, Content::Markup),
    }
}

/// `name` lower-cased in `buf`, if it fits: a byte at a time (a short
/// name's copy is cheaper so than by a call to `memcpy`).
fn lowercase_into<'b>(name: &[u8], buf: &'b mut [u8]) -> Option<&'b [u8]> {
    let dst = buf.get_mut(..name.len())?;
    for (d, &c) in dst.iter_mut().zip(name) {
        *d = c.to_ascii_lowercase();
    }
    Some(dst)
}

/// The canonical name if `name` is one of [`URL_ATTRIBUTES`].
fn url_attr(name: &[u8]) -> Option<&'static str> {
    let mut buf = [0u8; 10];
    let lower = lowercase_into(name, &mut buf)?;
    Some(match lower {
        b"action" => "action",
        b"background" => "background",
        b"cite" => "cite",
        b"classid" => "classid",
        b"codebase" => "codebase",
        b"data" => "data",
        b"dynsrc" => "dynsrc",
        b"formaction" => "formaction",
        b"href" => "href",
        b"icon" => "icon",
        b"longdesc" => "longdesc",
        b"lowsrc" => "lowsrc",
        b"manifest" => "manifest",
        b"ping" => "ping",
        b"poster" => "poster",
        b"profile" => "profile",
        b"src" => "src",
        b"srcset" => "srcset",
        b"usemap" => "usemap",
        _ => return None,
    })
}

/// One attribute of the tag being parsed: byte ranges in the input.
#[derive(Clone, Copy)]
struct Attr {
    name: (usize, usize),
    value: Option<(usize, usize)>,
}

struct Scanner<'a, 'f> {
    html: &'a str,
    b: &'a [u8],
    out: HtmlScan,
    /// Searches for `>` starting at or after this offset are known to fail.
    no_gt_from: usize,
    /// Attributes of the current tag (reused buffer).
    attrs: Vec<Attr>,
    /// Where each tag's links and attribute texts go, if not collected.
    each: Option<&'f mut TagSink<'f>>,
    /// The `<a href>` being read: its href's offset and where its text
    /// starts in the visible text.
    open_anchor: Option<(usize, usize)>,
    /// Whether anchors are collected.
    anchors: bool,
    /// Links and attribute texts given to `each` already: their strings'
    /// buffers are reused.
    spent_links: Vec<Link>,
    spent_texts: Vec<AttrText>,
    /// The test an attribute value's colons pass to be given as text
    /// (see [`scan_html_for`]); any colon without it.
    colons: Option<&'static Sieve>,
}

impl Scanner<'_, '_> {
    fn run(&mut self) {
        let b = self.b;
        let n = b.len();
        let mut pos = 0; // start of the pending text
        let mut i = 0; // where to look for the next `<`
        while let Some(lt) = find_byte(b, i, n, b'<') {
            let next = match b.get(lt + 1).copied() {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.text(pos, lt, true);
                    self.start_tag(lt)
                }
                Some(b'/') => match b.get(lt + 2).copied() {
                    Some(c) if c.is_ascii_alphabetic() => {
                        self.text(pos, lt, true);
                        self.end_tag(lt)
                    }
                    Some(b'>') => {
                        self.text(pos, lt, true);
                        lt + 3
                    }
                    Some(_) => {
                        self.text(pos, lt, true);
                        self.bogus_comment(lt + 2)
                    }
                    None => {
                        i = lt + 1;
                        continue;
                    }
                },
                Some(b'!') => {
                    self.text(pos, lt, true);
                    if b.get(lt + 2..lt + 4) == Some(b"--") {
                        self.comment(lt + 4)
                    } else {
                        self.bogus_comment(lt + 2)
                    }
                }
                Some(b'?') => {
                    self.text(pos, lt, true);
                    self.bogus_comment(lt + 2)
                }
                _ => {
                    i = lt + 1;
                    continue;
                }
            };
            pos = next;
            i = next;
        }
        self.text(pos, n, true);
    }

    /// Ends the `<a href>` being read, if any, and keeps its text.
    fn close_anchor(&mut self) {
        let Some((href_offset, from)) = self.open_anchor.take() else {
            return;
        };
        let shown = self.out.text.get(from..).unwrap_or("");
        let mut text = String::new();
        for word in shown.split_whitespace() {
            if text.len() + word.len() + 1 > MAX_ANCHOR_TEXT {
                break;
            }
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(word);
        }
        self.out.anchors.push(Anchor { href_offset, text });
    }

    /// `>` at or after `from`, with a memo of failed searches so repeated
    /// failures cost nothing.
    fn find_gt(&mut self, from: usize) -> Option<usize> {
        if from >= self.no_gt_from {
            return None;
        }
        let r = find_byte(self.b, from, self.b.len(), b'>');
        if r.is_none() {
            self.no_gt_from = from;
        }
        r
    }

    /// Skips a comment whose body starts at `s`; returns the offset after
    /// it (the end of the input if unclosed).
    fn comment(&mut self, s: usize) -> usize {
        let b = self.b;
        let mut from = s;
        while let Some(g) = self.find_gt(from) {
            let closed = g == s
                || (g == s + 1 && b.get(s) == Some(&b'-'))
                || (g >= s + 2 && b.get(g - 2..g) == Some(b"--"))
                || (g >= s + 3 && b.get(g - 3..g) == Some(b"--!"));
            if closed {
                return g + 1;
            }
            from = g + 1;
        }
        b.len()
    }

    /// Skips a bogus comment whose body starts at `s`.
    fn bogus_comment(&mut self, s: usize) -> usize {
        self.find_gt(s).map_or(self.b.len(), |g| g + 1)
    }

    /// Appends a separator mapped to HTML offset `at`.
    fn separate(&mut self, at: usize, sep: char) {
        match self.out.text.as_bytes().last() {
            None | Some(b'\n') => return,
            Some(&c) if sep == ' ' && is_ws(c) => return,
            _ => {}
        }
        self.anchor(at);
        self.out.text.push(sep);
    }

    /// Records that the next text byte comes from HTML offset `h`.
    fn anchor(&mut self, h: usize) {
        anchor(&self.out.text, &mut self.out.text_map, h);
    }

    /// Appends `html[a..e]` to the text, decoding references if `decode`.
    fn text(&mut self, a: usize, e: usize, decode: bool) {
        if a >= e {
            return;
        }
        if !decode {
            self.anchor(a);
            self.out.text.push_str(self.html.get(a..e).unwrap_or(""));
            return;
        }
        let out = &mut self.out;
        decode_into(self.html, a, e, false, &mut out.text, &mut out.text_map);
    }

    /// Handles the start tag at `lt`; returns where scanning resumes.
    fn start_tag(&mut self, lt: usize) -> usize {
        let b = self.b;
        let n = b.len();
        let (name, end) = self.parse_tag(lt + 1);
        let name_bytes = b.get(name.0..name.1).unwrap_or_default();
        let (sep, content) = classify(name_bytes);
        if let Some(sep) = sep {
            self.separate(lt, sep);
        }
        let attrs = std::mem::take(&mut self.attrs);
        let is_a = name_bytes.eq_ignore_ascii_case(b"a");
        if is_a {
            self.close_anchor();
        }
        let before = self.out.links.len();
        self.links(name, &attrs);
        if is_a
            && self.anchors
            && let Some(href) =
                self.out.links[before..].iter().find(|l| l.attr == "href")
        {
            self.open_anchor = Some((href.offset, self.out.text.len()));
        }
        if let Some(each) = self.each.as_mut()
            && !(self.out.links.is_empty() && self.out.attr_texts.is_empty())
        {
            each(&self.out.links, &self.out.attr_texts);
            // Their strings are written over by the next tags' values.
            self.spent_links.append(&mut self.out.links);
            self.spent_texts.append(&mut self.out.attr_texts);
        }
        self.attrs = attrs;
        match content {
            Content::Markup => end,
            Content::Plaintext => {
                self.text(end, n, false);
                n
            }
            Content::Script | Content::Rcdata | Content::Rawtext => {
                let close = find_end_tag(b, end, name_bytes).unwrap_or(n);
                match content {
                    Content::Rcdata => self.text(end, close, true),
                    Content::Rawtext => self.text(end, close, false),
                    _ if close > end => self.out.raw_texts.push((end, close)),
                    _ => {}
                }
                close
            }
        }
    }

    /// Handles the end tag at `lt`; returns the offset after it.
    fn end_tag(&mut self, lt: usize) -> usize {
        let (name, end) = self.parse_tag(lt + 2);
        let name_bytes = self.b.get(name.0..name.1).unwrap_or_default();
        if let (Some(sep), _) = classify(name_bytes) {
            self.separate(lt, sep);
        }
        if name_bytes.eq_ignore_ascii_case(b"a") {
            self.close_anchor();
        }
        end
    }

    /// Parses a tag whose name starts at `s` into `self.attrs`; returns the
    /// name range and the offset after the tag (after its `>`, or the end
    /// of the input).
    fn parse_tag(&mut self, s: usize) -> ((usize, usize), usize) {
        let b = self.b;
        let n = b.len();
        let stop = |c: u8| is_ws(c) || c == b'/' || c == b'>';
        self.attrs.clear();
        let mut i = s;
        while b.get(i).is_some_and(|&c| !stop(c)) {
            i += 1;
        }
        let name = (s, i);
        loop {
            while b.get(i).is_some_and(|&c| is_ws(c) || c == b'/') {
                i += 1;
            }
            match b.get(i) {
                None => return (name, n),
                Some(b'>') => return (name, i + 1),
                Some(_) => {}
            }
            // The first character of a name may be `=`.
            let ns = i;
            i += 1;
            while b.get(i).is_some_and(|&c| !stop(c) && c != b'=') {
                i += 1;
            }
            let ne = i;
            let mut j = i;
            while b.get(j).is_some_and(|&c| is_ws(c)) {
                j += 1;
            }
            let mut value = None;
            if b.get(j) == Some(&b'=') {
                j += 1;
                while b.get(j).is_some_and(|&c| is_ws(c)) {
                    j += 1;
                }
                match b.get(j).copied() {
                    None => {
                        value = Some((n, n));
                        i = n;
                    }
                    Some(q @ (b'"' | b'\'')) => {
                        let (ve, next) = self.quoted_end(j + 1, q);
                        value = Some((j + 1, ve));
                        i = next;
                    }
                    Some(b'>') => {
                        value = Some((j, j));
                        i = j;
                    }
                    Some(_) => {
                        let vs = j;
                        while b.get(j).is_some_and(|&c| !is_ws(c) && c != b'>')
                        {
                            j += 1;
                        }
                        value = Some((vs, j));
                        i = j;
                    }
                }
            }
            self.attrs.push(Attr { name: (ns, ne), value });
        }
    }

    /// The end of a value quoted with `q` starting at `vs`, and where
    /// attribute parsing resumes (see the module documentation): one
    /// search to the quote or a `>`, and after a `>` one to the quote or
    /// a `<`.
    fn quoted_end(&self, vs: usize, q: u8) -> (usize, usize) {
        let b = self.b;
        let n = b.len();
        let first = |from: usize, other: u8| {
            b.get(from..)
                .and_then(|rest| sieve::find_either(rest, q, other))
                .map(|k| from + k)
        };
        match first(vs, b'>') {
            None => (n, n),
            Some(qp) if b[qp] == q => (qp, qp + 1),
            Some(g) => match first(g + 1, b'<') {
                Some(qp) if b[qp] == q => (qp, qp + 1),
                _ => (g, g),
            },
        }
    }

    /// Reports the URL attributes of the tag just parsed.
    fn links(&mut self, name: (usize, usize), attrs: &[Attr]) {
        let b = self.b;
        let html = self.html;
        let name_bytes = b.get(name.0..name.1).unwrap_or_default();
        let element = html.get(name.0..name.1).unwrap_or("");
        let is_meta = name_bytes.eq_ignore_ascii_case(b"meta");
        let is_base = name_bytes.eq_ignore_ascii_case(b"base");
        for a in attrs {
            let Some((vs, ve)) = a.value else { continue };
            let an = b.get(a.name.0..a.name.1).unwrap_or_default();
            let url = url_attr(an);
            self.attr_text(a.name, element, (vs, ve), url);
            if let Some(attr) = url {
                match attr {
                    "srcset" => {
                        for (s, e) in srcset_urls(b, vs, ve) {
                            self.link(attr, element, s, e, false);
                        }
                    }
                    "ping" => {
                        let mut i = vs;
                        while i < ve {
                            while i < ve && b.get(i).is_some_and(|&c| is_ws(c))
                            {
                                i += 1;
                            }
                            let s = i;
                            while i < ve
                                && b.get(i).is_some_and(|&c| !is_ws(c))
                            {
                                i += 1;
                            }
                            self.link(attr, element, s, i, false);
                        }
                    }
                    _ => self.link(attr, element, vs, ve, is_base),
                }
            } else if is_meta
                && an.eq_ignore_ascii_case(b"content")
                && attrs.iter().any(|x| self.is_refresh(x))
            {
                let (s, e) = refresh_url(b, vs, ve);
                self.link("content", element, s, e, false);
            }
        }
    }

    /// Gives the value `html[vs..ve]` of the attribute named
    /// `html[name.0..name.1]` (the URL attribute `url`, if it is one) as
    /// text if it holds a colon (see the module documentation).
    fn attr_text(
        &mut self,
        name: (usize, usize),
        element: &str,
        (vs, ve): (usize, usize),
        url: Option<&str>,
    ) {
        let (b, html) = (self.b, self.html);
        let raw = b.get(vs..ve).unwrap_or_default();
        // No colon (or none the test keeps), and no reference that
        // could decode to one: a value without a reference is its text.
        // One pass for both.
        let wanted = match self.colons {
            Some(test) => {
                // The first two marks the test keeps: every `&`, and
                // the colons it keeps.
                let mut kept = [None; 2];
                let (mut n, mut at) = (0, 0);
                while n < 2
                    && let Some(k) = raw
                        .get(at..)
                        .and_then(|r| sieve::find_either(r, b':', b'&'))
                {
                    let i = at + k;
                    at = i + 1;
                    if raw[i] == b'&' || test.keeps(raw, i) {
                        kept[n] = Some(i);
                        n += 1;
                    }
                }
                match kept {
                    [None, _] => false,
                    [Some(i), None] if raw[i] == b':' => {
                        !starts_own_link(url, raw, i)
                    }
                    _ => true,
                }
            }
            None => sieve::find_either(raw, b':', b'&').is_some(),
        };
        if !wanted {
            return;
        }
        let an = b.get(name.0..name.1).unwrap_or_default();
        if is_xmlns(an) {
            return;
        }
        let mut t = self.spent_texts.pop().unwrap_or_else(|| AttrText {
            attr: String::new(),
            element: String::new(),
            text: String::with_capacity(raw.len()),
            map: Vec::new(),
        });
        t.text.clear();
        t.map.clear();
        decode_into(html, vs, ve, true, &mut t.text, &mut t.map);
        let cite_mid = || {
            an.eq_ignore_ascii_case(b"cite")
                && t.text
                    .trim_start_matches(|c: char| c <= ' ')
                    .get(..4)
                    .is_some_and(|m| m.eq_ignore_ascii_case("mid:"))
        };
        if !t.text.contains(':') || cite_mid() {
            self.spent_texts.push(t);
            return;
        }
        lowercase_to(&mut t.attr, html.get(name.0..name.1).unwrap_or(""));
        lowercase_to(&mut t.element, element);
        self.out.attr_texts.push(t);
    }

    /// Whether `a` is `http-equiv="refresh"`.
    fn is_refresh(&self, a: &Attr) -> bool {
        let name = self.b.get(a.name.0..a.name.1).unwrap_or_default();
        let Some((vs, ve)) = a.value else { return false };
        name.eq_ignore_ascii_case(b"http-equiv")
            && clean(decode_attr_entities(self.html.get(vs..ve).unwrap_or("")))
                .eq_ignore_ascii_case("refresh")
    }

    /// Reports the raw value `html[s..e]` as a link.
    fn link(
        &mut self,
        attr: &'static str,
        element: &str,
        mut s: usize,
        e: usize,
        base: bool,
    ) {
        let b = self.b;
        while s < e && b.get(s).is_some_and(|&c| is_ws(c)) {
            s += 1;
        }
        let raw = self.html.get(s..e).unwrap_or("");
        let mut link = self.spent_links.pop().unwrap_or_else(|| Link {
            attr,
            element: String::new(),
            value: String::new(),
            offset: s,
        });
        link.value.clear();
        decode_to(raw, true, &mut link.value);
        clean_in(&mut link.value);
        let value = &link.value;
        // `<blockquote type="cite" cite="mid:...">` (Thunderbird and
        // other mail readers): the Message-ID of the quoted message as a
        // `mid:` URL (RFC 2392), a reference rather than a link. Other
        // `cite` values (`http:` sources of a quotation) are links.
        if value.is_empty()
            || attr == "cite"
                && value
                    .get(..4)
                    .is_some_and(|m| m.eq_ignore_ascii_case("mid:"))
        {
            self.spent_links.push(link);
            return;
        }
        if base && attr == "href" && self.out.base.is_none() {
            self.out.base = Some(value.clone());
        }
        link.attr = attr;
        link.offset = s;
        lowercase_to(&mut link.element, element);
        self.out.links.push(link);
    }
}

/// Records in `map` that the next byte of `text` comes from HTML offset
/// `h` (see [`HtmlScan::text_map`]).
fn anchor(text: &str, map: &mut Vec<(usize, usize)>, h: usize) {
    let t = text.len();
    if let Some(last) = map.last_mut() {
        if h.checked_sub(last.1) == Some(t - last.0) {
            return;
        }
        if last.0 == t {
            last.1 = h;
            return;
        }
    }
    map.push((t, h));
}

/// Appends `html[a..e]` to `text` with its character references decoded
/// (attribute rules if `attr`, see [`decode_attr_entities`]; `&nbsp;`
/// as a plain space), recording the anchors in `map`.
fn decode_into(
    html: &str,
    a: usize,
    e: usize,
    attr: bool,
    text: &mut String,
    map: &mut Vec<(usize, usize)>,
) {
    let b = html.as_bytes();
    let mut i = a;
    while let Some(amp) = find_byte(b, i, e, b'&') {
        if amp > i {
            anchor(text, map, i);
            text.push_str(html.get(i..amp).unwrap_or(""));
        }
        anchor(text, map, amp);
        match char_ref(b, amp, e, attr) {
            Some((c, len)) => {
                text.push(if c == '\u{a0}' { ' ' } else { c });
                i = amp + len;
            }
            None => {
                text.push('&');
                i = amp + 1;
            }
        }
    }
    if i < e {
        anchor(text, map, i);
        text.push_str(html.get(i..e).unwrap_or(""));
    }
}

/// Whether the value `raw` of the URL attribute `url` (if it is one),
/// whose one colon the colon test keeps is at `colon`, is a link (see
/// [`Scanner::links`]) that starts, after whitespace, with the scheme
/// `http` or `https` ending there. A scan of such a value as text finds
/// the one URL that starts at the link's offset, which the link gives
/// already: the value is not given as text.
fn starts_own_link(url: Option<&str>, raw: &[u8], colon: usize) -> bool {
    let link = url.is_some_and(|a| !matches!(a, "srcset" | "ping" | "cite"));
    let s = raw.iter().position(|&c| !is_ws(c)).unwrap_or(raw.len());
    link && raw.get(s..colon).is_some_and(|scheme| {
        scheme.eq_ignore_ascii_case(b"http")
            || scheme.eq_ignore_ascii_case(b"https")
    })
}

/// Whether an attribute named `name` holds an XML namespace name:
/// `xmlns` or `xmlns:prefix` (Namespaces in XML 1.0 section 2).
fn is_xmlns(name: &[u8]) -> bool {
    name.get(..5).is_some_and(|p| p.eq_ignore_ascii_case(b"xmlns"))
        && matches!(name.get(5), None | Some(b':'))
}

/// Trims C0 controls and spaces and removes inner tabs and newlines, in
/// place (a decoded value needs no second allocation).
fn clean(mut v: String) -> String {
    clean_in(&mut v);
    v
}

/// [`clean`] in place.
fn clean_in(v: &mut String) {
    // The characters trimmed are ASCII, so bytes: a byte of a longer
    // UTF-8 sequence is never one of them.
    let b = v.as_bytes();
    let end = b.iter().rposition(|&c| c > b' ').map_or(0, |i| i + 1);
    let start = b.iter().position(|&c| c > b' ').unwrap_or(end);
    v.truncate(end);
    if start > 0 {
        v.drain(..start);
    }
    if memchr::memchr3(b'\t', b'\n', b'\r', v.as_bytes()).is_some() {
        v.retain(|c| !matches!(c, '\t' | '\n' | '\r'));
    }
}

/// `s` written into `buf` in lowercase ASCII.
fn lowercase_to(buf: &mut String, s: &str) {
    buf.clear();
    buf.push_str(s);
    buf.make_ascii_lowercase();
}

/// The offset of the end tag `</name` (followed by whitespace, `/` or `>`)
/// at or after `from`, case-insensitive.
fn find_end_tag(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(p) = find_byte(b, i, b.len(), b'<') {
        let after = p + 2 + name.len();
        if b.get(p + 1) == Some(&b'/')
            && b.get(p + 2..after)
                .is_some_and(|s| s.eq_ignore_ascii_case(name))
            && b.get(after)
                .is_some_and(|&c| is_ws(c) || c == b'/' || c == b'>')
        {
            return Some(p);
        }
        i = p + 1;
    }
    None
}

/// The URL ranges of a raw `srcset` value `b[vs..ve]`: candidates are
/// separated by commas; each is a URL (up to whitespace, trailing commas
/// dropped) followed by optional descriptors.
fn srcset_urls(b: &[u8], vs: usize, ve: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = vs;
    loop {
        while i < ve && b.get(i).is_some_and(|&c| is_ws(c) || c == b',') {
            i += 1;
        }
        if i >= ve {
            return out;
        }
        let us = i;
        while i < ve && b.get(i).is_some_and(|&c| !is_ws(c)) {
            i += 1;
        }
        let mut ue = i;
        while ue > us && b.get(ue - 1) == Some(&b',') {
            ue -= 1;
        }
        out.push((us, ue));
        if ue == i {
            // Descriptors up to a comma outside parentheses.
            let mut depth = 0usize;
            while i < ve {
                match b.get(i) {
                    Some(b'(') => depth = depth.saturating_add(1),
                    Some(b')') => depth = depth.saturating_sub(1),
                    Some(b',') if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
        }
    }
}

/// The URL range of a raw meta refresh `content` value `b[vs..ve]`, such
/// as `5; url='http://x/'`, `0;URL=http://x/` or `0, http://x/`.
fn refresh_url(b: &[u8], vs: usize, ve: usize) -> (usize, usize) {
    let at = |i: usize| if i < ve { b.get(i).copied() } else { None };
    let mut i = vs;
    while at(i).is_some_and(is_ws) {
        i += 1;
    }
    while at(i).is_some_and(|c| c.is_ascii_digit() || c == b'.') {
        i += 1;
    }
    while at(i).is_some_and(is_ws) {
        i += 1;
    }
    if matches!(at(i), Some(b';' | b',')) {
        i += 1;
    }
    while at(i).is_some_and(is_ws) {
        i += 1;
    }
    if b.get(i..i + 3).is_some_and(|s| s.eq_ignore_ascii_case(b"url"))
        && i + 3 <= ve
    {
        let mut j = i + 3;
        while at(j).is_some_and(is_ws) {
            j += 1;
        }
        if at(j) == Some(b'=') {
            j += 1;
            while at(j).is_some_and(is_ws) {
                j += 1;
            }
            i = j;
        }
    }
    if let Some(q @ (b'"' | b'\'')) = at(i) {
        let e = find_byte(b, i + 1, ve, q).unwrap_or(ve);
        return (i + 1, e);
    }
    (i, ve)
}

/// Decodes the character reference at `b[i] == b'&'`, looking no further
/// than `end`; returns the character and the length consumed.
fn char_ref(
    b: &[u8],
    i: usize,
    end: usize,
    attr: bool,
) -> Option<(char, usize)> {
    let s = b.get(..end)?;
    if s.get(i + 1) == Some(&b'#') {
        let mut j = i + 2;
        let hex = matches!(s.get(j), Some(b'x' | b'X'));
        if hex {
            j += 1;
        }
        let radix = if hex { 16 } else { 10 };
        let ds = j;
        let mut v: u32 = 0;
        while let Some(d) =
            s.get(j).and_then(|&c| char::from(c).to_digit(radix))
        {
            v = v.saturating_mul(radix).saturating_add(d).min(0x11_0000);
            j += 1;
        }
        if j == ds {
            return None;
        }
        if s.get(j) == Some(&b';') {
            j += 1;
        }
        return Some((numeric_char(v), j - i));
    }
    let ns = i + 1;
    let mut j = ns;
    while j - ns < 32 && s.get(j).is_some_and(u8::is_ascii_alphanumeric) {
        j += 1;
    }
    let name = s.get(ns..j)?;
    if s.get(j) == Some(&b';')
        && let Some((c, _)) = lookup(name)
    {
        return Some((c, j + 1 - i));
    }
    for k in (2..=name.len().min(6)).rev() {
        let Some((c, true)) = name.get(..k).and_then(lookup) else {
            continue;
        };
        if attr
            && s.get(ns + k)
                .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric())
        {
            return None;
        }
        return Some((c, 1 + k));
    }
    None
}

/// The character of a numeric reference (see [`decode_entities`]).
fn numeric_char(v: u32) -> char {
    const WIN1252: [u32; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6,
        0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018,
        0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    let v = match v {
        0x80..=0x9F => {
            WIN1252.get((v - 0x80) as usize).copied().unwrap_or(0xFFFD)
        }
        0 => 0xFFFD,
        _ => v,
    };
    char::from_u32(v).unwrap_or('\u{FFFD}')
}

/// The Latin-1 names for U+00A0 to U+00FF, in order.
const LATIN1: [&str; 96] = [
    "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect",
    "uml", "copy", "ordf", "laquo", "not", "shy", "reg", "macr", "deg",
    "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot", "cedil",
    "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest", "Agrave",
    "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave",
    "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH",
    "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times",
    "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN", "szlig",
    "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil",
    "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml",
    "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide",
    "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
];

/// A named reference: its character and whether it is a legacy name that
/// may omit the semicolon.
fn lookup(name: &[u8]) -> Option<(char, bool)> {
    // The names most text uses, without a search.
    match name {
        b"nbsp" => return Some(('\u{A0}', true)),
        b"amp" => return Some(('&', true)),
        b"lt" => return Some(('<', true)),
        b"gt" => return Some(('>', true)),
        b"quot" => return Some(('"', true)),
        _ => {}
    }
    // The Latin-1 names sorted, for a binary search: a reference is
    // looked up once for each prefix of its name.
    static SORTED: LazyLock<Vec<(&'static [u8], char)>> =
        LazyLock::new(|| {
            let mut v: Vec<(&'static [u8], char)> = (0xA0..)
                .zip(LATIN1)
                .filter_map(|(c, n)| Some((n.as_bytes(), char::from_u32(c)?)))
                .collect();
            v.sort_unstable();
            v
        });
    if let Ok(k) = SORTED.binary_search_by(|(n, _)| (*n).cmp(name)) {
        return SORTED.get(k).map(|&(_, c)| (c, true));
    }
    let legacy = |c| Some((c, true));
    let modern = |c| Some((c, false));
    match name {
        b"AMP" => legacy('&'),
        b"LT" => legacy('<'),
        b"GT" => legacy('>'),
        b"QUOT" => legacy('"'),
        b"COPY" => legacy('\u{A9}'),
        b"REG" => legacy('\u{AE}'),
        b"apos" => modern('\''),
        b"OElig" => modern('\u{152}'),
        b"oelig" => modern('\u{153}'),
        b"Scaron" => modern('\u{160}'),
        b"scaron" => modern('\u{161}'),
        b"Yuml" => modern('\u{178}'),
        b"fnof" => modern('\u{192}'),
        b"circ" => modern('\u{2C6}'),
        b"tilde" => modern('\u{2DC}'),
        b"ensp" => modern('\u{2002}'),
        b"emsp" => modern('\u{2003}'),
        b"thinsp" => modern('\u{2009}'),
        b"zwnj" => modern('\u{200C}'),
        b"zwj" => modern('\u{200D}'),
        b"lrm" => modern('\u{200E}'),
        b"rlm" => modern('\u{200F}'),
        b"ndash" => modern('\u{2013}'),
        b"mdash" => modern('\u{2014}'),
        b"lsquo" => modern('\u{2018}'),
        b"rsquo" => modern('\u{2019}'),
        b"sbquo" => modern('\u{201A}'),
        b"ldquo" => modern('\u{201C}'),
        b"rdquo" => modern('\u{201D}'),
        b"bdquo" => modern('\u{201E}'),
        b"dagger" => modern('\u{2020}'),
        b"Dagger" => modern('\u{2021}'),
        b"bull" => modern('\u{2022}'),
        b"hellip" => modern('\u{2026}'),
        b"permil" => modern('\u{2030}'),
        b"prime" => modern('\u{2032}'),
        b"Prime" => modern('\u{2033}'),
        b"lsaquo" => modern('\u{2039}'),
        b"rsaquo" => modern('\u{203A}'),
        b"oline" => modern('\u{203E}'),
        b"frasl" => modern('\u{2044}'),
        b"euro" => modern('\u{20AC}'),
        b"trade" => modern('\u{2122}'),
        b"larr" => modern('\u{2190}'),
        b"uarr" => modern('\u{2191}'),
        b"rarr" => modern('\u{2192}'),
        b"darr" => modern('\u{2193}'),
        b"harr" => modern('\u{2194}'),
        b"minus" => modern('\u{2212}'),
        b"infin" => modern('\u{221E}'),
        b"ne" => modern('\u{2260}'),
        b"le" => modern('\u{2264}'),
        b"ge" => modern('\u{2265}'),
        b"loz" => modern('\u{25CA}'),
        b"spades" => modern('\u{2660}'),
        b"clubs" => modern('\u{2663}'),
        b"hearts" => modern('\u{2665}'),
        b"diams" => modern('\u{2666}'),
        b"Tab" => modern('\t'),
        b"NewLine" => modern('\n'),
        b"colon" => modern(':'),
        b"sol" => modern('/'),
        b"period" => modern('.'),
        b"commat" => modern('@'),
        b"quest" => modern('?'),
        b"equals" => modern('='),
        b"num" => modern('#'),
        b"percnt" => modern('%'),
        b"lpar" => modern('('),
        b"rpar" => modern(')'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn url_attr_names_url_attributes_in_any_case() {
        for &a in URL_ATTRIBUTES {
            assert_eq!(url_attr(a.as_bytes()), Some(a));
            assert_eq!(url_attr(a.to_ascii_uppercase().as_bytes()), Some(a));
            assert_eq!(url_attr(format!("{a}x").as_bytes()), None);
            assert_eq!(url_attr(&a.as_bytes()[1..]), None);
        }
        for other in ["", "alt", "hreff", "xmlns", "style", "srcsetsrcset"] {
            assert_eq!(url_attr(other.as_bytes()), None, "{other}");
        }
        assert!(matches!(classify(b"SCRIPT").1, Content::Script));
        assert_eq!(classify(b"BlockQuote").0, Some('\n'));
        assert_eq!(classify(b"blockquotes").0, None);
    }

    #[test]
    fn clean_trims_and_drops_line_breaks() {
        for (v, want) in [
            (" \u{1}http://a/\tb\n c\r\n\u{0} ", "http://a/b c"),
            ("http://a/", "http://a/"),
            ("\t\n ", ""),
            ("é\u{a0}", "é\u{a0}"),
        ] {
            assert_eq!(clean(v.to_string()), want, "{v:?}");
        }
    }

    fn values(s: &HtmlScan) -> Vec<(&str, &str, &str)> {
        s.links
            .iter()
            .map(|l| (l.element.as_str(), l.attr, l.value.as_str()))
            .collect()
    }

    /// Every link offset points at the raw value; every anchor is in
    /// range and the maps are strictly increasing; raw texts are in
    /// order, in range and on character boundaries.
    fn check_invariants(html: &str, s: &HtmlScan) {
        for l in &s.links {
            assert!(html.is_char_boundary(l.offset), "{l:?}");
            assert!(!l.value.is_empty());
        }
        let maps = std::iter::once((&s.text_map, s.text.len()))
            .chain(s.attr_texts.iter().map(|a| (&a.map, a.text.len())));
        for (map, len) in maps {
            for w in map.windows(2) {
                assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
            }
            for a in map {
                assert!(a.0 <= len && a.1 <= html.len(), "{a:?}");
            }
        }
        for a in &s.attr_texts {
            assert!(a.text.contains(':'), "{a:?}");
            assert!(!is_xmlns(a.attr.as_bytes()), "{a:?}");
        }
        let mut end = 0;
        for &(from, to) in &s.raw_texts {
            assert!(end <= from && from < to && to <= html.len());
            assert!(html.is_char_boundary(from) && html.is_char_boundary(to));
            end = to;
        }
    }

    /// The attribute texts as (element, attribute, text).
    fn attr_texts(s: &HtmlScan) -> Vec<(&str, &str, &str)> {
        s.attr_texts
            .iter()
            .map(|a| (a.element.as_str(), a.attr.as_str(), a.text.as_str()))
            .collect()
    }

    /// The rules of a scan that tries every colon, for the built-in
    /// schemes.
    fn every_colon() -> crate::scan::ScanRules {
        crate::scan::ScanRules {
            delimit: crate::delimit::Rules {
                max_len: 2048,
                opaque: None,
                refang: false,
            },
            abbrev: crate::abbrev::Opts::NONE,
            search: Some(crate::scan::TriggerSearch::Colons),
            encoded: false,
        }
    }

    /// An attribute value the colon test leaves out (no character
    /// reference, no colon it keeps) is one in which a scan that tries
    /// every colon finds no candidate; the values it gives are given
    /// without it too.
    #[test]
    fn values_the_colon_test_leaves_out_hold_no_candidate() {
        let Some(test) = crate::sieve::exact() else { return };
        let rules = every_colon();
        let pieces = [
            "http",
            "://",
            "mailto:",
            "ly:",
            ": ",
            "a:b",
            "URL:",
            "x",
            " ",
            "nEws:",
            "&#58;",
            "&amp;",
            "urn:",
            "s3:",
            "HTTP://",
            "/",
            "1:",
            "data:",
            "tel:+1",
            "color:red;",
            "a.b",
            "@",
        ];
        let mut next = crate::testing::xorshift(0x5eed_c01d);
        let mut left_out = 0;
        for _ in 0..20_000 {
            let value: String = (0..next() % 8)
                .map(|_| pieces[next() as usize % pieces.len()])
                .collect();
            let html = format!("<p title=\"{value}\">");
            let texts = |colons| {
                let mut got: Vec<String> = Vec::new();
                scan_html_for(
                    &html,
                    &mut |_, t: &[AttrText]| {
                        got.extend(t.iter().map(|a| a.text.clone()));
                    },
                    false,
                    colons,
                );
                got
            };
            let (all, kept) = (texts(None), texts(Some(test)));
            assert!(kept.iter().all(|t| all.contains(t)), "{html:?}");
            for text in all.iter().filter(|t| !kept.contains(t)) {
                left_out += 1;
                let mut found = 0;
                crate::scan::scan(
                    text.as_bytes(),
                    0,
                    text.len(),
                    &rules,
                    |_| {
                        found += 1;
                    },
                );
                assert_eq!(found, 0, "{text:?}");
            }
        }
        assert!(left_out > 1_000, "{left_out}");
    }

    /// A link's value the colon test leaves out though it keeps a colon
    /// (the one ending the `http` that starts the value) is one in which
    /// a scan that tries every colon finds candidates only where one of
    /// the tag's links starts, which the caller leaves out.
    #[test]
    fn link_values_left_out_hold_only_their_links() {
        let Some(test) = crate::sieve::exact() else { return };
        let rules = every_colon();
        let pieces = [
            "http", "https", "HTTPS", "://", ":", " ", "\t", "x", "a:b",
            "ly:", "mailto:", "&amp;", "/", "URL:", "s3:", "\u{1}", "a.b",
        ];
        let attrs = ["href", "src", "cite", "srcset", "ping", "title"];
        let mut next = crate::testing::xorshift(0x11ce_0f1e);
        let (mut left_out, mut found) = (0, 0);
        for _ in 0..20_000 {
            let starts = ["", "http://", " https://", "HTTP://", "http:"];
            let start = starts[next() as usize % starts.len()];
            let value: String = (0..next() % 5)
                .map(|_| pieces[next() as usize % pieces.len()])
                .fold(start.to_string(), |v, p| v + p);
            let attr = attrs[next() as usize % attrs.len()];
            let html = format!("<a {attr}=\"{value}\">");
            let tags = |colons| {
                let mut got: Vec<(Vec<Link>, Vec<AttrText>)> = Vec::new();
                scan_html_for(
                    &html,
                    &mut |l: &[Link], t: &[AttrText]| {
                        got.push((l.to_vec(), t.to_vec()));
                    },
                    false,
                    colons,
                );
                got
            };
            let (all, kept) = (tags(None), tags(Some(test)));
            let kept: Vec<&AttrText> =
                kept.iter().flat_map(|(_, t)| t).collect();
            for (links, texts) in &all {
                for t in texts.iter().filter(|t| !kept.contains(t)) {
                    left_out += 1;
                    crate::scan::scan(
                        t.text.as_bytes(),
                        0,
                        t.text.len(),
                        &rules,
                        |c| {
                            found += 1;
                            let h = t.html_offset(c.start);
                            assert!(
                                links.iter().any(|l| l.offset == h),
                                "{html:?}"
                            );
                        },
                    );
                }
            }
        }
        assert!(left_out > 1_000 && found > 1_000, "{left_out} {found}");
    }

    /// Every `http` in the text maps back to `http` in the HTML.
    fn check_urls_map_back(html: &str, s: &HtmlScan) -> usize {
        let mut count = 0;
        for (t, _) in s.text.match_indices("http") {
            let h = s.html_offset(t);
            assert!(html[h..].starts_with("http"), "text {t} -> html {h}");
            count += 1;
        }
        count
    }

    #[test]
    fn appendix_d_base_and_relative_link() {
        let html = "<!doctype html public \"-//IETF//DTD HTML//EN\">\n\
            <HTML><HEAD>\n\
            <TITLE>An example HTML document</TITLE>\n\
            <BASE href=\"http://www.ics.uci.edu/Test/a/b/c\">\n\
            </HEAD><BODY>\n\
            ... <A href=\"../x\">a hypertext anchor</A> ...\n\
            </BODY></HTML>\n";
        let s = scan_html(html);
        assert_eq!(
            s.base.as_deref(),
            Some("http://www.ics.uci.edu/Test/a/b/c")
        );
        assert_eq!(
            values(&s),
            [
                ("base", "href", "http://www.ics.uci.edu/Test/a/b/c"),
                ("a", "href", "../x")
            ]
        );
        let x = &s.links[1];
        assert_eq!(&html[x.offset..x.offset + 4], "../x");
        assert!(s.text.contains("An example HTML document\n"));
        assert!(s.text.contains("... a hypertext anchor ..."));
        assert!(!s.text.contains("doctype"));
        check_invariants(html, &s);
    }

    #[test]
    fn first_nonempty_base_wins() {
        let s = scan_html(
            "<base target=_top><base href=' '><base href=\"http://a/\">\
             <base href=\"http://b/\">",
        );
        assert_eq!(s.base.as_deref(), Some("http://a/"));
    }

    #[test]
    fn amp_in_href_query() {
        let html = "<a href=\"http://x.example/p?a=1&amp;b=2&copy=3&lt=4\
                    &amp\">t</a>";
        let s = scan_html(html);
        assert_eq!(s.links.len(), 1);
        assert_eq!(
            s.links[0].value,
            "http://x.example/p?a=1&b=2&copy=3&lt=4&"
        );
        assert_eq!(s.links[0].offset, 9);
    }

    #[test]
    fn uppercase_names() {
        let s = scan_html("<A HREF=\"http://a/\">x</A><IMG SRC=http://i/>");
        assert_eq!(
            values(&s),
            [("a", "href", "http://a/"), ("img", "src", "http://i/")]
        );
    }

    #[test]
    fn unquoted_and_single_quoted_values() {
        let html = "<a href=http://u/x?a=1&amp;b=2 title=t>u</a>\
                    <a href='http://s/\"q\"'>s</a><a href = 'http://w/' >w</a>\
                    <a href=\"\">e</a><a href>n</a>";
        let s = scan_html(html);
        assert_eq!(
            values(&s),
            [
                ("a", "href", "http://u/x?a=1&b=2"),
                ("a", "href", "http://s/\"q\""),
                ("a", "href", "http://w/"),
            ]
        );
        for l in &s.links {
            assert!(html[l.offset..].starts_with("http://"));
        }
        assert_eq!(s.text, "uswen");
    }

    #[test]
    fn cite_mid_not_reported() {
        // Thunderbird's quote of a message, and a quotation's source.
        let html = "<blockquote type=\"cite\"\n\
            cite=\"mid:5F38@mail.example\">q</blockquote>\
            <blockquote cite='MID:x@y'>r</blockquote>\
            <q cite=\"http://src.example/\">s</q>\
            <a href=\"mid:z@w\">mid as a link</a>";
        let s = scan_html(html);
        assert_eq!(
            values(&s),
            [("q", "cite", "http://src.example/"), ("a", "href", "mid:z@w")]
        );
    }

    #[test]
    fn img_src_form_action_and_other_attributes() {
        let html = "<body background=\"bg.jpg\"><img src=\"http://i/1.gif\" \
            alt=\"http://not/\" longdesc=d.html usemap=#m>\
            <form action=\"http://f/cgi\" method=post>\
            <input type=image src=s.png formaction=/fa></form>\
            <blockquote cite=http://c/></blockquote>\
            <video poster=p.jpg src=v.mp4></video><object data=o.swf \
            codebase=http://cb/></object><a ping=\"http://p1/ http://p2/\" \
            href=h>h</a><link rel=stylesheet href=s.css>";
        let s = scan_html(html);
        assert_eq!(
            values(&s),
            [
                ("body", "background", "bg.jpg"),
                ("img", "src", "http://i/1.gif"),
                ("img", "longdesc", "d.html"),
                ("img", "usemap", "#m"),
                ("form", "action", "http://f/cgi"),
                ("input", "src", "s.png"),
                ("input", "formaction", "/fa"),
                ("blockquote", "cite", "http://c/"),
                ("video", "poster", "p.jpg"),
                ("video", "src", "v.mp4"),
                ("object", "data", "o.swf"),
                ("object", "codebase", "http://cb/"),
                ("a", "ping", "http://p1/"),
                ("a", "ping", "http://p2/"),
                ("a", "href", "h"),
                ("link", "href", "s.css"),
            ]
        );
        for l in &s.links {
            assert!(html[l.offset..].starts_with(&l.value), "{l:?}");
        }
    }

    #[test]
    fn srcset_candidates() {
        let html = "<img srcset=\"a.png 1x, http://b/b.png 2x,c.png, \
                    data:image/png;base64,AA== 100w, d(1).png,e.png,f.png\">";
        let s = scan_html(html);
        let v: Vec<&str> = s.links.iter().map(|l| l.value.as_str()).collect();
        assert_eq!(
            v,
            [
                "a.png",
                "http://b/b.png",
                "c.png",
                "data:image/png;base64,AA==",
                "d(1).png,e.png,f.png"
            ]
        );
        for l in &s.links {
            assert_eq!(l.attr, "srcset");
            assert!(html[l.offset..].starts_with(&l.value), "{l:?}");
        }
    }

    #[test]
    fn meta_refresh_url() {
        let html = "\
            <meta http-equiv=\"Refresh\" content=\"5; URL='http://r/x'\">\
             <meta http-equiv=refresh content=\"0;url=http://r/y\">\
             <meta name=x content=\"http://not/\">\
             <meta http-equiv=refresh content=\"7\">";
        let s = scan_html(html);
        assert_eq!(
            values(&s),
            [
                ("meta", "content", "http://r/x"),
                ("meta", "content", "http://r/y")
            ]
        );
        for l in &s.links {
            assert!(html[l.offset..].starts_with(&l.value));
        }
    }

    #[test]
    fn value_whitespace_and_newlines_removed() {
        let html = "<a href=\"\n  http://x/a\nb\tc &#10; \n\">x</a>";
        let s = scan_html(html);
        assert_eq!(s.links[0].value, "http://x/abc");
        assert!(html[s.links[0].offset..].starts_with("http://x/a"));
    }

    #[test]
    fn entities_in_text() {
        let html = "<p>caf&eacute; &lt;b&gt; &#233;&#xE9;&#Xe9 &amp &ampx \
                    a&nbsp;b &copy; &bogus; &#; &hellip;</p>";
        let s = scan_html(html);
        assert_eq!(s.text, "café <b> ééé & &x a b © &bogus; &#; …\n");
        check_invariants(html, &s);
        // The decoded `<` maps to its reference.
        let t = s.text.find('<').unwrap();
        assert!(html[s.html_offset(t)..].starts_with("&lt;"));
        let t = s.text.find("&bogus").unwrap();
        assert!(html[s.html_offset(t)..].starts_with("&bogus; &#; &hellip;"));
    }

    #[test]
    fn decode_entities_rules() {
        assert_eq!(decode_entities("a&amp;b&AMP;c&quot;&apos;"), "a&b&c\"'");
        // The common names, with and without their semicolon.
        assert_eq!(
            decode_entities("&nbsp;&lt;&gt;&nbsp&lt&gt&quot&amp"),
            "\u{A0}<>\u{A0}<>\"&"
        );
        assert_eq!(
            decode_entities("&#0;&#xD800;&#1114112;&#99999999999;"),
            "\u{FFFD}".repeat(4)
        );
        assert_eq!(
            decode_entities("&#146;&#x80;&#129;"),
            "\u{2019}\u{20AC}\u{81}"
        );
        assert_eq!(decode_entities("&#65&#x42z"), "ABz");
        assert_eq!(
            decode_entities("&apos &hellip &notit; &not;"),
            "&apos &hellip ¬it; ¬"
        );
        assert_eq!(decode_entities("&copy=1 &Eacute;&eacute;"), "©=1 Éé");
        assert_eq!(decode_entities("&colon;&sol;&sol;"), "://");
        assert_eq!(decode_entities("& &; &# &#x &x;"), "& &; &# &#x &x;");
        assert_eq!(decode_entities("tail&"), "tail&");
        assert_eq!(decode_entities("é&eacute€"), "éé€");
        assert_eq!(
            decode_attr_entities("?a=1&copy=2&copy;&amp;&ampx&amp=&amp."),
            "?a=1&copy=2©&&ampx&amp=&."
        );
        assert_eq!(decode_entities(&"&".repeat(100)), "&".repeat(100));
    }

    #[test]
    fn latin1_table_is_in_code_point_order() {
        assert_eq!(
            decode_entities("&nbsp;&iexcl;&times;&divide;&yuml;"),
            "\u{A0}¡×÷ÿ"
        );
        assert_eq!(
            decode_entities("&AElig;&szlig;&THORN;&frac34;"),
            "Æß Þ¾".replace(' ', "")
        );
    }

    #[test]
    fn script_and_style_are_raw_text() {
        let html = "<p>a</p>\
            <script type=text/javascript src=\"http://js/x.js\">\
            document.write('<a href=\"http://in-script/\">http://s/</a>');\
            if (a</scripts && b</script) {}</SCRIPT >b<style><!--\
            p { background: url(http://css/) } --></style><STYLE/>x</style\t>c\
            <script></script>";
        let s = scan_html(html);
        assert_eq!(values(&s), [("script", "src", "http://js/x.js")]);
        // Not visible: no text, no links from inside.
        assert_eq!(s.text, "a\nbc");
        check_invariants(html, &s);
        let t = s.text.find('c').unwrap();
        assert_eq!(s.html_offset(t), html.find("c<script>").unwrap());
        // Their contents as written, `<!--` included; an empty script
        // gives no range.
        let raw: Vec<&str> =
            s.raw_texts.iter().map(|&(a, b)| &html[a..b]).collect();
        assert_eq!(
            raw,
            [
                "document.write('<a href=\"http://in-script/\">http://s/\
                 </a>');if (a</scripts && b</script) {}",
                "<!--p { background: url(http://css/) } -->",
                "x",
            ]
        );
    }

    #[test]
    fn attribute_values_with_a_colon_are_text() {
        let html = "<html xmlns=\"http://www.w3.org/1999/xhtml\" \
            XMLNS:o=\"urn:schemas-microsoft-com:office:office\" \
            xmlnsx=\"a:b\"><option value=\"http://o.example/?a=1&amp;b=2\">\
            <a title='https://www.ni.com' href=\"http://h.example/\" \
            onclick=\"window.open('http://w.example/')\" target=_blank>\
            <td style=\"background:url(http://s.example/a.gif)\" width=3>\
            <input value=\"&#104;ttp&colon;//e.example/\" alt=\"&amp;\">\
            <blockquote cite=\"mid:x@y\"><q cite=\" http://q.example/\">";
        let s = scan_html(html);
        check_invariants(html, &s);
        assert_eq!(
            attr_texts(&s),
            [
                ("html", "xmlnsx", "a:b"),
                ("option", "value", "http://o.example/?a=1&b=2"),
                ("a", "title", "https://www.ni.com"),
                ("a", "href", "http://h.example/"),
                ("a", "onclick", "window.open('http://w.example/')"),
                ("td", "style", "background:url(http://s.example/a.gif)"),
                ("input", "value", "http://e.example/"),
                ("q", "cite", " http://q.example/"),
            ]
        );
        // Offsets map to the raw value: a decoded reference to its `&`.
        for a in &s.attr_texts {
            let at = a.text.find("http").unwrap_or(0);
            let h = a.html_offset(at);
            if a.attr == "value" && a.element == "input" {
                assert!(html[h..].starts_with("&#104;ttp&colon;//e"));
                let t = a.text.find("//e").unwrap();
                assert!(html[a.html_offset(t)..].starts_with("//e"));
            } else {
                assert!(html[h..].starts_with(&a.text[at..at + 3]), "{a:?}");
            }
        }
    }

    #[test]
    fn comments_skipped() {
        let html = "a<!-- <a href=\"http://hidden/\">http://hidden2/</a> -->b\
            <!-->c<!--->d<!---->e<!-- x --!>f<!doctype html>g<?xml x?>h\
            </ x>i<![if !vml]>j<![endif]>k<!--[if mso]><a href=x>\
            <![endif]-->l</>m";
        let s = scan_html(html);
        assert!(s.links.is_empty(), "{:?}", s.links);
        assert_eq!(s.text, "abcdefghijklm");
        check_invariants(html, &s);
        for (t, c) in s.text.char_indices() {
            assert_eq!(html[s.html_offset(t)..].chars().next(), Some(c));
        }
    }

    #[test]
    fn visible_text_maps_back_exactly() {
        let html = "<html><head><title>T&amp;C</title></head><body>\n\
            <p>See&nbsp;&ldquo;<b>this</b>&rdquo;: http://example.com/x \
            or <a href=\"http://l/\">http://example.com/y</a>.</p></body>";
        let s = scan_html(html);
        let t = s.text.find("http://example.com/x").unwrap();
        let h = s.html_offset(t);
        assert!(html[h..].starts_with("http://example.com/x"));
        let t = s.text.find("http://example.com/y").unwrap();
        assert!(html[s.html_offset(t)..].starts_with("http://example.com/y"));
        assert!(s.text.starts_with("T&C\n"));
        assert!(
            s.text
                .contains("See \u{201C}this\u{201D}: http://example.com/x or")
        );
        check_invariants(html, &s);
    }

    #[test]
    fn block_tags_separate_text() {
        let s = scan_html(
            "<p>one</p><p>two</p>three<br>four<br/>five<div>six</div>\
             <table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>\
             <ul><li>x<li>y</ul><h1>h</h1>in<b>line</b><span>s</span>",
        );
        assert_eq!(
            s.text,
            "one\ntwo\nthree\nfour\nfive\nsix\na b \nc \nx\ny\nh\ninlines"
        );
    }

    #[test]
    fn title_and_textarea_are_rcdata() {
        let s = scan_html(
            "<title>a &amp; <b>b</b></title><textarea><a href=x>\
             </textarea><xmp>&amp;<i></xmp>",
        );
        assert!(s.links.is_empty());
        assert_eq!(s.text, "a & <b>b</b>\n<a href=x>\n&amp;<i>\n");
    }

    #[test]
    fn plaintext_runs_to_end() {
        let s = scan_html("x<plaintext><a href=y>&amp;</plaintext>");
        assert!(s.links.is_empty());
        assert_eq!(s.text, "x\n<a href=y>&amp;</plaintext>");
    }

    #[test]
    fn unclosed_tag_at_eof() {
        let html = "text <a href=\"http://x/y";
        let s = scan_html(html);
        assert_eq!(values(&s), [("a", "href", "http://x/y")]);
        assert_eq!(s.text, "text ");
        let s = scan_html("<a href=http://z/");
        assert_eq!(values(&s), [("a", "href", "http://z/")]);
        let s = scan_html("<a href=");
        assert!(s.links.is_empty());
        assert_eq!(s.text, "");
        let s = scan_html("a<b");
        assert_eq!(s.text, "a");
    }

    #[test]
    fn stray_lt_is_text() {
        let html = "a < b <3 <> <= <<p>x</p> <é <\t<";
        let s = scan_html(html);
        assert_eq!(s.text, "a < b <3 <> <= <\nx\n <é <\t<");
        check_invariants(html, &s);
    }

    #[test]
    fn unclosed_comment_hides_rest() {
        let s = scan_html("x<!-- http://y/ <a href=http://z/>");
        assert!(s.links.is_empty());
        assert_eq!(s.text, "x");
        let s = scan_html("x<!doctype http://y/ <a href=http://z/");
        assert!(s.links.is_empty());
        assert_eq!(s.text, "x");
        // `</` and a non-letter starts a bogus comment.
        let s = scan_html("x</ http://y/ <a href=http://z/");
        assert!(s.links.is_empty());
        assert_eq!(s.text, "x");
        // The contents of an unclosed script run to the end: no link,
        // no text, one raw text.
        let html = "x<script>http://y/ <a href=http://z/>";
        let s = scan_html(html);
        assert!(s.links.is_empty());
        assert_eq!(s.text, "x");
        assert_eq!(s.raw_texts, [(9, html.len())]);
    }

    #[test]
    fn missing_closing_quote_recovers() {
        let html =
            "<a href=\"http://x/>Click</a> here <a href=\"http://y/\">y</a>";
        let s = scan_html(html);
        assert_eq!(
            values(&s),
            [("a", "href", "http://x/"), ("a", "href", "http://y/")]
        );
        assert_eq!(s.text, "Click here y");
        // A `>` inside a properly quoted value is kept.
        let s = scan_html("<a title=\"a > b\" href='http://q/?a>b'>q</a>");
        assert_eq!(values(&s), [("a", "href", "http://q/?a>b")]);
        assert_eq!(s.text, "q");
        // No closing quote at all: the value ends at the next `>`.
        let s = scan_html("<a href='http://n/>n</a> it's");
        assert_eq!(values(&s), [("a", "href", "http://n/")]);
        assert_eq!(s.text, "n it's");
        // A stray quote after a value is an attribute name, harmless.
        let s = scan_html("<a href=\"http://d/\"\" x>d</a> \"z\"");
        assert_eq!(values(&s), [("a", "href", "http://d/")]);
        assert_eq!(s.text, "d \"z\"");
        // A URL after an empty value is attribute names (HTML
        // 13.2.5.32-33, each `/` ends one): neither a value nor text.
        let s = scan_html("<body background=\"\"http://h/b.gif\" x=1>b");
        assert!(values(&s).is_empty());
        let attrs: Vec<_> = s.attr_texts.iter().map(|a| &a.text).collect();
        assert!(attrs.iter().all(|t| !t.contains("http")), "{attrs:?}");
        assert_eq!(s.text, "b");
    }

    #[test]
    fn odd_attribute_syntax() {
        let s = scan_html(
            "<a/href=/s1><a =href=x href\n=\n\"/s2\"><img\nsrc=/s3\n/>",
        );
        assert_eq!(
            values(&s),
            [
                ("a", "href", "/s1"),
                ("a", "href", "/s2"),
                ("img", "src", "/s3")
            ]
        );
        let s = scan_html("</a href=\"http://end/\">x");
        assert!(s.links.is_empty());
        assert_eq!(s.text, "x");
    }

    /// Scan `html` (about 1 MiB) and fail when it takes more than 8 s:
    /// linear work takes well under a second in a debug build, even on a
    /// loaded machine, while quadratic work on 1 MiB takes minutes.
    fn time(label: &str, html: &str) -> Duration {
        let t = Instant::now();
        let s = scan_html(html);
        let d = t.elapsed();
        check_invariants(html, &s);
        eprintln!("{label}: {} bytes in {d:?}", html.len());
        assert!(d < Duration::from_secs(8), "{label}: {d:?}");
        d
    }

    const MB: usize = 1 << 20;

    #[test]
    fn pathological_inputs_are_fast() {
        time("lt", &"<".repeat(MB));
        time("dquote", &"\"".repeat(MB));
        time("a href", &"<a href=\"".repeat(MB / 9));
        time(
            "a href no quote end",
            &format!("{}x", "<a href='x>".repeat(MB / 11)),
        );
        time("alternating quotes", &"<a x=\"><b y='>".repeat(MB / 14));
        time("lt a", &"<a ".repeat(MB / 3));
        time("comments", &"<!--".repeat(MB / 4));
        time("comment gt", &format!("<!--{}", "->".repeat(MB / 2)));
        time("bang", &"<!".repeat(MB / 2));
        time("amp", &"&".repeat(MB));
        time("amp names", &"&ampamp&#x".repeat(MB / 10));
        time("long ref", &format!("&#{}", "9".repeat(MB)));
        time("script", &"<script>".repeat(MB / 8));
        time("script close", &format!("<script>{}", "</scrip".repeat(MB / 7)));
        time("srcset", &format!("<img srcset=\"{}\">", ",".repeat(MB)));
        time(
            "srcset parens",
            &format!("<img srcset=\"a {}\">", "(".repeat(MB)),
        );
        time("ping", &format!("<a ping=\"{}\">", " ".repeat(MB)));
        time("attrs", &format!("<a {}>", "b ".repeat(MB / 2)));
        time("colon attrs", &format!("<a {}>", "b=: ".repeat(MB / 4)));
        time("colon value", &format!("<a b=\"{}\">", "&:".repeat(MB / 2)));
        time("style", &format!("<style>{}", "url(a:".repeat(MB / 6)));
        time("eq", &format!("<a {}>", "=".repeat(MB)));
        time("utf8", &format!("<a {}", "é<€<".repeat(MB / 6)));
        time(
            "refresh",
            &format!(
                "<meta http-equiv=refresh content=\"{}\">",
                "1".repeat(MB)
            ),
        );
    }

    /// Deterministic pseudo-random documents from a hostile alphabet must
    /// not panic and must keep the invariants.
    #[test]
    fn random_garbage_keeps_invariants() {
        const PIECES: &[&str] = &[
            "<",
            ">",
            "\"",
            "'",
            "=",
            "&",
            ";",
            "#",
            "x",
            "/",
            "!",
            "-",
            "?",
            " ",
            "\n",
            "a",
            "p",
            "href",
            "src",
            "base",
            "script",
            "style",
            "title",
            "<!--",
            "-->",
            "&amp;",
            "&#",
            "é",
            "€",
            "http://h/",
            "srcset",
            "meta",
            "http-equiv",
            "refresh",
            "content",
            ",",
            "(",
            "td",
            "br",
            "url",
            "9",
            "\u{0}",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..3000 {
            let mut html = String::new();
            for _ in 0..(round % 97) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                html.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
            }
            let s = scan_html(&html);
            check_invariants(&html, &s);
            let _ = decode_entities(&html);
            let _ = s.html_offset(usize::MAX);
        }
    }

    fn corpus(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }

    #[test]
    fn corpus_spamassassin_base_and_form() {
        let html = corpus(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/html/spam-00286-base-form.html"
        )));
        let s = scan_html(&html);
        check_invariants(&html, &s);
        assert_eq!(s.base.as_deref(), Some("http://62.232.161.231/freeinfo/"));
        let v = values(&s);
        assert!(v.contains(&(
            "td",
            "background",
            "http://62.232.161.231/freeinfo/images/leftside.jpg"
        )));
        assert!(v.contains(&(
            "form",
            "action",
            "http://62.232.161.231/freeinfo/cgi-bin/manager.pl"
        )));
        assert!(v.contains(&(
            "img",
            "src",
            "http://62.232.161.231/freeinfo/images/rightsidestuff.jpg"
        )));
        assert!(s.text.contains("stay ahead & succeed"));
        assert!(s.text.contains("Free Info!\n"));
        assert!(!s.text.contains("<"), "{}", s.text);
        for l in &s.links {
            assert!(html[l.offset..].starts_with(&l.value), "{l:?}");
        }
    }

    #[test]
    fn corpus_spamassassin_word_html() {
        let html = corpus(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/html/spam-00134-word-comments.html"
        )));
        let s = scan_html(&html);
        check_invariants(&html, &s);
        assert_eq!(
            values(&s),
            [
                ("link", "href", "./Illinois%20flyer_files/filelist.xml"),
                ("a", "href", "http://www.radisson-chicago.com/")
            ]
        );
        assert!(!s.text.contains("DocumentProperties"));
        assert!(!s.text.contains("donald bae"));
        assert!(!s.text.contains("mso-"));
        assert!(s.text.contains("www.radisson-chicago.com"));
        assert!(s.text.trim_start().starts_with("THE CONVIENENCE OF\n"));
    }

    #[test]
    fn corpus_spamassassin_entities() {
        let html = corpus(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/html/spam-00259-entities.html"
        )));
        let s = scan_html(&html);
        check_invariants(&html, &s);
        assert_eq!(
            values(&s),
            [
                ("a", "href", "mailto:exhibitionsindia@vsnl.com"),
                ("a", "href", "http://www.exhibitionsindia.org"),
                ("a", "href", "http://www.exhibitionsindia.org"),
            ]
        );
        assert!(!s.text.contains("&nbsp;"));
        assert!(s.text.contains("www.exhibitionsindia.o"));
        for (t, _) in s.text.match_indices("www.") {
            assert!(html[s.html_offset(t)..].starts_with("www."));
        }
    }

    #[test]
    fn corpus_html_large_call_stack() {
        let html = corpus(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/html/htmllargecallstack.html"
        )));
        let d = time("htmllargecallstack", &html);
        let s = scan_html(&html);
        assert!(s.links.is_empty());
        assert!(s.text.contains("||Alerts||"));
        assert!(d < Duration::from_millis(500));
        check_urls_map_back(&html, &s);
    }

    #[test]
    fn corpus_urls_in_text_map_back() {
        let mut n = 0;
        for html in [
            corpus(include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/html/spam-00286-base-form.html"
            ))),
            corpus(include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/html/spam-00134-word-comments.html"
            ))),
        ] {
            let s = scan_html(&html);
            n += check_urls_map_back(&html, &s);
        }
        let html = "<p>a&amp;b http://q/ &lt;http://r/&gt;</p>";
        n += check_urls_map_back(html, &scan_html(html));
        assert!(n >= 2);
    }
}

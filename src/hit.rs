//! The vocabulary shared by every stage: the [`Context`] a URL was found
//! in, the delimited [`Candidate`] (scan + delimit output, offsets into a
//! buffer) and the public, owned [`Hit`] (validated, resolved, positioned
//! in its input).

use std::fmt;
use std::sync::Arc;

use crate::data::registry;
use crate::validate::schemes::{self, Finding, Severity};
use crate::validate::{Uri, lint};

/// What an abbreviated URI ([`crate::abbrev::Abbrev`]) was recognized as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbbrevKind {
    /// `www.` host: completed with `http://`.
    Www,
    /// `ftp.` host: completed with `ftp://`.
    Ftp,
    /// An e-mail address: completed with `mailto:`.
    Email,
    /// Any other domain name (rules 10 to 14): completed with `http://`.
    Domain,
}

/// How an encoded URL was written ([`crate::encoded`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// The whole URL percent-encoded (`http%3A%2F%2F...`).
    Percent,
    /// In base64 (RFC 4648, either alphabet).
    Base64,
    /// In hexadecimal, two digits a byte.
    Hex,
}

impl Encoding {
    /// The name used in JSON and warnings: `percent`, `base64`, `hex`.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Percent => "percent",
            Encoding::Base64 => "base64",
            Encoding::Hex => "hex",
        }
    }
}

/// How the text around a URL delimited it (Appendix E of the drafts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Context {
    /// Plain text: the URL ends at whitespace or a character that cannot
    /// be in a URI, and trailing punctuation is dropped.
    Bare,
    /// Inside `<...>`: whitespace (line breaks) inside is removed and the
    /// URL ends at `>`.
    Angle,
    /// After the `URL:` prefix, bare (`URL:http://x`) or bracketed
    /// (`<URL:http://x>`, which is delimited like [`Context::Angle`]).
    UrlPrefix,
    /// Inside double, single or typographic quotes.
    Quote,
    /// Inside `(...)`, `[...]` or `{...}`.
    Bracket,
    /// The target of a Markdown link, `[text](url)`.
    Markdown,
    /// The value of an HTML `href=` or `src=` attribute.
    Href,
}

impl Context {
    /// The name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Context::Bare => "bare",
            Context::Angle => "angle",
            Context::UrlPrefix => "url-prefix",
            Context::Quote => "quote",
            Context::Bracket => "bracket",
            Context::Markdown => "markdown",
            Context::Href => "href",
        }
    }
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A delimited URL candidate: what scan + delimit produce for one trigger.
///
/// All offsets index the buffer that was searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Offset of the `:` that triggered the candidate. Two candidates
    /// with the same trigger are the same candidate.
    pub trigger: usize,
    /// First byte of the URL text (after any wrapper or `URL:` prefix).
    pub start: usize,
    /// One past the last byte of the URL text (before a closing wrapper).
    pub end: usize,
    /// Where scanning resumes: past the closing wrapper, if any. No
    /// trigger before this offset can start another candidate.
    pub resume: usize,
    /// The wrapping context.
    pub context: Context,
    /// The URL with inserted whitespace removed and byte escapes
    /// (`\xHH`, [`crate::delimit`] rule 5) percent-encoded; `None` when
    /// it is the raw bytes `start..end` unchanged.
    pub cleaned: Option<String>,
    /// For a joined line break after a `-`: the URL without that hyphen.
    pub alternative: Option<String>,
    /// For an abbreviated URI or e-mail address (no scheme written), what
    /// it was read as and the absolute URI it stands for.
    pub abbrev: Option<(AbbrevKind, String)>,
    /// The candidate is longer than the configured maximum: it shadows
    /// its extent (so no hit starts inside it) but is never reported;
    /// its `resume` is `delimit::after_run` from its `end`.
    pub too_long: bool,
    /// A URL written encoded ([`crate::encoded`]): `cleaned` holds it
    /// decoded. Such a candidate neither shadows nor is shadowed.
    pub encoded: Option<Encoding>,
    /// What validation's fast path ([`crate::validate::quick_check`])
    /// says of the text `start..end`, when delimiting learned it (its
    /// walk of the most common shape of URL); `Unknown` otherwise.
    pub quick: crate::validate::Known,
}

impl Candidate {
    /// The URL text.
    #[inline(always)]
    pub fn text<'h>(&'h self, hay: &'h [u8]) -> &'h str {
        match self.cleaned {
            Some(ref s) => s,
            // delimit only accepts valid UTF-8 into a candidate; most
            // URLs are ASCII, told by a cheaper test.
            None => {
                let bytes = &hay[self.start..self.end];
                crate::sieve::ascii_str(bytes)
                    .or_else(|| std::str::from_utf8(bytes).ok())
                    .unwrap_or_default()
            }
        }
    }
}

/// One URL found in an input, with everything later stages learned
/// about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub(crate) url: UrlText,
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) line: u64,
    pub(crate) column: u64,
    pub(crate) context: Context,
    /// The resolved form is `url` itself (no dot segments to remove).
    pub(crate) resolved_is_url: bool,
    /// The URL and its resolved form are printable ASCII (validation's
    /// fast path only accepts such text), so printing needs no escaping.
    pub(crate) printable: bool,
    /// What most hits do not have; boxed to keep `Hit` small, since hits
    /// are moved through the pipeline by the million.
    pub(crate) extras: Option<Box<Extras>>,
    /// Where in a mail message or news article the hit was found: shared
    /// by the hits of one piece of a message (one allocation per piece).
    /// Not in [`Extras`]: every hit in mail has one, and a box per hit
    /// would more than double what a message's hits hold.
    pub(crate) provenance: Option<std::sync::Arc<Provenance>>,
}

/// The parts of a [`Hit`] that only some hits have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Extras {
    /// The URL without the hyphen at a joined line break.
    pub alternative: Option<String>,
    /// Why the hit is not valid.
    pub errors: Vec<HitError>,
    /// The resolved form when it differs from `url`.
    pub resolved: Option<String>,
    /// The URL with the characters RFC 3986 does not allow in its path,
    /// query and fragment percent-encoded, when that makes it valid.
    pub repaired: Option<String>,
    /// An abbreviated URI or e-mail address: what it was read as.
    pub abbrev: Option<AbbrevKind>,
    /// A defanged URL, read as its refanged form.
    pub refanged: bool,
    /// A URL written encoded, read decoded.
    pub encoded: Option<Encoding>,
}

/// One reason a [`Hit`] is not valid ([`Hit::errors`]). Kept as found
/// and put into words only when shown (its `Display`): most invalid hits
/// are dropped unread.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HitError {
    /// The URI breaks the generic syntax (RFC 3986).
    Syntax(crate::validate::UriError),
    /// The URI is a scheme and `://` with nothing after them (a scheme
    /// named in prose, "addresses starting with http://").
    NothingAfterScheme,
    /// The URI breaks a rule of its scheme's own specification (RFC 1738,
    /// RFC 6068, ...): the rule's code (as in a [`Finding`]) and what it
    /// says.
    #[non_exhaustive]
    Scheme {
        /// The rule's stable kebab-case identifier, e.g. `"ftp-type"`.
        code: &'static str,
        /// What the URI breaks, naming the specification.
        message: String,
    },
    /// A relative reference with no base URI to resolve it against.
    NoBase,
    /// A relative reference whose base URI cannot be used (RFC 3986 5.2).
    Resolve(crate::resolve::ResolveError),
}

impl fmt::Display for HitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HitError::Syntax(e) => e.fmt(f),
            HitError::NothingAfterScheme => {
                f.write_str("nothing after the scheme and `//`")
            }
            HitError::Scheme { code, message } => {
                write!(f, "{code}: {message}")
            }
            HitError::NoBase => {
                f.write_str("relative reference and no base URI")
            }
            HitError::Resolve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for HitError {}

/// Where in a mail message or news article a hit was found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// 1-based number of the message in its file (an mbox holds many).
    pub message: u64,
    /// The message's Message-ID, without its angle brackets.
    pub message_id: Option<String>,
    /// The MIME part path: empty for the message's own headers and the
    /// body of a single-part message, `1`, `2.1`, ... in a multipart.
    pub part: String,
    /// The header field the hit was found in, as written.
    pub header: Option<String>,
    /// The HTML element and attribute the hit was found in, lower case,
    /// as `a href` or `option value` ([`Source::HtmlAttr`] hits).
    pub attribute: Option<String>,
    /// For an `a href` hit: the anchor's visible text, whitespace
    /// collapsed, at most 256 bytes (what a reader sees and clicks);
    /// `None` when [`ExtractorBuilder::anchor_texts`] is off.
    ///
    /// [`ExtractorBuilder::anchor_texts`]: crate::ExtractorBuilder::anchor_texts
    pub anchor_text: Option<String>,
    /// What kind of text the hit was found in.
    pub source: Source,
    /// The transfer encoding undone to find the hit.
    pub decoded: Decoded,
    /// Problems met decoding the message (best effort was made).
    pub warnings: Vec<String>,
    /// For a record of a web archive (WARC, WET, WAT): which record.
    pub record: Option<Arc<Record>>,
}

/// A record of a web archive (WARC 1.1, ISO 28500): where it starts and
/// what its header says it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Offset in the input of the record's first byte (its `WARC/`
    /// version line); in a compressed file, in the decompressed bytes.
    pub offset: u64,
    /// `WARC-Record-ID`, without its angle brackets.
    pub id: Option<String>,
    /// `WARC-Type`: `response`, `request`, `resource`, `metadata`,
    /// `conversion`, `revisit`, `warcinfo`, ...
    pub kind: Option<String>,
    /// `WARC-Target-URI`: the URI the record is about, and the base of
    /// the relative references in it.
    pub target: Option<String>,
    /// The record's `Content-Type` (`application/http; msgtype=response`
    /// for an HTTP response, the document's type for a resource).
    pub content_type: Option<String>,
}

/// The kind of text a hit in a message was found in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// A header field.
    Header,
    /// A plain-text body part.
    #[default]
    Text,
    /// An attribute value of a `text/html` part: the value of a URL
    /// attribute (`href`, `src`, ...), or a URL with a scheme in any
    /// other attribute's value (`option value`, `onclick`, `title`).
    /// [`Provenance::attribute`] names it.
    HtmlAttr,
    /// The text of a `text/html` part: what it shows, and the contents
    /// of its `<script>` and `<style>` elements.
    HtmlText,
}

impl Source {
    /// The name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Header => "header",
            Source::Text => "text",
            Source::HtmlAttr => "html-attr",
            Source::HtmlText => "html-text",
        }
    }
}

/// A content transfer encoding undone before scanning: none (7bit,
/// 8bit, binary; a header field without RFC 2047 encoded word),
/// quoted-printable (a `Q` encoded word), base64 (a `B` one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Decoded {
    /// The text was scanned as it is in the input.
    #[default]
    None,
    /// Quoted-printable (RFC 2045 6.7); positions point into the input.
    QuotedPrintable,
    /// Base64 (RFC 2045 6.8); positions point at the part's first body
    /// line.
    Base64,
    /// HTTP chunked transfer coding (RFC 9112 7.1) removed; positions
    /// point into the input.
    Chunked,
    /// An HTTP content coding (`gzip`, `deflate`, `zstd`; RFC 9110
    /// 8.4.1) undone, with any chunked coding; positions point at the
    /// body's first byte.
    Compressed,
    /// Read out of TNEF (`winmail.dat`, [MS-OXTNEF]): a body (plain,
    /// HTML, or RTF read as text or as the HTML it holds) or an attached
    /// file; positions point at the part's first body line.
    Tnef,
    /// Read out of an Outlook `.msg` file ([MS-OXMSG]): its header's
    /// fields, a body or an attached file; positions point at the part's
    /// first body line (0 for a `.msg` file).
    Outlook,
}

impl Decoded {
    /// The name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Decoded::None => "none",
            Decoded::QuotedPrintable => "quoted-printable",
            Decoded::Base64 => "base64",
            Decoded::Chunked => "chunked",
            Decoded::Compressed => "compressed",
            Decoded::Tnef => "tnef",
            Decoded::Outlook => "msg",
        }
    }
}

impl Hit {
    /// A hit of plain text with an empty URL pending, at offset 0: what
    /// the merge writes each hit of a chunk over.
    pub(crate) fn of_text() -> Hit {
        Hit {
            url: UrlText::pending(0, 0),
            start: 0,
            end: 0,
            line: 0,
            column: 0,
            context: Context::Bare,
            resolved_is_url: false,
            printable: false,
            extras: None,
            provenance: None,
        }
    }

    /// The URL as written, with its wrapper and any whitespace inserted
    /// to break it across lines removed.
    pub fn url(&self) -> &str {
        self.url.as_str()
    }

    /// The URL parsed into its RFC 3986 components.
    pub fn uri(&self) -> Uri<'_> {
        Uri::parse(self.url.as_str())
    }

    /// Byte offset, in the input, of the URL's first byte.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// Byte offset, in the input, one past the URL's last byte (before a
    /// closing wrapper). With whitespace removed, `end - start` is larger
    /// than the URL's length.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// 1-based line of the URL's first byte, or 0 when line numbers were
    /// not requested from the extractor.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// 1-based byte column of the URL's first byte in its line, or 0 when
    /// line numbers were not requested.
    pub fn column(&self) -> u64 {
        self.column
    }

    /// The context that delimited the URL.
    pub fn context(&self) -> Context {
        self.context
    }

    /// For a URL written without its scheme (found with
    /// [`ExtractorBuilder::abbreviated`](crate::ExtractorBuilder::abbreviated)
    /// [`domains`](crate::ExtractorBuilder::domains) or
    /// [`emails`](crate::ExtractorBuilder::emails)): `"www"`, `"ftp"`,
    /// `"domain"` or `"email"`. [`Hit::resolved`] is then the absolute
    /// URI.
    pub fn abbreviated(&self) -> Option<&'static str> {
        Some(match self.extras.as_ref()?.abbrev? {
            AbbrevKind::Www => "www",
            AbbrevKind::Ftp => "ftp",
            AbbrevKind::Email => "email",
            AbbrevKind::Domain => "domain",
        })
    }

    /// Whether the URL was written defanged (`hxxp://example[.]com`) and
    /// read as [`Hit::resolved`] (with
    /// [`ExtractorBuilder::refang`](crate::ExtractorBuilder::refang)).
    pub fn refanged(&self) -> bool {
        self.extras.as_ref().is_some_and(|r| r.refanged)
    }

    /// For a URL written encoded (found with
    /// [`ExtractorBuilder::encoded`](crate::ExtractorBuilder::encoded)):
    /// `"percent"`, `"base64"` or `"hex"`. [`Hit::url`] is the decoded
    /// URL; [`Hit::start`] and [`Hit::end`] are those of the encoded
    /// text.
    pub fn encoded(&self) -> Option<&'static str> {
        Some(self.extras.as_ref()?.encoded?.as_str())
    }

    /// For a redirector link (Google `/url?q=`, Outlook safelinks,
    /// Proofpoint urldefense, Barracuda), the target it leads to, after
    /// up to four levels ([`crate::unwrap`]); computed when asked for.
    pub fn unwrapped(&self) -> Option<String> {
        crate::unwrap::unwrap(self.resolved().unwrap_or(self.url()))
    }

    /// Warnings about a usable hit ([`Hit::usable`]), computed when
    /// asked for: `percent-encoded` for a repaired one ([`Hit::repaired`]),
    /// the advice of its scheme's rules ([`schemes::check`]), the security
    /// lint of url-syntax draft section 7 and RFC 3986 section 7
    /// ([`lint::lint`]), and a scheme missing from the bundled IANA
    /// registry (`unregistered-scheme`). A relative reference is checked
    /// in its resolved form. Empty for other invalid hits: their errors
    /// say more.
    pub fn warnings(&self) -> Vec<Finding> {
        match self.warnings_target() {
            Some(target) => self.warnings_of(&Uri::parse(target)),
            None => Vec::new(),
        }
    }

    /// The text [`Hit::warnings`] are about: the resolved form of a
    /// usable hit, or the usable form; `None` for another invalid hit.
    pub(crate) fn warnings_target(&self) -> Option<&str> {
        let usable = self.usable()?;
        Some(self.resolved().unwrap_or(usable))
    }

    /// [`Hit::warnings`], given the parse of [`Hit::warnings_target`].
    pub(crate) fn warnings_of(&self, uri: &Uri) -> Vec<Finding> {
        let Some(usable) = self.usable() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if self.repaired().is_some() {
            let encoded: String = self
                .url()
                .chars()
                .filter(|&c| !usable.contains(c))
                .fold(String::new(), |mut s, c| {
                    if !s.contains(c) {
                        s.push(c);
                    }
                    s
                });
            out.push(Finding::warning(
                "percent-encoded",
                format!(
                    "characters RFC 3986 does not allow here were \
                     percent-encoded as browsers do (RFC 3986 2.1): {:?}",
                    encoded
                ),
            ));
        }
        out.extend(
            schemes::check(uri)
                .into_iter()
                .filter(|f| f.severity == Severity::Warning),
        );
        out.extend(lint::lint(uri));
        if let Some(kind) = self.encoded() {
            let how = match kind {
                "percent" => "percent-encoded as a whole",
                "base64" => "in base64",
                _ => "in hex",
            };
            out.push(Finding::warning(
                "encoded-url",
                format!("the URL is written {how} in the input"),
            ));
        }
        if let Some(text) =
            self.provenance().and_then(|p| p.anchor_text.as_deref())
        {
            out.extend(crate::deceptive::check(text, uri));
        }
        if let Some(scheme) = uri.scheme()
            && !registry::is_registered(scheme)
        {
            out.push(Finding::warning(
                "unregistered-scheme",
                format!(
                    "'{scheme}' is not in the IANA URI scheme registry of {}",
                    registry::REGISTRY_DATE
                ),
            ));
        }
        out
    }

    /// Whether a line break directly after a hyphen was joined. The
    /// hyphen is kept in [`Hit::url`]; see [`Hit::alternative`].
    pub fn hyphen_break(&self) -> bool {
        self.alternative().is_some()
    }

    /// For a hyphen break, the URL without the hyphen(s) at the break,
    /// since Appendix E says the hyphen may or may not belong to the URL.
    pub fn alternative(&self) -> Option<&str> {
        self.extras.as_ref()?.alternative.as_deref()
    }

    /// Whether the URL is a valid absolute URI (or a relative reference
    /// that resolved against a base).
    pub fn is_valid(&self) -> bool {
        self.errors().is_empty()
    }

    /// For a URL that is not valid only because its path, query or
    /// fragment holds characters RFC 3986 does not allow there (a space
    /// in an HTML attribute, `|` in a query, `[` in a path), the URL with
    /// those characters percent-encoded, as browsers send it (RFC 3986
    /// 2.1, RFC 3987 3.1); [`Hit::is_valid`] stays false and
    /// [`Hit::errors`] says what was wrong. `None` otherwise.
    pub fn repaired(&self) -> Option<&str> {
        self.extras.as_ref()?.repaired.as_deref()
    }

    /// The URL in a form that can be used: as written when valid, its
    /// [`Hit::repaired`] form otherwise; `None` for a hit that is
    /// neither (what the command-line tool prints only with
    /// `--invalid`).
    pub fn usable(&self) -> Option<&str> {
        if self.is_valid() { Some(self.url()) } else { self.repaired() }
    }

    /// The URL as the command-line tool prints it: [`Hit::usable`],
    /// but a relative reference resolved (against the HTML
    /// `<base href>`, `Content-Base` or the base given), so that a
    /// program reading the output can fetch it. Abbreviated and
    /// defanged forms stay as written ([`Hit::resolved`] is their
    /// absolute form). `None` when there is no usable form.
    pub fn absolute(&self) -> Option<&str> {
        if self.printable && self.extras.is_none() {
            // Validation's fast path: an absolute URI as written.
            return Some(self.url());
        }
        let stand_in = self.abbreviated().is_some() || self.refanged();
        if stand_in || has_scheme(self.url()) {
            self.usable()
        } else {
            self.usable().and(self.resolved())
        }
    }

    /// Why the hit is not valid; empty when it is. `to_string` gives
    /// an error's text (as JSON output shows it).
    pub fn errors(&self) -> &[HitError] {
        self.extras.as_ref().map_or(&[], |r| &r.errors)
    }

    /// Where in a mail message the hit was found (mail and news input).
    pub fn provenance(&self) -> Option<&Provenance> {
        self.provenance.as_deref()
    }

    /// The resolved absolute form (RFC 3986 section 5): dot segments
    /// removed, or the relative reference resolved against the base.
    /// `None` when it could not be resolved.
    pub fn resolved(&self) -> Option<&str> {
        if self.resolved_is_url {
            return Some(self.url.as_str());
        }
        self.extras.as_ref()?.resolved.as_deref()
    }
}

/// Whether `url` starts with a scheme and its `:` (RFC 3986 3.1: a
/// letter, then letters, digits, `+`, `-`, `.`), as an absolute URI does
/// and a relative reference does not (4.2).
fn has_scheme(url: &str) -> bool {
    let b = url.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphabetic)
        && b.iter()
            .skip(1)
            .find(|&&c| !(c.is_ascii_alphanumeric() || b"+-.".contains(&c)))
            == Some(&b':')
}

/// The text of a hit's URL: a range of a buffer that the hits found in
/// one chunk share, so that a chunk's hits cost one allocation, not one
/// each.
#[derive(Clone)]
pub(crate) struct UrlText {
    /// `None` while pending: no shared placeholder, whose count every
    /// thread would update for every candidate.
    buf: Option<Arc<String>>,
    start: u32,
    len: u32,
}

impl UrlText {
    /// A URL with a buffer of its own.
    #[cfg(test)]
    pub fn new(s: &str) -> UrlText {
        UrlText {
            buf: Some(Arc::new(s.to_owned())),
            start: 0,
            len: s.len() as u32,
        }
    }

    /// Bytes `start..start + len` of a buffer given later with
    /// [`UrlText::attach`] or lent with [`UrlText::lend`].
    pub fn pending(start: usize, len: usize) -> UrlText {
        UrlText { buf: None, start: start as u32, len: len as u32 }
    }

    /// Give a pending URL its buffer.
    pub fn attach(&mut self, buf: &Arc<String>) {
        self.buf = Some(buf.clone());
    }

    /// Whether the URL waits for its buffer.
    pub fn is_pending(&self) -> bool {
        self.buf.is_none()
    }

    /// Lend a pending URL the buffer in `buf` (moved, not counted), to be
    /// taken back with [`UrlText::give_back`].
    pub fn lend(&mut self, buf: &mut Option<Arc<String>>) {
        self.buf = buf.take();
    }

    /// Take back the buffer lent by [`UrlText::lend`].
    pub fn give_back(&mut self, buf: &mut Option<Arc<String>>) {
        *buf = self.buf.take();
    }

    /// The URL (empty while pending).
    pub fn as_str(&self) -> &str {
        let (s, e) = (self.start as usize, (self.start + self.len) as usize);
        self.buf.as_deref().and_then(|b| b.get(s..e)).unwrap_or_default()
    }

    /// The URL's bytes, for a writer: those of [`UrlText::as_str`] (its
    /// range is always a whole URL pushed to the buffer, so it starts and
    /// ends on character boundaries), without testing them.
    pub fn as_bytes(&self) -> &[u8] {
        let (s, e) = (self.start as usize, (self.start + self.len) as usize);
        let bytes = self.buf.as_deref().map(String::as_bytes);
        bytes.and_then(|b| b.get(s..e)).unwrap_or_default()
    }
}

impl PartialEq for UrlText {
    fn eq(&self, other: &UrlText) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for UrlText {}

impl fmt::Debug for UrlText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(start: usize, end: usize) -> Candidate {
        Candidate {
            trigger: start,
            start,
            end,
            resume: end,
            context: Context::Bare,
            cleaned: None,
            alternative: None,
            abbrev: None,
            too_long: false,
            encoded: None,
            quick: crate::validate::Known::Unknown,
        }
    }

    /// A candidate's text is its bytes checked as UTF-8 (the ASCII test
    /// first): on haystacks with bytes that are not UTF-8 and with
    /// characters cut at a range's ends, at random lengths up to 140.
    #[test]
    fn text_agrees_with_the_utf8_check() {
        let mut next = crate::testing::xorshift(0x1234_5678_9abc_def1);
        let units: [&[u8]; 6] =
            [b"http://a/", b"x", b"\xc3\xa9", b"\xe2\x82", b"\xff", b" "];
        for round in 0..300 {
            let mut hay = Vec::new();
            while hay.len() < 400 {
                // Mostly ASCII; some rounds with a byte of another kind.
                let k = if round % 3 == 0 { next() % 6 } else { next() % 2 };
                hay.extend_from_slice(units[k as usize]);
            }
            for _ in 0..100 {
                let start = (next() % 200) as usize;
                let end = start + (next() % 140) as usize;
                let c = candidate(start, end);
                let want = std::str::from_utf8(&hay[start..end]);
                assert_eq!(c.text(&hay), want.unwrap_or_default());
            }
        }
    }

    /// A URL's bytes are those of its text, for URLs of random lengths
    /// and characters pushed one after another into a shared buffer, as
    /// the scan pushes a chunk's URLs; and empty while pending.
    #[test]
    fn url_bytes_agree_with_its_text() {
        let mut next = crate::testing::xorshift(0x0bad_cafe_f00d_d00d);
        let units = ["a", "/", "\u{e9}", "\u{20ac}", "\u{1f600}", "%41"];
        let mut buf = String::new();
        let mut urls = Vec::new();
        for _ in 0..2000 {
            let at = buf.len();
            for _ in 0..next() % 12 {
                buf.push_str(units[(next() % 6) as usize]);
            }
            urls.push(UrlText::pending(at, buf.len() - at));
        }
        let mut shared = Some(Arc::new(buf));
        for mut url in urls {
            assert!(url.as_bytes().is_empty() && url.as_str().is_empty());
            url.lend(&mut shared);
            assert_eq!(url.as_bytes(), url.as_str().as_bytes());
            url.give_back(&mut shared);
        }
    }
}

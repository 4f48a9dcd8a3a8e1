//! Printers: the [`Sink`]s that turn hits into output lines: one URL per
//! line (grep style), JSON Lines, or counts per input. They own output
//! formatting and the filters that decide what is printed (validity,
//! uniqueness); they never write a raw control character.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use serde_json::json;

use crate::hit::Hit;
use crate::normalize::{iri, normalize, normalize_parsed};
use crate::pipeline::{InputInfo, Sink};
use crate::validate::Uri;

mod json;

pub use json::{FIELD_NAMES, FieldValue, hit_fields};

pub use crate::sanitize::{
    EXCERPT_CHARS, MESSAGE_CHARS, escape_for_terminal, excerpt, excerpt_to,
};

/// The shape of the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputFormat {
    /// One URL per line, optionally prefixed by file, line, column and
    /// byte offset.
    Standard,
    /// One JSON object per hit (JSON Lines).
    Json,
    /// One count per input.
    Count,
    /// Each distinct URL (its normal form) once, with the number of
    /// times it was found, most frequent first, after all inputs.
    CountUnique,
    /// Each host with the number of URLs that name it, most frequent
    /// first, after all inputs (a `mailto:` URL names the domain of its
    /// first address).
    Hosts,
    /// The name of each input with a URL, once, when its first URL is
    /// found.
    FilesWithMatches,
    /// The name of each input without a URL, at its end.
    FilesWithoutMatch,
    /// Nothing: the search stops at the first URL (the caller reads
    /// [`Printer::printed`]).
    Quiet,
}

/// What to print and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintOptions {
    /// The output shape.
    pub format: OutputFormat,
    /// Prefix each line with the input's name.
    pub with_filename: bool,
    /// Prefix each URL with its line number.
    pub line_number: bool,
    /// Prefix each URL with its column.
    pub column: bool,
    /// Prefix each URL with the byte offset of its first byte.
    pub byte_offset: bool,
    /// Follow each file name with NUL instead of `:`.
    pub null: bool,
    /// Print the resolved form instead of the URL as written (relative
    /// references are printed resolved in any case).
    pub resolved: bool,
    /// Print hits that are not usable URLs too ([`Hit::usable`]).
    pub invalid: bool,
    /// Print each URL once: the first time its normal form (RFC 3986
    /// 6.2.2, 6.2.3, of its URI form) is seen.
    pub unique: bool,
    /// Print the normal form (RFC 3986 6.2.2 and 6.2.3) of each URL.
    pub normalize: bool,
    /// Print the URI form of IRIs (RFC 3987 3.1: UTF-8 percent-encoded,
    /// IDNA host).
    pub ascii: bool,
    /// With [`OutputFormat::CountUnique`] and [`OutputFormat::Hosts`], write each row
    /// as a JSON object (`{"url" or "host", "count"}`).
    pub json: bool,
    /// Print the target of redirector links (Google, Outlook safelinks,
    /// Proofpoint urldefense, Barracuda) instead of the link.
    pub unwrap: bool,
    /// Print only valid URLs that have warnings (security lint, scheme
    /// advice, unregistered scheme), each followed by a tab and the
    /// warnings' codes.
    pub warnings: bool,
    /// Prefix each URL with the Message-ID of its message (`-` when it
    /// has none or is not from a message).
    pub message_id: bool,
    /// At most this many URLs from each input (a file or standard
    /// input, all its messages together); the rest are not printed nor
    /// counted.
    pub max_count: Option<u64>,
    /// Only URLs from these places of a message (`None`: all); a URL not
    /// from mail counts as [`crate::Source::Text`].
    pub sources: Option<Vec<crate::hit::Source>>,
    /// What `unique` is unique within.
    pub unique_scope: UniqueScope,
    /// Colour file names (magenta) and line, column and byte numbers
    /// (green) with ANSI escapes, as ripgrep does.
    pub color: bool,
}

impl PrintOptions {
    /// Whether `hit` is one to print by [`PrintOptions::invalid`] and
    /// [`PrintOptions::sources`] (the choices that depend on the hit
    /// alone, not on what was printed before it).
    pub fn selects(&self, hit: &Hit) -> bool {
        if !self.invalid && hit.usable().is_none() {
            return false;
        }
        match &self.sources {
            Some(sources) => {
                let source =
                    hit.provenance().map_or(Default::default(), |p| p.source);
                sources.contains(&source)
            }
            None => true,
        }
    }
}

/// Within what [`PrintOptions::unique`] prints each URL once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum UniqueScope {
    /// The whole search.
    #[default]
    All,
    /// Each input (a file, standard input).
    Input,
    /// Each mail message or news article (and each input that is not
    /// mail).
    Message,
}

/// ANSI colours of [`PrintOptions::color`]: ripgrep's defaults.
const NAME_COLOR: &str = "\x1b[35m";
const NUMBER_COLOR: &str = "\x1b[32m";
const RESET: &str = "\x1b[0m";

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            format: OutputFormat::Standard,
            with_filename: false,
            line_number: false,
            column: false,
            byte_offset: false,
            null: false,
            resolved: false,
            invalid: false,
            unique: false,
            normalize: false,
            ascii: false,
            json: false,
            unwrap: false,
            warnings: false,
            message_id: false,
            max_count: None,
            sources: None,
            unique_scope: UniqueScope::All,
            color: false,
        }
    }
}

/// A [`Sink`] that prints to a writer.
#[derive(Debug)]
pub struct Printer<W> {
    out: W,
    opts: PrintOptions,
    /// The normal forms printed so far, for `unique`.
    seen: HashSet<String>,
    /// The message whose URLs `seen` holds, with [`UniqueScope::Message`].
    seen_in: u64,
    /// Counts by normal form or host, for the summary formats.
    tally: HashMap<String, u64>,
    printed: u64,
    /// URLs printed (or counted) from the current input.
    count: u64,
    /// Input names printed ([`OutputFormat::FilesWithMatches`],
    /// [`OutputFormat::FilesWithoutMatch`]).
    names: u64,
    /// The name of the input last named, and that name as printed
    /// (escaped, with the separator): every hit of a file repeats it.
    /// (Both empty before the first.)
    named: (String, Vec<u8>),
    /// Whether each hit is printed as its URL alone, as written: no
    /// option changes what is printed or which hits are.
    plain: bool,
}

impl<W: Write> Printer<W> {
    /// A printer writing to `out`.
    pub fn new(out: W, opts: PrintOptions) -> Printer<W> {
        // The options a valid URL printed as written does not depend on
        // set aside, any other option (one added later too) takes the
        // general path.
        let plain = PrintOptions {
            invalid: false,
            null: false,
            color: false,
            json: false,
            unique_scope: UniqueScope::All,
            ..opts.clone()
        } == PrintOptions::default();
        Printer {
            out,
            opts,
            plain,
            seen: HashSet::new(),
            seen_in: 0,
            tally: HashMap::new(),
            printed: 0,
            count: 0,
            names: 0,
            named: (String::new(), Vec::new()),
        }
    }

    /// Hits printed (or counted) so far.
    pub fn printed(&self) -> u64 {
        self.printed
    }

    /// Input names printed so far ([`OutputFormat::FilesWithMatches`],
    /// [`OutputFormat::FilesWithoutMatch`]).
    pub fn names(&self) -> u64 {
        self.names
    }

    /// Print the name of `input` alone on its line (NUL-terminated with
    /// [`PrintOptions::null`], as ripgrep's `-l -0`).
    fn name_line(&mut self, input: &InputInfo) -> io::Result<()> {
        self.names += 1;
        let name = escape_for_terminal(&input.name);
        if self.opts.color {
            write!(self.out, "{NAME_COLOR}{name}{RESET}")?;
        } else {
            self.out.write_all(name.as_bytes())?;
        }
        self.out.write_all(if self.opts.null { b"\0" } else { b"\n" })
    }

    /// A line, column or byte number and its `:`.
    fn number(&mut self, n: u64) -> io::Result<()> {
        if self.opts.color {
            write!(self.out, "{NUMBER_COLOR}{n}{RESET}:")
        } else {
            write!(self.out, "{n}:")
        }
    }

    /// The writer back, flushed, after the summary of
    /// [`OutputFormat::CountUnique`] and [`OutputFormat::Hosts`] is written.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.summary()?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// Write the tally, most frequent first (ties in byte order).
    fn summary(&mut self) -> io::Result<()> {
        let mut rows: Vec<(String, u64)> = self.tally.drain().collect();
        rows.sort_unstable_by(|a, b| {
            b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0))
        });
        let key = if self.opts.format == OutputFormat::Hosts {
            "host"
        } else {
            "url"
        };
        for (text, n) in rows {
            if self.opts.json {
                let line = json!({ key: text, "count": n }).to_string();
                self.out
                    .write_all(json::escape_invisible(&line).as_bytes())?;
                self.out.write_all(b"\n")?;
            } else {
                let text = escape_for_terminal(&text);
                writeln!(self.out, "{n}\t{text}")?;
            }
        }
        Ok(())
    }

    /// Whether `hit` is printed; `codes` gets its warnings' codes when
    /// they are asked for (computed once, here).
    fn wanted(&mut self, hit: &Hit, codes: &mut Vec<&'static str>) -> bool {
        if !self.opts.selects(hit) {
            return false;
        }
        if self.opts.warnings {
            codes.extend(hit.warnings().iter().map(|w| w.code));
            if codes.is_empty() {
                return false;
            }
        }
        if self.opts.unique {
            let key = key(self.text(hit));
            let message = hit.provenance().map_or(0, |p| p.message);
            if self.opts.unique_scope == UniqueScope::Message
                && message != self.seen_in
            {
                self.seen.clear();
                self.seen_in = message;
            }
            if self.seen.contains(key.as_ref()) {
                return false;
            }
            self.seen.insert(key.into_owned());
        }
        true
    }

    /// The text printed for a hit: the URL as written (percent-encoded
    /// where RFC 3986 requires it, [`Hit::repaired`]) or resolved, its
    /// target with `unwrap`, in URI form with `ascii`, normalized with
    /// `normalize`.
    fn text<'h>(&self, hit: &'h Hit) -> Cow<'h, str> {
        // A relative reference is printed resolved against its base (the
        // message's `<base href>`, `Content-Base`, `--base`): it is of no
        // use to a program reading the output without it.
        let written = hit.absolute().unwrap_or(hit.url());
        let mut text = Cow::Borrowed(if self.opts.resolved {
            hit.resolved().unwrap_or(written)
        } else {
            written
        });
        if self.opts.unwrap
            && let Some(target) = hit.unwrapped()
        {
            text = Cow::Owned(target);
        }
        if self.opts.ascii {
            text = Cow::Owned(uri_form(&text).into_owned());
        }
        if self.opts.normalize {
            text = Cow::Owned(normalize(&text).into_owned());
        }
        text
    }

    fn name(&mut self, input: &InputInfo) -> io::Result<()> {
        let (raw, name) = &mut self.named;
        if name.is_empty() || *raw != input.name {
            raw.clone_from(&input.name);
            name.clear();
            if self.opts.color {
                name.extend_from_slice(NAME_COLOR.as_bytes());
            }
            name.extend_from_slice(escape_for_terminal(raw).as_bytes());
            if self.opts.color {
                name.extend_from_slice(RESET.as_bytes());
            }
            name.push(if self.opts.null { b'\0' } else { b':' });
        }
        self.out.write_all(name)
    }
}

impl<W: Write> Printer<W> {
    /// [`Sink::hit`] for any hit and options: kept out of the common
    /// case's code, whose few writes then need no more registers or
    /// stack than their own.
    #[inline(never)]
    fn hit_by_options(
        &mut self,
        input: &InputInfo,
        hit: &Hit,
    ) -> io::Result<bool> {
        let mut codes = Vec::new();
        if !self.wanted(hit, &mut codes)
            || self.opts.max_count.is_some_and(|m| self.count >= m)
        {
            return Ok(true);
        }
        self.printed += 1;
        self.count += 1;
        match self.opts.format {
            OutputFormat::Count | OutputFormat::FilesWithoutMatch => {}
            OutputFormat::Quiet => return Ok(false),
            OutputFormat::FilesWithMatches => {
                if self.count == 1 {
                    self.name_line(input)?;
                }
            }
            OutputFormat::CountUnique => {
                let k = key(self.text(hit)).into_owned();
                *self.tally.entry(k).or_default() += 1;
            }
            OutputFormat::Hosts => {
                if let Some(host) = host_of(&self.text(hit)) {
                    *self.tally.entry(host).or_default() += 1;
                }
            }
            OutputFormat::Json => json::write_hit(&mut self.out, input, hit)?,
            OutputFormat::Standard => {
                if self.opts.with_filename {
                    self.name(input)?;
                }
                if self.opts.line_number {
                    self.number(hit.line())?;
                }
                if self.opts.column {
                    self.number(hit.column())?;
                }
                if self.opts.byte_offset {
                    self.number(hit.start())?;
                }
                if self.opts.message_id {
                    let id = hit
                        .provenance()
                        .and_then(|p| p.message_id.as_deref())
                        .unwrap_or("-");
                    self.out.write_all(escape_for_terminal(id).as_bytes())?;
                    self.out.write_all(b" ")?;
                }
                let text = self.text(hit);
                // `printable` vouches for the hit's own text (the URL or
                // its resolved form), not for a redirector's target nor
                // for anything computed from it.
                if hit.printable && matches!(text, Cow::Borrowed(_)) {
                    self.out.write_all(text.as_bytes())?;
                } else {
                    let text = escape_for_terminal(&text);
                    self.out.write_all(text.as_bytes())?;
                }
                if self.opts.warnings {
                    write!(self.out, "\t{}", codes.join(","))?;
                }
                self.out.write_all(b"\n")?;
            }
        }
        Ok(true)
    }
}

impl<W: Write> Sink for Printer<W> {
    fn hit(&mut self, input: &InputInfo, hit: &Hit) -> io::Result<bool> {
        if self.plain && hit.printable && hit.extras.is_none() {
            // The common case: a valid absolute URL, printed as written
            // (what `Printer::hit_by_options` prints for it).
            self.printed += 1;
            self.count += 1;
            self.out.write_all(hit.url.as_bytes())?;
            return self.out.write_all(b"\n").map(|()| true);
        }
        self.hit_by_options(input, hit)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn end(&mut self, input: &InputInfo, _hits: u64) -> io::Result<()> {
        match self.opts.format {
            OutputFormat::Count => {
                if self.opts.with_filename {
                    self.name(input)?;
                }
                writeln!(self.out, "{}", self.count)?;
            }
            OutputFormat::FilesWithoutMatch if self.count == 0 => {
                self.name_line(input)?;
            }
            _ => {}
        }
        self.count = 0;
        if self.opts.unique_scope != UniqueScope::All {
            self.seen.clear();
            self.seen_in = 0;
        }
        Ok(())
    }

    /// Flush what was printed, so that a message about the input (which
    /// the caller writes to stderr) comes after the hits before it.
    fn error(&mut self, _: &InputInfo, _: &io::Error) -> io::Result<()> {
        self.out.flush()
    }
}

/// The URI form of `text` (RFC 3987 3.1); an IRI whose host IDNA
/// rejects keeps that host percent-encoded.
fn uri_form(text: &str) -> Cow<'_, str> {
    iri::to_uri(text).unwrap_or_else(|encoded| encoded)
}

/// What `unique` and the URL tally compare: the normal form of the URI
/// form, so `HTTP://Example.COM:80/%7euser` and `http://example.com/~user`
/// count as one.
fn key(text: Cow<'_, str>) -> Cow<'_, str> {
    let uri = match uri_form(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(s) => Cow::Owned(s),
    };
    match normalize(&uri) {
        Cow::Borrowed(_) => uri,
        Cow::Owned(s) => Cow::Owned(s),
    }
}

/// The host a URL names, lower case in its URI form; for `mailto:` the
/// domain of the first address. A host with escapes is taken in its
/// normal form (RFC 3986 6.2.2.1-6.2.2.2: hex digits upper case, escapes
/// of unreserved characters decoded), so that `%77%77%77.example.com`,
/// as spam writes hosts, is `www.example.com`.
fn host_of(text: &str) -> Option<String> {
    let text = uri_form(text);
    let uri = Uri::parse(&text);
    let host = match uri.host() {
        Some(h) if !h.is_empty() => h,
        _ if uri
            .scheme()
            .is_some_and(|s| s.eq_ignore_ascii_case("mailto")) =>
        {
            let first = uri.path().split(',').next()?;
            first.rsplit_once('@')?.1
        }
        _ => return None,
    };
    if !host.contains('%') {
        return Some(host.to_ascii_lowercase());
    }
    // The host alone as an authority: its normal form, or (not a valid
    // host) lower case as it is.
    let url = format!("http://{host}/");
    let alone = Uri::parse(&url);
    if !alone.is_valid() {
        return Some(host.to_ascii_lowercase());
    }
    let normal = normalize_parsed(&alone);
    Uri::parse(&normal).host().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_follow_the_input() {
        // The escaped name is kept from hit to hit: it must change with
        // the input, also to a name equal but for escaping, and to an
        // empty one.
        let hit = crate::Extractor::builder()
            .build()
            .unwrap()
            .find(b"http://a.example/")
            .remove(0);
        let opts = PrintOptions { with_filename: true, ..Default::default() };
        let mut p = Printer::new(Vec::new(), opts);
        for (index, name) in
            ["a", "a", "b\x1b", "b", "", "a"].iter().enumerate()
        {
            let info = InputInfo { index, name: name.to_string() };
            p.hit(&info, &hit).unwrap();
        }
        let out = String::from_utf8(p.into_inner().unwrap()).unwrap();
        let names: Vec<&str> =
            out.lines().map(|l| l.split_once("http").unwrap().0).collect();
        assert_eq!(names, ["a:", "a:", "b%1B:", "b:", ":", "a:"]);
    }

    #[test]
    fn unwrapped_targets_are_escaped() {
        // A printable wrapper whose target holds a right-to-left override
        // and a zero-width space, percent-encoded in the query.
        let hit = crate::Extractor::builder()
            .build()
            .unwrap()
            .find(b"https://www.google.com/url?q=http://a.example/%E2%80%AEx%E2%80%8By")
            .remove(0);
        for opts in [
            PrintOptions { unwrap: true, ..Default::default() },
            PrintOptions {
                unwrap: true,
                normalize: true,
                ..Default::default()
            },
        ] {
            let mut p = Printer::new(Vec::new(), opts);
            let info = InputInfo { index: 0, name: String::new() };
            p.hit(&info, &hit).unwrap();
            let out = String::from_utf8(p.into_inner().unwrap()).unwrap();
            assert_eq!(out, "http://a.example/%E2%80%AEx%E2%80%8By\n");
        }
    }

    /// The common case's path prints what the general one prints, hit
    /// for hit, for URLs of many kinds: valid, with dot segments, with
    /// characters to percent-encode, not valid, relative, not ASCII,
    /// with escapes, wrapped, and with a hyphen at a line break.
    #[test]
    fn the_common_path_agrees_with_the_general_one() {
        let text = "http://a.example/ <https://b.example/x/../y> \
            http://c.example/a b|c \"http://d.example/p q\" \
            http://e.example:99999/ http://f.example/%zz \
            href=\"/rel/x\" http://例え.jp/ü http://g.example/\x1b[0m \
            <http://h.example/a\n  b> mailto:x@y.example news:comp.lang.c \
            http://i.example/long-\nword ftp://j.example/;type=x \
            http://k.example/?q=1#f (http://l.example/) http:// x";
        let hits =
            crate::Extractor::builder().build().unwrap().find(text.as_bytes());
        let common =
            hits.iter().filter(|h| h.printable && h.extras.is_none()).count();
        assert!(common > 5 && common < hits.len(), "{common} {}", hits.len());
        let info = InputInfo { index: 0, name: "a".into() };
        let mut fast = Printer::new(Vec::new(), PrintOptions::default());
        let mut general = Printer::new(Vec::new(), PrintOptions::default());
        assert!(fast.plain);
        for hit in &hits {
            let go = fast.hit(&info, hit).unwrap();
            assert_eq!(go, general.hit_by_options(&info, hit).unwrap());
            assert_eq!(fast.printed(), general.printed());
        }
        let (fast, general) =
            (fast.into_inner().unwrap(), general.into_inner().unwrap());
        assert_eq!(String::from_utf8(fast), String::from_utf8(general));
    }

    #[test]
    fn keys_are_normal_forms() {
        let k = |s: &str| key(Cow::Borrowed(s)).into_owned();
        assert_eq!(
            k("HTTP://Example.COM:80/%7euser"),
            "http://example.com/~user"
        );
        assert_eq!(k("http://example.com"), "http://example.com/");
        assert_eq!(
            k("http://例え.jp/Straße"),
            "http://xn--r8jz45g.jp/Stra%C3%9Fe"
        );
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("http://WWW.Example.com:8080/x").as_deref(),
            Some("www.example.com")
        );
        assert_eq!(
            host_of("mailto:joe@Example.ORG,ann@b.example?subject=x")
                .as_deref(),
            Some("example.org")
        );
        assert_eq!(
            host_of("http://例え.jp/").as_deref(),
            Some("xn--r8jz45g.jp")
        );
        assert_eq!(
            host_of("http://B%c3%bcRO.example/").as_deref(),
            Some("b%C3%BCro.example")
        );
        assert_eq!(
            host_of("http://%77%77%77.%45xample.com/").as_deref(),
            Some("www.example.com")
        );
        assert_eq!(host_of("news:comp.lang.c"), None);
        assert_eq!(host_of("file:///etc/passwd"), None);
    }
}

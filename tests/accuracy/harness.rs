//! The accuracy harness: runs urlx and a plain regular expression (the
//! baseline) over real inputs and lists every URL the baseline finds
//! that urlx does not print as found, and every URL urlx prints that
//! holds a character no browser keeps. Each difference must be
//! explained by a row of [`EXPECTED`], which names the rule (and the
//! section of the spec) that decides it; the rest are unexplained.
//!
//! The baseline is `[A-Za-z][A-Za-z0-9+.-]*://[^\s<>"']+` with trailing
//! `.,;:!?)` trimmed, run on the raw bytes of every input and, for mail
//! and news, also on the text of every decoded piece (header fields,
//! text parts, HTML source after its transfer encoding and charset are
//! undone), since that is what a reader of the message sees.
//!
//! A mail or news input is compared message by message (what urlx
//! prints for a message against what the baseline finds in it); a text
//! input is compared as a whole.
//!
//! Used by `tests/accuracy/mod.rs` (on `corpora/`, in `cargo test`) and
//! by `examples/accuracy.rs` (on any files, for the shared corpora).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use regex::bytes::Regex;
use urlx::mail::mime::{Piece, PieceKind};
use urlx::{Extractor, Hit};

/// Where a baseline match was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Src {
    /// The raw bytes of the input.
    Raw,
    /// The decoded text of piece `n` of the message.
    Piece(usize),
}

/// One URL the baseline found.
#[derive(Clone, Debug)]
pub struct Base {
    pub url: String,
    pub src: Src,
    /// Byte range of the match in its source (the input for
    /// [`Src::Raw`], the piece's text otherwise).
    pub range: Range<usize>,
}

/// What urlx found in one unit (a message, or a whole text input).
pub struct Unit<'a> {
    /// The whole input, decompressed.
    pub input: &'a [u8],
    /// The unit's bytes in `input`.
    pub range: Range<usize>,
    /// The unit's decoded pieces (mail and news only).
    pub pieces: Vec<Piece>,
    /// Maps piece offsets (offsets in the message) to input offsets.
    pub to_input: Box<dyn Fn(usize) -> usize + 'a>,
    /// The URLs urlx prints (usable hits), as printed.
    pub printed: HashSet<String>,
    /// The hits urlx found but does not print, with their errors.
    pub invalid: HashMap<String, Vec<String>>,
    /// Every hit of the unit.
    pub hits: Vec<Hit>,
}

/// How a baseline URL and urlx's output differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The baseline finds a URL that urlx does not print.
    Missing,
    /// urlx prints a URL with a character no browser keeps.
    BadChar,
}

/// One difference, explained by a row of [`EXPECTED`] or not.
#[derive(Clone, Debug)]
pub struct Difference {
    pub kind: Kind,
    /// The input's name and the message number (0 for text).
    pub unit: String,
    /// The baseline's URL (for [`Kind::BadChar`], urlx's).
    pub url: String,
    pub src: Option<Src>,
    /// The closest URL urlx printed (sharing the longest prefix).
    pub closest: Option<String>,
    /// The rows of [`EXPECTED`] that explain it, in the order applied
    /// (empty when nothing does).
    pub rule: Vec<&'static str>,
    /// A line of context around the URL in its source.
    pub context: String,
    /// Where the match lies: which piece (its content type), or that
    /// it lies in no piece of the message.
    pub place: String,
}

/// What a row of [`EXPECTED`] is given to decide: a baseline match
/// and the unit it was found in.
pub struct Case<'u, 'a> {
    pub base: &'u Base,
    pub unit: &'u Unit<'a>,
    /// All the unit's baseline matches.
    pub all: &'u [Base],
}

/// How a row of [`EXPECTED`] explains a difference.
pub enum Rule {
    /// urlx reads the URL as another text (decoded, cut, trimmed): the
    /// difference is explained when that text is printed, or is
    /// explained in turn by another row.
    Reads(fn(&Case, &str) -> Option<String>),
    /// urlx deliberately prints nothing for this text, or prints a
    /// longer URL that starts with it.
    Ends(fn(&Case, &str) -> bool),
    /// As `Ends`, tried only when no reading explains the text.
    EndsLast(fn(&Case, &str) -> bool),
}

/// A known, argued difference between urlx and the baseline.
pub struct Expected {
    pub name: &'static str,
    /// Why urlx differs, and the rule (spec section) that decides it.
    pub reason: &'static str,
    pub rule: Rule,
}

/// The report on one input.
#[derive(Default)]
pub struct Report {
    pub units: usize,
    pub baseline: usize,
    pub printed: usize,
    pub differences: Vec<Difference>,
    /// Printed URLs the baseline does not find, by scheme (for reading,
    /// not a failure: `mailto:`, `news:`, wrapped URLs).
    pub urlx_only: BTreeMap<String, Vec<String>>,
}

/// The baseline regular expression, as bytes (ASCII classes).
pub fn baseline_regex() -> Regex {
    Regex::new(r#"(?-u)[A-Za-z][A-Za-z0-9+.\-]*://[^\s<>"']+"#)
        .expect("baseline regex")
}

/// The baseline's matches in `hay`, trailing `.,;:!?)` trimmed.
pub fn baseline(re: &Regex, hay: &[u8], src: Src) -> Vec<Base> {
    re.find_iter(hay)
        .filter_map(|m| {
            let mut end = m.end();
            while end > m.start()
                && matches!(
                    hay[end - 1],
                    b'.' | b',' | b';' | b':' | b'!' | b'?' | b')'
                )
            {
                end -= 1;
            }
            let url = String::from_utf8_lossy(&hay[m.start()..end]);
            // The regex needs `://` followed by something.
            let tail = url.split_once("://").map_or("", |(_, t)| t);
            (!tail.is_empty()).then(|| Base {
                url: url.into_owned(),
                src,
                range: m.start()..end,
            })
        })
        .collect()
}

/// Compare urlx with the baseline on one input.
pub fn check(name: &str, input: &[u8], ex: &Extractor, re: &Regex) -> Report {
    let mut report = Report::default();
    let hits = ex.find(input);
    match urlx::stages::messages(input) {
        None => {
            let unit = Unit {
                input,
                range: 0..input.len(),
                pieces: Vec::new(),
                to_input: Box::new(|p| p),
                printed: printed(&hits),
                invalid: invalid(&hits),
                hits,
            };
            compare(name, &unit, re, &mut report);
        }
        Some(messages) => {
            let mut by_message: BTreeMap<u64, Vec<Hit>> = BTreeMap::new();
            for h in hits {
                let n = h.provenance().map_or(0, |p| p.message);
                by_message.entry(n).or_default().push(h);
            }
            for mut m in messages {
                let number = m.number;
                let hits = by_message.remove(&number).unwrap_or_default();
                let range = m.range.start as usize..m.range.end as usize;
                let pieces = std::mem::take(&mut m.pieces);
                let unit = Unit {
                    input,
                    range,
                    pieces,
                    to_input: Box::new(move |p| m.input_offset(p) as usize),
                    printed: printed(&hits),
                    invalid: invalid(&hits),
                    hits,
                };
                compare(&format!("{name}#{number}"), &unit, re, &mut report);
            }
        }
    }
    report
}

/// What urlx prints: the usable form of each hit (RFC 3986 valid, or
/// percent-encoded where it forbids a character).
fn printed(hits: &[Hit]) -> HashSet<String> {
    hits.iter().filter_map(|h| h.absolute().map(str::to_string)).collect()
}

fn invalid(hits: &[Hit]) -> HashMap<String, Vec<String>> {
    hits.iter()
        .filter(|h| h.usable().is_none())
        .map(|h| {
            let errors = h.errors().iter().map(ToString::to_string).collect();
            (h.url().to_string(), errors)
        })
        .collect()
}

fn compare(unit_name: &str, unit: &Unit, re: &Regex, report: &mut Report) {
    report.units += 1;
    report.printed += unit.printed.len();
    let mut bases = baseline(re, &unit.input[unit.range.clone()], Src::Raw);
    for b in &mut bases {
        b.range =
            b.range.start + unit.range.start..b.range.end + unit.range.start;
    }
    for (i, p) in unit.pieces.iter().enumerate() {
        bases.extend(baseline(re, p.text.as_bytes(), Src::Piece(i)));
    }
    report.baseline += bases.len();
    // A raw match that is also a decoded match at the same place (text
    // copied unchanged into a piece) is compared once, as decoded.
    let decoded_at: HashSet<(usize, &str)> = bases
        .iter()
        .filter_map(|b| match b.src {
            Src::Piece(i) => {
                Some((input_offset(unit, i, b.range.start), b.url.as_str()))
            }
            Src::Raw => None,
        })
        .collect();
    let mut seen: HashSet<(String, bool)> = HashSet::new();
    let found: HashSet<&str> = bases.iter().map(|b| b.url.as_str()).collect();
    for b in &bases {
        if unit.printed.contains(&b.url)
            || (b.src == Src::Raw
                && decoded_at.contains(&(b.range.start, b.url.as_str())))
        {
            continue;
        }
        // Each URL once per unit and kind of source.
        if !seen.insert((b.url.clone(), b.src == Src::Raw)) {
            continue;
        }
        let case = Case { base: b, unit, all: &bases };
        let mut rule = Vec::new();
        explain(&case, &b.url, &mut rule);
        report.differences.push(Difference {
            kind: Kind::Missing,
            unit: unit_name.to_string(),
            url: b.url.clone(),
            src: Some(b.src),
            closest: closest(&b.url, &unit.printed),
            rule,
            context: context(unit, b),
            place: place(unit, b),
        });
    }
    for u in &unit.printed {
        if let Some(c) = bad_char(u) {
            report.differences.push(Difference {
                kind: Kind::BadChar,
                unit: unit_name.to_string(),
                url: u.clone(),
                src: None,
                closest: None,
                rule: Vec::new(),
                context: format!("{c:?}"),
                place: String::new(),
            });
        }
        if !found.contains(u.as_str()) {
            let scheme = match u.split_once(':') {
                Some((s, _))
                    if s.starts_with(|c: char| c.is_ascii_alphabetic())
                        && s.bytes().all(|b| {
                            b.is_ascii_alphanumeric() || b"+-.".contains(&b)
                        }) =>
                {
                    s.to_ascii_lowercase()
                }
                _ => "(relative reference)".to_string(),
            };
            report.urlx_only.entry(scheme).or_default().push(u.clone());
        }
    }
}

/// The printed URL sharing the longest prefix with `url` (at least its
/// scheme and `:`).
fn closest(url: &str, printed: &HashSet<String>) -> Option<String> {
    let scheme_len = url.find(':')? + 1;
    printed
        .iter()
        .map(|p| {
            let common = url
                .bytes()
                .zip(p.bytes())
                .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
                .count();
            (common, p)
        })
        .filter(|&(c, _)| c > scheme_len)
        .max_by_key(|&(c, p)| (c, std::cmp::Reverse(p.len())))
        .map(|(_, p)| p.clone())
}

/// Where a match lies in its unit (see [`Difference::place`]).
fn place(unit: &Unit, b: &Base) -> String {
    let describe = |p: &Piece| {
        let kind = match &p.source {
            PieceKind::Header(name) => format!("header {name}"),
            PieceKind::Text => "text".to_string(),
            PieceKind::Html => "html".to_string(),
        };
        format!("part {:?} {} {kind} {:?}", p.part, p.content_type, p.decoded)
    };
    match b.src {
        Src::Piece(i) => describe(&unit.pieces[i]),
        Src::Raw if unit.pieces.is_empty() => "text input".to_string(),
        Src::Raw => piece_at(unit, b.range.start)
            .map_or("raw, in no piece".to_string(), |p| {
                format!("raw, in {}", describe(p))
            }),
    }
}

/// The line around a baseline match, escaped.
fn context(unit: &Unit, b: &Base) -> String {
    let hay: &[u8] = match b.src {
        Src::Raw => unit.input,
        Src::Piece(i) => unit.pieces[i].text.as_bytes(),
    };
    let s = hay[..b.range.start]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1)
        .max(b.range.start.saturating_sub(80));
    let e = hay[b.range.end..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(hay.len(), |p| b.range.end + p)
        .min(b.range.end + 80);
    String::from_utf8_lossy(&hay[s..e]).escape_debug().to_string()
}

/// The first character of a printed URL that no browser keeps: not a
/// URI character (RFC 3986 section 2) and not an IRI character (RFC
/// 3987 2.2 `ucschar`, `iprivate`), or a bidi formatting character
/// (RFC 3987 4.1).
pub fn bad_char(url: &str) -> Option<char> {
    url.chars().find(|&c| {
        if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c))
        } else {
            let u = c as u32;
            let ucschar = matches!(u,
                0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
                || (u >= 0x10000 && u & 0xFFFE != 0xFFFE && u < 0xE0000)
                || (0xE1000..=0xEFFFD).contains(&u);
            let private = (0xE000..=0xF8FF).contains(&u) || u >= 0xF0000;
            let bidi = matches!(u, 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069);
            !(ucschar || private) || bidi
        }
    })
}

/// Find the rows that explain `url` (the baseline's, or what urlx
/// reads it as), depth first; `chain` gets their names.
fn explain(case: &Case, url: &str, chain: &mut Vec<&'static str>) -> bool {
    if !chain.is_empty() && case.unit.printed.contains(url) {
        return true;
    }
    for e in EXPECTED {
        if let Rule::Ends(f) = e.rule
            && f(case, url)
        {
            chain.push(e.name);
            return true;
        }
    }
    if chain.len() < 4 {
        for e in EXPECTED {
            if let Rule::Reads(f) = e.rule
                && let Some(next) = f(case, url)
                && next != url
            {
                chain.push(e.name);
                if explain(case, &next, chain) {
                    return true;
                }
                chain.pop();
            }
        }
    }
    for e in EXPECTED {
        if let Rule::EndsLast(f) = e.rule
            && f(case, url)
        {
            chain.push(e.name);
            return true;
        }
    }
    false
}

/// The source text of a case.
pub fn source<'c>(case: &'c Case) -> &'c [u8] {
    match case.base.src {
        Src::Raw => case.unit.input,
        Src::Piece(i) => case.unit.pieces[i].text.as_bytes(),
    }
}

/// Whether the case's source is an HTML piece.
fn is_html(case: &Case) -> bool {
    piece(case).is_some_and(|p| p.source == PieceKind::Html)
}

/// The piece of a case's source, if it is a decoded piece.
fn piece<'c>(case: &'c Case) -> Option<&'c Piece> {
    match case.base.src {
        Src::Raw => None,
        Src::Piece(i) => case.unit.pieces.get(i),
    }
}

/// The input offset of byte `p` of piece `i`'s text.
fn input_offset(unit: &Unit, i: usize, p: usize) -> usize {
    (unit.to_input)(unit.pieces[i].map.raw_offset(p))
}

/// The baseline's reading of `text`: its first match, if it starts at
/// the start.
fn rebaseline(text: &str) -> Option<String> {
    thread_local! {
        static RE: Regex = baseline_regex();
    }
    RE.with(|re| {
        let b = baseline(re, text.as_bytes(), Src::Raw);
        b.into_iter().next().filter(|b| b.range.start == 0).map(|b| b.url)
    })
}

/// Quoted-printable decoding of `s` (RFC 2045 6.7), if every `=` in it
/// is an escape with two upper-case hex digits or a soft line break at
/// its end (an encoder's output; anything else was not encoded).
fn qp_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'=' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        if i + 1 == b.len() {
            break; // a soft line break
        }
        let hex = |c: u8| matches!(c, b'0'..=b'9' | b'A'..=b'F');
        let (h, l) = (*b.get(i + 1)?, *b.get(i + 2)?);
        if !hex(h) || !hex(l) {
            return None;
        }
        let v =
            |c: u8| if c.is_ascii_digit() { c - b'0' } else { c - b'A' + 10 };
        out.push(v(h) * 16 + v(l));
        i += 3;
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// The printed URLs that start with `prefix` and are longer.
fn printed_extending<'u>(
    case: &'u Case,
    prefix: &'u str,
) -> impl Iterator<Item = &'u String> + 'u {
    case.unit
        .printed
        .iter()
        .filter(move |p| p.len() > prefix.len() && p.starts_with(prefix))
}

/// Whether urlx found `url` and holds it invalid with an error that
/// `pick` accepts.
fn invalid_with(case: &Case, url: &str, pick: fn(&str) -> bool) -> bool {
    case.unit
        .invalid
        .get(url)
        .is_some_and(|errors| errors.iter().any(|e| pick(e)))
}

/// The input offset where the case's match starts.
fn start_in_input(case: &Case) -> usize {
    match case.base.src {
        Src::Raw => case.base.range.start,
        Src::Piece(i) => input_offset(case.unit, i, case.base.range.start),
    }
}

/// urlx's hits that start where the case's match starts.
fn hits_at<'c>(case: &'c Case) -> impl Iterator<Item = &'c Hit> + 'c {
    let at = start_in_input(case) as u64;
    case.unit.hits.iter().filter(move |h| h.start() == at)
}

/// Whether urlx's hit at the case's place, or a hit with the text
/// `url`, is invalid with an error that `pick` accepts.
fn invalid_here(case: &Case, url: &str, pick: fn(&str) -> bool) -> bool {
    hits_at(case)
        .filter(|h| !h.is_valid())
        .any(|h| h.errors().iter().any(|e| pick(&e.to_string())))
        || invalid_with(case, url, pick)
}

/// The bytes of the source right after the match.
fn after<'c>(case: &'c Case) -> &'c [u8] {
    &source(case)[case.base.range.end..]
}

/// Whether the line ends after the match (and the punctuation the
/// baseline trimmed, spaces, a quoted-printable soft break).
fn breaks_line(case: &Case) -> bool {
    after(case)
        .iter()
        .take_while(|&&c| c.is_ascii_whitespace() || b"=.,;:!?)".contains(&c))
        .any(|&c| c == b'\n')
}

/// The bytes of the source on the match's line before it.
fn line_before<'c>(case: &'c Case) -> &'c [u8] {
    let src = source(case);
    let s = case.base.range.start;
    let from = src[..s].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
    &src[from..s]
}

/// `url` with what RFC 3986 does not allow after its authority
/// percent-encoded (space, `"` `<` `>` `\\` `^` `` ` `` `{` `|` `}`,
/// controls, `[` `]`, a `%` without two hex digits, a second `#`), as
/// browsers encode it; `None` when nothing changes.
fn browser_encoded(url: &str) -> Option<String> {
    let tail = url
        .find("://")
        .map(|p| p + 3)
        .map(|a| a + url[a..].find(['/', '?', '#']).unwrap_or(url.len() - a))
        .unwrap_or_else(|| url.find(':').map_or(0, |p| p + 1));
    let b = url.as_bytes();
    let mut out = String::from(&url[..tail]);
    let mut hash = false;
    for (i, c) in url[tail..].char_indices() {
        let i = tail + i;
        let encode = match c {
            '#' if hash => true,
            '#' => {
                hash = true;
                false
            }
            '%' => {
                !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
            }
            ' ' | '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}'
            | '[' | ']' => true,
            c => c.is_ascii_control(),
        };
        if encode {
            let mut buf = [0; 4];
            for u in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{u:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    (out != url).then_some(out)
}

/// `url` cut before the first character of `stop`, with the sentence
/// punctuation before the cut trimmed as the baseline trims.
fn cut_at(url: &str, stop: impl Fn(char) -> bool) -> Option<String> {
    let at = url.find(stop)?;
    let kept = url[..at]
        .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'', '"']);
    kept.contains("://").then(|| kept.to_string())
}

/// The scheme of `url` when a well-known one is glued to text before it
/// (`season.http://`, `1.http://`, `comhttp://`), and the URL from it.
fn unglued(url: &str) -> Option<String> {
    let colon = url.find("://")?;
    let scheme = url[..colon].to_ascii_lowercase();
    ["https", "http", "ftp"].iter().find_map(|w| {
        let p = scheme.len().checked_sub(w.len())?;
        (p >= 1 && scheme.ends_with(w) && !scheme[..p].ends_with(['+', '-']))
            .then(|| url[p..].to_string())
    })
}

/// The UTS #58 Link_Term of `c`.
fn term(c: char) -> urlx::data::uts58::LinkTerm {
    urlx::data::uts58::link_term(c)
}

/// Every known difference. Anything else is unexplained.
pub const EXPECTED: &[Expected] = &[
    Expected {
        name: "quoted-printable",
        reason: "a match in the raw bytes of a quoted-printable part is \
                 compared in its decoded form (RFC 2045 6.7: `=3D` is `=`, \
                 `=` at a line end is a soft line break): the baseline's \
                 match in the decoded text at the same place starts with \
                 the decoded match, and is compared in its turn",
        rule: Rule::Ends(|case, url| {
            if case.base.src != Src::Raw || url != case.base.url {
                return false;
            }
            // The regex may start a scheme inside an escape (`=3Dhttp`).
            let src = source(case);
            let s = case.base.range.start;
            let hex = |c: u8| c.is_ascii_hexdigit();
            let u = url.as_bytes();
            let (url, at) = if s >= 2
                && src[s - 2] == b'='
                && hex(src[s - 1])
                && hex(u[0])
            {
                (&url[1..], s + 1)
            } else if s >= 1
                && src[s - 1] == b'='
                && u.len() > 2
                && hex(u[0])
                && hex(u[1])
            {
                (&url[2..], s + 2)
            } else {
                (url, s)
            };
            let Some(decoded) = qp_decode(url) else {
                return false;
            };
            // What the baseline keeps of it, compared up to its first
            // byte that a charset may have changed.
            let cut = decoded
                .find(|c: char| c.is_ascii_whitespace() || "<>\"'".contains(c))
                .unwrap_or(decoded.len());
            let kept = &decoded[..cut];
            let ascii =
                kept.find(|c: char| !c.is_ascii()).unwrap_or(kept.len());
            let kept = kept[..ascii]
                .trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
            // The decoded match at the same place starts with it; or, when
            // the raw match starts after a soft line break inside a
            // scheme (`htt=` then `p://`), the decoded match around that
            // place holds it.
            case.all.iter().any(|d| match d.src {
                Src::Piece(i) => {
                    let p = &case.unit.pieces[i];
                    let from = input_offset(case.unit, i, d.range.start);
                    let to = input_offset(case.unit, i, d.range.end);
                    p.decoded == urlx::mail::mime::Decoded::QuotedPrintable
                        && ((from == at && d.url.starts_with(kept))
                            || (from < at && at < to && d.url.contains(kept)))
                }
                Src::Raw => false,
            })
        }),
    },
    Expected {
        name: "html-character-reference",
        reason: "in HTML, character references are decoded before a URL \
                 is read (HTML 13.2.5.72): `&amp;` is `&`",
        rule: Rule::Reads(|case, url| {
            let html =
                piece(case).is_some_and(|p| p.source == PieceKind::Html);
            if !html || !url.contains('&') {
                return None;
            }
            rebaseline(&urlx::mail::html::decode_attr_entities(url))
        }),
    },
    Expected {
        name: "html-comment",
        reason: "an HTML comment is neither text nor markup (HTML \
                 13.2.5.43): nothing in it is read",
        rule: Rule::Ends(|case, _| {
            let Some(p) = piece(case) else { return false };
            if p.source != PieceKind::Html {
                return false;
            }
            let before = &p.text.as_bytes()[..case.base.range.start];
            let find =
                |pat: &[u8]| before.windows(pat.len()).rposition(|w| w == pat);
            match (find(b"<!--"), find(b"-->")) {
                (Some(o), Some(c)) => o > c,
                (Some(_), None) => true,
                _ => false,
            }
        }),
    },
    Expected {
        name: "angle-brackets-continue",
        reason: "inside `<...>` and `<URL:...>` a URL goes on across line \
                 breaks, whitespace removed (Appendix E of the drafts, \
                 RFC 1738 appendix): urlx prints the whole URL, which \
                 starts with the baseline's first line",
        rule: Rule::Ends(|case, url| {
            let before = line_before(case);
            let open = before.iter().rposition(|&c| c == b'<');
            let closed = before.iter().rposition(|&c| c == b'>');
            let inside = open.is_some_and(|o| closed.is_none_or(|c| c < o))
                && !is_html(case);
            // A folded header field keeps the fold's whitespace once
            // unfolded (RFC 5322 2.2.3).
            let gap = breaks_line(case)
                || after(case)
                    .first()
                    .is_some_and(|&c| c == b' ' || c == b'\t');
            inside && gap && printed_extending(case, url).next().is_some()
        }),
    },
    Expected {
        name: "attribute-continues",
        reason: "in HTML, a quoted attribute value goes on across line \
                 breaks, and a URL read from it has its line breaks and \
                 tabs removed (URL Standard, basic URL parser step 3)",
        rule: Rule::Ends(|case, url| {
            let before = line_before(case);
            let q = before.iter().rposition(|&c| c == b'"' || c == b'\'');
            let opens = q.is_some_and(|q| {
                let head = &before[..q];
                head.ends_with(b"=") || head.ends_with(b"=3D")
            });
            (is_html(case) || case.base.src == Src::Raw)
                && opens
                && breaks_line(case)
                && printed_extending(case, url).next().is_some()
        }),
    },
    Expected {
        name: "hyphen-line-break",
        reason: "a URL that reaches a line end right after `-` goes on on \
                 the next line (Appendix E of the drafts: the hyphen may \
                 or may not belong to it; urlx keeps it)",
        rule: Rule::Ends(|case, url| {
            url.ends_with('-')
                && after(case)
                    .iter()
                    .take_while(|c| c.is_ascii_whitespace())
                    .any(|&c| c == b'\n')
                && printed_extending(case, url).next().is_some()
        }),
    },
    Expected {
        name: "balanced-parentheses",
        reason: "a `)` that closes a `(` inside the URL is part of it \
                 (UTS #58 Link_Bracket); the baseline trims every final \
                 `)`",
        rule: Rule::Ends(|case, url| {
            printed_extending(case, url).any(|p| {
                let rest = &p[url.len()..];
                rest.bytes().all(|c| c == b')')
                    && p.matches('(').count() == p.matches(')').count()
            })
        }),
    },
    Expected {
        name: "unbalanced-closer",
        reason: "a final `]`, `}` or `>` that closes no opener inside the \
                 URL closes the text around it (UTS #58 Link_Term Close \
                 with an empty stack; Appendix E wrappers)",
        rule: Rule::Reads(|_, url| {
            let last = url.chars().last()?;
            let open = match last {
                ']' => '[',
                '}' => '{',
                '>' => '<',
                _ => return None,
            };
            (url.matches(open).count() < url.matches(last).count())
                .then(|| url[..url.len() - 1].to_string())
        }),
    },
    Expected {
        name: "percent-encoded",
        reason: "what RFC 3986 does not allow in a path, query or \
                 fragment (space, `|`, `^`, `{}`, `[]`, a lone `%`, ...) \
                 is printed percent-encoded, as browsers send it (RFC \
                 3986 2.1 and 2.4, RFC 3987 3.1); JSON `url` keeps it as \
                 written",
        rule: Rule::Reads(|_, url| browser_encoded(url)),
    },
    Expected {
        name: "glued-scheme",
        reason: "a well-known scheme glued to the word or number before \
                 it starts the URL on its own (`season.http://`, \
                 `1.http://`, `=3Dhttp://`): the baseline takes the word \
                 as part of the scheme",
        rule: Rule::Reads(|_, url| unglued(url)),
    },
    Expected {
        name: "authority-ends",
        reason: "an authority (RFC 3986 3.2) ends at the first character \
                 that cannot be in it; unless that is `/`, `?` or `#` the \
                 URL ends there (UTS #58 host termination): \
                 `http://localhost:8086|/|`",
        rule: Rule::Reads(|_, url| {
            let a = url.find("://")? + 3;
            let rest = &url[a..];
            let end = rest.find(|c: char| {
                !(c.is_ascii_alphanumeric()
                    || "-._~%:@[]!$&()*+,;=".contains(c)
                    || (!c.is_ascii()
                        && term(c) == urlx::data::uts58::LinkTerm::Include
                        && !('\u{80}'..='\u{BF}').contains(&c)
                        && c != '×'
                        && c != '÷'))
            })?;
            (!matches!(rest.as_bytes()[end], b'/' | b'?' | b'#'))
                .then(|| url[..a + end].to_string())
        }),
    },
    Expected {
        name: "byte-escape",
        reason: "`\\xHH` standing for a byte of 0x80 or more (Apache and \
                 nginx logs, C and Python strings) is that byte, printed \
                 `%HH` (RFC 3987 3.1)",
        rule: Rule::Reads(|_, url| {
            let b = url.as_bytes();
            let mut out = String::with_capacity(url.len());
            let mut i = 0;
            while i < b.len() {
                match b.get(i..i + 4) {
                    Some([b'\\', b'x', hi, lo])
                        if hi.is_ascii_hexdigit()
                            && *hi > b'7'
                            && lo.is_ascii_hexdigit() =>
                    {
                        out.push('%');
                        out.push(hi.to_ascii_uppercase() as char);
                        out.push(lo.to_ascii_uppercase() as char);
                        i += 4;
                    }
                    _ => {
                        let c = url[i..].chars().next()?;
                        out.push(c);
                        i += c.len_utf8();
                    }
                }
            }
            (out != url).then_some(out)
        }),
    },
    Expected {
        name: "backslash-or-backquote",
        reason: "`\\` and `` ` `` end a URL in text: RFC 3986 does not \
                 allow them, and in text they start escapes (`\\n`, \
                 `\\\"`, Markdown `\\~`) and code spans",
        rule: Rule::Reads(|case, url| {
            (!is_html(case)).then(|| cut_at(url, |c| c == '\\' || c == '`'))?
        }),
    },
    Expected {
        name: "uts58-hard",
        reason: "a control character, or a non-ASCII character that ends \
                 every link (UTS #58 Link_Term Hard: spaces, controls, \
                 unassigned), ends the URL (RFC 3986 2 has no controls)",
        rule: Rule::Reads(|_, url| {
            cut_at(url, |c| {
                c.is_ascii_control()
                    || (!c.is_ascii()
                        && term(c) == urlx::data::uts58::LinkTerm::Hard)
            })
        }),
    },
    Expected {
        name: "uts58-soft-at-end",
        reason: "non-ASCII punctuation at the end of a URL is not part of \
                 it (UTS #58 Link_Term Soft: inside a link only when more \
                 of it follows)",
        rule: Rule::Reads(|_, url| {
            let trimmed = url.trim_end_matches(|c: char| {
                !c.is_ascii()
                    && matches!(
                        term(c),
                        urlx::data::uts58::LinkTerm::Soft
                            | urlx::data::uts58::LinkTerm::Open
                    )
            });
            (trimmed.len() < url.len()).then(|| trimmed.to_string())
        }),
    },
    Expected {
        name: "unpaired-closer",
        reason: "a closing bracket that pairs with no opener inside the \
                 URL ends it (UTS #58 Link_Bracket): `[URL:http://x/]==`",
        rule: Rule::Reads(|_, url| {
            let mut stack = Vec::new();
            for (i, c) in url.char_indices() {
                match c {
                    '(' | '[' | '{' => stack.push(c),
                    ')' | ']' | '}' => {
                        let open = match c {
                            ')' => '(',
                            ']' => '[',
                            _ => '{',
                        };
                        if stack.pop() != Some(open) {
                            return cut_at(url, |x| x == c)
                                .filter(|k| k.len() <= i);
                        }
                    }
                    _ => {}
                }
            }
            None
        }),
    },
    Expected {
        name: "template-placeholder",
        reason: "a template with placeholders is not a URL: `host[:port]`, \
                 `:port`, `%{name}`, `{$cid}`, `[timestamp]` in a host, \
                 port or escape are invalid by RFC 3986 3.2.2, 3.2.3 and \
                 2.1, and no encoding makes them right (placeholders in a \
                 path or query are printed percent-encoded)",
        rule: Rule::EndsLast(|case, url| {
            let placeholder = url.contains("%{")
                || url.contains("{$")
                || url.contains(":port")
                || url.contains("[:")
                || url.contains("[/")
                || url.contains("[@");
            placeholder && invalid_here(case, url, |_| true)
        }),
    },
    Expected {
        name: "invalid-authority",
        reason: "urlx finds the text, but its scheme or authority is not \
                 valid and percent-encoding cannot repair an authority: \
                 an empty host where the scheme needs one (RFC 3986 \
                 3.2.2, RFC 9110 4.2.1), a host with controls or `|` \
                 (3.2.2), a port that is not a number up to 65535 \
                 (3.2.3), a host label that is empty or starts or ends \
                 with `-` (RFC 1123 2.1); `--invalid` prints it",
        rule: Rule::EndsLast(|case, url| {
            invalid_here(case, url, |e| {
                e.contains("requires a host")
                    || e.contains("host-")
                    || e.contains("port")
                    || e.contains("character not allowed")
                    || e.contains("'%' not followed")
                    || e.contains("authority")
            })
        }),
    },
    Expected {
        name: "scheme-rule",
        reason: "urlx finds the text, but it breaks its scheme's own \
                 rules: a `file:` URL with a host and no path (RFC 8089 \
                 2), a `mailto:` address that is not an addr-spec (RFC \
                 6068 2), a `news:` or `nntp:` form of neither a group \
                 nor an article (RFC 5538); `--invalid` prints it",
        rule: Rule::EndsLast(|case, url| {
            invalid_here(case, url, |e| {
                ["file-", "mailto-", "news-", "nntp-", "fax-", "tel-"]
                    .iter()
                    .any(|c| e.starts_with(c))
            })
        }),
    },
    Expected {
        name: "warc-record-field",
        reason: "the header fields of a web archive record (WARC 1.1 \
                 section 5: `WARC-Target-URI`, `WARC-Profile`, \
                 `WARC-Refers-To-Target-URI`, ...) describe the record, \
                 not what it holds: urlx gives the target as each hit's \
                 `target_uri` and uses it as the base, and scans the \
                 record's content",
        rule: Rule::Ends(|case, _| {
            let unit = &case.unit.input[case.unit.range.clone()];
            let Some(at) =
                case.base.range.start.checked_sub(case.unit.range.start)
            else {
                return false;
            };
            let header_end = unit
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .unwrap_or(unit.len());
            let line = unit[..at].iter().rposition(|&c| c == b'\n');
            let line = line.map_or(0, |p| p + 1);
            case.base.src == Src::Raw
                && at < header_end
                && unit[line..].starts_with(b"WARC-")
        }),
    },
    Expected {
        name: "binary-input",
        reason: "an input with a NUL byte in its first 64 KiB is binary \
                 and skipped, as grep and ripgrep skip it (`-a` searches \
                 it)",
        rule: Rule::Ends(|case, _| {
            case.unit.pieces.is_empty()
                && case.unit.input[..case.unit.input.len().min(64 << 10)]
                    .contains(&0)
        }),
    },
    Expected {
        name: "uuencoded-line",
        reason: "a line of uuencoded data (POSIX uuencode: a length \
                 character, then four characters from space to `_` or \
                 `` ` `` for every three bytes) is data, not text, though \
                 it can spell `E://J+Z!7`",
        rule: Rule::Ends(|case, _| {
            let src = source(case);
            let s = case.base.range.start;
            let from = src[..s]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |p| p + 1);
            let to = src[s..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(src.len(), |p| s + p);
            let line =
                src[from..to].strip_suffix(b"\r").unwrap_or(&src[from..to]);
            let Some(&first) = line.first() else { return false };
            let n = usize::from(first.wrapping_sub(b' ') & 63);
            let want = 1 + n.div_ceil(3) * 4;
            n > 0
                && (line.len() == want || line.len() == want + 1)
                && line.iter().all(|&c| (b' '..=b'`').contains(&c))
        }),
    },
    Expected {
        name: "inside-a-url",
        reason: "the match is part of a longer URL that urlx prints whole: \
                 a URL in another's query (`?url=http://...`, redirectors; \
                 `--unwrap` gives their targets) or the continuation line \
                 of a URL wrapped in `<...>` (Appendix E)",
        rule: Rule::Ends(|case, url| {
            let at = start_in_input(case) as u64;
            let around = case.unit.hits.iter().any(|h| {
                h.usable().is_some() && h.start() < at && at < h.end()
            });
            around
                || case.unit.printed.iter().any(|p| {
                    p.len() > url.len()
                        && p.match_indices(url).any(|(i, _)| {
                            i > 0
                                && matches!(
                                    p.as_bytes()[i - 1],
                                    b'=' | b'/'
                                        | b'?'
                                        | b'&'
                                        | b';'
                                        | b':'
                                        | b','
                                )
                        })
                })
        }),
    },
    Expected {
        name: "attribute-exact",
        reason: "an HTML attribute value is the URL as it stands (HTML \
                 13.2.5.36-38): a final `?`, `!`, `.` or `:` inside the \
                 quotes is part of it, where the baseline trims it",
        rule: Rule::Ends(|case, url| {
            let rest = after(case);
            let punct =
                rest.iter().take_while(|c| b".,;:!?)".contains(c)).count();
            (is_html(case) || case.base.src == Src::Raw)
                && punct > 0
                && rest.get(punct).is_some_and(|c| b"\"'> \n\r=".contains(c))
                && case.unit.printed.iter().any(|p| {
                    p.strip_prefix(url)
                        .is_some_and(|t| t.as_bytes() == &rest[..punct])
                })
        }),
    },
    Expected {
        name: "escape-line-break",
        reason: "no URL ends in an incomplete percent-escape (RFC 3986 \
                 2.1): `%` at a line end, its hex digits on the next line, \
                 is a line break inside the URL, which urlx joins",
        rule: Rule::Ends(|case, url| {
            let b = url.as_bytes();
            let open = b.ends_with(b"%")
                || (b.len() > 1
                    && b[b.len() - 2] == b'%'
                    && b[b.len() - 1].is_ascii_hexdigit());
            open && breaks_line(case)
                && printed_extending(case, url).next().is_some()
        }),
    },
    Expected {
        name: "apostrophe-inside",
        reason: "an apostrophe followed by more of the URL is part of it \
                 (UTS #58 Link_Term Soft: `Lista_d'articlos`, \
                 `s1='4,698'`); the baseline stops at every quote",
        rule: Rule::Ends(|case, url| {
            after(case).first() == Some(&b'\'')
                && printed_extending(case, url)
                    .any(|p| p.as_bytes()[url.len()] == b'\'')
        }),
    },
    Expected {
        name: "footnote-marker",
        reason: "a footnote marker right after a URL (`...html[1]`, as \
                 mail readers number the links of an HTML message) is not \
                 part of it, as mail readers show it",
        rule: Rule::Reads(|_, url| {
            let open = url.rfind('[')?;
            let inner = url[open + 1..].strip_suffix(']')?;
            (!inner.is_empty()
                && inner.len() <= 3
                && inner.bytes().all(|b| b.is_ascii_digit()))
            .then(|| url[..open].to_string())
        }),
    },
    Expected {
        name: "html-markup-between",
        reason: "in HTML the visible text is read without its markup \
                 (HTML 13.2.5.1): a URL whose text is split by tags \
                 (`registration.</a><a href=...>cfm`, as Eudora writes) \
                 is read whole",
        rule: Rule::Ends(|case, url| {
            is_html(case)
                && after(case).iter().find(|c| !b".,;:!?)".contains(c))
                    == Some(&b'<')
                && printed_extending(case, url).next().is_some()
        }),
    },
    Expected {
        name: "xml-namespace",
        reason: "an `xmlns` or `xmlns:*` attribute value is an XML \
                 namespace name (Namespaces in XML 1.0 section 2), an \
                 identifier that nobody follows, not a link",
        rule: Rule::Ends(|case, _| {
            let before = line_before(case);
            let Some(q) =
                before.iter().rposition(|&c| c == b'"' || c == b'\'')
            else {
                return false;
            };
            let head = &before[..q];
            let head =
                head.strip_suffix(b"=3D").or_else(|| head.strip_suffix(b"="));
            head.is_some_and(|h| {
                let h = h.trim_ascii_end();
                let name_start = h
                    .iter()
                    .rposition(|c| c.is_ascii_whitespace() || *c == b'<')
                    .map_or(0, |p| p + 1);
                h[name_start..].to_ascii_lowercase().starts_with(b"xmlns")
            })
        }),
    },
    Expected {
        name: "doctype",
        reason: "the system identifier of a `<!DOCTYPE ...>` names the \
                 document type definition; it is not rendered and not a \
                 link (HTML 13.1.1)",
        rule: Rule::Ends(|case, _| {
            let Some(p) = piece(case) else { return false };
            let before = &p.text.as_bytes()[..case.base.range.start];
            let open = before
                .windows(9)
                .rposition(|w| w.eq_ignore_ascii_case(b"<!DOCTYPE"));
            is_html(case) && open.is_some_and(|o| !before[o..].contains(&b'>'))
        }),
    },
    Expected {
        name: "attribute-name",
        reason: "in broken HTML markup a URL can follow a closed attribute \
                 value inside a tag (`background=\"\"http://...`): a parser \
                 reads it as attribute names, ended by each `/` (HTML \
                 13.2.5.32-33), and no browser shows or opens it; urlx \
                 reads attribute values and text, not names",
        rule: Rule::Ends(|case, _| {
            let Some(p) = piece(case) else { return false };
            let before = &p.text.as_bytes()[..case.base.range.start];
            let Some(lt) = before.iter().rposition(|&c| c == b'<') else {
                return false;
            };
            let tag = &before[lt..];
            let quotes = tag.iter().filter(|&&c| c == b'"').count();
            is_html(case)
                && !tag.contains(&b'>')
                && tag.get(1).is_some_and(u8::is_ascii_alphabetic)
                && !tag.contains(&b'\'')
                && quotes % 2 == 0
                && tag.last() == Some(&b'"')
        }),
    },
    Expected {
        name: "format-flowed",
        reason: "in a `format=flowed` part a line ending in a space goes \
                 on on the next line of the same quote depth (RFC 3676 \
                 4.2; with `delsp=yes` the space is removed): the decoded \
                 text's match at the same place extends the raw one and \
                 is compared in its turn",
        rule: Rule::Ends(|case, url| {
            let soft = after(case).starts_with(b" \n")
                || after(case).starts_with(b" \r\n");
            case.base.src == Src::Raw
                && soft
                && decoded_here(case)
                    .any(|d| d.url.len() > url.len() && d.url.starts_with(url))
        }),
    },
    Expected {
        name: "8-bit-text",
        reason: "bytes that are not UTF-8 are read in the part's charset \
                 (windows-1252 when none is declared); the baseline sees \
                 U+FFFD in the raw bytes. The decoded text's match at the \
                 same place is compared instead",
        rule: Rule::Ends(|case, url| {
            case.base.src == Src::Raw
                && url.contains('\u{FFFD}')
                && decoded_here(case).next().is_some()
        }),
    },
    Expected {
        name: "quoted-printable-soft-break",
        reason: "in a quoted-printable part `=` at a line end is a soft \
                 line break (RFC 2045 6.7 rule 5), also after an `=` that \
                 starts no escape (`#version==` then `3D5,0`, kept \
                 literally, 6.7 note 1): the URL goes on on the next line",
        rule: Rule::Ends(|case, url| {
            let qp = place_piece(case).is_some_and(|p| {
                p.decoded == urlx::mail::mime::Decoded::QuotedPrintable
            });
            let Some(head) = url.strip_suffix('=') else { return false };
            case.base.src == Src::Raw
                && qp
                && (after(case).starts_with(b"\n")
                    || after(case).starts_with(b"\r\n"))
                && printed_extending(case, head).next().is_some()
        }),
    },
];

/// The matches in decoded pieces that start where a raw case's match
/// starts in the input.
fn decoded_here<'c>(case: &'c Case) -> impl Iterator<Item = &'c Base> + 'c {
    let at = case.base.range.start;
    case.all.iter().filter(move |d| match d.src {
        Src::Piece(i) => input_offset(case.unit, i, d.range.start) == at,
        Src::Raw => false,
    })
}

/// The decoded piece a raw case's match lies in (its own piece for a
/// decoded case).
fn place_piece<'c>(case: &'c Case) -> Option<&'c Piece> {
    match case.base.src {
        Src::Piece(i) => case.unit.pieces.get(i),
        Src::Raw => piece_at(case.unit, case.base.range.start),
    }
}

/// The piece whose text comes from input offset `at`.
fn piece_at<'u>(unit: &'u Unit, at: usize) -> Option<&'u Piece> {
    unit.pieces.iter().enumerate().find_map(|(i, p)| {
        (input_offset(unit, i, 0) <= at
            && at < input_offset(unit, i, p.text.len()))
        .then_some(p)
    })
}

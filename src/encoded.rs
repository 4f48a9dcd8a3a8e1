//! Owns the reading of URLs written encoded (opt-in, for security
//! pipelines): percent-encoded as a whole (`http%3A%2F%2Fexample.com%2F`,
//! a URL passed as a query parameter), in base64 (`aHR0cDovL2V4...`) or
//! in hex (`687474703a2f2f...`), as tools such as iocextract find them
//! in logs, scripts and malware configurations.
//!
//! Each form has a trigger that the plain scan never sees, since the
//! `:` of the scheme is encoded too:
//!
//! | form | trigger | text read |
//! | --- | --- | --- |
//! | percent | `%3A%2F%2F` (any case) after a scheme | the scheme, then `%XX` escapes (RFC 3986 section 2.1), unreserved characters (2.3) and `@*+/` (left unencoded by JavaScript's `escape()`), decoded once |
//! | base64 | the characters that `http://`, `https://` or `ftp://` (lower or upper case) give at each of the three byte alignments (RFC 4648 section 4; the URL-safe alphabet of section 5 is read too) | whole four-character groups from the one holding the scheme's first byte, `=` padding at the end |
//! | hex | `687474703a2f2f`, `68747470733a2f2f`, `6674703a2f2f` (any case) | pairs of hex digits from the trigger |
//!
//! The decoded bytes, which start with the scheme, are delimited as bare
//! text with the rules of the plain scan; the first candidate, if it
//! starts there, is the URL. Its extent in the input is the encoded
//! text of its bytes. An encoded URL whose decoded text runs to the end
//! of what was decoded while the encoded text goes on (it would be
//! longer than the length limit), or whose bytes are no UTF-8, is not
//! reported.
//!
//! Base64 wrapped at a fixed width (lines of whole groups, 60 characters
//! or more, as MIME and PEM write it) is read across its line breaks.
//! Where the data stops and more might have followed (a line break before
//! more base64 or hex that is no such wrapping, a last base64 group that
//! does not decode, an odd hex digit), a URL that reaches that point is
//! not reported rather than reported cut short. For that reason two of
//! iocextract's test vectors (`...Y29tI` and `...Y29tba`, a URL followed
//! by a character too many) give nothing here.
//!
//! Encoded URLs are found beside the plain ones, not instead of them: a
//! percent-encoded URL in the query of another URL gives both, so their
//! candidates never shadow other candidates (and are never shadowed).

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use crate::delimit::{Rules, delimit};
pub use crate::hit::Encoding;
use crate::hit::{Candidate, Context};
use crate::lex::{base64_val, hex_val};

/// Bytes before a percent trigger searched for the scheme's start.
const SCHEME_MAX: usize = 32;

/// The trigger patterns: what each stands for.
#[derive(Clone, Copy)]
enum Pattern {
    Percent,
    /// Base64 of a scheme and `://`: the characters fully given by those
    /// bytes start at `phase` (0, 2 or 3) of a four-character group, the
    /// scheme at byte `skip` of the group's three.
    Base64 {
        phase: usize,
        skip: usize,
    },
    Hex,
}

/// Base64 of `http://`, `https://`, `ftp://` and their upper-case forms
/// at byte offsets 0, 1 and 2 of a group: only the characters that the
/// scheme's bytes alone determine (RFC 4648 section 4).
const BASE64_CORES: [(&str, usize); 18] = [
    ("aHR0cDovL", 0),
    ("h0dHA6Ly", 1),
    ("odHRwOi8v", 2),
    ("aHR0cHM6Ly", 0),
    ("h0dHBzOi8v", 1),
    ("odHRwczovL", 2),
    ("ZnRwOi8v", 0),
    ("Z0cDovL", 1),
    ("mdHA6Ly", 2),
    ("SFRUUDovL", 0),
    ("hUVFA6Ly", 1),
    ("IVFRQOi8v", 2),
    ("SFRUUFM6Ly", 0),
    ("hUVFBTOi8v", 1),
    ("IVFRQUzovL", 2),
    ("RlRQOi8v", 0),
    ("ZUUDovL", 1),
    ("GVFA6Ly", 2),
];

/// The length of the longest trigger: `https://` in hex.
const LONGEST: usize = 16;

/// Hex of `http://`, `https://` and `ftp://`, lower case.
const HEX_SCHEMES: [&str; 3] =
    ["687474703a2f2f", "68747470733a2f2f", "6674703a2f2f"];

/// The trigger search, built on first use, and what each pattern is.
fn searcher() -> &'static (AhoCorasick, Vec<Pattern>) {
    static S: OnceLock<(AhoCorasick, Vec<Pattern>)> = OnceLock::new();
    S.get_or_init(|| {
        let mut pats: Vec<String> = Vec::new();
        let mut kinds = Vec::new();
        // Upper and lower case of the letters of `%3a%2f%2f` and of the
        // hex digits (the base64 cores are case-sensitive).
        let cases = |s: &str| -> Vec<String> {
            let mut v = vec![String::new()];
            for c in s.chars() {
                let alts: Vec<char> = if c.is_ascii_alphabetic() {
                    vec![c.to_ascii_lowercase(), c.to_ascii_uppercase()]
                } else {
                    vec![c]
                };
                v = v
                    .iter()
                    .flat_map(|p| alts.iter().map(move |a| format!("{p}{a}")))
                    .collect();
            }
            v
        };
        for p in cases("%3a%2f%2f") {
            pats.push(p);
            kinds.push(Pattern::Percent);
        }
        for (core, skip) in BASE64_CORES {
            let phase = (skip * 4).div_ceil(3);
            pats.push(core.to_string());
            kinds.push(Pattern::Base64 { phase, skip });
        }
        for h in HEX_SCHEMES {
            for p in cases(h) {
                pats.push(p);
                kinds.push(Pattern::Hex);
            }
        }
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostFirst)
            .build(&pats)
            .expect("fixed patterns build");
        (ac, kinds)
    })
}

/// The encoded URLs whose trigger lies in `hay[from..to]`, in order, as
/// candidates of their own (`encoded` set, `cleaned` holding the decoded
/// URL), delimited with `rules`. `hay` should
/// hold [`SCHEME_MAX`] bytes before `from` and `rules.max_len` after
/// `to`, as it does for the plain scan.
pub(crate) fn candidates(
    hay: &[u8],
    from: usize,
    to: usize,
    rules: &Rules,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    // A trigger starting before `to` may end after it.
    let Some(area) = hay.get(..hay.len().min(to + LONGEST - 1)) else {
        return out;
    };
    let (ac, kinds) = searcher();
    let max_len = rules.max_len;
    for m in ac.find_iter(aho_corasick::Input::new(area).range(from..)) {
        let t = m.start();
        if t >= to {
            break;
        }
        let found = match kinds[m.pattern().as_usize()] {
            Pattern::Percent => percent_at(hay, t, max_len),
            Pattern::Base64 { phase, skip } => {
                base64_at(hay, t, phase, skip, max_len)
            }
            Pattern::Hex => hex_at(hay, t, max_len),
        };
        let Some(decoded) = found else { continue };
        if let Some(c) = decoded.candidate(t, rules) {
            out.push(c);
        }
    }
    out
}

/// Decoded text starting with a scheme, and where its bytes are in the
/// input.
struct Decoded {
    kind: Encoding,
    bytes: Vec<u8>,
    /// Offset in the input of each decoded byte's first encoded
    /// character.
    starts: Vec<usize>,
    /// Offset in the input after each decoded byte's last encoded
    /// character (a base64 character can hold bits of two bytes).
    ends: Vec<usize>,
    /// What follows the decoded text may be more of it: the encoded
    /// text goes on past the length limit, or stops where it cannot be
    /// told whether it goes on. A URL that reaches the end is then not
    /// reported (it could be cut short).
    cut: bool,
}

impl Decoded {
    fn new(kind: Encoding) -> Decoded {
        Decoded {
            kind,
            bytes: Vec::new(),
            starts: Vec::new(),
            ends: Vec::new(),
            cut: false,
        }
    }

    /// A decoded byte, written at `start..end` of the input.
    fn push(&mut self, b: u8, start: usize, end: usize) {
        self.bytes.push(b);
        self.starts.push(start);
        self.ends.push(end);
    }

    /// The candidate of the URL at the start of the decoded text.
    fn candidate(&self, trigger: usize, rules: &Rules) -> Option<Candidate> {
        let colon = memchr::memchr(b':', &self.bytes)?;
        let c = delimit(&self.bytes, colon, rules)?;
        if c.start != 0
            || c.too_long
            || (self.cut && c.end == self.bytes.len())
        {
            return None;
        }
        let url = c.text(&self.bytes).to_string();
        if url.is_empty() {
            return None;
        }
        let start = self.starts[c.start];
        let end = self.ends[c.end - 1];
        if end - start > rules.max_len {
            return None;
        }
        Some(Candidate {
            trigger,
            start,
            end,
            resume: trigger + 1,
            context: Context::Bare,
            cleaned: Some(url),
            alternative: None,
            abbrev: None,
            too_long: false,
            encoded: Some(self.kind),
            quick: crate::validate::Known::Unknown,
        })
    }
}

/// What a percent-encoded URL holds unencoded: RFC 3986 section 2.3's
/// unreserved characters, and `@*+/`, which JavaScript's `escape()`
/// leaves as they are too (ECMA-262 B.2.1.1).
fn stays_unencoded(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(b, b'-' | b'.' | b'_' | b'~' | b'@' | b'*' | b'+' | b'/')
}

/// A percent-encoded URL whose `%3A%2F%2F` is at `t`.
fn percent_at(hay: &[u8], t: usize, max_len: usize) -> Option<Decoded> {
    // RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    // The scheme's letters go back to the first byte that is none, or
    // to an escape (`%3Dhttp%3A...`: `=` then the scheme).
    let floor = t.saturating_sub(SCHEME_MAX);
    let escape_before = |s: usize| {
        s >= 3
            && hay[s - 3] == b'%'
            && hex_val(hay[s - 2]).is_some()
            && hex_val(hay[s - 1]).is_some()
    };
    let mut s = t;
    while s > floor
        && crate::scheme::is_scheme_byte(hay[s - 1])
        && !escape_before(s)
    {
        s -= 1;
    }
    while s < t && !hay[s].is_ascii_alphabetic() {
        s += 1;
    }
    if s == t {
        return None;
    }
    let limit = hay.len().min(s.saturating_add(max_len + 1));
    let mut d = Decoded::new(Encoding::Percent);
    let mut i = s;
    while i < limit {
        let b = hay[i];
        if b == b'%'
            && let (Some(hi), Some(lo)) = (
                hay.get(i + 1).copied().and_then(hex_val),
                hay.get(i + 2).copied().and_then(hex_val),
            )
        {
            d.push(hi << 4 | lo, i, i + 3);
            i += 3;
        } else if stays_unencoded(b) {
            d.push(b, i, i + 1);
            i += 1;
        } else {
            break;
        }
    }
    d.cut = i == limit && limit < hay.len();
    Some(d)
}

/// Base64 wrapped at a fixed width (MIME at 76 characters, PEM at 64)
/// has lines of whole groups at least this long.
const WRAPPED_MIN: usize = 60;

/// Where a line break at `i` leads: the start of the next line, if
/// `hay[i..]` is a line break (LF or CRLF).
fn next_line(hay: &[u8], i: usize) -> Option<usize> {
    match hay.get(i..)? {
        [b'\n', ..] => Some(i + 1),
        [b'\r', b'\n', ..] => Some(i + 2),
        _ => None,
    }
}

/// A base64 URL whose core (see [`BASE64_CORES`]) is at `t`, `phase`
/// characters into its group, the scheme `skip` bytes into the group.
///
/// The data goes on over a line break when it was wrapped: the line is
/// base64 from its start, whole groups and at least [`WRAPPED_MIN`]
/// characters long, and the next line starts with base64. Where the
/// data stops at a line break otherwise but the next line starts with
/// base64, or in a last group that cannot be decoded (one character
/// left, or bits set after the last byte: RFC 4648 section 3.5), what
/// follows might have been more of the URL: the text is [`Decoded::cut`].
fn base64_at(
    hay: &[u8],
    t: usize,
    phase: usize,
    skip: usize,
    max_len: usize,
) -> Option<Decoded> {
    let g = t.checked_sub(phase)?;
    if (g..t).any(|i| base64_val(hay[i]).is_none()) {
        return None;
    }
    let limit = hay.len().min(g.saturating_add(max_len + 8));
    // The characters read, with their offsets.
    let mut chars: Vec<(u8, usize)> = Vec::new();
    let line_start =
        hay[..g].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    // The line's base64 from its start so far (`None`: not from its
    // start).
    let mut line = hay[line_start..g]
        .iter()
        .all(|&b| base64_val(b).is_some())
        .then_some(g - line_start);
    let mut cut = false;
    let mut i = g;
    while i < limit {
        if let Some(v) = base64_val(hay[i]) {
            chars.push((v, i));
            line = line.map(|n| n + 1);
            i += 1;
            continue;
        }
        if let Some(next) = next_line(hay, i) {
            let continues =
                hay.get(next).copied().and_then(base64_val).is_some();
            if continues
                && line.is_some_and(|n| n >= WRAPPED_MIN && n % 4 == 0)
            {
                i = next;
                line = Some(0);
                continue;
            }
            cut |= continues;
        }
        break;
    }
    cut |= i == limit
        && limit < hay.len()
        && hay.get(i).copied().and_then(base64_val).is_some();
    let mut d = Decoded::new(Encoding::Base64);
    for group in chars.chunks(4) {
        let v = |k: usize| u32::from(group.get(k).map_or(0, |c| c.0));
        let word = v(0) << 18 | v(1) << 12 | v(2) << 6 | v(3);
        // Bytes in the group: 3, or for a last short group (its `=`
        // padding, if any, left unread) 1 or 2 whose unused bits are 0.
        let n = match group.len() {
            4 => 3,
            3 if word & 0xFF == 0 => 2,
            2 if word & 0xFFFF == 0 => 1,
            _ => {
                cut = true;
                break;
            }
        };
        for k in 0..n {
            // Byte k's bits are 8k..8k+8 of the group's 24: characters
            // 8k/6 to (8k+7)/6.
            let (first, last) = (group[8 * k / 6].1, group[(8 * k + 7) / 6].1);
            d.push((word >> (16 - 8 * k)) as u8, first, last + 1);
        }
    }
    d.cut = cut;
    if d.bytes.len() <= skip {
        return None;
    }
    d.bytes.drain(..skip);
    d.starts.drain(..skip);
    d.ends.drain(..skip);
    Some(d)
}

/// A hex URL starting at `t`. Hex that stops at a line break before more
/// hex, or after an odd digit, is [`Decoded::cut`].
fn hex_at(hay: &[u8], t: usize, max_len: usize) -> Option<Decoded> {
    let limit = hay.len().min(t.saturating_add(max_len + 2));
    let mut d = Decoded::new(Encoding::Hex);
    let mut i = t;
    while i + 2 <= limit {
        let (Some(hi), Some(lo)) = (hex_val(hay[i]), hex_val(hay[i + 1]))
        else {
            break;
        };
        d.push(hi << 4 | lo, i, i + 2);
        i += 2;
    }
    // An odd digit, the length limit, or more hex on the next line.
    let is_hex = |k: usize| hay.get(k).copied().and_then(hex_val).is_some();
    d.cut = is_hex(i) || next_line(hay, i).is_some_and(is_hex);
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules { max_len: 2048, opaque: None, refang: false }
    }

    /// (decoded URL, encoding, encoded text) of each encoded URL.
    fn found(text: &str) -> Vec<(String, &'static str, String)> {
        let hay = text.as_bytes();
        candidates(hay, 0, hay.len(), &rules())
            .into_iter()
            .map(|c| {
                (
                    c.cleaned.clone().unwrap_or_default(),
                    c.encoded.map_or("", Encoding::as_str),
                    text[c.start..c.end].to_string(),
                )
            })
            .collect()
    }

    /// The valid encoded URLs the whole pipeline finds in `text`.
    fn urls(text: &str) -> Vec<String> {
        let ex = crate::Extractor::builder().encoded(true).build().unwrap();
        ex.find(text.as_bytes())
            .iter()
            .filter(|h| h.encoded().is_some() && h.is_valid())
            .map(|h| h.url().to_string())
            .collect()
    }

    fn b64(s: &[u8]) -> String {
        const A: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for ch in s.chunks(3) {
            let mut w = [0u8; 3];
            w[..ch.len()].copy_from_slice(ch);
            let n =
                u32::from(w[0]) << 16 | u32::from(w[1]) << 8 | u32::from(w[2]);
            for k in 0..4 {
                if k <= ch.len() {
                    out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    fn hex(s: &str) -> String {
        s.bytes().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn longest_trigger() {
        let (ac, _) = searcher();
        assert_eq!(ac.max_pattern_len(), LONGEST);
    }

    #[test]
    fn cores_are_the_encodings_of_the_schemes() {
        for (core, skip) in BASE64_CORES {
            let phase = (skip * 4).div_ceil(3);
            let scheme = ["http://", "https://", "ftp://"]
                .into_iter()
                .flat_map(|s| [s.to_string(), s.to_ascii_uppercase()])
                .find(|s| {
                    let mut data = vec![b'x'; skip];
                    data.extend_from_slice(s.as_bytes());
                    b64(&data)[phase..].starts_with(core)
                });
            assert!(scheme.is_some(), "{core}");
        }
    }

    // iocextract's tests (InQuest/iocextract, tests.py,
    // test_urlencoded_url_extraction): input and the URL it decodes to.
    #[test]
    fn iocextract_percent() {
        assert_eq!(
            found(r#"rget="http%3A%2F%2Fexample%2Ecom%2Fwhite%2Ehta"/>"#),
            [(
                "http://example.com/white.hta".to_string(),
                "percent",
                "http%3A%2F%2Fexample%2Ecom%2Fwhite%2Ehta".to_string()
            )]
        );
        assert_eq!(urls("http%3A%2F%2Fexample%2Ecom"), ["http://example.com"]);
        assert_eq!(
            urls("http%3A%2F%2Fexa-mple%2Ecom"),
            ["http://exa-mple.com"]
        );
    }

    // iocextract, test_hex_url_extraction (the vectors without
    // whitespace: hex split by whitespace is not read here).
    #[test]
    fn iocextract_hex() {
        let u = "http://example.com/pa_th.doc?q=a#b";
        assert_eq!(urls(&hex(u)), [u]);
        assert_eq!(urls(&hex(u).to_uppercase()), [u]);
        assert_eq!(
            urls(&hex("wordshttp://example.com/pa_th.doc?q=a#b words")),
            [u]
        );
    }

    // iocextract, test_b64_url_extraction_just_url and
    // test_b64_url_extraction_with_wrappers: the URL at each byte offset,
    // with text around it.
    #[test]
    fn iocextract_base64() {
        for s in [
            "http://example.com",
            "http://example.com/some/url",
            "ftp://example.com/some/url",
        ] {
            assert_eq!(urls(&b64(s.as_bytes())), [s], "{s}");
        }
        for s in [
            &b"  http://example.com/test "[..],
            b"words in front  http://example.com/test ",
            b"  http://example.com/test words after",
            b"  http://example.com/test\x99\x80 ",
            b"sadasdasdasdhttp://example.com/test ",
            b"adasdasdasdhttp://example.com/test ",
            b"dasdasdasdhttp://example.com/test ",
            b"asdasdasdhttp://example.com/test ",
            b"sdasdasdhttp://example.com/test ",
            b"reallylongreallylongreallylongreallylongreallylongreallylongreallylonghttp://example.com/test reallylong",
        ] {
            assert_eq!(
                urls(&b64(s)),
                ["http://example.com/test"],
                "{}",
                String::from_utf8_lossy(s)
            );
        }
    }

    // iocextract, test_b64_url_extraction_bad_pad.
    #[test]
    fn iocextract_base64_padding() {
        for s in [
            "aHR0cDovL2V4YW1wbGUuY29t",
            "aHR0cDovL2V4YW1wbGUuY29tIA==",
            "aHR0cDovL2V4YW1wbGUuY29tICA=",
            "aHR0cDovL2V4YW1wbGUuY29tICAg",
            "aHR0cDovL2V4YW1wbGUuY29t=",
            "aHR0cDovL2V4YW1wbGUuY29tIA=",
            "aHR0cDovL2V4YW1wbGUuY29tICA",
        ] {
            assert_eq!(urls(s), ["http://example.com"], "{s}");
        }
        // A character left over (`I`: the next byte could be `#`, part
        // of the URL) and a group with bits after its byte (`ba` is `m`
        // and two bits): what follows the URL is not known, so it is not
        // reported (iocextract gives http://example.com).
        for s in ["aHR0cDovL2V4YW1wbGUuY29tI", "aHR0cDovL2V4YW1wbGUuY29tba"] {
            assert!(urls(s).is_empty(), "{s}");
        }
        // Unpadded base64 of a URL is read to its last byte.
        assert_eq!(
            urls("aHR0cDovL2EuZXhhbXBsZS5jb20"),
            ["http://a.example.com"]
        );
    }

    #[test]
    fn wrapped_base64() {
        // MIME wraps at 76 characters: the URL goes on on the next line.
        let text = b64(format!(
            "{}<a href=\"http://www.example.com/cgi-bin/page?x=1\">",
            "x".repeat(40)
        )
        .as_bytes());
        assert!(text.len() > 76);
        let wrapped = format!("{}\r\n{}\r\n", &text[..76], &text[76..]);
        assert_eq!(
            urls(&wrapped),
            ["http://www.example.com/cgi-bin/page?x=1"]
        );
        // A short line is no wrapping: the URL that reaches its end is
        // not reported, nor what the next line decodes to.
        let text =
            b64(b"<a href=\"http://www.example.com/cgi-bin/page?x=1\">");
        assert_eq!(urls(&text), ["http://www.example.com/cgi-bin/page?x=1"]);
        let (a, b) = text.split_at(40);
        assert!(urls(&format!("{a}\n{b}")).is_empty());
    }

    #[test]
    fn hex_that_may_go_on() {
        let h = hex("http://a.example/xy");
        // An odd digit, or hex on the next line: not reported.
        assert!(urls(&format!("{h}6")).is_empty());
        assert!(urls(&format!("{}\n{}", &h[..30], &h[30..])).is_empty());
        assert_eq!(urls(&format!("{h}\nnext")), ["http://a.example/xy"]);
    }

    #[test]
    fn extent_is_the_encoded_text_of_the_url() {
        // The URL's bytes are the 2nd to 19th of the blob.
        let blob = b64(b"  http://example.com/ x");
        let text = format!("key={blob};");
        let f = found(&text);
        assert_eq!(f.len(), 1);
        let (url, kind, written) = &f[0];
        assert_eq!((url.as_str(), *kind), ("http://example.com/", "base64"));
        // Bytes 2 to 20 are bits 16 to 167: characters 2 to 27.
        assert_eq!(written, &blob[2..28]);
        let h = format!("x={}&y", hex("https://a.example/p"));
        assert_eq!(found(&h)[0].2, hex("https://a.example/p"));
    }

    #[test]
    fn inside_a_url_query() {
        // A tracker's link: the target, encoded, ends at the next `&`.
        let text =
            "https://t.example/r?u=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&k=2";
        assert_eq!(urls(text), ["https://a.example/x?y=1"]);
        // Lower-case escapes, and an escape of the target's own.
        assert_eq!(
            urls("to=http%3a%2f%2fa.example%2fx%3fq%3da%2520b"),
            ["http://a.example/x?q=a%20b"]
        );
        // After an escape (SpamAssassin spam_2/00515, a tracker's
        // `url%3Dhttp%3A...`): the scheme starts after it.
        assert_eq!(
            urls("r?x=1%26url%3Dhttp%3A%2F%2Fa.example%2Fi.html"),
            ["http://a.example/i.html"]
        );
        assert_eq!(urls("%2Fhttp%3A%2F%2Fa.example"), ["http://a.example"]);
        // JavaScript's escape() (same message): `/` and `@` unencoded.
        assert_eq!(
            urls(
                "%27%3Fredirect%3Dhttp%3A%2F%2F326841526%2Findex.html@0002%20x"
            ),
            ["http://326841526/index.html@0002"]
        );
    }

    #[test]
    fn not_encoded_urls() {
        for s in [
            "%3A%2F%2Fa.example",  // no scheme
            "1%3A%2F%2Fa.example", // a scheme starts with a letter
            "aHR0cDovL",           // only the scheme
            "687474703a2f2f",      // only the scheme
            "http%3A%2F%2F",       // only the scheme
            "68747470%3a2f2f",     // neither
        ] {
            assert_eq!(urls(s), Vec::<String>::new(), "{s}");
        }
    }

    #[test]
    fn cut_by_the_length_limit() {
        // Longer than the default limit, 8192 bytes.
        let long = format!("http://a.example/{}", "x".repeat(9000));
        assert!(urls(&b64(long.as_bytes())).is_empty());
        assert!(urls(&hex(&long)).is_empty());
        let pct = format!("http%3A%2F%2Fa.example%2F{}", "x".repeat(9000));
        assert!(urls(&pct).is_empty());
    }

    #[test]
    fn triggers_outside_the_range_are_left() {
        let text = format!(
            "{} {}",
            hex("http://a.example/"),
            hex("http://b.example/")
        );
        let hay = text.as_bytes();
        let mid = text.find(' ').unwrap();
        let first = candidates(hay, 0, mid, &rules());
        let second = candidates(hay, mid, hay.len(), &rules());
        assert_eq!(first.len(), 1);
        assert_eq!(second.len(), 1);
        assert_eq!(second[0].cleaned.as_deref(), Some("http://b.example/"));
    }
}

//! Structured header field values (RFC 2045 5.1): the media type and its
//! parameters, quoted strings, and RFC 2231 parameter continuations and
//! charsets.

use encoding_rs::{Encoding, UTF_8};

/// Most RFC 2231 continuation sections joined for one parameter.
const MAX_SECTIONS: usize = 128;

/// Most `;`-separated segments read from one structured field after
/// its main value (empty ones aside).
const MAX_PARAMS: usize = 1024;

/// Parameters of a structured header field, names lowercased.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Params {
    pub(super) list: Vec<(String, String)>,
}

impl Params {
    pub(super) fn get(&self, name: &str) -> Option<String> {
        self.value(name).map(str::to_string)
    }

    /// [`Params::get`], borrowed.
    pub(super) fn value(&self, name: &str) -> Option<&str> {
        self.list.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Splits `type/subtype; a=b; c="d"` into the lowercased main value
/// (whitespace and comments removed) and its parameters.
pub(super) fn parse_structured(value: &str) -> (String, Params) {
    structured(value, true)
}

/// The main value of [`parse_structured`] alone, its parameters not
/// read (`Content-Transfer-Encoding`, `Content-Disposition`).
pub(super) fn structured_main(value: &str) -> String {
    structured(value, false).0
}

/// [`parse_structured`], reading the parameters if `params`.
fn structured(value: &str, params: bool) -> (String, Params) {
    // Comments are dropped and quoted strings kept as written; the
    // segments between `;` are ranges of the one copy, so a value of n
    // bytes costs O(n) however many `;` it holds.
    let mut text = String::with_capacity(value.len());
    // Room for the cuts of a usual field (a few parameters) at once.
    let mut cuts: Vec<usize> = Vec::with_capacity(4);
    // Whether the segment read so far is only whitespace: such segments
    // (`a/b; ;;`) hold no parameter and are dropped as they end.
    let mut blank = true;
    let mut quoted = false;
    let mut comment = 0usize;
    // Read by bytes: every byte that matters here is ASCII, which is
    // never part of a longer UTF-8 sequence, so each run copied ends at
    // a character boundary.
    let b = value.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if quoted {
            // Up to and with the closing quote, as written; a backslash
            // quotes the character after it.
            let mut j = i;
            while let Some(&c) = b.get(j) {
                j += if c == b'\\' { 2 } else { 1 };
                if c == b'"' {
                    quoted = false;
                    break;
                }
            }
            let j = j.min(b.len());
            text.push_str(value.get(i..j).unwrap_or(""));
            i = j;
            continue;
        }
        let c = b[i];
        i += 1;
        if comment > 0 {
            match c {
                b'(' => comment += 1,
                b')' => comment -= 1,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => {
                quoted = true;
                blank = false;
                text.push('"');
            }
            b'(' => comment = 1,
            b';' if blank && !cuts.is_empty() => {
                text.truncate(cuts.last().copied().unwrap_or(0));
            }
            b';' => {
                // Joining parameters compares each with the others: past
                // this many (no real field comes near) the rest is not
                // read. Without the parameters, the main value ends here.
                if cuts.len() == MAX_PARAMS || !params {
                    break;
                }
                cuts.push(text.len());
                blank = true;
            }
            _ => {
                // A run of other characters, copied at once. Past the
                // first that is not whitespace, the segment is not blank.
                let s = i - 1;
                let rest = b.get(i..).unwrap_or(&[]);
                i += rest
                    .iter()
                    .position(|c| matches!(c, b'"' | b'(' | b';'))
                    .unwrap_or(rest.len());
                let run = value.get(s..i).unwrap_or("");
                blank = blank && run.chars().all(char::is_whitespace);
                text.push_str(run);
            }
        }
    }
    cuts.push(text.len());
    let mut from = 0;
    let mut iter = cuts.iter().map(|&to| {
        let seg = &text[from..to];
        from = to;
        seg
    });
    let first = iter.next().unwrap_or_default();
    let mut main = String::with_capacity(first.len());
    main.extend(first.chars().filter(|c| !c.is_whitespace()));
    main.make_ascii_lowercase();
    // (base name, section, extended, value)
    let mut raw_params: Vec<(String, Option<usize>, bool, String)> =
        Vec::with_capacity(cuts.len() - 1);
    for seg in iter {
        let Some((name, val)) = seg.split_once('=') else { continue };
        let name = name.trim().to_ascii_lowercase();
        let val = unquote(val.trim());
        let (name, extended) = match name.strip_suffix('*') {
            Some(n) => (n.to_string(), true),
            None => (name, false),
        };
        let (base, section) = match name.split_once('*') {
            Some((b, n)) => match n.parse::<usize>() {
                Ok(n) => (b.to_string(), Some(n)),
                Err(_) => (name.clone(), None),
            },
            None => (name, None),
        };
        if !base.is_empty() {
            raw_params.push((base, section, extended, val));
        }
    }
    let mut params = Params { list: Vec::with_capacity(raw_params.len()) };
    for i in 0..raw_params.len() {
        let base = &raw_params[i].0;
        if params.list.iter().any(|(n, _)| n == base) {
            continue;
        }
        let rfc2231 = raw_params
            .iter()
            .any(|(b, s, e, _)| b == base && (s.is_some() || *e));
        // An RFC 2231 form wins over a plain value beside it. A plain
        // parameter's value is taken: no other parameter reads it.
        let value = if rfc2231 {
            join_2231(base, &raw_params)
                .unwrap_or_else(|| raw_params[i].3.clone())
        } else {
            std::mem::take(&mut raw_params[i].3)
        };
        // The name is taken too: a later parameter of this name is
        // skipped above, and an emptied name equals no other.
        params.list.push((std::mem::take(&mut raw_params[i].0), value));
    }
    (main, params)
}

pub(super) fn unquote(v: &str) -> String {
    let Some(inner) = v.strip_prefix('"') else { return v.to_string() };
    let mut out = String::with_capacity(inner.len());
    let mut escaped = false;
    for c in inner.chars() {
        if escaped {
            out.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

/// Joins the RFC 2231 sections of parameter `base` (`name*=` or
/// `name*0*=`, `name*1=`, ...) and decodes them.
pub(super) fn join_2231(
    base: &str,
    all: &[(String, Option<usize>, bool, String)],
) -> Option<String> {
    let mut bytes = Vec::new();
    let mut charset: Option<String> = None;
    let single =
        all.iter().find(|(b, s, e, _)| b == base && s.is_none() && *e);
    let mut sections: Vec<(usize, bool, &str)> = Vec::new();
    if let Some((_, _, _, v)) = single {
        sections.push((0, true, v));
    } else {
        for n in 0..MAX_SECTIONS {
            let Some((_, _, e, v)) =
                all.iter().find(|(b, s, _, _)| b == base && *s == Some(n))
            else {
                break;
            };
            sections.push((n, *e, v));
        }
    }
    if sections.is_empty() {
        return None;
    }
    for (n, extended, v) in sections {
        if !extended {
            bytes.extend_from_slice(v.as_bytes());
            continue;
        }
        let mut v = v;
        if n == 0 {
            let mut it = v.splitn(3, '\'');
            if let (Some(cs), Some(_lang), Some(rest)) =
                (it.next(), it.next(), it.next())
            {
                charset = Some(cs.to_string());
                v = rest;
            }
        }
        bytes.extend(unescape(v.as_bytes(), b'%', false));
    }
    let enc = charset
        .as_deref()
        .filter(|c| !is_ascii_label(c))
        .and_then(|c| Encoding::for_label(c.as_bytes()))
        .unwrap_or(UTF_8);
    Some(enc.decode_without_bom_handling(&bytes).0.into_owned())
}

pub(super) fn hex_pair(a: Option<&u8>, b: Option<&u8>) -> Option<u8> {
    let hex = crate::lex::hex_val;
    Some(hex(*a?)? << 4 | hex(*b?)?)
}

/// `v` with each `marker` followed by two hex digits decoded (`%41` in
/// RFC 2231 values, `=41` in RFC 2047 Q words, where `_` is also a
/// space when `underscore_space`); anything else is kept as it is.
pub(super) fn unescape(
    v: &[u8],
    marker: u8,
    underscore_space: bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while let Some(&c) = v.get(i) {
        let pair = if c == marker {
            hex_pair(v.get(i + 1), v.get(i + 2))
        } else {
            None
        };
        if let Some(b) = pair {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(if underscore_space && c == b'_' { b' ' } else { c });
        i += 1;
    }
    out
}

/// The field name of a header line and the index of its colon.
pub(super) fn field_name(line: &[u8]) -> Option<(&str, usize)> {
    let colon = crate::sieve::find_byte(line, b':')?;
    let name = line.get(..colon)?;
    let trimmed_len = name
        .iter()
        .rposition(|&c| c != b' ' && c != b'\t')
        .map_or(0, |i| i + 1);
    let name = name.get(..trimmed_len)?;
    if name.is_empty() || !printable(name) {
        return None;
    }
    // Printable ASCII: UTF-8 as it is.
    Some((crate::sieve::ascii_str(name)?, colon))
}

/// Whether every byte of `b` is printable ASCII (33 to 126, RFC 5322
/// 2.2: a field name's bytes), eight bytes a step.
fn printable(b: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    // A byte under 33 borrows in `x - 33` where its own high bit is
    // clear; a byte over 126 has its high bit set in `x + 1` or in `x`
    // (a carry out of a byte of 255 sets no bit this test needs).
    let outside = |x: u64| {
        (x.wrapping_sub(ONES * 33) & !x | x.wrapping_add(ONES) | x) & HIGH != 0
    };
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().unwrap_or_default());
        if outside(x) {
            return false;
        }
    }
    words.remainder().iter().all(|&c| (33..=126).contains(&c))
}

pub(super) fn is_media_type(s: &str) -> bool {
    let tok = |t: &str| {
        !t.is_empty()
            && t.bytes().all(|c| {
                c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c)
            })
    };
    s.split_once('/').is_some_and(|(a, b)| tok(a) && tok(b))
}

pub(super) fn is_ascii_label(l: &str) -> bool {
    let l = l.trim();
    ["", "us-ascii", "ascii", "ansi_x3.4-1968", "us", "iso646-us"]
        .iter()
        .any(|a| l.eq_ignore_ascii_case(a))
}

/// A `Content-Base` or `Content-Location` value: whitespace removed
/// (section 5.1.1 of the url-syntax draft), `<...>` and quotes dropped.
pub(super) fn uri_value(value: &str) -> String {
    let s: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    let s =
        s.strip_prefix('<').and_then(|t| t.strip_suffix('>')).unwrap_or(&s);
    let s = s.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(s);
    s.to_string()
}

pub(super) fn message_id(value: &str) -> Option<String> {
    let v = value.trim();
    let id = match (v.find('<'), v.find('>')) {
        (Some(a), Some(b)) if a < b => v.get(a + 1..b).unwrap_or(""),
        _ => v,
    };
    let id = id.trim();
    if id.is_empty() { None } else { Some(id.to_string()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight bytes a step, every byte is tested as one at a time:
    /// every byte value at every place of words of every length to 20,
    /// next to printable bytes and to the other extremes.
    #[test]
    fn printable_is_each_byte_printable() {
        for len in 1..=20 {
            for at in 0..len {
                for c in 0..=255u8 {
                    for fill in [b'a', b'!', b'~', b' ', 0x7f, 0xff, 0] {
                        let mut b = vec![fill; len];
                        b[at] = c;
                        let want = b.iter().all(|&c| (33..=126).contains(&c));
                        assert_eq!(printable(&b), want, "{b:?}");
                    }
                }
            }
        }
        // Several bytes at the edges at once, where a borrow or a carry
        // crosses from one byte to the next.
        let edges = [0, 1, 32, 33, 34, 125, 126, 127, 128, 255];
        let mut next = crate::testing::xorshift(0x9e1f_ab1e);
        for _ in 0..200_000 {
            let b: Vec<u8> = (0..1 + next() % 24)
                .map(|_| edges[next() as usize % edges.len()])
                .collect();
            let want = b.iter().all(|&c| (33..=126).contains(&c));
            assert_eq!(printable(&b), want, "{b:?}");
        }
    }
}

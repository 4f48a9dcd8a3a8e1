//! Content transfer encodings (RFC 2045 6): quoted-printable, including
//! recognising a body that is plainly quoted-printable though not
//! declared so, and base64.

use super::params::*;
use crate::lex::find_short;
use crate::mail::charset::Charset;
use crate::mail::offsets::{MapBuilder, OffsetMap};
use memchr::memmem;
use std::sync::LazyLock;

/// The searcher for an encoded `=`, built once (every body is searched).
static ENCODED_EQ: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"=3D"));

/// Whether a body not declared quoted-printable plainly is, judged only
/// on evidence no unencoded text gives by chance, because a wrong guess
/// would change URLs that are right as written (`?q=da-x` would become
/// `?q\u{da}-x`):
///
/// - every `=` is one an encoder writes (RFC 2045 6.7): a soft line
///   break (`=` before the line end, rule 5, transport padding allowed)
///   or `=` and two hexadecimal digits in uppercase, as rule 1 requires
///   of encoders (a lowercase pair, `=0 ` or `="` rules the guess out);
/// - there is an encoded `=` (`=3D`, which rule 1 makes every encoder
///   write for a literal `=`) and a soft line break;
/// - no escape inside a `scheme://` run (up to whitespace, a quote or
///   `<` `>`) decodes to anything but printable ASCII: an encoded URL
///   decodes to a URL (RFC 3986 section 2 allows only those characters),
///   while `?id=C3FF` written as is would decode to bytes no URL has.
///
/// Lines of MIME structure are not looked at: a delimiter line (`--`
/// and a boundary, RFC 2046 5.1.1) and the header fields that follow
/// it. They are found in the body of a multipart whose own
/// `Content-Type` was lost (the body is then read as one text, its
/// parts' bodies encoded, their delimiters and headers not).
///
/// `encoded_eq` says whether `body` holds a `=3D`, where that is known
/// already (see [`equal_signs`]); it is searched for otherwise.
pub(super) fn looks_quoted_printable(
    body: &[u8],
    encoded_eq: Option<bool>,
) -> bool {
    // Most bodies have no `=3D`: no need to read them line by line.
    if !encoded_eq.unwrap_or_else(|| ENCODED_EQ.find(body).is_some()) {
        return false;
    }
    let mut encoded_eq = false;
    let mut soft = false;
    // Whether the `=` being looked at is inside a `scheme://` run.
    let mut in_url = false;
    let mut in_part_header = false;
    let mut start = 0;
    while start < body.len() {
        let rest = body.get(start..).unwrap_or(&[]);
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let line = rest.get(..end).unwrap_or(&[]);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        start += end + 1;
        if in_part_header {
            in_part_header = !line.is_empty();
            continue;
        }
        if is_delimiter_line(line) {
            let next = body.get(start..).unwrap_or(&[]);
            let next = next.split(|&c| c == b'\n').next().unwrap_or(&[]);
            in_part_header = field_name(next).is_some();
            in_url = false;
            continue;
        }
        let mut read = 0;
        let mut soft_here = false;
        for i in memchr::memchr_iter(b'=', line) {
            let before = line.get(read..i).unwrap_or(&[]);
            in_url = url_run_continues(before, in_url);
            let after = line.get(i + 1..).unwrap_or(&[]);
            if after.iter().all(|&c| c == b' ' || c == b'\t') {
                // A soft break: the run goes on after the line end.
                soft_here = true;
                break;
            }
            let upper = |c: Option<&u8>| {
                c.is_some_and(|c| matches!(c, b'0'..=b'9' | b'A'..=b'F'))
            };
            let (a, b) = (line.get(i + 1), line.get(i + 2));
            let Some(v) = hex_pair(a, b).filter(|_| upper(a) && upper(b))
            else {
                return false;
            };
            if in_url && !(0x21..=0x7e).contains(&v) {
                return false;
            }
            encoded_eq |= v == b'=';
            read = i + 3;
        }
        soft |= soft_here;
        in_url &= soft_here;
    }
    encoded_eq && soft
}

/// A multipart delimiter line: `--` and a boundary without whitespace
/// (RFC 2046 5.1.1; trailing whitespace allowed).
pub(super) fn is_delimiter_line(line: &[u8]) -> bool {
    let rest = line.strip_prefix(b"--").unwrap_or(&[]).trim_ascii_end();
    !rest.is_empty() && !rest.iter().any(|&c| c == b' ' || c == b'\t')
}

/// Whether a `scheme://` run that was open (`open`) before `bytes`, or
/// starts in them, is still open after them: a run starts at `://` and
/// ends at whitespace, a quote, `<` or `>`.
pub(super) fn url_run_continues(bytes: &[u8], open: bool) -> bool {
    match crate::sieve::rfind_in(bytes, &RUN_STOP) {
        Some(d) => find_short(bytes.get(d..).unwrap_or(&[]), b"://").is_some(),
        None => open || find_short(bytes, b"://").is_some(),
    }
}

/// The bytes that end a `scheme://` run for [`url_run_continues`].
static RUN_STOP: [u8; 128] = {
    let mut t = [0u8; 128];
    let stops = b" \t\r\n\"'<>";
    let mut k = 0;
    while k < stops.len() {
        t[stops[k] as usize] = 1;
        k += 1;
    }
    t
};

/// Decodes quoted-printable `body` (at raw offset `base`). Returns the
/// bytes, their map, and whether the input was valid.
pub(super) fn decode_qp(
    body: &[u8],
    base: usize,
) -> (Vec<u8>, OffsetMap, bool) {
    decode_qp_in(body, base, None)
}

/// [`decode_qp`] of the text of a part in `charset`: in a charset that
/// switches sets with control characters (ISO 2022: ISO-2022-JP's ESC,
/// ISO-2022-KR's and -CN's SO and SI too), an escape of a shift
/// ([`is_shift`]) decodes inside a `scheme://` run as well. The encoder
/// had to write them so (RFC 2045 6.7, rules 1 and 2), and they are the
/// charset's, not a URL's: Japanese text right after a URL starts with
/// `=1B$B`.
pub(super) fn decode_qp_in(
    body: &[u8],
    base: usize,
    charset: Option<Charset>,
) -> (Vec<u8>, OffsetMap, bool) {
    let shifts = charset.is_some_and(Charset::shifts_by_controls);
    decode_qp_by(body, base, shifts, true)
}

/// [`decode_qp`]; with `runs` false every escape takes the full test
/// (what the shortcut for a run of escapes must agree with).
fn decode_qp_by(
    body: &[u8],
    base: usize,
    shifts: bool,
    runs: bool,
) -> (Vec<u8>, OffsetMap, bool) {
    let mut out = Vec::with_capacity(body.len());
    // An anchor for each line and for each escape between runs: room
    // for a usual body's at once (more are added as they come).
    let mut b = MapBuilder::with_capacity((body.len() / 64).min(4096) + 4);
    let mut clean = true;
    // Whether `out[..known]` ends inside a `scheme://` run (no
    // whitespace since its `://`): brought up to date only for an
    // escape that decodes unless it is in one (few: see `url_escape`).
    let (mut in_url, mut known) = (false, 0usize);
    let mut i = 0;
    while i < body.len() {
        let rest = body.get(i..).unwrap_or(&[]);
        let run = crate::sieve::find_byte(rest, b'=').unwrap_or(rest.len());
        if run > 0 {
            b.push(out.len(), base + i, true);
            out.extend_from_slice(rest.get(..run).unwrap_or(&[]));
            i += run;
            continue;
        }
        // body[i] is '='.
        if let Some(next) = soft_break_end(body, i) {
            i = next;
            continue;
        }
        let escape = hex_pair(body.get(i + 1), body.get(i + 2)).filter(|&v| {
            url_escape(&body[i + 1..i + 3], v)
                || shifts && is_shift(body, i, v)
                || {
                    // Two bytes read again: a `://` across the edge.
                    let from = known.saturating_sub(2);
                    in_url = url_run_continues(&out[from..], in_url);
                    known = out.len();
                    !in_url
                }
        });
        if let Some(v) = escape {
            b.push_ratio(out.len(), base + i, 3, 1);
            out.push(v);
            i += 3;
            // Escapes right after it that decode wherever they are go on
            // the same anchor (text in a charset of 8-bit bytes is mostly
            // escapes): no soft line break, no URL state to look at.
            while runs
                && let Some(&[b'=', h, l]) = body.get(i..i + 3)
                && let Some(v) = hex_pair(Some(&h), Some(&l))
                && url_escape(&[h, l], v)
            {
                out.push(v);
                i += 3;
            }
        } else {
            clean = false;
            b.push(out.len(), base + i, true);
            out.push(b'=');
            i += 1;
        }
    }
    (out, b.finish(base), clean)
}

/// Whether the escape at `body[i]` (value `v`) is a shift of an ISO 2022
/// charset: SO or SI, or ESC starting an escape sequence (`$` or `(`
/// next, RFC 1468, 1557, 1922), after any soft line breaks and written
/// as itself or escaped. A lone `=1B` (`?x=1B`) is not.
fn is_shift(body: &[u8], i: usize, v: u8) -> bool {
    match v {
        0x0e | 0x0f => true,
        0x1b => matches!(byte_after_escape(body, i + 3), Some(b'$' | b'(')),
        _ => false,
    }
}

/// The byte the quoted-printable text from `body[j]` on starts with:
/// past soft line breaks, an escape's value.
fn byte_after_escape(body: &[u8], mut j: usize) -> Option<u8> {
    while body.get(j) == Some(&b'=') {
        match soft_break_end(body, j) {
            Some(next) => j = next,
            None => {
                return hex_pair(body.get(j + 1), body.get(j + 2))
                    .or(Some(b'='));
            }
        }
    }
    body.get(j).copied()
}

/// What a body taken as written holds after its `=` bytes: an encoded
/// `=` (`=3D`, see [`looks_quoted_printable`]) and the start of a yEnc
/// block's header line (`=ybegin `, see `yenc_blocks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct EqualSigns {
    pub(super) encoded_eq: bool,
    pub(super) ybegin: bool,
}

/// The [`EqualSigns`] of `body`, in one pass over its `=` bytes (a text
/// body holds few) instead of a search for each.
pub(super) fn equal_signs(body: &[u8]) -> EqualSigns {
    let mut signs = EqualSigns { encoded_eq: false, ybegin: false };
    for i in crate::sieve::byte_positions(body, b'=') {
        let after = body.get(i + 1..).unwrap_or_default();
        signs.encoded_eq |= after.starts_with(b"3D");
        signs.ybegin |= after.starts_with(b"ybegin ");
        if signs.encoded_eq && signs.ybegin {
            break;
        }
    }
    signs
}

/// Where the text resumes after the soft line break at `body[i]` (an
/// `=`, spaces or tabs, then a line end or the end of the body: RFC 2045
/// 6.7 (3), (5)); `None` where the `=` there starts none.
fn soft_break_end(body: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while matches!(body.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    match (body.get(j), body.get(j + 1)) {
        (Some(b'\r'), Some(b'\n')) => Some(j + 2),
        (Some(b'\n'), _) | (None, _) => Some(j + 1),
        _ => None,
    }
}

/// Whether the escape `=` `hex` (value `v`) inside a URL was written by
/// a quoted-printable encoder: upper-case hex (RFC 2045 6.7 (1): "must
/// be used") and a byte that is text, not a control. Otherwise it is a
/// `=` of the URL that its writer left unencoded (`?id=dcx007`,
/// `?spam_id=100115`) and stays as written.
pub(super) fn url_escape(hex: &[u8], v: u8) -> bool {
    !hex.iter().any(u8::is_ascii_lowercase)
        && (v >= 0x20 && v != 0x7F || matches!(v, b'\t' | b'\r' | b'\n'))
}

/// What each byte is to base64 in MIME (RFC 2045 6.8): its value in the
/// alphabet (0 to 63; not the URL-safe `-` and `_`), [`B64_PAD`] for `=`,
/// [`B64_SPACE`] for ASCII whitespace, [`B64_OTHER`] for anything else.
const B64: [u8; 256] = {
    let mut t = [B64_OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        if let Some(v) = crate::lex::base64_val(c)
            && c != b'-'
            && c != b'_'
        {
            t[i] = v;
        }
        i += 1;
    }
    t[b'=' as usize] = B64_PAD;
    // `u8::is_ascii_whitespace`: space, tab, line feed, form feed, CR.
    let space = b" \t\n\x0C\r";
    let mut k = 0;
    while k < space.len() {
        t[space[k] as usize] = B64_SPACE;
        k += 1;
    }
    t
};
const B64_PAD: u8 = 64;
const B64_SPACE: u8 = 65;
const B64_OTHER: u8 = 66;

/// The length of the base64 data at the start of a part's body: up to
/// the first line, after the data began, that holds a character outside
/// the base64 alphabet (RFC 2045 6.8: encoded lines hold only it, `=`
/// and line ends), or the line after one with `=` padding. What follows
/// is text appended to the part, not data.
pub(super) fn base64_extent(body: &[u8]) -> usize {
    let mut started = false;
    let mut pos = 0;
    while pos < body.len() {
        let rest = body.get(pos..).unwrap_or(&[]);
        let len = memchr::memchr(b'\n', rest).map_or(rest.len(), |nl| nl + 1);
        let text = rest.get(..len).unwrap_or(&[]).trim_ascii_end();
        // The largest class in the line: a value (below 64) or `=`
        // (64) for data; padding if some `=` is there.
        let (mut top, mut pad) = (0u8, false);
        for &c in text {
            let v = B64[usize::from(c)];
            top = top.max(v);
            pad |= v == B64_PAD;
        }
        pos += len;
        if text.is_empty() {
            continue;
        }
        let data = top <= B64_PAD;
        if !data && started {
            return pos - len;
        }
        started |= data;
        if data && pad {
            // The padding ends the data; text may follow.
            let rest = body.get(pos..).unwrap_or(&[]);
            let next = rest.iter().position(|b| !b.is_ascii_whitespace());
            return next.map_or(body.len(), |n| pos + n);
        }
    }
    body.len()
}

/// Decodes base64, skipping whitespace and (with a `false` result)
/// other characters, up to the first `=`.
pub(super) fn decode_base64(input: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(input.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut n = 0;
    let mut clean = true;
    let mut i = 0;
    while let Some(&c) = input.get(i) {
        // Four characters of the alphabet at a group's start (the whole
        // of a well-formed line, 4 at a time): three bytes at once.
        if n == 0
            && let Some(&[w, x, y, z]) = input.get(i..i + 4)
        {
            let v = [w, x, y, z].map(|k| B64[usize::from(k)]);
            if v.iter().all(|&x| x < 64) {
                let group = v.iter().fold(0u32, |g, &x| g << 6 | u32::from(x));
                out.extend_from_slice(&group.to_be_bytes()[1..]);
                i += 4;
                continue;
            }
        }
        i += 1;
        match B64[usize::from(c)] {
            v if v < 64 => {
                acc = acc << 6 | u32::from(v);
                n += 1;
                if n == 4 {
                    out.extend_from_slice(&acc.to_be_bytes()[1..]);
                    acc = 0;
                    n = 0;
                }
            }
            B64_PAD => break,
            B64_SPACE => {}
            _ => clean = false,
        }
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        1 => clean = false,
        _ => {}
    }
    (out, clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass over the `=` bytes finds what a search for each of
    /// `=3D` and `=ybegin ` finds.
    #[test]
    fn equal_signs_are_the_searches() {
        let pieces: [&[u8]; 10] = [
            b"=", b"3D", b"3", b"D", b"ybegin ", b"ybegin", b" ", b"a",
            b"\xe9", b"\n",
        ];
        let mut next = crate::testing::xorshift(0xe9a1_5165);
        let (mut eq, mut yb) = (0, 0);
        for _ in 0..50_000 {
            let body: Vec<u8> = (0..next() % 12)
                .flat_map(|_| {
                    pieces[next() as usize % pieces.len()].iter().copied()
                })
                .collect();
            let want = EqualSigns {
                encoded_eq: memmem::find(&body, b"=3D").is_some(),
                ybegin: memmem::find(&body, b"=ybegin ").is_some(),
            };
            eq += usize::from(want.encoded_eq);
            yb += usize::from(want.ybegin);
            assert_eq!(equal_signs(&body), want, "{body:?}");
        }
        assert!(eq > 1_000 && yb > 1_000, "{eq} {yb}");
    }

    /// Inside a `scheme://` run, an `=` and a pair that no encoder
    /// writes (lower-case hex, a control) stays as written; outside one,
    /// and once whitespace, a quote or `<` `>` ends the run, it decodes.
    #[test]
    fn qp_escapes_in_and_out_of_url_runs() {
        for (body, want) in [
            (
                &b"see http://a.example/?id=dcx007 end"[..],
                &b"see http://a.example/?id=dcx007 end"[..],
            ),
            (b"x =dc y", b"x \xdc y"),
            (b"http://a/ =dc", b"http://a/ \xdc"),
            (b"<http://a/>=dc", b"<http://a/>\xdc"),
            (b"http://a/?q=10&r=3D1", b"http://a/?q=10&r=1"),
            (b"x =10 y", b"x \x10 y"),
            // A `://` made with an escape, or across a soft line break.
            (b"http=3A//a/?q=dcx", b"http://a/?q=dcx"),
            (b"http:/=\n/a/?q=dcx", b"http://a/?q=dcx"),
            (b"http:=2F/a/?q=dcx", b"http://a/?q=dcx"),
            (b"http:/=2Fa/?q=dcx", b"http://a/?q=dcx"),
            (b"http:=2F=2Fa/?q=dcx", b"http://a/?q=dcx"),
            (
                b"see http:=2F=2Fexample.com/?id=dc1",
                b"see http://example.com/?id=dc1",
            ),
            (b"http://a/?q=\n=dcx", b"http://a/?q=dcx"),
            // A hard line break ends the run.
            (b"http://a/\n=dc", b"http://a/\n\xdc"),
            // Outside ISO 2022 text, an `=1B` in a URL is the URL's.
            (b"http://a/?v=1B(foo)", b"http://a/?v=1B(foo)"),
        ] {
            let (out, _, _) = decode_qp(body, 0);
            assert_eq!(
                out,
                want,
                "{:?}: {:?}",
                String::from_utf8_lossy(body),
                String::from_utf8_lossy(&out)
            );
        }
    }

    /// In text of a charset that shifts with ESC, SO and SI, their
    /// escapes decode inside a URL run too: what follows a URL in
    /// ISO-2022-JP and -KR, also across a soft line break. An `=1B` that
    /// starts no escape sequence, or in another charset, stays as
    /// written there.
    #[test]
    fn iso_2022_shifts_decode_inside_url_runs() {
        let jp = Charset::for_label(b"iso-2022-jp");
        let kr = Charset::for_label(b"iso-2022-kr");
        let utf8 = Charset::for_label(b"utf-8");
        for (charset, body, want) in [
            (
                jp,
                &b"http://a/=1B$BF|=1B(B x"[..],
                &b"http://a/\x1b$BF|\x1b(B x"[..],
            ),
            (jp, b"http://a/abc=1B=\n$BF|", b"http://a/abc\x1b$BF|"),
            (jp, b"http://a/?x=3D1=1B(J", b"http://a/?x=1\x1b(J"),
            (jp, b"http://a/?x=1B=1B(J", b"http://a/?x=1B\x1b(J"),
            (jp, b"http://a/?x=1B=24B", b"http://a/?x\x1b$B"),
            (jp, b"http://a/?x=1B&y", b"http://a/?x=1B&y"),
            (kr, b"http://a/=0EGQ=0F z", b"http://a/\x0eGQ\x0f z"),
            (utf8, b"http://a/?v=1B(foo)", b"http://a/?v=1B(foo)"),
            (None, b"http://a/?v=0E", b"http://a/?v=0E"),
        ] {
            let (out, _, _) = decode_qp_in(body, 0, charset);
            assert_eq!(out, want, "{:?}", String::from_utf8_lossy(body));
        }
    }

    /// A run of escapes decoded on one anchor gives the text, map and
    /// flag that the full test of each escape gives: random bodies of
    /// escapes (upper and lower case, controls, ESC), soft line breaks,
    /// bare `=`, URL runs and whitespace, in ISO 2022 text and not.
    #[test]
    fn escape_runs_agree_with_the_full_test() {
        let mut next = crate::testing::xorshift(0x9e5c_a9e5_0f7e_3c0d);
        let pieces: [&[u8]; 13] = [
            b"=1B",
            b"=C4",
            b"=E3",
            b"=dc",
            b"=10",
            b"=0A",
            b"=\n",
            b"= \r\n",
            b"=",
            b"http://a/?q",
            b" ",
            b"x",
            b"=3D",
        ];
        for _ in 0..5000 {
            let mut body = Vec::new();
            for _ in 0..next() % 40 {
                let piece = pieces[(next() % 13) as usize];
                // Escapes mostly come in runs.
                let times = if piece.len() == 3 { 1 + next() % 6 } else { 1 };
                for _ in 0..times {
                    body.extend_from_slice(piece);
                }
            }
            let base = (next() % 100) as usize;
            let shifts = next().is_multiple_of(2);
            assert_eq!(
                decode_qp_by(&body, base, shifts, true),
                decode_qp_by(&body, base, shifts, false),
                "{:?}",
                String::from_utf8_lossy(&body)
            );
        }
    }

    /// A character's value by the alphabet's ranges (RFC 2045 6.8,
    /// table 1), to check the table against.
    fn value(c: u8) -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }

    /// [`base64_extent`] by its definition, line by line.
    fn extent_by_lines(body: &[u8]) -> usize {
        let mut started = false;
        let mut pos = 0;
        for line in body.split_inclusive(|&b| b == b'\n') {
            let text = line.trim_ascii_end();
            if text.is_empty() {
                pos += line.len();
                continue;
            }
            let data = text.iter().all(|&c| value(c).is_some() || c == b'=');
            if !data && started {
                return pos;
            }
            started |= data;
            pos += line.len();
            if data && text.contains(&b'=') {
                let rest = &body[pos..];
                let next = rest.iter().position(|b| !b.is_ascii_whitespace());
                return next.map_or(body.len(), |n| pos + n);
            }
        }
        body.len()
    }

    /// [`decode_base64`] by its definition: the values up to the first
    /// `=`, their bits in order, every 8 of them a byte (the bits left
    /// over dropped; a single value left over is an error).
    fn decode_by_bits(input: &[u8]) -> (Vec<u8>, bool) {
        let (mut values, mut clean) = (Vec::new(), true);
        for &c in input {
            match value(c) {
                Some(v) => values.push(v),
                None if c == b'=' => break,
                None => clean &= c.is_ascii_whitespace(),
            }
        }
        let bits: Vec<u8> = values
            .iter()
            .flat_map(|v| (0..6).rev().map(move |k| (v >> k & 1) as u8))
            .collect();
        let out = bits
            .chunks_exact(8)
            .map(|byte| byte.iter().fold(0, |a, &bit| a << 1 | bit))
            .collect();
        (out, clean && values.len() % 4 != 1)
    }

    #[test]
    fn table_is_the_alphabet() {
        for c in 0..=255u8 {
            let want = match value(c) {
                Some(v) => v as u8,
                None if c == b'=' => B64_PAD,
                None if c.is_ascii_whitespace() => B64_SPACE,
                None => B64_OTHER,
            };
            assert_eq!(B64[usize::from(c)], want, "{c:#x}");
        }
    }

    #[test]
    fn base64_agrees_with_definitions() {
        // Mostly the alphabet, in lines, with some of everything else.
        let pieces: [&[u8]; 15] = [
            b"QUJD",
            b"aHR0",
            b"cDov",
            b"Lw",
            b"+/9z",
            b"Q",
            b"=",
            b"==",
            b"\n",
            b"\r\n",
            b" ",
            b"\t",
            b"-_",
            b"*\xC3\xA9",
            b"\x0C",
        ];
        let mut next = crate::testing::xorshift(0x05ee_db64);
        for _ in 0..100_000 {
            let mut text = Vec::new();
            let len = next() % 40;
            for _ in 0..len {
                let r = next() as usize;
                // Mostly the alphabet (the first six pieces).
                let k = if r.is_multiple_of(3) {
                    r / 3 % pieces.len()
                } else {
                    r / 3 % 6
                };
                text.extend_from_slice(pieces[k]);
            }
            assert_eq!(
                base64_extent(&text),
                extent_by_lines(&text),
                "{text:?}"
            );
            assert_eq!(
                decode_base64(&text),
                decode_by_bits(&text),
                "{text:?}"
            );
        }
    }
}

//! The UTS #58 properties (`urlx::data::uts58`) against the vendored
//! 17.0.0 data files, read here independently of the generator, and a
//! reader for the conformance test LinkDetectionTest.txt (`cases()`)
//! for a detector to be run on.

use std::collections::BTreeMap;
use std::ops::Range;

use urlx::data::uts58::{LinkTerm, link_bracket, link_email, link_term};

const LINK_TERM: &str = include_str!("../src/data/uts58/LinkTerm.txt");
const LINK_BRACKET: &str = include_str!("../src/data/uts58/LinkBracket.txt");
const LINK_EMAIL: &str = include_str!("../src/data/uts58/LinkEmail.txt");
const DETECTION: &str = include_str!("data/uts58/LinkDetectionTest.txt");

/// U+2E20 LEFT VERTICAL BAR WITH QUILL: opens a link in the test file.
const OPEN_MARK: char = '\u{2E20}';
/// U+2E21 RIGHT VERTICAL BAR WITH QUILL: closes a link in the test file.
const CLOSE_MARK: char = '\u{2E21}';

/// The data lines of a UCD-style file: (first, last, fields after the
/// code points), comments and blank lines dropped.
fn ucd_lines(text: &str) -> Vec<(u32, u32, Vec<&str>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let data = line.split('#').next().unwrap_or("").trim();
        if data.is_empty() {
            continue;
        }
        let mut fields = data.split(';').map(str::trim);
        let cps = fields.next().unwrap_or("");
        let (lo, hi) = cps.split_once("..").unwrap_or((cps, cps));
        let hex = |s: &str| u32::from_str_radix(s, 16).expect(line);
        out.push((hex(lo), hex(hi), fields.collect()));
    }
    out
}

/// The "# Total code points: N" lines of a file, in order.
fn totals(text: &str) -> Vec<usize> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# Total code points: "))
        .map(|n| n.trim().parse().expect("a number"))
        .collect()
}

fn value(name: &str) -> LinkTerm {
    match name {
        "Include" => LinkTerm::Include,
        "Hard" => LinkTerm::Hard,
        "Soft" => LinkTerm::Soft,
        "Open" => LinkTerm::Open,
        "Close" => LinkTerm::Close,
        _ => panic!("unknown Link_Term value {name}"),
    }
}

fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10FFFF).filter_map(char::from_u32)
}

#[test]
fn link_term_equals_the_file_at_every_code_point() {
    assert!(LINK_TERM.contains("\n# @missing: 0000..10FFFF; Hard\n"));
    let mut want = vec![LinkTerm::Hard; 0x110000];
    for (lo, hi, fields) in ucd_lines(LINK_TERM) {
        for cp in lo..=hi {
            want[cp as usize] = value(fields[0]);
        }
    }
    let wrong: Vec<String> = all_chars()
        .filter(|&c| link_term(c) != want[c as usize])
        .take(10)
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    assert!(wrong.is_empty(), "differ from LinkTerm.txt: {wrong:?}");
}

#[test]
fn link_term_counts_equal_the_header_totals() {
    use LinkTerm::{Close, Hard, Include, Open, Soft};
    let mut counts = [0; 5];
    for c in all_chars() {
        counts[link_term(c) as usize] += 1;
    }
    // LinkTerm.txt lists Soft, Close, Open, Include in that order, each
    // block closed by its total; the rest, and the 2048 surrogates that
    // are no `char`, are Hard.
    assert_eq!(totals(LINK_TERM), [330, 64, 64, 159_309]);
    assert_eq!(counts[Soft as usize], 330);
    assert_eq!(counts[Close as usize], 64);
    assert_eq!(counts[Open as usize], 64);
    assert_eq!(counts[Include as usize], 159_309);
    let listed = 330 + 64 + 64 + 159_309;
    assert_eq!(counts[Hard as usize], 0x110000 - 0x800 - listed);
}

#[test]
fn link_term_spot_checks() {
    use LinkTerm::{Close, Hard, Include, Open, Soft};
    let cases = [
        ('"', Soft),
        ('\'', Soft),
        ('.', Soft),
        (',', Soft),
        ('(', Open),
        (')', Close),
        ('<', Open),
        ('>', Close),
        ('[', Open),
        ('}', Close),
        ('|', Include),
        ('\\', Include),
        ('`', Include),
        ('#', Include),
        (' ', Hard),
        ('\t', Hard),
        ('\u{7F}', Hard),
        // ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER (in emoji
        // sequences) do not end a link; nor, in this data, does ZERO
        // WIDTH SPACE or a bidi mark.
        ('\u{200C}', Include),
        ('\u{200D}', Include),
        ('\u{200B}', Include),
        ('\u{200F}', Include),
        ('\u{2013}', Include),  // EN DASH
        ('\u{A2}', Include),    // CENT SIGN
        ('\u{A9}', Include),    // COPYRIGHT SIGN
        ('\u{AD}', Include),    // SOFT HYPHEN
        ('\u{A0}', Hard),       // NO-BREAK SPACE
        ('\u{2028}', Hard),     // LINE SEPARATOR
        ('\u{3000}', Hard),     // IDEOGRAPHIC SPACE
        ('\u{AB}', Soft),       // « is punctuation here, not a bracket
        ('\u{2019}', Soft),     // RIGHT SINGLE QUOTATION MARK
        ('\u{3001}', Soft),     // IDEOGRAPHIC COMMA
        ('\u{3002}', Soft),     // IDEOGRAPHIC FULL STOP
        ('\u{300C}', Open),     // LEFT CORNER BRACKET
        ('\u{300D}', Close),    // RIGHT CORNER BRACKET
        ('\u{FF08}', Open),     // FULLWIDTH LEFT PARENTHESIS
        ('\u{FF09}', Close),    // FULLWIDTH RIGHT PARENTHESIS
        ('\u{1F600}', Include), // GRINNING FACE
        ('\u{1F60E}', Include), // SMILING FACE WITH SUNGLASSES
        ('\u{1F3FB}', Include), // skin tone modifier
        ('\u{FE0F}', Include),  // VARIATION SELECTOR-16
        ('\u{1F678}', Soft),    // a quotation mark ornament
        ('\u{E0001}', Hard),    // LANGUAGE TAG
        ('\u{E0067}', Include), // TAG LATIN SMALL LETTER G (flags)
        ('\u{E01EF}', Include), // VARIATION SELECTOR-256
        ('\u{E01F0}', Hard),    // unassigned
        ('\u{33479}', Include), // last CJK ideograph of Unicode 17.0
        ('\u{3347A}', Hard),
        ('\u{E000}', Hard),    // private use
        ('\u{FFFD}', Include), // REPLACEMENT CHARACTER
        ('\u{10FFFF}', Hard),
    ];
    for (c, want) in cases {
        assert_eq!(link_term(c), want, "U+{:04X}", c as u32);
    }
}

#[test]
fn link_bracket_equals_the_file() {
    assert!(LINK_BRACKET.contains("\n# @missing: 0000..10FFFF; <none>\n"));
    let mut want = BTreeMap::new();
    for (lo, hi, fields) in ucd_lines(LINK_BRACKET) {
        assert_eq!(lo, hi);
        let open = u32::from_str_radix(fields[0], 16).unwrap();
        want.insert(lo, char::from_u32(open).unwrap());
    }
    assert_eq!(totals(LINK_BRACKET), [want.len()]);
    assert_eq!(want.len(), 64);
    // Every other code point has none: every_close_pairs_with_an_open.
    for (&close, &open) in &want {
        let close = char::from_u32(close).unwrap();
        assert_eq!(link_bracket(close), Some(open), "{close:?}");
    }
}

#[test]
fn every_close_pairs_with_an_open() {
    let mut closes = 0;
    for c in all_chars() {
        let opener = link_bracket(c);
        if link_term(c) == LinkTerm::Close {
            closes += 1;
            let o = opener.expect("a Close has an opener");
            assert_eq!(link_term(o), LinkTerm::Open, "{c:?} pairs with {o:?}");
        } else {
            assert_eq!(opener, None, "{c:?} is not Close");
        }
    }
    assert_eq!(closes, 64);
    assert_eq!(link_bracket(')'), Some('('));
    assert_eq!(link_bracket('>'), Some('<'));
    assert_eq!(link_bracket(']'), Some('['));
    assert_eq!(link_bracket('}'), Some('{'));
    assert_eq!(link_bracket('\u{FF09}'), Some('\u{FF08}'));
    // The tick brackets pair crosswise, as their glyphs do.
    assert_eq!(link_bracket('\u{298E}'), Some('\u{298F}'));
    assert_eq!(link_bracket('\u{2990}'), Some('\u{298D}'));
}

#[test]
fn link_email_equals_the_file() {
    assert!(LINK_EMAIL.contains("have the value No."));
    let mut want = vec![false; 0x110000];
    for (lo, hi, _) in ucd_lines(LINK_EMAIL) {
        for cp in lo..=hi {
            want[cp as usize] = true;
        }
    }
    assert_eq!(totals(LINK_EMAIL), [149_240]);
    assert_eq!(all_chars().filter(|&c| link_email(c)).count(), 149_240);
    let wrong: Vec<String> = all_chars()
        .filter(|&c| link_email(c) != want[c as usize])
        .take(10)
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    assert!(wrong.is_empty(), "differ from LinkEmail.txt: {wrong:?}");
    for c in "az09!#$%&'*+-/=?^_`{|}~.·éσ中\u{200C}\u{200D}".chars() {
        assert!(link_email(c), "{c:?}");
    }
    for c in "\"(),:;<>@[\\] \u{A0}\u{2013}\u{A9}\u{3002}\u{1F600}".chars() {
        assert!(!link_email(c), "{c:?}");
    }
}

/// One test line of LinkDetectionTest.txt.
#[derive(Debug)]
pub struct Case {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The line without the U+2E20 / U+2E21 marks: the detector's input.
    pub input: String,
    /// The expected links, as byte ranges of `input`, in order.
    pub links: Vec<Range<usize>>,
}

/// The test lines of LinkDetectionTest.txt (UTS #58 17.0.0). Lines that
/// are empty, blank or start with `#` are no tests; `#` elsewhere is an
/// ordinary character. Each link of a line is between U+2E20 and
/// U+2E21; a detector passes a case when it finds exactly `links` in
/// `input` (`marked(input, found) == the line`).
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in DETECTION.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut input = String::with_capacity(line.len());
        let mut links = Vec::new();
        let mut start = None;
        for c in line.chars() {
            match c {
                OPEN_MARK => {
                    assert!(start.is_none(), "line {}: nested", i + 1);
                    start = Some(input.len());
                }
                CLOSE_MARK => {
                    let s = start.take().expect("a close mark opened");
                    assert!(s < input.len(), "line {}: empty link", i + 1);
                    links.push(s..input.len());
                }
                _ => input.push(c),
            }
        }
        assert!(start.is_none(), "line {}: link not closed", i + 1);
        out.push(Case { line: i + 1, input, links });
    }
    out
}

/// `input` with U+2E20 before and U+2E21 after each of `links` (sorted,
/// disjoint byte ranges): the form the test file writes a result in.
pub fn marked(input: &str, links: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(input.len() + 6 * links.len());
    let mut at = 0;
    for link in links {
        out.push_str(&input[at..link.start]);
        out.push(OPEN_MARK);
        out.push_str(&input[link.clone()]);
        out.push(CLOSE_MARK);
        at = link.end;
    }
    out.push_str(&input[at..]);
    out
}

#[test]
fn detection_test_cases() {
    let cases = cases();
    assert_eq!(cases.len(), 344);
    assert_eq!(cases.iter().filter(|c| !c.links.is_empty()).count(), 320);
    assert_eq!(cases.iter().map(|c| c.links.len()).sum::<usize>(), 323);
    let lines: Vec<&str> = DETECTION.lines().collect();
    for case in &cases {
        assert_eq!(marked(&case.input, &case.links), lines[case.line - 1]);
    }
    let first = &cases[0];
    assert_eq!((first.line, first.links.len()), (27, 0));
    let upper = cases.iter().find(|c| c.input == "See TEST.COM on…").unwrap();
    assert_eq!(&upper.input[upper.links[0].clone()], "TEST.COM");
    // `#` inside a test line is data, not a comment.
    assert!(cases.iter().any(|c| c.input.contains("example.com#αβγ")));
}

/// Time per character of `link_term` and `link_email` on 1,000,000
/// non-ASCII characters drawn from the scripts of a mixed text (Latin,
/// Greek, Cyrillic, Hebrew, Arabic, Devanagari, Thai, CJK, kana, Hangul,
/// punctuation, fullwidth forms, emoji). Run with
/// `cargo test --release --test integration uts58 -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a measurement; run in release mode"]
fn measure_lookup_speed() {
    use std::hint::black_box;
    use std::time::Instant;

    // (first, last, weight) of each block drawn from.
    const BLOCKS: [(u32, u32, u64); 13] = [
        (0xA0, 0x17F, 20),
        (0x370, 0x3FF, 8),
        (0x400, 0x4FF, 15),
        (0x5D0, 0x5EA, 4),
        (0x600, 0x6FF, 6),
        (0x900, 0x97F, 5),
        (0xE00, 0xE5B, 3),
        (0x2000, 0x206F, 5),
        (0x3040, 0x30FF, 8),
        (0x4E00, 0x9FFF, 20),
        (0xAC00, 0xD7A3, 8),
        (0xFF00, 0xFFEF, 3),
        (0x1F300, 0x1F6FF, 4),
    ];
    let total: u64 = BLOCKS.iter().map(|b| b.2).sum();
    let mut next = crate::common::xorshift(0x9E37_79B9_7F4A_7C15_u64);
    let mut text = String::new();
    let mut n = 0;
    while n < 1_000_000 {
        let mut pick = next() % total;
        let (mut lo, mut hi) = (0, 0);
        for (first, last, weight) in BLOCKS {
            if pick < weight {
                (lo, hi) = (first, last);
                break;
            }
            pick -= weight;
        }
        let cp = lo + (next() % u64::from(hi - lo + 1)) as u32;
        if let Some(c) = char::from_u32(cp) {
            text.push(c);
            n += 1;
        }
    }
    // Best of 9 runs, in ns per character: decoding the UTF-8 alone,
    // then decoding and looking up.
    let mut best = [f64::MAX; 3];
    let mut time = |k: usize, f: &dyn Fn(&str) -> usize| {
        let t = Instant::now();
        black_box(f(black_box(&text)));
        let ns = t.elapsed().as_nanos() as f64 / n as f64;
        best[k] = best[k].min(ns);
    };
    for _ in 0..9 {
        time(0, &|s| s.chars().map(|c| c as usize & 7).sum());
        time(1, &|s| s.chars().map(|c| link_term(c) as usize).sum());
        time(2, &|s| s.chars().filter(|&c| link_email(c)).count());
    }
    println!(
        "{n} chars, {} bytes: decoding {:.2} ns/char; with link_term \
         {:.2}, with link_email {:.2}",
        text.len(),
        best[0],
        best[1],
        best[2]
    );
}

//! Fuzz target: arbitrary bytes read as mail (mbox, a single message, a
//! news article, a TNEF file, format detection): nothing may panic, every hit lies
//! within the input, and its line and column agree with its offset.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlx::Extractor;
use urlx::mail::InputFormat;

fuzz_target!(|data: &[u8]| {
    let Some((&k, text)) = data.split_first() else { return };
    let formats = [
        InputFormat::Auto,
        InputFormat::Mbox,
        InputFormat::Eml,
        InputFormat::News,
        InputFormat::Maildir,
        InputFormat::Tnef,
        InputFormat::Msg,
    ];
    let format = formats[usize::from(k & 7) % formats.len()];
    let hits = Extractor::builder()
        .format(format)
        .attachments(k & 8 != 0)
        .base((k & 16 != 0).then_some("http://base.example/a/b"))
        .line_numbers(true)
        .binary(true)
        .build()
        .unwrap()
        .find(text);
    let len = text.len() as u64;
    let mut last = 0;
    for h in &hits {
        let (start, end) = (h.start(), h.end());
        assert!(start <= end && end <= len, "{start}..{end} of {len}");
        assert!(start >= last, "hits out of order: {start} after {last}");
        last = start;
        let before = &text[..start as usize];
        let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
        let line_start =
            before.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        assert_eq!(h.line(), line as u64, "line of the hit at {start}");
        assert_eq!(h.column(), start - line_start as u64 + 1);
        assert!(!h.url().is_empty());
        let _ = (h.resolved(), h.uri().errors(), h.provenance());
    }
});

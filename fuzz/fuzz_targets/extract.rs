//! Fuzz target: extraction over arbitrary bytes, read as text and as
//! mail, with a chunk size taken from the input; the hits must not
//! depend on the chunk size and nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlx::Extractor;
use urlx::mail::Format;

fuzz_target!(|data: &[u8]| {
    let Some((&k, text)) = data.split_first() else { return };
    let chunk = usize::from(k) + 1;
    for format in [Format::Text, Format::Auto] {
        let whole = Extractor::builder()
            .format(format)
            .line_numbers(true)
            .max_url_len(256)
            .build()
            .unwrap()
            .find(text);
        let cut = Extractor::builder()
            .format(format)
            .line_numbers(true)
            .max_url_len(256)
            .chunk_size(chunk)
            .batch_size(chunk * 3)
            .build()
            .unwrap()
            .find(text);
        if format == Format::Text {
            assert_eq!(whole, cut);
        }
        for h in &whole {
            let _ = (h.url(), h.resolved(), h.uri().errors());
        }
    }
});

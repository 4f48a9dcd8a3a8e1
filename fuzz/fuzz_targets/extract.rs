//! Fuzz target: extraction over arbitrary bytes, read as text and as
//! mail, with chunk and batch sizes taken from the input, and with the
//! scheme-less forms (abbreviated URIs, bare domains, e-mail addresses,
//! refanging) and encoded URLs on
//! or off; the hits must not depend on how the input is cut nor on which
//! trigger search finds the colons, and nothing may panic, warnings and
//! redirector targets included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlx::Extractor;
use urlx::mail::InputFormat;
use urlx::stages::TriggerSearch;

fuzz_target!(|data: &[u8]| {
    // Two bytes choose the cut: a chunk of 1 to 256 bytes and, on its
    // own, a batch of 1 to 766 bytes (smaller or larger than a chunk).
    let [k, b, f, text @ ..] = data else { return };
    let chunk = usize::from(*k) + 1;
    let batch = usize::from(*b) * 3 + 1;
    // One byte turns on --abbreviated, --emails, --refang, --domains and
    // --encoded.
    let (www, emails, refang) = (f & 1 != 0, f & 2 != 0, f & 4 != 0);
    let (domains, encoded) = (f & 8 != 0, f & 16 != 0);
    for format in [InputFormat::Text, InputFormat::Auto] {
        let build = |cut: bool, search: Option<TriggerSearch>| {
            let mut builder = Extractor::builder();
            builder.trigger_search(search);
            builder
                .format(format)
                .line_numbers(true)
                .binary(true)
                .abbreviated(www)
                .emails(emails)
                .domains(domains)
                .refang(refang)
                .encoded(encoded)
                .max_url_len(256);
            if cut {
                builder.chunk_size(chunk).batch_size(batch);
            }
            builder.build().unwrap()
        };
        let whole = build(false, None).find(text);
        let cut = build(true, None).find(text);
        assert_eq!(whole, cut, "{format:?} chunk {chunk} batch {batch}");
        // The adaptive search measures only whole 32 KiB blocks, so on
        // inputs this small each search is fixed in turn.
        for search in [
            TriggerSearch::Colons,
            TriggerSearch::Letters,
            TriggerSearch::Pairs,
            TriggerSearch::Sieve,
        ] {
            let fixed = build(true, Some(search)).find(text);
            assert_eq!(whole, fixed, "{format:?} {search:?}");
        }
        for h in &whole {
            assert!(h.start() <= h.end() && h.end() <= text.len() as u64);
            let _ = (h.url(), h.resolved(), h.uri().errors());
            let _ = (h.warnings(), h.unwrapped());
            if let Some(r) = h.resolved() {
                let _ = urlx::normalize::normalize(r);
                let _ = urlx::normalize::iri::to_uri(r);
            }
        }
    }
});

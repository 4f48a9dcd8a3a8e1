//! The output must not depend on how the input is cut (chunk and batch
//! sizes, down to 1 byte) nor on the number of threads: checked on the
//! bundled corpora and on generated text full of boundary cases.

use proptest::prelude::*;
use urlx::{Extractor, Hit};

fn run(text: &[u8], chunk: usize, batch: usize) -> Vec<Hit> {
    Extractor::builder()
        .line_numbers(true)
        .chunk_size(chunk)
        .batch_size(batch)
        .max_url_len(64)
        .build()
        .unwrap()
        .find(text)
}

const PIECES: &[&str] = &[
    "http://a.example/",
    "<",
    ">",
    "<URL:",
    "URL:",
    " ",
    "\n",
    "-\n ",
    "x",
    "(",
    ")",
    "\"",
    ".",
    ":",
    "//",
    "mailto:j@x",
    "ftp://h/p",
    "\u{3002}",
    "é",
    "<http://b.example/\n  c>",
    "\r\n",
    "[",
    "]",
    "'",
    "news:a.b",
];

fn text_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..60)
        .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn same_for_every_chunking(text in text_strategy(), chunk in 1usize..40, batch in 1usize..200) {
        let whole = run(text.as_bytes(), 1 << 20, 1 << 20);
        let cut = run(text.as_bytes(), chunk, batch);
        prop_assert_eq!(whole, cut);
    }
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpora"
    ))];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn corpora_same_for_small_chunks() {
    for f in corpus_files() {
        let data = std::fs::read(&f).unwrap();
        let whole = run(&data, 1 << 20, 1 << 20);
        for (chunk, batch) in [(1, 4096), (7, 100), (97, 1000), (4096, 5000)] {
            assert_eq!(
                whole,
                run(&data, chunk, batch),
                "{} chunk {chunk} batch {batch}",
                f.display()
            );
        }
    }
}

#[test]
fn same_for_every_thread_count() {
    let mut all = Vec::new();
    for f in corpus_files() {
        all.extend(std::fs::read(&f).unwrap());
    }
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let a = one.install(|| run(&all, 4096, 65536));
    let b = four.install(|| run(&all, 4096, 65536));
    assert!(a.len() > 100);
    assert_eq!(a, b);
}

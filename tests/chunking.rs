//! The output must not depend on how the input is cut (chunk and batch
//! sizes, down to 1 byte) nor on the number of threads: checked on the
//! bundled corpora and on generated text full of boundary cases.

use proptest::prelude::*;
use urlx::{Extractor, Hit};

use crate::common::Collect;

fn run(text: &[u8], chunk: usize, batch: usize) -> Vec<Hit> {
    run_max(text, chunk, batch, 64)
}

fn run_max(text: &[u8], chunk: usize, batch: usize, max: usize) -> Vec<Hit> {
    Extractor::builder()
        .line_numbers(true)
        .chunk_size(chunk)
        .batch_size(batch)
        .max_url_len(max)
        .build()
        .unwrap()
        .find(text)
}

/// The URLs found in `text` read as a stream (in segments with buffers
/// of their own).
fn streamed(
    text: &[u8],
    chunk: usize,
    batch: usize,
    max: usize,
) -> Vec<String> {
    let ex = Extractor::builder()
        .chunk_size(chunk)
        .batch_size(batch)
        .max_url_len(max)
        .build()
        .unwrap();
    let mut urls = Vec::new();
    ex.find_in(text, |h| {
        urls.push(h.url().to_string());
        true
    })
    .unwrap();
    urls
}

/// Pieces that make runs longer than the URL length limit, with URLs
/// inside them and short URLs between them.
const LONG_RUN_PIECES: &[&str] = &[
    "http://",
    "a/",
    "xyz",
    " ",
    "\n",
    "http://s.example/",
    "<",
    ">",
    "-\n",
    "a-\n  ",
    "data:,a-\n",
    "\\xe4",
];

fn long_run_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(LONG_RUN_PIECES), 0..80)
        .prop_map(|v| v.concat())
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
    "\\xC3\\xa9",
    "\\x8",
    "\\",
    "\\n",
    "\\u003c",
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// A candidate dropped as too long is skipped with the rest of its
    /// run, however far the run goes past the batch it starts in.
    #[test]
    fn long_runs_same_for_every_chunking(text in long_run_strategy(), chunk in 1usize..40, batch in 1usize..60) {
        let whole = run_max(text.as_bytes(), 1 << 20, 1 << 20, 16);
        let cut = run_max(text.as_bytes(), chunk, batch, 16);
        prop_assert_eq!(whole, cut);
    }
}

/// No piece of a dropped over-long run is reported on its own.
#[test]
fn no_tail_of_an_over_long_run() {
    let long =
        format!("see {} end http://ok.example/", "http://".repeat(2000));
    let path = format!(
        "http://example.com/{}http://evil.example/phish next http://ok.example/",
        "a/".repeat(60)
    );
    // A run far longer than a batch and its lookahead (a stream's first
    // segment holds 64 KiB).
    let far = format!(
        "http://x/{}http://e.x/ and http://ok.example/",
        "a/".repeat(40_000)
    );
    for (chunk, batch) in [(1 << 20, 1 << 22), (7, 100), (64, 100)] {
        let hits = run_max(far.as_bytes(), chunk, batch, 20);
        let urls: Vec<&str> = hits.iter().map(|h| h.url()).collect();
        assert_eq!(urls, ["http://ok.example/"], "{chunk} {batch}");
        // Streamed from a reader, in segments with their own buffers.
        assert_eq!(
            streamed(far.as_bytes(), chunk, batch, 20),
            ["http://ok.example/"],
            "reader {chunk} {batch}"
        );
    }
    // Lines joined after hyphens into one over-long URL (rule 6); a
    // line that starts with `scheme://` is a URL of its own.
    let joined = format!(
        "{}and-\nhttp://ok.example/ http://ok.example/x",
        "data:,a-\n".repeat(3000)
    );
    for (chunk, batch) in [(1 << 20, 1 << 22), (7, 100), (64, 100)] {
        let hits = run_max(joined.as_bytes(), chunk, batch, 100);
        let urls: Vec<&str> = hits.iter().map(|h| h.url()).collect();
        assert_eq!(
            urls,
            ["http://ok.example/", "http://ok.example/x"],
            "{chunk} {batch}"
        );
    }
    for (chunk, batch) in [(1 << 20, 1 << 22), (7, 100), (512, 2048)] {
        let urls = |hits: Vec<Hit>| -> Vec<String> {
            hits.iter().map(|h| h.url().to_string()).collect()
        };
        assert_eq!(
            urls(run_max(long.as_bytes(), chunk, batch, 8192)),
            ["http://ok.example/"]
        );
        assert_eq!(
            urls(run_max(path.as_bytes(), chunk, batch, 100)),
            ["http://ok.example/"]
        );
    }
}

/// A run of lines joined after hyphens ends at a line that starts with
/// `scheme://` wherever the text is cut: at the end of a segment's
/// lookahead inside the break or the scheme, the next segment finds it
/// again (streamed, past the first 64 KiB segment).
#[test]
fn hyphen_joined_runs_end_the_same_wherever_cut() {
    let text = format!(
        "{}{}and-\n  http://ok.example/ {}",
        "x ".repeat(40_000),
        "data:,a-\n".repeat(100),
        "y ".repeat(2_000)
    );
    for (chunk, batch) in (1..=200).map(|k| (k % 7 + 1, 200 + k)) {
        assert_eq!(
            streamed(text.as_bytes(), chunk, batch, 100),
            ["http://ok.example/"],
            "{chunk} {batch}"
        );
    }
}

/// A candidate dropped as too long hides the rest of its own text,
/// whatever precedes it (a hyphen and a space, a hyphen and a blank line,
/// a hyphen break before it on a line of its own), read whole or in
/// pieces.
#[test]
fn no_piece_of_an_over_long_url_after_a_break_before_it() {
    let url = "http://aaaaaaaaaaaaaaaaaaaaaaaaa/http://evil.example/x";
    for before in ["see - ", "see-\n", "see-\n\n", "see -\n  "] {
        let text = format!("{before}{url} and http://ok.example/");
        for (chunk, batch) in [(1 << 20, 1 << 22), (1, 100), (7, 40)] {
            let hits = run_max(text.as_bytes(), chunk, batch, 30);
            let urls: Vec<&str> = hits.iter().map(|h| h.url()).collect();
            assert_eq!(urls, ["http://ok.example/"], "{text:?} {chunk}");
            assert_eq!(
                streamed(text.as_bytes(), chunk, batch, 30),
                ["http://ok.example/"],
                "{text:?} {chunk} {batch}"
            );
        }
    }
}

/// A line-buffered stream hands over each read as it comes: an
/// over-long run ending in a hyphen break at the end of one read, whose
/// break turns out not to join, ends there (the next read's URL is
/// found).
#[test]
fn line_buffered_reads_end_an_over_long_run_at_a_break() {
    struct Reads(Vec<&'static [u8]>);
    impl std::io::Read for Reads {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let next = self.0.remove(0);
            buf[..next.len()].copy_from_slice(next);
            Ok(next.len())
        }
    }
    let ex = Extractor::builder()
        .line_buffered(true)
        .max_url_len(20)
        .build()
        .unwrap();
    // The break ends at a blank line; at a line that starts a URL, cut
    // inside its scheme (its colon in the first read).
    for reads in [
        [
            &b"see http://aaaaaaaaaaaaaaaaaaaaaa-\n"[..],
            b"\n http://ok.example/\n",
        ],
        [b"see http://aaaaaaaaaaaaaaaaaaaaaa-\nhttp:", b"//ok.example/\n"],
    ] {
        let mut urls = Vec::new();
        ex.find_in(Reads(reads.to_vec()), |h| {
            urls.push(h.url().to_string());
            true
        })
        .unwrap();
        assert_eq!(urls, ["http://ok.example/"], "{reads:?}");
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
            // Archives have their own tests (tests/archive.rs).
            if p.ends_with("archive") {
                continue;
            }
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
fn searches_on_every_thread_of_their_pool_end() {
    // Two searches at once on the threads of a pool of two (its own, or
    // the global pool without one): each runs on its thread, none waits
    // for a pool thread that the other holds.
    let mut all = Vec::new();
    for f in corpus_files() {
        all.extend(std::fs::read(&f).unwrap());
    }
    let all = std::sync::Arc::new(all);
    let (tx, rx) = std::sync::mpsc::channel();
    let data = std::sync::Arc::clone(&all);
    std::thread::spawn(move || {
        let two = pool(2);
        let ex = Extractor::builder()
            .chunk_size(4096)
            .batch_size(65536)
            .thread_pool(std::sync::Arc::clone(&two))
            .build()
            .unwrap();
        let (a, b) =
            two.install(|| rayon::join(|| ex.find(&data), || ex.find(&data)));
        let global = Extractor::builder().chunk_size(4096).build().unwrap();
        let (c, d) = rayon::join(|| global.find(&data), || global.find(&data));
        let _ = tx.send((a, b, c, d));
    });
    let (a, b, c, d) = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the searches ended");
    let want = Extractor::builder()
        .chunk_size(4096)
        .single_thread(true)
        .build()
        .unwrap()
        .find(&all);
    assert!(want.len() > 100);
    for hits in [a, b, c, d] {
        assert_eq!(hits, want);
    }
}

/// A rayon pool of `n` threads.
fn pool(n: usize) -> std::sync::Arc<rayon::ThreadPool> {
    std::sync::Arc::new(
        rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap(),
    )
}

#[test]
fn same_for_every_thread_count() {
    let mut all = Vec::new();
    for f in corpus_files() {
        all.extend(std::fs::read(&f).unwrap());
    }
    let on = |threads: usize, single: bool| {
        Extractor::builder()
            .line_numbers(true)
            .chunk_size(4096)
            .batch_size(65536)
            .max_url_len(64)
            .thread_pool(pool(threads))
            .single_thread(single)
            .build()
            .unwrap()
            .find(&all)
    };
    let a = on(1, false);
    assert!(a.len() > 100);
    assert_eq!(on(4, false), a);
    // Told to stay on the calling thread, with a pool of four.
    assert_eq!(on(4, true), a);
    // Called on a thread of a pool of four: scanned on that pool, with
    // no scanning thread of its own.
    let four = pool(4);
    assert_eq!(four.install(|| run(&all, 4096, 65536)), a);
}

/// All hits of `path` read as a file (in parts, by the scanning
/// threads) with the given part size.
fn run_file(path: &std::path::Path, chunk: usize) -> Vec<Hit> {
    let ex = Extractor::builder()
        .line_numbers(true)
        .chunk_size(chunk)
        .batch_size(4 * chunk)
        .max_url_len(64)
        .build()
        .unwrap();
    let mut sink = Collect(Vec::new());
    ex.search(std::iter::once(urlx::Input::file("f", path)), &mut sink)
        .unwrap();
    sink.0.into_iter().map(|(_, h)| h).collect()
}

#[test]
fn file_parts_same_as_reading_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut all = Vec::new();
    for f in corpus_files() {
        if f.extension().is_some_and(|e| e == "gz") {
            continue;
        }
        all.extend(std::fs::read(&f).unwrap());
    }
    let path = dir.path().join("all.txt");
    std::fs::write(&path, &all).unwrap();
    let whole = run(&all, 1 << 20, 1 << 20);
    assert!(whole.len() > 500);
    for chunk in [7, 100, 4096, 1 << 20] {
        assert_eq!(run_file(&path, chunk), whole, "part size {chunk}");
    }
}

#[test]
fn dense_urls_read_in_finer_parts_give_the_hits_of_one_pass() {
    // Far denser than the density above which the parts of a batch are
    // cut smaller than the configured chunk: from the third batch (the
    // second is read before the first is merged), a file is read and
    // scanned in parts of a quarter of it, on two threads.
    use std::fmt::Write as _;
    let mut text = String::new();
    for i in 0..20_000 {
        writeln!(text, "<http://h{i}.example/p?q={i}> (www.x{i}.org),")
            .unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.txt");
    std::fs::write(&path, &text).unwrap();
    let whole = run(text.as_bytes(), 1 << 20, 1 << 20);
    assert_eq!(whole.len(), 20_000);
    for chunk in [4096, 65536] {
        let ex = Extractor::builder()
            .line_numbers(true)
            .chunk_size(chunk)
            .batch_size(4 * chunk)
            .max_url_len(64)
            .thread_pool(pool(2))
            .build()
            .unwrap();
        let mut sink = Collect(Vec::new());
        ex.search(std::iter::once(urlx::Input::file("f", &path)), &mut sink)
            .unwrap();
        let hits: Vec<Hit> = sink.0.into_iter().map(|(_, h)| h).collect();
        assert_eq!(hits, whole, "chunk {chunk}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn file_parts_same_for_every_part_size(text in text_strategy(), chunk in 1usize..40) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        std::fs::write(&path, text.as_bytes()).unwrap();
        prop_assert_eq!(run_file(&path, chunk), run(text.as_bytes(), 1 << 20, 1 << 20));
    }
}

#[test]
fn every_way_of_reading_a_file_gives_the_same_hits() {
    // Small files go whole to one job (opened there when the length is
    // known), large ones in parts; readers are read in order. Mail
    // detection included.
    let files: Vec<_> = corpus_files()
        .into_iter()
        .filter(|f| f.extension().is_none_or(|e| e != "gz"))
        .collect();
    let run = |how: u8| {
        let ex = Extractor::builder()
            .format(urlx::mail::InputFormat::Auto)
            .line_numbers(true)
            .build()
            .unwrap();
        let inputs = files.iter().map(|f| {
            let len = std::fs::metadata(f).unwrap().len();
            match how {
                0 => urlx::Input::new("", move || std::fs::File::open(f)),
                1 => urlx::Input::file("", f),
                _ => urlx::Input::file_with_len("", f, len),
            }
        });
        let mut sink = Collect(Vec::new());
        ex.search(inputs, &mut sink).unwrap();
        sink.0
    };
    let reader = run(0);
    assert!(reader.len() > 500);
    assert_eq!(run(1), reader);
    assert_eq!(run(2), reader);
}

#[test]
fn mail_same_for_every_chunking_and_thread_count() {
    // Mail is decoded a message at a time, messages in parallel: the
    // hits (with their provenance) must not depend on the cut nor on
    // the number of threads either.
    let mut all = Vec::new();
    for f in corpus_files() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".eml") || name.ends_with(".mboxrd") {
            // One mbox: each message after a "From " line.
            all.extend_from_slice(b"From a@b Thu Jan  1 00:00:00 1970\n");
            all.extend(std::fs::read(&f).unwrap());
            all.push(b'\n');
        }
    }
    let (one, four) = (pool(1), pool(4));
    let run = |chunk: usize, batch: usize, threads: &std::sync::Arc<_>| {
        Extractor::builder()
            .format(urlx::mail::InputFormat::Mbox)
            .line_numbers(true)
            .chunk_size(chunk)
            .batch_size(batch)
            .thread_pool(std::sync::Arc::clone(threads))
            .build()
            .unwrap()
            .find(&all)
    };
    let whole = run(1 << 20, 1 << 22, &one);
    assert!(whole.len() > 150, "{}", whole.len());
    assert!(whole.iter().all(|h| h.provenance().is_some()));
    for (chunk, batch) in [(1 << 20, 1 << 22), (7, 100), (4096, 20_000)] {
        assert_eq!(run(chunk, batch, &four), whole, "{chunk}");
        assert_eq!(run(chunk, batch, &one), whole, "{chunk}");
    }
}

/// The hits and binary notes of `path` read in parts of `chunk` bytes,
/// with the trigger search fixed to `search` (a fixed search looks for
/// the NUL byte in a pass of its own; the default scan, in its own).
fn run_binary_file(
    path: &std::path::Path,
    chunk: usize,
    search: Option<urlx::stages::TriggerSearch>,
) -> (Vec<Hit>, Vec<(u64, bool)>) {
    struct Notes(Vec<Hit>, Vec<(u64, bool)>);
    impl urlx::Sink for Notes {
        fn hit(
            &mut self,
            _: &urlx::InputInfo,
            hit: &Hit,
        ) -> std::io::Result<bool> {
            self.0.push(hit.clone());
            Ok(true)
        }
        fn error(
            &mut self,
            _: &urlx::InputInfo,
            e: &std::io::Error,
        ) -> std::io::Result<()> {
            panic!("{e}")
        }
        fn binary(
            &mut self,
            _: &urlx::InputInfo,
            at: u64,
            skipped: bool,
        ) -> std::io::Result<()> {
            self.1.push((at, skipped));
            Ok(())
        }
    }
    let ex = Extractor::builder()
        .line_numbers(true)
        .chunk_size(chunk)
        .batch_size(4 * chunk)
        .max_url_len(64)
        .trigger_search(search)
        .build()
        .unwrap();
    let mut sink = Notes(Vec::new(), Vec::new());
    ex.search(std::iter::once(urlx::Input::file("f", path)), &mut sink)
        .unwrap();
    (sink.0, sink.1)
}

#[test]
fn a_nul_byte_found_by_the_scan_cuts_where_its_own_search_does() {
    use urlx::stages::TriggerSearch;
    if !urlx::stages::search_available(TriggerSearch::Sieve) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.txt");
    let line = b"see http://a.example/x mailto:j@x.example (ftp://f/p)\n";
    let mut next = crate::common::xorshift(0x0b1a_57e5);
    let probe = 64 << 10;
    let mut cut = 0;
    for round in 0..60 {
        let len = probe + 1 + (next() as usize % (200 << 10));
        let mut text: Vec<u8> =
            line.iter().copied().cycle().take(len).collect();
        // No NUL, one in the probe, one after it, one at the very end;
        // a URL right before it now and then.
        let nul = match round % 4 {
            0 => None,
            1 => Some(next() as usize % probe),
            2 => Some(probe + next() as usize % (len - probe)),
            _ => Some(len - 1),
        };
        if let Some(at) = nul {
            text[at] = 0;
            if round % 3 == 0 && at > 20 {
                text[at - 20..at].copy_from_slice(b" http://n.example/ab");
            }
        }
        std::fs::write(&path, &text).unwrap();
        for chunk in [1000, 4096, 70_000] {
            let by_scan = run_binary_file(&path, chunk, None);
            let apart =
                run_binary_file(&path, chunk, Some(TriggerSearch::Sieve));
            assert_eq!(
                by_scan, apart,
                "round {round}, NUL at {nul:?}, parts of {chunk}"
            );
            cut += usize::from(!by_scan.1.is_empty());
        }
    }
    assert!(cut > 100, "{cut}");
}

//! Where mail decoding spends its time, message by message: the
//! messages of an mbox that cost the most in all, and the most per byte
//! (a rule that is slow on some shape of real input shows up there).
//!
//! ```text
//! cargo run --release --example message_costs -- MBOX [TOP]
//! ```
//!
//! Each message (split at `From ` lines; `>From ` quoting is left as it
//! is) is decoded and scanned as a single message (`--format eml`) three
//! times, and the fastest run counts. Printed: the total, the share of
//! the dearest 1% of messages, then the TOP (default 15) dearest in all
//! and per byte, each with its offset in the mbox, size, time, hits and
//! subject.

use std::time::{Duration, Instant};

use urlx::{Extractor, InputFormat};

struct Cost {
    offset: usize,
    len: usize,
    time: Duration,
    hits: usize,
}

fn messages(mbox: &[u8]) -> Vec<(usize, &[u8])> {
    let mut starts: Vec<usize> =
        memchr::memmem::find_iter(mbox, b"\nFrom ").map(|p| p + 1).collect();
    if mbox.starts_with(b"From ") {
        starts.insert(0, 0);
    }
    starts.push(mbox.len());
    starts
        .windows(2)
        .map(|w| {
            // The message starts after its `From ` line.
            let sep = &mbox[w[0]..w[1]];
            let body =
                memchr::memchr(b'\n', sep).map_or(w[1], |n| w[0] + n + 1);
            (body, &mbox[body..w[1]])
        })
        .collect()
}

fn subject(msg: &[u8]) -> String {
    let head_end = memchr::memmem::find(msg, b"\n\n").unwrap_or(msg.len());
    msg[..head_end]
        .split(|&b| b == b'\n')
        .find(|l| l.len() > 8 && l[..8].eq_ignore_ascii_case(b"subject:"))
        .map(|l| {
            String::from_utf8_lossy(&l[8..]).trim().chars().take(50).collect()
        })
        .unwrap_or_default()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: message_costs MBOX [TOP]");
        std::process::exit(2);
    };
    let top: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(15);
    let mbox = std::fs::read(path).expect("read the mbox");
    let ex = Extractor::builder()
        .format(InputFormat::Eml)
        .single_thread(true)
        .build()
        .expect("extractor");
    let mut costs: Vec<Cost> = messages(&mbox)
        .into_iter()
        .map(|(offset, msg)| {
            let mut best = Duration::MAX;
            let mut hits = 0;
            for _ in 0..3 {
                let t = Instant::now();
                hits = ex.find(msg).len();
                best = best.min(t.elapsed());
            }
            Cost { offset, len: msg.len(), time: best, hits }
        })
        .collect();
    let total: Duration = costs.iter().map(|c| c.time).sum();
    let bytes: usize = costs.iter().map(|c| c.len).sum();
    println!(
        "{} messages, {:.1} MB, {:.3} s: {:.1} MB/s",
        costs.len(),
        bytes as f64 / 1e6,
        total.as_secs_f64(),
        bytes as f64 / 1e6 / total.as_secs_f64()
    );
    costs.sort_by_key(|c| std::cmp::Reverse(c.time));
    let one_percent = costs.len().div_ceil(100);
    let dear: Duration = costs[..one_percent].iter().map(|c| c.time).sum();
    let dear_bytes: usize = costs[..one_percent].iter().map(|c| c.len).sum();
    println!(
        "dearest 1% ({one_percent} messages, {:.1}% of the bytes): {:.1}% of the time",
        100.0 * dear_bytes as f64 / bytes as f64,
        100.0 * dear.as_secs_f64() / total.as_secs_f64()
    );
    let show = |title: &str, list: &[Cost]| {
        println!(
            "\n{title}\n{:>12} {:>9} {:>9} {:>7} {:>6}  subject",
            "offset", "bytes", "us", "ns/B", "hits"
        );
        for c in list.iter().take(top) {
            let msg = &mbox[c.offset..c.offset + c.len];
            println!(
                "{:>12} {:>9} {:>9.0} {:>7.1} {:>6}  {}",
                c.offset,
                c.len,
                c.time.as_secs_f64() * 1e6,
                c.time.as_secs_f64() * 1e9 / c.len.max(1) as f64,
                c.hits,
                subject(msg)
            );
        }
    };
    show("dearest in all", &costs);
    // Per byte, among messages of at least 2 KB (the fixed cost of a
    // message dominates smaller ones).
    let mut per_byte: Vec<Cost> =
        costs.into_iter().filter(|c| c.len >= 2048).collect();
    per_byte.sort_by(|a, b| {
        let r = |c: &Cost| c.time.as_secs_f64() / c.len as f64;
        r(b).total_cmp(&r(a))
    });
    show("dearest per byte (messages of 2 KB or more)", &per_byte);
}

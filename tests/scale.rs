//! Scale-out as Hadoop Streaming and Spark `RDD.pipe` run urlx: the input
//! is cut into line-aligned splits, each split is piped through
//! `urlx --json --format text -` on its own (a mapper), and the results
//! are put together. No Java, Spark or network: the binary alone, as
//! `scale/hadoop_streaming_sim.sh` does in shell (see `scale/README.md`).
//!
//! What holds: every URL that lies away from a split boundary is found by
//! its split's mapper exactly as by one run over the whole file (same URL,
//! same byte offsets and line once the split's own offset is added). What
//! does not: a URL wrapped across lines (`<URL:...>`, hyphen breaks) whose
//! lines fall into two splits is cut, as `wrapped_url_across_a_split_is_cut`
//! shows.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::BIN;

/// One hit of a JSON Lines run, with offsets and line made absolute.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Hit {
    start: u64,
    end: u64,
    line: u64,
    url: String,
}

/// Runs `urlx --json --format text -` on `input` as a streaming mapper
/// does (standard input to standard output) and parses its hits. Exit
/// status 1 (no URL) is a normal outcome for a mapper.
fn map(input: &[u8]) -> Vec<Value> {
    let mut child = Command::new(BIN)
        .args(["--json", "--format", "text", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run urlx");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().expect("wait for urlx");
    writer.join().unwrap().expect("write to urlx");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 JSON Lines");
    match out.status.code() {
        Some(0) => assert!(!stdout.is_empty(), "exit 0 with no output"),
        Some(1) => assert!(stdout.is_empty(), "exit 1 with output"),
        other => panic!(
            "urlx exited with {other:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// The hits of one mapper run over `input[from..to]`, made absolute.
fn map_split(input: &[u8], from: usize, to: usize) -> Vec<Hit> {
    let line0 = input[..from].iter().filter(|&&b| b == b'\n').count() as u64;
    map(&input[from..to])
        .into_iter()
        .map(|v| {
            assert_eq!(v["file"], "<stdin>");
            Hit {
                start: v["start"].as_u64().unwrap() + from as u64,
                end: v["end"].as_u64().unwrap() + from as u64,
                line: v["line"].as_u64().unwrap() + line0,
                url: v["url"].as_str().unwrap().to_owned(),
            }
        })
        .collect()
}

/// `n` line-aligned splits as Hadoop's `TextInputFormat` and
/// `split -n l/N` make them: each cut moved forward to just after a
/// newline. Returns the split start offsets followed by the length.
fn line_splits(input: &[u8], n: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    for k in 1..n {
        let at = input.len() * k / n;
        let cut = match input[at..].iter().position(|&b| b == b'\n') {
            Some(i) => at + i + 1,
            None => input.len(),
        };
        if cut > *cuts.last().unwrap() && cut < input.len() {
            cuts.push(cut);
        }
    }
    cuts.push(input.len());
    cuts
}

/// Line numbers (1-based) near a split boundary, where a mapper may see
/// only part of a URL or of its wrapper: the line before and the line
/// after every inner cut, and every line of a whole-file hit that
/// crosses a cut.
fn boundary_lines(input: &[u8], cuts: &[usize], whole: &[Hit]) -> Vec<u64> {
    let line_of = |off: usize| {
        input[..off].iter().filter(|&&b| b == b'\n').count() as u64 + 1
    };
    let inner = &cuts[1..cuts.len() - 1];
    let mut lines = Vec::new();
    for &c in inner {
        let l = line_of(c);
        lines.extend([l - 1, l]);
    }
    for h in whole {
        if inner.iter().any(|&c| h.start < c as u64 && (c as u64) < h.end) {
            lines.extend(h.line..=line_of(h.end as usize));
        }
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// Splits `input` into `n` line-aligned splits, maps each on its own and
/// compares with one run over the whole input. Returns (hits compared,
/// whole-file hits near a boundary that were left out).
fn split_and_map(input: &[u8], n: usize) -> (usize, usize) {
    let cuts = line_splits(input, n);
    let whole = map_split(input, 0, input.len());
    // Splits in parallel, as mappers run.
    let splits: Vec<Vec<Hit>> = std::thread::scope(|s| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| s.spawn(move || map_split(input, w[0], w[1])))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let near = boundary_lines(input, &cuts, &whole);
    let away = |h: &Hit| near.binary_search(&h.line).is_err();
    let mut want: Vec<Hit> =
        whole.iter().filter(|h| away(h)).cloned().collect();
    let mut got: Vec<Hit> =
        splits.into_iter().flatten().filter(|h| away(h)).collect();
    want.sort();
    got.sort();
    assert_eq!(got, want, "splits at {cuts:?}");
    (want.len(), whole.len() - want.len())
}

fn corpora_text() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/text");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

#[test]
fn one_split_is_the_whole_run() {
    let input = std::fs::read(corpora_text()[0].clone()).unwrap();
    let (compared, left_out) = split_and_map(&input, 1);
    assert!(compared > 0);
    assert_eq!(left_out, 0);
}

#[test]
fn three_line_aligned_splits_of_each_text_file() {
    let mut per_file = BTreeMap::new();
    for path in corpora_text() {
        let input = std::fs::read(&path).unwrap();
        per_file.insert(
            path.file_name().unwrap().to_owned(),
            split_and_map(&input, 3),
        );
    }
    let compared: usize = per_file.values().map(|v| v.0).sum();
    let left_out: usize = per_file.values().map(|v| v.1).sum();
    // Nearly every URL is away from the two cuts of its file.
    assert!(compared >= 100, "{per_file:?}");
    assert!(left_out * 10 <= compared, "{per_file:?}");
}

#[test]
fn three_splits_of_the_text_corpus_concatenated() {
    let mut input = Vec::new();
    for path in corpora_text() {
        input.extend(std::fs::read(&path).unwrap());
        if input.last() != Some(&b'\n') {
            input.push(b'\n');
        }
    }
    for n in [2, 3, 7] {
        let (compared, left_out) = split_and_map(&input, n);
        assert!(compared >= 140, "{n} splits: {compared} compared");
        assert!(left_out <= 2 * n, "{n} splits: {left_out} left out");
    }
}

#[test]
fn wrapped_url_across_a_split_is_cut() {
    // RFC 1738's appendix: a <URL:...> wrapped over two lines. One run
    // joins it; a cut between the lines gives each mapper a piece.
    let input = b"pick it up from <URL:ftp://ds.in\n      ternic.net/rfc>.\n";
    let whole: Vec<String> =
        map_split(input, 0, input.len()).into_iter().map(|h| h.url).collect();
    assert_eq!(whole, ["ftp://ds.internic.net/rfc"]);
    let cut = input.iter().position(|&b| b == b'\n').unwrap() + 1;
    let pieces: Vec<String> = [(0, cut), (cut, input.len())]
        .into_iter()
        .flat_map(|(a, b)| map_split(input, a, b))
        .map(|h| h.url)
        .collect();
    assert!(!pieces.contains(&"ftp://ds.internic.net/rfc".to_owned()));
    assert_eq!(pieces, ["ftp://ds.in"]);
}

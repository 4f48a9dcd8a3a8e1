//! Criterion benchmarks of the whole pipeline (`Extractor::find`): the
//! bundled corpora (with and without line numbers) and 4 MiB
//! pathological inputs. Each bench first checks its hit count against a
//! constant, so a change in behaviour fails the bench instead of
//! silently changing what is measured.
//!
//! Run: `cargo bench --bench stages` (about a minute), or with
//! `-- --quick`; `cargo test --benches` runs each bench once.
//!
//! The expected counts were cross-checked with the CLI on the same
//! bytes: `urlx -c --invalid FILE` (all hits) and `urlx -c FILE` (valid
//! hits), and for line numbers `urlx -n --invalid FILE | tail -1`.

use std::hint::black_box;

use std::path::{Path, PathBuf};
use std::time::Duration;
use urlx::Uri;
use urlx::resolve::resolve;
use urlx::stages::TriggerSearch;

use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group,
    criterion_main, measurement::WallTime,
};
use urlx::{Extractor, Hit};

/// Size of each pathological input.
const PATHOLOGICAL_LEN: usize = 4 << 20;

/// What `find` must return for an input before it is measured.
struct Expect {
    /// All hits, valid or not (`urlx -c --invalid`).
    hits: usize,
    /// Valid hits (`urlx -c`).
    valid: usize,
    /// Line of the last hit (`urlx -n --invalid | tail -1`), checked
    /// when line numbers are on.
    last_line: u64,
}

/// A corpus input: its name, the directory under `corpora/`, the file
/// extension to keep (`None`: every file) and the expected result.
const CORPORA: [(&str, &str, Option<&str>, Expect); 3] = [
    // 9 files, 112960 bytes: RFC 1738, an I-D, RFC 4634 excerpts, Lynx
    // and Emacs READMEs, perlfaq2. Of the 20 invalid hits, 19 are RFC
    // 1738's scheme templates (`http://<host>:<port>/...` ends at `<`,
    // leaving `http://`) and one is Lynx's `file://localhost/[path]/...`.
    ("text", "text", None, Expect { hits: 179, valid: 159, last_line: 3110 }),
    // 17 messages, 174,542 bytes, scanned as text (the MIME bench
    // below reads them as mail). Invalid: an undecoded quoted-printable
    // fragment, `mailto:BAY4=` and three `mailto:` links of an undecoded
    // quoted-printable HTML part whose `@` is written `=40` (no `@`: RFC
    // 6068's addr-spec). Another undecoded fragment is valid as a URI:
    // `http://www.frontl=`.
    (
        "mail",
        "mail",
        Some("eml"),
        Expect { hits: 202, valid: 197, last_line: 3375 },
    ),
    // 4 excerpts, 99857 bytes: Apache/shop access logs (Referer URLs),
    // Spark and Hadoop logs (hdfs://, spark://, akka.tcp:// URIs).
    (
        "logs",
        "logs",
        Some("log"),
        Expect { hits: 255, valid: 255, last_line: 351 },
    ),
];

/// Pathological inputs: a unit repeated to `PATHOLOGICAL_LEN` bytes.
const PATHOLOGICAL: [(&str, &[u8], Expect); 7] = [
    ("lt", b"<", Expect { hits: 0, valid: 0, last_line: 0 }),
    // Every byte is a trigger.
    ("colon", b":", Expect { hits: 0, valid: 0, last_line: 0 }),
    // One endless URL: the first candidate is longer than max_url_len,
    // and scanning goes on after its whole run, so no tail of it is a
    // URL of its own.
    ("http", b"http://", Expect { hits: 0, valid: 0, last_line: 0 }),
    (
        "url_prefix_unclosed",
        b"<URL:",
        Expect { hits: 0, valid: 0, last_line: 0 },
    ),
    ("open_paren", b"(", Expect { hits: 0, valid: 0, last_line: 0 }),
    // Every line ends in a hyphen, so every line break is joined: one
    // endless URL again, whose run goes on across the breaks, so no
    // tail of it is a URL of its own either. (With `http://a/x-` lines
    // each line would be a URL of its own: a line starting with
    // `scheme://` is not a continuation.)
    (
        "hyphen_breaks",
        b"data:,a-\n",
        Expect { hits: 0, valid: 0, last_line: 0 },
    ),
    ("percent", b"%", Expect { hits: 0, valid: 0, last_line: 0 }),
];

fn corpora_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora")
}

/// The files of `corpora/<dir>` (with extension `ext`, if given),
/// concatenated in name order.
fn corpus(dir: &str, ext: Option<&str>) -> Vec<u8> {
    let dir = corpora_dir().join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| ext.is_none_or(|x| p.extension().is_some_and(|e| e == x)))
        .collect();
    paths.sort();
    let mut data = Vec::new();
    for p in paths {
        let bytes = std::fs::read(&p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        data.extend_from_slice(&bytes);
    }
    data
}

fn repeat_to(unit: &[u8], len: usize) -> Vec<u8> {
    unit.iter().copied().cycle().take(len).collect()
}

/// Run `find` once and compare with `expect`.
fn check(
    extractor: &Extractor,
    name: &str,
    data: &[u8],
    expect: &Expect,
    lines: bool,
) {
    let hits: Vec<Hit> = extractor.find(data);
    let valid = hits.iter().filter(|h| h.is_valid()).count();
    assert_eq!(
        (hits.len(), valid),
        (expect.hits, expect.valid),
        "{name}: (hits, valid hits) changed; update the bench constants \
         only if the new behaviour is intended"
    );
    if lines {
        let last = hits.last().map_or(0, |h| h.line());
        assert_eq!(last, expect.last_line, "{name}: line of the last hit");
    }
}

fn bench_input(
    group: &mut BenchmarkGroup<'_, WallTime>,
    extractor: &Extractor,
    name: &str,
    data: &[u8],
    expect: &Expect,
    lines: bool,
) {
    check(extractor, name, data, expect, lines);
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function(name, |b| {
        b.iter(|| extractor.find(black_box(data)).len())
    });
}

fn corpora(c: &mut Criterion, group_name: &str, lines: bool) {
    let extractor = Extractor::builder()
        .line_numbers(lines)
        .build()
        .expect("default extractor");
    let mut group = c.benchmark_group(group_name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, dir, ext, expect) in &CORPORA {
        let data = corpus(dir, *ext);
        bench_input(&mut group, &extractor, name, &data, expect, lines);
    }
    group.finish();
}

fn find_corpora(c: &mut Criterion) {
    corpora(c, "find", false);
}

fn find_corpora_lines(c: &mut Criterion) {
    corpora(c, "find_line_numbers", true);
}

fn find_pathological(c: &mut Criterion) {
    let extractor = Extractor::builder().build().expect("default extractor");
    let mut group = c.benchmark_group("pathological");
    // Iterations take milliseconds: flat sampling, few samples.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, unit, expect) in &PATHOLOGICAL {
        let data = repeat_to(unit, PATHOLOGICAL_LEN);
        bench_input(&mut group, &extractor, name, &data, expect, false);
    }
    group.finish();
}

/// The two mbox samples read as mail (MIME decoded, HTML scanned).
fn find_mbox(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/mail");
    let mut data = Vec::new();
    let gz = std::fs::File::open(root.join("usrp-users-4.mboxrd.gz"))
        .expect("usrp-users-4.mboxrd.gz");
    urlx::decompress::sniffed(gz)
        .and_then(|mut r| std::io::Read::read_to_end(&mut r, &mut data))
        .expect("decompress");
    data.extend(std::fs::read(root.join("kasan-dev-2.mboxrd")).unwrap());
    let extractor = Extractor::builder()
        .format(urlx::mail::InputFormat::Mbox)
        .line_numbers(true)
        .build()
        .expect("mbox extractor");
    let mut group = c.benchmark_group("mail");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    // 6 messages, 86,584 bytes: quoted-printable and HTML parts, List-*
    // headers; last hit on line 1682 of the two files joined.
    let expect = Expect { hits: 116, valid: 116, last_line: 1682 };
    bench_input(&mut group, &extractor, "mbox", &data, &expect, true);
    group.finish();
}

/// Each stage alone on the text corpus: scan (triggers), scan+delimit
/// (candidates), validate (parse and check each URL found), resolve
/// (RFC 3986 5.4's references against its base, and dot removal).
fn stages(c: &mut Criterion) {
    let text = corpus("text", None);
    let mut group = c.benchmark_group("stage");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    // 457 `:` pass the two-byte reject in the 112,960 bytes; 179 of
    // them start a URL (the `find/text` hits).
    assert_eq!(urlx::stages::count_triggers(&text), 457, "scan");
    assert_eq!(urlx::stages::count_candidates(&text, 8192), 179, "delimit");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("scan", |b| {
        b.iter(|| urlx::stages::count_triggers(black_box(&text)))
    });
    group.bench_function("delimit", |b| {
        b.iter(|| urlx::stages::count_candidates(black_box(&text), 8192))
    });
    // The ways of finding triggers, on logs (a colon in every
    // timestamp): every colon, or only scheme endings (Teddy, on the
    // last letter or the last two, or the SIMD sieve); all must delimit
    // the same 255
    // candidates (the `find/logs` hits).
    let logs = corpus("logs", Some("log"));
    group.throughput(Throughput::Bytes(logs.len() as u64));
    for (name, search) in [
        ("delimit_colons/logs", TriggerSearch::Colons),
        ("delimit_letters/logs", TriggerSearch::Letters),
        ("delimit_pairs/logs", TriggerSearch::Pairs),
        ("delimit_sieve/logs", TriggerSearch::Sieve),
    ] {
        if !urlx::stages::search_available(search) {
            continue;
        }
        let spans = urlx::stages::candidate_spans(&logs, Some(search));
        assert_eq!(spans.len(), 255, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| {
                urlx::stages::candidate_spans(black_box(&logs), Some(search))
                    .len()
            })
        });
    }
    group.throughput(Throughput::Bytes(text.len() as u64));
    let ex = Extractor::builder().build().expect("default extractor");
    let urls: Vec<String> =
        ex.find(&text).iter().map(|h| h.url().to_string()).collect();
    let bytes: usize = urls.iter().map(String::len).sum();
    let valid = urls.iter().filter(|u| Uri::parse(u).is_valid()).count();
    // 161 pass the RFC 3986 grammar; 2 of them (`file://` alone) fail
    // the extractor's own "something after `//`" check.
    assert_eq!((urls.len(), valid), (179, 161), "validate");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("validate", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| Uri::parse(black_box(u)).errors().is_empty())
                .count()
        })
    });
    // RFC 3986 5.4.1 and 5.4.2 references.
    let refs = [
        "g:h",
        "g",
        "./g",
        "g/",
        "/g",
        "//g",
        "?y",
        "g?y",
        "#s",
        "g#s",
        "g?y#s",
        ";x",
        "g;x",
        "g;x?y#s",
        "",
        ".",
        "./",
        "..",
        "../",
        "../g",
        "../..",
        "../../",
        "../../g",
        "../../../g",
        "../../../../g",
        "/./g",
        "/../g",
        "g.",
        ".g",
        "g..",
        "..g",
        "./../g",
        "./g/.",
        "g/./h",
        "g/../h",
        "g;x=1/./y",
        "g;x=1/../y",
        "g?y/./x",
        "g?y/../x",
        "g#s/./x",
        "g#s/../x",
        "http:g",
    ];
    let base = Uri::parse("http://a/b/c/d;p?q");
    let parsed: Vec<Uri<'_>> = refs.iter().map(|r| Uri::parse(r)).collect();
    assert_eq!(
        resolve(&base, &parsed[23]).expect("resolves"),
        "http://a/g",
        "resolve"
    );
    group.throughput(Throughput::Elements(refs.len() as u64));
    group.bench_function("resolve", |b| {
        b.iter(|| {
            parsed
                .iter()
                .map(|r| resolve(black_box(&base), r).map_or(0, |s| s.len()))
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    stages,
    find_corpora,
    find_corpora_lines,
    find_pathological,
    find_mbox
);
criterion_main!(benches);

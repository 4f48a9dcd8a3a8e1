//! Hostile and damaged compressed input, through the binary: memory
//! limits of the zstd and xz decoders, every zstd frame (skippable ones
//! skipped, RFC 8878 3.1), content checksums, the text decoded before a
//! failure searched, and errors told in sentences. Each input is made
//! here, with the compression crates urlx itself uses.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::common::{Run, urlx_at};

/// `n` lines with one URL each, `http://<host>/<i>`.
fn text(host: &str, n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| format!("line {i} see http://{host}/{i} here\n"))
        .collect::<String>()
        .into_bytes()
}

/// One zstd frame of `data`, with the window descriptor the streaming
/// encoder writes (no single-segment flag) and a content checksum.
fn zstd_frame(data: &[u8]) -> Vec<u8> {
    let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    e.include_checksum(true).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn bzip2_fast(data: &[u8]) -> Vec<u8> {
    // Level 1: blocks of 100 kB, so a large input has many.
    let mut e =
        bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A directory holding `files`.
fn dir_with(files: &[(&str, &[u8])]) -> TempDir {
    let d = TempDir::new().unwrap();
    for (name, bytes) in files {
        std::fs::write(d.path().join(name), bytes).unwrap();
    }
    d
}

/// Run the binary with its address space capped at `cap` bytes (so a
/// decoder that allocated what a header claims would fail), and time it.
fn urlx_capped(dir: &Path, args: &[&str], cap: u64) -> (Run, Duration) {
    use std::os::unix::process::CommandExt;
    let start = Instant::now();
    let mut cmd = std::process::Command::new(crate::common::BIN);
    cmd.args(args).current_dir(dir).stdin(std::process::Stdio::null());
    // SAFETY: setrlimit is async-signal-safe and only touches the child.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: cap, rlim_max: cap };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().expect("urlx runs");
    let run = Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    (run, start.elapsed())
}

/// An error line for `name` that is a sentence, not a debug dump.
#[track_caller]
fn assert_sentence(stderr: &str, name: &str, words: &str) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with(&format!("urlx: {name}: ")))
        .unwrap_or_else(|| panic!("no error for {name}: {stderr:?}"));
    assert!(line.contains(words), "{line:?} lacks {words:?}");
    for dump in ["Error {", "kind:", "Custom", "(Error", "Os {"] {
        assert!(!line.contains(dump), "debug dump: {line:?}");
    }
}

/// The address space the capped runs get: far below the 2 GiB and
/// 4 GiB the headers below claim, far above what urlx needs.
const CAP: u64 = 1 << 30;

#[test]
fn zstd_window_over_the_limit_is_refused_in_bounded_memory() {
    // A real frame whose window descriptor (RFC 8878 3.1.1.1.2) is
    // raised to 2 GiB (exponent 21, as `zstd --long=31` writes for an
    // input of unknown size); and a frame header claiming 2 TiB
    // (exponent 31) before one empty raw block.
    let mut long = zstd_frame(&text("long.example", 100));
    assert_eq!(long[4] & 0x20, 0, "no single-segment flag");
    long[5] = 21 << 3;
    let tib = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 31 << 3, 0x01, 0x00, 0x00];
    let plain = text("plain.example", 3);
    let d = dir_with(&[
        ("long.zst", &long),
        ("tib.zst", &tib),
        ("plain.txt", &plain),
    ]);
    let (r, took) = urlx_capped(
        d.path(),
        &["-j1", "long.zst", "tib.zst", "plain.txt"],
        CAP,
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.out().lines().count(), 3, "{}", r.out());
    assert!(r.out().lines().all(|l| l.starts_with("plain.txt:")));
    for name in ["long.zst", "tib.zst"] {
        assert_sentence(&r.stderr, name, "window larger than 128 MiB");
        assert_sentence(&r.stderr, name, "zstd -dc --long=31");
    }
}

#[test]
fn zstd_window_at_the_limit_is_read() {
    // 128 MiB (exponent 17) is what `zstd -d` accepts without --long.
    let mut frame = zstd_frame(&text("w.example", 10));
    frame[5] = 17 << 3;
    let d = dir_with(&[("w.zst", &frame)]);
    let (r, _) = urlx_capped(d.path(), &["-j1", "w.zst"], CAP);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.out().lines().count(), 10);
}

#[test]
fn xz_dictionary_over_the_limit_is_refused_in_bounded_memory() {
    // The block header's LZMA2 dictionary size (xz file format 1.2.0,
    // 3.1.5 and 5.3.1) raised to 4 GiB - 1 (code 40), its CRC32 fixed.
    let mut big = xz(&text("xz.example", 100));
    let header = 12; // the stream header
    let size = (big[header] as usize + 1) * 4;
    assert_eq!(big[header + 1] & 0xc3, 0, "one filter, no size fields");
    assert_eq!(&big[header + 2..header + 4], &[0x21, 0x01], "LZMA2");
    big[header + 4] = 40;
    let mut crc = flate2::Crc::new();
    crc.update(&big[header..header + size - 4]);
    big[header + size - 4..header + size]
        .copy_from_slice(&crc.sum().to_le_bytes());
    let plain = text("plain.example", 3);
    let d = dir_with(&[("big.xz", &big), ("plain.txt", &plain)]);
    let (r, took) =
        urlx_capped(d.path(), &["-j1", "big.xz", "plain.txt"], CAP);
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.out().lines().count(), 3);
    assert_sentence(&r.stderr, "big.xz", "more than 136 MiB of memory");
    assert_sentence(&r.stderr, "big.xz", "xz -dc");
}

#[test]
fn zstd_every_frame_is_read() {
    // `zstd a; zstd b` concatenated (RFC 8878 3.1: a file is a sequence
    // of frames).
    let mut both = zstd_frame(&text("a.example", 50));
    both.extend(zstd_frame(&text("b.example", 50)));
    let d = dir_with(&[("ab.zst", &both)]);
    let r = urlx_at(d.path(), &["-c", "ab.zst"]);
    r.expect_quiet("100\n", 0);
    let r = urlx_at(d.path(), &["--hosts", "ab.zst"]);
    r.expect_quiet("50\ta.example\n50\tb.example\n", 0);
}

#[test]
fn zstd_skippable_frames_are_skipped() {
    // A skippable frame first, as `pzstd` writes, and one between two
    // frames (RFC 8878 3.1.2: magic 0x184D2A5?, then a 4-byte size).
    let skippable = |n: u8, data: &[u8]| {
        let mut f = vec![0x50 | n, 0x2a, 0x4d, 0x18];
        f.extend((data.len() as u32).to_le_bytes());
        f.extend(data);
        f
    };
    let mut first = skippable(0, b"\x00\x01pzstd frame sizes");
    first.extend(zstd_frame(&text("a.example", 5)));
    let mut between = zstd_frame(&text("a.example", 5));
    between.extend(skippable(0xf, b"http://hidden.example/"));
    between.extend(zstd_frame(&text("b.example", 5)));
    let d = dir_with(&[("first.zst", &first), ("between.zst", &between)]);
    urlx_at(d.path(), &["-c", "first.zst", "between.zst"])
        .expect_quiet("first.zst:5\nbetween.zst:10\n", 0);
    // By magic bytes too (-z), from standard input.
    let r = crate::common::urlx_in(None, &["-z", "-c"], Some(&first));
    r.expect_quiet("5\n", 0);
}

#[test]
fn zstd_checksum_mismatch_is_an_error() {
    // The last 4 bytes of a frame are its content checksum (RFC 8878
    // 3.1.1): flipped, the content decodes but does not match it.
    // What came before the frame's last 32 KiB is searched (libzstd
    // gives nothing of the call that finds the mismatch).
    let mut frame = zstd_frame(&text("c.example", 20_000));
    let end = frame.len();
    frame[end - 1] ^= 0xff;
    let d = dir_with(&[("c.zst", &frame)]);
    let r = urlx_at(d.path(), &["-c", "c.zst"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let n: usize = r.out().trim().parse().unwrap();
    assert!(n > 18_000 && n <= 20_000, "{n}");
    assert_sentence(&r.stderr, "c.zst", "checksum");
    assert_sentence(&r.stderr, "c.zst", "`zstd -t` checks the file");
}

#[test]
fn text_decoded_before_damage_is_searched() {
    // A gzip member whose CRC32 trailer (RFC 1952 2.3.1) is wrong: all
    // of its content was decoded before the check, so every URL is
    // printed, then the error.
    let all = text("g.example", 30_000);
    let mut gz = gzip(&all);
    let n = gz.len();
    gz[n - 8] ^= 0xff;
    // bzip2 in blocks of 100 kB: a byte flipped in the last quarter of
    // the stream spoils a late block, not the ones before it.
    let mut bz = bzip2_fast(&all);
    let at = bz.len() * 7 / 8;
    bz[at] ^= 0x10;
    // xz cut short: its blocks before the cut are read.
    let xz_all = xz(&all);
    let cut = &xz_all[..xz_all.len() * 3 / 4];
    let d = dir_with(&[
        ("crc.gz", &gz),
        ("flip.bz2", &bz),
        ("cut.xz", cut),
        ("plain.txt", &text("p.example", 2)),
    ]);
    let r = urlx_at(
        d.path(),
        &["-c", "crc.gz", "flip.bz2", "cut.xz", "plain.txt"],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let counts: Vec<(String, usize)> = r
        .out()
        .lines()
        .map(|l| {
            let (name, n) = l.rsplit_once(':').unwrap();
            (name.to_string(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(counts[0], ("crc.gz".to_string(), 30_000));
    assert_eq!(counts[1].0, "flip.bz2");
    assert!(counts[1].1 > 10_000 && counts[1].1 < 30_000, "{counts:?}");
    assert_eq!(counts[2].0, "cut.xz");
    assert!(counts[2].1 > 0 && counts[2].1 < 30_000, "{counts:?}");
    assert_eq!(counts[3], ("plain.txt".to_string(), 2));
    assert_sentence(&r.stderr, "crc.gz", "the text before that was searched");
    assert_sentence(&r.stderr, "flip.bz2", "`bzip2 -t` checks the file");
    assert_sentence(&r.stderr, "cut.xz", "truncated");
}

#[test]
fn mail_decoded_before_damage_is_searched() {
    // An mbox cut short inside its gzip stream: the messages decoded
    // before the cut are read, the last one as far as it goes.
    let mbox: String = (0..2000)
        .map(|i| {
            format!(
                "From a@b Sat Jan  1 00:00:00 2000\nSubject: {i}\n\n\
                 see http://m.example/{i}\n\n"
            )
        })
        .collect();
    let gz = gzip(mbox.as_bytes());
    let cut = &gz[..gz.len() / 2];
    let d = dir_with(&[("cut.mbox.gz", cut)]);
    let r = urlx_at(d.path(), &["-c", "cut.mbox.gz"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let n: usize = r.out().trim().parse().unwrap();
    assert!(n > 100 && n < 2000, "{n}");
    assert_sentence(&r.stderr, "cut.mbox.gz", "truncated");
}

#[test]
fn decode_errors_are_sentences() {
    // Truncated inside the magic number; not zstd at all; truncated
    // inside a gzip header; empty.
    let gz = gzip(b"http://a.example/\n");
    let d = dir_with(&[
        ("magic.zst", &[0x28, 0xb5, 0x2f]),
        ("text.zst", b"hello http://a.example/\n"),
        ("head.gz", &gz[..5]),
        ("empty.xz", b""),
    ]);
    let r =
        urlx_at(d.path(), &["magic.zst", "text.zst", "head.gz", "empty.xz"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    r.expect("", 2);
    assert_sentence(&r.stderr, "magic.zst", "truncated");
    assert_sentence(&r.stderr, "text.zst", "not zstd data");
    assert_sentence(&r.stderr, "text.zst", "`zstd -t` checks it");
    assert_sentence(&r.stderr, "head.gz", "truncated");
    assert_sentence(&r.stderr, "empty.xz", "truncated");
}

/// The library decompresses what `ExtractorBuilder::decompress` says: by
/// default nothing (a `.gz` file is binary and skipped), by name a
/// `.gz` file and not a gzip stream given as a reader, by sniffing both.
#[test]
fn the_library_decompresses_as_configured() {
    use crate::common::Collect;
    use urlx::decompress::Decompress;
    use urlx::{Extractor, Input};

    let packed = gzip(&text("gz.example", 3));
    let dir = dir_with(&[("a.gz", &packed)]);
    let path = dir.path().join("a.gz");
    let found = |which: Decompress| {
        let ex = Extractor::builder().decompress(which).build().unwrap();
        let mut urls = Collect(Vec::new());
        let stream = packed.clone();
        let inputs = vec![
            Input::file("a.gz", path.clone()),
            Input::new("stream", move || Ok(std::io::Cursor::new(stream))),
        ];
        ex.search(inputs, &mut urls).unwrap();
        urls.0.len()
    };
    assert_eq!(found(Decompress::Never), 0);
    assert_eq!(found(Decompress::ByName), 3);
    assert_eq!(found(Decompress::Sniff), 6);
}

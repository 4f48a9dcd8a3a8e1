//! What reading a file costs against memory-mapping it, with one SIMD
//! pass over the bytes either way (a `memchr` count of a byte that does
//! not occur): the measurement behind urlx reading files with `pread`.
//!
//! ```text
//! cargo run --release --example read_vs_mmap -- FILE [ROUNDS]
//! ```
//!
//! Each round runs the four ways in a new order: `pread` into a 1 MiB
//! buffer, `mmap`, `mmap` with `MAP_POPULATE`, and `mmap` with
//! `madvise(MADV_SEQUENTIAL | MADV_WILLNEED)`; the medians are printed.
//! Run it on a file in the page cache (read it once first).

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::os::unix::io::AsRawFd;
use std::time::{Duration, Instant};

const WAYS: [&str; 4] =
    ["pread 1 MiB", "mmap", "mmap+populate", "mmap+madvise"];

fn count_pread(f: &File, len: usize) -> usize {
    let mut buf = vec![0u8; 1 << 20];
    let (mut off, mut n) = (0, 0);
    while off < len {
        let k = f.read_at(&mut buf, off as u64).expect("read");
        if k == 0 {
            break;
        }
        n += memchr::memchr_iter(1, &buf[..k]).count();
        off += k;
    }
    n
}

fn count_mmap(
    f: &File,
    len: usize,
    flags: libc::c_int,
    advise: bool,
) -> usize {
    // SAFETY: a read-only private mapping of a file nobody truncates
    // while this runs; unmapped before returning.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_PRIVATE | flags,
            f.as_raw_fd(),
            0,
        );
        assert!(p != libc::MAP_FAILED, "mmap failed");
        if advise {
            libc::madvise(p, len, libc::MADV_SEQUENTIAL | libc::MADV_WILLNEED);
        }
        let bytes = std::slice::from_raw_parts(p as *const u8, len);
        let n = memchr::memchr_iter(1, bytes).count();
        libc::munmap(p, len);
        n
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: read_vs_mmap FILE [ROUNDS]");
    let rounds: usize = args.next().map_or(9, |r| r.parse().expect("ROUNDS"));
    let f = File::open(&path).expect("open");
    let len = f.metadata().expect("stat").len() as usize;
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); WAYS.len()];
    let mut order: Vec<usize> = (0..WAYS.len()).collect();
    let mut seed = 0x9e37_79b9_u32;
    for _ in 0..rounds {
        for i in (1..order.len()).rev() {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            order.swap(i, (seed >> 16) as usize % (i + 1));
        }
        for &w in &order {
            let start = Instant::now();
            let n = match w {
                0 => count_pread(&f, len),
                1 => count_mmap(&f, len, 0, false),
                2 => count_mmap(&f, len, libc::MAP_POPULATE, false),
                _ => count_mmap(&f, len, 0, true),
            };
            times[w].push(start.elapsed());
            std::hint::black_box(n);
        }
    }
    println!("{path}: {len} bytes, {rounds} rounds, medians");
    for (w, t) in times.iter_mut().enumerate() {
        t.sort();
        let m = t[t.len() / 2];
        let rate = len as f64 / m.as_secs_f64() / 1e9;
        println!(
            "{:>14}  {:>8.2} ms  {rate:.1} GB/s",
            WAYS[w],
            m.as_secs_f64() * 1e3
        );
    }
}

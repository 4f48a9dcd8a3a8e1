//! memchr-count: counts the `:` bytes of a file (or stdin) with
//! `memchr::memchr_iter`, reading in 1 MiB blocks: the floor for a
//! scanner that has to visit every `:` (benches/compare.sh).

use std::fs::File;
use std::io::{self, Read};

fn main() -> io::Result<()> {
    let mut input: Box<dyn Read> = match std::env::args_os().nth(1) {
        Some(path) if path != "-" => Box::new(File::open(path)?),
        _ => Box::new(io::stdin().lock()),
    };
    let mut buf = vec![0u8; 1 << 20];
    let mut count: u64 = 0;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        count += memchr::memchr_iter(b':', &buf[..n]).count() as u64;
    }
    println!("{count}");
    Ok(())
}

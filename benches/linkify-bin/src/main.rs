//! linkify-urls: prints every URL link the `linkify` crate finds in a
//! file (or stdin), one per line; the baseline for benches/compare.sh.

use std::io::{self, BufWriter, Read, Write};

use linkify::{LinkFinder, LinkKind};

fn main() -> io::Result<()> {
    let mut data = Vec::new();
    match std::env::args_os().nth(1) {
        Some(path) if path != "-" => {
            data = std::fs::read(path)?;
        }
        _ => {
            io::stdin().lock().read_to_end(&mut data)?;
        }
    }
    // linkify works on &str: decode lossily (invalid bytes become U+FFFD).
    let text = String::from_utf8_lossy(&data);
    let mut finder = LinkFinder::new();
    finder.kinds(&[LinkKind::Url]);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    for link in finder.links(&text) {
        out.write_all(link.as_str().as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

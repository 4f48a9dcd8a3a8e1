//! The accuracy harness on any files: urlx against a plain regular
//! expression, every difference explained by a rule or listed as
//! unexplained (see `tests/accuracy/harness.rs`).
//!
//! ```text
//! cargo run --release --example accuracy -- [--show RULE|all] PATH...
//! ```
//!
//! Directories are walked (sorted); compressed files are read through
//! their decoder. It prints the figures per rule, then each unexplained
//! difference (and with `--show`, those of one rule, or all), and exits
//! 1 when something is unexplained. `tests/accuracy/shared_corpora.sh`
//! runs it on all of `../shared/corpora`.

#[path = "../tests/accuracy/harness.rs"]
#[allow(dead_code)]
mod harness;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use harness::{Difference, Kind, Report};

fn walk(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            walk(&e, out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut r = urlx::decompress::sniffed(file)?;
    let mut buf = Vec::new();
    r.read_to_end(&mut buf)?;
    Ok(buf)
}

fn main() {
    let mut show: Option<String> = None;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--show" => show = args.next(),
            _ => paths.push(PathBuf::from(a)),
        }
    }
    let mut files = Vec::new();
    for p in &paths {
        walk(p, &mut files);
    }
    let ex = urlx::Extractor::builder()
        .format(urlx::InputFormat::Auto)
        .build()
        .expect("extractor");
    let re = harness::baseline_regex();
    let mut total = Report::default();
    let mut inputs = 0;
    for f in &files {
        let name = f.display().to_string();
        if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
            eprintln!("skipped (unpack it first): {name}");
            continue;
        }
        let bytes = match read(f) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        // TNEF and Outlook files hold their text compressed or in UTF-16:
        // a regex over their bytes is no baseline (tests/mail.rs compares
        // them with reference decoders instead).
        let head = &bytes[..bytes.len().min(8 << 10)];
        if matches!(
            urlx::mail::detect(head),
            urlx::InputFormat::Tnef | urlx::InputFormat::Msg
        ) {
            eprintln!("skipped (TNEF or Outlook file): {name}");
            continue;
        }
        inputs += 1;
        let r = harness::check(&name, &bytes, &ex, &re);
        total.units += r.units;
        total.baseline += r.baseline;
        total.printed += r.printed;
        total.differences.extend(r.differences);
        for (k, v) in r.urlx_only {
            total.urlx_only.entry(k).or_default().extend(v);
        }
    }
    let mut by_rule: BTreeMap<(Kind, Option<String>), Vec<&Difference>> =
        BTreeMap::new();
    for d in &total.differences {
        let rule = (!d.rule.is_empty()).then(|| d.rule.join("+"));
        by_rule.entry((d.kind, rule)).or_default().push(d);
    }
    println!(
        "inputs {inputs}, units (messages or files) {}, baseline URLs {}, \
         URLs urlx prints {}",
        total.units, total.baseline, total.printed
    );
    println!("differences by rule:");
    let mut unexplained = 0;
    for ((kind, rule), v) in &by_rule {
        println!(
            "  {:>7}  {:?} {}",
            v.len(),
            kind,
            rule.as_deref().unwrap_or("UNEXPLAINED")
        );
        if rule.is_none() {
            unexplained += v.len();
        }
    }
    println!("printed by urlx, not found by the baseline, by scheme:");
    for (scheme, v) in &total.urlx_only {
        println!("  {:>7}  {scheme}", v.len());
    }
    for ((_, rule), v) in &by_rule {
        let wanted = match (&show, rule) {
            (_, None) => true,
            (Some(s), Some(r)) => s == "all" || r.split('+').any(|x| x == s),
            _ => false,
        };
        if !wanted {
            continue;
        }
        println!("\n== {}", rule.as_deref().unwrap_or("UNEXPLAINED"));
        for d in v {
            println!(
                "{} {:?} {:?}\n    place    {}\n    baseline {}\n    closest  {}\n    context  {}",
                d.unit,
                d.kind,
                d.src,
                d.place,
                d.url,
                d.closest.as_deref().unwrap_or("-"),
                d.context
            );
        }
    }
    if let Some(s) = show.as_deref().and_then(|s| s.strip_prefix("only:"))
        && let Some(v) = total.urlx_only.get(s)
    {
        println!("\n== printed by urlx only, scheme {s}");
        for u in v {
            println!("  {u}");
        }
    }
    std::process::exit(i32::from(unexplained > 0));
}

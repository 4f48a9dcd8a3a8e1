//! Archives: the samples of `corpora/archive/` (written by its
//! `make_samples.py`) through the binary: members give what the same
//! files give unpacked, named `archive:member`; damage and zip bombs are
//! reported, and the other members still read.

use std::io::Read;
use std::path::PathBuf;

use serde_json::Value;

use crate::common::urlx_in;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> String {
    root().join("corpora/archive").join(name).to_string_lossy().into_owned()
}

/// Each hit as JSON with its `file` made relative: the part after
/// `strip`, sorted (a walk and an archive list files in different
/// orders).
fn hits(out: &[Value], strip: &str) -> Vec<String> {
    let mut v: Vec<String> = out
        .iter()
        .map(|h| {
            let mut h = h.clone();
            let file = h["file"].as_str().unwrap_or_default().to_string();
            let rel = file.strip_prefix(strip).unwrap_or_else(|| {
                panic!("{file} does not start with {strip}")
            });
            h["file"] = Value::String(rel.to_string());
            h.to_string()
        })
        .collect();
    v.sort();
    v
}

/// Unpack a .tar.gz with the tar crate's own reader into a new
/// directory.
fn unpack(archive: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("urlx-archive-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let gz =
        flate2::read::GzDecoder::new(std::fs::File::open(archive).unwrap());
    tar::Archive::new(gz).unpack(&dir).unwrap();
    dir
}

#[test]
fn a_tar_gz_of_a_maildir_gives_what_the_unpacked_maildir_gives() {
    let archive = sample("notmuch-default-maildir.tar.gz");
    let dir = unpack(&archive, "maildir");
    let packed = urlx_in(None, &["-z", "--json", &archive], None);
    assert_eq!(packed.code, Some(0), "{}", packed.stderr);
    let unpacked = urlx_in(None, &["--json", &dir.to_string_lossy()], None);
    assert_eq!(unpacked.code, Some(0), "{}", unpacked.stderr);
    let a = hits(&packed.json(), &format!("{archive}:"));
    let b = hits(&unpacked.json(), &format!("{}/", dir.to_string_lossy()));
    assert!(a.len() > 50, "{} hits", a.len());
    assert_eq!(a, b);
    // The same from standard input, and as plain tar.
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&archive).unwrap())
        .read_to_end(&mut tar)
        .unwrap();
    let piped = urlx_in(None, &["--json", "-"], Some(&tar));
    assert_eq!(hits(&piped.json(), "<stdin>:"), b);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_zip_of_eml_files_gives_what_the_files_give() {
    let archive = sample("sa-eml.zip");
    let mail = root().join("corpora/mail");
    let mut files: Vec<String> = std::fs::read_dir(&mail)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("sa-"))
        .collect();
    files.sort();
    let mut args = vec!["--json".to_string(), "-H".to_string()];
    args.extend(files.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let unpacked = urlx_in(Some(&mail), &args, None);
    assert_eq!(unpacked.code, Some(0), "{}", unpacked.stderr);
    let want = hits(&unpacked.json(), "");
    assert!(want.len() > 50, "{} hits", want.len());
    // By the central directory, and as a stream of local headers.
    let packed = urlx_in(None, &["--json", &archive], None);
    assert_eq!(packed.code, Some(0), "{}", packed.stderr);
    assert_eq!(hits(&packed.json(), &format!("{archive}:mail/")), want);
    let bytes = std::fs::read(&archive).unwrap();
    let piped = urlx_in(None, &["--json", "-"], Some(&bytes));
    assert_eq!(piped.code, Some(0), "{}", piped.stderr);
    assert_eq!(hits(&piped.json(), "<stdin>:mail/"), want);
}

#[test]
fn zip_bombs_are_refused_and_the_other_members_read() {
    let archive = root()
        .join("tests/data/archive/bomb.zip")
        .to_string_lossy()
        .into_owned();
    let run = urlx_in(None, &[&archive], None);
    assert_eq!(run.code, Some(2), "an error is an exit status of 2");
    assert_eq!(
        run.out(),
        format!("{archive}:after.txt:http://after.bomb.example/index.html\n")
    );
    assert!(run.stderr.contains("bomb.txt: zip member expands past 200"));
    for m in ["flat-1.txt", "flat-2.txt"] {
        assert!(
            run.stderr
                .contains(&format!("{m}: zip member whose data overlaps")),
            "{}",
            run.stderr
        );
    }
    // As a stream, the bomb is cut and the members after it are read
    // (overlaps cannot be seen without the central directory).
    let bytes = std::fs::read(&archive).unwrap();
    let run = urlx_in(None, &["-H", "-u", "-"], Some(&bytes));
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.out(),
        "<stdin>:flat-1.txt:http://flat.bomb.example/\n\
         <stdin>:after.txt:http://after.bomb.example/index.html\n"
    );
}

#[test]
fn a_truncated_tar_gives_its_whole_members_and_an_error() {
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(sample("notmuch-default-maildir.tar.gz")).unwrap(),
    )
    .read_to_end(&mut tar)
    .unwrap();
    let whole = urlx_in(None, &["-H", "-"], Some(&tar));
    let cut = urlx_in(None, &["-H", "-"], Some(&tar[..tar.len() / 2]));
    assert_eq!(cut.code, Some(2));
    assert!(
        cut.stderr.contains("tar archive ends inside a member"),
        "{}",
        cut.stderr
    );
    // Every URL printed is one of the whole archive's, in its order.
    let (whole, cut_out) = (whole.out(), cut.out());
    let mut all = whole.lines();
    let printed: Vec<&str> = cut_out.lines().collect();
    assert!(printed.len() > 10);
    for line in &printed {
        assert!(all.any(|l| l == *line), "{line}");
    }
}

#[test]
fn members_are_counted_and_listed_as_files() {
    let archive = sample("sa-eml.zip");
    let run = urlx_in(None, &["-l", &archive], None);
    let out = run.out();
    let listed: Vec<&str> = out.lines().collect();
    assert_eq!(listed.len(), 7, "{listed:?}");
    assert!(
        listed.iter().all(|l| l.starts_with(&format!("{archive}:mail/sa-")))
    );
    let counts = urlx_in(None, &["-c", &archive], None);
    let total: u64 = counts
        .out()
        .lines()
        .map(|l| l.rsplit(':').next().unwrap().parse::<u64>().unwrap())
        .sum();
    let all = urlx_in(None, &[&archive], None);
    assert_eq!(total as usize, all.out().lines().count());
}

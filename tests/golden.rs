//! Golden tests: every hit (valid or not) in each bundled sample of
//! `corpora/`, with its line, column, context and validity, compared
//! with `tests/data/golden/<sample>.txt`. Each expected file was read
//! line by line against its sample when it was written; regenerate with
//! `URLX_BLESS=1 cargo test golden` only after reading the diff.

use std::fmt::Write;
use std::path::Path;

use urlx::Extractor;
use urlx::mail::InputFormat;

const SAMPLES: &[&str] = &[
    "text/rfc1738.txt",
    "text/draft-ietf-dnsind-iana-dns-00.txt",
    "text/emacs-MORE.STUFF",
    "text/lynx-README",
    "text/perlfaq2.pod",
    "text/rfc4634.lines-0976-1010.txt",
    "text/rfc4634.lines-5897-6051.txt",
    "mail/notmuch-lkml-1354585346.000541.eml",
    "mail/notmuch-lkml-1382298793.002400.eml",
    "mail/sa-easy_ham-00058.ecfc3a7f406355a82abe9d16d3d5733a.eml",
    "mail/sa-easy_ham-00189.b66293957540969a231d2fd09886ee0f.eml",
    "mail/sa-hard_ham-00247.42534d5df0700cb2adf240556c539947.eml",
    "mail/sa-welcomelists-networkworld.eml",
    "news/20news-train-comp.windows.x-67163.txt",
    "news/20news-train-sci.crypt-14831.txt",
    "news/20news-train-comp.windows.x-67148.txt",
    "logs/loghub-Spark_2k.lines-0001-0200.log",
    "logs/loghub-Hadoop_2k.lines-1018-1024.log",
    "logs/lnav-logfile_invalid_utf8.0",
    "logs/lnav-logfile_crlf.0",
];

/// Mail samples, read as mail (format detected): each hit also shows
/// its message, MIME part, source, header and transfer decoding.
const MAIL_SAMPLES: &[&str] = &[
    "mail/usrp-users-4.mboxrd.gz",
    "mail/kasan-dev-2.mboxrd",
    "mail/sa-spam_2-00756.b68f9bcfd782a01a2ece132eccdcbbe9.eml",
    "mail/sa-easy_ham_2-00869.0fbb783356f6875063681dc49cfcb1eb.eml",
    "mail/spamassassin-nice-mime9.eml",
    "mail/spamassassin-spam-utf16.eml",
    "mail/spamassassin-nice-cjk-big5-base64.1.eml",
    "mail/sa-easy_ham-00189.b66293957540969a231d2fd09886ee0f.eml",
];

fn render_with(data: &[u8], format: InputFormat) -> String {
    let ex = Extractor::builder()
        .line_numbers(true)
        .format(format)
        .build()
        .unwrap();
    let mut out = String::new();
    for h in ex.find(data) {
        if let Some(p) = h.provenance() {
            let _ = write!(
                out,
                "msg {} part {:?} {} {} {}\t",
                p.message,
                p.part,
                p.source.as_str(),
                p.header.as_deref().unwrap_or("-"),
                p.decoded.as_str()
            );
        }
        let _ = write!(
            out,
            "{}:{}\t{}\t{}\t{}",
            h.line(),
            h.column(),
            h.context(),
            h.url(),
            if h.is_valid() { "valid" } else { "invalid" }
        );
        if let Some(alt) = h.alternative() {
            let _ = write!(out, "\talternative={alt}");
        }
        out.push('\n');
    }
    out
}

#[test]
fn golden_samples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("URLX_BLESS").is_some();
    let mut failed = Vec::new();
    let all = SAMPLES
        .iter()
        .map(|s| (s, InputFormat::Text))
        .chain(MAIL_SAMPLES.iter().map(|s| (s, InputFormat::Auto)));
    for (sample, format) in all {
        let path = root.join("corpora").join(sample);
        let file = std::fs::File::open(path).unwrap();
        let mut data = Vec::new();
        std::io::Read::read_to_end(
            &mut urlx::decompress::sniffed(file).unwrap(),
            &mut data,
        )
        .unwrap();
        let got = render_with(&data, format);
        let prefix =
            if format == InputFormat::Auto { "as-mail__" } else { "" };
        let name = format!("{prefix}{}.txt", sample.replace('/', "__"));
        let path = root.join("tests/data/golden").join(name);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if got != want {
            let mut diff = String::new();
            for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
                if w != g {
                    let _ = writeln!(
                        diff,
                        "  line {}:\n   want {w}\n   got  {g}",
                        i + 1
                    );
                    break;
                }
            }
            failed.push(format!(
                "{sample}: {} lines expected, {} got\n{diff}",
                want.lines().count(),
                got.lines().count()
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

//! The command-line contract of the `urlx` binary, one group per
//! behaviour: inputs and file names, position prefixes, output modes and
//! filters, JSON Lines, exit statuses and errors, `urlx resolve`,
//! threads, broken pipes, binary files and terminal safety, CRLF line
//! endings, interruption. Every test runs the real binary and asserts
//! its exact output and exit status.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use tempfile::TempDir;

use crate::common::{BIN, Run, urlx_at, urlx_in, urlx_stdin};

/// The bundled corpora.
fn corpora() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora")
}

/// A temporary directory holding `files` (paths with `/` create
/// directories), created in the order given.
fn tree(files: &[(&str, &[u8])]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bytes).unwrap();
    }
    dir
}

/// Two URLs on two lines, one with nothing, one with a mailto.
fn abc() -> TempDir {
    tree(&[
        ("a.txt", b"see http://a.example/x and\nhttps://b.example/y?q=1#f\n"),
        ("b.txt", b"nothing here\n"),
        ("c.txt", b"x <URL:mailto:j@c.example> "),
    ])
}

const A_URLS: &str = "http://a.example/x\nhttps://b.example/y?q=1#f\n";

mod inputs {
    use super::*;

    #[test]
    fn stdin_is_read_when_no_path_is_given() {
        let input = "see http://a.example/x and\nhttps://b.example/y?q=1#f\n";
        urlx_stdin(&[], input).expect_quiet(A_URLS, 0);
    }

    #[test]
    fn dash_is_stdin() {
        let input = "see http://a.example/x and\nhttps://b.example/y?q=1#f\n";
        urlx_stdin(&["-"], input).expect_quiet(A_URLS, 0);
    }

    #[test]
    fn empty_stdin_finds_nothing() {
        urlx_stdin(&[], "").expect_quiet("", 1);
    }

    #[test]
    fn dash_among_files_is_named_stdin() {
        let d = abc();
        let r = urlx_in(
            Some(d.path()),
            &["c.txt", "-", "a.txt"],
            Some(b"go to http://in.example/\n"),
        );
        r.expect_quiet(
            "c.txt:mailto:j@c.example\n\
             <stdin>:http://in.example/\n\
             a.txt:http://a.example/x\n\
             a.txt:https://b.example/y?q=1#f\n",
            0,
        );
    }

    #[test]
    fn one_file_is_printed_without_its_name() {
        let d = abc();
        urlx_at(d.path(), &["a.txt"]).expect_quiet(A_URLS, 0);
    }

    #[test]
    fn several_files_prefix_each_url_with_the_file_name() {
        let d = abc();
        urlx_at(d.path(), &["a.txt", "b.txt", "c.txt"]).expect_quiet(
            "a.txt:http://a.example/x\n\
             a.txt:https://b.example/y?q=1#f\n\
             c.txt:mailto:j@c.example\n",
            0,
        );
    }

    #[test]
    fn files_are_searched_in_command_line_order() {
        let d = abc();
        urlx_at(d.path(), &["c.txt", "a.txt"]).expect_quiet(
            "c.txt:mailto:j@c.example\n\
             a.txt:http://a.example/x\n\
             a.txt:https://b.example/y?q=1#f\n",
            0,
        );
    }

    #[test]
    fn no_filename_drops_the_prefix_with_several_files() {
        let d = abc();
        urlx_at(d.path(), &["--no-filename", "a.txt", "c.txt"]).expect_quiet(
            "http://a.example/x\n\
             https://b.example/y?q=1#f\n\
             mailto:j@c.example\n",
            0,
        );
    }

    #[test]
    fn with_filename_prefixes_a_single_file() {
        let d = abc();
        urlx_at(d.path(), &["-H", "a.txt"]).expect_quiet(
            "a.txt:http://a.example/x\na.txt:https://b.example/y?q=1#f\n",
            0,
        );
    }

    #[cfg(unix)]
    #[test]
    fn file_names_that_are_not_utf8_are_printed_lossily() {
        use std::os::unix::ffi::OsStrExt;
        let d = tree(&[("d/ok.txt", b"http://b.example/\n")]);
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
        fs::write(d.path().join("d").join(name), "http://a.example/\n")
            .unwrap();
        // Sorted by bytes: "caf\xe9" before "ok".
        urlx_at(d.path(), &["d"]).expect_quiet(
            "d/caf\u{FFFD}.txt:http://a.example/\nd/ok.txt:http://b.example/\n",
            0,
        );
    }

    #[test]
    fn with_filename_names_stdin() {
        urlx_stdin(&["-H"], "http://in.example/\n")
            .expect_quiet("<stdin>:http://in.example/\n", 0);
    }

    #[test]
    fn last_of_h_and_no_filename_wins() {
        let d = abc();
        urlx_at(d.path(), &["-H", "--no-filename", "c.txt"])
            .expect_quiet("mailto:j@c.example\n", 0);
        urlx_at(d.path(), &["--no-filename", "-H", "c.txt"])
            .expect_quiet("c.txt:mailto:j@c.example\n", 0);
    }

    #[test]
    fn directory_is_walked_recursively_in_sorted_order() {
        // Created in an order that differs from the sorted one, with
        // nested directories between files.
        let d = tree(&[
            ("top/z.txt", b"http://z.example/\n"),
            ("top/m/y.txt", b"http://m-y.example/\n"),
            ("top/m/b/x.txt", b"http://m-b-x.example/\n"),
            ("top/m/a.txt", b"http://m-a.example/\n"),
            ("top/B.txt", b"http://upper-b.example/\n"),
            ("top/a.txt", b"http://a.example/\n"),
            ("top/a/deep/d.txt", b"http://a-deep-d.example/\n"),
            ("top/empty.txt", b""),
        ]);
        fs::create_dir(d.path().join("top/emptydir")).unwrap();
        urlx_at(d.path(), &["top"]).expect_quiet(
            "top/B.txt:http://upper-b.example/\n\
             top/a/deep/d.txt:http://a-deep-d.example/\n\
             top/a.txt:http://a.example/\n\
             top/m/a.txt:http://m-a.example/\n\
             top/m/b/x.txt:http://m-b-x.example/\n\
             top/m/y.txt:http://m-y.example/\n\
             top/z.txt:http://z.example/\n",
            0,
        );
    }

    #[test]
    fn a_directory_alone_prints_file_names() {
        let d = tree(&[("dir/only.txt", b"http://only.example/\n")]);
        urlx_at(d.path(), &["dir"])
            .expect_quiet("dir/only.txt:http://only.example/\n", 0);
        urlx_at(d.path(), &["--no-filename", "dir"])
            .expect_quiet("http://only.example/\n", 0);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_inside_a_directory_are_not_followed() {
        let d = tree(&[
            ("dir/real.txt", b"http://real.example/\n"),
            ("elsewhere/f.txt", b"http://elsewhere.example/\n"),
        ]);
        let dir = d.path().join("dir");
        std::os::unix::fs::symlink(d.path().join("elsewhere"), dir.join("l"))
            .unwrap();
        std::os::unix::fs::symlink(dir.join("real.txt"), dir.join("s.txt"))
            .unwrap();
        urlx_at(d.path(), &["dir"])
            .expect_quiet("dir/real.txt:http://real.example/\n", 0);
        // A symbolic link named on the command line is followed.
        urlx_at(d.path(), &["dir/s.txt"])
            .expect_quiet("http://real.example/\n", 0);
    }
}

mod positions {
    use super::*;

    /// Line 1 is empty of URLs; two 2-byte letters precede the URL on
    /// line 2; a wrapped URL starts on line 3 and ends on line 4; line 5
    /// ends with CR LF.
    const TEXT: &str = "l1\n\
        \u{e9}\u{e9} http://x.example/\n\
        <URL:http://w.example/a/\n  b> x\r\n\
        http://crlf.example/\r\n";

    #[test]
    fn line_number_is_the_line_of_the_first_byte() {
        urlx_stdin(&["-n"], TEXT).expect_quiet(
            "2:http://x.example/\n\
             3:http://w.example/a/b\n\
             5:http://crlf.example/\n",
            0,
        );
    }

    #[test]
    fn column_is_a_1_based_byte_column_and_implies_line_number() {
        urlx_stdin(&["--column"], TEXT).expect_quiet(
            "2:6:http://x.example/\n\
             3:6:http://w.example/a/b\n\
             5:1:http://crlf.example/\n",
            0,
        );
    }

    #[test]
    fn byte_offset_is_0_based_from_the_start_of_the_input() {
        urlx_stdin(&["-b"], TEXT).expect_quiet(
            "8:http://x.example/\n\
             31:http://w.example/a/b\n\
             59:http://crlf.example/\n",
            0,
        );
    }

    #[test]
    fn prefixes_come_in_the_order_file_line_column_offset() {
        let d = tree(&[("t.txt", TEXT.as_bytes())]);
        urlx_at(d.path(), &["-b", "--column", "-n", "-H", "t.txt"])
            .expect_quiet(
                "t.txt:2:6:8:http://x.example/\n\
                 t.txt:3:6:31:http://w.example/a/b\n\
                 t.txt:5:1:59:http://crlf.example/\n",
                0,
            );
        urlx_at(d.path(), &["-H", "-b", "t.txt"]).expect_quiet(
            "t.txt:8:http://x.example/\n\
             t.txt:31:http://w.example/a/b\n\
             t.txt:59:http://crlf.example/\n",
            0,
        );
        urlx_at(d.path(), &["-n", "-b", "t.txt"]).expect_quiet(
            "2:8:http://x.example/\n\
             3:31:http://w.example/a/b\n\
             5:59:http://crlf.example/\n",
            0,
        );
    }

    #[test]
    fn offsets_and_lines_restart_with_each_file() {
        let d = abc();
        urlx_at(d.path(), &["-n", "-b", "a.txt", "c.txt", "a.txt"])
            .expect_quiet(
                "a.txt:1:4:http://a.example/x\n\
                 a.txt:2:27:https://b.example/y?q=1#f\n\
                 c.txt:1:7:mailto:j@c.example\n\
                 a.txt:1:4:http://a.example/x\n\
                 a.txt:2:27:https://b.example/y?q=1#f\n",
                0,
            );
    }
}

mod modes {
    use super::*;

    #[test]
    fn count_prints_file_and_count_per_input_including_zero() {
        let d = abc();
        urlx_at(d.path(), &["-c", "a.txt", "b.txt", "c.txt"])
            .expect_quiet("a.txt:2\nb.txt:0\nc.txt:1\n", 0);
    }

    #[test]
    fn count_of_one_input_is_a_bare_number() {
        let d = abc();
        urlx_at(d.path(), &["-c", "a.txt"]).expect_quiet("2\n", 0);
        urlx_stdin(&["-c"], "http://a/ http://b/ http://a/\n")
            .expect_quiet("3\n", 0);
    }

    #[test]
    fn count_of_zero_exits_1() {
        let d = abc();
        urlx_at(d.path(), &["-c", "b.txt"]).expect_quiet("0\n", 1);
        urlx_at(d.path(), &["-c", "--no-filename", "b.txt", "b.txt"])
            .expect_quiet("0\n0\n", 1);
    }

    #[test]
    fn count_respects_filters() {
        let input = "http:// http://a.example/ mailto:j@x.example \
                     http://a.example/\n";
        urlx_stdin(&["-c"], input).expect_quiet("3\n", 0);
        urlx_stdin(&["-c", "--invalid"], input).expect_quiet("4\n", 0);
        urlx_stdin(&["-c", "-u"], input).expect_quiet("2\n", 0);
        urlx_stdin(&["-c", "--scheme", "mailto"], input)
            .expect_quiet("1\n", 0);
    }

    #[test]
    fn unique_prints_each_url_once_at_its_first_occurrence() {
        let input = "http://a.example/ http://b.example/ \
                     http://a.example/ http://a.example/./\n\
                     http://b.example/\n";
        urlx_stdin(&["-u", "-n"], input).expect_quiet(
            "1:http://a.example/\n\
             1:http://b.example/\n\
             1:http://a.example/./\n",
            0,
        );
    }

    #[test]
    fn unique_with_resolved_compares_resolved_forms() {
        let input = "http://a.example/ http://b.example/ \
                     http://a.example/./\n";
        urlx_stdin(&["-u", "--resolved"], input)
            .expect_quiet("http://a.example/\nhttp://b.example/\n", 0);
    }

    #[test]
    fn unique_holds_across_inputs() {
        let d = tree(&[
            ("u1.txt", b"http://u.example/\n"),
            ("u2.txt", b"http://u.example/ http://v.example/\n"),
        ]);
        urlx_at(d.path(), &["-u", "u1.txt", "u2.txt"]).expect_quiet(
            "u1.txt:http://u.example/\nu2.txt:http://v.example/\n",
            0,
        );
    }

    #[test]
    fn resolved_removes_dot_segments() {
        urlx_stdin(&["--resolved"], "go http://a/b/../c now\n")
            .expect_quiet("http://a/c\n", 0);
        urlx_stdin(&[], "go http://a/b/../c now\n")
            .expect_quiet("http://a/b/../c\n", 0);
    }

    #[test]
    fn base_resolves_relative_url_prefix_references() {
        let input = "see <URL:../x> and <URL:y>\n";
        let base = "http://h.example/a/b/";
        urlx_stdin(&["--base", base, "--resolved"], input)
            .expect_quiet("http://h.example/a/x\nhttp://h.example/a/b/y\n", 0);
        // Without --resolved too: a relative reference is printed
        // resolved, so the output can be fetched; JSON keeps `url` as
        // written.
        urlx_stdin(&["--base", base], input)
            .expect_quiet("http://h.example/a/x\nhttp://h.example/a/b/y\n", 0);
        let hits = urlx_stdin(&["--base", base, "--json"], input).json();
        assert_eq!(hits[0]["url"], "../x");
        assert_eq!(hits[0]["resolved"], "http://h.example/a/x");
    }

    #[test]
    fn relative_references_without_base_are_not_valid() {
        let input = "see <URL:../x> and <URL:y>\n";
        urlx_stdin(&["--resolved"], input).expect_quiet("", 1);
        urlx_stdin(&["--resolved", "--invalid"], input)
            .expect_quiet("../x\ny\n", 0);
    }

    #[test]
    fn invalid_prints_invalid_candidates_too() {
        let input = "a http:// b http://a c http://[::1 \
                     d http://a.example:99999/ e\n";
        urlx_stdin(&[], input).expect_quiet("http://a\n", 0);
        urlx_stdin(&["--invalid"], input).expect_quiet(
            "http://\n\
             http://a\n\
             http://[::1\n\
             http://a.example:99999/\n",
            0,
        );
    }

    #[test]
    fn only_invalid_candidates_exit_1_without_invalid() {
        urlx_stdin(&[], "just http:// here\n").expect_quiet("", 1);
        urlx_stdin(&["--invalid"], "just http:// here\n")
            .expect_quiet("http://\n", 0);
    }

    #[test]
    fn scheme_keeps_only_the_listed_schemes_in_any_case() {
        let input = "http://a.example/ mailto:j@x.example \
                     news:comp.lang.rust ftp://f.example/ NEWS:a.b\n";
        urlx_stdin(&["--scheme", "mailto,news"], input).expect_quiet(
            "mailto:j@x.example\nnews:comp.lang.rust\nNEWS:a.b\n",
            0,
        );
        urlx_stdin(&["--scheme", "MAILTO"], input)
            .expect_quiet("mailto:j@x.example\n", 0);
        urlx_stdin(&["--scheme", "news", "--scheme", "ftp"], input)
            .expect_quiet(
                "news:comp.lang.rust\nftp://f.example/\nNEWS:a.b\n",
                0,
            );
    }

    #[test]
    fn scheme_without_a_match_exits_1() {
        urlx_stdin(&["--scheme", "gopher"], "http://a.example/\n")
            .expect_quiet("", 1);
    }

    #[test]
    fn null_follows_the_file_name_instead_of_a_colon() {
        let d = abc();
        urlx_at(d.path(), &["-0", "a.txt", "c.txt"]).expect_quiet(
            "a.txt\0http://a.example/x\n\
             a.txt\0https://b.example/y?q=1#f\n\
             c.txt\0mailto:j@c.example\n",
            0,
        );
        urlx_at(d.path(), &["-0", "-n", "-b", "-H", "c.txt"])
            .expect_quiet("c.txt\x001:7:mailto:j@c.example\n", 0);
        urlx_at(d.path(), &["-0", "-c", "a.txt", "b.txt"])
            .expect_quiet("a.txt\x002\nb.txt\x000\n", 0);
    }

    #[test]
    fn null_without_file_names_changes_nothing() {
        let d = abc();
        urlx_at(d.path(), &["-0", "a.txt"]).expect_quiet(A_URLS, 0);
    }

    #[test]
    fn domains_finds_bare_domain_names() {
        let input = "see example.com/a. and joe@example.org\n";
        urlx_stdin(&[], input).expect_quiet("", 1);
        urlx_stdin(&["--domains"], input).expect_quiet("example.com/a\n", 0);
        urlx_stdin(&["--domains", "--emails", "--resolved"], input)
            .expect_quiet("http://example.com/a\nmailto:joe@example.org\n", 0);
        urlx_stdin(&["--domains", "-c"], input).expect_quiet("1\n", 0);
        let help = urlx_stdin(&["--help"], "");
        assert!(help.out().contains("--domains"), "{}", help.out());
        // JSON gives the components of the URI a bare domain stands for.
        let hits = urlx_stdin(&["--domains", "--json"], input).json();
        assert_eq!(hits[0]["url"], "example.com/a");
        assert_eq!(hits[0]["scheme"], "http");
        assert_eq!(hits[0]["host"], "example.com");
        assert_eq!(hits[0]["path"], "/a");
    }

    #[test]
    fn max_url_len_drops_longer_candidates() {
        // 19, 20 and 21 bytes.
        let input = "http://a.example/12 http://a.example/123 \
                     http://a.example/1234\n";
        urlx_stdin(&["--max-url-len", "20"], input)
            .expect_quiet("http://a.example/12\nhttp://a.example/123\n", 0);
        urlx_stdin(&["--max-url-len", "20", "--invalid"], input)
            .expect_quiet("http://a.example/12\nhttp://a.example/123\n", 0);
        urlx_stdin(&["--max-url-len", "20"], "http://a.example/1234\n")
            .expect_quiet("", 1);
    }

    #[test]
    fn max_url_len_out_of_range_is_refused() {
        for n in ["18446744073709551615", "16777217", "7", "x"] {
            let r = urlx_stdin(&["--max-url-len", n], "http://a.example/\n");
            assert_eq!(r.code, Some(2), "{n}");
            assert!(r.stderr.contains("from 8 to 16777216"), "{}", r.stderr);
        }
        urlx_stdin(&["--max-url-len", "16777216"], "http://a.example/\n")
            .expect_quiet("http://a.example/\n", 0);
        // The library clamps: no overflow of the length plus its slack.
        let ex = urlx::Extractor::builder()
            .max_url_len(usize::MAX)
            .chunk_size(7)
            .build()
            .unwrap();
        let hits = ex.find(b"x http://a.example/ y http://b.example/z");
        let urls: Vec<&str> = hits.iter().map(|h| h.url()).collect();
        assert_eq!(urls, ["http://a.example/", "http://b.example/z"]);
    }

    #[test]
    fn max_url_len_counts_the_whitespace_of_wrapped_urls() {
        // `http://a.example/12` is 19 bytes, 21 with the line break.
        let input = "<http://a.example/\n 12>\n";
        urlx_stdin(&["--max-url-len", "30"], input)
            .expect_quiet("http://a.example/12\n", 0);
        let r = urlx_stdin(&["--max-url-len", "19"], input);
        assert!(!r.out().contains("http://a.example/12"), "{}", r.out());
    }

    #[test]
    fn max_url_len_keeps_a_wrapped_url_of_exactly_n_bytes() {
        // `http://a.example/` + "\n " + `1`: 20 bytes of input.
        urlx_stdin(&["--max-url-len", "20"], "<http://a.example/\n 1>\n")
            .expect_quiet("http://a.example/1\n", 0);
        // And the same in <URL:...>: 21 bytes of input.
        urlx_stdin(&["--max-url-len", "21"], "<URL:http://a.example/\n 12>\n")
            .expect_quiet("http://a.example/12\n", 0);
    }
}

mod json {
    use super::*;

    /// The fields of every object not from mail or a web archive, in
    /// order: the library's list up to the provenance fields.
    fn fields() -> &'static [&'static str] {
        let names = urlx::print::FIELD_NAMES;
        let end = names.iter().position(|&n| n == "message").unwrap();
        assert_eq!(names[end - 1], "unwrapped");
        &names[..end]
    }

    const TEXT: &str = "Mail: <URL:http://w.example/a/long-\n   \
                        path?x=1#top> and http://[::1]:8080/p\n\
                        news:comp.lang.rust http:// <URL:../r>\n";

    #[track_caller]
    fn check_slice(input: &[u8], hit: &Value) {
        let start = hit["start"].as_u64().unwrap() as usize;
        let end = hit["end"].as_u64().unwrap() as usize;
        let slice: Vec<u8> = input[start..end]
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        assert_eq!(
            String::from_utf8_lossy(&slice),
            hit["url"].as_str().unwrap(),
            "input[{start}..{end}] of {}",
            hit["file"]
        );
        // line and column are those of the first byte.
        let nl = input[..start].iter().filter(|&&b| b == b'\n').count();
        let bol = input[..start]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        assert_eq!(hit["line"], nl as u64 + 1, "line of {hit}");
        assert_eq!(hit["column"], (start - bol) as u64 + 1, "column of {hit}");
    }

    #[test]
    fn every_object_has_all_fields_in_order() {
        let r = urlx_stdin(&["--json", "--invalid"], TEXT);
        assert_eq!(r.code, Some(0));
        let hits = r.json();
        assert_eq!(hits.len(), 5, "{}", r.out());
        for hit in &hits {
            let keys: Vec<&str> =
                hit.as_object().unwrap().keys().map(|k| k.as_str()).collect();
            assert_eq!(keys, fields());
        }
    }

    #[test]
    fn fields_of_a_wrapped_url_with_a_hyphen_break() {
        let hits = urlx_stdin(&["--json"], TEXT).json();
        let expected = serde_json::json!({
            "url": "http://w.example/a/long-path?x=1#top",
            "resolved": "http://w.example/a/long-path?x=1#top",
            "uri": "http://w.example/a/long-path?x=1#top",
            "normalized": "http://w.example/a/long-path?x=1#top",
            "valid": true,
            "repaired": null,
            "errors": [],
            "warnings": [],
            "scheme": "http",
            "host": "w.example",
            "port": null,
            "path": "/a/long-path",
            "query": "x=1",
            "fragment": "top",
            "file": "<stdin>",
            "line": 1,
            "column": 12,
            "start": 11,
            "end": 51,
            "context": "url-prefix",
            "hyphen_break": true,
            "alternative": "http://w.example/a/longpath?x=1#top",
            "abbreviated": null,
            "refanged": false,
            "encoded": null,
            "unwrapped": null,
        });
        assert_eq!(hits[0], expected);
        check_slice(TEXT.as_bytes(), &hits[0]);
        assert!(TEXT.as_bytes()[11..51].contains(&b'\n'));
    }

    #[test]
    fn fields_of_a_bare_url_with_ip_literal_and_port() {
        let hits = urlx_stdin(&["--json"], TEXT).json();
        let expected = serde_json::json!({
            "url": "http://[::1]:8080/p",
            "resolved": "http://[::1]:8080/p",
            "uri": "http://[::1]:8080/p",
            "normalized": "http://[::1]:8080/p",
            "valid": true,
            "repaired": null,
            "errors": [],
            "warnings": [{
                "code": "non-default-port",
                "message": "port 8080 is not the http default 80 \
                    (RFC 3986 7.2, url-syntax draft section 7)",
            }],
            "scheme": "http",
            "host": "[::1]",
            "port": 8080,
            "path": "/p",
            "query": null,
            "fragment": null,
            "file": "<stdin>",
            "line": 2,
            "column": 22,
            "start": 57,
            "end": 76,
            "context": "bare",
            "hyphen_break": false,
            "alternative": null,
            "abbreviated": null,
            "refanged": false,
            "encoded": null,
            "unwrapped": null,
        });
        assert_eq!(hits[1], expected);
        check_slice(TEXT.as_bytes(), &hits[1]);
    }

    #[test]
    fn fields_of_a_url_without_authority() {
        let hits = urlx_stdin(&["--json"], TEXT).json();
        assert_eq!(hits.len(), 3);
        let h = &hits[2];
        assert_eq!(h["url"], "news:comp.lang.rust");
        assert_eq!(h["scheme"], "news");
        assert_eq!(h["host"], Value::Null);
        assert_eq!(h["port"], Value::Null);
        assert_eq!(h["path"], "comp.lang.rust");
        assert_eq!((&h["line"], &h["column"]), (&3.into(), &1.into()));
        assert_eq!((&h["start"], &h["end"]), (&77.into(), &96.into()));
        check_slice(TEXT.as_bytes(), h);
    }

    #[test]
    fn attribute_with_space_is_printed_percent_encoded() {
        // A quoted attribute fixes the URL's extent; what RFC 3986 does
        // not allow is encoded as browsers do, `valid` stays false.
        let input = "<a href=\"mailto:x@example.com?subject=Hello World\">\n\
                     <URL: http://a.example/s?lr=en|sv >\n";
        urlx_stdin(&[], input).expect_quiet(
            "mailto:x@example.com?subject=Hello%20World\n\
             http://a.example/s?lr=en%7Csv\n",
            0,
        );
        let hits = urlx_stdin(&["--json"], input).json();
        assert_eq!(hits[0]["url"], "mailto:x@example.com?subject=Hello World");
        assert_eq!(hits[0]["valid"], false);
        assert_eq!(
            hits[0]["repaired"],
            "mailto:x@example.com?subject=Hello%20World"
        );
        assert_eq!(hits[0]["uri"], hits[0]["repaired"]);
        assert_eq!(hits[0]["warnings"][0]["code"], "percent-encoded");
        assert!(!hits[0]["errors"].as_array().unwrap().is_empty());
        assert_eq!(hits[1]["repaired"], "http://a.example/s?lr=en%7Csv");
    }

    #[test]
    fn invalid_objects_carry_their_errors() {
        let hits = urlx_stdin(&["--json", "--invalid"], TEXT).json();
        let empty = &hits[3];
        assert_eq!(empty["url"], "http://");
        assert_eq!(empty["valid"], false);
        assert_eq!(empty["resolved"], Value::Null);
        assert_eq!(empty["host"], "");
        let errors = empty["errors"].as_array().unwrap();
        assert!(!errors.is_empty());
        assert!(errors.iter().all(|e| !e.as_str().unwrap().is_empty()));
        check_slice(TEXT.as_bytes(), empty);
        // A relative reference without a base: not valid, no resolved.
        let rel = &hits[4];
        assert_eq!(rel["url"], "../r");
        assert_eq!(rel["valid"], false);
        assert_eq!(rel["resolved"], Value::Null);
        assert_eq!(rel["scheme"], Value::Null);
        assert_eq!(rel["context"], "url-prefix");
        check_slice(TEXT.as_bytes(), rel);
    }

    #[test]
    fn resolved_field_uses_the_base() {
        let hits =
            urlx_stdin(&["--json", "--base", "http://h/a/b"], TEXT).json();
        let rel = hits.last().unwrap();
        assert_eq!(rel["url"], "../r");
        assert_eq!(rel["valid"], true);
        assert_eq!(rel["resolved"], "http://h/r");
    }

    #[test]
    fn json_ignores_position_and_name_options() {
        let d = abc();
        // -H, -n, -b, -0 only affect the standard format.
        let plain = urlx_at(d.path(), &["--json", "a.txt"]);
        let decorated =
            urlx_at(d.path(), &["--json", "-H", "-n", "-b", "-0", "a.txt"]);
        assert_eq!(plain.code, Some(0));
        assert_eq!(plain.out(), decorated.out());
        let hits = plain.json();
        assert_eq!(hits.len(), 2);
        assert!(hits.iter().all(|h| h["file"] == "a.txt"));
    }

    #[test]
    fn start_and_end_slice_every_input_of_the_corpora() {
        // As plain text, every hit is a slice of its (uncompressed)
        // input, whitespace aside.
        let dir = corpora();
        let r = urlx_at(
            &dir,
            &["--json", "--invalid", "-j2", "--format", "text", "."],
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let hits = r.json();
        assert!(hits.len() > 100, "{} hits", hits.len());
        let mut files = std::collections::HashMap::new();
        for hit in &hits {
            let name = hit["file"].as_str().unwrap().to_string();
            // Compressed inputs and archives' members: not slices of a
            // file as it is on disk.
            if name.ends_with(".gz") || name.contains("/archive/") {
                continue;
            }
            let input = files
                .entry(name.clone())
                .or_insert_with(|| fs::read(dir.join(&name)).unwrap());
            check_slice(input, hit);
        }
    }

    #[test]
    fn mail_hits_start_at_their_first_byte() {
        // Decoded mail: a hit that needed no transfer decoding starts at
        // its URL's first byte in the file.
        let dir = corpora();
        let r = urlx_at(&dir, &["--json", "-j2", "mail", "news"]);
        let hits = r.json();
        let mut checked = 0;
        for hit in &hits {
            let name = hit["file"].as_str().unwrap();
            if name.ends_with(".gz")
                || hit["decoded"] != "none"
                || hit["source"] == "html-attr"
            {
                continue;
            }
            let input = fs::read(dir.join(name)).unwrap();
            let start = hit["start"].as_u64().unwrap() as usize;
            let url = hit["url"].as_str().unwrap();
            let head = &url.as_bytes()[..url.len().min(6)];
            assert_eq!(&input[start..start + head.len()], head, "{hit}");
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn a_url_with_non_ascii_letters_is_a_valid_json_string() {
        let input =
            "x http://ex\u{e4}mple.example/\u{e9}t\u{e9}?q=\u{3b1} y\n";
        let r = urlx_stdin(&["--json"], input);
        assert_eq!(r.code, Some(0));
        let hits = r.json();
        assert_eq!(hits.len(), 1);
        let url = "http://ex\u{e4}mple.example/\u{e9}t\u{e9}?q=\u{3b1}";
        assert_eq!(hits[0]["url"], url);
        assert_eq!(hits[0]["host"], "ex\u{e4}mple.example");
        assert_eq!(hits[0]["start"], 2);
        assert_eq!(hits[0]["end"], 2 + url.len() as u64);
        check_slice(input.as_bytes(), &hits[0]);
    }

    #[test]
    fn output_has_no_raw_control_bytes() {
        let d = tree(&[("dir/a\x1b[31mb\tc.txt", b"http://c.example/\n")]);
        let r = urlx_at(d.path(), &["--json", "dir"]);
        assert_eq!(r.code, Some(0));
        // Only the line feeds between objects.
        assert!(
            r.stdout.iter().all(|&b| b >= 0x20 || b == b'\n'),
            "{:?}",
            r.out()
        );
        let hits = r.json();
        assert_eq!(hits[0]["file"], "dir/a\x1b[31mb\tc.txt");
    }

    #[test]
    fn output_has_no_raw_bidi_overrides() {
        let d = tree(&[("dir/a\u{202e}b.txt", b"http://c.example/\n")]);
        let r = urlx_at(d.path(), &["--json", "dir"]);
        assert_eq!(r.code, Some(0));
        assert!(!r.out().contains('\u{202e}'), "{:?}", r.out());
        assert_eq!(r.json()[0]["file"], "dir/a\u{202e}b.txt");
    }
}

mod status {
    use super::*;

    #[test]
    fn found_is_0_none_is_1() {
        urlx_stdin(&[], "http://a.example/\n")
            .expect_quiet("http://a.example/\n", 0);
        urlx_stdin(&[], "no urls\n").expect_quiet("", 1);
    }

    #[test]
    fn a_missing_file_is_reported_and_the_others_are_searched() {
        let d = abc();
        let r = urlx_at(d.path(), &["a.txt", "missing.txt", "c.txt"]);
        r.expect(
            "a.txt:http://a.example/x\n\
             a.txt:https://b.example/y?q=1#f\n\
             c.txt:mailto:j@c.example\n",
            2,
        );
        assert_eq!(r.stderr.lines().count(), 1, "{:?}", r.stderr);
        assert!(r.stderr.starts_with("urlx: missing.txt: "), "{:?}", r.stderr);
    }

    #[test]
    fn a_missing_file_alone_exits_2() {
        let d = abc();
        let r = urlx_at(d.path(), &["missing.txt"]);
        r.expect("", 2);
        assert!(r.stderr.contains("missing.txt"), "{:?}", r.stderr);
        let r = urlx_at(d.path(), &["-c", "missing.txt", "a.txt"]);
        r.expect("a.txt:2\n", 2);
        assert!(r.stderr.contains("missing.txt"), "{:?}", r.stderr);
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_directory_is_reported_and_the_others_are_searched() {
        use std::os::unix::fs::PermissionsExt;
        let d = tree(&[
            ("top/a.txt", b"http://a.example/\n"),
            ("top/locked/f.txt", b"http://locked.example/\n"),
            ("top/z.txt", b"http://z.example/\n"),
        ]);
        let locked = d.path().join("top/locked");
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000))
            .unwrap();
        let readable = fs::read_dir(&locked).is_ok();
        let r = urlx_at(d.path(), &["top"]);
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755))
            .unwrap();
        if readable {
            eprintln!("skipped: permissions do not apply (root?)");
            return;
        }
        r.expect(
            "top/a.txt:http://a.example/\ntop/z.txt:http://z.example/\n",
            2,
        );
        assert!(r.stderr.contains("top/locked"), "{:?}", r.stderr);
    }

    #[test]
    fn a_bad_option_exits_2() {
        let r = urlx_stdin(&["--bogus"], "http://a.example/\n");
        r.expect("", 2);
        assert!(r.stderr.contains("--bogus"), "{:?}", r.stderr);
        let r = urlx_stdin(&["--max-url-len", "abc"], "http://a.example/\n");
        r.expect("", 2);
        assert!(r.stderr.contains("--max-url-len"), "{:?}", r.stderr);
    }

    #[test]
    fn an_invalid_base_exits_2() {
        let r = urlx_stdin(&["--base", "http://a b/"], "<URL:x>\n");
        r.expect("", 2);
        assert!(r.stderr.contains("http://a b/"), "{:?}", r.stderr);
    }

    #[test]
    fn a_relative_base_exits_2() {
        let r = urlx_stdin(&["--base", "../x"], "<URL:x>\n");
        r.expect("", 2);
        assert!(r.stderr.contains("not absolute"), "{:?}", r.stderr);
    }

    #[test]
    fn help_and_version_exit_0() {
        let r = urlx_stdin(&["--help"], "");
        assert_eq!(r.code, Some(0));
        assert!(r.out().contains("--max-url-len"));
        let r = urlx_stdin(&["--version"], "");
        r.expect(&format!("urlx {}\n", env!("CARGO_PKG_VERSION")), 0);
    }

    /// A failed write to stderr loses the message, not the run.
    #[test]
    fn a_full_stderr_is_no_panic() {
        let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full")
        else {
            eprintln!("skipped: no /dev/full");
            return;
        };
        for args in [&["--base", "x"][..], &["-j", "x"], &["missing.txt"]] {
            let out = Command::new(BIN)
                .args(args)
                .stdin(Stdio::null())
                .stderr(full.try_clone().unwrap())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
        }
    }

    /// A full disk is an error about stdout, with status 2, for help and
    /// version text as for URLs (a closed pipe is not: see `pipe`).
    #[test]
    fn a_write_error_on_stdout_is_reported() {
        let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full")
        else {
            eprintln!("skipped: no /dev/full");
            return;
        };
        let d = abc();
        let runs: [&[&str]; 6] = [
            &["--help"],
            &["--version"],
            &["resolve", "--help"],
            &["a.txt"],
            &["--json", "a.txt"],
            &["resolve", "--base", "http://a/", "b"],
        ];
        for args in runs {
            let out = Command::new(BIN)
                .args(args)
                .current_dir(d.path())
                .stdin(Stdio::null())
                .stdout(full.try_clone().unwrap())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.starts_with("urlx: cannot write to stdout: "),
                "{args:?}: {stderr}"
            );
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
    }
}

mod resolve {
    use super::*;

    #[test]
    fn resolves_each_reference_on_its_own_line() {
        urlx_stdin(
            &["resolve", "--base", "http://a/b/c/d;p?q", "g", "../g", "?y"],
            "",
        )
        .expect_quiet("http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?y\n", 0);
    }

    #[test]
    fn rfc_3986_abnormal_examples() {
        urlx_stdin(
            &[
                "resolve",
                "--base",
                "http://a/b/c/d;p?q",
                "../../../g",
                "/./g",
                "g.",
                "g;x=1/../y",
                "g#s/../x",
            ],
            "",
        )
        .expect_quiet(
            "http://a/g\n\
             http://a/g\n\
             http://a/b/c/g.\n\
             http://a/b/c/y\n\
             http://a/b/c/g#s/../x\n",
            0,
        );
    }

    #[test]
    fn rfc_3986_strict_http_g_stays_http_g() {
        urlx_stdin(&["resolve", "--base", "http://a/b/c/d;p?q", "http:g"], "")
            .expect_quiet("http:g\n", 0);
    }

    #[test]
    fn a_relative_base_fails_with_a_message() {
        let r = urlx_stdin(&["resolve", "--base", "../x", "g"], "");
        r.expect("", 2);
        assert!(r.stderr.contains("../x"), "{:?}", r.stderr);
        assert!(r.stderr.contains("not absolute"), "{:?}", r.stderr);
    }

    #[test]
    fn an_invalid_base_fails_with_a_message() {
        let r = urlx_stdin(&["resolve", "--base", "http://a b/", "g"], "");
        r.expect("", 2);
        assert!(r.stderr.contains("invalid"), "{:?}", r.stderr);
    }

    #[test]
    fn an_invalid_reference_is_reported_and_the_others_resolved() {
        let r =
            urlx_stdin(&["resolve", "--base", "http://a/", "a b", "g"], "");
        r.expect("http://a/g\n", 2);
        assert!(r.stderr.contains("\"a b\""), "{:?}", r.stderr);
    }

    #[test]
    fn a_base_and_a_reference_are_required() {
        urlx_stdin(&["resolve", "--base", "http://a/"], "").expect("", 2);
        urlx_stdin(&["resolve", "g"], "").expect("", 2);
    }
}

mod threads {
    use super::*;

    /// `urlx args` with `-j1` and with `-j4`, run side by side.
    fn both(dir: &Path, args: &[&str]) -> (Run, Run) {
        std::thread::scope(|s| {
            let one = s.spawn(|| {
                let mut a = vec!["-j1"];
                a.extend_from_slice(args);
                urlx_at(dir, &a)
            });
            let four = s.spawn(|| {
                let mut a = vec!["-j4"];
                a.extend_from_slice(args);
                urlx_at(dir, &a)
            });
            (one.join().unwrap(), four.join().unwrap())
        })
    }

    #[test]
    fn one_and_four_threads_print_the_same_bytes_on_the_corpora() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let (one, four) = both(root, &["-n", "-H", "--json", "corpora"]);
        assert_eq!(one.code, Some(0), "{}", one.stderr);
        assert_eq!(four.code, Some(0), "{}", four.stderr);
        assert!(one.stdout.len() > 10_000);
        assert!(one.stdout == four.stdout, "-j1 and -j4 differ");
        assert_eq!(one.stderr, four.stderr);
    }

    #[test]
    fn one_and_four_threads_print_the_same_bytes_across_chunks() {
        // About 3 MiB, so several 1 MiB chunks, with wrapped URLs whose
        // parts land on both sides of chunk boundaries.
        let mut text = String::new();
        let mut i = 0u32;
        while text.len() < 3 << 20 {
            text.push_str(&format!(
                "l{i} http://h{i}.example/p?{i} <URL:http://w.example/\n  \
                 {i}/x-\n  y> (http://p.example/{i}).\n"
            ));
            i += 1;
        }
        let d = tree(&[("big.txt", text.as_bytes())]);
        let (one, four) = both(d.path(), &["-b", "--column", "big.txt"]);
        assert_eq!(one.code, Some(0), "{}", one.stderr);
        assert_eq!(one.out().lines().count(), 3 * i as usize);
        assert!(one.stdout == four.stdout, "-j1 and -j4 differ");
    }
}

mod pipe {
    use super::*;

    /// ~20 MB of text, a URL every few dozen bytes.
    fn big_input() -> TempDir {
        let mut text = Vec::with_capacity(21 << 20);
        let mut i = 0u64;
        while text.len() < 20 << 20 {
            writeln!(
                text,
                "lorem http://www.example.com/p?id={i} dolor \
                 <URL:ftp://f.example/{i}> sit"
            )
            .unwrap();
            i += 1;
        }
        tree(&[("big.txt", &text)])
    }

    /// Read one line of `urlx args big.txt`, close the pipe, and check
    /// that it ends quietly with status 0.
    fn read_one_line_and_close(args: &[&str], first: &str) {
        let d = big_input();
        let mut child = Command::new(BIN)
            .args(args)
            .arg("big.txt")
            .current_dir(d.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        {
            let mut out = BufReader::new(child.stdout.take().unwrap());
            out.read_line(&mut line).unwrap();
        } // the read end of stdout is closed here
        assert_eq!(line, first);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr, "", "stderr after a closed pipe");
        assert_eq!(output.status.code(), Some(0), "{:?}", output.status);
    }

    #[test]
    fn a_closed_stdout_ends_quietly() {
        read_one_line_and_close(&[], "http://www.example.com/p?id=0\n");
    }

    #[test]
    fn a_full_disk_is_an_error() {
        // Writing to /dev/full fails with ENOSPC: status 2 and one
        // message, in every output mode, never a panic.
        let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full")
        else {
            return;
        };
        for args in [&[][..], &["--json"], &["-c"], &["-u", "-n"]] {
            let out = Command::new(BIN)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(full.try_clone().unwrap())
                .stderr(Stdio::piped())
                .spawn()
                .and_then(|mut c| {
                    c.stdin
                        .take()
                        .unwrap()
                        .write_all(b"see http://a.example/ now\n")?;
                    c.wait_with_output()
                })
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} {stderr}");
            assert!(stderr.starts_with("urlx: "), "{args:?} {stderr}");
            assert!(stderr.contains("os error 28"), "{args:?} {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?} {stderr}");
        }
    }

    #[test]
    fn a_closed_stdout_ends_quietly_with_json() {
        read_one_line_and_close(
            &["--json", "-j2"],
            &(urlx_stdin(&["--json"], "lorem http://www.example.com/p?id=0")
                .out()
                .replace("<stdin>", "big.txt")),
        );
    }
}

mod binary {
    use super::*;

    /// A URL, a NUL byte early on, and a URL after it.
    const EARLY_NUL: &[u8] =
        b"http://before.example/ \0 http://after.example/\n";

    #[test]
    fn a_binary_file_in_a_directory_is_skipped_silently() {
        let d = tree(&[
            ("dir/b.bin", EARLY_NUL),
            ("dir/t.txt", b"http://t.example/\n"),
        ]);
        urlx_at(d.path(), &["dir"])
            .expect_quiet("dir/t.txt:http://t.example/\n", 0);
    }

    #[test]
    fn a_binary_file_named_explicitly_gets_a_note() {
        let d = tree(&[("b.bin", EARLY_NUL)]);
        let r = urlx_at(d.path(), &["b.bin"]);
        r.expect("", 1);
        assert_eq!(r.stderr.lines().count(), 1, "{:?}", r.stderr);
        assert!(r.stderr.starts_with("urlx: b.bin: "), "{:?}", r.stderr);
        assert!(r.stderr.contains("binary"), "{:?}", r.stderr);
        assert!(r.stderr.contains("-a"), "{:?}", r.stderr);
    }

    #[test]
    fn binary_stdin_gets_a_note() {
        let r = urlx_in(None, &[], Some(EARLY_NUL));
        r.expect("", 1);
        assert!(r.stderr.contains("<stdin>"), "{:?}", r.stderr);
        assert!(r.stderr.contains("binary"), "{:?}", r.stderr);
    }

    #[test]
    fn text_searches_binary_files() {
        let d = tree(&[
            ("dir/b.bin", EARLY_NUL),
            ("dir/t.txt", b"http://t.example/\n"),
        ]);
        urlx_at(d.path(), &["-a", "dir/b.bin"]).expect_quiet(
            "http://before.example/\nhttp://after.example/\n",
            0,
        );
        urlx_at(d.path(), &["--text", "dir"]).expect_quiet(
            "dir/b.bin:http://before.example/\n\
             dir/b.bin:http://after.example/\n\
             dir/t.txt:http://t.example/\n",
            0,
        );
    }

    #[test]
    fn a_late_nul_byte_ends_the_search_there() {
        let mut bytes = b"http://before.example/\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 70_000));
        bytes.extend_from_slice(b"\n\0 http://after.example/\n");
        let d = tree(&[("late.bin", &bytes), ("dir/late.bin", &bytes)]);
        let r = urlx_at(d.path(), &["late.bin"]);
        r.expect("http://before.example/\n", 0);
        assert!(r.stderr.contains("late.bin"), "{:?}", r.stderr);
        assert!(r.stderr.contains("70024"), "{:?}", r.stderr);
        urlx_at(d.path(), &["dir"])
            .expect_quiet("dir/late.bin:http://before.example/\n", 0);
        urlx_at(d.path(), &["-a", "late.bin"]).expect_quiet(
            "http://before.example/\nhttp://after.example/\n",
            0,
        );
    }
}

mod safety {
    use super::*;

    #[test]
    fn a_url_ends_at_an_escape_character() {
        let input = "x http://a.example/x\x1b[31m y\n";
        urlx_stdin(&[], input).expect_quiet("http://a.example/x\n", 0);
        urlx_stdin(&["--invalid"], input)
            .expect_quiet("http://a.example/x\n", 0);
        urlx_stdin(&["-b"], "<http://a.example/x\x07y>\n")
            .expect_quiet("1:http://a.example/x\n", 0);
    }

    #[test]
    fn control_characters_in_file_names_are_escaped() {
        let name = "a\x1b[31mb\rc.txt";
        let d = tempfile::tempdir().unwrap();
        if fs::write(d.path().join(name), "http://c.example/\n").is_err() {
            eprintln!("skipped: the file system refuses the name");
            return;
        }
        fs::write(d.path().join("d.txt"), "http://d.example/\n").unwrap();
        urlx_at(d.path(), &["-H", name])
            .expect_quiet("a%1B[31mb%0Dc.txt:http://c.example/\n", 0);
        urlx_at(d.path(), &["-c", name, "d.txt"])
            .expect_quiet("a%1B[31mb%0Dc.txt:1\nd.txt:1\n", 0);
        let r = urlx_at(d.path(), &[name, "missing\x1b.txt"]);
        r.expect("a%1B[31mb%0Dc.txt:http://c.example/\n", 2);
        assert!(r.stderr.contains("missing%1B.txt"), "{:?}", r.stderr);
        assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
    }

    #[test]
    fn bidi_overrides_in_file_names_are_escaped() {
        let name = "a\u{202e}b.txt";
        let d = tempfile::tempdir().unwrap();
        if fs::write(d.path().join(name), "http://c.example/\n").is_err() {
            eprintln!("skipped: the file system refuses the name");
            return;
        }
        urlx_at(d.path(), &["-H", name])
            .expect_quiet("a%E2%80%AEb.txt:http://c.example/\n", 0);
    }

    /// Redirector targets are decoded from the wrapper's query, so they
    /// hold what the wrapper only had percent-encoded.
    #[test]
    fn unwrapped_targets_are_escaped() {
        let input = "\
            https://www.google.com/url?q=https://e.example/%E2%80%AEgpj.exe&sa=D\n\
            https://nam01.safelinks.protection.outlook.com/?url=https%3A%2F%2F\
            a.example%2F%E2%81%A6x%E2%80%8By%EF%BB%BFz%C2%85w%D8%9Cv&data=1\n\
            https://urldefense.proofpoint.com/v2/url?u=https-3A__a.example_x-E2-80-AEy&d=1\n";
        let r = urlx_stdin(&["--unwrap"], input);
        r.expect_quiet(
            "https://e.example/%E2%80%AEgpj.exe\n\
             https://a.example/%E2%81%A6x%E2%80%8By%EF%BB%BFz%C2%85w%D8%9Cv\n\
             https://a.example/x%E2%80%AEy\n",
            0,
        );
        for args in [&["--unwrap", "--json"][..], &["--unwrap", "--hosts"]] {
            let out = urlx_stdin(args, input).out();
            for c in ['\u{202E}', '\u{2066}', '\u{200B}', '\u{FEFF}', '\u{85}']
            {
                assert!(!out.contains(c), "{args:?}: {out:?}");
            }
        }
        let json = urlx_stdin(&["--json"], input).json();
        assert_eq!(json[0]["unwrapped"], "https://e.example/\u{202E}gpj.exe");
    }

    #[test]
    fn input_in_messages_is_cut_short() {
        let long = format!("\u{202E}{}", "x".repeat(8 << 20));
        let mail = format!(
            "From: a@b.example\nContent-Type: text/plain; charset={long}\n\n\
             http://a.example/\n"
        );
        let r = urlx_stdin(&["--format", "eml", "--mail-notes"], &mail);
        r.expect("http://a.example/\n", 0);
        let cut =
            format!("%E2%80%AE{}\u{2026} (8388611 bytes)", "x".repeat(99));
        assert_eq!(
            r.stderr,
            format!(
                "urlx: <stdin>: message 1: unknown charset {cut}, \
                 read as UTF-8 lossily\n"
            )
        );
        let base = format!("http://a/{}\u{202E}", "x".repeat(300));
        for args in
            [&["--base", &base][..], &["resolve", "--base", &base, "x"]]
        {
            let r = urlx_stdin(args, "");
            assert_eq!(r.code, Some(2));
            assert!(r.stderr.len() < 300, "{:?}", r.stderr);
            assert!(r.stderr.contains("(312 bytes)"), "{:?}", r.stderr);
        }
        // A usage error repeats the argument: escaped too.
        let r = urlx_stdin(&["-j", "\u{202E}9"], "");
        r.expect("", 2);
        assert!(r.stderr.contains("'%E2%80%AE9'"), "{:?}", r.stderr);
    }

    #[test]
    fn resolve_output_has_no_control_characters() {
        let r = urlx_stdin(&["resolve", "--base", "http://a/", "x\x1by"], "");
        r.expect("", 2);
        assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
        assert!(r.stderr.contains("x%1By"), "{:?}", r.stderr);
    }
}

mod quiet {
    //! Notes on decoding are printed on request; -s; --stats.
    use super::*;

    const MAIL: &str = "From: a@example.com\nContent-Type: text/plain; \
                        charset=x-unknown\n\nsee http://q.example/\n";

    #[test]
    fn notes_on_decoding_are_off_by_default() {
        let r = urlx_stdin(&[], MAIL);
        assert_eq!(r.code, Some(0));
        assert_eq!(r.out(), "http://q.example/\n");
        assert_eq!(r.stderr, "");
        let r = urlx_stdin(&["--mail-notes"], MAIL);
        assert_eq!(r.out(), "http://q.example/\n");
        assert_eq!(
            r.stderr,
            "urlx: <stdin>: message 1: unknown charset x-unknown, read as \
             UTF-8 lossily\n"
        );
    }

    #[test]
    fn no_messages_keeps_the_exit_status() {
        let d = tree(&[("a.txt", b"http://a.example/\n")]);
        let r = urlx_at(d.path(), &["a.txt", "missing.txt"]);
        assert_eq!(r.code, Some(2));
        assert!(r.stderr.contains("missing.txt"), "{:?}", r.stderr);
        let r = urlx_at(d.path(), &["-s", "a.txt", "missing.txt"]);
        assert_eq!(r.code, Some(2));
        assert_eq!(r.out(), "a.txt:http://a.example/\n");
        assert_eq!(r.stderr, "");
    }

    fn three() -> TempDir {
        tree(&[
            ("a.txt", b"http://a.example/1 http://a.example/2\n"),
            ("b.txt", b"no link here\n"),
            ("c.txt", b"http://c.example/ x http://c.example/2 y http://c.example/3\n"),
        ])
    }

    #[test]
    fn files_with_and_without_urls() {
        let d = three();
        let r = urlx_at(d.path(), &["-l", "a.txt", "b.txt", "c.txt"]);
        r.expect("a.txt\nc.txt\n", 0);
        let r = urlx_at(d.path(), &["-l", "-0", "a.txt", "c.txt"]);
        r.expect("a.txt\0c.txt\0", 0);
        let r = urlx_at(d.path(), &["-l", "b.txt"]);
        r.expect("", 1);
        let args = ["--files-without-match", "a.txt", "b.txt", "c.txt"];
        urlx_at(d.path(), &args).expect("b.txt\n", 0);
        let r = urlx_at(d.path(), &["--files-without-match", "a.txt"]);
        r.expect("", 1);
        // Meaningless together: refused.
        let r = urlx_at(d.path(), &["-l", "-c", "a.txt"]);
        assert_eq!(r.code, Some(2));
        assert!(r.stderr.contains("cannot be used with"), "{:?}", r.stderr);
    }

    #[test]
    fn quiet_prints_nothing_and_says_by_its_status() {
        let d = three();
        urlx_at(d.path(), &["-q", "a.txt", "b.txt"]).expect("", 0);
        urlx_at(d.path(), &["-q", "b.txt"]).expect("", 1);
        urlx_at(d.path(), &["-q", "--json", "c.txt"]).expect("", 0);
    }

    #[test]
    fn max_count_is_per_input() {
        let d = three();
        let r = urlx_at(d.path(), &["-m", "1", "a.txt", "b.txt", "c.txt"]);
        r.expect("a.txt:http://a.example/1\nc.txt:http://c.example/\n", 0);
        let r = urlx_at(d.path(), &["-m", "2", "-c", "a.txt", "c.txt"]);
        r.expect("a.txt:2\nc.txt:2\n", 0);
        // In an mbox, the URLs of all its messages together.
        let mbox = "From a@b Thu Jan  1 00:00:00 1970\nSubject: x\n\n\
                    http://m.example/1\n\n\
                    From a@b Thu Jan  1 00:00:00 1970\nSubject: y\n\n\
                    http://m.example/2\n";
        urlx_stdin(&["-m", "1"], mbox).expect("http://m.example/1\n", 0);
    }

    #[test]
    fn compressed_input_read_as_is_hints_at_z() {
        use std::io::Write as _;
        let mut gz = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        gz.write_all(b"see http://gz.example/\n").unwrap();
        let gz = gz.finish().unwrap();
        let d = tree(&[("x.bin", &gz)]);
        let r = urlx_at(d.path(), &["x.bin"]);
        r.expect("", 1);
        assert!(
            r.stderr.ends_with(
                "starts as gzip data does: use -z to decompress it\n"
            ),
            "{:?}",
            r.stderr
        );
        urlx_at(d.path(), &["-z", "x.bin"]).expect("http://gz.example/\n", 0);
    }

    #[test]
    fn meaningless_combinations_are_refused() {
        for args in [&["-c", "--json"][..], &["-u", "--count-unique"]] {
            let r = urlx_stdin(args, "http://a.example/\n");
            assert_eq!(r.code, Some(2), "{args:?}");
            assert!(
                r.stderr.contains("cannot be used with"),
                "{:?}",
                r.stderr
            );
        }
    }

    #[test]
    fn completions_and_man_page_come_from_the_options() {
        let r = urlx_stdin(&["--generate", "complete-bash"], "");
        assert_eq!(r.code, Some(0));
        let bash = r.out();
        assert!(bash.contains("--files-with-matches"), "{bash}");
        // The script is valid bash.
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("urlx.bash");
        fs::write(&path, &bash).unwrap();
        let ok = Command::new("bash").arg("-n").arg(&path).status().unwrap();
        assert!(ok.success());
        for (kind, mark) in [
            ("complete-zsh", "#compdef urlx"),
            ("complete-fish", "complete -c urlx"),
            ("complete-powershell", "Register-ArgumentCompleter"),
            ("complete-elvish", "edit:completion:arg-completer[urlx]"),
            ("man", ".TH urlx 1"),
        ] {
            let r = urlx_stdin(&["--generate", kind], "");
            assert_eq!(r.code, Some(0), "{kind}");
            assert!(r.out().contains(mark), "{kind}: {}", r.out());
            // (roff writes a hyphen as `\-`.)
            let text = r.out().replace("\\-", "-");
            assert!(text.contains("max-count"), "{kind}");
        }
    }

    #[test]
    fn source_selects_places_of_a_message() {
        let mail = "From: a@example.com\nList-Unsubscribe: <http://h.example/u>\n\
                    Content-Type: text/html\n\n\
                    <a href=\"http://attr.example/\">http://text.example/</a>\n";
        let all =
            "http://h.example/u\nhttp://attr.example/\nhttp://text.example/\n";
        urlx_stdin(&[], mail).expect(all, 0);
        let body = "http://attr.example/\nhttp://text.example/\n";
        urlx_stdin(&["--no-headers"], mail).expect(body, 0);
        let args = ["--source", "header,html-text"];
        urlx_stdin(&args, mail)
            .expect("http://h.example/u\nhttp://text.example/\n", 0);
        // Text that is not mail is text.
        urlx_stdin(&["--source", "text"], "x http://t.example/ y\n")
            .expect("http://t.example/\n", 0);
        urlx_stdin(&["--source", "header"], "x http://t.example/ y\n")
            .expect("", 1);
    }

    #[test]
    fn color_as_ripgrep_colours() {
        let d = three();
        let r =
            urlx_at(d.path(), &["--color", "always", "-n", "a.txt", "b.txt"]);
        let name = "\x1b[35ma.txt\x1b[0m:\x1b[32m1\x1b[0m:";
        r.expect(
            &format!("{name}http://a.example/1\n{name}http://a.example/2\n"),
            0,
        );
        let r = urlx_at(d.path(), &["--color", "always", "-l", "a.txt"]);
        r.expect("\x1b[35ma.txt\x1b[0m\n", 0);
        // Not a terminal: auto is never.
        let plain = "a.txt:1:http://a.example/1\na.txt:1:http://a.example/2\n";
        urlx_at(d.path(), &["-n", "a.txt", "b.txt"]).expect(plain, 0);
        urlx_at(d.path(), &["--color", "never", "-n", "a.txt", "b.txt"])
            .expect(plain, 0);
    }

    #[test]
    fn globs_depth_and_links_select_what_is_walked() {
        let d = tree(&[
            ("top.txt", b"http://top.example/\n"),
            ("m/a.eml", b"http://a.example/\n"),
            ("m/b.txt", b"http://b.example/\n"),
            ("m/deep/c.eml", b"http://c.example/\n"),
            ("other/x.txt", b"http://x.example/\n"),
        ]);
        let l = |args: &[&str]| {
            urlx_at(d.path(), &[&["-l"], args, &["."]].concat())
        };
        l(&["-g", "*.eml"]).expect("./m/a.eml\n./m/deep/c.eml\n", 0);
        l(&["-g", "!*.eml"])
            .expect("./m/b.txt\n./other/x.txt\n./top.txt\n", 0);
        l(&["-g", "!m"]).expect("./other/x.txt\n./top.txt\n", 0);
        // A glob with `/` matches the path below the directory named;
        // the last that matches decides.
        l(&["-g", "m/*"]).expect("./m/a.eml\n./m/b.txt\n", 0);
        l(&["-g", "*.eml", "-g", "!deep"]).expect("./m/a.eml\n", 0);
        l(&["--max-depth", "1"]).expect("./top.txt\n", 0);
        l(&["--max-depth", "2"])
            .expect("./m/a.eml\n./m/b.txt\n./other/x.txt\n./top.txt\n", 0);
        // A path named is searched whatever the globs.
        let r = urlx_at(d.path(), &["-l", "-g", "*.eml", "top.txt"]);
        r.expect("top.txt\n", 0);
        let r = urlx_at(d.path(), &["-g", "[", "."]);
        assert_eq!(r.code, Some(2));
        assert!(r.stderr.contains("error parsing glob"), "{:?}", r.stderr);
        // Links inside directories: followed with -L, a loop searched once.
        std::os::unix::fs::symlink(
            d.path().join("other"),
            d.path().join("m/link"),
        )
        .unwrap();
        std::os::unix::fs::symlink("..", d.path().join("other/up")).unwrap();
        l(&["-g", "*.txt"]).expect("./m/b.txt\n./other/x.txt\n./top.txt\n", 0);
        l(&["-L", "-g", "*.txt"])
            .expect("./m/b.txt\n./m/link/x.txt\n./top.txt\n", 0);
    }

    #[test]
    fn file_types_select_files() {
        use std::io::Write as _;
        let mut gz = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        gz.write_all(b"http://gz.example/\n").unwrap();
        let gz = gz.finish().unwrap();
        let d = tree(&[
            ("a.eml", b"http://a.example/\n"),
            ("box/cur/1354585346.000541", b"http://maildir.example/\n"),
            ("b.mbox.gz", &gz),
            ("c.log", b"http://c.example/\n"),
            ("d.txt", b"http://d.example/\n"),
        ]);
        let l = |args: &[&str]| {
            urlx_at(d.path(), &[&["-l"], args, &["."]].concat())
        };
        l(&["-t", "mail"])
            .expect("./a.eml\n./b.mbox.gz\n./box/cur/1354585346.000541\n", 0);
        l(&["-t", "log", "-t", "text"]).expect("./c.log\n./d.txt\n", 0);
        l(&["-T", "mail"]).expect("./c.log\n./d.txt\n", 0);
        // -g after the types: it decides where both match.
        l(&["-t", "mail", "-g", "!a.eml"])
            .expect("./b.mbox.gz\n./box/cur/1354585346.000541\n", 0);
        let r = urlx_at(d.path(), &["-t", "nope", "."]);
        assert_eq!(r.code, Some(2));
        assert!(r.stderr.contains("unknown file type"), "{:?}", r.stderr);
        let r = urlx_at(d.path(), &["--type-list"]);
        assert_eq!(r.code, Some(0));
        assert!(r.out().starts_with("mail: *.eml, "), "{}", r.out());
    }

    #[test]
    fn unique_within_a_scope() {
        let d = tree(&[
            (
                "a.txt",
                b"http://x.example/ http://x.example/ http://y.example/\n",
            ),
            ("b.txt", b"http://x.example/\n"),
        ]);
        let run = |scope: &str| {
            urlx_at(
                d.path(),
                &["-u", "--unique-scope", scope, "a.txt", "b.txt"],
            )
        };
        let all = "a.txt:http://x.example/\na.txt:http://y.example/\n";
        urlx_at(d.path(), &["-u", "a.txt", "b.txt"]).expect(all, 0);
        run("all").expect(all, 0);
        run("input").expect(&format!("{all}b.txt:http://x.example/\n"), 0);
        let mbox = "From a@b Thu Jan  1 00:00:00 1970\nSubject: x\n\n\
                    http://m.example/ http://m.example/\n\n\
                    From a@b Thu Jan  1 00:00:00 1970\nSubject: y\n\n\
                    http://m.example/\n";
        let args = ["-u", "--unique-scope", "message"];
        urlx_stdin(&args, mbox)
            .expect("http://m.example/\nhttp://m.example/\n", 0);
        urlx_stdin(&["-u"], mbox).expect("http://m.example/\n", 0);
        let r = urlx_stdin(&["--unique-scope", "input"], mbox);
        assert_eq!(r.code, Some(2), "{:?}", r.stderr);
    }

    #[test]
    fn reading_a_terminal_says_how_to_end_it() {
        // `script` gives urlx a terminal; Ctrl-D, a second later, ends
        // its input.
        if Command::new("script").arg("--version").output().is_err() {
            eprintln!("no `script` (util-linux): skipped");
            return;
        }
        let mut child = Command::new("script")
            .args(["-qec", BIN, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(500));
        stdin.write_all(b"\x04").unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with("urlx: reading standard input from the terminal"),
            "{text:?}"
        );
        assert_eq!(out.status.code(), Some(1), "no URL typed");
    }

    #[test]
    fn stats_count_what_was_searched() {
        let d = tree(&[
            ("a.txt", b"http://a.example/ and http://b.example/ x\n"),
            ("m.eml", MAIL.as_bytes()),
        ]);
        let r = urlx_at(d.path(), &["--stats", "a.txt", "m.eml", "no.txt"]);
        assert_eq!(r.code, Some(2));
        let lines: Vec<&str> = r.stderr.lines().collect();
        let bytes = 42 + MAIL.len();
        assert_eq!(
            lines[1..5],
            [
                "3 URLs printed (3 found, 0 of them not valid)",
                "2 inputs searched, 1 could not be read",
                &format!("{bytes} bytes searched, 1 messages"),
                "1 notes on decoding messages (--mail-notes)",
            ],
            "{:?}",
            r.stderr
        );
        assert!(lines[0].contains("no.txt"), "{:?}", r.stderr);
        // A candidate that is no URL is found, not printed.
        let r = urlx_stdin(&["--stats"], "http://a.example/ http://[x/\n");
        assert!(
            r.stderr.starts_with(
                "1 URLs printed (2 found, 1 of them not valid)\n"
            ),
            "{:?}",
            r.stderr
        );
        assert!(lines[5].ends_with(" seconds"), "{:?}", r.stderr);
    }
}

mod memory {
    //! Bounded memory: the input is streamed, never read whole.
    use super::*;

    /// The peak resident memory (KiB) in a /proc status file, 0 when
    /// it cannot be read.
    fn vm_hwm(status: &str) -> u64 {
        let s = fs::read_to_string(status).unwrap_or_default();
        s.lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// Peak resident memory (VmHWM, KiB) of a run of the binary reading
    /// `total` bytes of `unit` repeated from standard input, polled from
    /// /proc while it runs.
    fn peak_kib(unit: &[u8], total: usize) -> u64 {
        let mut child = Command::new(BIN)
            .args(["-c", "--format", "text", "-j2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let status = format!("/proc/{}/status", child.id());
        let mut stdin = child.stdin.take().unwrap();
        let mut peak = 0;
        let mut sent = 0;
        while sent < total {
            stdin.write_all(unit).unwrap();
            sent += unit.len();
            peak = peak.max(vm_hwm(&status));
        }
        drop(stdin);
        assert!(child.wait().unwrap().code().is_some_and(|c| c <= 1));
        peak
    }

    #[test]
    fn a_long_line_without_newline_streams() {
        // 96 MiB in one line: at most a few batches are held at once.
        let unit = b"abcdefgh".repeat(1 << 16);
        let peak = peak_kib(&unit, 96 << 20);
        assert!(peak > 0, "VmHWM not read");
        assert!(peak < 48 << 10, "peak RSS {peak} KiB");
    }

    #[test]
    fn many_files_do_not_accumulate() {
        // 60,000 files with names of about 250 bytes, which the search
        // held to its end when it kept every input's name: peak RSS was
        // 24 MiB. With names dropped after the merge it is 7.5 MiB in a
        // release build and about 14 MiB in the unoptimized build that
        // `cargo test` runs (larger code); the names kept would add about
        // 16 MiB to either.
        let d = tempfile::tempdir().unwrap();
        let long = "n".repeat(230);
        for i in 0..60 {
            let dir = d.path().join(format!("{i:03}"));
            fs::create_dir(&dir).unwrap();
            for j in 0..1000 {
                fs::write(dir.join(format!("{long}{j:04}.txt")), "x").unwrap();
            }
        }
        let mut child = Command::new(BIN)
            .arg(d.path())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let status = format!("/proc/{}/status", child.id());
        let mut peak = 0;
        let code = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s.code();
            }
            peak = peak.max(vm_hwm(&status));
        };
        assert_eq!(code, Some(1), "no URL, exit 1");
        assert!(peak > 0, "VmHWM not read");
        assert!(peak < 20 << 10, "peak RSS {peak} KiB");
    }

    /// The memory bound of mail stated in the README and DESIGN.md: 62 MiB,
    /// 23 bytes for each byte of a batch (4 MiB) and 20 for each byte of
    /// the longest message parsed as MIME (16 MiB), whatever the number of
    /// threads.
    const MAIL_BOUND_KIB: u64 = (62 + 3 * 4 + 20 * (4 + 16)) << 10;

    /// Run the binary on `path` with `args`; its exit code, standard
    /// output and peak resident memory (KiB, from `wait4`, which reaps
    /// the child: `Child::wait` would not give the figure).
    #[allow(clippy::zombie_processes)]
    fn run_peak(args: &[&str], path: &Path) -> (i32, String, u64) {
        let child = Command::new(BIN)
            .args(args)
            .arg(path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.unwrap(), &mut out)
            .unwrap();
        let mut status = 0;
        // SAFETY: plain out-parameters; the child is reaped here, not by
        // `Child` (dropped without waiting).
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(got, pid);
        let code = libc::WEXITSTATUS(status);
        (code, out, u64::try_from(usage.ru_maxrss).unwrap())
    }

    #[test]
    fn mail_stays_within_its_bound() {
        // One 15 MiB message each that makes one part of decoding as
        // large as it gets: URLs every 6 bytes (hits), a million HTML
        // attributes, characters of two widths in turn (offset maps), a
        // million header fields. Before the bound was met these peaked at
        // 0.27, 0.63, 0.83 and 1.0 GB.
        let s = 15 << 20;
        let head = "From a@example.com Thu Jan  1 00:00:00 1970\n\
                    From: a@example.com\nSubject: t\n";
        let mut cases: Vec<(&str, Vec<u8>, &str)> = Vec::new();
        let mut m = format!("{head}Content-Type: text/plain\n\n").into_bytes();
        m.extend(b"a://b\n".repeat(s / 6));
        cases.push(("hits", m, "2621440"));
        let mut m = format!("{head}Content-Type: text/html\n\n").into_bytes();
        m.extend(b"<p x=a://b y=a://c>\n".repeat(s / 20));
        cases.push(("attributes", m, "1572864"));
        let mut m = format!(
            "{head}Content-Type: text/plain; charset=windows-1252\n\n"
        )
        .into_bytes();
        m.extend(
            [b"\xe9\x80".repeat(38), b"\n".to_vec()].concat().repeat(s / 77),
        );
        cases.push(("maps", m, "0"));
        let mut m = head.as_bytes().to_vec();
        m.extend(b"X-L: a://b\n".repeat(s / 11));
        m.extend(b"\nbody\n");
        cases.push(("fields", m, "1429876"));
        let d = tempfile::tempdir().unwrap();
        let runs: Vec<_> = cases
            .into_iter()
            .map(|(name, data, count)| {
                let path = d.path().join(format!("{name}.mbox"));
                fs::write(&path, data).unwrap();
                std::thread::spawn(move || {
                    (name, count, run_peak(&["-c", "-j2"], &path))
                })
            })
            .collect();
        for run in runs {
            let (name, count, (code, out, peak)) = run.join().unwrap();
            assert_eq!(out.trim(), count, "{name}");
            assert!(code <= 1, "{name}: exit {code}");
            assert!(peak < MAIL_BOUND_KIB, "{name}: peak RSS {peak} KiB");
        }
    }

    #[test]
    fn dense_urls_stream() {
        let line = b"see <http://a.example/very/long-\n path/x.html> and http://b.example/q?x=1. Note: 10:30\n";
        let unit = line.repeat(1 << 12);
        // Two URLs every 88 bytes: the hits of three 4 MiB batches in
        // flight dominate; the target is 64 MiB whatever the input.
        let peak = peak_kib(&unit, 48 << 20);
        assert!(peak > 0, "VmHWM not read");
        assert!(peak < 64 << 10, "peak RSS {peak} KiB");
    }
}

mod failures {
    //! Inputs that change or loop while they are read.
    use super::*;

    #[test]
    fn a_directory_symlink_loop_ends() {
        let d = tree(&[("a/f.txt", b"http://f.example/\n")]);
        std::os::unix::fs::symlink(".", d.path().join("a/loop")).unwrap();
        // Inside a walk the link is not followed; named, it is followed
        // once and its own link inside is not.
        let r = urlx_at(d.path(), &["a"]);
        r.expect("a/f.txt:http://f.example/\n", 0);
        let r = urlx_at(d.path(), &["a/loop"]);
        r.expect("a/loop/f.txt:http://f.example/\n", 0);
    }

    /// A sink that truncates the file at `path` to `keep` bytes at the
    /// first hit, and records the hits' offsets, the ends and the errors.
    struct Shrink {
        path: PathBuf,
        keep: u64,
        hits: Vec<u64>,
        ends: usize,
        errors: Vec<String>,
    }

    impl urlx::Sink for Shrink {
        fn hit(
            &mut self,
            _: &urlx::InputInfo,
            hit: &urlx::Hit,
        ) -> std::io::Result<bool> {
            if self.hits.is_empty() {
                let f = fs::OpenOptions::new().write(true).open(&self.path)?;
                f.set_len(self.keep)?;
            }
            assert!(self.errors.is_empty(), "a hit after the error");
            self.hits.push(hit.start());
            Ok(true)
        }
        fn end(&mut self, _: &urlx::InputInfo, _: u64) -> std::io::Result<()> {
            self.ends += 1;
            Ok(())
        }
        fn error(
            &mut self,
            _: &urlx::InputInfo,
            e: &std::io::Error,
        ) -> std::io::Result<()> {
            self.errors.push(e.to_string());
            Ok(())
        }
    }

    /// Search `name` (`unit` repeated to 1 MiB) with a sink that cuts it
    /// to 100 KiB at the first hit.
    fn shrink_while_read(name: &str, head: &[u8], unit: &[u8]) -> Shrink {
        let mut data = head.to_vec();
        data.extend(unit.repeat((1 << 20) / unit.len()));
        let d = tree(&[(name, &data)]);
        let path = d.path().join(name);
        let ex = urlx::Extractor::builder()
            .chunk_size(16 << 10)
            .batch_size(32 << 10)
            .build()
            .unwrap();
        let mut sink = Shrink {
            path: path.clone(),
            keep: 100 << 10,
            hits: Vec::new(),
            ends: 0,
            errors: Vec::new(),
        };
        ex.search(std::iter::once(urlx::Input::file(name, &path)), &mut sink)
            .unwrap();
        sink
    }

    #[test]
    fn a_file_that_shrinks_while_read_is_an_error() {
        // 1 MiB of lines with a URL each, read in 16 KiB parts; the sink
        // truncates the file to 100 KiB at the first hit, while later
        // parts are still to be read. The hits of what was read come in
        // order, the input ends once, and then an error says the result
        // is partial (exit 2 from the command-line tool), like a read
        // error.
        let line = b"a line with http://a.example/x in it\n";
        let sink = shrink_while_read("big.txt", b"", line);
        assert_eq!(sink.ends, 1);
        assert!(sink.hits.len() >= (100 << 10) / line.len() - 1);
        assert!(sink.hits.len() < (1 << 20) / line.len());
        assert!(sink.hits.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sink.errors.len(), 1, "{:?}", sink.errors);
        assert!(
            sink.errors[0].starts_with(&format!(
                "the file shrank while it was read ({} bytes when opened, \
                 102400 now)",
                (1 << 20) / line.len() * line.len()
            )),
            "{:?}",
            sink.errors
        );
        // Mail, read as a stream: the same.
        let sink = shrink_while_read(
            "big.mbox",
            b"",
            b"From a@example.com Thu Jan  1 00:00:00 1970\nSubject: s\n\n\
              http://m.example/\n",
        );
        assert_eq!(sink.ends, 1);
        assert!(sink.hits.len() > 1000, "{}", sink.hits.len());
        assert_eq!(sink.errors.len(), 1, "{:?}", sink.errors);
        assert!(sink.errors[0].contains("shrank"), "{:?}", sink.errors);
    }

    #[test]
    fn mime_parts_past_the_limit_are_read_as_text() {
        // 12,000 parts of one URL each: the first 9,999 are walked as
        // MIME (the message is the 10,000th entity), the rest is one text
        // piece; every URL is printed, in order, with one warning.
        let mut m = String::from(
            "From: a@example.com\nContent-Type: multipart/mixed; \
             boundary=b\n\n",
        );
        for k in 0..12_000 {
            m.push_str(&format!(
                "--b\nContent-Type: text/plain\n\nhttp://p.example/{k}\n"
            ));
        }
        m.push_str("--b--\n");
        let r = urlx_stdin(&["--json", "--mail-notes"], &m);
        assert_eq!(r.code, Some(0));
        let hits = r.json();
        assert_eq!(hits.len(), 12_000);
        for (k, h) in hits.iter().enumerate() {
            assert_eq!(h["url"], format!("http://p.example/{k}"));
        }
        assert_eq!(hits[9_998]["part"], "9999");
        assert_eq!(hits[9_999]["part"], "rest");
        assert_eq!(hits[11_999]["part"], "rest");
        assert_eq!(
            r.stderr,
            "urlx: <stdin>: message 1: more than 10000 MIME parts: the rest \
             was read as text\n"
        );
    }

    #[test]
    fn a_file_of_the_kernel_that_says_empty_is_read_to_its_end() {
        // /proc/PID/cmdline has a size of 0 and holds the arguments. (The
        // shell runs a command after `sleep`, so that it cannot replace
        // itself with `sleep` and its arguments with sleep's.)
        let mut child = Command::new("sh")
            .args(["-c", "sleep 10; :", "x", "http://proc.example/x"])
            .spawn()
            .unwrap();
        let path = format!("/proc/{}/cmdline", child.id());
        assert_eq!(fs::metadata(&path).unwrap().len(), 0);
        let r = crate::common::urlx_stdin(&["-a", &path], "");
        let _ = child.kill();
        let _ = child.wait();
        r.expect("http://proc.example/x\n", 0);
    }

    #[test]
    fn a_file_that_grew_since_listed_is_read_as_listed() {
        // Listed at 22 bytes (the first line), 41 when read: the snapshot
        // as listed is scanned, in bounded memory.
        let d =
            tree(&[("f.txt", b"x http://a.example/ y\nhttp://b.example/\n")]);
        let path = d.path().join("f.txt");
        let ex = urlx::Extractor::builder().build().unwrap();
        let mut sink = crate::common::Collect(Vec::new());
        let input = urlx::Input::file_with_len("f", &path, 22);
        ex.search(std::iter::once(input), &mut sink).unwrap();
        let got: Vec<&str> = sink.0.iter().map(|(_, h)| h.url()).collect();
        assert_eq!(got, ["http://a.example/"]);
    }

    #[test]
    fn line_buffered_prints_each_line_as_it_comes() {
        // The second line is written only after the first URL was read
        // back: without --line-buffered this would wait forever.
        let mut child = Command::new(BIN)
            .arg("--line-buffered")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdin.write_all(b"see http://a.example/one now\n").unwrap();
        stdin.flush().unwrap();
        out.read_line(&mut line).unwrap();
        assert_eq!(line, "http://a.example/one\n");
        stdin.write_all(b"<http://b.example/two>\n").unwrap();
        drop(stdin);
        line.clear();
        out.read_line(&mut line).unwrap();
        assert_eq!(line, "http://b.example/two\n");
        assert_eq!(child.wait().unwrap().code(), Some(0));
    }
}

mod line_endings {
    //! CRLF input is delimited, positioned and decoded like LF input.
    use super::*;

    /// Every construct that spans a line break: whitespace inside
    /// `<URL:...>` and `<...>`, hyphen line breaks inside and outside
    /// wrappers, a quoted reply, a blank line ending a `<` that was not
    /// a wrapper.
    const TEXT: &str = "l1 <URL:http://w.example/a/\n   b> x\n\
        see <http://x.example/in-\n   notes/x>\n\
        bare http://y.example/in-\n notes/y\n\
        > quoted <http://q.example/long/\n> path> end\n\
        <http://z.example/a\n\n b>\n\
        \"http://quote.example/x\" (http://p.example/a_(b)).\n";

    const EXPECTED: &str = "1:9:http://w.example/a/b\n\
        3:6:http://x.example/in-notes/x\n\
        5:6:http://y.example/in-notes/y\n\
        7:11:http://q.example/long/path\n\
        9:2:http://z.example/a\n\
        12:2:http://quote.example/x\n\
        12:27:http://p.example/a_(b)\n";

    fn crlf(text: &str) -> String {
        text.replace('\n', "\r\n")
    }

    #[test]
    fn wrapped_urls_are_joined_across_crlf_as_across_lf() {
        let args = ["-n", "--column"];
        urlx_stdin(&args, TEXT).expect_quiet(EXPECTED, 0);
        urlx_stdin(&args, &crlf(TEXT)).expect_quiet(EXPECTED, 0);
    }

    #[test]
    fn offsets_of_a_url_wrapped_across_crlf_span_the_cr() {
        let text = crlf(TEXT);
        let r = urlx_stdin(&["--json"], &text);
        let hits = r.json();
        assert_eq!(hits.len(), 7);
        for h in &hits {
            let (start, end) = (
                h["start"].as_u64().unwrap() as usize,
                h["end"].as_u64().unwrap() as usize,
            );
            let raw = &text[start..end];
            let url = h["url"].as_str().unwrap();
            // The raw text is the URL with line breaks (CR LF), their
            // indentation and a reply's quote marks inserted.
            let joined: String = raw
                .split('\n')
                .enumerate()
                .map(|(i, l)| {
                    let l = l.trim();
                    if i == 0 { l } else { l.trim_start_matches('>').trim() }
                })
                .collect();
            assert_eq!(joined, url, "{raw:?}");
            assert_eq!(raw.matches('\r').count(), raw.matches('\n').count());
            assert!(!raw.ends_with('\r'), "{raw:?}");
        }
    }

    /// One message, CRLF throughout: a quoted-printable soft line break
    /// (`=` CR LF) inside a URL, and an HTML part.
    const MESSAGE: &str = "From: a@example.com\nSubject: t\n\
        MIME-Version: 1.0\n\
        Content-Type: multipart/mixed; boundary=b\n\n\
        --b\nContent-Type: text/plain\n\
        Content-Transfer-Encoding: quoted-printable\n\n\
        see http://m.example/very/long/pa=\nth?x=3D1 there\n\
        --b\nContent-Type: text/html\n\n\
        <a href=\"http://h.example/x\">x</a>\n--b--\n";

    #[test]
    fn a_crlf_message_is_decoded_like_an_lf_one() {
        let want = "10:5:http://m.example/very/long/path?x=1\n\
                    15:10:http://h.example/x\n";
        let args = ["-n", "--column", "--format", "eml"];
        urlx_stdin(&args, MESSAGE).expect_quiet(want, 0);
        urlx_stdin(&args, &crlf(MESSAGE)).expect_quiet(want, 0);
        let text = crlf(MESSAGE);
        let hits = urlx_stdin(&["--json", "--format", "eml"], &text).json();
        let start = hits[0]["start"].as_u64().unwrap() as usize;
        let end = hits[0]["end"].as_u64().unwrap() as usize;
        assert_eq!(
            &text[start..end],
            "http://m.example/very/long/pa=\r\nth?x=3D1"
        );
    }
}

mod signals {
    //! An interrupted run ends at once, as killed by SIGINT, without a
    //! panic message.
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Child;
    use std::time::{Duration, Instant};

    /// Send SIGINT to `child` and wait (at most 5 s) for it to end.
    fn interrupt(mut child: Child) {
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        // SAFETY: kill(2) on the pid of a child this test started and
        // has not reaped; no memory is involved.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        let t = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if t.elapsed() > Duration::from_secs(5) {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("still running 5 s after SIGINT");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(
            status.signal() == Some(libc::SIGINT)
                || status.code() == Some(130),
            "{status:?}"
        );
        let mut stderr = String::new();
        std::io::Read::read_to_string(
            &mut child.stderr.take().unwrap(),
            &mut stderr,
        )
        .unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
    }

    #[test]
    fn sigint_while_reading_a_slow_pipe_ends_the_run() {
        for args in [&["--line-buffered"][..], &["-j2"], &["--format", "auto"]]
        {
            let mut child = Command::new(BIN)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"see http://a.example/one now\n").unwrap();
            stdin.flush().unwrap();
            if args == ["--line-buffered"] {
                // Running for sure: the first URL came back.
                let mut out = BufReader::new(child.stdout.take().unwrap());
                let mut line = String::new();
                out.read_line(&mut line).unwrap();
                assert_eq!(line, "http://a.example/one\n");
            } else {
                std::thread::sleep(Duration::from_millis(200));
            }
            // The pipe stays open: urlx is waiting for more input.
            interrupt(child);
            drop(stdin);
        }
    }

    #[test]
    fn sigint_while_blocked_on_a_full_stdout_ends_the_run() {
        let line = b"lorem http://www.example.com/p dolor <URL:ftp://f/x>\n";
        let d = tree(&[("big.txt", &line.repeat(200_000))]);
        let child = Command::new(BIN)
            .args(["-j2", "big.txt"])
            .current_dir(d.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Nobody reads stdout: urlx fills the pipe and blocks writing.
        std::thread::sleep(Duration::from_millis(300));
        interrupt(child);
    }
}

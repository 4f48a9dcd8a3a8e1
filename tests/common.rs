//! Helpers shared by the test modules: a collecting sink, and running
//! the binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;
use urlx::{Hit, InputInfo, Sink};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_urlx");

/// A sink that keeps every hit with its input's index, and fails the
/// test on an input error.
pub struct Collect(pub Vec<(usize, Hit)>);

impl Sink for Collect {
    fn hit(&mut self, i: &InputInfo, hit: &Hit) -> std::io::Result<bool> {
        self.0.push((i.index, hit.clone()));
        Ok(true)
    }

    fn error(
        &mut self,
        _: &InputInfo,
        e: &std::io::Error,
    ) -> std::io::Result<()> {
        panic!("{e}")
    }
}

/// What one run of the binary produced.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn out(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }

    /// Exact stdout and exit status.
    #[track_caller]
    pub fn expect(&self, stdout: &str, code: i32) {
        assert_eq!(self.out(), stdout, "stdout (stderr: {:?})", self.stderr);
        assert_eq!(
            self.code,
            Some(code),
            "status (stderr: {:?})",
            self.stderr
        );
    }

    /// Exact stdout and exit status, and nothing on stderr.
    #[track_caller]
    pub fn expect_quiet(&self, stdout: &str, code: i32) {
        self.expect(stdout, code);
        assert_eq!(self.stderr, "", "stderr");
    }

    /// The stdout as JSON Lines.
    pub fn json(&self) -> Vec<Value> {
        self.out()
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect()
    }
}

/// Run `urlx args` in `dir` (when given) with `stdin` (when given; else
/// no standard input at all).
pub fn urlx_in(
    dir: Option<&Path>,
    args: &[&str],
    stdin: Option<&[u8]>,
) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().expect("urlx starts");
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        // The child may exit without reading: ignore write errors.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let output = child.wait_with_output().expect("urlx runs");
    if let Some(w) = writer {
        w.join().unwrap();
    }
    Run {
        code: output.status.code(),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Run `urlx args` with `stdin` as standard input.
pub fn urlx_stdin(args: &[&str], stdin: &str) -> Run {
    urlx_in(None, args, Some(stdin.as_bytes()))
}

/// Run `urlx args` in `dir`, no standard input.
pub fn urlx_at(dir: &Path, args: &[&str]) -> Run {
    urlx_in(Some(dir), args, None)
}

/// A xorshift64 generator (Marsaglia 2003) from `seed` (not zero): the
/// repeatable pseudo-random numbers of the tests that try many inputs.
pub fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

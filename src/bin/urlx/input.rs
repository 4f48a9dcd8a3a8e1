//! Inputs: turns the PATH arguments into an ordered, lazy sequence of
//! library `Input`s (stdin, files, directories walked recursively with
//! their entries sorted). Walking errors become inputs that fail to open,
//! so they are reported in order and the run goes on.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use urlx::Input;
use urlx::decompress::{Compression, decoder, sniffed};

/// The name standard input is reported under.
pub const STDIN_NAME: &str = "<stdin>";

/// One path to visit, and whether the user named it.
enum Todo {
    Path(PathBuf, bool),
    Error(PathBuf, io::Error),
}

/// Lazily walks the given paths in order.
pub struct Inputs {
    stack: Vec<Todo>,
    explicit: Vec<bool>,
    /// Decompress every input by its magic bytes (-z).
    sniff: bool,
}

impl Inputs {
    pub fn new(paths: &[PathBuf], sniff: bool) -> Inputs {
        let stack =
            paths.iter().rev().map(|p| Todo::Path(p.clone(), true)).collect();
        Inputs { stack, explicit: Vec::new(), sniff }
    }

    /// Whether input number `index` (in the order produced) was named on
    /// the command line rather than found in a directory.
    pub fn was_explicit(explicit: &[bool], index: usize) -> bool {
        explicit.get(index).copied().unwrap_or(true)
    }
}

fn name_of(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

impl Iterator for Inputs {
    type Item = (Input<'static>, bool);

    fn next(&mut self) -> Option<(Input<'static>, bool)> {
        loop {
            let todo = self.stack.pop()?;
            let (path, explicit) = match todo {
                Todo::Error(path, e) => {
                    let input =
                        Input::new(name_of(&path), move || Err::<File, _>(e));
                    self.explicit.push(false);
                    return Some((input, false));
                }
                Todo::Path(p, explicit) => (p, explicit),
            };
            if explicit && path.as_os_str() == "-" {
                self.explicit.push(true);
                let sniff = self.sniff;
                let input = Input::new(STDIN_NAME, move || {
                    let stdin = io::stdin();
                    if sniff { sniffed(stdin) } else { Ok(Box::new(stdin)) }
                });
                return Some((input, true));
            }
            // Named paths are followed; inside directories, symbolic
            // links are not (no loops, as ripgrep and fd by default).
            let meta = if explicit {
                fs::metadata(&path)
            } else {
                fs::symlink_metadata(&path)
            };
            match meta {
                Ok(m) if m.is_dir() => match read_dir_sorted(&path) {
                    Ok(entries) => {
                        for e in entries.into_iter().rev() {
                            self.stack.push(e);
                        }
                    }
                    Err(e) => self.stack.push(Todo::Error(path, e)),
                },
                Ok(m) if m.file_type().is_symlink() => {}
                Ok(m) if !explicit && !m.is_file() => {} // fifos, sockets
                _ => {
                    // Open errors (missing, permission) surface here.
                    self.explicit.push(explicit);
                    let kind = Compression::from_path(&path);
                    if !self.sniff && kind == Compression::None {
                        // Read by the scanning threads themselves.
                        let name = name_of(&path);
                        let input = match meta {
                            Ok(m) if m.is_file() => {
                                Input::file_with_len(name, path, m.len())
                            }
                            _ => Input::file(name, path),
                        };
                        return Some((input, explicit));
                    }
                    let p = path.clone();
                    let sniff = self.sniff;
                    let input = Input::new(name_of(&path), move || {
                        let file = File::open(&p)?;
                        if sniff {
                            sniffed(file)
                        } else {
                            decoder(file, Compression::from_path(&p))
                        }
                    });
                    return Some((input, explicit));
                }
            }
        }
    }
}

fn read_dir_sorted(dir: &Path) -> io::Result<Vec<Todo>> {
    let mut entries = Vec::new();
    for e in fs::read_dir(dir)? {
        match e {
            Ok(e) => entries.push(e.path()),
            Err(err) => return Err(err),
        }
    }
    // All share `dir`: comparing names is comparing paths, and cheaper.
    entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(entries.into_iter().map(|p| Todo::Path(p, false)).collect())
}

//! Inputs: walks the PATH arguments (stdin, files, directories walked
//! recursively with their entries sorted) into an ordered sequence of
//! what was found, on its own thread, and turns each into a library
//! `Input`. Walking errors become inputs that fail to open, so they are
//! reported in order and the run goes on.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use urlx::Input;

/// The name standard input is reported under.
pub const STDIN_NAME: &str = "<stdin>";

/// What the walk found, in order. `explicit` is true for paths named on
/// the command line (as opposed to found in a directory).
pub enum Found {
    Stdin,
    File { path: PathBuf, len: Option<u64>, explicit: bool },
    Error { path: PathBuf, error: io::Error },
}

/// One path to visit: whether the user named it, how deep it is below
/// the path named (0: that path), and that path.
enum Todo {
    Path { path: PathBuf, explicit: bool, depth: usize, root: Rc<PathBuf> },
    Error(PathBuf, io::Error),
}

/// How directories are walked: the options --max-depth, -L and -g.
#[derive(Default)]
pub struct WalkOptions {
    /// Descend at most this many levels below a path named.
    pub max_depth: Option<usize>,
    /// Follow symbolic links inside directories (each directory is
    /// searched once, so a link loop ends).
    pub follow: bool,
    /// The -g globs, in order.
    pub globs: Option<Globs>,
}

/// The file types of -t and -T: a name and the globs of its files
/// (compressed ones included). Maildir messages have no extension: they
/// are the files of `cur/` and `new/` directories.
pub const TYPES: &[(&str, &[&str])] = &[
    (
        "mail",
        &[
            "*.eml",
            "*.emlx",
            "*.mail",
            "*.mbox",
            "*.mboxrd",
            "*.mbx",
            "*.mmdf",
            "*.babyl",
            "RMAIL",
            "mbox",
            "**/cur/*",
            "**/new/*",
            "*.tnef",
            "*.msg",
            "winmail.dat",
        ],
    ),
    ("news", &["*.news", "*.art"]),
    ("html", &["*.html", "*.htm", "*.xhtml"]),
    ("log", &["*.log", "*.log.[0-9]", "*.log.[0-9][0-9]", "*.out"]),
    (
        "text",
        &["*.txt", "*.text", "*.md", "*.rst", "*.pod", "README*", "*.csv"],
    ),
    ("warc", &["*.warc", "*.wet", "*.wat"]),
];

/// Compressed forms of a type's files.
const COMPRESSED: &[&str] = &["", ".gz", ".bz2", ".xz", ".zst"];

/// The -g globs that -t (`select`) and -T (`negate`) stand for, before
/// the globs given with -g; an unknown type is an error.
pub fn type_globs(
    select: &[String],
    negate: &[String],
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (names, bang) in [(select, ""), (negate, "!")] {
        for name in names {
            let Some((_, globs)) = TYPES.iter().find(|(n, _)| n == name)
            else {
                let known: Vec<&str> = TYPES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown file type {name:?}: the types are {}",
                    known.join(", ")
                ));
            };
            for g in *globs {
                for z in COMPRESSED {
                    // A Maildir file is one whatever its name.
                    if z.is_empty() || !g.ends_with("/*") {
                        out.push(format!("{bang}{g}{z}"));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// -g globs (`!` in front to exclude), matched against a path relative
/// to the path named on the command line, or against the file name
/// when the glob has no `/`. The last glob that matches decides; with
/// an including glob, a file that none matches is left out. Directories
/// are only left out by excluding globs; paths named on the command line
/// are always searched.
pub struct Globs {
    names: GlobSet,
    paths: GlobSet,
    /// For each glob of `names` and of `paths`, in that order: whether it
    /// excludes, and its place on the command line.
    rules: Vec<(bool, usize)>,
    split: usize,
    any_include: bool,
}

impl Globs {
    /// The globs as given to -g; an error names a bad one.
    pub fn new(globs: &[String]) -> Result<Globs, globset::Error> {
        let (mut names, mut paths) =
            (GlobSetBuilder::new(), GlobSetBuilder::new());
        let (mut name_rules, mut path_rules) = (Vec::new(), Vec::new());
        let mut any_include = false;
        for (k, g) in globs.iter().enumerate() {
            let (exclude, text) = match g.strip_prefix('!') {
                Some(t) => (true, t),
                None => (false, g.as_str()),
            };
            any_include |= !exclude;
            let glob =
                GlobBuilder::new(text).literal_separator(true).build()?;
            if text.contains('/') {
                paths.add(glob);
                path_rules.push((exclude, k));
            } else {
                names.add(glob);
                name_rules.push((exclude, k));
            }
        }
        let split = name_rules.len();
        name_rules.extend(path_rules);
        Ok(Globs {
            names: names.build()?,
            paths: paths.build()?,
            rules: name_rules,
            split,
            any_include,
        })
    }

    /// Whether the entry `rel` (relative to the path named) is searched.
    fn keeps(&self, rel: &Path, dir: bool) -> bool {
        let name = rel.file_name().map(Path::new).unwrap_or(rel);
        let last = self
            .names
            .matches(name)
            .into_iter()
            .map(|i| self.rules[i])
            .chain(
                self.paths
                    .matches(rel)
                    .into_iter()
                    .map(|i| self.rules[self.split + i]),
            )
            .max_by_key(|&(_, k)| k);
        match last {
            Some((exclude, _)) => !exclude,
            None => dir || !self.any_include,
        }
    }
}

/// What the walker sends at most in one message: handing over each
/// entry on its own would wake the reading thread once per file.
const WALK_BATCH: usize = 64;

/// Walk `paths` on a thread of its own (so that listing directories and
/// reading file metadata overlap with scanning); the iterator yields
/// what it finds, in order.
pub fn walk(
    paths: Vec<PathBuf>,
    opts: WalkOptions,
) -> impl Iterator<Item = Found> {
    let (tx, rx) = mpsc::sync_channel::<Vec<Found>>(64);
    std::thread::spawn(move || {
        let mut walk = Walk::new(&paths, opts);
        loop {
            // A named path (stdin, a file) goes out at once, so that a
            // pipeline is not held up waiting for a batch to fill.
            let mut batch = Vec::with_capacity(WALK_BATCH);
            while batch.len() < WALK_BATCH {
                match walk.next() {
                    Some(found) => {
                        let named = found.is_named();
                        batch.push(found);
                        if named {
                            break;
                        }
                    }
                    None => break,
                }
            }
            if batch.is_empty() || tx.send(batch).is_err() {
                break; // done, or the search stopped
            }
        }
    });
    rx.into_iter().flatten()
}

impl Found {
    /// Whether this came from the command line itself.
    fn is_named(&self) -> bool {
        match self {
            Found::Stdin => true,
            Found::File { explicit, .. } => *explicit,
            Found::Error { .. } => false,
        }
    }
}

/// The library input for what was found, and whether it was named on
/// the command line.
pub fn to_input(found: Found) -> (Input<'static>, bool) {
    match found {
        Found::Stdin => (Input::new(STDIN_NAME, || Ok(io::stdin())), true),
        Found::Error { path, error } => {
            let input =
                Input::new(name_of(&path), move || Err::<File, _>(error));
            (input, false)
        }
        Found::File { path, len, explicit } => {
            // Opened and read by the library, which decompresses what
            // the extractor's `decompress` says.
            let name = name_of(&path);
            let input = match len {
                Some(len) => Input::file_with_len(name, path, len),
                None => Input::file(name, path),
            };
            (input, explicit)
        }
    }
}

/// Whether input number `index` (in the order produced) was named on the
/// command line rather than found in a directory.
pub fn was_explicit(explicit: &[bool], index: usize) -> bool {
    explicit.get(index).copied().unwrap_or(true)
}

fn name_of(p: &Path) -> String {
    // `to_str` checks UTF-8 a word at a time, `to_string_lossy` a byte at
    // a time, which shows on a tree of many tiny files.
    match p.to_str() {
        Some(s) => s.to_owned(),
        None => p.to_string_lossy().into_owned(),
    }
}

/// Lazily walks the given paths in order.
struct Walk {
    stack: Vec<Todo>,
    opts: WalkOptions,
    /// With -L: the directories searched (device, inode).
    seen: HashSet<(u64, u64)>,
}

impl Walk {
    fn new(paths: &[PathBuf], opts: WalkOptions) -> Walk {
        let stack = paths
            .iter()
            .rev()
            .map(|p| Todo::Path {
                path: p.clone(),
                explicit: true,
                depth: 0,
                root: Rc::new(p.clone()),
            })
            .collect();
        Walk { stack, opts, seen: HashSet::new() }
    }

    /// Whether an entry found in a directory is searched (-g).
    fn keeps(&self, path: &Path, root: &Path, dir: bool) -> bool {
        let Some(ref globs) = self.opts.globs else { return true };
        globs.keeps(path.strip_prefix(root).unwrap_or(path), dir)
    }
}

impl Iterator for Walk {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        loop {
            let (path, explicit, depth, root) = match self.stack.pop()? {
                Todo::Error(path, error) => {
                    return Some(Found::Error { path, error });
                }
                Todo::Path { path, explicit, depth, root } => {
                    (path, explicit, depth, root)
                }
            };
            if explicit && path.as_os_str() == "-" {
                return Some(Found::Stdin);
            }
            // Named paths are followed; inside directories, symbolic
            // links are not (no loops, as ripgrep and fd by default),
            // unless -L.
            let meta = if explicit || self.opts.follow {
                fs::metadata(&path)
            } else {
                fs::symlink_metadata(&path)
            };
            if let Ok(ref m) = meta
                && !explicit
                && !self.keeps(&path, &root, m.is_dir())
            {
                continue;
            }
            match meta {
                Ok(m) if m.is_dir() => {
                    if self.opts.max_depth.is_some_and(|d| depth >= d) {
                        continue;
                    }
                    if self.opts.follow {
                        use std::os::unix::fs::MetadataExt;
                        if !self.seen.insert((m.dev(), m.ino())) {
                            continue; // searched already (a link loop)
                        }
                    }
                    match read_dir_sorted(&path, depth + 1, &root) {
                        Ok(entries) => {
                            for e in entries.into_iter().rev() {
                                self.stack.push(e);
                            }
                        }
                        Err(e) => self.stack.push(Todo::Error(path, e)),
                    }
                }
                Ok(m) if m.file_type().is_symlink() => {}
                Ok(m) if !explicit && !m.is_file() => {} // fifos, sockets
                Ok(m) => {
                    let len = m.is_file().then_some(m.len());
                    return Some(Found::File { path, len, explicit });
                }
                // Open errors (missing, permission) surface when opened.
                Err(_) => {
                    return Some(Found::File { path, len: None, explicit });
                }
            }
        }
    }
}

fn read_dir_sorted(
    dir: &Path,
    depth: usize,
    root: &Rc<PathBuf>,
) -> io::Result<Vec<Todo>> {
    let mut entries = Vec::new();
    for e in fs::read_dir(dir)? {
        match e {
            Ok(e) => entries.push((e.file_name(), e.path())),
            Err(err) => return Err(err),
        }
    }
    // All share `dir`: comparing names is comparing paths. The names are
    // compared as bytes, once taken from each entry (Path::file_name
    // would parse every path again at each comparison); they are unique.
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(entries
        .into_iter()
        .map(|(_, path)| Todo::Path {
            path,
            explicit: false,
            depth,
            root: root.clone(),
        })
        .collect())
}

//! The library's files import one another without a cycle: read from the
//! sources, every `crate::`, `super::`, `self::` and child-module path is
//! an edge from the file that writes it to the file that defines the
//! module it names, and the graph of those edges has no cycle. Test
//! modules (`#[cfg(test)] mod ... { }`) are left out; they may use
//! anything.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Module path (`["mail", "mime"]`) of each library file below `src/`
/// (the binary's files are another crate and are left out).
fn library_files(root: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            if path.is_dir() {
                if rel != Path::new("bin") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let last = parts.pop().unwrap();
            let stem = last.trim_end_matches(".rs").to_string();
            if stem != "mod" && !(parts.is_empty() && stem == "lib") {
                parts.push(stem);
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The source with comments, string and character literals blanked out
/// (newlines kept), so that paths are only read from code.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| {
        out.push(if c == b'\n' { b'\n' } else { b' ' })
    };
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if b[i] == b'r'
            && (b[i + 1..].starts_with(b"\"") || b[i + 1..].starts_with(b"#"))
            && (i == 0
                || !is_ident(b[i - 1])
                || (b[i - 1] == b'b' && (i == 1 || !is_ident(b[i - 2]))))
        {
            // Raw string r"..." or r#"..."# (or a byte string br"...").
            let mut j = i + 1;
            let mut hashes = 0;
            while j < b.len() && b[j] == b'#' {
                hashes += 1;
                j += 1;
            }
            if j >= b.len() || b[j] != b'"' {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let end = b[j + 1..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| j + 1 + p + close.len());
            for &c in &b[i..end] {
                blank(&mut out, c);
            }
            i = end;
        } else if b[i] == b'"' {
            blank(&mut out, b[i]);
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
                blank(&mut out, b[i]);
                i += 1;
            }
            if i < b.len() {
                out.push(b' ');
                i += 1;
            }
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                // The escaped character may be a quote itself ('\'').
                b.get(i + 3..)
                    .and_then(|r| r.iter().position(|&c| c == b'\''))
                    .map(|p| i + 4 + p)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 3)
            } else {
                // A multi-byte UTF-8 character literal, or a lifetime.
                let s = &src[i + 1..];
                let ch = s.chars().next().map_or(0, char::len_utf8);
                (s.as_bytes().get(ch) == Some(&b'\'')).then_some(i + 2 + ch)
            };
            match end {
                Some(e) => {
                    out.resize(out.len() + (e - i), b' ');
                    i = e;
                }
                None => {
                    out.push(b[i]);
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Blanks out `#[cfg(test)]` modules.
fn without_tests(code: &str) -> String {
    let mut b = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(p) = code[from..].find("#[cfg(test)]") {
        let at = from + p;
        from = at + 1;
        let rest = &code[at + 12..];
        let trimmed = rest.trim_start();
        let Some(after) = trimmed.strip_prefix("mod ") else { continue };
        let Some(open) = after.find(['{', ';']) else { continue };
        if after.as_bytes()[open] == b';' {
            continue;
        }
        let start = at + 12 + (rest.len() - trimmed.len()) + 4 + open;
        let mut depth = 0;
        let mut end = start;
        for (k, &c) in code.as_bytes()[start..].iter().enumerate() {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        for c in &mut b[at..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    }
    String::from_utf8(b).unwrap()
}

/// Every path written in `code` that starts at a module: a list of
/// segments relative to the file's module (`crate` and `super` resolved),
/// expanded through `{...}` groups.
fn paths(
    code: &str,
    here: &[String],
    children: &BTreeSet<String>,
) -> Vec<Vec<String>> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    // Inline modules (`mod x { ... }`) inside the file: (name, depth).
    let mut inline: Vec<(String, i32)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c == b'}' {
            depth -= 1;
            if inline.last().is_some_and(|&(_, d)| d == depth) {
                inline.pop();
            }
            i += 1;
            continue;
        }
        if !is_ident(c) || (i > 0 && (is_ident(b[i - 1]) || b[i - 1] == b':'))
        {
            i += 1;
            continue;
        }
        let end = i + b[i..].iter().take_while(|&&c| is_ident(c)).count();
        let word = &code[i..end];
        if word == "mod" {
            let rest = &code[end..];
            let name_start = end + (rest.len() - rest.trim_start().len());
            let name_end = name_start
                + b[name_start..].iter().take_while(|&&c| is_ident(c)).count();
            let after = code[name_end..].trim_start();
            if after.starts_with('{') {
                inline.push((code[name_start..name_end].to_string(), depth));
            }
            i = name_end;
            continue;
        }
        let module: Vec<String> = here
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        let base: Option<Vec<String>> = match word {
            "crate" => Some(Vec::new()),
            "super" | "self" => Some(module.clone()),
            w if inline.is_empty() && children.contains(w) => {
                Some(module.clone())
            }
            _ => None,
        };
        if let (Some(mut base), true) =
            (base, code[end..].starts_with("::") || word == "super")
        {
            let mut j = i;
            // Walk `super::super::...`.
            if word == "super" || word == "self" {
                while code[j..].starts_with("super::")
                    || code[j..].starts_with("self::")
                {
                    if code[j..].starts_with("super") {
                        base.pop();
                        j += 7;
                    } else {
                        j += 6;
                    }
                }
            } else if word == "crate" {
                j = end + 2;
            }
            let (found, next) = tree(code, j, base);
            out.extend(found);
            i = next.max(end);
            continue;
        }
        i = end;
    }
    out
}

/// Reads a path or a `{a, b::c}` group at `at`, prefixed by `base`.
fn tree(
    code: &str,
    mut at: usize,
    base: Vec<String>,
) -> (Vec<Vec<String>>, usize) {
    let b = code.as_bytes();
    let mut path = base;
    loop {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < b.len() && b[at] == b'{' {
            let mut all = Vec::new();
            at += 1;
            loop {
                while at < b.len()
                    && (b[at].is_ascii_whitespace() || b[at] == b',')
                {
                    at += 1;
                }
                if at >= b.len() || b[at] == b'}' {
                    return (all, at + 1);
                }
                let (found, next) = tree(code, at, path.clone());
                all.extend(found);
                at = next;
            }
        }
        let end = at + b[at..].iter().take_while(|&&c| is_ident(c)).count();
        if end == at {
            return (vec![path], at);
        }
        let seg = &code[at..end];
        if seg != "self" {
            path.push(seg.to_string());
        }
        if code[end..].starts_with("::") {
            at = end + 2;
        } else {
            // A last segment after `as` or a glob is not a module.
            return (vec![path], end);
        }
    }
}

/// The file defining the longest module prefix of `path`.
fn target<'a>(
    path: &[String],
    files: &'a BTreeMap<Vec<String>, PathBuf>,
) -> Option<&'a Vec<String>> {
    (0..=path.len())
        .rev()
        .find_map(|n| files.get_key_value(&path[..n]).map(|(k, _)| k))
}

#[test]
fn library_files_import_one_another_without_a_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = library_files(&root);
    // Names the crate root re-exports (`pub use crate::hit::Hit`) lead to
    // the file that defines them.
    let lib_code = without_tests(&code_only(
        &fs::read_to_string(root.join("lib.rs")).unwrap(),
    ));
    let mut reexports: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in paths(&lib_code, &[], &BTreeSet::new()) {
        if let (Some(name), Some(t)) = (p.last(), target(&p, &files))
            && !t.is_empty()
            && p.len() > t.len()
        {
            reexports.insert(name.clone(), t.clone());
        }
    }
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> =
        BTreeMap::new();
    for (module, path) in &files {
        let src = fs::read_to_string(path).unwrap();
        let code = without_tests(&code_only(&src));
        let children: BTreeSet<String> = files
            .keys()
            .filter(|k| k.len() == module.len() + 1 && k.starts_with(module))
            .map(|k| k.last().unwrap().clone())
            .collect();
        for p in paths(&code, module, &children) {
            let t = match target(&p, &files) {
                Some(t) if t.is_empty() => {
                    p.first().and_then(|n| reexports.get(n))
                }
                t => t,
            };
            if let Some(t) = t
                && t != module
                && !t.is_empty()
            {
                edges.entry(module.clone()).or_default().insert(t.clone());
            }
        }
    }
    let name = |m: &Vec<String>| {
        if m.is_empty() { "lib".to_string() } else { m.join("::") }
    };
    // Depth-first search for a back edge; report the cycle it closes.
    let mut state: BTreeMap<&Vec<String>, u8> = BTreeMap::new();
    let mut cycles = Vec::new();
    fn visit<'a>(
        m: &'a Vec<String>,
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<&'a Vec<String>, u8>,
        stack: &mut Vec<&'a Vec<String>>,
        cycles: &mut Vec<Vec<&'a Vec<String>>>,
    ) {
        state.insert(m, 1);
        stack.push(m);
        for t in edges.get(m).into_iter().flatten() {
            match state.get(t) {
                Some(1) => {
                    let from = stack.iter().position(|s| *s == t).unwrap();
                    let mut c = stack[from..].to_vec();
                    c.push(t);
                    cycles.push(c);
                }
                Some(_) => {}
                None => visit(t, edges, state, stack, cycles),
            }
        }
        stack.pop();
        state.insert(m, 2);
    }
    for m in files.keys() {
        if !state.contains_key(m) {
            visit(m, &edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    let shown: Vec<String> = cycles
        .iter()
        .map(|c| c.iter().map(|m| name(m)).collect::<Vec<_>>().join(" -> "))
        .collect();
    if std::env::var_os("URLX_SHOW_GRAPH").is_some() {
        for (m, ts) in &edges {
            eprintln!(
                "{} -> {}",
                name(m),
                ts.iter().map(name).collect::<Vec<_>>().join(", ")
            );
        }
    }
    assert!(
        shown.is_empty(),
        "import cycles among src/ files:\n{}",
        shown.join("\n")
    );
}

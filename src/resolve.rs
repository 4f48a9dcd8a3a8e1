//! Owns RFC 3986 section 5 reference resolution and dot-segment removal.
//!
//! [`resolve`] implements the transform of section 5.2.2 with the merge of
//! 5.2.3, [`remove_dot_segments`] (5.2.4) and the recomposition of 5.3.
//! It is the strict variant: a reference with a scheme is taken as is, so
//! `http:g` against `http://a/b/c/d;p?q` stays `http:g`.

use std::fmt;

use crate::validate::{Uri, UriError};

/// Why a base URI cannot be used for resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResolveErrorKind {
    /// The base has no scheme (RFC 3986 5.1: the base must be absolute).
    NotAbsolute,
    /// The base has a scheme but fails validation ([`Uri::errors`]).
    InvalidBase,
}

/// Error returned by [`resolve`] and [`resolve_str`] for an unusable base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    kind: ResolveErrorKind,
    base: String,
    cause: Option<UriError>,
}

impl ResolveError {
    /// What is wrong with the base.
    pub fn kind(&self) -> ResolveErrorKind {
        self.kind
    }

    /// The base URI as given.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// For [`ResolveErrorKind::InvalidBase`], the base's first error.
    pub fn uri_error(&self) -> Option<UriError> {
        self.cause
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The base is repeated cut short and escaped (it is input).
        let base = crate::sanitize::excerpt(&self.base);
        match (self.kind, self.cause) {
            (ResolveErrorKind::InvalidBase, Some(e)) => {
                write!(f, "base URI is invalid: {e}: {base}")
            }
            (ResolveErrorKind::InvalidBase, None) => {
                write!(f, "base URI is invalid: {base}")
            }
            (ResolveErrorKind::NotAbsolute, _) => {
                write!(f, "base URI is not absolute (no scheme): {base}")
            }
        }
    }
}

impl std::error::Error for ResolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.as_ref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// Removes the dot-segments `.` and `..` from `path` with the algorithm of
/// RFC 3986 section 5.2.4 (applied to the whole path, absolute or
/// relative; a `..` above the root is dropped).
pub fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut output = String::with_capacity(path.len());
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            // 5.2.4 2A
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            // 5.2.4 2A
            input = rest;
        } else if input.starts_with("/./") {
            // 5.2.4 2B: "/./" -> "/"
            input = &input[2..];
        } else if input == "/." {
            // 5.2.4 2B
            input = "/";
        } else if input.starts_with("/../") {
            // 5.2.4 2C: "/../" -> "/" and drop the last output segment
            input = &input[3..];
            pop_segment(&mut output);
        } else if input == "/.." {
            // 5.2.4 2C
            input = "/";
            pop_segment(&mut output);
        } else if input == "." || input == ".." {
            // 5.2.4 2D
            input = "";
        } else {
            // 5.2.4 2E: move the first segment, with its leading "/" if
            // any, up to (not including) the next "/".
            let from = usize::from(input.starts_with('/'));
            let end =
                input[from..].find('/').map_or(input.len(), |i| i + from);
            output.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    output
}

/// Removes the last segment of `output` and its preceding "/" (if any).
fn pop_segment(output: &mut String) {
    let cut = output.rfind('/').unwrap_or(0);
    output.truncate(cut);
}

/// The components of a target URI (RFC 3986 5.2.2 `T`).
struct Target<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: String,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl Target<'_> {
    /// RFC 3986 5.3 component recomposition.
    ///
    /// One safeguard beyond the RFC's text: when there is no authority and
    /// the path starts with "//" (possible after 5.2.4, e.g. `.//g`
    /// against `f:/a`), the path is written as "/." + path so that it is
    /// not re-parsed as an authority; and a scheme-less path whose first
    /// segment contains ":" gets a leading "./" (section 4.2). Both
    /// additions are dot-segments, so the identified resource is the same.
    fn recompose(&self) -> String {
        let mut out = String::new();
        if let Some(s) = self.scheme {
            out.push_str(s);
            out.push(':');
        }
        if let Some(a) = self.authority {
            out.push_str("//");
            out.push_str(a);
        } else if self.path.starts_with("//") {
            out.push_str("/.");
        } else if self.scheme.is_none() {
            let seg_end = self.path.find('/').unwrap_or(self.path.len());
            if self.path[..seg_end].contains(':') {
                out.push_str("./");
            }
        }
        out.push_str(&self.path);
        if let Some(q) = self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = self.fragment {
            out.push('#');
            out.push_str(f);
        }
        out
    }
}

/// RFC 3986 5.2.3: merge a relative-path reference with the base path.
fn merge(base: &Uri<'_>, ref_path: &str) -> String {
    let bpath = base.path();
    if base.authority().is_some() && bpath.is_empty() {
        format!("/{ref_path}")
    } else {
        match bpath.rfind('/') {
            Some(i) => format!("{}{ref_path}", &bpath[..=i]),
            None => ref_path.to_string(),
        }
    }
}

/// Resolves `reference` against `base` (RFC 3986 5.2.2, strict, with
/// merge 5.2.3, [`remove_dot_segments`] and recomposition 5.3).
///
/// The base must be absolute (have a scheme) and valid
/// ([`Uri::is_valid`]); its fragment is ignored (5.2.1). The reference
/// is not validated: check [`Uri::errors`] on it if that matters.
pub fn resolve(
    base: &Uri<'_>,
    reference: &Uri<'_>,
) -> Result<String, ResolveError> {
    let Some(bscheme) = base.scheme() else {
        return Err(ResolveError {
            kind: ResolveErrorKind::NotAbsolute,
            base: base.as_str().to_string(),
            cause: None,
        });
    };
    if let Some(e) = base.errors().first() {
        return Err(ResolveError {
            kind: ResolveErrorKind::InvalidBase,
            base: base.as_str().to_string(),
            cause: Some(*e),
        });
    }
    let r = reference;
    let t = if r.scheme().is_some() {
        Target {
            scheme: r.scheme(),
            authority: r.authority(),
            path: remove_dot_segments(r.path()),
            query: r.query(),
            fragment: r.fragment(),
        }
    } else if r.authority().is_some() {
        Target {
            scheme: Some(bscheme),
            authority: r.authority(),
            path: remove_dot_segments(r.path()),
            query: r.query(),
            fragment: r.fragment(),
        }
    } else if r.path().is_empty() {
        Target {
            scheme: Some(bscheme),
            authority: base.authority(),
            path: base.path().to_string(),
            query: r.query().or(base.query()),
            fragment: r.fragment(),
        }
    } else {
        let path = if r.path().starts_with('/') {
            remove_dot_segments(r.path())
        } else {
            remove_dot_segments(&merge(base, r.path()))
        };
        Target {
            scheme: Some(bscheme),
            authority: base.authority(),
            path,
            query: r.query(),
            fragment: r.fragment(),
        }
    };
    Ok(t.recompose())
}

/// Parses `base` and `reference` and calls [`resolve`].
pub fn resolve_str(
    base: &str,
    reference: &str,
) -> Result<String, ResolveError> {
    resolve(&Uri::parse(base), &Uri::parse(reference))
}

/// `uri` with [`remove_dot_segments`] applied to its path, everything
/// else (including the query and the fragment) as written: the resolved
/// form of an absolute URI found in text.
///
/// For a valid absolute URI this equals `resolve(uri, uri)`. The URI is not
/// validated. A relative reference is handled the same way, which is
/// only meaningful for absolute-path references.
pub fn normalize_dots(uri: &Uri<'_>) -> String {
    Target {
        scheme: uri.scheme(),
        authority: uri.authority(),
        path: remove_dot_segments(uri.path()),
        query: uri.query(),
        fragment: uri.fragment(),
    }
    .recompose()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "http://a/b/c/d;p?q";

    #[test]
    fn dot_segments_rfc_examples() {
        // RFC 3986 5.2.4 worked examples.
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
    }

    #[test]
    fn dot_segments_edges() {
        for (i, o) in [
            ("", ""),
            (".", ""),
            ("..", ""),
            ("./", ""),
            ("../", ""),
            ("/", "/"),
            ("/.", "/"),
            ("/..", "/"),
            ("/../..", "/"),
            ("/a/..", "/"),
            ("/a/.", "/a/"),
            ("a/..", "/"),
            ("a/../..", "/"),
            ("../a", "a"),
            ("../../a/./b/../c", "a/c"),
            ("//a/../b", "//b"),
            ("/a//../b", "/a/b"),
            ("/.a/..b/.../c.", "/.a/..b/.../c."),
            ("/é/./ß/../ü", "/é/ü"),
        ] {
            assert_eq!(remove_dot_segments(i), o, "{i:?}");
        }
    }

    #[test]
    fn strict_scheme_reference() {
        assert_eq!(resolve_str(BASE, "http:g").unwrap(), "http:g");
        assert_eq!(resolve_str(BASE, "HTTP:/x/../y").unwrap(), "HTTP:/y");
    }

    #[test]
    fn base_fragment_ignored() {
        assert_eq!(resolve_str("http://a/b#f", "").unwrap(), "http://a/b");
        assert_eq!(resolve_str("http://a/b#f", "#g").unwrap(), "http://a/b#g");
    }

    #[test]
    fn empty_base_path_with_authority() {
        assert_eq!(resolve_str("http://a", "g").unwrap(), "http://a/g");
        assert_eq!(resolve_str("http://a?q", "").unwrap(), "http://a?q");
        assert_eq!(resolve_str("http://a?q", "?r").unwrap(), "http://a?r");
    }

    #[test]
    fn no_authority_double_slash_safeguard() {
        assert_eq!(resolve_str("f:/a", ".//g").unwrap(), "f:/.//g");
        let out = resolve_str("f:/a", ".//g").unwrap();
        assert_eq!(Uri::parse(&out).authority(), None);
        assert_eq!(resolve_str("f:a", "..//g").unwrap(), "f:/g");
        assert_eq!(resolve_str("f:/a", "/..//g").unwrap(), "f:/.//g");
    }

    #[test]
    fn base_errors() {
        let e = resolve_str("/a/b", "c").unwrap_err();
        assert_eq!(e.kind(), ResolveErrorKind::NotAbsolute);
        assert_eq!(
            e.to_string(),
            "base URI is not absolute (no scheme): /a/b"
        );
        let e = resolve_str("http://a b/", "c").unwrap_err();
        assert_eq!(e.kind(), ResolveErrorKind::InvalidBase);
        assert_eq!(
            e.to_string(),
            "base URI is invalid: character not allowed here at byte 8: \
             http://a b/"
        );
        assert!(std::error::Error::source(&e).is_some());
        let e = resolve_str("http:///x", "c").unwrap_err();
        assert_eq!(e.uri_error().map(|u| u.offset()), Some(7));
    }

    #[test]
    fn normalize_dots_keeps_everything_else() {
        let n = |s: &str| normalize_dots(&Uri::parse(s));
        assert_eq!(
            n("http://a/b/../c/./d?x/../y#f/../g"),
            "http://a/c/d?x/../y#f/../g"
        );
        assert_eq!(n("HTTP://A:80/./"), "HTTP://A:80/");
        assert_eq!(n("http://a"), "http://a");
        assert_eq!(n("http://a/.."), "http://a/");
        // Literal 5.2.4: popping the first segment of a rootless path
        // leaves the "/" of the removed "/.." in place.
        assert_eq!(n("foo:a/../b"), "foo:/b");
        assert_eq!(n("foo:/.//x"), "foo:/.//x");
        assert_eq!(n("./b:c"), "./b:c");
        assert_eq!(n("a/../b:c"), "/b:c");
        assert_eq!(n("/x/./y"), "/x/y");
        let u = Uri::parse("http://a/b/c/../d#frag");
        assert_eq!(normalize_dots(&u), resolve(&u, &u).unwrap());
    }
}

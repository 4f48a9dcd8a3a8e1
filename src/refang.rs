//! Owns refanging: turning a "defanged" URL, as security reports and
//! mail write them so that nobody follows them by accident
//! (`hxxps://evil[.]example[.]org`), back into the URL.
//!
//! No RFC defines defanging; these are the conventions in common use.
//! Exactly these patterns are recognized (letters in any case), each
//! with a test of the same name below:
//!
//! | pattern | becomes | where | test |
//! | --- | --- | --- | --- |
//! | `hxxp` `hxtp` `htxp` | `http` | the scheme | `scheme_http` |
//! | `hxxps` `hxtps` `htxps` | `https` | the scheme | `scheme_https` |
//! | `fxp` | `ftp` | the scheme | `scheme_ftp` |
//! | `fxps` | `ftps` | the scheme | `scheme_ftps` |
//! | `[.]` `(.)` `{.}` | `.` | anywhere | `dot_brackets` |
//! | `[dot]` `(dot)` `{dot}` | `.` | anywhere | `dot_words` |
//! | `[:]` | `:` | anywhere | `colon` |
//! | `[://]` | `://` | anywhere | `colon_slashes` |
//! | `[/]` | `/` | anywhere | `slash` |
//! | `[@]` `[at]` | `@` | anywhere | `at` |
//! | `\.` | `.` | anywhere | `backslash_dot` |
//!
//! The scheme is the leading run of RFC 3986 section 3.1 scheme
//! characters; it is only replaced when a `:` (or `[:`, `[://]`)
//! follows it. Nothing else is changed: a scheme-less text stays
//! scheme-less (`example[.]com` gives `example.com`; completing it is
//! the job of the abbreviated-URI rules), and whitespace-separated forms
//! (`example [.] com`, `example . com`) are not handled, since a URL
//! candidate never holds whitespace. Bracketed words other than those
//! listed (`(at)`, `[d0t]`, `[ . ]`) are left alone: they occur in real
//! URLs too.
//!
//! With refanging on, urlx's scanner also takes a colon written `[:]`
//! or `[://]` as the colon of a URL, and keeps `\.` inside one, so all
//! of these forms reach [`refang`]; a form with no colon at all
//! (`x[.]y` alone) is found only as an abbreviated URI.

/// Scheme defangings and the scheme each stands for.
const SCHEMES: &[(&str, &str)] = &[
    ("hxxp", "http"),
    ("hxtp", "http"),
    ("htxp", "http"),
    ("hxxps", "https"),
    ("hxtps", "https"),
    ("htxps", "https"),
    ("fxp", "ftp"),
    ("fxps", "ftps"),
];

/// Bracketed defangings and what each stands for.
const BRACKETED: &[(&str, &str)] = &[
    ("[://]", "://"),
    ("[.]", "."),
    ("(.)", "."),
    ("{.}", "."),
    ("[dot]", "."),
    ("(dot)", "."),
    ("{dot}", "."),
    ("[:]", ":"),
    ("[/]", "/"),
    ("[@]", "@"),
    ("[at]", "@"),
];

/// Whether `scheme` (without its `:`) is a defanged scheme: `hxxp`,
/// `hxxps`, `hxtp`, `hxtps`, `htxp`, `htxps`, `fxp` or `fxps`, in any
/// case (`hXXp`, `HXXPS`).
pub fn is_defanged_scheme(scheme: &str) -> bool {
    refanged_scheme(scheme).is_some()
}

fn refanged_scheme(scheme: &str) -> Option<&'static str> {
    SCHEMES
        .iter()
        .find(|(d, _)| d.eq_ignore_ascii_case(scheme))
        .map(|&(_, s)| s)
}

/// The URL that the defanged text `s` stands for, or `None` when `s`
/// holds none of the patterns listed in the module documentation.
///
/// `refang("hxxps://evil[.]example[.]org/x")` is
/// `Some("https://evil.example.org/x")`; `refang("http://a.org")` is
/// `None`.
pub fn refang(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut changed = false;
    // The scheme: RFC 3986 section 3.1 `ALPHA *( ALPHA / DIGIT / "+" /
    // "-" / "." )`, replaced when a colon follows it, bare or bracketed.
    let scheme_len = s
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b"+-.".contains(&b)))
        .unwrap_or(s.len());
    let (scheme, mut rest) = s.split_at(scheme_len);
    let colon_follows = rest.starts_with(':') || rest.starts_with("[:");
    match refanged_scheme(scheme) {
        Some(real) if colon_follows => {
            out.push_str(real);
            changed = true;
        }
        _ => out.push_str(scheme),
    }
    while let Some(i) = rest.find(['[', '(', '{', '\\']) {
        let (before, at) = rest.split_at(i);
        out.push_str(before);
        if let Some(after) = at.strip_prefix("\\.") {
            out.push('.');
            changed = true;
            rest = after;
            continue;
        }
        let hit = BRACKETED.iter().find(|(d, _)| {
            at.get(..d.len()).is_some_and(|h| h.eq_ignore_ascii_case(d))
        });
        match hit {
            Some(&(d, real)) => {
                out.push_str(real);
                changed = true;
                rest = at.get(d.len()..).unwrap_or_default();
            }
            None => {
                // The bracket itself is one byte.
                out.push_str(at.get(..1).unwrap_or_default());
                rest = at.get(1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Option<String> {
        refang(s)
    }

    #[test]
    fn backslash_dot() {
        assert_eq!(r("http://evil\\.com/a").unwrap(), "http://evil.com/a");
        // A backslash before anything else stays.
        assert_eq!(r("http://a.example/x\\y"), None);
    }

    #[test]
    fn scheme_http() {
        assert_eq!(r("hxxp://example.com/x").unwrap(), "http://example.com/x");
        assert_eq!(r("hXXp://example.com").unwrap(), "http://example.com");
        assert_eq!(r("HXXP://example.com").unwrap(), "http://example.com");
        assert_eq!(r("hxtp://example.com").unwrap(), "http://example.com");
        assert_eq!(r("htxp://example.com").unwrap(), "http://example.com");
    }

    #[test]
    fn scheme_https() {
        assert_eq!(r("hxxps://example.com").unwrap(), "https://example.com");
        assert_eq!(r("hXXps://example.com").unwrap(), "https://example.com");
        assert_eq!(r("hxtps://example.com").unwrap(), "https://example.com");
        assert_eq!(r("htxps://example.com").unwrap(), "https://example.com");
    }

    #[test]
    fn scheme_ftp() {
        assert_eq!(
            r("fxp://ftp.example.org/").unwrap(),
            "ftp://ftp.example.org/"
        );
    }

    #[test]
    fn scheme_ftps() {
        assert_eq!(r("FXPS://example.org").unwrap(), "ftps://example.org");
    }

    #[test]
    fn dot_brackets() {
        assert_eq!(
            r("hxxp://example[.]com/x").unwrap(),
            "http://example.com/x"
        );
        assert_eq!(
            r("hxxps://evil[.]example[.]org").unwrap(),
            "https://evil.example.org"
        );
        assert_eq!(r("example(.)com").unwrap(), "example.com");
        assert_eq!(r("example{.}com").unwrap(), "example.com");
        assert_eq!(r("http://192[.]0[.]2[.]1/").unwrap(), "http://192.0.2.1/");
    }

    #[test]
    fn dot_words() {
        assert_eq!(r("example[dot]com").unwrap(), "example.com");
        assert_eq!(r("example[DOT]com").unwrap(), "example.com");
        assert_eq!(r("example(dot)com").unwrap(), "example.com");
        assert_eq!(r("example{dot}com").unwrap(), "example.com");
    }

    #[test]
    fn colon() {
        assert_eq!(r("http[:]//example.com").unwrap(), "http://example.com");
        assert_eq!(
            r("hxxps[:]//example[.]com").unwrap(),
            "https://example.com"
        );
    }

    #[test]
    fn colon_slashes() {
        assert_eq!(r("http[://]example.com").unwrap(), "http://example.com");
        assert_eq!(r("hxxp[://]example.com").unwrap(), "http://example.com");
    }

    #[test]
    fn slash() {
        assert_eq!(
            r("hxxp://example[.]com[/]path").unwrap(),
            "http://example.com/path"
        );
    }

    #[test]
    fn at() {
        assert_eq!(
            r("hxxp://user[@]example.com").unwrap(),
            "http://user@example.com"
        );
        assert_eq!(r("joe[at]example[.]com").unwrap(), "joe@example.com");
    }

    #[test]
    fn not_defanged() {
        for s in [
            "http://example.com/",
            "https://en.wikipedia.org/wiki/Foo_(bar)",
            "http://example.com/a[1]",
            "http://example.com/(at)",
            "meow://example.com",
            "hxxp",
            "hxxpfoo",
            "",
            "[",
            "([{",
            "http://x/[d0t]",
        ] {
            assert_eq!(r(s), None, "{s:?}");
        }
    }

    #[test]
    fn scheme_needs_colon() {
        assert_eq!(r("hxxp.example.com"), None);
        assert_eq!(r("hxxp.example[.]com").unwrap(), "hxxp.example.com");
    }

    #[test]
    fn mixed_and_non_ascii() {
        assert_eq!(
            r("hxxps://пример[.]рф/путь").unwrap(),
            "https://пример.рф/путь"
        );
        assert_eq!(r("x[é").as_deref(), None);
        assert_eq!(r("(é)[.]").unwrap(), "(é).");
    }

    #[test]
    fn defanged_schemes() {
        for s in ["hxxp", "hxxps", "hXXp", "HXXPS", "fxp", "fxps", "hxtp"] {
            assert!(is_defanged_scheme(s), "{s}");
        }
        for s in ["http", "https", "ftp", "meow", "", "hxxpx", "hxp"] {
            assert!(!is_defanged_scheme(s), "{s}");
        }
    }
}

//! Turning text into hits: the candidates of a buffer (scanned and
//! delimited) validated against RFC 3986 and their schemes' rules, and
//! resolved (section 5) against a base. Used by the pipeline for text and
//! by mail for the decoded pieces of messages.

use crate::data::registry::SchemeSet;
use crate::hit::{Candidate, Context, Extras, Hit, HitError, UrlText};
use crate::refang;
use crate::resolve::{normalize_dots, resolve};
use crate::scan::{ScanRules, scan};
use crate::scheme::{self, Fast, Rule};
use crate::sieve::Sieve;
use crate::validate::schemes::{self, Severity};
use crate::validate::{ErrorKind, Quick, Uri, UriError, quick_check};

/// What turning candidates into hits needs: the scanning rules, the
/// base for relative references, the schemes asked for, whether
/// defanged URLs are read.
#[derive(Clone, Debug)]
pub(crate) struct Finder {
    pub(crate) rules: ScanRules,
    pub(crate) base: Option<String>,
    pub(crate) schemes: Option<SchemeSet>,
    pub(crate) refang: bool,
}

impl Finder {
    /// The base URI given to the builder.
    pub(crate) fn base(&self) -> Option<&str> {
        self.base.as_deref()
    }

    /// Whether every hit starts at a `scheme:` colon: no abbreviated
    /// forms, addresses, defanged or encoded URLs are looked for.
    pub(crate) fn colon_triggers_only(&self) -> bool {
        !self.rules.abbrev.any() && !self.refang && !self.rules.encoded
    }

    /// The test of a text's colons that tells whether a scan can find a
    /// hit in it ([`Sieve::keeps`] on each colon): `Some` when every hit
    /// starts at a colon ([`Finder::colon_triggers_only`]) and the
    /// schemes used without `//` are the built-in ones, whose last two
    /// letters the test knows.
    pub(crate) fn colon_test(&self) -> Option<&'static Sieve> {
        let builtin =
            self.rules.delimit.opaque.is_none() && !self.rules.delimit.refang;
        if self.colon_triggers_only() && builtin {
            crate::sieve::exact()
        } else {
            None
        }
    }

    /// Validate `text` (RFC 3986) and resolve it against `base` (section
    /// 5), the URL's text kept in `url`; `None` when its scheme is
    /// filtered out. Positions are left 0.
    pub(crate) fn build_hit_with(
        &self,
        text: &str,
        base: Option<&str>,
        context: Context,
        url: UrlText,
    ) -> Option<Hit> {
        Some(self.verdict_with(text, base)?.hit(url, context))
    }

    /// What validating `text` and resolving it against `base` make of
    /// it ([`Finder::build_hit_with`] without the hit).
    fn verdict_with(&self, text: &str, base: Option<&str>) -> Option<Verdict> {
        self.verdict_checked(text, quick_check(text), base)
    }

    /// [`Finder::verdict_with`] where validation's fast path said
    /// `quick` of `text` ([`quick_check`]).
    fn verdict_checked(
        &self,
        text: &str,
        quick: Option<Quick>,
        base: Option<&str>,
    ) -> Option<Verdict> {
        if let Some(q) = quick
            && scheme_rules_hold(&text[..q.scheme_len], &q, text)
        {
            // The common case, valid by the fast path: no parse needed.
            if let Some(ref allowed) = self.schemes {
                let scheme = &text[..q.scheme_len];
                if !allowed.contains(scheme) {
                    return None;
                }
            }
            let dots = q.dots;
            debug_assert_eq!(dots, has_dot_segment(&text[q.path.0..q.path.1]));
            let extras = dots.then(|| {
                let resolved = Some(normalize_dots(&Uri::parse(text)));
                Box::new(Extras { resolved, ..Extras::default() })
            });
            return Some(Verdict {
                extras,
                resolved_is_url: !dots,
                printable: true,
            });
        }
        let schemes = self.schemes.as_ref();
        if let Some(scheme_len) = bare_scheme(text) {
            return bare_scheme_verdict(schemes, &text[..scheme_len]);
        }
        full_verdict(schemes, text, base)
    }

    /// The hits in a whole buffer, scanned sequentially (for the texts
    /// of mail pieces), appended to `out`. `keep` sees each hit with its
    /// candidate first: it places the hit and says whether to keep it.
    /// The URL of each hit kept is appended to `urls` and the hit's URL
    /// is that range of it, pending: the caller gives the hits `urls`
    /// ([`UrlText::attach`]) when it is complete, so that the hits of a
    /// whole message share one buffer (a message of dense URLs holds its
    /// hits until they are merged).
    pub(crate) fn find_in_buffer(
        &self,
        text: &[u8],
        base: Option<&str>,
        urls: &mut String,
        out: &mut Vec<Hit>,
        keep: impl FnMut(&Candidate, &mut Hit) -> bool,
    ) {
        self.find_in_buffer_where(text, base, urls, out, |_| true, keep);
    }

    /// [`Finder::find_in_buffer`] for the candidates `wanted` accepts:
    /// the others are not validated.
    pub(crate) fn find_in_buffer_where(
        &self,
        text: &[u8],
        base: Option<&str>,
        urls: &mut String,
        out: &mut Vec<Hit>,
        mut wanted: impl FnMut(&Candidate) -> bool,
        mut keep: impl FnMut(&Candidate, &mut Hit) -> bool,
    ) {
        scan(text, 0, text.len(), &self.rules, |c| {
            if c.too_long || !wanted(&c) {
                return;
            }
            let url = c.text(text);
            let pending = UrlText::pending(urls.len(), url.len());
            let Some(mut hit) = self.candidate_hit(url, &c, base, pending)
            else {
                return;
            };
            if keep(&c, &mut hit) {
                push_url(urls, url);
                out.push(hit);
            }
        });
    }

    /// The hit of URL `text` (an HTML attribute's value), validated and
    /// resolved against `base`, with the URL appended to `urls` and the
    /// hit's URL pending, as in [`Finder::find_in_buffer`].
    pub(crate) fn build_hit_in(
        &self,
        text: &str,
        base: Option<&str>,
        context: Context,
        urls: &mut String,
    ) -> Option<Hit> {
        let pending = UrlText::pending(urls.len(), text.len());
        let hit = self.build_hit_with(text, base, context, pending)?;
        push_url(urls, text);
        Some(hit)
    }

    /// The hit of a delimited candidate whose URL is `text` (kept in
    /// `url`), with its hyphen-break variant; positions are left 0.
    #[inline(always)]
    pub(crate) fn candidate_hit(
        &self,
        text: &str,
        c: &Candidate,
        base: Option<&str>,
        url: UrlText,
    ) -> Option<Hit> {
        Some(self.candidate_verdict(text, c, base)?.hit(url, c.context))
    }

    /// What validating and resolving a delimited candidate whose URL is
    /// `text` make of it ([`Finder::candidate_hit`] without the hit).
    /// Inlined: what it returns is taken apart in its caller's
    /// registers, not moved through memory.
    #[inline(always)]
    pub(crate) fn candidate_verdict(
        &self,
        text: &str,
        c: &Candidate,
        base: Option<&str>,
    ) -> Option<Verdict> {
        if let Some((kind, ref absolute)) = c.abbrev {
            return self.stand_in_verdict(text, absolute, |r| {
                r.abbrev = Some(kind);
            });
        }
        if self.refang
            && let Some(refanged) = refang::refang(text)
        {
            return self.stand_in_verdict(text, &refanged, |r| {
                r.refanged = true;
            });
        }
        // What the fast path says of the text, unless delimiting learned
        // it already (of the text as delimited: a refanged one returned
        // above).
        let quick = c.quick.get().or_else(|| quick_check(text));
        let mut verdict = self.verdict_checked(text, quick, base)?;
        if c.encoded.is_some() {
            verdict.extras.get_or_insert_with(Box::default).encoded =
                c.encoded;
        }
        if let Some(ref alt) = c.alternative {
            verdict.extras.get_or_insert_with(Box::default).alternative =
                Some(alt.clone());
        }
        Some(verdict)
    }

    /// What validation makes of a URL written in another form
    /// (abbreviated, defanged): validated and resolved as `absolute`,
    /// with `written` as written and `absolute` as its resolved form;
    /// `mark` records the form.
    fn stand_in_verdict(
        &self,
        written: &str,
        absolute: &str,
        mark: impl FnOnce(&mut Extras),
    ) -> Option<Verdict> {
        let printable = written.bytes().all(|b| b.is_ascii_graphic());
        // Built on the written text: validated as `absolute`, which is its
        // resolved form unless dot segments made another.
        let mut verdict = self.verdict_with(absolute, None)?;
        let same = verdict.resolved_is_url;
        let extras = verdict.extras.get_or_insert_with(Box::default);
        if same {
            extras.resolved = Some(absolute.to_string());
        }
        mark(extras);
        verdict.printable &= printable;
        verdict.resolved_is_url = false;
        Some(verdict)
    }
}

/// What validation and resolution decide of a URL: the fields of its
/// [`Hit`] that depend on its text alone (three of its ten): the scan
/// builds its own record of a hit from them, and no whole hit is built,
/// returned and taken apart for each candidate.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// What most hits do not have ([`Hit`]'s `extras`).
    pub(crate) extras: Option<Box<Extras>>,
    /// The resolved form is the URL itself.
    pub(crate) resolved_is_url: bool,
    /// The URL and its resolved form are printable ASCII.
    pub(crate) printable: bool,
}

impl Verdict {
    /// The hit of the URL kept in `url`, found in `context`, not yet
    /// placed in its input (positions 0).
    pub(crate) fn hit(self, url: UrlText, context: Context) -> Hit {
        Hit {
            start: 0,
            end: 0,
            line: 0,
            column: 0,
            context,
            resolved_is_url: self.resolved_is_url,
            printable: self.printable,
            extras: self.extras,
            provenance: None,
            url,
        }
    }
}

/// The verdict on `text` by the full parse (RFC 3986) and its scheme's
/// rules: what validation's fast path leaves.
fn full_verdict(
    schemes: Option<&SchemeSet>,
    text: &str,
    base: Option<&str>,
) -> Option<Verdict> {
    let uri = Uri::parse(text);
    if let Some(allowed) = schemes {
        // A relative reference takes the scheme of the base.
        let base = base.map(Uri::parse);
        let scheme = uri
            .scheme()
            .or_else(|| base.as_ref().and_then(Uri::scheme))
            .unwrap_or_default();
        if !allowed.contains(scheme) {
            return None;
        }
    }
    let grammar = uri.errors();
    let (errors, resolved, resolved_is_url) = check(&uri, &grammar, base);
    // A URL invalid only for characters that browsers percent-encode
    // (RFC 3986 2.1) is kept in that encoded form, if it is valid
    // then.
    let encodable = grammar.iter().any(|e| {
        matches!(
            e.kind(),
            ErrorKind::InvalidCharacter | ErrorKind::BadPercentEncoding
        )
    });
    let repaired = encodable
        .then(|| crate::validate::percent_encode_disallowed(text))
        .flatten()
        .and_then(|fixed| {
            let uri = Uri::parse(&fixed);
            let (e, resolved, _) = check(&uri, &uri.errors(), base);
            e.is_empty().then_some((fixed, resolved))
        });
    let extras = match repaired {
        Some((fixed, resolved)) => Some(Box::new(Extras {
            errors,
            resolved: resolved.or_else(|| Some(fixed.clone())),
            repaired: Some(fixed),
            ..Extras::default()
        })),
        None => (!errors.is_empty() || resolved.is_some()).then(|| {
            Box::new(Extras { errors, resolved, ..Extras::default() })
        }),
    };
    Some(Verdict { extras, resolved_is_url, printable: false })
}

/// When `text` is `scheme://` and nothing more, the scheme's length.
/// Prose about URLs names schemes so ("addresses starting with
/// http://"): such a candidate is never a URL, and
/// [`bare_scheme_verdict`] says so without a parse.
fn bare_scheme(text: &str) -> Option<usize> {
    let scheme = text.strip_suffix("://")?;
    scheme::is_scheme(scheme).then_some(scheme.len())
}

/// The verdict on `scheme://` alone: what [`full_verdict`] makes of it,
/// without parsing. Its only grammar error is an empty host where the
/// scheme requires one; then [`check`]'s rule for nothing after `//`
/// applies.
fn bare_scheme_verdict(
    schemes: Option<&SchemeSet>,
    scheme: &str,
) -> Option<Verdict> {
    if schemes.is_some_and(|allowed| !allowed.contains(scheme)) {
        return None;
    }
    let mut errors = Vec::with_capacity(2);
    if scheme::scheme_requires_host(scheme) {
        // RFC 3986 3.2.2: the host, empty, starts after `://`.
        let at = scheme.len() + 3;
        errors
            .push(HitError::Syntax(UriError::new(ErrorKind::MissingHost, at)));
    }
    errors.push(HitError::NothingAfterScheme);
    Some(Verdict {
        extras: Some(Box::new(Extras { errors, ..Extras::default() })),
        resolved_is_url: false,
        printable: false,
    })
}

/// The errors of a parsed URI (its `grammar` errors, RFC 3986, then its
/// scheme's own rules) and its resolved form: the URI without dot segments, or the
/// reference resolved against `base` (RFC 3986 5.2); the last is true
/// when the resolved form is the URI as written.
fn check(
    uri: &Uri,
    grammar: &[UriError],
    base: Option<&str>,
) -> (Vec<HitError>, Option<String>, bool) {
    let mut errors: Vec<HitError> =
        grammar.iter().copied().map(HitError::Syntax).collect();
    if uri.authority() == Some("")
        && uri.path().is_empty()
        && uri.query().is_none()
        && uri.fragment().is_none()
    {
        // `file://` in "file://<host>/<path>": a scheme and nothing.
        errors.push(HitError::NothingAfterScheme);
    }
    if errors.is_empty() && uri.is_absolute() {
        // The scheme's own rules (RFC 1738 and the schemes' RFCs).
        errors.extend(
            schemes::check(uri)
                .into_iter()
                .filter(|f| f.severity == Severity::Error)
                .map(|f| HitError::Scheme {
                    code: f.code,
                    message: f.message,
                }),
        );
    }
    let mut resolved = None;
    let mut resolved_is_url = false;
    if uri.is_absolute() {
        if !errors.is_empty() {
        } else if has_dot_segment(uri.path()) {
            resolved = Some(normalize_dots(uri));
        } else {
            resolved_is_url = true;
        }
    } else if let Some(b) = base {
        let base = Uri::parse(b);
        if errors.is_empty() {
            match resolve(&base, uri) {
                Ok(r) => resolved = Some(r),
                Err(e) => errors.push(HitError::Resolve(e)),
            }
        }
    } else {
        errors.push(HitError::NoBase);
    }
    (errors, resolved, resolved_is_url)
}

/// Whether `text`, accepted by validation's fast path with scheme
/// `scheme`, also follows its scheme's own rules ([`scheme::Fast`]): a
/// scheme without rules of its own needs no check.
fn scheme_rules_hold(scheme: &str, q: &Quick, text: &str) -> bool {
    let Some(facts) = scheme::facts(scheme) else { return true };
    let quick = match facts.fast {
        Fast::Holds => return true,
        // Delimiting's walk may have seen the host and path already.
        Fast::Ftp if q.plain => schemes::ftp_plain_quick(text, q.path.0),
        Fast::Ftp => schemes::ftp_quick(text, q.path.0),
        Fast::Mailto => schemes::mailto_quick(text),
        Fast::News => schemes::news_quick(text),
        Fast::Check => None,
    };
    if let Some(ok) = quick {
        return ok;
    }
    if facts.rule == Rule::None {
        return true;
    }
    schemes::check(&Uri::parse(text))
        .iter()
        .all(|f| f.severity != Severity::Error)
}

/// Whether a path has a `.` or `..` segment (RFC 3986 5.2.4 would
/// change it).
fn has_dot_segment(path: &str) -> bool {
    let b = path.as_bytes();
    let bound = |i: usize| i == b.len() || b[i] == b'/';
    memchr::memchr_iter(b'.', b).any(|i| {
        (i == 0 || b[i - 1] == b'/')
            && (bound(i + 1) || (b[i + 1] == b'.' && bound(i + 2)))
    })
}

/// Room a message's URL buffer is given at its first URL: a few dozen
/// URLs before it grows (most messages hold fewer; a message without
/// one allocates none).
const URLS_ROOM: usize = 2048;

/// `url` appended to a buffer of URLs (see [`Finder::find_in_buffer`]).
#[inline]
fn push_url(urls: &mut String, url: &str) {
    if urls.capacity() == 0 {
        urls.reserve(URLS_ROOM.max(url.len()));
    }
    urls.push_str(url);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `scheme://` alone gets from [`bare_scheme_verdict`] the verdict
    /// the full parse gives it, with or without a scheme filter, for every scheme
    /// of the IANA registry and a few others, in both cases; anything
    /// else is left to the full parse.
    #[test]
    fn bare_scheme_hits_are_the_full_parse_hits() {
        let filters = [
            None,
            Some(SchemeSet::new(["http"])),
            Some(SchemeSet::new(["registered"])),
        ];
        let others = ["a", "x-y.z+1", "svn+ssh", "urn", "mailto", "web+foo"];
        let names = crate::data::uri_schemes::SCHEMES
            .iter()
            .map(|&(name, _)| name)
            .chain(others);
        for name in names {
            for text in [
                format!("{name}://"),
                format!("{}://", name.to_ascii_uppercase()),
            ] {
                let text = text.as_str();
                let n = bare_scheme(text).unwrap_or_else(|| panic!("{text}"));
                assert_eq!(&text[n..], "://");
                for schemes in &filters {
                    for base in [None, Some("http://example.com/a/")] {
                        let schemes = schemes.as_ref();
                        let full = full_verdict(schemes, text, base);
                        let bare = bare_scheme_verdict(schemes, &text[..n]);
                        assert_eq!(bare, full, "{text} {schemes:?} {base:?}");
                    }
                }
            }
        }
        for text in [
            "://", "1a://", "-a://", "a b://", "http:///", "http://x",
            "http:", "http:/", "//", "http:://", "é://", "",
        ] {
            assert_eq!(bare_scheme(text), None, "{text}");
        }
    }

    /// Each kind of error a hit can carry, and the words it is shown in
    /// (JSON's `errors`, the Python binding's).
    #[test]
    fn hit_errors_and_their_words() {
        let hit = |text: &str, base: Option<&str>| {
            full_verdict(None, text, base)
                .expect("no scheme filter")
                .hit(UrlText::new(text), Context::Bare)
        };
        let words = |h: &Hit| -> Vec<String> {
            h.errors().iter().map(ToString::to_string).collect()
        };
        let h = hit("http://", None);
        assert_eq!(
            h.errors(),
            [
                HitError::Syntax(UriError::new(ErrorKind::MissingHost, 7)),
                HitError::NothingAfterScheme,
            ]
        );
        assert_eq!(
            words(&h),
            [
                "this scheme requires a host at byte 7",
                "nothing after the scheme and `//`",
            ]
        );
        let h = hit("ftp://h/x;type=q", None);
        assert!(matches!(
            h.errors(),
            [HitError::Scheme { code: "ftp-type", .. }]
        ));
        assert!(words(&h)[0].starts_with("ftp-type: "), "{:?}", words(&h));
        let h = hit("a/b", None);
        assert_eq!(h.errors(), [HitError::NoBase]);
        assert_eq!(words(&h), ["relative reference and no base URI"]);
        let h = hit("a/b", Some("b/c"));
        assert!(matches!(h.errors(), [HitError::Resolve(_)]));
        assert!(words(&h)[0].starts_with("base URI"), "{:?}", words(&h));
        assert!(hit("http://example.com/", None).errors().is_empty());
    }

    #[test]
    fn dot_segments() {
        for p in [".", "..", "/.", "/..", "/a/./b", "/a/../b", "a/..", "./a"] {
            assert!(has_dot_segment(p), "{p}");
        }
        for p in
            ["", "/", "/a.b", "/.a", "/a.", "/...", "/a/..b", "a..", "/.x/"]
        {
            assert!(!has_dot_segment(p), "{p}");
        }
    }
}

//! Fuzz target: RFC 3986 reference resolution of an arbitrary (base,
//! reference) pair, split at the input's first NUL byte; a valid
//! reference against a valid absolute base gives a valid absolute URI,
//! the same as iri-string's resolution whenever both accept the base and
//! iri-string accepts the reference, and nothing may panic.
#![no_main]

use iri_string::types::IriReferenceStr;
use libfuzzer_sys::fuzz_target;
use urlx::resolve::{normalize_dots, resolve, resolve_str};
use urlx::validate::{ErrorKind, Uri};

fuzz_target!(|data: &[u8]| {
    let (b, r) = match data.iter().position(|&c| c == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b""[..]),
    };
    let (Ok(b), Ok(r)) = (std::str::from_utf8(b), std::str::from_utf8(r))
    else {
        return;
    };
    let base = Uri::parse(b);
    let reference = Uri::parse(r);
    let out = resolve(&base, &reference);
    assert_eq!(out, resolve_str(b, r));
    if !(base.is_absolute() && base.is_valid()) {
        assert!(out.is_err(), "{b:?} + {r:?}: {out:?}");
        return;
    }
    let out = out.expect("a valid absolute base is usable");
    if let (Ok(ob), Ok(or)) =
        (IriReferenceStr::new(b), IriReferenceStr::new(r))
        && let Ok(ob) = ob.to_iri()
    {
        // tests/differential.rs: urlx and iri-string agree on every
        // resolution against a base both accept, once percent-encoded
        // dot-segments are decoded where the oracle treats them as dots
        // (wherever remove_dot_segments runs).
        let oracle = or.resolve_against(ob.to_absolute()).to_string();
        let want = if reference.is_absolute()
            || reference.authority().is_some()
            || !reference.path().is_empty()
        {
            resolve_str(&decode_dots(b), &decode_dots(r)).unwrap()
        } else {
            out.clone()
        };
        assert_eq!(want, oracle, "{b:?} + {r:?}");
    }
    let target = Uri::parse(&out);
    assert!(target.is_absolute(), "{b:?} + {r:?} = {out:?}");
    if !reference.is_valid() {
        return;
    }
    for e in target.errors() {
        // The one way to an invalid target: an empty authority (`//`)
        // given to a scheme that requires a host.
        assert_eq!(
            e.kind(),
            ErrorKind::MissingHost,
            "{b:?} + {r:?} = {out:?}"
        );
        assert_eq!(reference.host(), Some(""), "{b:?} + {r:?} = {out:?}");
    }
    if reference.is_absolute()
        || reference.authority().is_some()
        || !reference.path().is_empty()
    {
        // The target's path went through remove_dot_segments.
        assert_eq!(normalize_dots(&target), out, "{b:?} + {r:?}");
    } else {
        // RFC 3986 5.2.2: an empty reference path keeps the base's path
        // as it is (normalizing the base is optional, 5.2.1).
        assert_eq!(target.path(), base.path(), "{b:?} + {r:?}");
    }
    if target.is_valid() && normalize_dots(&target) == out {
        // A dot-free absolute target resolves to itself, against itself
        // or against the base.
        assert_eq!(resolve(&target, &target).unwrap(), out);
        assert_eq!(resolve_str(b, &out).unwrap(), out, "{b:?} + {r:?}");
    }
});

/// `s` with each path segment that is a percent-encoded dot-segment
/// (`%2e`, `%2e%2e`, `.%2e`, `%2e.`, any case) written as `.` or `..`.
fn decode_dots(s: &str) -> String {
    let uri = Uri::parse(s);
    let path = uri.range(urlx::validate::Component::Path).unwrap();
    let decoded: Vec<&str> = s[path.clone()]
        .split('/')
        .map(|seg| match seg.to_ascii_lowercase().as_str() {
            "%2e" => ".",
            "%2e%2e" | ".%2e" | "%2e." => "..",
            _ => seg,
        })
        .collect();
    format!("{}{}{}", &s[..path.start], decoded.join("/"), &s[path.end..])
}

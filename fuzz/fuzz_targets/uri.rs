//! Fuzz target: parsing, validating and resolving arbitrary strings; the
//! fast path must never accept what the full check rejects.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlx::resolve::{normalize_dots, remove_dot_segments, resolve_str};
use urlx::validate::Uri;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let (a, b) = s.split_at(
        s.char_indices().nth(s.chars().count() / 2).map_or(0, |(i, _)| i),
    );
    let uri = Uri::parse(s);
    let valid = uri.errors().is_empty();
    if urlx::stages::quick_valid(s) {
        assert!(valid && uri.is_absolute(), "{s:?}");
    }
    let once = remove_dot_segments(uri.path());
    assert_eq!(remove_dot_segments(&once), once);
    if uri.is_absolute() {
        let _ = normalize_dots(&uri);
    }
    let _ = resolve_str(a, b);
});

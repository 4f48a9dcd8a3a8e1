//! Inputs the fuzz targets found (fuzz/README.md), each pinned with what
//! it showed. None was a panic; each was a wrong expectation in a
//! target or a disagreement with the oracle, checked here against the
//! RFC.

use urlx::resolve::resolve_str;

#[test]
fn an_empty_reference_keeps_the_base_path_as_written() {
    // resolve target: RFC 3986 5.2.2 takes Base.path unchanged when the
    // reference path is empty; normalizing the base is optional (5.2.1).
    assert_eq!(resolve_str("zz:../bar", "").unwrap(), "zz:../bar");
    assert_eq!(resolve_str("zz:../bar", "?q").unwrap(), "zz:../bar?q");
}

#[test]
fn an_absolute_reference_loses_its_dot_segments() {
    // resolve target: resolving a URI against itself is not the
    // identity when its path has dot-segments (5.2.2: T.path =
    // remove_dot_segments(R.path)).
    let s = "htp:./qex/%3A";
    assert_eq!(resolve_str(s, s).unwrap(), "htp:qex/%3A");
}

#[test]
fn percent_encoded_dot_segments_are_kept() {
    // resolve target against iri-string, which decodes them (WHATWG);
    // RFC 3986 5.2.4 removes only "." and ".." (tests/differential.rs,
    // row percent-encoded-dots).
    assert_eq!(
        resolve_str(
            "filfile:/develhttp:d0/xdevel/x/1/0//ex/x//W./y#",
            "M//2000/Mfr//ile:WW/%2e%2e/xdevel/x/1/0"
        )
        .unwrap(),
        "filfile:/develhttp:d0/xdevel/x/1/0//ex/x//W./M//2000/Mfr//ile:WW/\
         %2e%2e/xdevel/x/1/0"
    );
    assert_eq!(resolve_str("s:/a/b", "%2E%2E/c").unwrap(), "s:/a/%2E%2E/c");
}

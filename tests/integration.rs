//! The integration test binary (one binary, as ripgrep does): each
//! module below is one group of tests.

// Helpers shared by the modules below.
mod common;
// Delimiting in context: Appendix E examples and every rule, by name.
mod delimit;
// Chunking and threads: output independent of how input is cut.
mod chunking;
// The command-line contract: options, exit codes, errors.
mod cli;
// Mail and news archives: MIME, provenance, compressed input.
mod mail;
// Hostile and damaged compressed input: decoder memory limits, every
// zstd frame, checksums, text before the damage, error sentences.
mod compressed;
// The MIME layer on real messages, and its properties.
mod mime_props;
mod mime_samples;
// Scaling out: line-aligned splits mapped one by one, as Hadoop would.
mod scale;
// Real samples from corpora/ against outputs checked by hand.
mod golden;
// RFC 3986 5.4 and the drafts' Appendix C, Appendix B components.
mod rfc_examples;
// 4Suite vectors (via uriparser) with expected failures.
mod foursuite;
// Property tests of validate and resolve.
mod props;
// Schemes' own rules, warnings, normal forms, IRIs (printing options).
mod schemes;
// Abbreviated URIs and e-mail addresses: cut-independence, no panics.
mod abbrev_props;
// validate and resolve against iri-string, an independent implementation.
mod differential;
// Inputs found by the fuzz targets.
mod fuzz_findings;
// urlx against a plain URL regex on the bundled real samples: every
// difference explained by a named rule.
mod accuracy;
// UTS #58 link properties against their data files; the conformance
// test's reader.
mod uts58_props;
// UTS #58 LinkDetectionTest.txt through urlx, with the expected
// differences argued.
mod uts58_detection;
// WHATWG URL web-platform-tests vectors through validate, resolve and
// normalize, with the expected differences argued by class; the
// component split of WHATWG's hrefs.
mod whatwg_url;
// Peer suites about links in text and Markdown (linkify-it,
// markdown-it, cmark-gfm), with the expected differences argued.
mod peer_markup;
// Other URL finders' test suites (twitter-text, robinst/linkify,
// URLExtract) through urlx, with the expected differences argued.
mod peer_extractors;
// Web archives: WARC, WET and WAT records.
mod warc;
mod archive;
// The library's files import one another without a cycle.
mod module_graph;

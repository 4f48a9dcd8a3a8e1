//! Owns URI-reference parsing and RFC 3986 validation (zero-copy).
//!
//! [`Uri::parse`] splits any string into the components of RFC 3986
//! Appendix B (it never fails); [`Uri::errors`] then checks every component
//! against the ABNF of RFC 3986 Appendix A plus a few scheme-independent
//! limits (label and host-name lengths, port range) and the host
//! requirement of well-known schemes ([`scheme_requires_host`]).
//!
//! Non-ASCII characters (RFC 3987 IRIs) are accepted in userinfo, reg-name,
//! path, query and fragment; see [`Uri::errors`] for the exact rule.

pub mod lint;
pub mod schemes;

mod chars;
mod error;
mod fast;
mod host;
mod uri;

pub use crate::scheme::scheme_requires_host;
pub use error::{ErrorKind, UriError};
pub(crate) use fast::{Known, Quick, quick_check};
pub use uri::{Component, HostKind, Uri, percent_encode_disallowed};

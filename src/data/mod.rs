//! Owns the bundled, dated reference data: the IANA URI scheme registry
//! and the public suffix list, each with its lookup. Where each came
//! from, and how to regenerate it, is in `src/data/README.md`.

pub mod psl;
pub mod registry;

// Generated tables (do not edit; see the README).
mod public_suffix;
mod uri_schemes;

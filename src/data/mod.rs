//! Owns the bundled, dated reference data: the IANA URI scheme registry,
//! the public suffix list, the UTS #58 link properties and the
//! characters kept from terminals (UCD properties), each with its
//! lookup. Where each came from, and how to regenerate it, is in
//! `src/data/README.md`.

pub mod psl;
pub mod registry;
pub mod uts58;
// The value types the generated tables hold.
mod values;

// Generated tables (do not edit; see the README).
mod public_suffix;
pub(crate) mod uri_schemes;
mod link_props;
pub(crate) mod terminal_chars;

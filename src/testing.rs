//! Helpers shared by the unit tests.

/// A xorshift64 generator (Marsaglia 2003) from `seed` (not zero): the
/// repeatable pseudo-random numbers of the tests that try many inputs.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

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

/// `data` with `edits` bytes overwritten at places and with values
/// drawn from `next`: a damaged copy for the tests that read broken
/// input.
pub(crate) fn damaged(
    data: &[u8],
    edits: usize,
    next: &mut impl FnMut() -> u64,
) -> Vec<u8> {
    let mut d = data.to_vec();
    for _ in 0..edits {
        let r = next();
        let at = (r as usize) % d.len();
        d[at] = (r >> 40) as u8;
    }
    d
}

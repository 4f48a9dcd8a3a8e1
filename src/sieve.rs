//! The trigger sieve: a branch-free SIMD pass (AVX-512 with VBMI, or
//! AVX2) that keeps, of all the colons of a range, only those that can
//! end a scheme with the built-in rules: a `:` followed by `/`, or one
//! after the last two letters of a scheme recognised without `//` (`to:`
//! of `mailto:`, in any case). This is the crate's only `unsafe` code:
//! unaligned vector loads, each within the slice (a masked load where
//! the slice is shorter than a vector), as the comment at each says.
//!
//! Every colon `delimit` can accept with the built-in schemes is kept
//! (a scheme used with `//` has its colon before `/`; one without ends
//! in the letters looked for, see [`crate::scheme::colon_words`]), so
//! scanning the kept colons finds what scanning every colon finds
//! (`tests/props.rs` compares them). Unlike the multi-pattern searches,
//! its cost does not depend on how many colons or letters the text
//! holds: every 64 bytes take the same few vector operations.
//!
//! The same AVX-512 table lookup classifies the bytes of a URL of up to
//! 64 bytes for the validation fast path ([`byte_classes`]: one masked
//! load, two byte permutes, a test per class, or with GFNI a permute
//! that reverses each 8-byte group, then a transform and a permute per
//! eight classes) and for delimiting's walk
//! of the most common shape of URL (AVX-512 only, [`byte_classes_wide`]:
//! with AVX2, that walk costs less by itself), and measures the runs of
//! URL bytes that delimiting walks ([`ascii_run`]); with AVX2 alone both
//! look each class up by two 16-entry shuffles, one by low and one by
//! high nibble ([`ByteTables`]), 32 bytes at a time, and a class of one
//! byte by one compare. A masked load tells an ASCII candidate's text
//! ([`ascii_str`]) and finds a byte a few dozen bytes ahead, as the HTML
//! scanner looks for `<`, `>` and quotes and the mbox reader for line
//! ends ([`find_byte`]; either of two bytes, [`find_either`], as for the
//! end of a quoted attribute value; with AVX2 by 32-byte loads, the last
//! one overlapping), reads the positions of a byte 64 bytes at a time
//! ([`byte_positions`]) and those a header field is checked for
//! ([`marks`]), and finds the last byte of a set ([`rfind_in`]). With
//! AVX2, the ASCII bytes a text starts with are passed over 128 at a
//! time ([`utf8`], [`ascii_prefix`]).

#![allow(unsafe_code)]

use std::sync::OnceLock;

use crate::scheme::colon_words;

/// Steps of the vector loop between two rounds of candidate checks.
const WINDOW: usize = 64;

/// The sieve's tables: which lower-case letters end a scheme used
/// without `//` (`last`), which come before those (`second`), and the
/// exact pairs.
#[derive(Debug)]
pub(crate) struct Sieve {
    /// By low nibble: bit 0 (bit 1) when `0x6N` (`0x7N`) is a last
    /// letter, bit 2 (bit 3) when it is a second-to-last letter.
    low: [u8; 16],
    /// By high nibble: bits 0 and 2 for 6 and 4, bits 1 and 3 for 7 and
    /// 5 (upper case: `0x4N` and `0x5N` are letters where `0x6N` and
    /// `0x7N` are, and no byte the case bit turns into a letter is one).
    high: [u8; 16],
    /// The last two letters of each scheme as a bit set indexed by
    /// `LETTER[second] * 27 + LETTER[last]` (either case; the index 26
    /// of a byte that is no letter is in no pair).
    pairs: [u64; 12],
    /// By the low six bits of a byte of `0x40..0x80`: `0x40` where the
    /// byte, in either case, is a last letter (the wide loop's
    /// one-instruction table lookup; every letter is in that range).
    last_ascii: [u8; 64],
    /// The same for second-to-last letters.
    second_ascii: [u8; 64],
    /// Whether the CPU has the AVX-512 instructions of the wide loop.
    wide: bool,
}

/// The sieve for the built-in schemes, where the CPU has AVX2 (and
/// every scheme used without `//`, and `URL`, ends in two ASCII
/// letters, which the tables need).
pub(crate) fn sieve() -> Option<&'static Sieve> {
    static SIEVE: OnceLock<Option<Sieve>> = OnceLock::new();
    SIEVE
        .get_or_init(|| {
            if !avx2() {
                return None;
            }
            let mut s = Sieve::new(colon_words())?;
            s.wide = avx512();
            Some(s)
        })
        .as_ref()
}

/// The built-in schemes' tables whatever the CPU, for [`Sieve::keeps`]
/// alone (no vector loop): where it keeps no colon of a text, a scan for
/// those schemes finds nothing in it.
pub(crate) fn exact() -> Option<&'static Sieve> {
    static EXACT: OnceLock<Option<Sieve>> = OnceLock::new();
    EXACT.get_or_init(|| Sieve::new(colon_words())).as_ref()
}

#[cfg(target_arch = "x86_64")]
fn avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2() -> bool {
    false
}

/// AVX-512 with byte instructions and VBMI's byte permutes (a table of
/// 128 bytes looked up in one instruction).
#[cfg(target_arch = "x86_64")]
fn avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vbmi")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx512() -> bool {
    false
}

impl Sieve {
    /// Tables for the schemes `names`; `None` if one does not end in
    /// two ASCII letters.
    fn new<'a>(names: impl Iterator<Item = &'a str>) -> Option<Sieve> {
        let mut s = Sieve {
            low: [0; 16],
            high: [0; 16],
            pairs: [0; 12],
            last_ascii: [0; 64],
            second_ascii: [0; 64],
            wide: false,
        };
        for name in names {
            let b = name.as_bytes();
            let [second, last] = *b.get(b.len().checked_sub(2)?..)? else {
                return None;
            };
            let (second, last) =
                (second.to_ascii_lowercase(), last.to_ascii_lowercase());
            if !second.is_ascii_lowercase() || !last.is_ascii_lowercase() {
                return None;
            }
            for (c, shift) in [(last, 0), (second, 2)] {
                // Lower-case letters are 0x61..=0x7A: high nibble 6 or 7.
                let bit = 1u8 << (shift + (c >> 4) - 6);
                s.low[usize::from(c & 15)] |= bit;
                s.high[usize::from(c >> 4)] |= bit;
                s.high[usize::from((c >> 4) - 2)] |= bit;
            }
            let i = pair_index(second, last);
            s.pairs[i / 64] |= 1 << (i % 64);
            for (c, table) in
                [(last, &mut s.last_ascii), (second, &mut s.second_ascii)]
            {
                table[usize::from(c & 63)] = 0x40;
                table[usize::from(c.to_ascii_uppercase() & 63)] = 0x40;
            }
        }
        Some(s)
    }

    /// Whether the colon at `colon` is kept: followed by `/`, or after
    /// the last two letters of a scheme used without `//`.
    #[inline]
    pub(crate) fn keeps(&self, hay: &[u8], colon: usize) -> bool {
        if hay.get(colon + 1) == Some(&b'/') {
            return true;
        }
        let (Some(&second), Some(&last)) = (
            colon.checked_sub(2).and_then(|i| hay.get(i)),
            colon.checked_sub(1).and_then(|i| hay.get(i)),
        ) else {
            return false;
        };
        let i = pair_index(second, last);
        self.pairs[i / 64] >> (i % 64) & 1 != 0
    }

    /// Call `each` with every kept colon in `hay[from..to]`, in order.
    pub(crate) fn for_each(
        &self,
        hay: &[u8],
        from: usize,
        to: usize,
        mut each: impl FnMut(usize),
    ) {
        self.walk::<false>(hay, from, to, &mut each);
    }

    /// [`Sieve::for_each`] up to the first NUL byte of `hay[from..to]`,
    /// whose offset it returns: the binary check in the same pass as the
    /// colons (a byte minimum a vector step and a zero test a window),
    /// not a pass of its own.
    pub(crate) fn for_each_before_nul(
        &self,
        hay: &[u8],
        from: usize,
        to: usize,
        mut each: impl FnMut(usize),
    ) -> Option<usize> {
        self.walk::<true>(hay, from, to, &mut each)
    }

    /// [`Sieve::for_each`], and with `NUL` up to the first NUL byte.
    fn walk<const NUL: bool>(
        &self,
        hay: &[u8],
        from: usize,
        to: usize,
        each: &mut impl FnMut(usize),
    ) -> Option<usize> {
        let to = to.min(hay.len());
        if from >= to {
            return None;
        }
        // The AVX2 loop reads 32 bytes before a position and 65 from it,
        // the AVX-512 loop 2 before and 65 from it: the edges go through
        // the exact test colon by colon.
        let (before, width) = if self.wide { (2, 64) } else { (32, 64) };
        let vec_from = from.max(before);
        let vec_to =
            if hay.len() > width { to.min(hay.len() - width) } else { 0 };
        if vec_from >= vec_to {
            return self.scalar_to::<NUL>(hay, (from, to), each);
        }
        if let Some(nul) = self.scalar_to::<NUL>(hay, (from, vec_from), each) {
            return Some(nul);
        }
        // The vector loop fills a window's masks with no call in it (a
        // call would have its tables reloaded at every step); the
        // candidates are checked after it.
        let mut steps = [(0, 0); WINDOW];
        let mut i = vec_from;
        while i < vec_to {
            let window = vec_to.min(i.saturating_add(WINDOW * width));
            let (end, n, zero) =
                self.vector::<NUL>(hay, i, window, &mut steps);
            for &(step, mut mask) in &steps[..n] {
                while mask != 0 {
                    let at = step + mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    if self.keeps(hay, at) {
                        each(at);
                    }
                }
            }
            if zero {
                // The step at `end` holds a NUL byte before `window`.
                return self.scalar_to::<NUL>(hay, (end, to), each);
            }
            if end == i {
                break;
            }
            i = end;
        }
        self.scalar_to::<NUL>(hay, (i, to), each)
    }

    /// The colons of `hay[span]` by the exact test, up to a NUL byte
    /// there when one is looked for (`NUL`); the NUL's offset.
    fn scalar_to<const NUL: bool>(
        &self,
        hay: &[u8],
        (from, to): (usize, usize),
        each: &mut impl FnMut(usize),
    ) -> Option<usize> {
        let nul = if NUL && from < to {
            memchr::memchr(0, &hay[from..to]).map(|k| from + k)
        } else {
            None
        };
        self.scalar(hay, from, nul.unwrap_or(to), each);
        nul
    }

    /// The exact test on each colon of `hay[from..to]`.
    fn scalar(
        &self,
        hay: &[u8],
        from: usize,
        to: usize,
        each: &mut impl FnMut(usize),
    ) {
        if from >= to {
            return;
        }
        for off in memchr::memchr_iter(b':', &hay[from..to]) {
            if self.keeps(hay, from + off) {
                each(from + off);
            }
        }
    }

    /// The vector loop over whole steps of 64 bytes from `from` (at
    /// least 2, 32 with AVX2) while a step starts before `to`
    /// (at most `hay.len()` less a step, and at most [`WINDOW`] steps).
    /// Returns where it stopped (`from` where there is no such loop),
    /// `n`: the steps with candidates are the first `n` of `steps`, each
    /// its start and its candidates as bits; and with `NUL`, whether
    /// `hay[from..to]` holds a NUL byte, and then the start of its step
    /// is where it returns (the candidates of that step and of those
    /// after it not among them).
    fn vector<const NUL: bool>(
        &self,
        hay: &[u8],
        from: usize,
        to: usize,
        steps: &mut [(usize, u64); WINDOW],
    ) -> (usize, usize, bool) {
        #[cfg(target_arch = "x86_64")]
        {
            if self.wide {
                // SAFETY: `wide` is set only when the CPU has AVX-512F,
                // AVX-512BW and AVX-512VBMI.
                return unsafe { self.avx512::<NUL>(hay, from, to, steps) };
            }
            // SAFETY: `sieve()` builds a `Sieve` only when the CPU has
            // AVX2.
            unsafe { self.avx2::<NUL>(hay, from, to, steps) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (hay, to, steps);
            (from, 0, false)
        }
    }

    /// [`Sieve::vector`] with AVX2: for each 64 positions, as two halves
    /// of 32, the colons (`c`) followed by `/` (`n1`), or whose two bytes
    /// before, lower-cased, are a second-to-last and a last letter (by
    /// nibble lookup; each byte's class is computed once, and shifted by
    /// one and two bytes for the positions after it), each candidate then
    /// checked by [`Sieve::keeps`] (the letters are tested one by one,
    /// not as a pair).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn avx2<const NUL: bool>(
        &self,
        hay: &[u8],
        from: usize,
        to: usize,
        steps: &mut [(usize, u64); WINDOW],
    ) -> (usize, usize, bool) {
        use std::arch::x86_64::*;
        debug_assert!(from >= 32 && to + 64 <= hay.len());
        debug_assert!(to - from <= WINDOW * 64);
        // SAFETY: 16-byte loads from 16-byte arrays.
        let (low, high) = unsafe {
            (
                _mm_loadu_si128(self.low.as_ptr().cast()),
                _mm_loadu_si128(self.high.as_ptr().cast()),
            )
        };
        let low = _mm256_broadcastsi128_si256(low);
        let high = _mm256_broadcastsi128_si256(high);
        let colon = _mm256_set1_epi8(b':' as i8);
        let slash = _mm256_set1_epi8(b'/' as i8);
        let nibble = _mm256_set1_epi8(0x0f);
        let last = _mm256_set1_epi8(0x03);
        let second = _mm256_set1_epi8(0x0c);
        let zero = _mm256_setzero_si256();
        // Bits 0 and 1 (2 and 3) of a class: a last (second-to-last)
        // letter with high nibble 6 or 7 (4 or 5 in upper case). The
        // shuffle by the low nibble needs no mask: it reads the low four
        // bits, and gives 0 for a byte of 0x80 or more, as the high
        // table does.
        let classes = |v: __m256i| {
            let hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
            _mm256_and_si256(
                _mm256_shuffle_epi8(low, v),
                _mm256_shuffle_epi8(high, hi),
            )
        };
        // The candidates among 32 positions whose bytes are `c`, the
        // bytes after them `n1`, their classes `here` and the classes of
        // the 32 bytes before them `before`.
        let half =
            |c: __m256i, n1: __m256i, here: __m256i, before: __m256i| {
                // The classes of the bytes 1 and 2 before each position: this
                // half's shifted, the previous half's last bytes shifted in.
                let across = _mm256_permute2x128_si256(before, here, 0x21);
                let p1 = _mm256_alignr_epi8(here, across, 15);
                let p2 = _mm256_alignr_epi8(here, across, 14);
                let colons = _mm256_cmpeq_epi8(c, colon);
                let slashed =
                    _mm256_and_si256(colons, _mm256_cmpeq_epi8(n1, slash));
                // Non-zero where both letters are (the smaller of the two).
                let both = _mm256_min_epu8(
                    _mm256_and_si256(p1, last),
                    _mm256_and_si256(p2, second),
                );
                let lettered =
                    _mm256_andnot_si256(_mm256_cmpeq_epi8(both, zero), colons);
                _mm256_movemask_epi8(_mm256_or_si256(slashed, lettered)) as u32
            };
        let p = hay.as_ptr();
        let (mut i, mut n) = (from, 0);
        // SAFETY: 32 <= i, so the 32 bytes before i are within `hay`.
        let mut before =
            classes(unsafe { _mm256_loadu_si256(p.add(i - 32).cast()) });
        // The candidates among the 64 positions from `i`, and the
        // smaller of each pair of bytes 32 apart (for the NUL test).
        let mut step = |i: usize| {
            // SAFETY: i < to <= hay.len() - 64, so the loads at i, i + 1,
            // i + 32 and i + 33 read 32 bytes within `hay`.
            let (c, n1, c2, n2) = unsafe {
                (
                    _mm256_loadu_si256(p.add(i).cast()),
                    _mm256_loadu_si256(p.add(i + 1).cast()),
                    _mm256_loadu_si256(p.add(i + 32).cast()),
                    _mm256_loadu_si256(p.add(i + 33).cast()),
                )
            };
            let here = classes(c);
            let here2 = classes(c2);
            let mask = u64::from(half(c, n1, here, before))
                | u64::from(half(c2, n2, here2, here)) << 32;
            before = here2;
            (mask, _mm256_min_epu8(c, c2))
        };
        // The smallest byte of each lane over the steps: a NUL byte is
        // looked for once a window, not at each step.
        let mut smallest = _mm256_set1_epi8(-1);
        // Whole steps, then the last one, which may reach past `to`
        // (those positions are the scalar tail's). A step's mask is
        // written whatever it is, kept if not zero: no branch. At most
        // `WINDOW` steps, so `n` is below it at each write (the
        // `% WINDOW` changes no index; it spares the bounds check).
        let whole = from + (to - from) / 64 * 64;
        while i < whole {
            let (mask, least) = step(i);
            if NUL {
                smallest = _mm256_min_epu8(smallest, least);
            }
            steps[n % WINDOW] = (i, mask);
            n += usize::from(mask != 0);
            i += 64;
        }
        if i < to {
            let (mask, least) = step(i);
            if NUL {
                smallest = _mm256_min_epu8(smallest, least);
            }
            let mask = mask & ((1u64 << (to - i)) - 1);
            steps[n % WINDOW] = (i, mask);
            n += usize::from(mask != 0);
            i += 64;
        }
        if NUL && _mm256_movemask_epi8(_mm256_cmpeq_epi8(smallest, zero)) != 0
        {
            // The minimum saw the bytes past `to` of the last step too:
            // the NUL byte, if it is before `to`, and its step.
            if let Some(z) = memchr::memchr(0, &hay[from..to]) {
                let at = from + z / 64 * 64;
                let kept = steps[..n].partition_point(|&(s, _)| s < at);
                return (at, kept, true);
            }
        }
        (i.min(to), n, false)
    }
}

impl Sieve {
    /// [`Sieve::vector`] with AVX-512: for each 64 positions, the colons
    /// followed by `/`, or whose byte before is a last letter and the one
    /// before that a second-to-last letter (each looked up by its low six
    /// bits in a table of 64 bytes, in one byte permute, and kept where
    /// the byte's bit 6 is set too), each candidate then
    /// checked by [`Sieve::keeps`] (the letters are tested one by one,
    /// not as a pair).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn avx512<const NUL: bool>(
        &self,
        hay: &[u8],
        from: usize,
        to: usize,
        steps: &mut [(usize, u64); WINDOW],
    ) -> (usize, usize, bool) {
        use std::arch::x86_64::*;
        debug_assert!(from >= 2 && to + 64 <= hay.len());
        debug_assert!(to - from <= WINDOW * 64);
        // SAFETY: 64-byte loads of 64-byte arrays.
        let (last_table, second_table) = unsafe {
            (
                _mm512_loadu_si512(self.last_ascii.as_ptr().cast()),
                _mm512_loadu_si512(self.second_ascii.as_ptr().cast()),
            )
        };
        let colon = _mm512_set1_epi8(b':' as i8);
        let slash = _mm512_set1_epi8(b'/' as i8);
        let p = hay.as_ptr();
        // The candidates among the 64 positions from `i`, and its bytes
        // (for the NUL test).
        let step = |i: usize| {
            // SAFETY: 2 <= from <= i and i < to <= hay.len() - 64, so the
            // loads at i - 2, i - 1, i and i + 1 read 64 bytes within
            // `hay`.
            let (b2, b1, c, n1) = unsafe {
                (
                    _mm512_loadu_si512(p.add(i - 2).cast()),
                    _mm512_loadu_si512(p.add(i - 1).cast()),
                    _mm512_loadu_si512(p.add(i).cast()),
                    _mm512_loadu_si512(p.add(i + 1).cast()),
                )
            };
            // The permute reads an index's low six bits; its entries are
            // 0x40, bit 6, which the byte itself must have too: a byte
            // below 0x40 is no letter, and one of 0xC0 or more looks up
            // an ASCII letter, a candidate that `keeps` then rejects.
            // (0x80: the AND of the three operands.)
            let last = _mm512_permutexvar_epi8(b1, last_table);
            let second = _mm512_permutexvar_epi8(b2, second_table);
            let lettered = _mm512_test_epi8_mask(
                _mm512_ternarylogic_epi32(last, second, b1, 0x80),
                b2,
            );
            let slashed = _mm512_cmpeq_epi8_mask(n1, slash);
            (_mm512_cmpeq_epi8_mask(c, colon) & (slashed | lettered), c)
        };
        // The smallest byte of each lane over the steps: a NUL byte is
        // looked for once a window, not at each step.
        let mut smallest = _mm512_set1_epi8(-1);
        let (mut i, mut n) = (from, 0);
        // Whole steps, then the last one, which may reach past `to`
        // (those positions are the scalar tail's). A step's mask is
        // written whatever it is, kept if not zero: no branch. At most
        // `WINDOW` steps, so `n` is below it at each write (the
        // `% WINDOW` changes no index; it spares the bounds check).
        let whole = from + (to - from) / 64 * 64;
        while i < whole {
            let (mask, bytes) = step(i);
            if NUL {
                smallest = _mm512_min_epu8(smallest, bytes);
            }
            steps[n % WINDOW] = (i, mask);
            n += usize::from(mask != 0);
            i += 64;
        }
        if i < to {
            let (mask, bytes) = step(i);
            let inside = (1u64 << (to - i)) - 1;
            if NUL {
                // Only the bytes before `to`: the NUL test reads no
                // further than the candidates.
                smallest =
                    _mm512_mask_min_epu8(smallest, inside, smallest, bytes);
            }
            steps[n % WINDOW] = (i, mask & inside);
            n += usize::from(mask & inside != 0);
            i += 64;
        }
        if NUL && _mm512_testn_epi8_mask(smallest, smallest) != 0 {
            // The NUL byte and its step: what is returned stops there.
            if let Some(z) = memchr::memchr(0, &hay[from..to]) {
                let at = from + z / 64 * 64;
                let kept = steps[..n].partition_point(|&(s, _)| s < at);
                return (at, kept, true);
            }
        }
        (i.min(to), n, false)
    }
}

/// Tables of ASCII bytes for [`byte_classes`] and [`ascii_run`]: the
/// 128-entry table the AVX-512 permutes look up, and the same sets as
/// nibble tables for AVX2's 16-entry shuffles ([`nibble_table`]).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct ByteTables<const N: usize> {
    table: [[u8; 128]; 2],
    nibbles: [[u8; 16]; N],
    /// Classes `0..general` are looked up by nibble; each class of
    /// `general..single` holds one byte, `byte[j]`, found by one compare
    /// instead of two shuffles; the classes after those are empty.
    general: usize,
    single: usize,
    byte: [u8; N],
}

impl ByteTables<16> {
    /// 16 classes: class `j` the bytes `b` with bit `j % 8` of
    /// `table[j / 8][b]` set. Classes of one byte each after all those
    /// of more, and empty ones last, are looked for more cheaply.
    pub(crate) const fn new(table: [[u8; 128]; 2]) -> ByteTables<16> {
        let mut nibbles = [[0u8; 16]; 16];
        // Each class's number of bytes (up to 2) and its last byte.
        let mut count = [0u8; 16];
        let mut byte = [0u8; 16];
        let mut j = 0;
        while j < 16 {
            let bit = 1 << (j % 8);
            nibbles[j] = nibble_table(&table[j / 8], bit);
            let mut b = 0;
            while b < 128 {
                if table[j / 8][b] & bit != 0 {
                    count[j] = if count[j] < 2 { count[j] + 1 } else { 2 };
                    byte[j] = b as u8;
                }
                b += 1;
            }
            j += 1;
        }
        let mut general = 0;
        while general < 16 && count[general] == 2 {
            general += 1;
        }
        let mut single = general;
        while single < 16 && count[single] == 1 {
            single += 1;
        }
        let mut rest = single;
        while rest < 16 && count[rest] == 0 {
            rest += 1;
        }
        if rest < 16 {
            // Not in that order: every class by nibble.
            (general, single) = (16, 16);
        }
        ByteTables { table, nibbles, general, single, byte }
    }
}

impl<const N: usize> ByteTables<N> {
    /// The classes looked up by nibble (`0..general`) and the end of
    /// those of one byte each (`general..single`).
    #[cfg(test)]
    pub(crate) fn shape(&self) -> (usize, usize) {
        (self.general, self.single)
    }
}

impl ByteTables<1> {
    /// One set: the bytes `b` with `table[b]` not zero.
    pub(crate) const fn set(table: [u8; 128]) -> ByteTables<1> {
        ByteTables {
            table: [table, [0; 128]],
            nibbles: [nibble_table(&table, 0xFF)],
            general: 1,
            single: 1,
            byte: [0],
        }
    }
}

/// The set of the ASCII bytes `b` with `table[b] & bits` not zero as a
/// table by low nibble: bit `h` of entry `l` set when the byte `16 * h +
/// l` is in the set. A byte is in the set when that entry and the bit
/// of its high nibble (none for 8 to 15, the bytes of 0x80 or more)
/// share a bit: two shuffles of 16 entries, for any set of ASCII bytes.
const fn nibble_table(table: &[u8; 128], bits: u8) -> [u8; 16] {
    let mut n = [0u8; 16];
    let mut b = 0;
    while b < 128 {
        if table[b] & bits != 0 {
            n[b & 15] |= 1 << (b >> 4);
        }
        b += 1;
    }
    n
}

/// The classes of up to 64 bytes at once, for the validation fast path
/// (`validate::fast`): for each class `j` of 16, the positions of the
/// bytes of `bytes` in class `j` of `tables` ([`ByteTables::new`]), as
/// a bit mask (bit `k` for `bytes[k]`); and the positions of the bytes
/// of 0x80 or more, whose classes mean nothing (AVX2 puts them in none,
/// AVX-512 in those of their low seven bits): callers clear them. `None`
/// for more than 64 bytes or where the CPU lacks AVX2.
pub(crate) fn byte_classes(
    bytes: &[u8],
    tables: &ByteTables<16>,
) -> Option<([u64; 16], u64)> {
    if let Some(classes) = byte_classes_wide(bytes, tables) {
        return Some(classes);
    }
    #[cfg(target_arch = "x86_64")]
    {
        if bytes.len() <= 64 && has_avx2() {
            // SAFETY: `has_avx2()` says the CPU has AVX2.
            return Some(unsafe { classes_avx2(bytes, tables) });
        }
    }
    None
}

/// [`byte_classes`] where one table lookup gives them all (AVX-512 with
/// VBMI), `None` elsewhere: for a caller whose own walk, a byte or a run
/// at a time, costs less than AVX2's lookups, two per class.
#[inline]
pub(crate) fn byte_classes_wide(
    bytes: &[u8],
    tables: &ByteTables<16>,
) -> Option<([u64; 16], u64)> {
    #[cfg(target_arch = "x86_64")]
    {
        if bytes.len() <= 64 && wide() {
            if gfni() {
                // SAFETY: `wide()` and `gfni()` say the CPU has
                // AVX-512F, AVX-512BW, AVX-512VBMI and GFNI.
                return Some(unsafe { classes_gfni(bytes, &tables.table) });
            }
            // SAFETY: `wide()` says the CPU has AVX-512F, AVX-512BW and
            // AVX-512VBMI.
            return Some(unsafe { classes_avx512(bytes, &tables.table) });
        }
    }
    let _ = (bytes, tables);
    None
}

/// How many of the first bytes of `bytes` (at most 64 looked at) are in
/// the set of `set` ([`ByteTables::set`]); `None` where the CPU lacks
/// AVX2, or has no AVX-512 and `bytes` holds fewer than 32 (where a byte
/// loop costs less).
pub(crate) fn ascii_run(bytes: &[u8], set: &ByteTables<1>) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        let n = bytes.len().min(64);
        if wide() {
            // SAFETY: `wide()` says the CPU has AVX-512F, AVX-512BW and
            // AVX-512VBMI.
            return Some(unsafe {
                ascii_run_avx512(&bytes[..n], &set.table[0])
            });
        }
        if n >= 32 && has_avx2() {
            // SAFETY: `has_avx2()` says the CPU has AVX2.
            return Some(unsafe {
                ascii_run_avx2(&bytes[..n], &set.nibbles[0])
            });
        }
    }
    let _ = (bytes, set);
    None
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn ascii_run_avx512(bytes: &[u8], table: &[u8; 128]) -> usize {
    use std::arch::x86_64::*;
    let (v, _) = load_short(bytes);
    let (lo, hi) = load_table(table);
    let c = _mm512_permutex2var_epi8(lo, v, hi);
    let inside = _mm512_test_epi8_mask(c, c) & !_mm512_movepi8_mask(v);
    ((!inside).trailing_zeros() as usize).min(bytes.len())
}

/// The position of the last byte of `bytes` that is ASCII with
/// `table[b]` not zero: 64 bytes at a time from the end (one masked
/// load and a byte permute each) with AVX-512, a byte loop otherwise
/// and for fewer than 16 bytes (whose loop costs less than the tables'
/// loads).
pub(crate) fn rfind_in(bytes: &[u8], table: &[u8; 128]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if bytes.len() >= 16 && wide() {
            // SAFETY: `wide()` says the CPU has AVX-512F, AVX-512BW and
            // AVX-512VBMI.
            return unsafe { rfind_in_avx512(bytes, table) };
        }
    }
    bytes
        .iter()
        .rposition(|&b| table.get(usize::from(b)).is_some_and(|&t| t != 0))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn rfind_in_avx512(bytes: &[u8], table: &[u8; 128]) -> Option<usize> {
    use std::arch::x86_64::*;
    let (lo, hi) = load_table(table);
    let mut end = bytes.len();
    while end > 0 {
        let start = end.saturating_sub(64);
        let (v, valid) = load_short(&bytes[start..end]);
        let c = _mm512_permutex2var_epi8(lo, v, hi);
        let hits =
            _mm512_test_epi8_mask(c, c) & !_mm512_movepi8_mask(v) & valid;
        if hits != 0 {
            return Some(start + 63 - hits.leading_zeros() as usize);
        }
        end = start;
    }
    None
}

/// `bytes` as text if they are valid UTF-8: with AVX2, the ASCII bytes
/// at the start of 64 or more are passed over 128 at a time (a body of
/// mail is mostly ASCII) and the rest checked by `std::str::from_utf8`,
/// which checks the whole otherwise.
pub(crate) fn utf8(bytes: &[u8]) -> Option<&str> {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 64 && has_avx2() {
        // SAFETY: `has_avx2()` says the CPU has AVX2.
        let ascii = unsafe { ascii_prefix_avx2(bytes) };
        std::str::from_utf8(bytes.get(ascii..).unwrap_or(&[])).ok()?;
        // SAFETY: `bytes[..ascii]` is ASCII and `bytes[ascii..]` valid
        // UTF-8, so the whole is valid UTF-8.
        return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).ok()
}

/// The ASCII bytes `bytes` starts with, as text: a run of fewer than 8
/// (a space between words of another script) counted a byte at a time,
/// with no vector load; a longer one 128 bytes a step with AVX2 (a body
/// of mail is mostly ASCII), 16 at a time otherwise.
pub(crate) fn ascii_prefix(bytes: &[u8]) -> &str {
    let head = bytes.iter().take(8).take_while(|b| b.is_ascii()).count();
    let n = if head < 8 {
        head
    } else {
        #[cfg(target_arch = "x86_64")]
        let n = if has_avx2() {
            // SAFETY: `has_avx2()` says the CPU has AVX2.
            unsafe { ascii_prefix_avx2(bytes) }
        } else {
            ascii_prefix_by_16(bytes)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let n = ascii_prefix_by_16(bytes);
        n
    };
    // SAFETY: `bytes[..n]` is ASCII, so valid UTF-8.
    unsafe { std::str::from_utf8_unchecked(&bytes[..n]) }
}

/// [`ascii_prefix`]'s length without AVX2: 16 bytes at a time by
/// `<[u8]>::is_ascii` (a word at a time), then a byte loop.
fn ascii_prefix_by_16(bytes: &[u8]) -> usize {
    let mut run = 0;
    for block in bytes.chunks(16) {
        if !block.is_ascii() {
            return run + block.iter().take_while(|c| c.is_ascii()).count();
        }
        run += block.len();
    }
    run
}

/// [`utf8`] for bytes owned: the text, or the bytes back.
pub(crate) fn utf8_string(bytes: Vec<u8>) -> Result<String, Vec<u8>> {
    if utf8(&bytes).is_none() {
        return Err(bytes);
    }
    // SAFETY: `utf8` found the bytes valid UTF-8.
    Ok(unsafe { String::from_utf8_unchecked(bytes) })
}

/// How many of the first bytes of `bytes` are ASCII: 128 bytes a step
/// (four 32-byte loads or-ed), then 32 at a time, then a byte loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn ascii_prefix_avx2(bytes: &[u8]) -> usize {
    use std::arch::x86_64::*;
    let (n, p) = (bytes.len(), bytes.as_ptr());
    // SAFETY: each call below loads at `at` with `at + 32 <= n`.
    let load = |at: usize| unsafe { _mm256_loadu_si256(p.add(at).cast()) };
    let mut i = 0;
    while i + 128 <= n {
        let any = _mm256_or_si256(
            _mm256_or_si256(load(i), load(i + 32)),
            _mm256_or_si256(load(i + 64), load(i + 96)),
        );
        if _mm256_movemask_epi8(any) != 0 {
            break;
        }
        i += 128;
    }
    while i + 32 <= n {
        let m = _mm256_movemask_epi8(load(i)) as u32;
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        i += 32;
    }
    let tail = bytes.get(i..).unwrap_or(&[]);
    i + tail.iter().position(|b| !b.is_ascii()).unwrap_or(tail.len())
}

/// `bytes` as text when they are all ASCII (so valid UTF-8 without
/// the general check, whose set-up costs more than a short URL does):
/// one masked load and a sign-bit test for up to 64 bytes with AVX-512,
/// four overlapping 16-byte loads (SSE2) or two overlapping words for
/// up to 64 bytes otherwise ([`ascii_short`]), `<[u8]>::is_ascii` for
/// more.
pub(crate) fn ascii_str(bytes: &[u8]) -> Option<&str> {
    #[cfg(target_arch = "x86_64")]
    let ascii = if bytes.len() <= 64 && byte_wide() {
        // SAFETY: `byte_wide()` says the CPU has AVX-512F and AVX-512BW.
        unsafe { ascii_avx512(bytes) }
    } else if bytes.len() <= 64 {
        ascii_short(bytes)
    } else {
        bytes.is_ascii()
    };
    #[cfg(not(target_arch = "x86_64"))]
    let ascii = bytes.is_ascii();
    // SAFETY: ASCII bytes are valid UTF-8.
    ascii.then(|| unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// Whether the at most 64 `bytes` are all ASCII, without a loop: from
/// 16 bytes on, the OR of four 16-byte loads (SSE2, which every x86-64
/// CPU has) at 0, 16, 32 and 48, each moved back to end by the last
/// byte where it would pass it; from 8, of the first and the last
/// word; below, of the bytes.
#[cfg(target_arch = "x86_64")]
fn ascii_short(bytes: &[u8]) -> bool {
    use std::arch::x86_64::*;
    let n = bytes.len();
    debug_assert!(n <= 64);
    if n >= 16 {
        let p = bytes.as_ptr();
        let last = n - 16;
        // SAFETY: each load reads 16 bytes from an offset of at most
        // `n - 16`; every x86-64 CPU has SSE2.
        let high = unsafe {
            let (a, b, c, d) = (
                _mm_loadu_si128(p.cast()),
                _mm_loadu_si128(p.add(last.min(16)).cast()),
                _mm_loadu_si128(p.add(last.min(32)).cast()),
                _mm_loadu_si128(p.add(last).cast()),
            );
            _mm_movemask_epi8(_mm_or_si128(
                _mm_or_si128(a, b),
                _mm_or_si128(c, d),
            ))
        };
        return high == 0;
    }
    if n >= 8 {
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[at..at + 8]);
            u64::from_ne_bytes(w)
        };
        return (word(0) | word(n - 8)) & 0x8080_8080_8080_8080 == 0;
    }
    bytes.iter().fold(0, |all, &b| all | b) < 0x80
}

/// The first `c` in `bytes`, for searches that mostly end within a few
/// dozen bytes (the next `<`, `>` or quote of HTML, the next line break
/// of a header, the next `=` of quoted-printable): the first 64 bytes
/// by one masked load and compare with AVX-512, or the first 256 by
/// 32-byte loads with AVX2 (fewer than 32 bytes by 16-byte and 8-byte
/// loads), the rest by `memchr`, whose set-up costs more than such a
/// short search.
#[inline]
pub(crate) fn find_byte(bytes: &[u8], c: u8) -> Option<usize> {
    find::<false>(bytes, c, c)
}

/// The first `a` or `b` in `bytes`, as [`find_byte`] finds one byte: for
/// searches that mostly end within a few dozen bytes (the end of an HTML
/// attribute's quoted value, a colon or reference in a short value).
#[inline]
pub(crate) fn find_either(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    find::<true>(bytes, a, b)
}

/// [`find_byte`] of `a`, or with `TWO` [`find_either`].
#[inline]
fn find<const TWO: bool>(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    match byte_search() {
        // SAFETY: `byte_search()` says the CPU has AVX2.
        ByteSearch::Avx2 => return unsafe { find_avx2::<TWO>(bytes, a, b) },
        // SAFETY: `byte_search()` says the CPU has AVX-512F and AVX-512BW.
        ByteSearch::Wide => return unsafe { find_avx512::<TWO>(bytes, a, b) },
        ByteSearch::Plain => {}
    }
    find_rest::<TWO>(bytes, 0, a, b)
}

/// The first `a`, or with `TWO` the first `a` or `b`, past the first
/// bytes a short search looked at (`from` on): by `memchr`.
fn find_rest<const TWO: bool>(
    bytes: &[u8],
    from: usize,
    a: u8,
    b: u8,
) -> Option<usize> {
    let rest = bytes.get(from..).unwrap_or(&[]);
    let k = if TWO {
        memchr::memchr2(a, b, rest)
    } else {
        memchr::memchr(a, rest)
    };
    k.map(|k| from + k)
}

/// The vector instructions [`find_byte`] uses.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
enum ByteSearch {
    Plain = 1,
    Avx2 = 2,
    Wide = 3,
}

/// [`ByteSearch`] for this CPU: one load once known (inlined into each
/// caller of [`find_byte`], where two `OnceLock` checks and a call cost
/// as much as a short search).
#[cfg(target_arch = "x86_64")]
#[inline]
fn byte_search() -> ByteSearch {
    use std::sync::atomic::{AtomicU8, Ordering};
    static LEVEL: AtomicU8 = AtomicU8::new(0);
    match LEVEL.load(Ordering::Relaxed) {
        1 => ByteSearch::Plain,
        2 => ByteSearch::Avx2,
        3 => ByteSearch::Wide,
        _ => {
            let level = if byte_wide() {
                ByteSearch::Wide
            } else if has_avx2() {
                ByteSearch::Avx2
            } else {
                ByteSearch::Plain
            };
            LEVEL.store(level as u8, Ordering::Relaxed);
            level
        }
    }
}

/// [`find_byte`] (or with `TWO`, [`find_either`]) with AVX-512: the
/// first 64 bytes by one masked load.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn find_avx512<const TWO: bool>(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    let head = bytes.get(..64).unwrap_or(bytes);
    let mut hits = window_of_avx512(head, a);
    if TWO {
        hits |= window_of_avx512(head, b);
    }
    if hits != 0 {
        return Some(hits.trailing_zeros() as usize);
    }
    if head.len() == bytes.len() {
        return None;
    }
    find_rest::<TWO>(bytes, 64, a, b)
}

/// [`find_byte`] (or with `TWO`, [`find_either`]) with AVX2. A load that
/// ends at the end of `bytes` overlaps the one before it, whose bytes
/// are known not to be sought: its first match is the first one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn find_avx2<const TWO: bool>(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    use std::arch::x86_64::*;
    let (n, p) = (bytes.len(), bytes.as_ptr());
    if n < 16 {
        return find_short::<TWO>(bytes, a, b);
    }
    if n < 32 {
        let (va, vb) = (_mm_set1_epi8(a as i8), _mm_set1_epi8(b as i8));
        let hits = |w: __m128i| {
            let mut eq = _mm_cmpeq_epi8(w, va);
            if TWO {
                eq = _mm_or_si128(eq, _mm_cmpeq_epi8(w, vb));
            }
            _mm_movemask_epi8(eq) as u32
        };
        // SAFETY: 16-byte loads at 0 and at `n - 16` of `n` bytes,
        // `16 <= n`.
        let (first, last) = unsafe {
            (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(n - 16).cast()))
        };
        let m = hits(first);
        if m != 0 {
            return Some(m.trailing_zeros() as usize);
        }
        let m = hits(last);
        return (m != 0).then(|| n - 16 + m.trailing_zeros() as usize);
    }
    let (va, vb) = (_mm256_set1_epi8(a as i8), _mm256_set1_epi8(b as i8));
    let hits = |at: usize| {
        // SAFETY: every call below has `at <= n - 32` (`n >= 32` here).
        let w = unsafe { _mm256_loadu_si256(p.add(at).cast()) };
        let mut eq = _mm256_cmpeq_epi8(w, va);
        if TWO {
            eq = _mm256_or_si256(eq, _mm256_cmpeq_epi8(w, vb));
        }
        _mm256_movemask_epi8(eq) as u32
    };
    // The first 256 bytes 32 at a time, the last load ending at `n`.
    let mut at = 0;
    while at < n.min(256) {
        let from = at.min(n - 32);
        let m = hits(from);
        if m != 0 {
            return Some(from + m.trailing_zeros() as usize);
        }
        at += 32;
    }
    find_rest::<TWO>(bytes, 256, a, b)
}

/// The first `a` (or with `TWO`, the first `a` or `b`) in fewer than 16
/// bytes: two 8-byte words (overlapping where there are fewer than 16),
/// each tested for a zero byte after an exclusive or with the byte
/// sought in every byte, or a byte loop for fewer than 8. The lowest
/// byte the test flags is the first zero byte: a borrow only flags bytes
/// above one (so the lowest of two such tests' flags is the first byte
/// that is either).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn find_short<const TWO: bool>(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let n = bytes.len();
    if n < 8 {
        return bytes.iter().position(|&x| x == a || TWO && x == b);
    }
    let zeros = |at: usize| {
        let w = bytes
            .get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_le_bytes);
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
        let z = zero(w ^ (ONES * u64::from(a)));
        if TWO { z | zero(w ^ (ONES * u64::from(b))) } else { z }
    };
    let z = zeros(0);
    if z != 0 {
        return Some(z.trailing_zeros() as usize / 8);
    }
    let z = zeros(n - 8);
    (z != 0).then(|| n - 8 + z.trailing_zeros() as usize / 8)
}

/// The positions in `bytes` of `a`, of `b` and of the bytes that are not
/// ASCII, in order, 64 bytes a step: what a header field is checked for
/// before it is decoded (a `:` of a scheme, the `=?` of an encoded word,
/// 8-bit text).
pub(crate) fn marks(
    bytes: &[u8],
    a: u8,
    b: u8,
) -> impl Iterator<Item = usize> + '_ {
    by_windows(bytes, move |w| window_marks(w, a, b))
}

/// The positions of the bits `mask` sets in each window of 64 bytes of
/// `bytes` (the last one shorter), in order.
fn by_windows<'b>(
    bytes: &'b [u8],
    mask: impl Fn(&[u8]) -> u64 + 'b,
) -> impl Iterator<Item = usize> + 'b {
    // The window at `at` and its bits not yet given.
    let (mut at, mut bits) = (0usize, 0u64);
    let mut next = 0usize;
    std::iter::from_fn(move || {
        while bits == 0 {
            let window = bytes.get(next..)?;
            if window.is_empty() {
                return None;
            }
            let window = window.get(..64).unwrap_or(window);
            (at, bits) = (next, mask(window));
            next += window.len();
        }
        let k = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(at + k)
    })
}

/// The marks of [`marks`] in up to 64 bytes, bit `i` for `window[i]`:
/// one masked load and three compares with AVX-512, two loads and three
/// compares each with AVX2, a word at a time otherwise.
fn window_marks(window: &[u8], a: u8, b: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if byte_wide() {
        // SAFETY: `byte_wide()` says the CPU has AVX-512F and AVX-512BW.
        return unsafe { window_marks_avx512(window, a, b) };
    }
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: `has_avx2()` says the CPU has AVX2.
        return unsafe { window_marks_avx2(window, a, b) };
    }
    window_marks_scalar(window, a, b)
}

/// [`window_marks`] with AVX2: the window as two 32-byte vectors
/// ([`load_halves`]), three compares each.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn window_marks_avx2(window: &[u8], a: u8, b: u8) -> u64 {
    use std::arch::x86_64::*;
    let marks = |v: __m256i| {
        let eq = _mm256_or_si256(
            _mm256_cmpeq_epi8(v, _mm256_set1_epi8(a as i8)),
            _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8)),
        );
        // A byte of 0x80 or more has its top bit set, as a match has.
        u64::from(_mm256_movemask_epi8(_mm256_or_si256(eq, v)) as u32)
    };
    let (first, last) = load_halves(window);
    let mut m = marks(first);
    if let Some((v, shift)) = last {
        m |= marks(v) << shift;
    }
    // The zeroes after a window shorter than 32 bytes are none of it.
    match window.len() {
        n @ 0..64 => m & ((1 << n) - 1),
        _ => m,
    }
}

/// [`window_marks`] without AVX-512 or AVX2: 8 bytes a step, a word that
/// holds none of the marks passed over whole.
fn window_marks_scalar(window: &[u8], a: u8, b: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Whether some byte of `x` is zero.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let mut mask = 0;
    for (k, word) in window.chunks(8).enumerate() {
        if let Ok(w) = <[u8; 8]>::try_from(word) {
            let w = u64::from_le_bytes(w);
            if !zero(w ^ (ONES * u64::from(a)))
                && !zero(w ^ (ONES * u64::from(b)))
                && w & HIGH == 0
            {
                continue;
            }
        }
        for (i, &c) in word.iter().enumerate() {
            if c == a || c == b || !c.is_ascii() {
                mask |= 1 << (8 * k + i);
            }
        }
    }
    mask
}

/// The positions of `c` in `bytes`, in order: 64 bytes a step with
/// AVX-512 (for bytes that come every few dozen bytes, as `<` in HTML),
/// `memchr` otherwise.
pub(crate) fn byte_positions(
    bytes: &[u8],
    c: u8,
) -> impl Iterator<Item = usize> + '_ {
    let vector = byte_wide();
    let (for_vector, for_memchr) =
        if vector { (bytes, &[][..]) } else { (&[][..], bytes) };
    let mut windows = by_windows(for_vector, move |w| window_of(w, c));
    let mut plain = memchr::memchr_iter(c, for_memchr);
    std::iter::from_fn(
        move || if vector { windows.next() } else { plain.next() },
    )
}

/// Bit `i` set where `window[i]` (at most 64 bytes) is `c`.
fn window_of(window: &[u8], c: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if byte_wide() {
        // SAFETY: `byte_wide()` says the CPU has AVX-512F and AVX-512BW.
        return unsafe { window_of_avx512(window, c) };
    }
    window.iter().enumerate().fold(0, |m, (i, &x)| m | u64::from(x == c) << i)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn window_of_avx512(bytes: &[u8], c: u8) -> u64 {
    use std::arch::x86_64::*;
    let (v, valid) = load_short(bytes);
    _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c as i8)) & valid
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn window_marks_avx512(bytes: &[u8], a: u8, b: u8) -> u64 {
    use std::arch::x86_64::*;
    let (v, valid) = load_short(bytes);
    let eq = |c: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c as i8));
    (eq(a) | eq(b) | _mm512_movepi8_mask(v)) & valid
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn ascii_avx512(bytes: &[u8]) -> bool {
    std::arch::x86_64::_mm512_movepi8_mask(load_short(bytes).0) == 0
}

/// The positions of the bytes of `bytes` (at most 64 looked at) that
/// end an over-long candidate's run (`delimit::after_run`): whitespace,
/// `<`, `>` and `"`, as a bit mask (bit `k` for `bytes[k]`); `None`
/// where the CPU lacks AVX-512F and AVX-512BW.
pub(crate) fn run_ends(bytes: &[u8]) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        if byte_wide() {
            let n = bytes.len().min(64);
            // SAFETY: `byte_wide()` says the CPU has AVX-512F and
            // AVX-512BW.
            return Some(unsafe { run_ends_avx512(&bytes[..n]) });
        }
    }
    let _ = bytes;
    None
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn run_ends_avx512(bytes: &[u8]) -> u64 {
    use std::arch::x86_64::*;
    let (v, valid) = load_short(bytes);
    let is = |b: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b as i8));
    // Tab, line feed, vertical tab, form feed and carriage return: 9 to
    // 13, below 5 once 9 is taken away (the bytes below 9 wrap round).
    let controls = _mm512_cmplt_epu8_mask(
        _mm512_sub_epi8(v, _mm512_set1_epi8(9)),
        _mm512_set1_epi8(5),
    );
    (controls | is(b' ') | is(b'<') | is(b'>') | is(b'"')) & valid
}

/// The `n` bytes of `bytes` (at most 64) in a vector, the rest zero, and
/// the mask of their positions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn load_short(bytes: &[u8]) -> (std::arch::x86_64::__m512i, u64) {
    use std::arch::x86_64::*;
    debug_assert!(bytes.len() <= 64);
    let n = bytes.len();
    let valid = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    // SAFETY: a masked load reads only the bytes its mask selects, the
    // `n` bytes of `bytes` (AVX-512 suppresses faults on the others).
    let v = unsafe { _mm512_maskz_loadu_epi8(valid, bytes.as_ptr().cast()) };
    (v, valid)
}

/// A table of the 128 ASCII bytes as the two vectors a byte permute
/// looks up.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn load_table(
    table: &[u8; 128],
) -> (std::arch::x86_64::__m512i, std::arch::x86_64::__m512i) {
    use std::arch::x86_64::*;
    // SAFETY: 64-byte loads at 0 and 64 of a 128-byte array.
    unsafe {
        (
            _mm512_loadu_si512(table.as_ptr().cast()),
            _mm512_loadu_si512(table.as_ptr().add(64).cast()),
        )
    }
}

/// Whether the CPU has the wide loop's instructions (checked once).
#[cfg(target_arch = "x86_64")]
fn wide() -> bool {
    static WIDE: OnceLock<bool> = OnceLock::new();
    *WIDE.get_or_init(avx512)
}

/// Whether the CPU has AVX-512's byte instructions (F and BW, without
/// VBMI's permutes): all the byte searches and the ASCII test need.
fn byte_wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static BYTE_WIDE: OnceLock<bool> = OnceLock::new();
        *BYTE_WIDE.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn classes_avx512(bytes: &[u8], tables: &[[u8; 128]; 2]) -> ([u64; 16], u64) {
    use std::arch::x86_64::*;
    let (v, valid) = load_short(bytes);
    let ((t0lo, t0hi), (t1lo, t1hi)) =
        (load_table(&tables[0]), load_table(&tables[1]));
    // The permute reads an index's low seven bits: a byte of 0x80 or
    // more looks up an ASCII one, and is reported apart.
    let c0 = _mm512_permutex2var_epi8(t0lo, v, t0hi);
    let c1 = _mm512_permutex2var_epi8(t1lo, v, t1hi);
    let mut out = [0u64; 16];
    for (j, m) in out.iter_mut().enumerate() {
        let c = if j < 8 { c0 } else { c1 };
        let bit = _mm512_set1_epi8((1u8 << (j % 8)) as i8);
        *m = _mm512_test_epi8_mask(c, bit) & valid;
    }
    (out, _mm512_movepi8_mask(v) & valid)
}

/// [`classes_avx512`] with the masks read out eight classes at a time:
/// each 8-byte group of a class vector is a matrix of 8 by 8 bits (a
/// byte a row, a class a column), which one GF(2) affine transform
/// turns (GFNI: each result byte `b` the parity of `x_b AND` each row;
/// with `x_b = 1 << b`, row `i`'s bit `b`, the rows taken last first,
/// so the bytes of each group are reversed before the lookup); a byte
/// permute then gathers each class's eight bytes into its mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn classes_gfni(bytes: &[u8], tables: &[[u8; 128]; 2]) -> ([u64; 16], u64) {
    use std::arch::x86_64::*;
    let (v, valid) = load_short(bytes);
    let ((t0lo, t0hi), (t1lo, t1hi)) =
        (load_table(&tables[0]), load_table(&tables[1]));
    // Byte 8g + i from byte 8g + 7 - i.
    let reverse = _mm512_set_epi64(
        0x3839_3a3b_3c3d_3e3f,
        0x3031_3233_3435_3637,
        0x2829_2a2b_2c2d_2e2f,
        0x2021_2223_2425_2627,
        0x1819_1a1b_1c1d_1e1f,
        0x1011_1213_1415_1617,
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
    );
    // Byte 8j + g from byte 8g + j.
    let gather = _mm512_set_epi64(
        0x3f37_2f27_1f17_0f07,
        0x3e36_2e26_1e16_0e06,
        0x3d35_2d25_1d15_0d05,
        0x3c34_2c24_1c14_0c04,
        0x3b33_2b23_1b13_0b03,
        0x3a32_2a22_1a12_0a02,
        0x3931_2921_1911_0901,
        0x3830_2820_1810_0800,
    );
    let columns = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    let r = _mm512_permutexvar_epi8(reverse, v);
    // As in `classes_avx512`: the permute reads an index's low seven
    // bits.
    let c0 = _mm512_permutex2var_epi8(t0lo, r, t0hi);
    let c1 = _mm512_permutex2var_epi8(t1lo, r, t1hi);
    let keep = _mm512_set1_epi64(valid as i64);
    let masks = |c| {
        let t = _mm512_gf2p8affine_epi64_epi8(columns, c, 0);
        _mm512_and_si512(_mm512_permutexvar_epi8(gather, t), keep)
    };
    let mut out = [0u64; 16];
    // SAFETY: two 64-byte stores into the 128 bytes of `out`.
    unsafe {
        _mm512_storeu_si512(out.as_mut_ptr().cast(), masks(c0));
        _mm512_storeu_si512(out.as_mut_ptr().add(8).cast(), masks(c1));
    }
    (out, _mm512_movepi8_mask(v) & valid)
}

/// Whether the CPU has GFNI's affine transform (checked once).
#[cfg(target_arch = "x86_64")]
fn gfni() -> bool {
    static GFNI: OnceLock<bool> = OnceLock::new();
    *GFNI.get_or_init(|| std::arch::is_x86_feature_detected!("gfni"))
}

/// Whether the CPU has AVX2 (checked once).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(avx2)
}

/// Up to 64 bytes as 32-byte vectors: the first 32, and for more than
/// 32 the last 32 (overlapping the first), whose bit `k` stands for
/// byte `k` plus the shift given with it. Fewer than 32 bytes are
/// copied into a zeroed vector (AVX2 has no masked byte load).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn load_halves(
    bytes: &[u8],
) -> (std::arch::x86_64::__m256i, Option<(std::arch::x86_64::__m256i, u32)>) {
    use std::arch::x86_64::*;
    let n = bytes.len();
    debug_assert!(n <= 64);
    if n < 32 {
        let mut buf = [0u8; 32];
        buf[..n].copy_from_slice(bytes);
        // SAFETY: a 32-byte load of a 32-byte array.
        return (unsafe { _mm256_loadu_si256(buf.as_ptr().cast()) }, None);
    }
    // SAFETY: 32-byte loads at 0 and at `n - 32` of `n` bytes, `n >= 32`.
    unsafe {
        let first = _mm256_loadu_si256(bytes.as_ptr().cast());
        let last = (n > 32).then(|| {
            let v = _mm256_loadu_si256(bytes.as_ptr().add(n - 32).cast());
            (v, (n - 32) as u32)
        });
        (first, last)
    }
}

/// A vector's low nibbles, and the bit of each byte's high nibble for
/// [`nibble_table`] lookups (none for a byte of 0x80 or more).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn nibble_parts(
    v: std::arch::x86_64::__m256i,
) -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    let low = _mm256_set1_epi8(0x0F);
    let lo = _mm256_and_si256(v, low);
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low);
    #[rustfmt::skip]
    let bits = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
    );
    (lo, _mm256_shuffle_epi8(bits, hi))
}

/// The positions of the bytes in the set of `nibbles` ([`nibble_table`])
/// of the vector whose [`nibble_parts`] are `lo` and `hi_bits`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn in_set(
    lo: std::arch::x86_64::__m256i,
    hi_bits: std::arch::x86_64::__m256i,
    nibbles: &[u8; 16],
) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: a 16-byte load of a 16-byte array.
    let t = unsafe { _mm_loadu_si128(nibbles.as_ptr().cast()) };
    let t = _mm256_broadcastsi128_si256(t);
    let shared = _mm256_and_si256(_mm256_shuffle_epi8(t, lo), hi_bits);
    let none = _mm256_cmpeq_epi8(shared, _mm256_setzero_si256());
    !(_mm256_movemask_epi8(none) as u32)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn ascii_run_avx2(bytes: &[u8], nibbles: &[u8; 16]) -> usize {
    let n = bytes.len();
    let (first, last) = load_halves(bytes);
    let (lo, hi) = nibble_parts(first);
    let head = in_set(lo, hi, nibbles);
    if head != u32::MAX {
        return (head.trailing_ones() as usize).min(n);
    }
    let Some((v, shift)) = last else { return n.min(32) };
    let (lo, hi) = nibble_parts(v);
    let inside = u64::from(head) | u64::from(in_set(lo, hi, nibbles)) << shift;
    (inside.trailing_ones() as usize).min(n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn classes_avx2(bytes: &[u8], tables: &ByteTables<16>) -> ([u64; 16], u64) {
    use std::arch::x86_64::*;
    let n = bytes.len();
    let valid = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let (first, last) = load_halves(bytes);
    // Each class's mask over both halves in one go, so that its table
    // or byte is loaded once and its mask written once; the classes
    // from `single` on are empty. Only one half of fewer than 32 bytes
    // has lanes past them (zeroed), which `valid` clears.
    let (lo, hi) = nibble_parts(first);
    let mut out = [0u64; 16];
    let (general, single) = (tables.general, tables.single);
    let (nibbled, ones) = out[..single].split_at_mut(general);
    let nibbled = nibbled.iter_mut().zip(&tables.nibbles);
    let ones = ones.iter_mut().zip(&tables.byte[general..]);
    let mut high = u64::from(_mm256_movemask_epi8(first) as u32);
    match last {
        None => {
            for (m, nib) in nibbled {
                *m = u64::from(in_set(lo, hi, nib)) & valid;
            }
            for (m, &b) in ones {
                let eq = _mm256_cmpeq_epi8(first, _mm256_set1_epi8(b as i8));
                *m = u64::from(_mm256_movemask_epi8(eq) as u32) & valid;
            }
        }
        Some((v, shift)) => {
            let (lo2, hi2) = nibble_parts(v);
            for (m, nib) in nibbled {
                *m = u64::from(in_set(lo, hi, nib))
                    | u64::from(in_set(lo2, hi2, nib)) << shift;
            }
            for (m, &b) in ones {
                let b = _mm256_set1_epi8(b as i8);
                let eq = |v| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, b));
                *m = u64::from(eq(first) as u32)
                    | u64::from(eq(v) as u32) << shift;
            }
            high |= u64::from(_mm256_movemask_epi8(v) as u32) << shift;
        }
    }
    (out, high & valid)
}

/// The index in [`Sieve::pairs`] of the bytes `second` and `last` (in
/// either case; a byte that is no letter counts as 26, which no pair
/// uses).
fn pair_index(second: u8, last: u8) -> usize {
    usize::from(LETTER[usize::from(second)]) * 27
        + usize::from(LETTER[usize::from(last)])
}

/// By byte: an ASCII letter's place in the alphabet in either case
/// (0 to 25), and 26 for every other byte.
static LETTER: [u8; 256] = {
    let mut t = [26; 256];
    let mut c = 0;
    while c < 26 {
        t[b'a' as usize + c] = c as u8;
        t[b'A' as usize + c] = c as u8;
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfind_in_is_the_byte_loop() {
        let mut table = [0u8; 128];
        for &b in b" \t<\"" {
            table[usize::from(b)] = 1;
        }
        let bytes: [u8; 6] = [b'a', b' ', b'<', b'"', 0xA0, 0xBC];
        let mut next = crate::testing::xorshift(0x5107_0b17);
        for len in 0..300 {
            for _ in 0..20 {
                let hay: Vec<u8> = (0..len)
                    .map(|_| match next() % 16 {
                        0 => bytes[(next() % 6) as usize],
                        _ => b'x',
                    })
                    .collect();
                let want = hay
                    .iter()
                    .rposition(|&b| b < 128 && table[usize::from(b)] != 0);
                assert_eq!(rfind_in(&hay, &table), want, "{hay:?}");
            }
        }
    }

    /// The AVX2 and AVX-512 lookups (with and without GFNI, as far as
    /// the CPU has them; `ascii_run` as it picks) against the tables, at
    /// every length to 64: random tables, bytes of every value.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn vector_lookups_agree_with_the_tables() {
        if !avx2() {
            return;
        }
        let mut next = crate::testing::xorshift(0x00a5_c20b_177a_b1e5);
        for round in 0..80 {
            let mut t = [[0u8; 128]; 2];
            for b in t.iter_mut().flatten() {
                *b = next() as u8 & next() as u8;
            }
            // Half the rounds: classes of many bytes, then of one byte
            // each, then empty ones (looked for each their own way).
            let mut ones = Vec::new();
            let (mut general, mut single) = (16, 16);
            if round % 2 == 1 {
                general = next() as usize % 17;
                single = general + next() as usize % (17 - general);
                for j in general..16 {
                    for b in &mut t[j / 8] {
                        *b &= !(1 << (j % 8));
                    }
                    if j < single {
                        let b = next() as usize % 128;
                        t[j / 8][b] |= 1 << (j % 8);
                        ones.push(b as u8);
                    }
                }
            }
            // A dense set and a sparse one.
            let mut set = [0u8; 128];
            for b in &mut set {
                *b = u8::from(next() % 8 < if round % 4 < 2 { 7 } else { 1 });
            }
            let classes = ByteTables::new(t);
            assert_eq!((classes.general, classes.single), (general, single));
            // Out of that order, every class is looked up by nibble: a
            // class of one byte before one of two, an empty class
            // before one of two.
            for (j, k) in [(0, 1), (14, 15)] {
                let mut u = [[0u8; 128]; 2];
                for (b, row) in [(b'a', j), (b'b', k), (b'c', k)] {
                    u[row / 8][usize::from(b)] |= 1 << (row % 8);
                }
                if j == 14 {
                    // Classes 0 to 13 of many bytes, 14 empty, 15 of two.
                    for row in 0..14 {
                        u[row / 8][usize::from(b'x')] |= 1 << (row % 8);
                        u[row / 8][usize::from(b'y')] |= 1 << (row % 8);
                    }
                    u[1][usize::from(b'a')] &= !(1 << 6);
                }
                assert_eq!(ByteTables::new(u).shape(), (16, 16), "{j} {k}");
            }
            let single = ByteTables::set(set);
            for len in 0..=64usize {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| match ones.len() {
                        m if m > 0 && next().is_multiple_of(4) => {
                            ones[next() as usize % m]
                        }
                        _ => next() as u8,
                    })
                    .collect();
                let in_class = |j: usize, b: u8| {
                    b < 128 && t[j / 8][usize::from(b)] & (1 << (j % 8)) != 0
                };
                // SAFETY: `avx2()` says the CPU has AVX2.
                let (got, high) = unsafe { classes_avx2(&bytes, &classes) };
                for (j, &mask) in got.iter().enumerate() {
                    let want = (0..len)
                        .filter(|&k| in_class(j, bytes[k]))
                        .fold(0u64, |m, k| m | 1 << k);
                    assert_eq!(mask, want, "class {j} of {bytes:?}");
                }
                let want = (0..len)
                    .filter(|&k| bytes[k] >= 128)
                    .fold(0u64, |m, k| m | 1 << k);
                assert_eq!(high, want, "{bytes:?}");
                if avx512() {
                    // A byte of 0x80 or more in the classes of its low
                    // seven bits, as AVX-512's lookups put it.
                    let low = |j: usize, k: usize| in_class(j, bytes[k] & 127);
                    // SAFETY: `avx512()` says the CPU has AVX-512F,
                    // AVX-512BW and AVX-512VBMI.
                    let wide = unsafe { classes_avx512(&bytes, &t) };
                    for (j, &mask) in wide.0.iter().enumerate() {
                        let want = (0..len)
                            .filter(|&k| low(j, k))
                            .fold(0u64, |m, k| m | 1 << k);
                        assert_eq!(mask, want, "class {j} of {bytes:?}");
                    }
                    assert_eq!(wide.1, high, "{bytes:?}");
                    if gfni() {
                        // SAFETY: and `gfni()` that it has GFNI.
                        let got = unsafe { classes_gfni(&bytes, &t) };
                        assert_eq!(got, wide, "{bytes:?}");
                    }
                }
                // Runs: mostly members, so that runs reach the far half.
                let members: Vec<u8> =
                    (0..128u8).filter(|&c| set[usize::from(c)] != 0).collect();
                let run_bytes: Vec<u8> = bytes
                    .iter()
                    .map(|&b| match members.len() {
                        0 => b,
                        m if !next().is_multiple_of(16) => {
                            members[next() as usize % m]
                        }
                        _ => b,
                    })
                    .collect();
                let want = run_bytes
                    .iter()
                    .take_while(|&&b| b < 128 && set[usize::from(b)] != 0)
                    .count();
                if len >= 32 {
                    // SAFETY: `avx2()` says the CPU has AVX2.
                    let got = unsafe {
                        ascii_run_avx2(&run_bytes, &single.nibbles[0])
                    };
                    assert_eq!(got, want, "{run_bytes:?}");
                }
                if let Some(got) = ascii_run(&run_bytes, &single) {
                    assert_eq!(got, want, "{run_bytes:?}");
                }
            }
        }
    }

    /// Both loops the CPU can run, whichever `sieve()` picks.
    fn both_loops() -> Vec<Sieve> {
        let mut loops = Vec::new();
        for wide in [false, true] {
            if !wide || avx512() {
                let mut s = Sieve::new(colon_words()).unwrap();
                s.wide = wide;
                loops.push(s);
            }
        }
        loops
    }

    /// Every colon kept by the exact test, one by one.
    fn by_colon(s: &Sieve, hay: &[u8], from: usize, to: usize) -> Vec<usize> {
        (from..to).filter(|&i| hay[i] == b':' && s.keeps(hay, i)).collect()
    }

    /// `ascii_str` against `is_ascii` at every length to 130, with one
    /// byte of 0x80 or more at each place in turn and none at all.
    #[test]
    fn ascii_str_agrees_with_is_ascii() {
        let hay: Vec<u8> = (0..200u8).map(|i| b'!' + i % 90).collect();
        for len in 0..130 {
            for at in 0..=len {
                let mut b = hay[..len].to_vec();
                if at < len {
                    b[at] = 0x80 | (at as u8);
                }
                let want =
                    b.is_ascii().then(|| std::str::from_utf8(&b).unwrap());
                assert_eq!(ascii_str(&b), want, "{len} {at}");
                #[cfg(target_arch = "x86_64")]
                if len <= 64 {
                    assert_eq!(ascii_short(&b), b.is_ascii(), "{len} {at}");
                }
            }
        }
    }

    #[test]
    fn utf8_agrees_with_std() {
        // A byte that is not ASCII, or a broken sequence, at every place
        // of every length to 300, after ASCII.
        let pieces: [&[u8]; 4] =
            [b"\xC3\xA9", b"\xE2\x82\xAC", b"\xC3", b"\x80"];
        for len in 0..300usize {
            for at in 0..=len {
                for piece in pieces {
                    let mut b: Vec<u8> =
                        (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if at < len {
                        b.splice(at..at, piece.iter().copied());
                    }
                    let want = std::str::from_utf8(&b).ok();
                    assert_eq!(utf8(&b), want, "{len} {at} {piece:?}");
                    let owned = utf8_string(b.clone());
                    assert_eq!(owned.as_deref().ok(), want, "{len} {at}");
                    let ascii = b
                        .iter()
                        .position(|x| !x.is_ascii())
                        .unwrap_or(b.len());
                    assert_eq!(ascii_prefix(&b).len(), ascii, "{len} {at}");
                    assert_eq!(ascii_prefix_by_16(&b), ascii, "{len} {at}");
                    #[cfg(target_arch = "x86_64")]
                    if has_avx2() {
                        let want = b.iter().position(|x| !x.is_ascii());
                        // SAFETY: `has_avx2()` says the CPU has AVX2.
                        let ascii = unsafe { ascii_prefix_avx2(&b) };
                        assert_eq!(
                            ascii,
                            want.unwrap_or(b.len()),
                            "{len} {at}"
                        );
                    }
                }
            }
        }
    }

    /// The AVX2 path of [`find`] whatever the CPU prefers, and for fewer
    /// than 16 bytes the word path, find `want` in `b`.
    fn short_paths_find<const TWO: bool>(
        b: &[u8],
        (x, y): (u8, u8),
        want: Option<usize>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: `has_avx2()` says the CPU has AVX2.
            let avx2 = unsafe { find_avx2::<TWO>(b, x, y) };
            assert_eq!(avx2, want, "avx2 {x} {y} {b:?}");
        }
        if b.len() < 16 {
            let short = find_short::<TWO>(b, x, y);
            assert_eq!(short, want, "short {x} {y} {b:?}");
        }
    }

    #[test]
    fn find_byte_agrees_with_a_byte_loop() {
        // The byte sought (and a second copy after it) at every place of
        // every length to 320, or absent; NUL too, which the zeroed
        // bytes of a short load must not match, and a byte not ASCII.
        for c in [b'<', 0, 0xFF] {
            for len in 0..320usize {
                for at in 0..=len {
                    let mut b: Vec<u8> =
                        (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if at < len {
                        b[at] = c;
                        if at + 3 < len {
                            b[at + 3] = c;
                        }
                    }
                    let want = b.iter().position(|&x| x == c);
                    assert_eq!(find_byte(&b, c), want, "{c} {len} {at}");
                    short_paths_find::<false>(&b, (c, c), want);
                    let all: Vec<usize> =
                        (0..len).filter(|&i| b[i] == c).collect();
                    let found: Vec<usize> = byte_positions(&b, c).collect();
                    assert_eq!(found, all, "{c} {len} {at}");
                }
            }
        }
    }

    #[test]
    fn find_either_agrees_with_memchr2() {
        // Either byte sought (or both, or the same twice) at every two
        // places of every length to 300, or absent; NUL and a byte not
        // ASCII too.
        let pairs = [(b'"', b'>'), (b':', b'&'), (0, 0xFF), (b'x', b'x')];
        for (a, c) in pairs {
            for len in 0..300usize {
                for (at, bt) in [(0, 0), (1, 0), (len / 2, len / 3)]
                    .into_iter()
                    .chain((0..len).map(|k| (k, len)))
                    .chain((0..len).map(|k| (len, k)))
                {
                    let mut b: Vec<u8> =
                        (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if at < len {
                        b[at] = a;
                    }
                    if bt < len {
                        b[bt] = c;
                    }
                    let want = memchr::memchr2(a, c, &b);
                    assert_eq!(find_either(&b, a, c), want, "{len} {at} {bt}");
                    short_paths_find::<true>(&b, (a, c), want);
                }
            }
        }
    }

    #[test]
    fn marks_agree_with_a_byte_loop() {
        let alphabet = [b'a', b':', b'=', 0x80, 0xFF, 0, b'?', b'/'];
        let mut next = crate::testing::xorshift(0x3a3d_0080);
        for len in 0..300usize {
            for _ in 0..20 {
                // Sparse marks and dense ones.
                let dense = next().is_multiple_of(2);
                let b: Vec<u8> = (0..len)
                    .map(|_| {
                        let r = next() as usize;
                        if dense || r.is_multiple_of(16) {
                            alphabet[r / 16 % 8]
                        } else {
                            b'x'
                        }
                    })
                    .collect();
                let want: Vec<usize> = (0..len)
                    .filter(|&i| {
                        matches!(b[i], b':' | b'=') || !b[i].is_ascii()
                    })
                    .collect();
                let got: Vec<usize> = marks(&b, b':', b'=').collect();
                assert_eq!(got, want, "{b:?}");
                // The path without AVX-512, whatever this CPU has.
                let head = b.get(..64).unwrap_or(&b);
                let want: u64 = want
                    .iter()
                    .filter(|&&i| i < 64)
                    .fold(0, |m, &i| m | 1 << i);
                let scalar = window_marks_scalar(head, b':', b'=');
                assert_eq!(scalar, want, "{b:?}");
                #[cfg(target_arch = "x86_64")]
                if has_avx2() {
                    // SAFETY: the CPU has AVX2.
                    let avx2 = unsafe { window_marks_avx2(head, b':', b'=') };
                    assert_eq!(avx2, want, "{b:?}");
                    // A zero byte is a mark only where the window has one.
                    // SAFETY: the CPU has AVX2.
                    let zeros = unsafe { window_marks_avx2(head, 0, b'=') };
                    let want = (0..head.len())
                        .filter(|&i| {
                            matches!(head[i], 0 | b'=') || !head[i].is_ascii()
                        })
                        .fold(0, |m, i| m | 1 << i);
                    assert_eq!(zeros, want, "{b:?}");
                }
            }
        }
    }

    #[test]
    fn keeps_scheme_colons_in_any_case() {
        let s = Sieve::new(["mailto", "news", "url"].into_iter()).unwrap();
        let hay = b"x mailto:a MAILTO:b MaIlTo:c news: URL: ab:c d:/e f:g";
        let kept: Vec<&str> = by_colon(&s, hay, 0, hay.len())
            .iter()
            .map(|&i| std::str::from_utf8(&hay[i - 2..=i]).unwrap())
            .collect();
        assert_eq!(kept, ["to:", "TO:", "To:", "ws:", "RL:", " d:"]);
    }

    /// Every pair of bytes before a colon (not followed by `/`): kept
    /// exactly when some name ends in those two bytes, in either case.
    #[test]
    fn keeps_every_pair_that_ends_a_name() {
        let names: Vec<&str> = crate::scheme::colon_words().collect();
        let s = Sieve::new(names.iter().copied()).unwrap();
        let ends = |pair: &[u8]| {
            names.iter().any(|n| {
                n.len() >= 2
                    && n.as_bytes()[n.len() - 2..].eq_ignore_ascii_case(pair)
            })
        };
        let mut kept = 0;
        for second in 0..=255u8 {
            for last in 0..=255u8 {
                let hay = [second, last, b':', b'x'];
                assert_eq!(
                    s.keeps(&hay, 2),
                    ends(&hay[..2]),
                    "{second:#04x} {last:#04x}"
                );
                kept += usize::from(s.keeps(&hay, 2));
            }
        }
        assert!(kept >= 4 * 10, "{kept}");
    }

    #[test]
    fn rejects_names_it_cannot_table() {
        assert!(Sieve::new(["x"].into_iter()).is_none());
        assert!(Sieve::new(["a1"].into_iter()).is_none());
    }

    #[test]
    fn the_loops_stop_at_the_first_nul_byte() {
        if !avx2() {
            return;
        }
        let loops = both_loops();
        // NUL bytes come only at the rate of each trial.
        let bytes = b"::/ToRLwsa\xffmailto:x://";
        let mut next = crate::testing::xorshift(0x0000_0a11);
        for s in &loops {
            for trial in 0..2000 {
                // Short ranges with many NUL bytes, and ranges over more
                // than one window (of 64 steps) with few: a NUL byte in
                // any step of a window.
                let (most, rate) = match trial % 3 {
                    0 => (600, 15),
                    1 => (6000, 1000),
                    _ => (9000, 5000),
                };
                let len = next() as usize % most;
                let mut hay: Vec<u8> = (0..len)
                    .map(|_| match next() % rate {
                        0 => 0,
                        k => bytes[k as usize % bytes.len()],
                    })
                    .collect();
                if next().is_multiple_of(2) {
                    hay.retain(|&b| b != 0);
                }
                let from = next() as usize % (hay.len() + 1);
                let to = from + next() as usize % (hay.len() + 1 - from);
                let nul = memchr::memchr(0, &hay[from..to]).map(|k| from + k);
                let mut got = Vec::new();
                let at =
                    s.for_each_before_nul(&hay, from, to, |i| got.push(i));
                let want = by_colon(s, &hay, from, nul.unwrap_or(to));
                assert_eq!(
                    (got, at),
                    (want, nul),
                    "wide {} {hay:?} {from}..{to}",
                    s.wide
                );
            }
        }
    }

    #[test]
    fn the_vector_loops_agree_with_the_exact_test() {
        if !avx2() {
            return;
        }
        let loops = both_loops();
        // Every byte class next to colons, at every alignment and range
        // (bytes of 0x80 and more whose low seven or six bits are letters
        // too, and bytes below 0x40 whose low six bits are).
        let mut hay = Vec::new();
        let bytes = b"::/ToRLwsaAdD`{@[\x7f\xff\xf4\xef\xd3\xf7\xe404!-mailto:news:URL:x://";
        let mut x: u32 = 12345;
        for _ in 0..4096 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            hay.push(bytes[(x >> 16) as usize % bytes.len()]);
        }
        for s in &loops {
            for from in [0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 100] {
                for to in [
                    0, 1, 2, 40, 64, 65, 66, 4000, 4031, 4032, 4063, 4064,
                    4095, 4096,
                ] {
                    let mut got = Vec::new();
                    s.for_each(&hay, from, to, |i| got.push(i));
                    let want = by_colon(s, &hay, from, to.max(from));
                    assert_eq!(
                        got, want,
                        "wide {} from {from} to {to}",
                        s.wide
                    );
                }
            }
        }
        // One colon at every place relative to the vector steps, its
        // letters before it in the same step or across the step's start,
        // or a `/` after it.
        for word in [&b"To:"[..], b"ws:", b"x:/"] {
            for at in 2..260 {
                let mut hay = vec![b' '; 400];
                hay[at - 2..at + 1].copy_from_slice(word);
                for s in &loops {
                    for from in [0, 1, 2, 3, 33, 64, 65] {
                        let mut got = Vec::new();
                        s.for_each(&hay, from, hay.len(), |i| got.push(i));
                        let want = by_colon(s, &hay, from, hay.len());
                        assert_eq!(got, want, "wide {} at {at}", s.wide);
                    }
                }
            }
        }
    }
}

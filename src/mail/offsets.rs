//! Offset maps: from byte offsets in a decoded text back to byte offsets
//! in the raw message, kept compact whatever the decoding (runs copied,
//! characters of one width, encoded words, charset conversions).

/// Map from byte offsets in a piece's text to byte offsets in the raw
/// message.
///
/// Stored compactly as a sorted list of anchors: from an anchor's text
/// offset on, offsets either advance with the raw offsets (a run copied
/// unchanged), advance in characters of one width (two raw bytes for
/// each ASCII character in UTF-16, three for each quoted-printable
/// escape of ASCII, one raw byte for each two-byte character of a
/// single-byte charset), all map to one raw offset (an encoded word, a
/// base64 part), or follow a run of characters of mixed widths, one
/// byte each in a side table (text converted from a charset). Its size
/// is at most about one byte per character converted, whatever the
/// text; a run of characters of one width is one anchor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OffsetMap {
    anchors: Vec<Anchor>,
    /// The characters of the mixed runs: raw width << 3 | text width.
    chars: Vec<u8>,
}

/// Most characters in one mixed run: a lookup walks at most this many.
const RUN_CHARS: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Anchor {
    text: usize,
    raw: usize,
    /// With `den` > 0: from here on, each character of `den` text bytes
    /// came from `num` raw bytes, and all its bytes map to its first raw
    /// byte: (0, 1) all text maps to `raw`, (1, 1) copied unchanged,
    /// (2, 1) ASCII in UTF-16, (3, 1) quoted-printable escapes of ASCII.
    /// With `den` 0: a mixed run, whose characters are
    /// `OffsetMap::chars` from `run` on.
    num: u8,
    den: u8,
    run: u32,
}

/// A character of a mixed run: `raw` bytes that became `text` bytes;
/// `None` when it does not fit in a byte.
fn char_code(raw: usize, text: usize) -> Option<u8> {
    (raw < 32 && (1..8).contains(&text)).then_some((raw << 3 | text) as u8)
}

impl Anchor {
    pub(crate) fn ratio(text: usize, raw: usize, num: u8, den: u8) -> Anchor {
        Anchor { text, raw, num, den: den.max(1), run: 0 }
    }

    /// The raw offset of text offset `t`, for an anchor of one width.
    pub(crate) fn raw_at(&self, t: usize) -> usize {
        let chars = t.saturating_sub(self.text) / usize::from(self.den.max(1));
        self.raw.saturating_add(chars.saturating_mul(usize::from(self.num)))
    }
}

impl OffsetMap {
    /// The byte offset in the raw message of the text's byte at
    /// `text_offset`.
    ///
    /// Exact for text copied unchanged (7bit, 8bit, ASCII runs of an
    /// ASCII-compatible charset) and for quoted-printable (each decoded
    /// byte maps to its first raw byte: the `=` of `=3D`). A character
    /// converted from another charset maps to its first raw byte (in
    /// UTF-16 its first code unit; in ISO-2022-JP, ISO-2022-KR and HZ
    /// its first byte after the escape or shift that selected its set);
    /// text from an RFC 2047 encoded word maps to the word's `=?`; all
    /// the text of a base64 part maps to its first body line. An offset
    /// at or past the end of the text (a URL's end) continues the last
    /// run.
    pub fn raw_offset(&self, text_offset: usize) -> usize {
        let idx = self.anchors.partition_point(|a| a.text <= text_offset);
        match idx.checked_sub(1).and_then(|i| self.anchors.get(i)) {
            Some(a) => self.raw_in(a, text_offset),
            None => text_offset,
        }
    }

    /// The raw offset one past the text's bytes before `text_end`: the
    /// run of the byte before it goes on, past it, even where the next
    /// byte's run starts further on (after a quoted-printable soft line
    /// break, say). Where a text that ends at `text_end` ends (a URL's
    /// end at the end of its text).
    pub(crate) fn raw_end(&self, text_end: usize) -> usize {
        let idx = self.anchors.partition_point(|a| a.text < text_end);
        match idx.max(1).checked_sub(1).and_then(|i| self.anchors.get(i)) {
            Some(a) => self.raw_in(a, text_end),
            None => text_end,
        }
    }

    /// The raw offset of text offset `t` under anchor `a`.
    fn raw_in(&self, a: &Anchor, t: usize) -> usize {
        if a.den > 0 {
            return a.raw_at(t);
        }
        let (mut at, mut raw) = (a.text, a.raw);
        let from = a.run as usize;
        for &c in self.chars.get(from..).unwrap_or(&[]).iter().take(RUN_CHARS)
        {
            let (r, w) = (usize::from(c >> 3), usize::from(c & 7));
            if t < at + w {
                break;
            }
            at += w;
            raw += r;
        }
        raw
    }

    /// How many anchors the map holds (a measure of its size).
    pub fn anchor_count(&self) -> usize {
        self.anchors.len()
    }

    /// The map of text copied unchanged from `raw_start` on.
    pub(super) fn linear_from(raw_start: usize) -> OffsetMap {
        let linear = Anchor::ratio(0, raw_start, 1, 1);
        OffsetMap { anchors: vec![linear], chars: Vec::new() }
    }

    /// The map of text that all maps to `raw`.
    pub(super) fn constant(raw: usize) -> OffsetMap {
        let constant = Anchor::ratio(0, raw, 0, 1);
        OffsetMap { anchors: vec![constant], chars: Vec::new() }
    }

    /// The characters of the mixed run of `a`, up to text offset `end`:
    /// (text offset, raw offset, raw width, text width) each.
    fn run_chars(
        &self,
        a: &Anchor,
        end: usize,
    ) -> impl Iterator<Item = (usize, usize, usize, usize)> + '_ {
        let (mut at, mut raw) = (a.text, a.raw);
        let from = a.run as usize;
        self.chars.get(from..).unwrap_or(&[]).iter().take(RUN_CHARS).map_while(
            move |&c| {
                let (r, w) = (usize::from(c >> 3), usize::from(c & 7));
                (at < end).then(|| {
                    let this = (at, raw, r, w);
                    at += w;
                    raw += r;
                    this
                })
            },
        )
    }

    /// This map (text -> mid) followed by `inner` (mid -> raw), for a
    /// text of `len` bytes. The inner maps (quoted-printable, yEnc,
    /// unfolding, `format=flowed`) have runs of one width only. Where
    /// this text is the mid text unchanged, `inner`'s anchors are kept
    /// where they are.
    pub(crate) fn then(&self, len: usize, mut inner: OffsetMap) -> OffsetMap {
        match self.inner_kept(len, &inner) {
            Some(keep) => {
                inner.anchors.truncate(keep);
                inner.chars = Vec::new();
                inner
            }
            None => self.then_changed(len, &inner),
        }
    }

    /// [`OffsetMap::then`] where [`OffsetMap::inner_kept`] keeps nothing.
    fn then_changed(&self, len: usize, inner: &OffsetMap) -> OffsetMap {
        match inner.constant_raw() {
            // All the mid text maps to one place (a base64 part): so
            // does this text, however it maps to the mid text.
            Some(raw) => OffsetMap::constant(raw),
            None => self.composed(len, inner),
        }
    }

    /// The one raw offset all of this map's text maps to, if it is one
    /// constant.
    fn constant_raw(&self) -> Option<usize> {
        match self.anchors[..] {
            [only] if (only.text, only.num) == (0, 0) && only.den > 0 => {
                Some(only.raw)
            }
            _ => None,
        }
    }

    /// Where [`OffsetMap::then`] is `inner` itself up to the text's end,
    /// how many of its anchors that keeps: where this text is the mid
    /// text unchanged (UTF-8 or ASCII after a transfer encoding,
    /// unfolding, yEnc or flowed lines were undone) and `inner` is not
    /// one constant (a base64 part, whose text all maps to it).
    fn inner_kept(&self, len: usize, inner: &OffsetMap) -> Option<usize> {
        let unchanged = len > 0
            && inner.constant_raw().is_none()
            && self.anchors[..] == [Anchor::ratio(0, 0, 1, 1)]
            && self.chars.is_empty()
            && inner.anchors.first().is_some_and(|a| a.text == 0)
            && inner.anchors.iter().all(|a| a.den == 1);
        unchanged
            .then(|| inner.anchors.partition_point(|a| a.text < len).max(1))
    }

    /// [`OffsetMap::then`] anchor by anchor (what its shortcut for text
    /// copied unchanged must agree with).
    pub(crate) fn composed(&self, len: usize, inner: &OffsetMap) -> OffsetMap {
        if let [only] = inner.anchors[..]
            && (only.text, only.num, only.den) == (0, 1, 1)
        {
            // Inner text copied unchanged from `only.raw` on (a part in
            // 7bit or 8bit): this map, moved.
            let mut moved = self.clone();
            for a in &mut moved.anchors {
                a.raw = a.raw.saturating_add(only.raw);
            }
            return moved;
        }
        let mut b = MapBuilder::default();
        for (k, a) in self.anchors.iter().enumerate() {
            let end = self.anchors.get(k + 1).map_or(len, |n| n.text);
            // The end of the text (where a URL at its end ends) is no
            // next anchor's start: the last anchor maps it itself.
            let ends_text = k + 1 == self.anchors.len();
            if a.den == 0 {
                // Character by character: each maps to where its first
                // mid byte maps.
                // The inner anchors are walked along (mid offsets only
                // grow), not searched for each character.
                let mut k = inner.anchors.partition_point(|x| x.text <= a.raw);
                let mut inner_at = |mid: usize| {
                    while inner.anchors.get(k).is_some_and(|x| x.text <= mid) {
                        k += 1;
                    }
                    match k.checked_sub(1).and_then(|i| inner.anchors.get(i)) {
                        Some(x) => inner.raw_in(x, mid),
                        None => mid,
                    }
                };
                let (mut raw, mut mid_end) = (None, None);
                for (t, mid, r, w) in self.run_chars(a, end) {
                    let at = raw.unwrap_or_else(|| inner_at(mid));
                    let next = inner_at(mid + r);
                    b.push_char(t, at, next.saturating_sub(at), w);
                    (raw, mid_end) = (Some(next), Some(mid + r));
                }
                // Past the last character of the text: where its last
                // mid byte ends, not where the next mid byte starts (a
                // trailing ISO-2022-JP escape after a soft line break),
                // also when the character was too wide for the run (an
                // anchor of its own, which maps to its start).
                if ends_text && let Some(mid_end) = mid_end {
                    b.end_at(end, inner.raw_end(mid_end));
                }
                continue;
            }
            if a.num == 0 || end <= a.text {
                // An anchor of the text's end past where its last
                // character starts: where the mid bytes before it end,
                // not after a soft line break that follows them.
                let past_last = ends_text
                    && a.text == len
                    && len > 0
                    && a.raw != self.raw_offset(len - 1);
                let raw = if past_last {
                    inner.raw_end(a.raw)
                } else {
                    inner.raw_offset(a.raw)
                };
                b.push(a.text, raw, false);
                continue;
            }
            let (n, d) = (usize::from(a.num), usize::from(a.den));
            let mid_end = a.raw_at(end);
            let first = inner.anchors.partition_point(|x| x.text <= a.raw);
            let inner_num = first
                .checked_sub(1)
                .and_then(|i| inner.anchors.get(i))
                .map_or(1, |x| x.num);
            b.push_ratio(
                a.text,
                inner.raw_offset(a.raw),
                a.num.saturating_mul(inner_num),
                a.den,
            );
            for x in inner.anchors.iter().skip(first) {
                if x.text >= mid_end {
                    break;
                }
                debug_assert_eq!(x.den, 1, "an inner map of one width");
                // The first character whose mid offset is in x's run (a
                // run that starts inside a character takes the next).
                let t = a.text + (x.text - a.raw).div_ceil(n) * d;
                if t >= end {
                    // x starts inside the last character, whose mid bytes
                    // are not all of the run it starts in: past it, at
                    // the end of the text, the run of its last mid byte
                    // goes on (a Shift_JIS pair `=96{`, its first byte
                    // escaped, its second, ASCII, not).
                    if ends_text {
                        b.end_at(end, inner.raw_end(mid_end));
                    }
                    break;
                }
                // (If a later inner anchor starts before this character
                // too, its turn replaces this anchor.)
                let raw = inner.raw_in(x, a.raw_at(t));
                b.push_ratio(t, raw, a.num.saturating_mul(x.num), a.den);
            }
        }
        b.finish(inner.raw_offset(0))
    }
}

/// Builds an [`OffsetMap`] from anchors pushed in text order, dropping
/// the ones that continue the previous run.
#[derive(Default)]
pub(crate) struct MapBuilder {
    map: OffsetMap,
    /// Where the last anchor's mixed run ends (text, raw) and how many
    /// characters it has, while it is the last anchor.
    run_end: Option<(usize, usize, usize)>,
    /// Where the next character of the last anchor's run of one width
    /// (`num` raw bytes to `den` text bytes) starts, while the last
    /// character pushed was one of that run: (text, raw, num, den).
    next_char: Option<(usize, usize, u8, u8)>,
}

impl MapBuilder {
    /// A builder with room for `anchors` anchors at once.
    pub(super) fn with_capacity(anchors: usize) -> MapBuilder {
        let map = OffsetMap {
            anchors: Vec::with_capacity(anchors),
            chars: Vec::new(),
        };
        MapBuilder { map, ..MapBuilder::default() }
    }

    /// From `text` on, text maps to `raw`: advancing with it (`linear`)
    /// or all to `raw`.
    #[inline]
    pub(super) fn push(&mut self, text: usize, raw: usize, linear: bool) {
        self.push_ratio(text, raw, u8::from(linear), 1);
    }

    /// One character of `text_len` bytes at `text`, converted from the
    /// `raw_len` raw bytes at `raw`: characters of one width in a row
    /// make one anchor, others a mixed run. All its bytes map to its
    /// first raw byte.
    ///
    /// A character right after the previous one, in the same run, takes
    /// a few comparisons: converted text is mostly such characters.
    #[inline]
    pub(super) fn push_char(
        &mut self,
        text: usize,
        raw: usize,
        raw_len: usize,
        text_len: usize,
    ) {
        if let Some((t, r, num, den)) = self.next_char
            && (t, r) == (text, raw)
            && (usize::from(num), usize::from(den)) == (raw_len, text_len)
        {
            // On the lattice of the last anchor: the run goes on.
            self.next_char = Some((t + text_len, r + raw_len, num, den));
            return;
        }
        // While `run_end` is set, the last anchor is its mixed run, so
        // no run of one width can go on.
        if let Some(code) = char_code(raw_len, text_len)
            && self.extend_mixed_run(text, raw, raw_len, text_len, code)
        {
            return;
        }
        self.push_char_slow(text, raw, raw_len, text_len);
    }

    /// Appends a character (`code` its entry) to the last anchor's mixed
    /// run where that run ends at it and has room: whether it did.
    #[inline]
    fn extend_mixed_run(
        &mut self,
        text: usize,
        raw: usize,
        raw_len: usize,
        text_len: usize,
        code: u8,
    ) -> bool {
        match self.run_end {
            Some((t, r, n)) if (t, r) == (text, raw) && n < RUN_CHARS => {
                self.map.chars.push(code);
                self.run_end = Some((text + text_len, raw + raw_len, n + 1));
                true
            }
            _ => false,
        }
    }

    /// [`MapBuilder::push_char`] for a character that does not simply
    /// continue the last run.
    #[inline(never)]
    fn push_char_slow(
        &mut self,
        text: usize,
        raw: usize,
        raw_len: usize,
        text_len: usize,
    ) {
        let (num, den) = (u8::try_from(raw_len), u8::try_from(text_len));
        let last = self.map.anchors.last().copied();
        if let (Some(l), Ok(num), Ok(den)) = (last, num, den)
            && l.den > 0
            && l.den == den
            && l.num == num
            && text >= l.text
            && (text - l.text).is_multiple_of(usize::from(den))
            && l.raw_at(text) == raw
        {
            // The run of one width goes on.
            self.next_char = Some((text + text_len, raw + raw_len, num, den));
            return;
        }
        let Some(code) = char_code(raw_len, text_len) else {
            self.push_ratio(text, raw, 0, 1);
            return;
        };
        if self.extend_mixed_run(text, raw, raw_len, text_len, code) {
            return;
        }
        // A lone character of one width before this one: a mixed run
        // from there.
        if let Some(l) = last
            && l.den > 0
            && l.num > 0
            && l.raw_at(text) == raw
            && text == l.text + usize::from(l.den)
            && let Some(first) = char_code(usize::from(l.num), text - l.text)
        {
            self.map.anchors.pop();
            self.start_run(l.text, l.raw, first);
            self.map.chars.push(code);
            self.run_end = Some((text + text_len, raw + raw_len, 2));
            return;
        }
        match (num, den) {
            (Ok(num), Ok(den)) => {
                self.push_ratio(text, raw, num, den);
                // `den` is at least 1 here (`char_code` took the text
                // width), and the last anchor is a run of this width
                // with the character on it.
                self.next_char =
                    Some((text + text_len, raw + raw_len, num, den));
            }
            _ => {
                self.start_run(text, raw, code);
                self.run_end = Some((text + text_len, raw + raw_len, 1));
            }
        }
    }

    /// Push a mixed-run anchor at (`text`, `raw`) whose first character
    /// is `code`.
    pub(crate) fn start_run(&mut self, text: usize, raw: usize, code: u8) {
        self.drop_from(text);
        let run = u32::try_from(self.map.chars.len()).unwrap_or(u32::MAX);
        self.map.anchors.push(Anchor { text, raw, num: 0, den: 0, run });
        self.map.chars.push(code);
    }

    /// Offset `text`, the end of the text, maps to `raw`: an anchor of
    /// its own where the last one does not already map it there.
    pub(super) fn end_at(&mut self, text: usize, raw: usize) {
        if self.map.raw_offset(text) != raw {
            self.push(text, raw, false);
        }
    }

    /// Anchors come in text order; one that steps back replaces what it
    /// overlaps rather than breaking the order.
    pub(crate) fn drop_from(&mut self, text: usize) {
        self.next_char = None;
        while let Some(last) = self.map.anchors.last()
            && last.text >= text
        {
            if last.den == 0 {
                self.map.chars.truncate(last.run as usize);
            }
            self.map.anchors.pop();
            self.run_end = None;
        }
    }

    /// From `text` on, each character of `den` text bytes maps to `num`
    /// raw bytes, starting at `raw`. Inlined: its callers pass constant
    /// widths, which spare its divisions.
    #[inline]
    pub(super) fn push_ratio(
        &mut self,
        text: usize,
        raw: usize,
        num: u8,
        den: u8,
    ) {
        let den = den.max(1);
        self.drop_from(text);
        if let Some(last) = self.map.anchors.last()
            && last.den > 0
            && last.num == num
            && last.den == den
            && (text - last.text).is_multiple_of(usize::from(den))
            && last.raw_at(text) == raw
        {
            return;
        }
        self.run_end = None;
        self.map.anchors.push(Anchor::ratio(text, raw, num, den));
    }

    /// Appends `sub` (offsets relative to `text_base` and `raw_base`).
    pub(super) fn append(
        &mut self,
        sub: &OffsetMap,
        text_base: usize,
        raw_base: usize,
    ) {
        for (k, a) in sub.anchors.iter().enumerate() {
            if a.den > 0 {
                self.push_ratio(
                    text_base + a.text,
                    raw_base + a.raw,
                    a.num,
                    a.den,
                );
                continue;
            }
            let end = sub.anchors.get(k + 1).map_or(usize::MAX, |n| n.text);
            for (t, raw, r, w) in sub.run_chars(a, end) {
                self.push_char(text_base + t, raw_base + raw, r, w);
            }
        }
    }

    pub(super) fn finish(mut self, empty_raw: usize) -> OffsetMap {
        let anchors = &mut self.map.anchors;
        if anchors.first().is_none_or(|a| a.text != 0) {
            let raw = anchors.first().map_or(empty_raw, |a| a.raw);
            anchors.insert(0, Anchor::ratio(0, raw, 0, 1));
        }
        self.map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcuts of `push_char` (a character right after the last
    /// one of its run) build the map the full test builds: characters of
    /// random widths, in runs and alone, some not right after the
    /// previous one, some too wide for a mixed run, anchors between.
    #[test]
    fn push_char_shortcuts_build_the_same_map() {
        let mut next = crate::testing::xorshift(0x0ff5_e7ab_1e5e_ed01);
        let widths = [(1, 1), (1, 2), (2, 3), (1, 1), (4, 4), (3, 1), (40, 3)];
        for _ in 0..2000 {
            let mut fast = MapBuilder::default();
            let mut slow = MapBuilder::default();
            let (mut t, mut r) = (0, 0);
            let mut w = widths[0];
            for _ in 0..next() % 300 {
                match next() % 16 {
                    // Mostly the same width again, right after.
                    0..=9 => {}
                    10..=12 => w = widths[(next() % 7) as usize],
                    13 => {
                        t += (next() % 3) as usize;
                        r += (next() % 3) as usize;
                    }
                    14 => {
                        let linear = next().is_multiple_of(2);
                        fast.push(t, r, linear);
                        slow.push(t, r, linear);
                        continue;
                    }
                    _ => {
                        // A step back: the anchors it overlaps go.
                        t = t.saturating_sub((next() % 4) as usize);
                    }
                }
                fast.push_char(t, r, w.0, w.1);
                slow.push_char_slow(t, r, w.0, w.1);
                t += w.1;
                r += w.0;
            }
            assert_eq!(fast.finish(0), slow.finish(0));
        }
    }

    /// A map followed by one that sends all its text to one place (a
    /// base64 part) sends every offset there, as the composition anchor
    /// by anchor does: random maps of runs, mixed runs and constants.
    #[test]
    fn then_a_constant_map_is_that_constant() {
        let mut next = crate::testing::xorshift(0xc0a5_7a47_0ff5_e7e5);
        let widths = [(1, 1), (2, 3), (1, 2), (4, 4), (3, 1)];
        for _ in 0..500 {
            let mut b = MapBuilder::default();
            let (mut t, mut r) = (0, 0);
            for _ in 0..next() % 200 {
                if next().is_multiple_of(9) {
                    b.push(t, r, next().is_multiple_of(2));
                }
                let (raw, text) = widths[(next() % 5) as usize];
                b.push_char(t, r, raw, text);
                t += text;
                r += raw;
            }
            let map = b.finish(0);
            let inner = OffsetMap::constant((next() % 1000) as usize);
            let (fast, slow) =
                (map.then(t, inner.clone()), map.composed(t, &inner));
            for k in 0..=t + 3 {
                assert_eq!(fast.raw_offset(k), slow.raw_offset(k), "{k}");
            }
            assert_eq!(fast.anchor_count(), 1);
        }
    }
}

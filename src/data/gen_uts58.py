#!/usr/bin/env python3
"""Generate src/data/link_props.rs from the UTS #58 property files.

Usage: python3 src/data/gen_uts58.py VERSION [DIR]

VERSION is the Unicode version of the files (17.0.0: their headers carry
a date, not a version); DIR holds LinkTerm.txt, LinkBracket.txt and
LinkEmail.txt as published at
https://www.unicode.org/Public/VERSION/linkification/ (default:
src/data/uts58). See src/data/README.md for where the committed copies
came from.

The files use the UCD format: `code point(s) ; value # comment`, a
`# @missing:` line for the value of every code point not listed, and a
`# Total code points: N` line after each block of lines with one value.
Each total is checked against the lines above it, every code point must
be listed at most once, Link_Term's @missing value must be Hard, and
Link_Bracket must pair exactly the Link_Term=Close code points, each
with a Link_Term=Open one. Any mismatch stops the script with a message
and writes nothing.

The output (see the doc comments it contains) holds:
  - the Link_Term of each ASCII character, a 128-entry table;
  - Link_Term=Include and Link_Email as two-level bitmaps: an index of
    one byte per block of 128 code points, naming a 128-bit leaf, with
    identical leaves stored once; code points from U+E0000 on (tags and
    variation selectors) are kept as ranges instead, so that the index
    ends after the CJK ideographs of plane 3;
  - the Soft, Open and Close ranges, sorted, packed by `mark()`;
  - the Link_Bracket pairs, sorted by closing bracket.
"""

import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_DIR = os.path.join(HERE, "uts58")
OUT = os.path.join(HERE, "link_props.rs")

# Rust formatting (rustfmt.toml): lines of at most this many columns.
MAX_WIDTH = 79
# Link_Term values, in the order of the Rust enum's discriminants.
VALUES = ["Include", "Hard", "Soft", "Open", "Close"]
# Leaf size of the bitmaps, in code points.
LEAF = 128
# Code points from here on are stored as ranges, not in the bitmaps.
HIGH_START = 0xE0000
# Longest run one packed Soft/Open/Close entry holds (4 bits of length).
MARK_MAX_LEN = 16


def fail(msg):
    sys.exit(f"gen_uts58.py: {msg}")


def code_points(field, path, lineno):
    """The code points of `XXXX` or `XXXX..YYYY`."""
    m = re.fullmatch(r"([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?", field)
    if not m:
        fail(f"{path}:{lineno}: not a code point range: {field!r}")
    lo = int(m[1], 16)
    hi = int(m[2], 16) if m[2] else lo
    if not lo <= hi <= 0x10FFFF:
        fail(f"{path}:{lineno}: bad range {field}")
    return range(lo, hi + 1)


class UcdFile:
    """One parsed property file: header facts and its data lines."""

    def __init__(self, directory, name, prop, nfields):
        self.path = os.path.join(directory, name)
        with open(self.path, "rb") as f:
            raw = f.read()
        self.sha256 = hashlib.sha256(raw).hexdigest()
        text = raw.decode("utf-8")
        self.date = None
        self.prop = None
        self.missing = []
        # (code points, fields) of each data line, and the blocks that
        # "# Total code points" lines close: (lines, total, lineno).
        self.entries = []
        self.blocks = []
        block = []
        for lineno, line in enumerate(text.split("\n"), 1):
            if line.startswith("#"):
                body = line[1:].strip()
                if body.startswith("Date:"):
                    self.date = body[len("Date:"):].strip()
                elif body.startswith("Property:"):
                    self.prop = body[len("Property:"):].strip()
                elif body.startswith("@missing:"):
                    self.missing.append(body[len("@missing:"):].strip())
                elif body.startswith("Total code points:"):
                    total = body[len("Total code points:"):].strip()
                    if not total.isdigit():
                        fail(f"{self.path}:{lineno}: bad total {total!r}")
                    self.blocks.append((block, int(total), lineno))
                    block = []
                continue
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            fields = [f.strip() for f in data.split(";")]
            if len(fields) != nfields:
                fail(f"{self.path}:{lineno}: {len(fields)} fields, "
                     f"expected {nfields}: {line!r}")
            cps = code_points(fields[0], self.path, lineno)
            entry = (cps, fields[1:], lineno)
            self.entries.append(entry)
            block.append(entry)
        if self.prop != prop:
            fail(f"{self.path}: property {self.prop!r}, expected {prop!r}")
        if not self.date:
            fail(f"{self.path}: no '# Date:' line")
        if block:
            fail(f"{self.path}:{block[0][2]}: data lines after the last "
                 "'# Total code points' line")
        if not self.blocks:
            fail(f"{self.path}: no '# Total code points' line")
        for lines, total, lineno in self.blocks:
            counted = sum(len(cps) for cps, _, _ in lines)
            if counted != total:
                fail(f"{self.path}:{lineno}: 'Total code points: {total}' "
                     f"but the lines above list {counted}")
        seen = {}
        for cps, _, lineno in self.entries:
            for c in cps:
                if c in seen:
                    fail(f"{self.path}:{lineno}: U+{c:04X} already listed "
                         f"on line {seen[c]}")
                seen[c] = lineno


def parse_link_term(directory):
    """Link_Term as {code point: value} (unlisted: Hard), with per-value
    totals."""
    f = UcdFile(directory, "LinkTerm.txt", "Link_Term", 2)
    if f.missing != ["0000..10FFFF; Hard"]:
        fail(f"{f.path}: @missing is {f.missing}, expected Hard for all")
    totals = {}
    for lines, total, lineno in f.blocks:
        values = {fields[0] for _, fields, _ in lines}
        if len(values) != 1:
            fail(f"{f.path}:{lineno}: block of values {sorted(values)}")
        (value,) = values
        if value not in VALUES:
            fail(f"{f.path}:{lineno}: unknown Link_Term value {value!r}")
        if value in totals:
            fail(f"{f.path}:{lineno}: second block of {value}")
        totals[value] = total
    prop = {}
    for cps, fields, _ in f.entries:
        for c in cps:
            prop[c] = fields[0]
    for value in VALUES:
        n = sum(1 for v in prop.values() if v == value)
        if value != "Hard" and n != totals.get(value):
            fail(f"{f.path}: {n} code points are {value}, "
                 f"the header says {totals.get(value)}")
    return f, prop, totals


def parse_link_bracket(directory, term):
    """Link_Bracket as {closing code point: opening code point}."""
    f = UcdFile(directory, "LinkBracket.txt", "Link_Bracket", 2)
    if f.missing != ["0000..10FFFF; <none>"]:
        fail(f"{f.path}: @missing is {f.missing}, expected <none> for all")
    pairs = {}
    for cps, fields, lineno in f.entries:
        if len(cps) != 1:
            fail(f"{f.path}:{lineno}: a range, expected one code point")
        (opener,) = code_points(fields[0], f.path, lineno)
        pairs[cps[0]] = opener
    closes = {c for c, v in term.items() if v == "Close"}
    if set(pairs) != closes:
        odd = sorted(set(pairs) ^ closes)
        fail(f"{f.path}: Link_Bracket and Link_Term=Close differ at "
             + ", ".join(f"U+{c:04X}" for c in odd))
    for close, opener in sorted(pairs.items()):
        if term.get(opener) != "Open":
            fail(f"{f.path}: U+{close:04X} pairs with U+{opener:04X}, "
                 f"whose Link_Term is {term.get(opener, 'Hard')}")
    return f, pairs


def parse_link_email(directory):
    """Link_Email as the set of code points that have it."""
    f = UcdFile(directory, "LinkEmail.txt", "Link_Email", 1)
    if f.missing not in ([], ["0000..10FFFF; No"]):
        fail(f"{f.path}: @missing is {f.missing}, expected No")
    members = set()
    for cps, _, _ in f.entries:
        members.update(cps)
    return f, members


def ranges(members):
    """Sorted (first, last) ranges of a set of code points."""
    out = []
    for c in sorted(members):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return [tuple(r) for r in out]


def bitmap(members):
    """(index, leaves, high ranges, limit) of a two-level bitmap."""
    low = [c for c in members if c < HIGH_START]
    limit = (max(low) // LEAF + 1) * LEAF
    leaves, index, seen = [], [], {}
    for base in range(0, limit, LEAF):
        bits = 0
        for i in range(LEAF):
            if base + i in members:
                bits |= 1 << i
        if bits not in seen:
            seen[bits] = len(leaves)
            leaves.append(bits)
        index.append(seen[bits])
    if len(leaves) > 256:
        fail(f"{len(leaves)} distinct leaves do not fit a u8 index")
    high = ranges(c for c in members if c >= HIGH_START)
    if len(high) > 8:
        fail(f"{len(high)} ranges above U+{HIGH_START:X}: the linear "
             "search over them would no longer be short")
    return index, leaves, high, limit


def marks(term):
    """Maximal runs of Soft, Open or Close, split at MARK_MAX_LEN."""
    out = []
    for c in sorted(term):
        v = term[c]
        if v in ("Include", "Hard"):
            continue
        if out and out[-1][2] == v and out[-1][0] + out[-1][1] == c \
                and out[-1][1] < MARK_MAX_LEN:
            out[-1][1] += 1
        else:
            out.append([c, 1, v])
    return out


def packed(items, indent="    "):
    """Items filled into lines as rustfmt lays out short array elements
    (each line shorter than MAX_WIDTH)."""
    lines, line = [], indent
    for item in items:
        piece = item + ","
        if line != indent and len(line) + 1 + len(piece) >= MAX_WIDTH:
            lines.append(line)
            line = indent
        line += piece if line == indent else " " + piece
    if line != indent:
        lines.append(line)
    return lines


def static_array(name, ty, items):
    """`pub(super) static` array of non-short items, as rustfmt lays it
    out: on the line of its name, or on the next, or one item a line."""
    head = f"pub(super) static {name}: [{ty}; {len(items)}] ="
    body = "[" + ", ".join(items) + "];"
    if len(head) + 1 + len(body) <= MAX_WIDTH:
        return [head + " " + body]
    if 4 + len(body) <= MAX_WIDTH:
        return [head, "    " + body]
    return [head + " [", *(f"    {item}," for item in items), "];"]


def hex_cp(c):
    return f"0x{c:04X}"


def emit_bitmap(out, name, what, members):
    index, leaves, high, limit = bitmap(members)
    out += [
        f"/// {what}, U+0000 to U+{limit - 1:04X}: code point `c` is in the "
        "set",
        f"/// when bit `c % 64` of `{name}_LEAVES[{name}_INDEX[c / 128]]"
        "[c / 64 % 2]`",
        "/// is set.",
        f"pub(super) static {name}_INDEX: [u8; {len(index)}] = [",
        *packed(str(i) for i in index),
        "];",
        "",
        f"/// The distinct 128-bit leaves of `{name}_INDEX`, low half "
        "first.",
        f"pub(super) static {name}_LEAVES: [[u64; 2]; {len(leaves)}] = [",
    ]
    mask = (1 << 64) - 1
    for bits in leaves:
        out.append(f"    [0x{bits & mask:016x}, 0x{bits >> 64:016x}],")
    out += [
        "];",
        "",
        f"/// {what}, from U+{limit:04X} on: ranges (first, last), "
        "sorted.",
        *static_array(f"{name}_HIGH", "(u32, u32)",
                      [f"({hex_cp(lo)}, {hex_cp(hi)})" for lo, hi in high]),
        "",
    ]
    return len(index) + 16 * len(leaves) + 8 * len(high)


def main():
    args = sys.argv[1:]
    if len(args) not in (1, 2) or not re.fullmatch(r"\d+\.\d+\.\d+", args[0]):
        fail(__doc__)
    version = args[0]
    directory = args[1] if len(args) > 1 else DEFAULT_DIR

    tf, term, totals = parse_link_term(directory)
    bf, pairs = parse_link_bracket(directory, term)
    ef, email = parse_link_email(directory)
    if len({tf.date, bf.date, ef.date}) != 1:
        fail(f"the files are of different dates: {tf.date}, {bf.date}, "
             f"{ef.date}")

    out = [
        "//! Owns the UTS #58 character properties of Unicode "
        f"{version} as data:",
        "//! Link_Term, Link_Bracket and Link_Email, generated by",
        "//! src/data/gen_uts58.py from src/data/uts58/ (see",
        "//! src/data/README.md). Do not edit by hand.",
        "//!",
    ]
    for f in (tf, bf, ef):
        out += [f"//! - {os.path.basename(f.path)}, sha256",
                f"//!   {f.sha256}"]
    out += [
        "",
        "use super::values::LinkTerm::{self, Close, Hard, Include, Open, "
        "Soft};",
        "use super::values::mark;",
        "",
        "/// Unicode version of the data files.",
        f'pub(super) const VERSION: &str = "{version}";',
        "",
        "/// The `# Date:` line of the data files.",
        f'pub(super) const DATE: &str = "{tf.date}";',
        "",
        "/// Link_Term of U+0000 to U+007F.",
        "pub(super) static ASCII: [LinkTerm; 128] = [",
        *packed(term.get(c, "Hard") for c in range(128)),
        "];",
        "",
    ]
    size = 128
    include = {c for c, v in term.items() if v == "Include"}
    size += emit_bitmap(out, "INCLUDE", "Link_Term=Include", include)
    size += emit_bitmap(out, "EMAIL", "Link_Email", email)

    runs = marks(term)
    out += [
        "/// The runs of Soft, Open and Close code points, sorted; each "
        "entry",
        "/// is `mark(first, length, value)`. Every other code point is "
        "Include",
        "/// (`INCLUDE_*`) or Hard.",
        f"pub(super) static MARKS: [u32; {len(runs)}] = [",
        *(f"    mark({hex_cp(c)}, {n}, {v})," for c, n, v in runs),
        "];",
        "",
        "/// Link_Bracket: (closing bracket, its opening bracket), sorted "
        "by",
        "/// closing bracket.",
        f"pub(super) static BRACKETS: [(char, char); {len(pairs)}] = [",
        *(f"    ('\\u{{{c:04X}}}', '\\u{{{o:04X}}}')," for c, o in
          sorted(pairs.items())),
        "];",
    ]
    size += 4 * len(runs) + 8 * len(pairs)
    for line in out:
        if len(line) > MAX_WIDTH:
            fail(f"generated line longer than {MAX_WIDTH}: {line!r}")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")

    counts = {v: sum(1 for x in term.values() if x == v) for v in VALUES}
    counts["Hard"] = 0x110000 - sum(counts.values())
    print(f"{os.path.relpath(OUT, ROOT)}: Unicode {version}, {tf.date}")
    print("  Link_Term " + ", ".join(f"{v} {counts[v]}" for v in VALUES)
          + f" ({len(runs)} Soft/Open/Close runs)")
    print(f"  Link_Bracket {len(pairs)} pairs, Link_Email {len(email)} "
          "code points")
    print(f"  {size} bytes of tables")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Generate src/data/terminal_chars.rs from the Unicode Character Database.

Usage: python3 src/data/gen_terminal.py [UCD_DIR]

UCD_DIR holds PropList.txt, DerivedCoreProperties.txt and
extracted/DerivedGeneralCategory.txt (default: /usr/share/unicode, where
Debian's `unicode-data` package puts them; see src/data/README.md).

The characters the printers never write raw (src/print/sanitize.rs) are
the code points that have any of these properties (UAX #44, section 5.3
and table 12 for the General_Category values):

  - General_Category Cc (controls: C0, DEL, C1 such as U+0085 NEL),
    Cf (format characters: bidi marks, zero-width characters, U+FEFF,
    tags), Zl (U+2028) and Zp (U+2029): characters that move the cursor
    or are invisible;
  - Bidi_Control (PropList.txt): the explicit bidi formatting characters
    of UAX #9, section 2, which reorder what a terminal shows;
  - Default_Ignorable_Code_Point (DerivedCoreProperties.txt): what is not
    rendered unless supported, so hides text (fillers, variation
    selectors, which can carry arbitrary bytes after a visible
    character; reserved code points of those blocks included);
  - Noncharacter_Code_Point (PropList.txt): code points not for open
    interchange (Unicode chapter 23.7), rendered unpredictably.

Every file's `# Total code points` lines are checked against the lines
above them, and no code point may be listed twice for one property; a
mismatch stops the script and writes nothing.

The output holds each property's ranges as listed (the tests check the
union against them code point by code point) and the union as a sorted
list of disjoint, non-adjacent ranges.
"""

import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "terminal_chars.rs")
DEFAULT_DIR = "/usr/share/unicode"

# (Rust name, file, property or General_Category value)
SOURCES = [
    ("CC", "extracted/DerivedGeneralCategory.txt", "Cc"),
    ("CF", "extracted/DerivedGeneralCategory.txt", "Cf"),
    ("ZL", "extracted/DerivedGeneralCategory.txt", "Zl"),
    ("ZP", "extracted/DerivedGeneralCategory.txt", "Zp"),
    ("BIDI_CONTROL", "PropList.txt", "Bidi_Control"),
    ("DEFAULT_IGNORABLE", "DerivedCoreProperties.txt",
     "Default_Ignorable_Code_Point"),
    ("NONCHARACTER", "PropList.txt", "Noncharacter_Code_Point"),
]


def fail(msg):
    sys.exit(f"gen_terminal.py: {msg}")


def parse(path):
    """{value: [(lo, hi)]} of a UCD file, checked against its totals;
    also the file's first line (its name and version) and sha256."""
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")
    values = {}
    block = []
    for lineno, line in enumerate(text.split("\n"), 1):
        m = re.match(r"#\s*Total code points:\s*(\d+)", line)
        if m:
            counted = sum(hi - lo + 1 for lo, hi, _ in block)
            if counted != int(m[1]):
                fail(f"{path}:{lineno}: total {m[1]}, lines list {counted}")
            block = []
            continue
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        if len(fields) != 2:
            fail(f"{path}:{lineno}: expected 2 fields: {line!r}")
        m = re.fullmatch(r"([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?",
                         fields[0])
        if not m:
            fail(f"{path}:{lineno}: not a code point range: {fields[0]!r}")
        lo = int(m[1], 16)
        hi = int(m[2], 16) if m[2] else lo
        if not lo <= hi <= 0x10FFFF:
            fail(f"{path}:{lineno}: bad range {fields[0]}")
        values.setdefault(fields[1], []).append((lo, hi))
        block.append((lo, hi, lineno))
    if block:
        fail(f"{path}: data lines after the last 'Total code points' line")
    for value, ranges in values.items():
        ranges.sort()
        for (_, a), (b, _) in zip(ranges, ranges[1:]):
            if b <= a:
                fail(f"{path}: {value}: U+{b:04X} listed twice")
    first = text.split("\n", 1)[0].lstrip("# ").strip()
    return values, first, hashlib.sha256(raw).hexdigest()


def merge(ranges):
    out = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def rust_ranges(name, doc, ranges):
    lines = [f"/// {doc}", "#[rustfmt::skip]", f"pub(crate) static {name}: &[(u32, u32)] = &["]
    for lo, hi in ranges:
        lines.append(f"    (0x{lo:04X}, 0x{hi:04X}),")
    lines.append("];")
    return "\n".join(lines)


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DIR
    parsed = {}
    for _, name, _ in SOURCES:
        if name not in parsed:
            parsed[name] = parse(os.path.join(directory, name))
    versions = set()
    for _, first, _ in parsed.values():
        m = re.search(r"-(\d+\.\d+\.\d+)\.txt$", first)
        if not m:
            fail(f"no version in the first line {first!r}")
        versions.add(m[1])
    if len(versions) != 1:
        fail(f"files of several Unicode versions: {sorted(versions)}")
    (version,) = versions
    tables = []
    union = []
    for rust, name, value in SOURCES:
        ranges = parsed[name][0].get(value)
        if not ranges:
            fail(f"{name}: no code point has {value}")
        tables.append((rust, name, value, ranges))
        union.extend(ranges)
    union = merge(union)
    head = [
        "//! Owns the characters that never reach a terminal raw, as data:",
        f"//! the Unicode {version} code points with General_Category Cc,",
        "//! Cf, Zl or Zp, Bidi_Control, Default_Ignorable_Code_Point or",
        "//! Noncharacter_Code_Point, generated by src/data/gen_terminal.py",
        "//! (see src/data/README.md). Do not edit by hand.",
        "//!",
    ]
    for name, (_, first, sha) in parsed.items():
        head.append(f"//! - {os.path.dirname(name) + '/' if '/' in name else ''}"
                    f"{first}, sha256")
        head.append(f"//!   {sha}")
    parts = ["\n".join(head), ""]
    count = sum(hi - lo + 1 for lo, hi in union)
    parts.append(rust_ranges(
        "UNSAFE",
        f"The union of the tables below, sorted, disjoint and not adjacent"
        f"\n/// ({count} code points).",
        union))
    for rust, name, value, ranges in tables:
        parts.append("")
        parts.append("#[cfg(test)]")
        parts.append(rust_ranges(rust, f"`{value}`, as listed in {name}.",
                                 ranges))
    with open(OUT, "w") as f:
        f.write("\n".join(parts) + "\n")
    print(f"{OUT}: {len(union)} ranges, {count} code points", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Print every URL that URLExtract (PyPI `urlextract`) finds in FILE, one
per line, for benches/compare.sh.

Usage: urlextract_find.py [--whole] FILE

Each line is handed to `URLExtract.gen_urls` on its own, with no limit on
the number of URLs (urlextract's CLI stops at 10,000 by default) and
without calling `update_when_older()`: the TLD list bundled in the
package (urlextract/data/tlds-alpha-by-domain.txt) is used and nothing is
downloaded. (urlextract's own CLI calls `update_when_older(30)`, which
tries to fetch a newer list from IANA when the bundled one is over 30
days old; with no network it logs an error and goes on with the bundled
list.)

--whole hands it the whole file at once, as urlextract's CLI does. On
large texts that misses most URLs (measured on the first 100,000 bytes of
the prose input: 33 URLs whole, 233 line by line; its cursor over the
text drifts from the list of TLD matches it found up front), and it is
no faster, so line by line is the default. urlextract never joins a URL
wrapped across lines in either mode.

Input that is not UTF-8 is decoded with U+FFFD replacements.
"""
import sys

from urlextract import URLExtract


def main() -> int:
    args = sys.argv[1:]
    per_line = True
    if args and args[0] == "--whole":
        per_line = False
        args = args[1:]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    # cache_dns only matters for check_dns, which is off.
    extractor = URLExtract(limit=None, cache_dns=False)
    with open(args[0], "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    out = sys.stdout
    if per_line:
        for line in text.splitlines(keepends=True):
            for url in extractor.gen_urls(line):
                out.write(url + "\n")
    else:
        for url in extractor.gen_urls(text):
            out.write(url + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

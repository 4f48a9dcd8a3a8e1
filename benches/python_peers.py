#!/usr/bin/env python3
"""python_peers.py: urlx's Python package against the Python URL
extractors people call per record (URLExtract, linkify-it-py), in one
process, on the same text.

    pip install . urlextract linkify-it-py
    python3 benches/python_peers.py [--rounds N] [--size BYTES] FILE...

Each FILE is read, cut to --size bytes at a line end (default 1 MiB: the
peers take seconds per MiB) and decoded as UTF-8 with replacements. Every
round calls each finder once on each text, in a new random order, and
the median wall time per finder and text is printed with its rate and
the number of URLs found (finders disagree on what a URL is; the counts
say how far).

- urlx: `urlx.find(text)` on one thread (`threads=1`, the default),
  given the `str`, reading each hit's `url` (as the peers give strings);
  the same given the bytes; and given the bytes with every field of
  every hit (`to_dict()`, all that `--json` prints).
- URLExtract: `URLExtract(limit=None).find_urls(line)` line by line (the
  whole text at once misses most URLs: see peers/urlextract_find.py),
  with its bundled TLD list, no DNS.
- linkify-it-py: `LinkifyIt().match(text)` on the whole text.
"""
import argparse
import platform
import random
import statistics
import sys
import time


def finders():
    import urlx

    out = [
        ("urlx (str)", lambda text, data: len([h.url for h in urlx.find(text)])),
        ("urlx (bytes)", lambda text, data: len([h.url for h in urlx.find(data)])),
        (
            "urlx (bytes, to_dict)",
            lambda text, data: len([h.to_dict() for h in urlx.find(data)]),
        ),
    ]
    try:
        from urlextract import URLExtract

        ux = URLExtract(limit=None, cache_dns=False)

        def urlextract(text, data):
            return sum(len(ux.find_urls(line)) for line in text.splitlines())

        out.append(("URLExtract", urlextract))
    except ImportError:
        print("URLExtract not installed: pip install urlextract", file=sys.stderr)
    try:
        from linkify_it import LinkifyIt

        li = LinkifyIt()
        out.append(("linkify-it-py", lambda text, data: len(li.match(text) or [])))
    except ImportError:
        print("linkify-it-py not installed: pip install linkify-it-py", file=sys.stderr)
    return out


def load(path, size):
    with open(path, "rb") as f:
        data = f.read(size)
    if len(data) == size:
        data = data[: data.rfind(b"\n") + 1] or data
    return data.decode("utf-8", "replace"), data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=1 << 20)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    import urlx

    texts = [(p, *load(p, args.size)) for p in args.files]
    fs = finders()
    times = {(f, p): [] for f, _ in fs for p, _, _ in texts}
    counts = {}
    for _ in range(args.rounds):
        jobs = [(f, g, p, t, d) for f, g in fs for p, t, d in texts]
        random.shuffle(jobs)
        for f, g, p, t, d in jobs:
            start = time.perf_counter()
            counts[(f, p)] = g(t, d)
            times[(f, p)].append(time.perf_counter() - start)
    print(
        f"Python {platform.python_version()}, urlx {urlx.__version__}, "
        f"{args.rounds} rounds, medians"
    )
    for p, t, d in texts:
        print(f"\n{p}: {len(d):,} bytes\n")
        print("| finder | median | MB/s | URLs | x urlx (str) |")
        print("|---|---:|---:|---:|---:|")
        base = statistics.median(times[("urlx (str)", p)])
        for f, _ in fs:
            m = statistics.median(times[(f, p)])
            print(
                f"| {f} | {m * 1000:.1f} ms | {len(d) / m / 1e6:.2f} | "
                f"{counts[(f, p)]:,} | {base / m:.4f} |"
            )


if __name__ == "__main__":
    main()

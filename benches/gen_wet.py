#!/usr/bin/env python3
"""gen_wet.py: a WET file (Common Crawl's extracted-text WARC records) of
a given size, for measuring urlx on web archives.

    python3 benches/gen_wet.py --text prose.txt --size 256M --out DIR

Cuts the text file (gen_inputs.py's prose.txt: real mail and RFC text) at
line ends into pieces of 2 to 12 KB, each the block of a `conversion`
record with the fields Common Crawl's WET records have (WARC-Type,
WARC-Target-URI, WARC-Date, WARC-Record-ID, WARC-Refers-To,
WARC-Block-Digest, Content-Type text/plain, Content-Length), and writes
DIR/bench.wet and DIR/bench.wet.gz (one gzip member per record, as Common
Crawl writes them, level 6). The text is reused from its start when it
runs out. Seeded: the same arguments give the same files.
"""
import argparse
import base64
import gzip
import hashlib
import os
import random
import uuid


def size_arg(s):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * units[s[-1]] if s[-1] in units else int(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--text", required=True)
    ap.add_argument("--size", type=size_arg, default=size_arg("256M"))
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rnd = random.Random(58)
    with open(args.text, "rb") as f:
        text = f.read()
    os.makedirs(args.out, exist_ok=True)
    plain = open(os.path.join(args.out, "bench.wet"), "wb")
    packed = open(os.path.join(args.out, "bench.wet.gz"), "wb")
    written, pos, n = 0, 0, 0
    while written < args.size:
        want = rnd.randint(2 << 10, 12 << 10)
        if pos + want >= len(text):
            pos = 0
        end = text.find(b"\n", pos + want)
        end = len(text) if end < 0 else end + 1
        block = text[pos:end]
        pos = end
        n += 1
        digest = base64.b32encode(hashlib.sha1(block).digest()).decode()
        header = (
            "WARC/1.0\r\n"
            "WARC-Type: conversion\r\n"
            f"WARC-Target-URI: https://site{n % 9973}.example.org/page/{n}\r\n"
            "WARC-Date: 2026-11-01T12:00:00Z\r\n"
            f"WARC-Record-ID: <urn:uuid:{uuid.UUID(int=rnd.getrandbits(128))}>\r\n"
            f"WARC-Refers-To: <urn:uuid:{uuid.UUID(int=rnd.getrandbits(128))}>\r\n"
            f"WARC-Block-Digest: sha1:{digest}\r\n"
            "Content-Type: text/plain\r\n"
            f"Content-Length: {len(block)}\r\n\r\n"
        ).encode()
        record = header + block + b"\r\n\r\n"
        plain.write(record)
        packed.write(gzip.compress(record, compresslevel=6, mtime=0))
        written += len(record)
    plain.close()
    packed.close()
    print(f"{args.out}/bench.wet: {written} bytes, {n} records")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""gen_mbox.py: build a large mbox from real messages.

The messages of corpora/mail (the .eml files and the mboxrd samples), or
with --real DIR every message under DIR (read recursively: the members of
tarballs such as SpamAssassin's public corpus, mbox and mboxrd files,
plain or gzipped, and files that are one message each, as in a Maildir
or an MH folder), are written again and again, in a fixed shuffled order
(seeded), as one mboxrd file of about --size bytes: each message gets a
`From ` separator line and its body lines matching `^>*From ` one more
`>`, as mboxrd requires.

Usage: gen_mbox.py --size 256M --out /tmp/urlx-bench/mail.mbox
       gen_mbox.py --size 256M --real ../shared/corpora/mail --out F
"""
import argparse
import bz2
import gzip
import os
import random
import re
import tarfile

# A file that is one message starts with a header field (or an mbox
# `From ` line, dropped).
HEADER = re.compile(rb"(From |[A-Za-z][A-Za-z0-9-]*:[ \t])")


def one_message(data):
    if data.startswith(b"From "):
        data = data.split(b"\n", 1)[-1]
    return data


def split_mbox(data):
    """The messages of an mbox (any variant: split on `From ` lines after
    a blank line or at the start), with mboxrd quoting undone."""
    parts = re.split(rb"(?:^|(?<=\n\n))From [^\n]*\n", data)
    return [re.sub(rb"(?m)^>(>*From )", rb"\1", p) for p in parts
            if p.strip()]


def file_messages(name, data):
    base = name.lower()
    for ext, opener in ((".gz", gzip.decompress), (".bz2", bz2.decompress)):
        if base.endswith(ext) and not base.endswith(".tar" + ext):
            data, base = opener(data), base[: -len(ext)]
    if ".mbox" in base or data.startswith(b"From mboxrd@z"):
        return split_mbox(data)
    if HEADER.match(data) and b"\n\n" in data[:65536].replace(b"\r\n", b"\n"):
        return [one_message(data)]
    return []


def real_messages(root):
    """Every message under `root`, in a fixed order."""
    out = []
    for dirpath, dirnames, files in os.walk(root):
        dirnames.sort()
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            low = name.lower()
            if re.search(r"\.(tar(\.gz|\.bz2|\.xz)?|tgz)$", low):
                with tarfile.open(path) as tar:
                    for m in tar:
                        if m.isfile():
                            data = tar.extractfile(m).read()
                            out.extend(file_messages(m.name, data))
                continue
            if low.startswith(("readme", "license", "notice")) or \
                    low.endswith((".md", ".py", ".json", ".yml")):
                continue
            with open(path, "rb") as f:
                out.extend(file_messages(name, f.read()))
    return out


def size_arg(s):
    m = re.fullmatch(r"(\d+)\s*([KMG]?)(i?B)?", s.strip(), re.I)
    if not m:
        raise argparse.ArgumentTypeError("size like 256M")
    mult = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(m.group(1)) * mult[m.group(2).upper()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=size_arg, default=size_arg("256M"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpora", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "corpora"))
    ap.add_argument("--real", metavar="DIR",
                    help="take every message under DIR instead")
    ap.add_argument("--seed", type=int, default=3676)
    args = ap.parse_args()
    msgs = real_messages(args.real or os.path.join(args.corpora, "mail"))
    rng = random.Random(args.seed)
    written = 0
    with open(args.out, "wb") as f:
        while written < args.size:
            order = list(range(len(msgs)))
            rng.shuffle(order)
            for i in order:
                body = re.sub(rb"(?m)^(>*From )", rb">\1", msgs[i])
                if not body.endswith(b"\n"):
                    body += b"\n"
                chunk = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + body + b"\n"
                f.write(chunk)
                written += len(chunk)
                if written >= args.size:
                    break
    print(f"{args.out}: {written} bytes, {len(msgs)} distinct messages")


if __name__ == "__main__":
    main()

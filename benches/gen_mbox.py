#!/usr/bin/env python3
"""gen_mbox.py: build a large mbox from the real messages in corpora/mail.

The messages of corpora/mail (the .eml files and the mboxrd samples) are
written again and again, in a fixed shuffled order (seeded), as one mboxrd
file of about --size bytes: each message gets a `From ` separator line and
its body lines matching `^>*From ` one more `>`, as mboxrd requires.

Usage: gen_mbox.py --size 256M --out /tmp/urlx-bench/mail.mbox
"""
import argparse
import gzip
import os
import random
import re


def size_arg(s):
    m = re.fullmatch(r"(\d+)\s*([KMG]?)(i?B)?", s.strip(), re.I)
    if not m:
        raise argparse.ArgumentTypeError("size like 256M")
    mult = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(m.group(1)) * mult[m.group(2).upper()]


def messages(corpora):
    mail = os.path.join(corpora, "mail")
    out = []
    for name in sorted(os.listdir(mail)):
        path = os.path.join(mail, name)
        if name.endswith(".eml"):
            data = open(path, "rb").read()
            if data.startswith(b"From "):
                data = data.split(b"\n", 1)[1]
            out.append(data)
        elif ".mboxrd" in name:
            opener = gzip.open if name.endswith(".gz") else open
            data = opener(path, "rb").read()
            for part in re.split(rb"(?m)^From mboxrd@z [^\n]*\n", data):
                if part.strip():
                    # Undo the mboxrd quoting; it is redone on writing.
                    out.append(re.sub(rb"(?m)^>(>*From )", rb"\1", part))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=size_arg, default=size_arg("256M"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpora", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "corpora"))
    ap.add_argument("--seed", type=int, default=3676)
    args = ap.parse_args()
    msgs = messages(args.corpora)
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

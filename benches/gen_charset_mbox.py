#!/usr/bin/env python3
"""gen_charset_mbox.py: an mbox of text/plain messages in a single-byte
charset where most letters are 8-bit bytes (Russian in windows-1251 by
default), with four URLs a message: the input on which converting a
charset to UTF-8 costs the most per byte.

Each message: a `From ` line, From, Subject and a Content-Type naming
the charset, `Content-Transfer-Encoding: 8bit`, then 40 lines of ten
words drawn (seeded) from a fixed list, a line with a URL every ten.

Usage: gen_charset_mbox.py --size 8M --out /tmp/cyr.mbox
       gen_charset_mbox.py --size 8M --charset koi8-r --out F
"""
import argparse
import random

WORDS = (
    "Привет мир это письмо содержит ссылку на сайт и много русского "
    "текста для проверки скорости"
).split()


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:].upper() in units:
        return int(text[:-1]) * units[text[-1:].upper()]
    return int(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=size, default=8 << 20)
    ap.add_argument("--charset", default="windows-1251")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    written, k = 0, 0
    with open(args.out, "wb") as out:
        while written < args.size:
            lines = []
            for line in range(40):
                lines.append(" ".join(rng.choice(WORDS) for _ in range(10)))
                if line % 10 == 0:
                    lines.append(
                        "Смотрите http://example.ru/страница/%d подробнее." % k
                    )
            head = (
                "From a@example.ru Mon Jan  1 00:00:00 2024\n"
                "From: a@example.ru\nSubject: test %d\n"
                "Content-Type: text/plain; charset=%s\n"
                "Content-Transfer-Encoding: 8bit\n\n" % (k, args.charset)
            )
            msg = head.encode() + "\n".join(lines).encode(args.charset) + b"\n\n"
            out.write(msg)
            written += len(msg)
            k += 1


if __name__ == "__main__":
    main()

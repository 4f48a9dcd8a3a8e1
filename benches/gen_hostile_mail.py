#!/usr/bin/env python3
"""gen_hostile_mail.py: write the mail inputs that test urlx's memory bound.

Each is built to make one part of mail decoding as large as it can be:

  dense.mbox      messages of 15 MiB of URLs (one every 32 bytes), in
                  quoted-printable, so every byte is decoded and every
                  URL is a hit (--count messages)
  huge.eml        one 64 MiB message of URLs: longer than the limit on a
                  message parsed as MIME, so its tail is plain text
  parts.eml       a multipart of 12,000 one-URL parts
  boundary.eml    a multipart whose boundary line is repeated on almost
                  every line (empty parts, 32 MiB)
  header.eml      a 100 MB header field of URLs (folded every 78 bytes)
  parts1m.eml     a multipart of 1,000,000 one-URL parts (beyond the
                  10,000 parts walked as MIME)

Usage: gen_hostile_mail.py --out /tmp/urlx-bench/hostile [--count 8]
"""
import argparse
import os


def dense_body(size):
    line = b"http://a.example/p/%08d x\n"
    out = bytearray()
    i = 0
    while len(out) < size:
        out += line % i
        i += 1
    return bytes(out[:size])


def header(extra=b""):
    return (b"From: a@example.com\nTo: b@example.com\nSubject: test\n"
            b"Message-ID: <x@example.com>\nMIME-Version: 1.0\n" + extra)


def write(path, parts):
    with open(path, "wb") as f:
        for p in parts:
            f.write(p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=8)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    o = lambda n: os.path.join(args.out, n)

    body = dense_body(15 << 20)
    msgs = []
    for i in range(args.count):
        msgs.append(b"From a@example.com Thu Jan  1 00:00:00 1970\n")
        msgs.append(header(b"Content-Type: text/plain; charset=utf-8\n"
                           b"Content-Transfer-Encoding: quoted-printable\n\n"))
        msgs.append(body)
        msgs.append(b"\n")
    write(o("dense.mbox"), msgs)

    write(o("huge.eml"), [header(b"Content-Type: text/plain\n\n"),
                          dense_body(64 << 20)])

    def multipart(n):
        yield header(b'Content-Type: multipart/mixed; boundary="b"\n\n')
        for i in range(n):
            yield (b"--b\nContent-Type: text/plain\n\n"
                   b"http://p.example/%d\n" % i)
        yield b"--b--\n"
    write(o("parts.eml"), multipart(12000))
    write(o("parts1m.eml"), multipart(1000000))

    write(o("boundary.eml"), [
        header(b'Content-Type: multipart/mixed; boundary="b"\n\n'),
        b"--b\n" * ((32 << 20) // 4), b"http://end.example/\n--b--\n"])

    value = bytearray()
    i = 0
    while len(value) < 100_000_000:
        value += b" http://h.example/%08d\n" % i
        i += 1
    write(o("header.eml"), [header(b"X-Links:"), bytes(value),
                            b"\nbody http://body.example/\n"])


if __name__ == "__main__":
    main()

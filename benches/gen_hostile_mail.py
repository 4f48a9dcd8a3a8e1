#!/usr/bin/env python3
"""gen_hostile_mail.py: write the mail inputs that test urlx's memory bound.

Each is built to make one part of mail decoding as large as it can be.
The mbox files hold --count messages of 15 MiB each (just under the
16 MiB parsed as MIME):

  dense.mbox    quoted-printable text of URLs, one every 32 bytes
  hits.mbox     `a://b` lines: a URL every 6 bytes, the most hits a
                byte of text can give
  html.mbox     HTML of `<a href=a://b>a://b</a>` lines (links and text)
  attrs.mbox    HTML of `<p x=a://b y=a://c>` lines (attribute texts)
  entities.mbox HTML of `&eacute;` references, nothing else
  fields.mbox   a header of a million `X-L: a://b` fields
  qp.mbox       quoted-printable escapes (`=E9`) of Latin-1, every byte
  cp1252.mbox   windows-1252 bytes that become 3-byte characters (0x80)
  mixed.mbox    windows-1252 characters of 2 and 3 UTF-8 bytes in turn
  utf16.mbox    UTF-16LE text of `a://b` lines
  base64.mbox   base64 text of `a://b` lines
  seps.mbox     64 messages of a URL each, every one after 1 MiB of
                `From ` lines (messages with nothing in them): each
                short message is all that holds its read buffer

and single messages:

  huge.eml      64 MiB of URLs: longer than the limit on a message
                parsed as MIME, so its tail is plain text
  parts.eml     a multipart of 12,000 one-URL parts
  parts1m.eml   a multipart of 1,000,000 one-URL parts
  boundary.eml  a multipart whose boundary line is repeated on almost
                every line (empty parts, 32 MiB)
  header.eml    a 100 MB header field of URLs (folded every 24 bytes)
  params.eml    a Content-Type of 15 MiB: empty parameters (` ;`) and
                a million `p=x` parameters

Usage: gen_hostile_mail.py --out /tmp/urlx-bench/hostile [--count 3]
"""
import argparse
import base64
import os

SIZE = 15 << 20


def fill(unit, size=SIZE):
    return unit * (size // len(unit))


def dense_body(size):
    out = bytearray()
    i = 0
    while len(out) < size:
        out += b"http://a.example/p/%08d x\n" % i
        i += 1
    return bytes(out[:size])


def header(extra=b""):
    return (b"From: a@example.com\nTo: b@example.com\nSubject: test\n"
            b"Message-ID: <x@example.com>\nMIME-Version: 1.0\n" + extra)


def write(path, parts):
    with open(path, "wb") as f:
        for p in parts:
            f.write(p)


def mbox(path, fields, body, count):
    sep = b"From a@example.com Thu Jan  1 00:00:00 1970\n"
    msg = sep + header(fields) + b"\n" + body + b"\n"
    write(path, [msg] * count)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=3)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    o = lambda n: os.path.join(args.out, n)
    n = args.count

    qp = b"Content-Transfer-Encoding: quoted-printable\n"
    mbox(o("dense.mbox"),
         b"Content-Type: text/plain; charset=utf-8\n" + qp,
         dense_body(SIZE), n)
    mbox(o("hits.mbox"), b"Content-Type: text/plain\n",
         fill(b"a://b\n"), n)
    mbox(o("html.mbox"), b"Content-Type: text/html\n",
         fill(b"<a href=a://b>a://b</a>\n"), n)
    mbox(o("attrs.mbox"), b"Content-Type: text/html\n",
         fill(b"<p x=a://b y=a://c>\n"), n)
    mbox(o("entities.mbox"), b"Content-Type: text/html\n",
         fill(b"&eacute;"), n)
    mbox(o("fields.mbox"), fill(b"X-L: a://b\n"), b"body\n", n)
    mbox(o("qp.mbox"),
         b"Content-Type: text/plain; charset=iso-8859-1\n" + qp,
         fill(b"=E9" * 25 + b"=\n"), n)
    mbox(o("cp1252.mbox"), b"Content-Type: text/plain; charset=windows-1252\n",
         fill(b"\x80" * 76 + b"\n"), n)
    mbox(o("mixed.mbox"), b"Content-Type: text/plain; charset=windows-1252\n",
         fill(b"\xe9\x80" * 38 + b"\n"), n)
    mbox(o("utf16.mbox"),
         b"Content-Type: text/plain; charset=utf-16le\n"
         b"Content-Transfer-Encoding: 8bit\n",
         fill(b"a://b\n", SIZE // 2).decode().encode("utf-16-le"), n)
    mbox(o("base64.mbox"),
         b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n",
         base64.encodebytes(fill(b"a://b\n", SIZE * 3 // 4)), n)

    sep = b"From a@example.com Thu Jan  1 00:00:00 1970\n"
    write(o("seps.mbox"), [sep + b"x%d a://b\n\n" % k + fill(sep, 1 << 20)
                           for k in range(64)])

    write(o("huge.eml"), [header(b"Content-Type: text/plain\n\n"),
                          dense_body(64 << 20)])

    def multipart(count):
        yield header(b'Content-Type: multipart/mixed; boundary="b"\n\n')
        for i in range(count):
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

    write(o("params.eml"), [
        header(b"Content-Type: text/plain"), fill(b" ;", SIZE // 2),
        fill(b" p=x;", SIZE // 2), b"\n\nbody http://body.example/\n"])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make_samples.py: write the archive samples of this folder.

    python3 corpora/archive/make_samples.py [SHARED_CORPORA]

- notmuch-default-maildir.tar.gz: the Maildir of the notmuch test suite
  (SHARED_CORPORA/mail/notmuch/default, default ../shared/corpora), as
  tar (ustar, members sorted, owner and times zeroed) and gzip.
- sa-eml.zip: the SpamAssassin .eml files of corpora/mail, deflated, one
  of them stored, with a directory entry.
- tests/data/archive/bomb.zip (a test fixture, not a corpus): a member
  of 100 MiB of "a\\n" deflated to about 100 KB, two members pointing at
  the same compressed bytes (a "flat" zip bomb), and a last member with
  a URL that must still be found.
Deterministic: the same bytes on every run.
"""
import gzip
import io
import os
import struct
import sys
import tarfile
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXED = (1980, 1, 1, 0, 0, 0)


def maildir(shared):
    src = os.path.join(shared, "mail", "notmuch", "default")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
        paths = []
        for d, dirs, files in os.walk(src):
            dirs.sort()
            for f in sorted(files):
                paths.append(os.path.join(d, f))
        for p in paths:
            info = t.gettarinfo(p, "default/" + os.path.relpath(p, src))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            with open(p, "rb") as f:
                t.addfile(info, f)
    out = os.path.join(HERE, "notmuch-default-maildir.tar.gz")
    with open(out, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
            g.write(buf.getvalue())


def eml_zip():
    mail = os.path.join(ROOT, "corpora", "mail")
    names = sorted(n for n in os.listdir(mail) if n.startswith("sa-"))
    with zipfile.ZipFile(os.path.join(HERE, "sa-eml.zip"), "w") as z:
        z.writestr(zipfile.ZipInfo("mail/", FIXED), b"")
        for i, n in enumerate(names):
            info = zipfile.ZipInfo("mail/" + n, FIXED)
            info.compress_type = zipfile.ZIP_STORED if i == 0 else zipfile.ZIP_DEFLATED
            with open(os.path.join(mail, n), "rb") as f:
                z.writestr(info, f.read())


def bomb_zip():
    """Written by hand: zipfile cannot point two entries at one data."""
    members = []  # (name, offset, crc, csize, usize, method)
    out = io.BytesIO()

    def local(name, data, usize, crc, method):
        off = out.tell()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0,
                              0x21, crc, len(data), usize, len(name), 0))
        out.write(name)
        out.write(data)
        return off

    big = b"a\n" * (50 << 20)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = c.compress(big) + c.flush()
    crc = zlib.crc32(big)
    off = local(b"bomb.txt", data, len(big), crc, 8)
    members.append((b"bomb.txt", off, crc, len(data), len(big), 8))
    small = b"overlapping members: see http://flat.bomb.example/\n" * 1000
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = c.compress(small) + c.flush()
    crc = zlib.crc32(small)
    off = local(b"flat-1.txt", data, len(small), crc, 8)
    members.append((b"flat-1.txt", off, crc, len(data), len(small), 8))
    members.append((b"flat-2.txt", off, crc, len(data), len(small), 8))
    last = b"The rest is read: http://after.bomb.example/index.html\n"
    crc = zlib.crc32(last)
    off = local(b"after.txt", last, len(last), crc, 0)
    members.append((b"after.txt", off, crc, len(last), len(last), 0))
    cd = out.tell()
    for name, off, crc, cs, us, method in members:
        out.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0,
                              method, 0, 0x21, crc, cs, us, len(name), 0, 0,
                              0, 0, 0, off))
        out.write(name)
    end = out.tell()
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members),
                          len(members), end - cd, cd, 0))
    out_dir = os.path.join(ROOT, "tests", "data", "archive")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bomb.zip"), "wb") as f:
        f.write(out.getvalue())


def main():
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "corpora")
    maildir(shared)
    eml_zip()
    bomb_zip()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generates the large synthetic inputs of benches/compare.sh: sparse.txt,
prose.txt and dense.txt. Standard library only; deterministic for a given
--seed and --size.

  sparse.txt  log-like lines (Apache access, syslog, application logs)
              with timestamps, IPs and scheme-less paths: many ':' but
              about one URL per 4 KB (mostly Referer URLs).
  needle.txt  the needle in a haystack: application and system logs
              with ISO timestamps, IPv6 addresses and key=value pairs
              holding colons (about 96,000 ':' per MiB) and about two
              lines with a URL per MiB.
  prose.txt   mail and RFC-like text: the paragraphs of the bundled
              corpora (corpora/text/*, corpora/mail/*.eml, read at
              generation time) repeated in shuffled order.
  dense.txt   URL-heavy text: lists of URLs, bare and in <...>, quotes,
              parentheses, Markdown links, mailto:, <URL:...> wrapped
              across lines, trailing punctuation.

Usage: gen_inputs.py [--size 256M] [--out DIR] [--corpora DIR]
                     [--seed N] [--only sparse,prose,dense,needle]
"""

import argparse
import os
import random
import re
import sys

NAMES = ("sparse", "prose", "dense", "needle")
BLOCK = 1 << 20  # bytes buffered before each write

MONTHS = ("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec").split()
WORDS = (
    "index about news archive download docs api search static images "
    "css js assets blog posts 2024 2025 article view item product cart "
    "user profile settings login logout help faq contact rfc drafts pub "
    "software release notes changelog mirror dist packages src lib wiki "
    "Main_Page Special talk list threads msg attachments feed rss"
).split()
TLDS = ("com", "org", "net", "edu", "example", "de", "fr", "co.uk", "io")
HOSTWORDS = (
    "www example mail lists ftp cdn static news archive docs git "
    "mirror download api search shop blog intranet w3 ietf kernel "
    "sourceforge debian gnu apache mozilla wikipedia python"
).split()
SCHEMES = ("http", "http", "http", "https", "https", "ftp")
AGENTS = (
    "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 "
    "Firefox/118.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "curl/7.88.1",
    "Wget/1.21.3",
    "Python-urllib/3.11",
    "Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1",
)
BOT_AGENT = (
    "Mozilla/5.0 (compatible; Googlebot/2.1; "
    "+http://www.google.com/bot.html)"
)
LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
DAEMONS = ("sshd", "cron", "postfix/smtpd", "kernel", "systemd", "named")


def parse_size(text):
    """'256M', '64MiB', '1G', '4096', '512K' -> bytes (binary units)."""
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgG]?)(i?[bB])?\s*", text)
    if not m:
        raise argparse.ArgumentTypeError("bad size: %r" % text)
    mult = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    return int(m.group(1)) * mult[m.group(2).lower()]


class Out:
    """Writes exactly `size` bytes, the last one a newline."""

    def __init__(self, path, size):
        self.f = open(path, "wb")
        self.size = size
        self.written = 0
        self.parts = []
        self.pending = 0

    def full(self):
        return self.written + self.pending >= self.size

    def add(self, data):
        self.parts.append(data)
        self.pending += len(data)
        if self.pending >= BLOCK:
            self.flush()

    def flush(self):
        data = b"".join(self.parts)
        self.parts = []
        self.pending = 0
        room = self.size - self.written
        if len(data) >= room:
            data = data[:room]
            if data:
                data = data[:-1] + b"\n"
        self.f.write(data)
        self.written += len(data)

    def close(self):
        self.flush()
        self.f.close()


def host(rng):
    parts = [rng.choice(HOSTWORDS)]
    if rng.random() < 0.5:
        parts.insert(0, rng.choice(HOSTWORDS))
    return ".".join(parts) + "." + rng.choice(TLDS)


def path(rng, max_segments=5):
    segs = [rng.choice(WORDS) for _ in range(rng.randint(0, max_segments))]
    p = "/" + "/".join(segs)
    r = rng.random()
    if r < 0.3:
        p += (
            "/" if segs else ""
        ) + rng.choice(WORDS) + rng.choice((".html", ".txt", ".php", ".gz"))
    elif r < 0.4 and segs:
        p += "/"
    return p


def url(rng):
    u = "%s://%s" % (rng.choice(SCHEMES), host(rng))
    if rng.random() < 0.05:
        u += ":" + str(rng.choice((8080, 8000, 443, 21, 3128)))
    u += path(rng)
    if rng.random() < 0.25:
        u += "?%s=%s" % (rng.choice(WORDS), rng.randint(1, 99999))
        if rng.random() < 0.4:
            u += "&%s=%s" % (rng.choice(WORDS), rng.choice(WORDS))
    if rng.random() < 0.1:
        u += "#" + rng.choice(WORDS)
    return u


def ip(rng):
    if rng.random() < 0.03:
        return "2001:db8:%x:%x::%x" % (
            rng.randint(0, 0xFFFF),
            rng.randint(0, 0xFFFF),
            rng.randint(1, 0xFFFF),
        )
    return "%d.%d.%d.%d" % (
        rng.choice((10, 66, 83, 192, 203, 217)),
        rng.randint(0, 255),
        rng.randint(0, 255),
        rng.randint(1, 254),
    )


class Clock:
    """A timestamp that moves forward a few seconds per line."""

    def __init__(self, rng):
        self.rng = rng
        self.t = 0  # seconds since 2026-01-01 00:00:00

    def tick(self):
        self.t += self.rng.randint(0, 3)
        day, s = divmod(self.t, 86400)
        month, mday = divmod(day % 336, 28)
        return (
            MONTHS[month],
            mday + 1,
            s // 3600,
            s // 60 % 60,
            s % 60,
            month + 1,
        )


def gen_sparse(out, rng):
    clock = Clock(rng)
    since_url = 0  # bytes written since the last URL
    # One URL per 4 KB on average: a line gets one when the bytes since
    # the last URL pass a threshold drawn around 4096.
    threshold = rng.randint(2048, 6144)
    while not out.full():
        mon, mday, hh, mm, ss, mnum = clock.tick()
        want_url = since_url >= threshold
        kind = rng.random()
        if kind < 0.7:
            # Apache combined log format.
            method = rng.choice(("GET", "GET", "GET", "POST", "HEAD"))
            p = path(rng)
            if rng.random() < 0.2:
                p += "?id=%d&t=%d:%02d" % (rng.randint(1, 9999), hh, mm)
            referer = "-"
            agent = rng.choice(AGENTS)
            if want_url:
                if rng.random() < 0.9:
                    referer = url(rng)
                else:
                    agent = BOT_AGENT
            line = '%s - - [%02d/%s/2026:%02d:%02d:%02d +0000] "%s %s ' \
                'HTTP/1.1" %d %d "%s" "%s"\n' % (
                    ip(rng), mday, mon, hh, mm, ss, method, p,
                    rng.choice((200, 200, 200, 304, 404, 301, 500)),
                    rng.randint(0, 200000), referer, agent,
                )
        elif kind < 0.85:
            # syslog.
            d = rng.choice(DAEMONS)
            msg = rng.choice((
                "Accepted publickey for %s from %s port %d ssh2" % (
                    rng.choice(WORDS), ip(rng), rng.randint(1024, 65535)),
                "connect from unknown[%s]" % ip(rng),
                "(root) CMD (run-parts /etc/cron.hourly)",
                "client %s#%d: query: %s IN A +" % (
                    ip(rng), rng.randint(1024, 65535), host(rng)),
                "eth0: link up, 1000Mbps, full-duplex, lpa 0x%04X" %
                rng.randint(0, 0xFFFF),
            ))
            if want_url:
                msg += " (see %s)" % url(rng)
            line = "%s %2d %02d:%02d:%02d %s %s[%d]: %s\n" % (
                mon, mday, hh, mm, ss, rng.choice(HOSTWORDS), d,
                rng.randint(100, 99999), msg,
            )
        else:
            # Application log: ISO timestamp, level, thread, key=value.
            msg = "%s.%s: request %s took %dms status=%d key=%s:%d" % (
                rng.choice(("org.example", "c.e.app", "io.netty")),
                rng.choice(("Handler", "Pool", "Client", "Cache")),
                path(rng, 3), rng.randint(1, 5000),
                rng.choice((200, 404, 503)), rng.choice(WORDS),
                rng.randint(1, 99),
            )
            if want_url:
                msg += " upstream=%s" % url(rng)
            line = "2026-%02d-%02d %02d:%02d:%02d,%03d %-5s [%s-%d] %s\n" % (
                mnum, mday, hh, mm, ss, rng.randint(0, 999),
                rng.choice(LEVELS), rng.choice(("main", "worker", "io")),
                rng.randint(1, 16), msg,
            )
        data = line.encode("ascii")
        out.add(data)
        if want_url:
            since_url = 0
            threshold = rng.randint(2048, 6144)
        else:
            since_url += len(data)


# Keys of key=value pairs: no scheme names (`news:12` would be a URL).
KEYS = ("shard", "node", "queue", "slot", "region", "zone", "pool")


def ip6(rng):
    return "2001:db8:%x:%x:%x:%x::%x" % tuple(
        rng.randint(0, 0xFFFF) for _ in range(5))


def gen_needle(out, rng):
    """Logs with a URL about every 512 KiB and colons everywhere else."""
    clock = Clock(rng)
    since_url = 0
    threshold = rng.randint(256 << 10, 768 << 10)
    while not out.full():
        mon, mday, hh, mm, ss, mnum = clock.tick()
        want_url = since_url >= threshold
        stamp = "2026-%02d-%02dT%02d:%02d:%02d.%06d+00:00" % (
            mnum, mday, hh, mm, ss, rng.randint(0, 999999))
        kind = rng.random()
        if kind < 0.5:
            # Structured application log: key=value pairs, several of
            # them with colons (addresses, durations, ids).
            msg = ("level=%s svc=%s peer=[%s]:%d local=%s:%d "
                   "trace=%08x:%04x:%x dur=%d:%02d.%03d path=%s" % (
                       rng.choice(LEVELS).lower(),
                       rng.choice(("auth", "gw", "cache", "db")),
                       ip6(rng), rng.randint(1024, 65535), ip(rng),
                       rng.randint(1, 65535), rng.getrandbits(32),
                       rng.getrandbits(16), rng.getrandbits(8),
                       rng.randint(0, 9), rng.randint(0, 59),
                       rng.randint(0, 999), path(rng, 3)))
            if want_url:
                msg += " callback=%s" % url(rng)
            line = "%s %s\n" % (stamp, msg)
        elif kind < 0.8:
            # syslog with an RFC 3339 stamp and IPv6 peers.
            msg = rng.choice((
                "connection from %s port %d on %s port 22" % (
                    ip6(rng), rng.randint(1024, 65535), ip6(rng)),
                "DHCPv6 reply: addr %s/64 lifetime %d:%02d:%02d" % (
                    ip6(rng), rng.randint(0, 23), rng.randint(0, 59),
                    rng.randint(0, 59)),
                "eth%d: neighbour %s lladdr %s REACHABLE" % (
                    rng.randint(0, 3), ip6(rng),
                    ":".join("%02x" % rng.getrandbits(8) for _ in range(6))),
            ))
            if want_url:
                msg += " (see %s)" % url(rng)
            line = "%s %s %s[%d]: %s\n" % (
                stamp, rng.choice(HOSTWORDS), rng.choice(DAEMONS),
                rng.randint(100, 99999), msg)
        else:
            # Java-style log with a thread and a timing summary.
            msg = "%s.%s: took %d:%02d:%02d.%03d mem=%d:%d:%d key=%s:%d" % (
                rng.choice(("org.example", "c.e.app", "io.netty")),
                rng.choice(("Handler", "Pool", "Client", "Cache")),
                rng.randint(0, 1), rng.randint(0, 59), rng.randint(0, 59),
                rng.randint(0, 999), rng.randint(1, 999),
                rng.randint(1, 999), rng.randint(1, 999),
                rng.choice(KEYS), rng.randint(1, 99))
            if want_url:
                msg += " upstream=%s" % url(rng)
            line = "%s %-5s [%s-%d] %s\n" % (
                stamp, rng.choice(LEVELS),
                rng.choice(("main", "worker", "io")),
                rng.randint(1, 16), msg)
        data = line.encode("ascii")
        out.add(data)
        if want_url:
            since_url = 0
            threshold = rng.randint(256 << 10, 768 << 10)
        else:
            since_url += len(data)


def corpus_paragraphs(corpora):
    """Paragraphs (runs of lines between blank lines) of corpora/text/*
    and corpora/mail/*.eml, as bytes, in a fixed order."""
    files = []
    for sub, ext in (("text", None), ("mail", ".eml")):
        d = os.path.join(corpora, sub)
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if os.path.isfile(p) and (ext is None or name.endswith(ext)):
                files.append(p)
    if not files:
        sys.exit("gen_inputs.py: no corpus files under %s" % corpora)
    paras = []
    for p in files:
        with open(p, "rb") as f:
            data = f.read().replace(b"\r\n", b"\n")
        for para in re.split(rb"\n[ \t\f]*\n", data):
            para = para.strip(b"\n")
            if para.strip():
                paras.append(para + b"\n\n")
    return paras


def gen_prose(out, rng, corpora):
    paras = corpus_paragraphs(corpora)
    while not out.full():
        order = list(range(len(paras)))
        rng.shuffle(order)
        for i in order:
            out.add(paras[i])
            if out.full():
                break


def wrapped(rng, u, indent):
    """`u` broken across lines at a `/` or `.`, the way mail clients and
    RFC text wrap long URLs."""
    cuts = [i for i, c in enumerate(u) if c in "/." and i > 10]
    if not cuts:
        return u
    i = rng.choice(cuts) + 1
    return u[:i] + "\n" + indent + u[i:]


def gen_dense(out, rng):
    while not out.full():
        u = url(rng)
        r = rng.random()
        if r < 0.15:
            s = "%s\n" % u
        elif r < 0.30:
            s = "  <%s>\n" % u
        elif r < 0.40:
            s = 'See "%s" for details.\n' % u
        elif r < 0.50:
            s = "More (see %s) in the archive,\n" % u
        elif r < 0.58:
            s = "[%s](%s)\n" % (rng.choice(WORDS), u)
        elif r < 0.66:
            s = "Write to <mailto:%s@%s>, or mailto:%s@%s.\n" % (
                rng.choice(WORDS), host(rng), rng.choice(WORDS), host(rng))
        elif r < 0.76:
            s = "The document is at <URL:%s>.\n" % wrapped(
                rng, u + path(rng, 3), "    ")
        elif r < 0.82:
            s = "<%s>\n" % wrapped(rng, u, "   ")
        elif r < 0.90:
            s = "- %s, %s; %s.\n" % (u, url(rng), url(rng))
        elif r < 0.95:
            s = "'%s' <a href=\"%s\">%s</a>\n" % (u, url(rng),
                                                  rng.choice(WORDS))
        else:
            s = "ftp://%s/pub/%s.tar.gz news:comp.%s.%s %s!\n" % (
                host(rng), rng.choice(WORDS), rng.choice(WORDS),
                rng.choice(WORDS), u)
        out.add(s.encode("ascii"))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=parse_size, default=parse_size("256M"),
                    help="bytes per file, K/M/G suffixes (default 256M)")
    ap.add_argument("--out", default=".", help="output directory")
    ap.add_argument("--corpora", default=os.path.join(here, "..", "corpora"),
                    help="the repo's corpora/ (for prose.txt)")
    ap.add_argument("--seed", type=int, default=1738)
    ap.add_argument("--only", default=",".join(NAMES),
                    help="comma-separated subset of: " + ", ".join(NAMES))
    args = ap.parse_args()
    only = [n for n in args.only.split(",") if n]
    for n in only:
        if n not in NAMES:
            ap.error("unknown input %r" % n)
    os.makedirs(args.out, exist_ok=True)
    for k, name in enumerate(NAMES):
        if name not in only:
            continue
        # A seed per file: generating one file alone gives the same bytes.
        rng = random.Random(args.seed * 1000 + k)
        path_out = os.path.join(args.out, name + ".txt")
        tmp = path_out + ".tmp"
        out = Out(tmp, args.size)
        if name == "sparse":
            gen_sparse(out, rng)
        elif name == "prose":
            gen_prose(out, rng, args.corpora)
        elif name == "needle":
            gen_needle(out, rng)
        else:
            gen_dense(out, rng)
        out.close()
        os.replace(tmp, path_out)
        print("%s: %d bytes" % (path_out, out.written), file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the web-archive samples of corpora/web/ with warcio 1.8.1
(PyPI): sample.warc (uncompressed) and sample.warc.gz (the same records,
one gzip member each, as crawlers write them). Run from anywhere:

    pip install warcio==1.8.1 && python3 corpora/web/make_samples.py

The records, in order:
 1. warcinfo (application/warc-fields);
 2. request: GET with a Referer header;
 3. response: the HTML part of corpora/mail/sa-easy_ham_2-00869...eml
    (SpamAssassin public corpus; quoted-printable undone by Python's
    email package), served as text/html at http://news.example.org/tech/;
 4. response: a short page with relative links, a <base>-less document
    resolved against WARC-Target-URI, sent chunked and gzip-compressed;
 5. resource: lines 1215-1230 of corpora/text/rfc1738.txt (the appendix
    example of URLs wrapped across lines) as text/plain;
 6. metadata: a WAT-style JSON record (Common Crawl's WAT layout) with links;
 7. conversion: a WET-style text/plain record (the text of record 3);
 8. revisit: headers only, with a Location header;
 9. response: application/json with URLs in its strings.
Dates and record IDs are fixed so the files are the same on every run.
"""
import email
import gzip
import io
import json
import os
import re
import uuid

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

HERE = os.path.dirname(os.path.abspath(__file__))
CORPORA = os.path.dirname(HERE)
DATE = "2026-11-25T12:00:00Z"


def html_of_mail():
    path = os.path.join(
        CORPORA, "mail", "sa-easy_ham_2-00869.0fbb783356f6875063681dc49cfcb1eb.eml"
    )
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f)
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            return part.get_payload(decode=True)
    raise SystemExit("no text/html part")


def rfc_lines():
    with open(os.path.join(CORPORA, "text", "rfc1738.txt"), "rb") as f:
        return b"".join(f.readlines()[1214:1230])


RELATIVE = b"""<!DOCTYPE html>
<html><head><title>Links</title>
<link rel="stylesheet" href="../style/site.css"></head>
<body><p>See <a href="/about/team.html">the team</a>,
<a href="next.html?p=2">the next page</a>, <img src="img/logo.png">
and the archive at http://archive.example.net/2026/ for older notes.</p>
</body></html>
"""


def chunked(data, size=97):
    out = b""
    for i in range(0, len(data), size):
        piece = data[i : i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def records(w):
    ids = iter(uuid.UUID(int=i) for i in range(1, 100))

    def rec(uri, kind, payload, http=None, ctype=None, extra=None, length=None):
        headers = {
            "WARC-Date": DATE,
            "WARC-Record-ID": "<urn:uuid:%s>" % next(ids),
        }
        headers.update(extra or {})
        r = w.create_warc_record(
            uri,
            kind,
            payload=io.BytesIO(payload),
            length=length,
            http_headers=http,
            warc_content_type=ctype,
            warc_headers_dict=headers,
        )
        w.write_record(r)

    info = b"software: warcio/1.8.1\r\nformat: WARC File Format 1.1\r\nisPartOf: urlx-samples\r\ndescription: samples for urlx, see http://urlx.example/docs/warc\r\n"
    rec(None, "warcinfo", info, ctype="application/warc-fields")

    req = StatusAndHeaders(
        "GET /tech/ HTTP/1.1",
        [
            ("Host", "news.example.org"),
            ("Referer", "https://search.example.com/?q=mars+water"),
            ("User-Agent", "urlx-samples"),
        ],
        is_http_request=True,
    )
    rec("http://news.example.org/tech/", "request", b"", http=req)

    html = html_of_mail()
    resp = StatusAndHeaders(
        "200 OK",
        [
            ("Content-Type", "text/html; charset=iso-8859-1"),
            ("Content-Length", str(len(html))),
            ("Link", "<https://news.example.org/feed.xml>; rel=alternate"),
        ],
        protocol="HTTP/1.1",
    )
    rec("http://news.example.org/tech/", "response", html, http=resp)

    body = chunked(gzip.compress(RELATIVE, mtime=0))
    resp = StatusAndHeaders(
        "200 OK",
        [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Transfer-Encoding", "chunked"),
            ("Content-Encoding", "gzip"),
        ],
        protocol="HTTP/1.1",
    )
    rec("http://www.example.org/dir/page.html", "response", body, http=resp)

    rec(
        "http://www.example.org/rfc1738-appendix.txt",
        "resource",
        rfc_lines(),
        ctype="text/plain",
    )

    wat = {
        "Envelope": {
            "WARC-Header-Metadata": {
                "WARC-Type": "response",
                "WARC-Target-URI": "http://www.example.org/dir/page.html",
            },
            "Payload-Metadata": {
                "HTTP-Response-Metadata": {
                    "HTML-Metadata": {
                        "Links": [
                            {"path": "A@/href", "url": "/about/team.html"},
                            {"path": "A@/href", "url": "http://archive.example.net/2026/"},
                            {"path": "IMG@/src", "url": "img/logo.png"},
                        ]
                    }
                }
            },
        }
    }
    rec(
        "http://www.example.org/dir/page.html",
        "metadata",
        json.dumps(wat, indent=1).encode(),
        ctype="application/json",
        extra={"WARC-Refers-To": "<urn:uuid:%s>" % uuid.UUID(int=4)},
    )

    text = re.sub(rb"<[^>]*>", b" ", html)
    text = re.sub(rb"[ \t\r]+", b" ", text)
    rec(
        "http://news.example.org/tech/",
        "conversion",
        text,
        ctype="text/plain",
        extra={"WARC-Refers-To": "<urn:uuid:%s>" % uuid.UUID(int=3)},
    )

    resp = StatusAndHeaders(
        "301 Moved Permanently",
        [("Location", "https://www.example.org/dir/page.html")],
        protocol="HTTP/1.1",
    )
    rec(
        "http://www.example.org/dir/page.html",
        "revisit",
        b"",
        http=resp,
        extra={
            "WARC-Profile": "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
            "WARC-Refers-To-Target-URI": "http://www.example.org/dir/page.html",
        },
    )

    data = json.dumps(
        {"next": "https://api.example.com/v1/items?page=2", "docs": "see https://docs.example.com/api"}
    ).encode()
    resp = StatusAndHeaders(
        "200 OK",
        [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
        protocol="HTTP/1.1",
    )
    rec("https://api.example.com/v1/items", "response", data, http=resp)


def main():
    for name, gz in (("sample.warc", False), ("sample.warc.gz", True)):
        with open(os.path.join(HERE, name), "wb") as out:
            records(WARCWriter(out, gzip=gz, warc_version="1.1"))


if __name__ == "__main__":
    main()

"""Tests of the urlx Python package: the API, its errors, streaming, and
equality with the command line's JSON output on the bundled corpora.

The comparison with the command line needs the urlx binary: set URLX_BIN
(CI does), or build it with `cargo build --release` and the tests find
target/release/urlx.
"""

import gzip
import json
import os
import shutil
import subprocess
import threading
import time
import warnings
from pathlib import Path

import pytest

import urlx

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT / "corpora"


def urlx_bin():
    path = os.environ.get("URLX_BIN")
    if path:
        return path
    for build in ("release", "debug"):
        candidate = ROOT / "target" / build / "urlx"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("urlx")
    if found:
        return found
    pytest.skip("no urlx binary: set URLX_BIN or cargo build --release")


def cli_json(*args):
    out = subprocess.run(
        [urlx_bin(), "--json", *args], capture_output=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_the_readme_example():
    hits = urlx.find(b"see <URL:http://a.example/x>")
    assert [h.url for h in hits] == ["http://a.example/x"]
    assert hits[0].context == "url-prefix"
    assert hits[0].valid is True


def test_appendix_e_examples():
    # The examples of Appendix E of draft-fielding-uri-rfc2396bis (and
    # RFC 2396): quotes, angle brackets across a line break, <URL:...>.
    text = (
        b'Yes, Jim, I found it under "http://www.w3.org/Addressing/",\n'
        b"but you can probably pick it up from <ftp://ds.internic.\n"
        b"net/rfc/>.  Note the warning in <URL:http://www.ics.uci.edu/pub/\n"
        b"ietf/uri/historical.html#WARNING>."
    )
    assert [h.url for h in urlx.find(text)] == [
        "http://www.w3.org/Addressing/",
        "ftp://ds.internic.net/rfc/",
        "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
    ]


def test_str_input_has_utf8_byte_offsets():
    text = "caf\u00e9 http://b.example/\u00e9t\u00e9 done"
    (hit,) = urlx.find(text)
    assert hit.url == "http://b.example/\u00e9t\u00e9"
    data = text.encode()
    assert data[hit.start : hit.end].decode() == hit.url
    assert (hit.line, hit.column) == (1, 7)


def test_relative_references_resolve_against_base():
    hits = urlx.find(b"<URL:../y/z?q>", base="http://b.example/d/e/")
    assert [(h.url, h.resolved) for h in hits] == [
        ("../y/z?q", "http://b.example/d/y/z?q")
    ]


def test_fields_and_to_dict_match_the_cli(tmp_path):
    data = (CORPORA / "text" / "rfc1738.txt").read_bytes()
    hits = urlx.find(data, name=str(CORPORA / "text" / "rfc1738.txt"))
    assert len(hits) > 10
    want = cli_json(str(CORPORA / "text" / "rfc1738.txt"))
    assert [h.to_dict() for h in hits] == want
    h = hits[0]
    for key, value in want[0].items():
        assert getattr(h, key) == value
    assert h.message is None  # provenance only for mail


@pytest.mark.parametrize(
    "name",
    [
        "mail/kasan-dev-2.mboxrd",
        "mail/usrp-users-4.mboxrd.gz",
        "mail/sa-hard_ham-00247.42534d5df0700cb2adf240556c539947.eml",
        "mail/spamassassin-spam-utf16.eml",
        "news/20news-test-sci.space-61448.txt",
        "logs/elastic-apache_logs.lines-0001-0200.log",
        "tnef/unicode-mapi-attr-name.tnef",
        "msg/spamscope-mail_outlook_1.msg",
    ],
)
def test_scan_file_equals_the_cli(name):
    path = str(CORPORA / name)
    got = [h.to_dict() for h in urlx.scan_file(path)]
    assert got == cli_json(path)
    assert got, "the sample has URLs"


def test_mail_hits_carry_provenance():
    path = CORPORA / "mail" / "kasan-dev-2.mboxrd"
    hits = list(urlx.scan_file(path))
    assert {h.message for h in hits} == {1, 2}
    assert all(h.message_id for h in hits)
    assert {h.source for h in hits} <= {"header", "text", "html-attr", "html-text"}
    headers = [h for h in hits if h.source == "header"]
    assert headers and all(h.header for h in headers)


def test_find_reads_outlook_formats():
    raw = (CORPORA / "msg" / "strangeDate.msg").read_bytes()
    # As text, only what is written in the file's bytes as they are.
    assert all(h.decoded is None for h in urlx.find(raw))
    hits = urlx.find(raw, format="msg")
    assert hits and all(h.decoded == "msg" for h in hits)
    assert urlx.find(raw, format="auto") == hits
    tnef = (CORPORA / "tnef" / "long-filename.tnef").read_bytes()
    assert [h.url for h in urlx.find(tnef, format="tnef")] == [
        "mailto:msimpson@numega.com"
    ]


def test_find_reads_mail_when_told():
    raw = (CORPORA / "mail" / "kasan-dev-2.mboxrd").read_bytes()
    as_text = urlx.find(raw)
    as_mail = urlx.find(raw, format="mbox")
    assert as_mail and all(h.message is not None for h in as_mail)
    assert all(h.message is None for h in as_text)
    assert urlx.find(raw, format="auto") == as_mail


def test_compressed_data_by_magic_bytes():
    raw = b"see http://gz.example/a\n"
    packed = gzip.compress(raw)
    assert urlx.find(packed) == []  # not decompressed by default
    (hit,) = urlx.find(packed, decompress=True)
    assert hit.url == "http://gz.example/a"


def test_options():
    text = b"www.example.com/a mail bob@example.org hxxp://evil[.]example/x"
    assert urlx.find(text) == []
    assert [h.abbreviated for h in urlx.find(text, abbreviated=True)] == ["www"]
    assert [h.resolved for h in urlx.find(text, emails=True)] == [
        "mailto:bob@example.org"
    ]
    (fanged,) = urlx.find(text, refang=True)
    assert fanged.refanged and fanged.resolved == "http://evil.example/x"
    log = b"GET /r?to=http%3A%2F%2Fa.example%2Fx HTTP/1.1 aHR0cDovL2IuZXhhbXBsZS8="
    assert urlx.find(log) == []
    got = [(h.url, h.encoded, h.start) for h in urlx.find(log, encoded=True)]
    assert got == [
        ("http://a.example/x", "percent", 10),
        ("http://b.example/", "base64", 46),
    ]
    both = b"http://a.example/ ftp://b.example/"
    assert [h.url for h in urlx.find(both, schemes=["ftp"])] == [
        "ftp://b.example/"
    ]
    bad = b"http://a.example:99x/"
    assert urlx.find(bad) == []
    (invalid,) = urlx.find(bad, invalid=True)
    assert invalid.valid is False and invalid.errors


def test_threads_give_the_same_hits():
    data = (CORPORA / "text" / "rfc1738.txt").read_bytes() * 40
    one = urlx.find(data)
    assert urlx.find(data, threads=2) == one
    assert urlx.find(data, threads=0) == one


def test_resolve_rfc3986_examples():
    # RFC 3986 section 5.4.1 and 5.4.2.
    base = "http://a/b/c/d;p?q"
    cases = {
        "g:h": "g:h",
        "g": "http://a/b/c/g",
        "//g": "http://g",
        "?y": "http://a/b/c/d;p?y",
        "#s": "http://a/b/c/d;p?q#s",
        "": "http://a/b/c/d;p?q",
        "../..": "http://a/",
        "../../../g": "http://a/g",
        "/./g": "http://a/g",
        "g;x=1/../y": "http://a/b/c/y",
    }
    for ref, want in cases.items():
        assert urlx.resolve(base, ref) == want, ref


def test_normalize():
    assert (
        urlx.normalize("HTTP://Example.COM:80/%7Ea/./b/../c")
        == "http://example.com/~a/c"
    )


def test_errors():
    with pytest.raises(ValueError, match="not absolute"):
        urlx.find(b"x", base="../relative")
    with pytest.raises(ValueError, match="unknown format"):
        urlx.find(b"x", format="pdf")
    with pytest.raises(ValueError, match="unknown source"):
        urlx.find(b"x", sources=["body"])
    with pytest.raises(TypeError):
        urlx.find(12)
    with pytest.raises(TypeError):
        urlx.find(b"x", schemes="http")
    with pytest.raises(ValueError):
        urlx.resolve("relative/base", "g")
    with pytest.raises(FileNotFoundError, match="no-such-file"):
        list(urlx.scan_file("/no-such-file"))
    with pytest.raises(IsADirectoryError):
        urlx.scan_file(CORPORA)


def test_binary_file_gives_a_warning(tmp_path):
    f = tmp_path / "mixed.log"
    f.write_bytes(b"http://before.example/\n" + b"x" * 70000 + b"\0 http://after.example/\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urls = [h.url for h in urlx.scan_file(f)]
    assert urls == ["http://before.example/"]
    assert any(issubclass(w.category, urlx.UrlxWarning) for w in caught)
    urls = [h.url for h in urlx.scan_file(f, binary=True)]
    assert urls == ["http://before.example/", "http://after.example/"]


def test_stream_stops_early_and_is_bounded(tmp_path):
    # 200,000 URLs (about 6 MB of JSON): taking the first few must not
    # wait for the rest, and dropping the iterator ends the scan.
    f = tmp_path / "many.txt"
    with open(f, "wb") as out:
        for i in range(200_000):
            out.write(b"http://h%d.example/p\n" % i)
    start = time.perf_counter()
    it = urlx.scan_file(f)
    first = [next(it).url for _ in range(3)]
    it.close()
    assert first == ["http://h0.example/p", "http://h1.example/p", "http://h2.example/p"]
    assert time.perf_counter() - start < 5
    assert sum(1 for _ in urlx.scan_file(f)) == 200_000


def test_the_gil_is_released_while_scanning():
    data = (CORPORA / "text" / "rfc1738.txt").read_bytes() * 400  # ~20 MB
    ticks = 0
    done = threading.Event()

    def spin():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.05)
        before = ticks
        urlx.find(data)
        during = ticks - before
    finally:
        done.set()
        t.join()
    assert during > 1000, during


def test_the_package_docstring_examples():
    import doctest

    result = doctest.testmod(urlx)
    assert result.attempted >= 3 and result.failed == 0


def test_web_archive_records():
    path = CORPORA / "web" / "sample.warc.gz"
    hits = list(urlx.scan_file(path))
    assert [h.to_dict() for h in hits] == cli_json(str(path))
    page = [h for h in hits if h.target_uri == "http://www.example.org/dir/page.html"
            and h.record_type == "response"]
    assert [h.resolved for h in page][:2] == [
        "http://www.example.org/style/site.css",
        "http://www.example.org/about/team.html",
    ]
    assert all(h.record_id.startswith("urn:uuid:") for h in hits)
    assert all(isinstance(h.record_offset, int) for h in hits)
    # Found in memory too, the format decided from the bytes.
    data = gzip.decompress(path.read_bytes())
    assert [h.url for h in urlx.find(data, format="auto")] == [h.url for h in hits]
    assert urlx.find(b"http://x.example/")[0].record_id is None


def test_every_attribute_equals_its_json_field():
    # Some fields are read from the hit, the others computed on first
    # access: both must give what --json gives.
    names = [n for n in dir(urlx.Hit) if not n.startswith("_")]
    samples = [
        CORPORA / "mail" / "kasan-dev-2.mboxrd",
        CORPORA / "web" / "sample.warc",
        CORPORA / "text" / "rfc1738.txt",
    ]
    for path in samples:
        for hit in urlx.scan_file(path, abbreviated=True, emails=True, invalid=True):
            fields = hit.to_dict()
            for name in FIELDS:
                assert getattr(hit, name) == fields.get(name), (path, name)
            assert set(fields) <= set(FIELDS)
    assert "to_dict" in names or hasattr(urlx.Hit, "to_dict")


FIELDS = [
    "url", "resolved", "uri", "normalized", "valid", "repaired", "errors",
    "warnings", "scheme", "host", "port", "path", "query", "fragment",
    "file", "line", "column", "start", "end", "context", "hyphen_break",
    "alternative", "abbreviated", "refanged", "encoded", "unwrapped",
    "message", "message_id", "part", "header", "attribute", "anchor_text", "source",
    "decoded",
    "record_offset", "record_id", "record_type", "target_uri",
    "content_type",
]


def test_hits_are_read_only_and_name_their_fields():
    hit = urlx.find(b"see http://a.example/x")[0]
    with pytest.raises(AttributeError):
        hit.url = "x"
    with pytest.raises(AttributeError):
        hit.no_such_field
    assert set(FIELDS) <= set(dir(hit))
    assert repr(hit) == "Hit(url='http://a.example/x', valid=True, line=1, column=5)"
    assert hit == urlx.find(b"see http://a.example/x")[0]
    assert hit != urlx.find(b"see http://b.example/x")[0]


def test_hits_compare_like_dicts():
    a, b = urlx.find(b"http://a.example/ http://a.example/")
    assert a.to_dict() != b.to_dict() and a != b  # different offsets
    assert a == urlx.find(b"http://a.example/ http://a.example/")[0]
    assert a != "http://a.example/"
    with pytest.raises(TypeError):
        hash(a)


def test_an_anchor_showing_another_site_is_a_deceptive_link():
    mail = (
        b"From: a@example.org\nSubject: x\nContent-Type: text/html\n\n"
        b'<a href="http://evil.example.net/login">'
        b"https://www.bank.example.com/</a>"
    )
    hit = urlx.find(mail, format="eml")[0]
    assert hit.url == "http://evil.example.net/login"
    assert hit.anchor_text == "https://www.bank.example.com/"
    codes = [w["code"] for w in hit.to_dict()["warnings"]]
    assert codes == ["deceptive-link"]

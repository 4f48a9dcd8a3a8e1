"""urlx: find, delimit, validate and resolve URLs in mail, news, text and logs.

The extractor is urlx's Rust library; this package gives it to Python.
Each hit is a :class:`Hit` with the fields of the JSON object that
``urlx --json`` prints for it, with the same values: ``url`` as written
(joined where it was broken across lines), ``resolved`` (RFC 3986
section 5, against the base in force), ``valid``, ``errors``,
``warnings``, the components (``scheme``, ``host``, ``port``, ``path``,
``query``, ``fragment``), ``start`` and ``end`` (byte offsets, of the
UTF-8 encoding for a ``str``), ``line`` and ``column`` (1-based),
``context``, and for mail, news and web archives where the hit was found
(``message``, ``message_id``, ``part``, ``header``, ``attribute``,
``source``, ``decoded``; ``record_offset``, ``record_id``,
``record_type``, ``target_uri``, ``content_type`` for web archives),
``None`` where a field does not apply. ``hit.to_dict()`` is the JSON
object. The URL, its resolved form, validity, position and provenance
are read from the hit; the other fields (URI and normal forms,
components, warnings) are computed when one of them is first read, so
a caller that reads ``url`` alone pays for no more.

>>> import urlx
>>> [h.url for h in urlx.find(b"see <URL:http://a.example/x>")]
['http://a.example/x']
>>> urlx.resolve("http://a/b/c/d;p?q", "../g")
'http://a/b/g'
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from . import _urlx
from ._urlx import Hit

__all__ = [
    "Hit",
    "UrlxWarning",
    "find",
    "scan_file",
    "resolve",
    "normalize",
    "__version__",
]

__version__: str = _urlx.VERSION

#: Default of ``max_url_len``: the longest URL found, in bytes.
DEFAULT_MAX_URL_LEN = 8192


class UrlxWarning(UserWarning):
    """A note about the input: a file skipped as binary, a problem met
    decoding a mail message (its text was read all the same)."""


def _options(args: Dict[str, Any]) -> Any:
    """The extension's checked options from the keyword arguments of
    :func:`find` or :func:`scan_file` (their ``locals()``)."""
    kw = {k: v for k, v in args.items() if k not in ("data", "name", "path")}
    if kw["threads"] < 0:
        raise ValueError("threads must be 0 (one per CPU) or more")
    for what in ("schemes", "sources"):
        if kw[what] is not None:
            kw[what] = _names(kw[what], what)
    return _urlx.Options(**kw)


def _names(names: Iterable[str], what: str) -> List[str]:
    if isinstance(names, str):
        raise TypeError(f"{what} must be a list of names, not a str")
    return list(names)


def find(
    data: Union[bytes, bytearray, str],
    *,
    base: Optional[str] = None,
    format: str = "text",
    abbreviated: bool = False,
    emails: bool = False,
    domains: bool = False,
    refang: bool = False,
    encoded: bool = False,
    schemes: Optional[Iterable[str]] = None,
    sources: Optional[Iterable[str]] = None,
    invalid: bool = False,
    attachments: bool = False,
    decompress: Optional[bool] = None,
    binary: bool = True,
    max_url_len: int = DEFAULT_MAX_URL_LEN,
    threads: int = 1,
    name: str = "<data>",
) -> List[Hit]:
    """Every URL in ``data``, in order, as :class:`Hit` objects.

    ``format`` is how ``data`` is read: ``"text"`` (the default),
    ``"mbox"``, ``"mmdf"``, ``"babyl"``, ``"eml"``, ``"news"``, ``"tnef"``, ``"msg"``,
    ``"maildir"`` (one message), ``"warc"`` (WARC, WET or WAT records) or
    ``"auto"`` (decided from the first bytes, as the command line does).
    ``base`` resolves relative references (``<URL:../x>``, HTML links),
    where a message gives none of its own. ``abbreviated``, ``emails``,
    ``domains``, ``refang`` and ``encoded`` also find ``www.`` hosts, bare
    e-mail addresses, bare domain names, defanged URLs and URLs written
    percent-encoded, in base64 or in hex (``encoded`` names which); ``schemes`` keeps only
    URLs of those schemes; ``sources`` only those from those places of a
    message (``"header"``, ``"text"``, ``"html-attr"``, ``"html-text"``).
    ``invalid`` also gives candidates that are not valid URLs, with their
    ``errors``. ``decompress=True`` reads gzip, bzip2, xz and zstd data by
    its magic bytes. ``binary=False`` stops at a NUL byte, as the command
    line does with files (a :class:`UrlxWarning` says so). ``threads`` is
    the number of threads (1, the default, scans on the calling thread:
    frameworks that call a function per record run one per core already;
    0 means one per CPU). ``name`` is the ``file`` field of each hit.

    The GIL is released while scanning. Raises ``ValueError`` for a bad
    option (a base that is not an absolute URI, an unknown format).
    """
    options = _options(locals())
    hits, notes = _urlx.find(data, name, options)
    for note in notes:
        warnings.warn(note, UrlxWarning, stacklevel=2)
    return hits


def scan_file(
    path: Union[str, "os.PathLike[str]"],
    *,
    base: Optional[str] = None,
    format: str = "auto",
    abbreviated: bool = False,
    emails: bool = False,
    domains: bool = False,
    refang: bool = False,
    encoded: bool = False,
    schemes: Optional[Iterable[str]] = None,
    sources: Optional[Iterable[str]] = None,
    invalid: bool = False,
    attachments: bool = False,
    decompress: Optional[bool] = None,
    binary: bool = False,
    max_url_len: int = DEFAULT_MAX_URL_LEN,
    threads: int = 1,
) -> Iterator[Hit]:
    """The URLs of the file at ``path``, streamed in order.

    The file is read and scanned by a thread of its own while the hits
    are consumed, a few hand-overs of 512 hits ahead at most, so memory
    stays bounded whatever the file's size (the same bound as the command
    line's). The format is decided from the first bytes by default (a web
    archive, an mbox, a single message, news, plain text); files named
    ``*.gz``, ``*.bz2``, ``*.xz`` and ``*.zst`` are decompressed
    (``decompress=True``: any file by its magic bytes, ``False``: none).
    A file with a NUL byte is treated as
    the command line treats it (skipped, or searched up to it) with a
    :class:`UrlxWarning`, unless ``binary=True``. The other options are
    those of :func:`find`; each hit's ``file`` is ``path``.

    Raises ``OSError`` (``FileNotFoundError``, ...) when the file cannot
    be opened or read, after the hits found before the error.
    """
    options = _options(locals())
    return _stream(_urlx.Scan(os.fspath(path), options))


def _stream(scan: Any) -> Iterator[Hit]:
    try:
        for item in scan:
            if isinstance(item, str):
                warnings.warn(item, UrlxWarning, stacklevel=3)
            else:
                yield from item
    finally:
        scan.close()


def resolve(base: str, reference: str) -> str:
    """``reference`` resolved against ``base`` (RFC 3986 section 5.2).

    Raises ``ValueError`` when ``base`` is not an absolute URI.
    """
    return _urlx.resolve(base, reference)


def normalize(url: str) -> str:
    """The normal form of ``url`` (RFC 3986 6.2.2 and 6.2.3): scheme and
    host in lower case, escapes of unreserved characters decoded and the
    others in upper case, dot segments removed, a default port dropped."""
    return _urlx.normalize(url)

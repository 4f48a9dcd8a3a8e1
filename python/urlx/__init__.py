"""urlx: find, delimit, validate and resolve URLs in mail, news, text and logs.

The extractor is urlx's Rust library; this package gives it to Python.
Each hit is a :class:`Hit` with the fields of the JSON object that
``urlx --json`` prints for it, with the same values.

>>> import urlx
>>> [h.url for h in urlx.find(b"see <URL:http://a.example/x>")]
['http://a.example/x']
>>> urlx.resolve("http://a/b/c/d;p?q", "../g")
'http://a/b/g'
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from . import _urlx

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


class Hit:
    """One URL found, with the fields of ``urlx --json``.

    ``url`` is the URL as written (joined where it was broken across
    lines), ``resolved`` its absolute form (RFC 3986 section 5, against
    the base in force), ``valid`` whether it is a valid URI by RFC 3986
    and its scheme's rules. ``start`` and ``end`` are byte offsets in the
    input (in its UTF-8 encoding when a ``str`` was given), ``line`` and
    ``column`` are 1-based. The provenance fields (``message``,
    ``message_id``, ``part``, ``header``, ``attribute``, ``source``,
    ``decoded``) are set for hits in mail, news and web archives, and
    the record fields (``record_offset``, ``record_id``, ``record_type``,
    ``target_uri``, ``content_type``) for hits in web archives (WARC, WET,
    WAT); each is ``None`` where it does not apply.
    """

    __slots__ = ("_fields",)

    url: str
    resolved: Optional[str]
    uri: Optional[str]
    normalized: Optional[str]
    valid: bool
    repaired: Optional[str]
    errors: List[str]
    warnings: List[Dict[str, str]]
    scheme: Optional[str]
    host: Optional[str]
    port: Optional[int]
    path: str
    query: Optional[str]
    fragment: Optional[str]
    file: str
    line: int
    column: int
    start: int
    end: int
    context: str
    hyphen_break: bool
    alternative: Optional[str]
    abbreviated: Optional[str]
    refanged: bool
    unwrapped: Optional[str]
    message: Optional[int]
    message_id: Optional[str]
    part: Optional[str]
    header: Optional[str]
    attribute: Optional[str]
    source: Optional[str]
    decoded: Optional[str]
    record_offset: Optional[int]
    record_id: Optional[str]
    record_type: Optional[str]
    target_uri: Optional[str]
    content_type: Optional[str]

    def __init__(self, fields: Dict[str, Any]) -> None:
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name: str) -> Any:
        # Only for the names above (the JSON object's keys): provenance
        # keys are absent from hits not in mail, and read as None.
        if name in _FIELDS:
            return self._fields.get(name)
        raise AttributeError(f"'Hit' object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Hit is read-only")

    def __dir__(self) -> List[str]:
        return sorted(_FIELDS | {"to_dict"})

    def to_dict(self) -> Dict[str, Any]:
        """The hit as the JSON object ``urlx --json`` prints (a new dict,
        provenance keys only for hits in mail, news and web archives)."""
        return json.loads(json.dumps(self._fields))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hit):
            return NotImplemented
        return self._fields == other._fields

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Hit(url={self.url!r}, valid={self.valid!r}, "
            f"line={self.line!r}, column={self.column!r})"
        )


#: The fields of a hit: the keys of the JSON object of ``urlx --json``.
_FIELDS = frozenset(Hit.__annotations__)


def _hits(lines: bytes) -> List[Hit]:
    """The hits of JSON Lines from the extension (each line one object,
    none with a raw line break inside: JSON escapes them)."""
    if not lines:
        return []
    array = b"[" + lines.rstrip(b"\n").replace(b"\n", b",") + b"]"
    return [Hit(f) for f in json.loads(array)]


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
    ``"mbox"``, ``"eml"``, ``"news"``, ``"maildir"`` (one message),
    ``"warc"`` (WARC, WET or WAT records) or ``"auto"`` (decided from the
    first bytes, as the command line does).
    ``base`` resolves relative references (``<URL:../x>``, HTML links),
    where a message gives none of its own. ``abbreviated``, ``emails``,
    ``domains`` and ``refang`` also find ``www.`` hosts, bare e-mail
    addresses, bare domain names and defanged URLs; ``schemes`` keeps only
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
    lines, notes = _urlx.find(data, name, options)
    for note in notes:
        warnings.warn(note, UrlxWarning, stacklevel=2)
    return _hits(lines)


def scan_file(
    path: Union[str, "os.PathLike[str]"],
    *,
    base: Optional[str] = None,
    format: str = "auto",
    abbreviated: bool = False,
    emails: bool = False,
    domains: bool = False,
    refang: bool = False,
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
    are consumed, a few chunks ahead at most, so memory stays bounded
    whatever the file's size (the same bound as the command line's). The
    format is decided from the first bytes by default (a web archive, an
    mbox, a single message, news, plain text); files named ``*.gz``, ``*.bz2``, ``*.xz``
    and ``*.zst`` are decompressed (``decompress=True``: any file by its
    magic bytes, ``False``: none). A file with a NUL byte is treated as
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
                yield from _hits(item)
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

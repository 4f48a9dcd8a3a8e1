"""Types of the extension module urlx._urlx (use the urlx package)."""

from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

VERSION: str

class Hit:
    """One URL found, with the fields of ``urlx --json``."""

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
    encoded: Optional[str]
    unwrapped: Optional[str]
    message: Optional[int]
    message_id: Optional[str]
    part: Optional[str]
    header: Optional[str]
    attribute: Optional[str]
    anchor_text: Optional[str]
    source: Optional[str]
    decoded: Optional[str]
    record_offset: Optional[int]
    record_id: Optional[str]
    record_type: Optional[str]
    target_uri: Optional[str]
    content_type: Optional[str]
    def to_dict(self) -> Dict[str, Any]: ...
    def __eq__(self, other: object) -> bool: ...

class Options:
    """The options of urlx.find and urlx.scan_file, checked."""

    def __init__(
        self,
        *,
        base: Optional[str],
        format: str,
        abbreviated: bool,
        emails: bool,
        domains: bool,
        refang: bool,
        encoded: bool,
        schemes: Optional[List[str]],
        sources: Optional[List[str]],
        invalid: bool,
        attachments: bool,
        decompress: Optional[bool],
        binary: bool,
        max_url_len: int,
        threads: int,
    ) -> None: ...

def find(
    data: Union[bytes, bytearray, str], name: str, options: Options
) -> Tuple[List[Hit], List[str]]: ...

class Scan(Iterator[Union[List[Hit], str]]):
    def __init__(self, path: str, options: Options) -> None: ...
    def __iter__(self) -> "Scan": ...
    def __next__(self) -> Union[List[Hit], str]: ...
    def close(self) -> None: ...

def resolve(base: str, reference: str) -> str: ...
def normalize(url: str) -> str: ...
